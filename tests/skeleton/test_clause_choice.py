"""Drafting's clause choice (hybrid.skeleton.clause_choice): a clause inserted where a base lacks one is the best
answer of `hybrid rank`'s scorer to the item's query, and drafts.json says which query it answered. On the real
train-split library (built into .cache on first use, as hybrid.draft does)."""

import json
from types import SimpleNamespace

import pytest

from hybrid.skeleton.clause_choice import NEAR, insert_query, ranked
from hybrid.templates.template import load_template


@pytest.fixture(scope="module")
def library():
    from hybrid.precedents.library import load_library

    return load_library(progress=False)


class _ByLength:
    """A scorer that prefers the longer candidate text (or the shorter: sign -1), far beyond NEAR; it records the
    queries it was asked."""

    def __init__(self, sign: int):
        self.sign, self.queries = sign, []

    def score(self, query, texts):
        self.queries.append(query)
        return [self.sign * len(t.split()) for t in texts]


def test_the_inserted_clause_is_the_scorers_choice(library):
    from hybrid.skeleton.from_base import base_variants

    t = load_template("distributor")  # its best base lacks a cap and a termination for breach, each with options
    index = {p.id: p for p in library.precedents}
    longest, shortest = _ByLength(1), _ByLength(-1)
    long_ = base_variants(library, t, t.example, 1, scorer=longest)[0].inserted
    short = base_variants(library, t, t.example, 1, scorer=shortest)[0].inserted
    assert long_ and [r["for"] for r in long_] == [r["for"] for r in short]
    words = lambda r: len(index[r["source"]].body.split())  # noqa: E731
    assert all(words(a) >= words(b) for a, b in zip(long_, short))
    assert any(a["source"] != b["source"] for a, b in zip(long_, short))  # the scorer, not the library order, chose
    assert {r["query"] for r in long_} <= set(longest.queries)


def test_drafting_asks_hybrid_ranks_scorer_the_items_query(library, monkeypatch):
    from hybrid.precedents.relevance import DEFAULT_WEIGHTS, RelevanceScorer
    from hybrid.skeleton.from_base import base_variants

    asked = []
    score = RelevanceScorer.score

    def spy(self, spec, candidates, pmi=None):
        asked.append((self.weights, spec))
        return score(self, spec, candidates, pmi)

    monkeypatch.setattr(RelevanceScorer, "score", spy)
    t = load_template("distributor")
    inserted = base_variants(library.use_relevance(), t, t.example, 1)[0].inserted
    assert inserted
    for rec in inserted:
        assert rec["query"] == insert_query(t, rec["label"]) == f"{rec['label']} in a distributor agreement"
        assert (DEFAULT_WEIGHTS, rec["query"]) in asked  # the weights `hybrid rank` scores with (RelevanceScorer())
    assert RelevanceScorer().weights == DEFAULT_WEIGHTS


def test_near_answers_go_shortest_first_and_a_clear_one_wins_whatever_its_length():
    p = lambda words: SimpleNamespace(heading="", body=" ".join(["w"] * words))  # noqa: E731
    long_, short, far = p(200), p(50), p(10)
    fixed = SimpleNamespace(score=lambda q, texts: [0.60, 0.60 - NEAR / 2, 0.60 - 2 * NEAR])
    assert [c for _, c in ranked(fixed, "q", [long_, short, far])] == [short, long_, far]
    clear = SimpleNamespace(score=lambda q, texts: [0.60, 0.60 - 2 * NEAR])
    assert [c for _, c in ranked(clear, "q", [long_, far])] == [long_, far]


def test_drafts_json_says_which_query_each_inserted_clause_answered(library):
    from hybrid.cli.draft_output import draft_report
    from hybrid.skeleton.from_base import base_variants

    t = load_template("distributor")
    bv = base_variants(library, t, t.example, 1, scorer=_ByLength(-1))[0]
    draft = SimpleNamespace(rank=1, score=0.0, scores={}, variant=0, words=0, sections=[], fields=t.example,
                            source_facts=None, consistency={}, base=bv.summary(), checks={})
    report = json.loads(json.dumps(draft_report(t, t.example, {}, 7, {}, {}, {}, [draft])))
    recorded = report["drafts"][0]["base"]["inserted"]
    assert recorded and all(r["query"] == insert_query(t, r["label"]) for r in recorded)


def test_an_alternative_is_the_scorers_best_answer_to_its_sections_text(library):
    from hybrid.skeleton.clause_choice import clause_text
    from hybrid.skeleton.from_base import base_variants

    t = load_template("one-way-nda")  # one whole form of the kind: variants past the first take alternatives
    index = {p.id: p for p in library.precedents}
    longest, shortest = _ByLength(1), _ByLength(-1)
    long_ = [a for v in base_variants(library, t, t.example, 3, scorer=longest)[1:] for a in v.alternatives]
    short = [a for v in base_variants(library, t, t.example, 3, scorer=shortest)[1:] for a in v.alternatives]
    assert long_ and short and [a["source"] for a in long_] != [a["source"] for a in short]
    words = lambda a: len(index[a["source"]].body.split())  # noqa: E731
    assert max(map(words, long_)) > min(map(words, short))
    base = base_variants(library, t, t.example, 1, scorer=shortest)[0]
    for a in short:  # the query is the replaced section's own text, as the base has it
        assert a["query"] in shortest.queries and a["query"] == clause_text(base.draws[a["section"]])
