"""Drafting: template + fields -> plan -> fill -> rank; the only package that imports every stage."""
