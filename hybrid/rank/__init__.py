"""Ranking: likelihood, relevance as PMI, contract checks, diversity and the reranker that combines them."""
