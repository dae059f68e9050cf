"""hybrid: contract drafting engine."""
