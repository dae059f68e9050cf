"""Precedents: the clause library (train split), relevance, the composed definitions, each span's start."""
