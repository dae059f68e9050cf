"""hybrid.skeleton.tokenized: the tokenized skeleton is the training layout, spans are budgets ending in
<eos>, locks pin tokens, pages cover long documents within the training window."""

import pytest
import torch

from hybrid.common.errors import SamplingError
from hybrid.data.document import Document, Section, Segment
from hybrid.data.windows import KIND_HEADING, KIND_SPAN, document_tokens
from hybrid.skeleton.tokenized import as_token_skeleton, from_document, from_template, tokenize_segments
from hybrid.templates.template import load_template


def _doc(n_sections=3, body="The Supplier shall deliver the Products on time. ", repeat=2):
    secs = [
        Section(str(i + 1), f"Heading {i + 1}", "general", body * repeat + f"Clause {i}.") for i in range(n_sections)
    ]
    return Document(
        "x.txt",
        "test",
        "SUPPLY",
        "test",
        "g",
        "SUPPLY AGREEMENT",
        "This Agreement is made by A and B.",
        secs,
        tail="Signed.\n",
    )


def test_document_skeleton_is_the_training_tokenization(tokenizer):
    doc = _doc()
    sk = from_document(tokenizer, doc)
    ids, kind, section = document_tokens(doc, tokenizer)  # one <eos> after each body
    filled = sk.ids.clone()
    for s, ref in zip(sk.spans, sk.reference):
        assert s.length == len(ref) + 1
        assert (
            bool((sk.ids[s.start : s.end - 1] == tokenizer.mask_id).all())
            and int(sk.ids[s.end - 1]) == tokenizer.eos_id
        )
        filled[s.start : s.end - 1] = torch.tensor(ref)
    assert filled.tolist() == ids
    assert sk.kind.tolist() == kind and sk.section.tolist() == section
    assert sk.render([doc.sections[i].body for i in range(3)]) == doc.text


def test_template_skeleton_spans_have_the_clause_budgets(tokenizer):
    t = load_template("mutual-nda")
    skel = t.render_skeleton(t.example_outline(), t.example)
    sk = from_template(tokenizer, skel)
    assert [s.length for s in sk.spans] == [s.budget for s in skel.spans]
    assert [s.clause for s in sk.spans] == [s.clause for s in skel.spans]
    assert sk.spans[0].required_terms == skel.spans[0].required_terms
    assert bool(sk.span_mask.sum() == sum(s.budget for s in skel.spans))
    # the heading tokens of each section precede its span and carry its section id
    for s in sk.spans:
        head = (sk.heading_ids == s.section).nonzero().flatten()
        assert len(head) > 0 and int(head.max()) == s.start - 1
    assert sk.render([""] * len(sk.spans)) == skel.text


def test_lock_pins_tokens_and_checks_the_range(tokenizer):
    sk = from_document(tokenizer, _doc())
    locked = sk.lock_text(tokenizer, 1, " Acme", offset=2)
    s = locked.spans[1]
    n = len(tokenizer.encode(" Acme"))
    assert locked.ids[s.start + 2 : s.start + 2 + n].tolist() == tokenizer.encode(" Acme")
    assert bool(locked.locked[s.start + 2 : s.start + 2 + n].all())
    assert not bool(sk.locked[s.start + 2])  # the original is unchanged
    with pytest.raises(SamplingError, match="span must be in"):
        sk.lock(7, 0, [5])
    with pytest.raises(SamplingError, match="does not fit span 1"):
        sk.lock(1, s.length - 1, [5])


def _long(tokenizer, n_spans=12, budget=60, filler=30):
    segs = [Segment("LONG AGREEMENT\n\n" + "Recital text. " * filler + "\n\n", "text")]
    for i in range(n_spans):
        segs += [
            Segment(f"{i + 1}. Heading {i}.\n", "heading", i),
            Segment("", "body", i),
            Segment("\n\n" + "x " * filler, "text"),
        ]
    return tokenize_segments(tokenizer, segs, [budget] * n_spans)


@pytest.mark.parametrize("window,budget", [(128, 40), (256, 60), (512, 100), (512, 480)])
def test_pages_cover_every_span_once_within_the_window(tokenizer, window, budget):
    sk = _long(tokenizer, budget=budget)
    assert len(sk) > window
    pages = sk.pages(window, min_context=16)
    assert sorted(i for p in pages for i in p.spans) == list(range(len(sk.spans)))
    for p in pages:
        spans = [sk.spans[i] for i in p.spans]
        assert p.start <= spans[0].start and spans[-1].end <= p.end
        assert p.end - p.start <= max(window, max(s.length for s in spans) + 16)
        for s in spans:  # a span's own heading is inside its page
            assert p.start <= int((sk.heading_ids == s.section).nonzero().min())


def test_short_document_is_one_page(tokenizer):
    sk = from_document(tokenizer, _doc(1, repeat=1))
    assert len(sk) <= 512
    (page,) = sk.pages(512)
    assert (page.start, page.end) == (0, len(sk))


def test_a_skeleton_without_spans_is_a_sampling_error(tokenizer):
    with pytest.raises(SamplingError, match="at least one span.*got 0"):
        tokenize_segments(tokenizer, [Segment("TITLE\n\n", "text")], [])
    with pytest.raises(SamplingError, match="budget of span 0 must be an integer >= 2"):
        tokenize_segments(tokenizer, [Segment("", "body", 0)], [1])
    with pytest.raises(SamplingError, match="skeleton must be"):
        as_token_skeleton(tokenizer, "not a skeleton")


def test_kinds_mark_headings_and_spans(tokenizer):
    sk = from_document(tokenizer, _doc(2))
    for s in sk.spans:
        assert bool((sk.kind[s.start : s.end] == KIND_SPAN).all())
        assert bool((sk.section[s.start : s.end] == s.section).all())
    assert int((sk.kind == KIND_HEADING).sum()) > 0
