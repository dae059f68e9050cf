"""What a template renders: the Skeleton (segments in the canonical layout, one empty body per
clause) with its Spans, and the `{field}` placeholder substitution.

Owns: the Span and Skeleton types and `substitute`. Knows nothing about loading or validating
templates (hybrid.templates.template) or about tokens (hybrid.skeleton turns a Skeleton into a
TokenSkeleton).
"""

from dataclasses import dataclass, field

from hybrid.data.document import Segment
from hybrid.data.layout import with_bodies
from hybrid.templates.rules import PLACEHOLDER

__all__ = ["Span", "Skeleton", "substitute"]


def substitute(text: str, values: dict) -> str:
    """Replace each `{name}` by str(values[name]); a name not in values is a KeyError (caller bug)."""
    return PLACEHOLDER.sub(lambda m: str(values[m.group(1)]), text)



@dataclass
class Span:
    """One masked clause body of a skeleton: what the filler writes and what it must respect."""

    section: int  # index into the outline's sections
    clause: str  # clause type
    heading: str
    budget: int  # length budget in tokens
    required_terms: list[str]  # strings the body should contain (placeholders substituted)
    locked: list[str]  # strings that must appear verbatim where used (party names, defined terms)
    frame: str = ""  # the clause's opening sentence with the deal's facts; pinned at the span's start
    frame_fields: list[str] = field(default_factory=list)  # the fields the frame states


@dataclass
class Skeleton:
    """Ordered segments in the canonical Document layout; every "body" segment is empty (a span)."""

    template_id: str
    outline: dict
    fields: dict
    segments: list[Segment]
    spans: list[Span]  # spans[i] belongs to the i-th "body" segment
    # everything the deal states (hybrid.fidelity.foreign_facts.allowed_text): what a draft may name
    deal_text: str = ""

    @property
    def text(self) -> str:
        return "".join(s.text for s in self.segments)

    def body_segments(self) -> list[Segment]:
        return [s for s in self.segments if s.kind == "body"]

    def render(self, bodies: list[str]) -> str:
        """The document text with bodies[i] as the i-th clause body (the canonical layout)."""
        return "".join(with_bodies(self.segments, bodies))
