"""What the page shows of a draft and what it downloads: variants as JSON, a final draft assembled from picks.

Owns: draft_view (one ranked variant: its score breakdown in numbers and in words, its preamble and closing, the
blanks left to complete (`blanks`), its market check (`market`), the document it was drafted from, and,
per section, the body as the lawyer's review left it, its sources, the changes against its precedent's own words to
review and the redline, or why it has none: composed by the engine; hybrid.serve.review), assemble (a Draft whose
every section is taken from the variant the user picked for it, as reviewed) and export (that draft as DOCX or
Markdown bytes, built in memory: the server writes no file; a redline DOCX tracks only the changes still pending).
"""

import math
import os
import tempfile
from dataclasses import replace

from hybrid.common.textsafe import shown
from hybrid.serve.explain import explain_scores
from hybrid.serve.forms import RequestError
from hybrid.serve.review import Review, section_state, tracked

__all__ = ["draft_view", "blanks", "market", "assemble", "export", "check_format", "EXPORT_FORMATS"]

BLANK_CONTEXT = 80  # characters of a blank's sentence shown on each side of it in the to-do list
EXPORT_FORMATS = {"docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
                  "md": "text/markdown; charset=utf-8"}


def draft_view(d, review: Review | None = None) -> dict:
    """One variant as the page shows it, under `review` (None: as drafted)."""
    sections = [section_view(d, i, review) for i in range(len(d.sections))]
    reviewed = replace(d, sections=[{**s, "body": v["body"]} for s, v in zip(d.sections, sections)])
    return {"rank": d.rank, "variant": d.variant, "score": _finite(d.score), "words": d.words,
            "scores": {k: _finite(v) for k, v in d.scores.items()}, "explained": explain_scores(d.scores),
            "preamble": d.preamble, "tail": d.tail, "title": d.title, "sections": sections,
            "blanks": blanks(reviewed), "market": market(d), "base": _base_line(d.base)}


def section_view(d, index: int, review: Review | None = None) -> dict:
    """Section `index` of variant d: its number, heading, sources, origin note and its state under review
    (hybrid.serve.review.section_state: body, edited, base, review, redline)."""
    from hybrid.draft.provenance import citation_line

    s = d.sections[index]
    state = review.state(s, d.rank, index) if review is not None else section_state(s)
    return {"index": index, "number": s["number"], "heading": s["heading"],
            "sources": [{**c, "line": citation_line(c)} for c in s.get("precedents", [])],
            "origin": s.get("origin"), **state}


def blanks(d) -> list[dict]:
    """The blanks [___] a lawyer completes, in document order: [{"number" (None: the preamble or the closing), "where":
    the section's heading, "text": the sentence around the blank, cut to BLANK_CONTEXT characters each side}]."""
    from hybrid.data.facts import BLANK

    parts = [(None, "Preamble", d.preamble), *((s["number"], s["heading"], s["body"]) for s in d.sections),
             (None, "Closing", d.tail)]
    out = []
    for number, where, text in parts:
        at = text.find(BLANK)
        while at >= 0:
            lo = max(text.rfind("\n", 0, at) + 1, at - BLANK_CONTEXT)
            hi = text.find("\n", at)
            hi = min(hi if hi >= 0 else len(text), at + len(BLANK) + BLANK_CONTEXT)
            out.append({"number": number, "where": where,
                        "text": ("…" if lo > 0 and text[lo - 1] != "\n" else "") + text[lo:hi].strip()
                        + ("…" if hi < len(text) and text[hi] != "\n" else "")})
            at = text.find(BLANK, at + len(BLANK))
    return out


def market(d) -> dict | None:
    """The market check (hybrid.precedents.checklist.market_check) as the page shows it: {"held", "total",
    "lacking": [labels]}; None for a draft that has none (drafted section by section)."""
    m = (d.checks or {}).get("market_check")
    return {"held": m["held"], "total": m["total"], "lacking": list(m["lacking"])} if m else None


