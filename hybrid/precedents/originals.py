"""A precedent's own words: its clause as the corpus or the user's library holds it, before the deal's facts went in.

Owns: `original_text(library, citation)` (the text a redline strikes from: a shipped precedent's section of its corpus
document, cut as the library cut it, hybrid.precedents.library.build_library; a user's clause as its file had it,
kept beside the user library when it was added: hybrid.precedents.user_store.load_originals) and the small memo of
corpus documents read for it. A Precedent's body is no original: its facts are markers, and Precedent.adapted has the
deal's names in them already, so a redline against it would show the deal's words as the precedent's.
A library built in memory (a test's, a benchmark's) may carry its own as an `originals` attribute, {clause id: words}.
Knows nothing of drafts: hybrid.draft.provenance redlines against what this returns.
"""

import functools
from pathlib import Path

__all__ = ["original_text", "section_number"]


def section_number(citation: dict) -> str:
    """The section number a citation's id names ("train/a.txt#4" -> "4")."""
    return str(citation.get("id", "")).rpartition("#")[2]


def original_text(library, citation: dict) -> str | None:
    """The cited clause's own words (None where they cannot be had: the corpus or the user's file of originals
    is gone, or the library was added before originals were kept)."""
    own = getattr(library, "originals", None)
    if isinstance(own, dict) and citation.get("id") in own:
        return own[citation["id"]]
    from hybrid.precedents.user_store import library_of, load_originals

    if (name := library_of(citation)) is not None:
        return load_originals(name).get(citation.get("id"))
    corpus = getattr(library, "corpus", "") or ""
    if not corpus or corpus.startswith("user:"):
        return None
    return _corpus_clause(corpus, citation.get("doc_id", ""), section_number(citation), citation.get("heading", ""))


@functools.lru_cache(maxsize=256)
def _corpus_clause(corpus: str, doc_id: str, number: str, heading: str) -> str | None:
    from hybrid.data.clauses import join_page_breaks, own_clause

    doc = _corpus_document(corpus, doc_id)
    if doc is None:
        return None
    same = [s for s in doc.sections if s.number == number]
    for s in sorted(same, key=lambda s: s.heading != heading):  # a number given twice: the one of that heading
        return join_page_breaks(own_clause(s.body, s.clause_type))
    return None


@functools.lru_cache(maxsize=16)
def _corpus_document(corpus: str, doc_id: str):
    """The corpus document at manifest path doc_id (hybrid.data.corpus's cached build), or None."""
    from hybrid.common.errors import HybridError
    from hybrid.data.corpus import _load_one, cache_dir, load_manifest

    root = Path(corpus)
    try:
        entry = next((e for e in load_manifest(root) if e["path"] == doc_id), None)
        return None if entry is None else _load_one(root, entry, {}, cache_dir())
    except (HybridError, OSError, ValueError):
        return None
