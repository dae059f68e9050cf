"""A draft-level consistency pass over finished section bodies: pure string functions, no model.

Owns:
- whole sentences: `cut_to_sentence` (the longest prefix ending at a sentence boundary that fits a
  budget the caller measures) and `ends_mid_sentence` (the reading check);
- doubled words: `doubled_words`, `remove_doubled_words` ("with with" -> "with");
- cross-references: `find_references`, `fix_references` (a precedent's "Section 8" meant its source
  contract's section 8: renumbered to the draft's section where the caller can resolve it, rewritten
  so the sentence still reads where it cannot) and `dangling_references` (the reading check);
- defined terms: `definition_entries`, `inline_definitions`, `prune_definitions` (a Definitions
  body keeps only the entries the draft uses and does not define elsewhere);
- `consistency_pass` (all of the above over one draft, in a fixed order, with a JSON-able report)
  and `reading_checks` (the counts a benchmark reports).

Every function is pure and deterministic and returns text that needs no change unchanged, byte for
byte. Must not import models, tokenizers or torch: a budget is a caller's `fits` callable, and which
draft section a source document's section became is a caller's `resolve` callable (the precedent
library knows it; this module does not).
"""

import re
from dataclasses import dataclass

from hybrid.common.sentences import CLOSE as _CLOSE
from hybrid.common.sentences import cut_to_sentence, ends_mid_sentence, sentence_boundaries
from hybrid.precedents.definitions import entries, head_terms

__all__ = [
    "Ref",
    "cut_to_sentence",
    "sentence_boundaries",
    "ends_mid_sentence",
    "doubled_words",
    "remove_doubled_words",
    "find_references",
    "fix_references",
    "dangling_references",
    "definition_entries",
    "inline_definitions",
    "prune_definitions",
    "consistency_pass",
    "reading_checks",
]


def _words(text: str) -> int:
    return len(text.split())


# ---------------------------------------------------------------------------------------------
# Doubled words

# a word of letters repeated right after itself, across spaces or one line break (not a blank line,
# not punctuation); numbers and [MARKER] tokens are not words here
_DOUBLED = re.compile(r"(?<![\w'’\[-])([A-Za-z]+)((?:(?:[ \t]+|[ \t]*\n[ \t]*)\1(?![\w\]-]))+)", re.IGNORECASE)


def doubled_words(text: str) -> list[tuple[int, int, str]]:
    """(start, end, word) of every immediate repeat of a word (case-insensitive: "Service service"):
    text[start:end] is the repeat with the space before it, so deleting it keeps the first
    occurrence's casing; a triple repeat is one span. "that, that" (punctuation between) is no repeat."""
    return [(m.start(2), m.end(2), m.group(1)) for m in _DOUBLED.finditer(text)]


def remove_doubled_words(text: str) -> tuple[str, list[tuple[int, int, str]]]:
    """(text with every repeat of `doubled_words` deleted, the spans deleted, in offsets of the input)."""
    found = doubled_words(text)
    out, at = [], 0
    for start, end, _ in found:
        out.append(text[at:start])
        at = end
    out.append(text[at:])
    return ("".join(out) if found else text), found


# ---------------------------------------------------------------------------------------------
# Cross-references

