"""What a drafting call returns: Draft (one ranked draft, its Markdown and DOCX forms) and
DraftEvent (a progress event of Drafter.stream()).

Owns: the result types of the drafting API, their Markdown rendering (text escaped by
hybrid.common.textsafe, so a field value or a sampled line cannot add markup) and the source note of a
section drafted from precedent (a footnote or a comment, never in the contract text). Knows nothing
about models or how a draft was made
(hybrid.draft.drafter); hybrid.draft.docx_export writes the DOCX form.
"""

from dataclasses import dataclass, field
from pathlib import Path

from hybrid.common.textsafe import escape_markdown

__all__ = ["Draft", "DraftEvent", "source_note", "section_note"]


@dataclass
class Draft:
    """One ranked draft. `text` is the canonical plain-text layout the model reads and writes."""

    rank: int  # 1 = best
    text: str
    title: str
    preamble: str
    sections: list[dict]  # [{"number", "heading", "clause", "body"}] in document order
    tail: str  # signature block
    outline: dict
    score: float  # the reranker's total (hybrid.rank.rerank: higher is better)
    scores: dict  # its breakdown: total, loglik and every contract check
    template: str = ""  # template id
    fields: dict = field(default_factory=dict)
    seed: int = 0
    variant: int = 0  # index of this variant in the filler's batch
    timings: dict = field(default_factory=dict)  # seconds per stage of the draft() call that made it
    settings: dict = field(default_factory=dict)  # the precedent settings that call used (defaults resolved)
    consistency: dict = field(default_factory=dict)  # what the draft-level pass changed (hybrid.draft.revise)
    # the facts of the source contracts the call drafted from (hybrid.skeleton.from_precedents.source_facts; []
    # from scratch): their names are foreign to the deal in any case (hybrid.fidelity.foreign_facts.draft_foreign_facts)
    source_facts: list = field(default_factory=list)
    base: dict = field(default_factory=dict)  # the base document it was drafted from (hybrid.skeleton.from_base)
    # what a lawyer checks of the whole contract: its market check (hybrid.precedents.checklist), its substance
    # (hybrid.draft.substance) and another deal's subject matter (hybrid.fidelity.foreign_subject)
    checks: dict = field(default_factory=dict)

    @property
    def words(self) -> int:
        return len(self.text.split())

    @property
    def sources(self) -> list[dict]:
        """Where each section came from, as data: [{"number", "heading", "citations": [{"id", "doc_id",
        "heading", "source", "license"}]}] in document order ([] citations: drafted from scratch)."""
        return [{"number": s["number"], "heading": s["heading"], "citations": list(s.get("precedents", []))}
                for s in self.sections]

    @property
    def edits(self) -> list[dict]:
        """What the engine changed in each section's source: [{"number", "heading", "source_text", "redline":
        [(op, words)], "origin"}] (hybrid.draft.provenance.word_redline; op "equal", "delete" or "insert"; the
        source text is the precedent's own words, never the deal's); source_text and redline are None for a section
        composed by the engine, and "origin" says why (or which part of a long source it was redlined against)."""
        from hybrid.draft.provenance import word_redline

        return [{"number": s["number"], "heading": s["heading"], "source_text": s.get("source_text"),
                 "redline": word_redline(s["source_text"], s["body"]) if s.get("source_text") else None,
                 "origin": s.get("origin")}
                for s in self.sections]

    @property
    def markdown(self) -> str:
        """The contract in Markdown; its text carries no provenance: each section drafted from precedent has
        a footnote mark on its heading, and the footnotes at the end name the sources."""
        parts, notes = [f"# {escape_markdown(self.title)}", _md_lines(self.preamble)], []
        for s in self.sections:
            mark = ""
            if s.get("precedents"):
                notes.append(f"[^s{s['number']}]: {escape_markdown(section_note(s))}")
                mark = f"[^s{s['number']}]"
            parts.append(f"## {s['number']}. {escape_markdown(s['heading'])}{mark}")
            parts.append(_md_lines(s["body"]))
        if self.tail.strip():
            parts.append("---")
            parts.append(_md_lines(self.tail))
        parts.extend(notes)
        return "\n\n".join(p for p in parts if p.strip()) + "\n"

    def to_docx(self, path, *, redline: bool = False) -> Path:
        """Write a Word document (title, numbered Heading 1 sections, paragraphs) atomically. Each section
        drafted from precedent carries a Word comment naming its sources; redline=True writes each such body
        as tracked changes against its precedent's own words (deletions and insertions, dated now) and adds to
        the comment of a section without one why (composed by the engine)."""
        from hybrid.draft.docx_export import write_docx

        edits = self.edits if redline else [{"redline": None, "origin": None}] * len(self.sections)
        sections = []
        for s, e in zip(self.sections, edits):
            note = " ".join(n for n in (section_note(s) if s.get("precedents") else "", e["origin"] or "") if n)
            sections.append({**s, "comment": note, "redline": e["redline"]})
        return write_docx(path, self.title, self.preamble, sections, self.tail)


def source_note(precedents: list[dict]) -> str:
    """The short source note of a section drafted from precedent (a Markdown footnote, a DOCX comment)."""
    return _citations(precedents) + "."


def _citations(precedents: list[dict]) -> str:
    from hybrid.draft.provenance import citation_line

    return "; ".join(citation_line(p) for p in precedents)


def section_note(section: dict) -> str:
    """The note on a section drafted from precedent: "Source: " and its sources; for a Definitions section the
    consistency pass rewrote as an index of the draft's own defined terms ("indexed": hybrid.draft.revise), that
    the index is the engine's and that its precedents' entries went unused, so no note credits a precedent with
    words it did not give."""
    if section.get("indexed"):
        return ("Index of the terms this draft defines elsewhere, written by the engine; the unused entries of "
                f"{_citations(section['precedents'])} were removed.")
    return f"Source: {source_note(section['precedents'])}"


def _md_lines(text: str) -> str:
    """Paragraphs stay paragraphs; single newlines become markdown hard breaks; text is escaped
    (hybrid.common.textsafe.escape_markdown), so a field value or a sampled line cannot add markup."""
    paras = [p.strip() for p in text.strip().split("\n\n") if p.strip()]
    return "\n\n".join("  \n".join(escape_markdown(line.strip()) for line in p.split("\n")) for p in paras)


@dataclass
class DraftEvent:
    """A progress event of Drafter.stream().

    kind: "plan_token" (text: the token's text, forced: jump-forward supplied it), "plan" (outline),
    "precedents" (drafting from precedent only; sources: each variant's citations per section),
    "fill_step" (step of steps, partial: each variant's document after that step, slots not yet
    committed shown as "_"; the AR fill reports one step per span), "rank" (drafts: the ranked
    result; always the last event).
    """

    kind: str
    seconds: float  # since the stream started
    text: str = ""
    forced: bool = False
    outline: dict | None = None
    step: int = 0
    steps: int = 0
    partial: list[str] | None = None
    drafts: list[Draft] | None = None
    sources: list | None = None
