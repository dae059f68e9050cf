import random

import torch

from hybrid.data.document import Document, Section
from hybrid.data.plan_format import OUTLINE_TOKEN, PLAN_TOKEN
from hybrid.data.windows import KIND_HEADING, KIND_PAD, KIND_SPAN, document_tokens, document_windows, plan_rows


def _doc():
    sections = [
        Section("1", "Confidentiality", "confidentiality", "Each party shall keep the other's information secret."),
        Section("2", "Governing Law", "governing_law", "This Agreement is governed by the laws of Delaware."),
    ]
    return Document("x.txt", "test", "MUTUAL NDA", "train", "g", "MUTUAL NDA", "This Agreement is between A and B.",
                    sections, "Signed: A, B", {"party_a": "A", "party_b": "B"})


def test_span_tokens_decode_to_the_bodies_plus_one_eos(tokenizer):
    doc = _doc()
    ids, kind, section = document_tokens(doc, tokenizer)
    for i, s in enumerate(doc.sections):
        span_ids = [t for t, k, sec in zip(ids, kind, section) if k == KIND_SPAN and sec == i]
        assert tokenizer.decode(span_ids) == s.body + "<eos>"
        head_ids = [t for t, k, sec in zip(ids, kind, section) if k == KIND_HEADING and sec == i]
        assert tokenizer.decode(head_ids) == f"{s.number}. {s.heading}.\n"
    text_ids = [t for t, k in zip(ids, kind) if k != KIND_SPAN]
    assert tokenizer.decode(ids[:2]) == "<bos><doc>"
    assert len(text_ids) + sum(k == KIND_SPAN for k in kind) == len(ids)


def test_slack_adds_between_1_and_48_eos_per_span(tokenizer):
    doc = _doc()
    ids, kind, _ = document_tokens(doc, tokenizer, random.Random(0))
    base, _, _ = document_tokens(doc, tokenizer)
    extra = len(ids) - len(base)
    assert 0 <= extra <= 2 * 48


def test_windows_overlap_cover_the_document_and_pad(tokenizer):
    doc = _doc()
    ids, _, _ = document_tokens(doc, tokenizer)
    rows = document_windows([doc], tokenizer, length=16, stride=12)
    assert rows.ids.shape[1] == 16
    assert rows.ids[0].tolist() == ids[:16]
    covered = set()
    for r in range(len(rows)):
        covered.update(range(r * 12, r * 12 + 16))
    assert max(covered) >= len(ids) - 1
    small = document_windows([doc], tokenizer, length=len(ids) + 5, stride=len(ids) + 5)
    assert len(small) == 1 and int((small.kind == KIND_PAD).sum()) == 5


def test_plan_rows_hold_prompt_then_outline(tokenizer):
    rows = plan_rows([_doc()], tokenizer, length=256)
    assert bool(rows.is_plan.all())
    text = tokenizer.decode([t for t in rows.ids[0].tolist() if t != tokenizer.pad_id])
    assert text.startswith("<bos>" + PLAN_TOKEN + '{"type": "MUTUAL NDA"')
    assert OUTLINE_TOKEN + '{"title": "MUTUAL NDA"' in text and text.endswith("<eos>")
    assert '"clause": "governing_law"' in text
    assert torch.all(rows.section == -1)
