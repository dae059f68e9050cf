"""Where each clause of a draft came from, as data: the source text of its precedent and a word redline.

Owns: `attach_sources` (each section of a draft edited from precedent gets "source_text": the precedent's
body with the deal's facts in its markers, what the filler started from), `word_redline` (what the engine
deleted from and inserted into that text, word by word, with difflib) and `citation_line` (one source as
a short line: heading, file, source, license). Knows nothing about models; Draft (hybrid.draft.result)
exposes the results as Draft.sources and Draft.edits, and the DOCX and Markdown forms cite them.
"""

import difflib
import re
import weakref

__all__ = ["attach_sources", "word_redline", "citation_line", "source_text"]

_TOKENS = re.compile(r"\s+|[^\s]+")
_INDEX: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # library -> {precedent id: Precedent}


def citation_line(p: dict) -> str:
    """One source: "Confidentiality (train/d0.txt, section 3; cuad, CC-BY-4.0)"."""
    section = p.get("id", "").rpartition("#")[2]
    where = f"{p['doc_id']}, section {section}" if section else p["doc_id"]
    return f"{p['heading']} ({where}; {p['source']}, {p.get('license') or 'license unknown'})"


def _by_id(library) -> dict:
    index = _INDEX.get(library)
    if index is None or len(index) != len(library.precedents):
        index = _INDEX[library] = {p.id: p for p in library.precedents}
    return index


def source_text(library, citations: list[dict], deal) -> str | None:
    """The text a section was drafted from: its cited precedents' bodies (a composed one cites several),
    adapted to the deal (hybrid.precedents.library.Precedent.adapted); None when none is in the library."""
    index = _by_id(library)
    bodies = [index[c["id"]].adapted(deal) for c in citations if c.get("id") in index]
    return "\n\n".join(bodies) if bodies else None


def attach_sources(drafts, library, template, values: dict) -> None:
    """Set "source_text" on every section of `drafts` that cites precedents of `library` (in place)."""
    if library is None:
        return
    from hybrid.skeleton.from_precedents import deal_from_template

    deal = deal_from_template(template, values)
    for d in drafts:
        for sec in d.sections:
            if sec.get("precedents"):
                text = source_text(library, sec["precedents"], deal)
                if text is not None:
                    sec["source_text"] = text


def word_redline(source: str, text: str) -> list[tuple[str, str]]:
    """[(op, words)] turning `source` into `text`: op is "equal", "delete" (in the source, not in the draft)
    or "insert" (written by the engine); joined, the equal and insert parts give `text` back, the equal and
    delete parts give `source`. Words are compared with their whitespace, so layout is kept."""
    a, b = _TOKENS.findall(source), _TOKENS.findall(text)
    out: list[tuple[str, str]] = []

    def add(op, parts):
        s = "".join(parts)
        if not s:
            return
        if out and out[-1][0] == op:
            out[-1] = (op, out[-1][1] + s)
        else:
            out.append((op, s))

    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            add("equal", b[j1:j2])
        else:
            add("delete", a[i1:i2])
            add("insert", b[j1:j2])
    return out