_KW = r"(?i:sections?|articles?|paragraphs?|clauses?|subsections?)"
_ARABIC = r"\d{1,3}(?:\.\d{1,3})*(?:\([A-Za-z0-9]{1,4}\))*(?![\w(]|\.\w)"
_ROMAN = r"[IVXL]{1,6}(?![\w(]|\.\w)"  # "Article IV"
_NUM = rf"(?:{_ARABIC}|{_ROMAN})"
_TITLE = (
    r"(?:[ \t]+\([A-Z][^()\n]{0,60}\))?"  # the source's heading after a number: "Section 10.4 (Surviving Provisions)"
)
_RANGE = r"\s*(?:-|–|—|(?i:through|thru)\s)\s*"
_LIST = rf"\s*(?:,|;|,\s*(?i:and|or)|;\s*(?i:and|or)|\s(?i:and/or|and|or))\s+(?:{_KW}\s+)?"
_GROUP = re.compile(rf"\b(?P<kw>{_KW})\s+(?P<items>{_NUM}{_TITLE}(?:(?:{_RANGE}|{_LIST}){_NUM}{_TITLE})*)")
_SUFFIX = re.compile(r"\s+(?i:of\s+(?:this|the)\s+Agreement|hereof|herein|hereunder|hereto|above|below)\b")
# another document's or a statute's section: "Section 22(c) of the Investment Company Act", "Section 3 of Exhibit A",
# "12 U.S.C. Section 1467a" (the Agreement, capital or not, is this one)
_EXTERNAL_AFTER = re.compile(r"\s+of\s+(?:the\s+)?(?!this\b|Agreement\b|agreement\b)(?:[A-Z]|ERISA)")
_EXTERNAL_BEFORE = re.compile(r"(?:U\.S\.C\.|C\.F\.R\.|§)\s*$")
_SELF_BEFORE = re.compile(r"\b(?i:this)\s+$")
# a quantity the filler spelled as a reference: "Section 6 (six) months prior notice"
_QUANTITY_AFTER = re.compile(r"(?:\s*\([a-z-]+\))?\s+(?i:business\s+days?|days?|weeks?|months?|years?)\b")
# a source heading restated at a paragraph's start: "Section 1.1 Definitions. As used in ..."
_LABEL = re.compile(
    rf"^[ \t]*(?P<kw>(?i:section|article|clause))\s+(?P<num>{_NUM})\.?[ \t]+"
    r"[A-Z][\w'’&/-]*(?:[,;]?[ \t]+(?:[A-Z][\w'’&/-]*|of|and|or|the|to|for|in|on|by|with|from)){0,7}\.(?=\s|$)[ \t]*",
    re.MULTILINE,
)
_TOKEN = re.compile(rf"(?P<num>{_NUM})|(?P<range>{_RANGE})")
_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50}
MAX_RANGE = 60  # "Sections 4 through 20" asks resolve about each section it spans, up to this many


def _top(number: str) -> str:
    """The top-level number of a reference, in arabic digits: "8.2(a)" -> "8", "IV" -> "4"."""
    head = re.match(r"\d+", number)
    if head:
        return str(int(head.group()))
    total = 0
    for a, b in zip(number, number[1:] + " "):
        v = _ROMAN_VALUES[a]
        total += -v if _ROMAN_VALUES.get(b, 0) > v else v
    return str(total)


@dataclass(frozen=True)
class Ref:
    """One cross-reference: text[start:end] is the reference itself ("Sections 4 and 5", heading
    parentheticals included). `numbers` are its numbers as written, `tops` the top-level section numbers
    it names (a range expanded: "4 through 6" -> 4, 5, 6). `role`: "reference" (to another section),
    "self" ("this Section 8": the clause itself) or "label" (a source heading restated at a paragraph's
    start, "Section 1.1 Definitions."; start..end is the whole label)."""

    start: int
    end: int
    text: str
    keyword: str
    numbers: tuple
    tops: tuple
    role: str


def _parse_items(items: str) -> tuple[tuple, tuple]:
    numbers, tops, pending_range = [], [], False
    for m in _TOKEN.finditer(items):
        if m.group("range"):
            pending_range = True
            continue
        num = m.group("num")
        top = _top(num)
        if pending_range and tops and int(top) > int(tops[-1]) and int(top) - int(tops[-1]) <= MAX_RANGE:
            tops.extend(str(t) for t in range(int(tops[-1]) + 1, int(top) + 1))
        elif top not in tops:
            tops.append(top)
        numbers.append(num)
        pending_range = False
    return tuple(numbers), tuple(tops)


def find_references(text: str) -> list[Ref]:
    """The cross-references of text to sections of the same document, in order: "Section 8",
    "Section 8.2(a)", "Sections 4 through 20", "Sections 4 and 5", "Section 4.1 or 4.2", "Article IV",
    "Paragraph 3", "clause 12.1", in any case. Not references to the draft, so left out: another
    document's or a statute's sections ("Section 3 of Exhibit A", "Section 22(c) of the Investment
    Company Act", "12 U.S.C. Section 1467a"), a quantity ("Section 6 (six) months") and a bare
    "this Section"."""
    labels = [
        Ref(m.start(), m.end(), m.group(), m.group("kw"), (m.group("num"),), (_top(m.group("num")),), "label")
        for m in _LABEL.finditer(text)
    ]
    out = list(labels)
    for m in _GROUP.finditer(text):
        if any(r.start <= m.start() < r.end for r in labels):
            continue
        if (
            _EXTERNAL_AFTER.match(text, m.end())
            or _EXTERNAL_BEFORE.search(text, 0, m.start())
            or _QUANTITY_AFTER.match(text, m.end())
        ):
            continue
        numbers, tops = _parse_items(m.group("items"))
        role = "self" if _SELF_BEFORE.search(text[max(0, m.start() - 8) : m.start()]) else "reference"
        out.append(Ref(m.start(), m.end(), m.group(), m.group("kw"), numbers, tops, role))
    return sorted(out, key=lambda r: r.start)


