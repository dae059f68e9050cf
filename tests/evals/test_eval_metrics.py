"""evals.metrics: each metric on hand-checked tables; the reference likelihood scores every body token once."""

import math
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # evals/ is a top-level package of the repo

from evals import metrics  # noqa: E402
from hybrid.data.document import Segment  # noqa: E402


@pytest.mark.parametrize(
    "texts, n, want",
    [
        (["a b c d"], 1, 1.0),
        (["a a a a"], 1, 0.25),
        (["a b", "a b"], 2, 0.5),  # the same bigram in two variants counts once
        (["each party", "each Party"], 2, 0.5),  # a variant that differs only in capitals is no variety
        (["a b c", "c d e"], 2, 1.0),
        ([""], 2, None),
        (["one"], 2, None),
    ],
)
def test_distinct_n_pools_unique_ngrams_over_variants(texts, n, want):
    assert metrics.distinct_n(texts, n) == want


def test_self_bleu_is_one_for_identical_variants_and_near_zero_for_disjoint_ones():
    same = ["The Supplier shall deliver the Products within thirty days of the order."] * 3
    assert metrics.self_bleu(same) == pytest.approx(1.0)
    disjoint = [
        "alpha beta gamma delta epsilon zeta",
        "one two three four five six",
        "red green blue cyan magenta yellow",
    ]
    assert metrics.self_bleu(disjoint) < 0.05
    mixed = [same[0], "The Supplier shall deliver the Goods within ten days.", "Payment is due monthly."]
    assert 0.05 < metrics.self_bleu(mixed) < 1.0


@pytest.mark.parametrize("texts", [["only one variant"], ["", "text here"], []])
def test_self_bleu_needs_two_non_empty_variants(texts):
    assert metrics.self_bleu(texts) is None


@pytest.mark.parametrize(
    "bodies, want",
    [
        (["the cat sat on the cat sat on"], 1 / 5),  # 5 four-grams, "the cat sat on" once again
        (["a b c d", "a b c d"], 0.0),  # a repeat across clauses is not a repetition inside one
        (["a b c d a b c d a b c d"], 5 / 9),  # 9 four-grams, 4 distinct
        (["short"], None),
    ],
)
def test_repetition_rate_counts_repeats_inside_each_clause(bodies, want):
    got = metrics.repetition_rate(bodies)
    assert got == (pytest.approx(want) if want is not None else None)


@pytest.mark.parametrize(
    "clauses, bodies, required, want",
    [
        (["term", "payment"], ["This Agreement lasts two years.", ""], None, 0.5),
        (["term", "payment"], ["This Agreement lasts two years.", "Fees are due."], None, 1.0),
        (["term", "payment"], ["This Agreement lasts.", "Ok."], ["term", "governing_law"], 0.5),
        (["term"], ["Two words"], None, 0.0),  # under min_words=3 is not a clause
        ([], [], None, None),
    ],
)
def test_required_clause_fraction(clauses, bodies, required, want):
    assert metrics.required_clause_fraction(clauses, bodies, required) == want


def test_defined_terms_are_capitalized_short_quoted_terms_in_order():
    text = ('THIS AGREEMENT (the "Agreement") is made as of June 1 (the “Effective Date”) by Acme ("Distributor") '
            'and says "hello" and "A very long quoted sentence that is not a defined term at all".')
    assert metrics.defined_terms(text) == ["Agreement", "Effective Date", "Distributor"]


@pytest.mark.parametrize(
    "bodies, terms, want",
    [
        (["The Distributor shall pay.", "the distributor may sell."], ["Distributor"], 0.5),
        (["The Distributors met."], ["Distributor"], None),  # whole words only
        (["Acme Corp. and ACME CORP."], ["Acme Corp."], 0.5),
        (["No mention here."], ["Distributor"], None),
        (["The Agreement binds Acme Corp."], ["Agreement", "Acme Corp."], 1.0),
    ],
)
def test_term_consistency_counts_mentions_written_as_defined(bodies, terms, want):
    assert metrics.term_consistency(bodies, terms) == want


@pytest.mark.parametrize("n_words, want", [(0, []), (5, [5]), (128, [128]), (129, [65, 64]), (300, [100, 100, 100])])
def test_passages_cut_bodies_into_near_equal_pieces(n_words, want):
    text = " ".join(f"w{i}" for i in range(n_words))
    got = metrics.passages(text)
    assert [len(p.split()) for p in got] == want
    assert " ".join(got) == text


def test_mauve_is_high_for_one_distribution_low_for_two_and_flags_small_runs():
    rng = np.random.default_rng(0)
    p = rng.normal(size=(80, 8))
    same = metrics.mauve_from_features(p, rng.normal(size=(80, 8)), seeds=(1, 2))
    apart = metrics.mauve_from_features(p, rng.normal(size=(80, 8)) + 4.0, seeds=(1,))
    assert same["mauve"] > 0.8 > 0.3 > apart["mauve"]
    assert same["mauve_std"] >= 0 and same["seeds"] == [1, 2]
    assert not same["meaningful"] and "too small to be meaningful" in same["note"]
    assert metrics.mauve_from_features(p, p, seeds=(1,), meaningful_at=80)["meaningful"]


