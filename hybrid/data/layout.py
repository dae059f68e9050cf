"""The token layout of a document: the one way every stage turns Segments into ids.

Owns: the `<bos><doc>` header, the segment loop (each segment tokenized on its own, so token
boundaries fall exactly on skeleton / span boundaries; each clause body followed by `<eos>`),
the per-token kind and section arrays, the substitution of bodies into a segment list, and
where training cuts a long sequence into windows (`window_starts`). Training windows
(hybrid.data.windows), the fillers' skeleton (hybrid.skeleton.tokenized) and likelihood scoring
(hybrid.rank.likelihood: bpb, the reranker, the evaluation harness, the benchmarks) all lay documents
out through `lay_out`, so what is scored and filled is what was trained on.

Knows nothing about models, losses or sampling: plain lists of ints.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hybrid.data.document import Segment

__all__ = ["DOC_TOKEN", "KIND_TEXT", "KIND_HEADING", "KIND_SPAN", "KIND_PAD", "Layout", "doc_header", "lay_out",
           "with_bodies", "window_starts"]

DOC_TOKEN = "<doc>"  # marks a document (as opposed to a planner pair, hybrid.data.plan_format)
KIND_TEXT, KIND_HEADING, KIND_SPAN, KIND_PAD = 0, 1, 2, 3
_KIND = {"text": KIND_TEXT, "heading": KIND_HEADING, "body": KIND_SPAN}


@dataclass
class Layout:
    """One document as token lists of equal length."""

    ids: list[int]
    kind: list[int]  # KIND_TEXT / KIND_HEADING / KIND_SPAN per token (a body's trailing <eos> is KIND_SPAN)
    section: list[int]  # section index of heading and span tokens, -1 for text
    spans: list[tuple[int, int]]  # [start, end) of each body with its trailing <eos>, document order

    @property
    def scored(self) -> list[bool]:
        """Which tokens a likelihood of the bodies scores: every body token and its <eos>."""
        return [k == KIND_SPAN for k in self.kind]


def doc_header(tok) -> list[int]:
    """The ids every document starts with: <bos><doc>."""
    return [tok.bos_id, tok.token_id(DOC_TOKEN)]


def with_bodies(segments: Sequence[Segment], bodies: Sequence[str]) -> list[str]:
    """Each segment's text, the i-th "body" segment's replaced by bodies[i]."""
    n_body = sum(s.kind == "body" for s in segments)
    assert n_body == len(bodies), f"{len(bodies)} bodies for {n_body} body segments"
    it = iter(bodies)
    return [next(it) if s.kind == "body" else s.text for s in segments]


def lay_out(tok, segments: Sequence[Segment], bodies: Sequence[list[int]] | None = None,
            trailing_eos: Callable[[list[int]], int] | None = None) -> Layout:
    """<bos><doc> + every segment + <eos>.

    bodies: the i-th body segment's token ids (None = tokenize each body segment's own text).
    trailing_eos(body ids) -> how many <eos> follow that body (None = one, as drafting and scoring use).
    """
    if bodies is None:
        encoded = tok.encode_batch([s.text for s in segments])
    else:
        fixed = iter(tok.encode_batch([s.text for s in segments if s.kind != "body"]))
        given = iter(bodies)
        encoded = [next(given) if s.kind == "body" else next(fixed) for s in segments]
    ids, kind, section, spans = doc_header(tok), [KIND_TEXT, KIND_TEXT], [-1, -1], []
    for seg, seg_ids in zip(segments, encoded):
        if seg.kind == "body":
            seg_ids = list(seg_ids) + [tok.eos_id] * (trailing_eos(seg_ids) if trailing_eos else 1)
            spans.append((len(ids), len(ids) + len(seg_ids)))
        ids += seg_ids
        kind += [_KIND[seg.kind]] * len(seg_ids)
        section += [seg.section if seg.kind != "text" else -1] * len(seg_ids)
    ids.append(tok.eos_id)
    kind.append(KIND_TEXT)
    section.append(-1)
    return Layout(ids, kind, section, spans)


def window_starts(n: int, length: int, stride: int) -> list[int]:
    """Where training cuts windows of `length` over n tokens: every `stride`, plus one ending at n."""
    starts = list(range(0, max(n - length, 0) + 1, stride))
    if starts[-1] + length < n:
        starts.append(n - length)
    return starts
