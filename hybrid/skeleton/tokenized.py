"""The tokenized skeleton: what both fillers (diffusion and AR) start from.

Owns: turning ordered Segments (a template Skeleton, a real corpus Document, or a hand-written
list) into token ids laid out exactly as training sees documents (hybrid.data.layout):
`<bos><doc>` + every segment tokenized on its own + `<eos>`, where each clause body is a *span*: a
fixed budget of positions whose text ends with `<eos>` filling the rest. It also owns the span
slots (where each span sits, its section, clause and required terms), the heading ids the
guidance hides, position locks, the rendering of filled bodies back into document text, and the
context windows ("pages") a long document is filled in.

`as_token_skeleton` is what every filler and the reranker accept. The filler's API
(FillResult, StepEvent, argument checks, processors) is hybrid.fill.api.

Knows nothing about models or sampling.

Why pages: the model has rotary positions up to 4096 but was trained on 512-token windows, so
a span should see about 512 positions around it. A page is a contiguous range of at most
`window` tokens holding whole spans plus the skeleton around them; each page is filled as an
independent context with positions rebased to 0 (as a training window), so documents of any
length fill and no position ever exceeds the window.
"""

from dataclasses import dataclass, field, replace

import torch

from hybrid.common.config import TrainConfig
from hybrid.common.errors import SamplingError
from hybrid.data.document import Document, Segment
from hybrid.data.layout import KIND_HEADING, KIND_SPAN, lay_out, with_bodies

__all__ = [
    "SpanSlot",
    "Page",
    "TokenSkeleton",
    "tokenize_segments",
    "from_template",
    "from_document",
    "as_token_skeleton",
    "DEFAULT_WINDOW",
]

# the training window of a checkpoint that records none (hybrid.rank.likelihood.trained_window)
DEFAULT_WINDOW = TrainConfig.seq_len


@dataclass
class SpanSlot:
    """One span: `length` positions from `start`; its text is followed by >= 1 <eos> inside it."""

    index: int  # span number in document order
    start: int  # first token position in the document sequence
    length: int  # budget in tokens, trailing <eos> included (text is at most length - 1 tokens)
    section: int  # section index (shared with its heading's tokens)
    clause: str = ""  # clause type, when known
    heading: str = ""  # the section heading text, when known
    required_terms: list[str] = field(default_factory=list)  # strings the body should mention
    locked_strings: list[str] = field(default_factory=list)  # party names / defined terms (checked downstream)

    @property
    def end(self) -> int:
        return self.start + self.length


@dataclass(frozen=True)
class Page:
    """A context window: positions [start, end) of the document; fills the spans listed."""

    start: int
    end: int
    spans: tuple[int, ...]