def test_mauve_is_not_computed_below_the_minimum():
    out = metrics.mauve_score(["a"] * 3, ["b"] * 50, embed=lambda t: pytest.fail("must not embed"))
    assert out["mauve"] is None and "not computed" in out["note"] and out["n_p"] == 3


def test_mauve_score_embeds_both_sides_through_the_given_embedder():
    calls = []

    def embed(texts):
        calls.append(len(texts))
        return np.array([[len(t), t.count("e")] for t in texts], dtype=float)

    p = [f"real clause number {i} " * (1 + i % 3) for i in range(20)]
    q = [f"generated text {i} " * (1 + i % 4) for i in range(15)]
    out = metrics.mauve_score(p, q, embed, seeds=(1,))
    assert calls == [20, 15] and (out["n_p"], out["n_q"]) == (20, 15) and 0 < out["mauve"] <= 1


def _doc_segments(bodies):
    segs = [
        Segment("SUPPLY AGREEMENT\n\n", "text"),
        Segment('This Agreement (the "Agreement") is made by Acme.\n\n', "text"),
    ]
    for i, b in enumerate(bodies):
        segs += [Segment(f"{i + 1}. Heading {i}.\n", "heading", i), Segment(b, "body", i), Segment("\n\n", "text")]
    return segs


BODIES = [
    "The Supplier shall deliver the Products.",
    "Fees are due within thirty days of invoice.",
    "This Agreement is governed by Delaware law.",
]


def test_span_nats_scores_each_body_token_and_its_eos_exactly_once(tokenizer):
    V = tokenizer.vocab_size

    class Uniform(torch.nn.Module):  # every token costs log V nats, whatever its context
        def __init__(self):
            super().__init__()
            self.output_weight = torch.nn.Parameter(torch.zeros(V, 1))

        def forward(self, x, mode, return_hidden=False):
            assert mode == "causal" and return_hidden
            return torch.zeros(*x.shape, 1)

    segs = _doc_segments(BODIES)
    n_scored = sum(len(tokenizer.encode(b)) + 1 for b in BODIES)
    for window, stride in ((512, 256), (16, 8), (12, 3)):
        nats, n_bytes = metrics.span_nats(
            Uniform(), tokenizer, segs, BODIES, window=window, stride=stride, max_batch_tokens=32
        )
        assert nats == pytest.approx(n_scored * math.log(V)), (window, stride)
        assert n_bytes == sum(len(b.encode()) for b in BODIES)


def test_span_nats_is_the_causal_nll_of_the_bodies_given_the_skeleton(tiny_model, tokenizer):
    segs = _doc_segments(BODIES)
    nats, _ = metrics.span_nats(tiny_model, tokenizer, segs, BODIES)
    ids, scored = [tokenizer.bos_id, tokenizer.token_id("<doc>")], [False, False]
    for s in segs:
        t = tokenizer.encode(s.text) + ([tokenizer.eos_id] if s.kind == "body" else [])
        ids += t
        scored += [s.kind == "body"] * len(t)
    with torch.no_grad():
        logp = torch.log_softmax(tiny_model(torch.tensor([ids]), "causal")[0, :-1].float(), -1)
    want = -sum(float(logp[i - 1, ids[i]]) for i in range(1, len(ids)) if scored[i])
    assert nats == pytest.approx(want, rel=1e-4)
    # the bodies are what is scored: other bodies, other nats; the skeleton text is context only
    other, _ = metrics.span_nats(tiny_model, tokenizer, segs, ["x"] * 3)
    assert other != pytest.approx(nats)


def test_bpb_is_nats_over_bytes_in_bits():
    assert metrics.bpb(math.log(2) * 10, 5) == pytest.approx(2.0)
    assert metrics.bpb(3.0, 0) is None


@pytest.mark.parametrize(
    "edit, want",
    [
        (lambda o: o, True),
        (lambda o: {**o, "sections": o["sections"][:1]}, False),
        (lambda o: {**o, "title": "lower case title"}, False),
        (lambda o: {"title": o["title"]}, False),
    ],
)
def test_outline_valid_checks_the_templates_outline_schema(edit, want):
    from hybrid.templates.template import load_template

    t = load_template("supply")
    assert metrics.outline_valid(t, edit(t.example_outline())) is want


def test_document_deal_terms_lists_per_section_the_deal_facts_its_real_body_states():
    from types import SimpleNamespace as NS

    from evals.metrics import document_deal_terms, first_words

    doc = NS(
        fields={"effective_date": "June 1, 2020", "governing_law": "Delaware"},
        sections=[
            NS(body="Acme Inc. shall pay Beta LLC."),
            NS(body="Governed by the laws of delaware."),
            NS(body="No facts."),
        ],
    )
    deal = NS(party_a="Acme Inc.", party_b="Beta LLC")
    assert document_deal_terms(doc, deal) == [["Acme Inc.", "Beta LLC"], ["Delaware"], []]
    assert first_words("one  two\nthree four", 3) == "one two three"