def _format_sections(numbers: list[int], upper: bool) -> str:
    """ "Section 5", "Sections 3 and 5", "Sections 2, 4 through 6 and 9"."""
    runs, nums = [], sorted(set(numbers))
    for n in nums:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    parts = []
    for a, b in runs:
        parts += [f"{a} through {b}"] if b - a >= 2 else [str(x) for x in range(a, b + 1)]
    kw = "Section" if len(nums) == 1 else "Sections"
    kw = kw.upper() if upper else kw
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"{kw} {listed}"


_SENTENCE_START = re.compile(rf"(?:^|\n|[.!?:]{_CLOSE}*\s+)\s*(?:\(?[a-z0-9]{{1,4}}[.)]\s+)?$")
# the reference sits in a sentence's subject: "The provisions of Sections 1 and 8, ...",
# "The last sentence of Section 14 ..."
_SUBJECT_BEFORE = re.compile(rf"(?:^|\n|[.!?:]{_CLOSE}*\s+)\s*The\s+(?:\w+\s+){{1,3}}of\s+$")
_SUBJECT_AFTER = re.compile(r"\s+(?:shall|will|must|may|does|do|is|are|has|have|survives?)\b")
_PAREN_BEFORE = re.compile(
    r"[ \t]?\(\s*(?i:see(?:\s+also)?|as\s+(?:defined|described|set\s+forth|provided|specified|referred\s+to)(?:\s+in)?"
    r"|defined\s+in|described\s+in|set\s+forth\s+in|pursuant\s+to|under|in|per)?\s*$"
)
_PAREN_AFTER = re.compile(r"\s*\)")
_NOTWITHSTANDING_BEFORE = re.compile(r"\b(?i:(notwithstanding))\s+$")
_THE_BEFORE = re.compile(r"\b(?i:the)\s+$")


def _rewrite_unresolved(text: str, start: int, end: int) -> "tuple[int, int, str, str] | None":
    """(start, end, replacement, rule) for a reference that names no section of the draft, so that the
    sentence still reads; None where no rewrite keeps its meaning (the reference is, or sits in, a
    sentence's subject: "Section 9(b) shall not apply", "Sections 4 through 20 shall survive", "The
    provisions of Sections 1 and 8, and ..."), which is left for the caller.

    The table, in order:
      parenthetical   "(see Section 8)", "(as defined in Section 4.2(b))"   -> removed with its space
      notwithstanding "notwithstanding Section 17,"        -> "notwithstanding any other provision of this Agreement,"
      the             "described in the Section 6"          -> "described in this Agreement"
      phrase          "as set forth in / as provided in / pursuant to / under / in accordance with /
                       subject to / of ... Section 8 [hereof | of this Agreement | above]" -> "... this Agreement"
    """
    sfx = _SUFFIX.match(text, end)
    end = sfx.end() if sfx else end
    before = text[:start]
    paren, close = _PAREN_BEFORE.search(before), _PAREN_AFTER.match(text, end)
    if paren and close and "(" in paren.group():
        return paren.start(), close.end(), "", "parenthetical"
    if _SENTENCE_START.search(before) or _SUBJECT_BEFORE.search(before) or _SUBJECT_AFTER.match(text, end):
        return None
    nw = _NOTWITHSTANDING_BEFORE.search(before)
    if nw:
        return nw.start(), end, nw.group(1) + " any other provision of this Agreement", "notwithstanding"
    the = _THE_BEFORE.search(before)
    if the:
        if _SENTENCE_START.search(before, 0, the.start()):
            return None  # "The Section 6 obligations ..."
        return the.start(), end, "this Agreement", "the"
    return start, end, "this Agreement", "phrase"


