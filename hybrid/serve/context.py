"""A precedent in its original context: the document a section's source came from, around the passage it came from.

Owns: `source_context(library, citation, part)`: the cited clause as its document has it, the passage the section
came from marked in it (its used part: hybrid.draft.provenance "source_text", else the whole clause), and the
neighbouring clauses before and after it, each cut to CONTEXT_WORDS. A shipped precedent's document is its corpus
document (hybrid.precedents.originals reads it, cut into sections as the library cut it); a user library's is the
clauses its file gave, as kept beside the library (hybrid.precedents.user_store.load_originals) or, for a library
built in memory, its `originals`; what neither has is said in "note". Knows nothing of jobs or routes.
"""

__all__ = ["source_context", "NEIGHBOURS", "CONTEXT_WORDS"]

NEIGHBOURS = 2  # clauses shown on each side of the cited one
CONTEXT_WORDS = 250  # of each neighbour: the end of one before, the start of one after
_NOT_HERE = "The document this precedent came from is not on this machine: only its citation is shown."


def _not_here(citation: dict) -> str:
    from hybrid.precedents.user_store import library_of, readd_hint

    if (name := library_of(citation)) is not None:
        return (f"Library {name!r} holds no words of this clause's file (added before they were kept, or removed "
                f"since): {readd_hint(name)} to see them.")
    return _NOT_HERE


def _cut(text: str, words: int, keep_end: bool) -> str:
    parts = text.split(" ")
    if len(parts) <= words:
        return text
    return "… " + " ".join(parts[-words:]) if keep_end else " ".join(parts[:words]) + " …"


def _marked(text: str, part: str | None) -> dict:
    """{"before", "passage", "after"} of `text` with `part` as the passage (the whole text where part is not in it)."""
    at = text.find(part) if part else -1
    if at < 0:
        return {"before": "", "passage": text, "after": "", "found": not part}
    return {"before": text[:at], "passage": part, "after": text[at + len(part):], "found": True}


def _corpus_clauses(library, citation: dict) -> list[tuple[str, str, str]] | None:
    """[(number, heading, text)] of a shipped precedent's corpus document, or None where it is not at hand."""
    from hybrid.data.clauses import join_page_breaks
    from hybrid.precedents.originals import _corpus_document

    corpus = getattr(library, "corpus", "") or ""
    if not corpus or corpus.startswith("user:"):
        return None
    doc = _corpus_document(corpus, citation.get("doc_id", ""))
    return None if doc is None else [(s.number, s.heading, join_page_breaks(s.body)) for s in doc.sections]


def _file_clauses(library, citation: dict) -> list[tuple[str, str, str]] | None:
    """[(number, heading, text)] of a user library's file, from the clauses' own words kept for it, or None."""
    from hybrid.precedents.user_store import library_of, load_originals

    own = getattr(library, "originals", None)
    if (name := library_of(citation)) is not None:
        own = load_originals(name)
    if not isinstance(own, dict) or citation.get("id") not in own:
        return None
    doc = citation.get("doc_id", "")
    headings = {p.id: p.heading for p in getattr(library, "precedents", []) if p.doc_id == doc}
    return [(cid.rpartition("#")[2], headings.get(cid, ""), text) for cid, text in own.items()
            if cid.rpartition("#")[0] == doc]


def source_context(library, citation: dict, part: str | None = None) -> dict:
    """The cited precedent in its document: {"document", "source", "license", "heading", "before": [{"number",
    "heading", "text"}] (nearest last), "clause": {"number", "heading", "before", "passage", "after"} (the passage
    marked), "after": [...], "note": what is missing, or None}."""
    from hybrid.precedents.originals import section_number

    head = {"document": citation.get("doc_id", ""), "source": citation.get("source", ""),
            "license": citation.get("license") or "license unknown", "heading": citation.get("heading", ""),
            "before": [], "clause": None, "after": [], "note": None}
    from hybrid.precedents.user_store import library_of

    user = library_of(citation) is not None or citation.get("id") in (getattr(library, "originals", None) or {})
    clauses = (_file_clauses if user else _corpus_clauses)(library, citation) if library is not None else None
    number = section_number(citation)
    at = next((k for k, c in enumerate(clauses or []) if c[0] == number and c[1] == head["heading"]), None)
    at = next((k for k, c in enumerate(clauses or []) if c[0] == number), None) if at is None else at
    if at is None:
        return {**head, "note": _not_here(citation)}
    num, heading, text = clauses[at]
    if part and part not in text:  # the section's own cut of it (hybrid.data.clauses.own_clause) holds it
        from hybrid.precedents.originals import original_text

        text = original_text(library, citation) or text
    clause = {"number": num, "heading": heading, **_marked(text, part)}
    note = None if clause.pop("found") else ("The section's words were not found verbatim in this clause (the "
                                             "library cut it differently): the whole clause is marked.")
    return {**head, "clause": clause, "note": note,
            "before": [{"number": n, "heading": h, "text": _cut(t, CONTEXT_WORDS, True)}
                       for n, h, t in clauses[max(0, at - NEIGHBOURS):at]],
            "after": [{"number": n, "heading": h, "text": _cut(t, CONTEXT_WORDS, False)}
                      for n, h, t in clauses[at + 1:at + 1 + NEIGHBOURS]]}
