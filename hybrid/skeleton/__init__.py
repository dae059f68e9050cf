"""The skeleton: a planned outline as tokens, with each span's precedents before it."""