@dataclass
class TokenSkeleton:
    ids: torch.Tensor  # (T,) long: skeleton tokens, <mask> at open span positions, locked tokens in place
    kind: torch.Tensor  # (T,) long: KIND_TEXT / KIND_HEADING / KIND_SPAN
    section: torch.Tensor  # (T,) long: section of heading and span tokens, -1 for text
    locked: torch.Tensor  # (T,) bool: span positions pinned to ids (never changed by a filler)
    spans: list[SpanSlot]
    segments: list[Segment]  # the source segments (bodies empty or the reference text)
    mask_id: int
    eos_id: int
    reference: list[list[int]] | None = None  # real body token ids per span (from a Document)

    def __post_init__(self):
        assert self.ids.shape == self.kind.shape == self.section.shape == self.locked.shape, (
            "skeleton arrays differ in length"
        )

    def __len__(self) -> int:
        return self.ids.shape[0]

    @property
    def span_mask(self) -> torch.Tensor:
        return self.kind == KIND_SPAN

    @property
    def heading_ids(self) -> torch.Tensor:
        """(T,) section index on heading tokens, -1 elsewhere: what the unconditional rows hide."""
        return torch.where(self.kind == KIND_HEADING, self.section, torch.full_like(self.section, -1))

    @property
    def span_tokens(self) -> int:
        return sum(s.length for s in self.spans)

    def lock(self, span: int, offset: int, token_ids: list[int]) -> "TokenSkeleton":
        """A copy with token_ids pinned at `offset` inside span `span` (the last position stays <eos>)."""
        if not 0 <= span < len(self.spans):
            raise SamplingError(f"lock span must be in [0, {len(self.spans) - 1}], got {span}.")
        s = self.spans[span]
        if offset < 0 or offset + len(token_ids) > s.length - 1:
            raise SamplingError(
                f"lock of {len(token_ids)} tokens at offset {offset} does not fit span {span} "
                f"(budget {s.length}, the last position is its <eos>)."
            )
        ids, locked = self.ids.clone(), self.locked.clone()
        ids[s.start + offset : s.start + offset + len(token_ids)] = torch.tensor(token_ids, dtype=torch.long)
        locked[s.start + offset : s.start + offset + len(token_ids)] = True
        return replace(self, ids=ids, locked=locked)

    def lock_text(self, tokenizer, span: int, text: str, offset: int = 0) -> "TokenSkeleton":
        """Pin `text` (e.g. an opening phrase with a party name) at a token offset of a span."""
        return self.lock(span, offset, tokenizer.encode(text))

    def render(self, bodies: list[str]) -> str:
        """The document text with `bodies[i]` as the i-th clause body (canonical layout)."""
        assert len(bodies) == len(self.spans), f"{len(bodies)} bodies for {len(self.spans)} spans"
        return "".join(with_bodies(self.segments, bodies))

    def pages(self, window: int = DEFAULT_WINDOW, min_context: int = 64) -> list[Page]:
        """Cover every span with pages of at most `window` tokens (more only when one span needs it).

        Consecutive spans share a page while their extent plus `min_context` fits; each page then
        takes the leftover room as context, three quarters on the left (a body's heading and the
        text that defines its terms come before it), the rest on the right.
        """
        T = len(self)
        if T <= window:
            return [Page(0, T, tuple(range(len(self.spans))))]
        groups: list[list[SpanSlot]] = []
        for s in self.spans:
            if groups and s.end - groups[-1][0].start + min_context <= window:
                groups[-1].append(s)
            else:
                groups.append([s])
        pages = []
        for g in groups:
            a, b = g[0].start, g[-1].end
            room = max(window - (b - a), min_context)
            right = min(T - b, room // 4)
            left = min(a, room - right)
            right = min(T - b, room - left)
            pages.append(Page(a - left, b + right, tuple(s.index for s in g)))
        return pages


def tokenize_segments(
    tokenizer,
    segments: list[Segment],
    budgets: list[int],
    meta: list[dict] | None = None,
    reference: list[list[int]] | None = None,
) -> TokenSkeleton:
    """Segments in document order -> TokenSkeleton; the i-th "body" segment becomes a span of budgets[i].

    meta[i] (optional) fills the SpanSlot fields clause/heading/required_terms/locked_strings.
    The span's last position is locked to <eos>: every training span ends with one.
    """
    n_bodies = sum(s.kind == "body" for s in segments)
    if n_bodies == 0:
        raise SamplingError("skeleton must have at least one span (a 'body' segment), got 0.")
    if len(budgets) != n_bodies:
        raise SamplingError(f"budgets must give one length per span ({n_bodies}), got {len(budgets)}.")
    for i, b in enumerate(budgets):
        if not isinstance(b, int) or b < 2:
            raise SamplingError(f"budget of span {i} must be an integer >= 2 (text + <eos>), got {b!r}.")
    # each span ends with its <eos>
    lay = lay_out(tokenizer, segments, [[tokenizer.mask_id] * (L - 1) for L in budgets])
    spans = [SpanSlot(i, a, b - a, lay.section[a], **(meta[i] if meta else {})) for i, (a, b) in enumerate(lay.spans)]
    locked = [False] * len(lay.ids)
    for s in spans:
        locked[s.end - 1] = True
    return TokenSkeleton(
        ids=torch.tensor(lay.ids),
        kind=torch.tensor(lay.kind),
        section=torch.tensor(lay.section),
        locked=torch.tensor(locked),
        spans=spans,
        segments=list(segments),
        mask_id=tokenizer.mask_id,
        eos_id=tokenizer.eos_id,
        reference=reference,
    )


def from_template(tokenizer, skeleton) -> TokenSkeleton:
    """A hybrid.templates.template.Skeleton (segments + per-span budget/clause/terms) -> TokenSkeleton.

    A span's frame (its clause's opening sentence with the deal's facts) is locked at offset 0,
    so the filler writes after it; a frame that leaves the filler fewer than
    hybrid.templates.template.FRAME_MIN_FILL positions is a TemplateError naming the clause.
    """
    from hybrid.common.errors import TemplateError
    from hybrid.templates.template import FRAME_MIN_FILL

    meta = [
        {
            "clause": s.clause,
            "heading": s.heading,
            "required_terms": list(s.required_terms),
            "locked_strings": list(s.locked),
        }
        for s in skeleton.spans
    ]
    sk = tokenize_segments(tokenizer, skeleton.segments, [s.budget for s in skeleton.spans], meta)
    for i, s in enumerate(skeleton.spans):
        frame = getattr(s, "frame", "")
        if not frame:
            continue
        ids = tokenizer.encode(frame)
        if len(ids) + FRAME_MIN_FILL > s.budget:
            raise TemplateError(
                f"template {skeleton.template_id!r}: clause {s.clause!r}: its frame with these fields takes {len(ids)} "
                f"tokens, "
                f"its budget {s.budget} leaves the filler fewer than {FRAME_MIN_FILL}; shorten the field values or the "
                f"frame."
            )
        sk = sk.lock(i, 0, ids)
    return sk


def from_document(tokenizer, doc: Document) -> TokenSkeleton:
    """A real corpus Document with its bodies as spans of (real body length + 1) positions.

    The bodies are kept as `reference` (token ids) and in `segments`, so an evaluation can
    compare a fill against the real text under exactly the same budgets.
    """
    segs = doc.segments()
    bodies = [s for s in segs if s.kind == "body"]
    ref = tokenizer.encode_batch([s.text for s in bodies]) if bodies else []
    meta = [{"clause": doc.sections[s.section].clause_type, "heading": doc.sections[s.section].heading} for s in bodies]
    return tokenize_segments(tokenizer, segs, [len(r) + 1 for r in ref], meta, reference=ref)


def as_token_skeleton(tokenizer, skeleton) -> TokenSkeleton:
    """A TokenSkeleton from a TokenSkeleton, a hybrid.templates.template.Skeleton or a corpus Document."""
    if isinstance(skeleton, TokenSkeleton):
        if not skeleton.spans:
            raise SamplingError("skeleton must have at least one span (a 'body' segment), got 0.")
        return skeleton
    if isinstance(skeleton, Document):
        return from_document(tokenizer, skeleton)
    if hasattr(skeleton, "segments") and hasattr(skeleton, "spans"):
        return from_template(tokenizer, skeleton)
    raise SamplingError(
        f"skeleton must be a TokenSkeleton, a templates.Skeleton or a Document, got {type(skeleton).__name__}."
    )
