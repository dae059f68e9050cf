"""Defined terms of a draft: `definition_entries` (the entries of a Definitions body), `inline_definitions`
(the terms a text defines outside a list of entries), `prune_definitions` (a Definitions body keeps
only the entries the draft uses and does not define elsewhere; hybrid.draft.consistency runs it over the
Definitions section against the rest of the draft) and `definitions_index` (a Definitions section whose
entries all went: where the draft defines each term it uses in more than one place, '"Initial Term" and
"Renewal Term" have the meanings given in Section 5.').

Pure string functions, no model; a body with nothing to drop comes back unchanged, byte for byte.
"""

import re

from hybrid.common.sentences import without_run_in_headings
from hybrid.precedents.definitions import entries, inline_definitions

__all__ = ["definition_entries", "inline_definitions", "prune_definitions", "definitions_index", "INDEX_LEAD"]


def definition_entries(body: str) -> list[tuple[str, str]]:
    """[(term, entry text)] of a Definitions body of entries like '"Affiliate" means ...' or
    '"Affiliate" of any Person means ...' (hybrid.definitions.entries: the lead-in is not an entry)."""
    return entries(body)[1]


def _use_pattern(term: str) -> re.Pattern:
    forms = [re.escape(term) + "(?:s|es)?"]
    if term.endswith("y"):
        forms.append(re.escape(term[:-1]) + "ies")  # "Party" -> "Parties"
    if term.isupper() and any(c.isalpha() for c in term):  # a head in capitals ("PARENT") is used as "Parent" too
        return re.compile(rf"(?<![\w-])(?=[A-Z])(?i:{'|'.join(forms)})(?![\w-])")
    return re.compile(rf"(?<![\w-])(?:{'|'.join(forms)})(?![\w-])")


def _entry_spans(para: str, items: list[tuple[str, str]]) -> list[tuple[int, int, int]]:
    """(start, end) per entry of one paragraph: where its quoted term opens and where its text, as
    `entries` cleaned it (trailing list number and joining "; and" off), ends."""
    spans, at = [], 0
    for _, text in items:
        s = para.find(text, at)
        assert s >= 0, (text, para)
        spans.append((s, s + len(text)))
        at = s + len(text)
    return spans


def _drop_in_paragraph(para: str, spans: list[tuple[int, int]], drop: list[bool]) -> str:
    """para without the dropped entries: a later entry goes from its predecessor's end to its own end
    (its list marker and the joining "; and" with it), a first one from its start to the next's start."""
    cut, n = [], len(spans)
    for k in range(n):
        if not drop[k]:
            continue
        if k == 0:
            cut.append((spans[0][0], spans[1][0] if n > 1 else len(para)))
        else:
            end = spans[k][1]
            if k == n - 1 and para[end - 1 : end] in (".", ";") and para[spans[k - 1][1] - 1] not in ".;:":
                end -= 1  # the paragraph's closing stop now closes the entry before: "X; (b) Y." -> "X."
            cut.append((spans[k - 1][1], end))
    out, at = [], 0
    for s, e in sorted(cut):
        s = max(s, at)
        out.append(para[at:s])
        at = max(at, e)
    out.append(para[at:])
    return "".join(out).rstrip()


