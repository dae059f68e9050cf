"""Token windows for joint training: documents -> fixed-length (ids, kind, section) rows.

Owns: a Document's training tokens (laid out by hybrid.data.layout, with random span slack),
cutting them into overlapping windows, and the planner's (prompt -> outline) pairs. Knows
nothing about models or losses.

Row arrays (all length `length`):
- ids: token ids, padded with <pad>
- kind: 0 skeleton text, 1 heading, 2 span (clause body), 3 padding
- section: section index for headings and spans (renumbered per window from 0), -1 otherwise
- is_plan: the row is a planner pair (AR loss only; no spans)

Every clause body is followed by one or more <eos> tokens that belong to the span: at drafting
time a span is a fixed token budget and the text ends early with <eos> filling the rest, so the
model must have seen spans whose text stops before the region does. Training draws the number
of trailing <eos> at random (`slack`); evaluation uses exactly one.
"""

import random
from dataclasses import dataclass

import torch

from hybrid.data.document import Document
from hybrid.data.layout import KIND_HEADING, KIND_PAD, KIND_SPAN, KIND_TEXT, lay_out, window_starts
from hybrid.data.plan_format import OUTLINE_TOKEN, PLAN_TOKEN, outline_json, plan_prompt

__all__ = [
    "Rows",
    "KIND_TEXT",
    "KIND_HEADING",
    "KIND_SPAN",
    "KIND_PAD",
    "document_tokens",
    "document_windows",
    "plan_rows",
]

MAX_SLACK = 48  # most extra <eos> a training body draws (bounded: a span's budget is finite)


@dataclass
class Rows:
    ids: torch.Tensor  # (N, L) long
    kind: torch.Tensor  # (N, L) long
    section: torch.Tensor  # (N, L) long
    is_plan: torch.Tensor  # (N,) bool

    def __len__(self):
        return self.ids.shape[0]

    @staticmethod
    def cat(parts: list["Rows"]) -> "Rows":
        return Rows(*(torch.cat([getattr(p, f) for p in parts]) for f in ("ids", "kind", "section", "is_plan")))

    def select(self, idx) -> "Rows":
        return Rows(self.ids[idx], self.kind[idx], self.section[idx], self.is_plan[idx])


def document_tokens(doc: Document, tok, slack: random.Random | None = None) -> tuple[list[int], list[int], list[int]]:
    """(ids, kind, section) of <bos><doc> + every segment + <eos> (hybrid.data.layout).

    Each body is followed by 1 <eos> (slack None) or 1 + U{0..min(len/2, 48)} <eos> drawn from `slack`.
    """
    extra = (lambda body: 1 + slack.randint(0, min(len(body) // 2, MAX_SLACK))) if slack else None
    lay = lay_out(tok, doc.segments(), trailing_eos=extra)
    return lay.ids, lay.kind, lay.section


def _pad(seq: list[int], length: int, value: int) -> list[int]:
    return seq + [value] * (length - len(seq))


def document_windows(docs: list[Document], tok, length: int, stride: int, seed: int | None = None) -> Rows:
    """Overlapping windows (stride < length overlaps) over every document; seed draws span slack."""
    assert 0 < stride <= length, f"stride must be in (0, {length}], got {stride}"
    ids_rows, kind_rows, sec_rows = [], [], []
    slack = random.Random(seed) if seed is not None else None
    for doc in docs:
        ids, kind, section = document_tokens(doc, tok, slack)
        for s in window_starts(len(ids), length, stride):
            w_sec = section[s : s + length]
            base = min((x for x in w_sec if x >= 0), default=0)
            ids_rows.append(_pad(ids[s : s + length], length, tok.pad_id))
            kind_rows.append(_pad(kind[s : s + length], length, KIND_PAD))
            sec_rows.append(_pad([x - base if x >= 0 else -1 for x in w_sec], length, -1))
    n = len(ids_rows)
    return Rows(
        torch.tensor(ids_rows), torch.tensor(kind_rows), torch.tensor(sec_rows), torch.zeros(n, dtype=torch.bool)
    )


def plan_rows(docs: list[Document], tok, length: int) -> Rows:
    """One planner pair per document with >= 1 section: <bos><plan>{prompt}<outline>{outline}<eos>."""
    rows = []
    for doc in docs:
        if not doc.sections:
            continue
        ids = (
            [tok.bos_id, tok.token_id(PLAN_TOKEN)]
            + tok.encode(plan_prompt(doc.doc_type, doc.fields))
            + [tok.token_id(OUTLINE_TOKEN)]
            + tok.encode(outline_json(doc.outline()))
            + [tok.eos_id]
        )
        rows.append(_pad(ids[:length], length, tok.pad_id))
    n = len(rows)
    kind = torch.tensor(rows) == tok.pad_id
    return Rows(
        torch.tensor(rows).reshape(n, length),
        torch.where(kind, KIND_PAD, KIND_TEXT).reshape(n, length),
        torch.full((n, length), -1),
        torch.ones(n, dtype=torch.bool),
    )