def fix_references(text: str, resolve, own: "str | None" = None) -> tuple[str, list[dict]]:
    """(text with its cross-references made true of the draft, the changes in order).

    `resolve(number) -> str | None` maps a top-level section number of the precedent's SOURCE document
    ("8" of "Section 8.2(a)", "4" of "Article IV") to the draft's section number, None where the draft
    has no such section. `own` is this section's number in the draft.
    - resolved: renumbered to the draft's bare top-level sections ("Section 8.2(a)" -> "Section 5",
      "Sections 4 through 20" -> the draft sections those resolve to); unresolved numbers of the same
      reference are dropped; the source's heading parenthetical and "above"/"below" go with the number;
    - none resolved: rewritten by the table of `_rewrite_unresolved`, or left (a sentence's subject);
    - "this Section 8" (the clause itself) -> "this Section", kept where 8 is `own`;
    - a source heading restated at a paragraph's start ("Section 1.1 Definitions. ") -> removed.
    Each change: {"old", "new", "action": "renumbered" | "removed" | "left", "rule", "numbers"}; a
    "left" one changes nothing. A reference already true of the draft is no change."""
    changes, pieces, at = [], [], 0
    for ref in find_references(text):
        if ref.start < at:
            continue  # inside a span an earlier rewrite consumed
        numbers = list(ref.numbers)
        if ref.role == "label":
            span = (ref.start, ref.end, "", "label", "removed")
        elif ref.role == "self":
            if own is not None and ref.tops[:1] == (str(own),):
                continue
            kw = ref.keyword[:-1] if ref.keyword.lower().endswith("s") else ref.keyword
            span = (ref.start, ref.end, kw, "self", "removed")
        else:
            mapped = [resolve(t) for t in ref.tops] if resolve else [None] * len(ref.tops)
            drafted = [int(m) for m in mapped if m is not None]
            if drafted:
                end, sfx = ref.end, _SUFFIX.match(text, ref.end)
                if sfx and sfx.group().strip().lower() in ("above", "below"):
                    end = sfx.end()  # the draft's order is not the source's
                new = _format_sections(drafted, ref.keyword.isupper())
                if text[ref.start : end] == new:
                    continue
                span = (ref.start, end, new, "resolved", "renumbered")
            else:
                rewrite = _rewrite_unresolved(text, ref.start, ref.end)
                if rewrite is None:
                    changes.append(
                        {"old": ref.text, "new": ref.text, "action": "left", "rule": "subject", "numbers": numbers}
                    )
                    continue
                s, e, new, rule = rewrite
                if s < at:
                    continue
                span = (s, e, new, rule, "removed")
        s, e, new, rule, action = span
        pieces += [text[at:s], new]
        at = e
        changes.append({"old": text[s:e], "new": new, "action": action, "rule": rule, "numbers": numbers})
    if not any(c["action"] != "left" for c in changes):
        return text, changes
    pieces.append(text[at:])
    return "".join(pieces), changes


def dangling_references(sections_bodies: list[str], n_sections: int) -> list[dict]:
    """The references of a final draft that point nowhere: {"section" (1-based), "text", "tops"} for each
    reference naming a number outside 1..n_sections, and each "this Section N" or restated heading
    label whose N is not the section's own number. A bare "this Section" is fine."""
    out = []
    for i, body in enumerate(sections_bodies, start=1):
        for ref in find_references(body):
            if ref.role == "reference":
                bad = any(not 1 <= int(t) <= n_sections for t in ref.tops)
            else:
                bad = ref.tops[:1] != (str(i),)
            if bad:
                out.append({"section": i, "text": ref.text, "tops": list(ref.tops)})
    return out


# ---------------------------------------------------------------------------------------------
# Defined terms

_PAREN_TERMS = re.compile(r"\(([^()\n]{0,160})\)")
_PAREN_LEAD = re.compile(
    r"^\s*(?:(?:the|a|an|each|collectively|together|individually|jointly|severally|hereinafter|herein|"
    r"referred|to|as|called|and|such)\b,?\s*){0,5}$"
)  # '(the "X")', '(each a "X")', '(collectively, the "X")'
_QUOTED = re.compile(r"[\"“]([A-Z][^\"“”\n]{0,58})[\"”]")


def definition_entries(body: str) -> list[tuple[str, str]]:
    """[(term, entry text)] of a Definitions body of entries like '"Affiliate" means ...' or
    '"Affiliate" of any Person means ...' (hybrid.definitions.entries: the lead-in is not an entry)."""
    return entries(body)[1]


def inline_definitions(text: str) -> set[str]:
    """The terms text defines outside a list of entries: '"Confidential Information" means' anywhere,
    and the quoted terms of a defining parenthetical ('(the "Effective Date")', '(each a "Party")',
    '(collectively, the "Products")'). Case-sensitive, as written."""
    terms = {t for _, _, t in head_terms(text)}
    for m in _PAREN_TERMS.finditer(text):
        inner = m.group(1)
        first = _QUOTED.search(inner)
        if first and _PAREN_LEAD.match(inner[: first.start()]):
            terms |= set(_QUOTED.findall(inner))
    return terms


