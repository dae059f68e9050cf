"""The in-memory form of one contract and its canonical plain-text layout.

Owns: Section, Segment, Document and the one text layout shared by training data (real
documents) and drafting (template skeletons), so the model sees at drafting time exactly the
layout it was trained on:

    {TITLE}\n\n{preamble}\n\n{number}. {Heading}.\n{body}\n\n{number}. {Heading}.\n{body}\n\n...{tail}

Segments carry that text in order with a kind: "text" (title, preamble, tail: skeleton),
"heading" (a section's "{number}. {Heading}.\n" line: skeleton, hidden from its own body under
condition dropout / the unconditional guidance branch) and "body" (a clause body: a span the
filler writes). "".join(s.text for s in segments) is the document text.

Knows nothing about files, tokenizers or models.
"""

from dataclasses import dataclass, field

__all__ = ["Section", "Segment", "Document", "heading_line", "SECTION_SEPARATOR"]

SECTION_SEPARATOR = "\n\n"


def heading_line(number: str, heading: str) -> str:
    """The canonical heading line of a section, e.g. ("3", "Confidentiality") -> "3. Confidentiality.\\n"."""
    heading = heading.strip().rstrip(".:")
    return f"{number}. {heading}.\n"


@dataclass
class Section:
    number: str  # "1", "2", ... renumbered in document order (the source numbering is dropped)
    heading: str  # cleaned heading text without number and trailing punctuation
    clause_type: str  # one of hybrid.data.clauses.CLAUSE_TYPES
    body: str  # cleaned clause body (may contain sub-clauses "(a) ..." and newlines)
    # the source's own top-level numbers of this section's text ("12"; hybrid.data.sections.split_numbered):
    # what the source's cross-references ("Section 12") name it by; empty where the source numbers none
    numbers: list[str] = field(default_factory=list)


@dataclass
class Segment:
    text: str
    kind: str  # "text" | "heading" | "body"
    section: int = -1  # index into Document.sections for "heading" and "body"; -1 for "text"

    def __post_init__(self):
        assert self.kind in ("text", "heading", "body"), f"bad segment kind {self.kind!r}"


@dataclass
class Document:
    path: str  # relative to the corpus root, as in manifest.jsonl
    source: str
    doc_type: str  # manifest doc_type, e.g. "DISTRIBUTOR AGREEMENT"
    split: str  # "train" | "val" | "test"
    group: str
    title: str
    preamble: str
    sections: list[Section]
    tail: str = ""  # signature block, exhibits and whatever follows the last section
    fields: dict = field(default_factory=dict)  # party_a, party_b, effective_date, governing_law (when known)

    def segments(self) -> list[Segment]:
        """The document as ordered segments in the canonical layout (see module docstring)."""
        out = [Segment(f"{self.title}\n\n", "text")]
        if self.preamble:
            out.append(Segment(f"{self.preamble}\n\n", "text"))
        for i, s in enumerate(self.sections):
            out.append(Segment(heading_line(s.number, s.heading), "heading", i))
            out.append(Segment(s.body, "body", i))
            out.append(Segment(SECTION_SEPARATOR, "text"))
        if self.tail:
            out.append(Segment(self.tail, "text"))
        return [s for s in out if s.text]

    @property
    def text(self) -> str:
        return "".join(s.text for s in self.segments())

    def outline(self) -> dict:
        """The planner's target: {"title", "sections": [{"heading", "clause"}]} (see templates)."""
        return {
            "title": self.title,
            "sections": [{"heading": s.heading, "clause": s.clause_type} for s in self.sections],
        }