def _base_line(base: dict) -> str | None:
    """The document a variant was drafted from, in a line: "standard-agreements/x.md (bonterms, a standard form)"."""
    if not base or not base.get("doc_id"):
        return None
    kind = {"form": "a standard form of the kind", "precedent": "a contract of the kind",
            "nearest": "the nearest kind: the corpus has none of this one"}.get(base.get("kind"), base.get("kind"))
    return f"{base['doc_id']} ({', '.join(x for x in (base.get('source'), kind) if x)})"


def _finite(v):
    """A score for JSON: a non-finite number (JSON has none) becomes None."""
    return None if isinstance(v, float) and not math.isfinite(v) else v


def assemble(drafts, picks, review: Review | None = None) -> "object":
    """A Draft with section i taken from the draft of rank picks[i] (the variants share one outline), its text as
    `review` left it (each section's "tracked": what a redline DOCX writes of it); its title, preamble and signature
    block are the best draft's. RequestError names a bad pick."""
    if not drafts:
        raise RequestError("this draft has no variants to pick from (it was cancelled or failed).", "picks")
    base = drafts[0]
    by_rank = {d.rank: d for d in drafts}
    if not isinstance(picks, list) or len(picks) != len(base.sections):
        raise RequestError(f"picks must list one variant rank per section ({len(base.sections)}), got "
                           f"{shown(picks)}.", "picks")
    sections = []
    for i, rank in enumerate(picks):
        if isinstance(rank, bool) or not isinstance(rank, int) or rank not in by_rank:
            raise RequestError(
                f"picks[{i}] must be a variant rank in 1..{len(drafts)}, got {shown(rank)}.", "picks"
            )
        engine = by_rank[rank].sections[i]
        text, accepted = review.get(rank, i) if review is not None else (None, frozenset())
        sections.append({**engine, "body": engine["body"] if text is None else text,
                         "tracked": tracked(engine, text, accepted), "edited": text is not None})
    text = "\n\n".join([base.title, base.preamble, *(f"{s['number']}. {s['heading']}\n{s['body']}" for s in sections),
                        base.tail])
    scores = {"picked_from": list(picks)}
    return replace(base, sections=sections, text=text, rank=0, score=float("nan"), scores=scores, variant=-1)


def check_format(fmt) -> None:
    """RequestError naming the field unless fmt is one of EXPORT_FORMATS (a list or an object is not: it is not
    even hashable)."""
    if not isinstance(fmt, str) or fmt not in EXPORT_FORMATS:
        raise RequestError(f"format must be one of {', '.join(EXPORT_FORMATS)}, got {shown(fmt)}.", "format")


def export(draft, fmt: str, *, redline: bool = False) -> bytes:
    """The draft's DOCX (sources as Word comments; redline: each section's "tracked" changes, assemble's, else
    Draft.to_docx's against each source) or Markdown (sources as footnotes) bytes. The DOCX is saved in a private
    temporary directory, read and removed."""
    check_format(fmt)
    if fmt == "md":
        return draft.markdown.encode("utf-8")
    with tempfile.TemporaryDirectory(prefix="hybrid-serve-") as tmp:
        target = os.path.join(tmp, "draft.docx")
        path = _reviewed_docx(draft, target) if redline and draft.sections and "tracked" in draft.sections[0] else \
            draft.to_docx(target, redline=redline)
        with open(path, "rb") as f:
            return f.read()


def _reviewed_docx(draft, path: str):
    """The redline DOCX of an assembled draft: each section's "tracked" changes, its sources and its origin note in
    a Word comment (as Draft.to_docx writes them), "Edited on the workbench." added where the lawyer's text stands."""
    from hybrid.draft.docx_export import write_docx
    from hybrid.draft.result import section_note

    sections = []
    for s in draft.sections:
        note = " ".join(n for n in (section_note(s) if s.get("precedents") else "", s.get("origin") or "",
                                    "Edited on the workbench." if s.get("edited") else "") if n)
        sections.append({**s, "comment": note, "redline": s["tracked"]})
    return write_docx(path, draft.title, draft.preamble, sections, draft.tail)
