"""Corpus ingestion: cleaning, segmentation into skeleton and clause bodies, outlines, splits."""