def prune_definitions(body: str, other_text: str, keep=()) -> tuple[str, list[dict]]:
    """(the Definitions body with only the entries a draft needs, the entries dropped in order, each
    {"term", "reason"}).

    An entry stays when its term is used in other_text (the rest of the draft: preamble, headings, the
    other sections) or in another entry that stays, or when it is in `keep`: a use is the term as
    written, a whole word, or its plural ("Affiliates", "Parties"); the entry's own text is no use of
    it. An entry goes whatever its use ("defined elsewhere") when other_text defines its term
    (`inline_definitions`: '"Confidential Information" means' in another section, the preamble's '(the
    "Effective Date")'), and a second entry of the same term goes ("defined twice"). Paragraphs emptied
    go with their blank line; nothing but the lead-in left: "" (it would announce nothing). Body without
    entries, or with nothing to drop: returned unchanged. A paragraph that `definition_entries`
    does not read as an entry is no entry: it stays, and it counts as no use."""
    paras = body.split("\n")
    found = [(i, entries(p)[1]) for i, p in enumerate(paras)]
    items = [(i, k, term, text) for i, its in found for k, (term, text) in enumerate(its)]
    if not items:
        return body, []
    elsewhere = inline_definitions(other_text)
    other_text = without_run_in_headings(other_text)  # "(b) Required by Law." is no use of "Law"
    reason, seen = {}, set()
    for i, k, term, _ in items:
        if term in elsewhere:
            reason[(i, k)] = "defined elsewhere"
        elif term in seen:
            reason[(i, k)] = "defined twice"
        seen.add(term)
    live = [(i, k, term, text) for i, k, term, text in items if (i, k) not in reason]
    kept = {(i, k) for i, k, term, _ in live if term in keep or _use_pattern(term).search(other_text)}
    grew = True
    while grew:  # an entry that a kept entry uses is kept
        grew = False
        for i, k, term, _text in live:
            if (i, k) not in kept:
                others = " ".join(t for ii, kk, _, t in live if (ii, kk) in kept and (ii, kk) != (i, k))
                if _use_pattern(term).search(others):
                    kept.add((i, k))
                    grew = True
    for i, k, _, _ in live:
        if (i, k) not in kept:
            reason[(i, k)] = "unused"
    if not reason:
        return body, []
    dropped = [{"term": term, "reason": reason[(i, k)]} for i, k, term, _ in items if (i, k) in reason]
    out = []
    for i, its in found:
        para = paras[i]
        if its:
            flags = [(i, k) in reason for k in range(len(its))]
            if any(flags):
                spans = _entry_spans(para, its)
                lead = para[: spans[0][0]].strip()
                para = "" if all(flags) and not lead else _drop_in_paragraph(para, spans, flags)
                if not para.strip():
                    out.append(None)  # emptied: goes, with one blank line beside it
                    continue
        out.append(para)
    lines = []
    for j, line in enumerate(out):
        if line is None:
            if lines and lines[-1] == "" and (j + 1 >= len(out) or out[j + 1] in ("", None)):
                lines.pop()
            continue
        if line == "" and (not lines or lines[-1] == "") and j > 0 and out[j - 1] is None:
            continue
        lines.append(line)
    while lines and lines[0] == "" and body[:1] != "\n":
        lines.pop(0)
    left = "\n".join(lines)
    if len(reason) == len(items) and left.strip() == entries(body)[0].strip():
        return "", dropped  # only the lead-in is left
    return left, dropped


INDEX_LEAD = "In this Agreement, capitalized terms are defined in the places shown below:"
INDEX_MAX = 24  # entries an index lists at most (the terms used most often outside their defining place first)


def definitions_index(preamble: str, bodies: list[str], own: int) -> tuple[str, list]:
    """(a Definitions body that indexes the draft's defined terms, the terms listed): the terms the preamble or
    another section defines (`inline_definitions`) and the draft uses outside the place that defines it, after
    INDEX_LEAD one paragraph per defining place in the draft's order, its terms in alphabetical order:
    '"Buyer" and "Supplier" have the meanings given in the preamble.', '"Initial Term" has the meaning given in
    Section 2.' (one sentence per place, not per term: 24 terms read as a few lines, not 24 repeated sentences);
    a term defined in two places is indexed where it is first defined. bodies: the draft's
    section bodies in order (section i + 1 is bodies[i]), `own` the Definitions section's index among them (not
    searched). ("", []) when no term qualifies: the caller keeps its stub."""
    places = [("the preamble", preamble)] + [(f"Section {i + 1}", b) for i, b in enumerate(bodies) if i != own]
    where: dict[str, int] = {}
    for k, (_, text) in enumerate(places):
        for term in sorted(inline_definitions(text)):
            where.setdefault(term, k)
    uses = {}
    for term, k in where.items():
        pattern = _use_pattern(term)
        n = sum(len(pattern.findall(text)) for j, (_, text) in enumerate(places) if j != k)
        if n:
            uses[term] = n
    chosen = sorted(uses, key=lambda t: (-uses[t], t))[:INDEX_MAX]
    if not chosen:
        return "", []
    chosen.sort(key=lambda t: (where[t], t.lower()))
    lines = []
    for k in sorted({where[t] for t in chosen}):
        terms = [f'"{t}"' for t in chosen if where[t] == k]
        listed = terms[0] if len(terms) == 1 else f"{', '.join(terms[:-1])} and {terms[-1]}"
        verb = "has the meaning" if len(terms) == 1 else "have the meanings"
        lines.append(f"{listed} {verb} given in {places[k][0]}.")
    return "\n\n".join([INDEX_LEAD, *lines]), chosen
