"""The shipped relevance scorer on a few clauses of ACORD's train queries, rated by legal experts
(acord_train_sample.json beside this file: ACORD, The Atticus Project, CC BY 4.0; train split only, valid and test
never). The real MiniLM, embeddings in memory only. A pin on the behaviour, not a measure: the measure is
benchmarks/relevance_acord.py."""

import dataclasses
import itertools
import json
from pathlib import Path

import pytest

from hybrid.precedents.relevance import DEFAULT_WEIGHTS, EmbeddingCache, RelevanceScorer, minilm_encoder

SAMPLE = json.loads((Path(__file__).with_name("acord_train_sample.json")).read_text())
QUERIES = SAMPLE["queries"]


@pytest.fixture(scope="module")
def embed():
    return EmbeddingCache(minilm_encoder(), path=None)


def misordered(query: dict, scores: list[float]) -> list[tuple]:
    """The pairs of clauses the experts rated apart that the scores do not put strictly in the experts' order."""
    rated = [(c["rating"], s, c["corpus_id"]) for c, s in zip(query["clauses"], scores)]
    return [(a[2], b[2]) for a, b in itertools.permutations(rated, 2) if a[0] > b[0] and not a[1] > b[1]]


def test_the_sample_is_train_split_and_lists_each_query_lowest_rated_first():
    assert SAMPLE["split"] == "train" and "CC BY 4.0" in SAMPLE["source"]
    for q in QUERIES:
        ratings = [c["rating"] for c in q["clauses"]]
        assert ratings == sorted(ratings) and ratings[0] < ratings[-1], q["query"]


@pytest.mark.parametrize("query", QUERIES, ids=[q["query"] for q in QUERIES])
def test_the_default_scorer_orders_rated_acord_clauses_as_the_experts_do(query, embed):
    """Every clause rated higher scores strictly higher. Zeroed weights score every clause alike and fail, as does
    input order (each query lists its lowest-rated clause first)."""
    scores = RelevanceScorer(embed=embed).score(query["query"], [c["text"] for c in query["clauses"]])
    assert misordered(query, scores) == [], scores


def test_zeroed_weights_do_not_pass_that_ordering(embed):
    zeroed = dataclasses.replace(DEFAULT_WEIGHTS, **{k: 0.0 for k in DEFAULT_WEIGHTS.used()})
    zero = RelevanceScorer(zeroed, embed=embed)
    assert not zero.weights.used()
    for q in QUERIES:
        assert misordered(q, zero.score(q["query"], [c["text"] for c in q["clauses"]]))