def _use_pattern(term: str) -> re.Pattern:
    forms = [re.escape(term) + "(?:s|es)?"]
    if term.endswith("y"):
        forms.append(re.escape(term[:-1]) + "ies")  # "Party" -> "Parties"
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


# ---------------------------------------------------------------------------------------------
# The pass


def consistency_pass(
    sections: list[dict], *, preamble: str, resolve_ref=None, keep_definitions=()
) -> tuple[list[str], dict]:
    """(the sections' new bodies, a JSON-able report) for one draft. `sections` are dicts with at least
    "heading", "clause" and "body", in the draft's order (section i+1 is sections[i]).
    `resolve_ref(section_index, number) -> str | None`: for sections[section_index], the draft section
    number of its precedent's source section `number` (None: not in the draft); resolve_ref=None
    treats every reference as unresolved. `keep_definitions`: terms the Definitions keeps even unused
    (`prune_definitions`' keep).

    In this order: references fixed per section (`fix_references`), doubled words removed
    (`remove_doubled_words`), then the Definitions section (clause "definitions") pruned against the
    preamble, the headings and the other sections' new bodies (`prune_definitions`). The report:
    {"sections": [{"index", "heading", "changes": [...], "emptied"}], "totals": {"references_renumbered",
    "references_removed", "references_left", "doubled_words_removed", "definitions_dropped"}}; each
    change carries its "kind" ("reference", "doubled_word", "definition"), "old", "new" and "action".
    "emptied" is true for a section whose body the pass left empty (a Definitions section none of whose
    entries the draft needs: the caller drops or refills it, and renumbers). A body that needs no
    change comes back byte-identical."""
    bodies, reports = [], []
    for i, sec in enumerate(sections):
        resolve = (lambda n, i=i: resolve_ref(i, n)) if resolve_ref else None
        fixed, ref_changes = fix_references(sec["body"], resolve, own=str(i + 1))
        body, doubled = remove_doubled_words(fixed)
        changes = [{"kind": "reference", **c} for c in ref_changes]
        changes += [
            {"kind": "doubled_word", "old": fixed[s - len(w) : e], "new": fixed[s - len(w) : s], "action": "removed"}
            for s, e, w in doubled
        ]
        bodies.append(body)
        reports.append({"index": i, "heading": sec["heading"], "changes": changes})
    for i, sec in enumerate(sections):
        if sec.get("clause") != "definitions":
            continue
        rest = "\n\n".join([preamble] + [s["heading"] for s in sections] + [b for j, b in enumerate(bodies) if j != i])
        bodies[i], dropped = prune_definitions(bodies[i], rest, keep=keep_definitions)
        reports[i]["changes"] += [
            {"kind": "definition", "old": d["term"], "new": None, "action": "dropped", "reason": d["reason"]}
            for d in dropped
        ]
    totals = {
        "references_renumbered": 0,
        "references_removed": 0,
        "references_left": 0,
        "doubled_words_removed": 0,
        "definitions_dropped": 0,
    }
    key = {
        ("reference", "renumbered"): "references_renumbered",
        ("reference", "removed"): "references_removed",
        ("reference", "left"): "references_left",
        ("definition", "dropped"): "definitions_dropped",
    }
    for r in reports:
        for c in r["changes"]:
            name = "doubled_words_removed" if c["kind"] == "doubled_word" else key[(c["kind"], c["action"])]
            totals[name] += 1
        r["emptied"] = bool(sections[r["index"]]["body"].strip()) and not bodies[r["index"]].strip()
    return bodies, {"sections": reports, "totals": totals}


def reading_checks(sections_bodies: list[str], n_sections: int) -> dict:
    """The reading checks of a finished draft's section bodies: {"mid_sentence_endings" (bodies that
    `ends_mid_sentence`), "dangling_references" (`dangling_references`), "doubled_words",
    "doubled_words_per_1000_words", "words"}."""
    words = sum(_words(b) for b in sections_bodies)
    doubled = sum(len(doubled_words(b)) for b in sections_bodies)
    return {
        "mid_sentence_endings": sum(ends_mid_sentence(b) for b in sections_bodies),
        "dangling_references": len(dangling_references(sections_bodies, n_sections)),
        "doubled_words": doubled,
        "doubled_words_per_1000_words": round(1000 * doubled / words, 3) if words else 0.0,
        "words": words,
    }
