"""Cross-references of a draft's section bodies: `find_references` (the references of a text to sections of
the same document), `fix_references` (a precedent's "Section 8" meant its source contract's section 8:
renumbered to the draft's section where the caller can resolve it, rewritten so the sentence still reads
where it cannot) and `dangling_references` (the reading check: references that point nowhere).

Pure string functions, no model: which draft section a source document's section became is a caller's
`resolve` callable (the precedent library knows it; this module does not). Text that needs no change comes
back unchanged, byte for byte. hybrid.draft.consistency runs `fix_references` over every section.
"""

import re
from dataclasses import dataclass

from hybrid.common.sentences import CLOSE as _CLOSE
from hybrid.data.facts import BLANK
from hybrid.text.reference_lists import fix_listed
from hybrid.text.reference_resolve import Exact, Headed, part_by_order, resolve_one

__all__ = ["Exact", "Headed", "Ref", "MAX_RANGE", "find_references", "fix_references", "dangling_references"]

STATUTES = ("FAR", "DFARS?", "IRC", "UCC", "ERISA", "CFR", "USC")
"""Statutes and regulations a contract cites by their initials: "FAR section 2.101", "DFAR section 252.227-7014" name
the regulation's sections, not the Agreement's (renumbered, they read "FAR this section")."""
_KW = r"(?i:sections?|articles?|paragraphs?|clauses?|subsections?|subparagraphs?)"
_ARABIC = r"\d{1,3}[A-Z]?(?:\.\d{1,3})*(?:\.(?=\())?(?:\([A-Za-z0-9]{1,4}\))*(?![\w(]|\.\w)"
# "2.1(a)", "2.(a)(1)" as some filings write it; "Article IV", "Paragraph III.B. above", "XIX.A.1.", "IV(A)"
_ROMAN = r"[IVXL]{1,6}(?:\.[A-Z](?:\.\d{1,2})?(?:\.(?=[ \t]+[a-z]|[,;:)]))?|\([A-Z0-9]{1,3}\))?(?![\w(]|\.\w)"
_NUM = rf"(?:{_ARABIC}|{_ROMAN})"
_TITLE = (
    r"(?:[ \t]+\([A-Z][^()\n]{0,60}\))?"  # the source's heading after a number: "Section 10.4 (Surviving Provisions)"
)
_RANGE = r"\s*(?:-|–|—|(?i:through|thru)\s)\s*"
_LIST = rf"\s*(?:,|;|,\s*(?i:and|or)|;\s*(?i:and|or)|\s(?i:and/or|and|or))\s+(?:{_KW}\s+)?"
# right after a number's own part ("2.(a)(1)"), not after a heading ("Section 9 (Usage Rules) or (c) Customer's use")
_AFTER_PART = r"(?:(?<=\([a-z0-9]\))|(?<=\([a-z0-9]{2}\))|(?<=\([a-z0-9]{3}\))|(?<=\([a-z0-9]{4}\)))"
_GROUP = re.compile(
    rf"\b(?P<kw>{_KW})\s+(?P<items>{_NUM}{_TITLE}(?:(?:{_RANGE}|{_LIST}){_NUM}{_TITLE}"
    rf"|{_AFTER_PART}\s(?i:and|or)\s+\([A-Za-z0-9]{{1,4}}\))*)"
)  # a list goes on in the parts of the number before it: "subparagraphs 2.(a)(1) and (2)"
_SUFFIX = re.compile(r"\s+(?i:of\s+(?:this|the)\s+Agreement|hereof|herein|hereunder|hereto|above|below)\b")
# another document's or a statute's section: "Section 22(c) of the Investment Company Act", "Section 3 of Exhibit A",
# "12 U.S.C. Section 1467a", "Section 2-609 of the [___] Uniform Commercial Code" (had read "Section 4", seed 947)
_EXTERNAL_AFTER = re.compile(r"\s+of\s+(?:the\s+)?(?!this\b|Agreement\b|agreement\b)(?:[A-Z]|ERISA|\[___\]\s+[A-Z])")
# ... or a numbered instrument's article: "European Union Regulation 2016/679, Article 9(1)"
_EXTERNAL_BEFORE = re.compile(
    rf"(?:U\.S\.C\.|C\.F\.R\.|§|\b(?:{'|'.join(STATUTES)})|\b(?:Regulation|Directive)\s+(?:\(E[CU]\)\s+)?(?:No\.?\s+)?\d{{2,4}}/\d{{1,4}}(?:/E[CU])?,?)\s*$"
)
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
    total, number = 0, re.match(r"[IVXL]+", number).group()
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
    titles: tuple = ()  # per top, the source's heading after its number ("Section 10 (Confidentiality)"), or ""


_TITLE_TEXT = re.compile(r"[ \t]+\([A-Z][^()\n]{2,60}\)")  # "Section 13 (GENERAL LIABILITY ...)": "L" is no 50


def _parse_items(items: str) -> tuple[tuple, tuple]:
    numbers, tops, pending_range = [], [], False
    for m in _TOKEN.finditer(_TITLE_TEXT.sub("", items)):
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


_TITLED = re.compile(rf"(?P<num>{_NUM})[ \t]+\((?P<title>[A-Z][^()\n]{{0,60}})\)")


def _titles(items: str, tops: tuple) -> tuple:
    """Per top-level number of a reference's items, the heading parenthetical written after it, or ""."""
    found = {_top(m.group("num")): m.group("title") for m in _TITLED.finditer(items)}
    return tuple(found.get(t, "") for t in tops)


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
        titles = _titles(m.group("items"), tops)
        out.append(Ref(m.start(), m.end(), m.group(), m.group("kw"), numbers, tops, role, titles))
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
# a sentence's subject that goes on after the reference: "Paragraphs 1 and 13 and all accrued obligations ..."
_AND_MORE_AFTER = re.compile(r"\s+and\s+(?=(?:all|any|each|the|such|those|every)\b)([a-z])")
_NOTWITHSTANDING_BEFORE = re.compile(r"\b(?i:(notwithstanding))\s+$")
_THE_BEFORE = re.compile(r"\b(?i:the)\s+$")
# an exception whose object is the reference: with no such section it excepts nothing, and "Except for claims
# arising under this Agreement, in no event will either party be liable ..." had undone the whole waiver
_EXCEPTION = r"(?i:except\s+for|other\s+than|excluding|save\s+for|with\s+the\s+exception\s+of)\b[^.,;:()\n]{0,80}?"
_EXCEPT_BEFORE = re.compile(rf"(?:^|\n|[.!?:]{_CLOSE}*\s+)\s*({_EXCEPTION})$")
_EXCEPT_LEAD = re.compile(rf",\s*{_EXCEPTION}$")
_COMMA_WORD = re.compile(r",\s*([a-z])")


def _rewrite_unresolved(text: str, start: int, end: int) -> "tuple[int, int, str, str] | None":
    """(start, end, replacement, rule) for a reference that names no section of the draft, so that the
    sentence still reads; None where no rewrite keeps its meaning (the reference is, or sits in, a
    sentence's subject: "Section 9(b) shall not apply", "Sections 4 through 20 shall survive", "The
    provisions of Sections 1 and 8, and ..."), which is left for the caller.

    The table, in order:
      parenthetical   "(see Section 8)", "(as defined in Section 4.2(b))"   -> removed with its space
      notwithstanding "notwithstanding Section 17,"        -> "notwithstanding any other provision of this Agreement,"
      exception       "Except for claims under Section 19, in no event" -> "In no event"; ", other than under
                       Section 19." -> "." (an exception of a section the draft lacks excepts nothing)
      coordinated subject "Paragraphs 1 and 13 and all accrued obligations ... survive" -> "All accrued obligations
                       ... survive" (a subject that goes on after the reference keeps its other part)
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
    joined = _AND_MORE_AFTER.match(text, end)
    if joined and _SENTENCE_START.search(before):  # "Sections 1 and 13 and all accrued obligations ... survive"
        return start, joined.end(), joined.group(1).upper(), "coordinated subject"
    if _SENTENCE_START.search(before) or _SUBJECT_BEFORE.search(before) or _SUBJECT_AFTER.match(text, end):
        return None
    nw = _NOTWITHSTANDING_BEFORE.search(before)
    if nw:
        return nw.start(), end, nw.group(1) + " any other provision of this Agreement", "notwithstanding"
    exc, lead = _EXCEPT_BEFORE.search(before), _EXCEPT_LEAD.search(before)
    if exc and (after := _COMMA_WORD.match(text, end)):  # "Except for claims under Section 19, in no event"
        return exc.start(1), after.end(), after.group(1).upper(), "exception"
    if lead and re.match(r"\s*[,.;]", text[end:]):  # "..., other than under Section 19."
        return lead.start(), end, "", "exception"
    the = _THE_BEFORE.search(before)
    if the:
        if _SENTENCE_START.search(before, 0, the.start()):
            return None  # "The Section 6 obligations ..."
        return the.start(), end, "this Agreement", "the"
    return start, end, "this Agreement", "phrase"


def _singular(keyword: str) -> str:
    """ "Sections" -> "Section"; a singular keyword as it is."""
    return keyword[:-1] if keyword.lower().endswith("s") else keyword


def _through_direction(text: str, end: int) -> int:
    """Where a reference ending at `end` ends with its "above" or "below" (which the source's order meant)."""
    sfx = _SUFFIX.match(text, end)
    return sfx.end() if sfx and sfx.group().strip().lower() in ("above", "below") else end


def fix_references(text: str, resolve, own: "str | None" = None, resolve_title=None) -> tuple[str, list[dict]]:
    """(text with its cross-references made true of the draft, the changes in order).

    `resolve(number) -> str | None` maps a top-level section number of the precedent's SOURCE document
    ("8" of "Section 8.2(a)", "4" of "Article IV") to the draft's section number, None where the draft
    has no such section. `resolve_title(heading) -> str | None` does the same for the source's heading written
    after a number ("Section 10 (Confidentiality)"), asked first: a heading names its section whatever the
    number ("" where the heading names a clause the draft lacks: then the number is not asked; None where it
    names none it knows). `own` is this section's number in the draft.
    - resolved: renumbered to the draft's bare top-level sections ("Section 8.2(a)" -> "Section 5",
      "Sections 4 through 20" -> the draft sections those resolve to; one that resolves to `own` alone -> "this
      Section": a precedent joined from its source's next sections); unresolved numbers of the same
      reference are dropped; the source's heading parenthetical and "above"/"below" go with the number;
    - none resolved: rewritten by the table of `_rewrite_unresolved`, or left (a sentence's subject);
    - "this Section 8" (the clause itself) -> "this Section", kept where 8 is `own` ("this Section 8.1(d)" -> "this
      Section" even there: the draft does not number its paragraphs); another reference to 8 in
      the same text ("Section 8.2 above", a part of the clause itself) -> "this Section";
    - a source heading restated at a paragraph's start ("Section 1.1 Definitions. ") -> removed.
    Each change: {"old", "new", "action": "renumbered" | "removed" | "left", "rule", "numbers"}; a
    "left" one changes nothing. A reference already true of the draft is no change."""
    text, changes, listed = fix_listed(text, lambda n, title: resolve_one(_top(n), title, resolve, resolve_title))
    pieces, at = [], 0
    refs = [r for r in find_references(text) if not any(a <= r.start < b for a, b in listed)]  # renumbered already
    # the numbers the clause calls itself ("this Clause 10"): its "Clause 10.2 above" is a part of the same clause,
    # whatever number the source's section got at ingestion (a source whose numbering skipped a heading)
    itself = {r.tops[0] for r in refs if r.role == "self" and r.tops} - ({str(own)} if own is not None else set())
    for ref in refs:
        if ref.start < at:
            continue  # inside a span an earlier rewrite consumed
        numbers = list(ref.numbers)
        if ref.role == "label":
            span = (ref.start, ref.end, "", "label", "removed")
        elif ref.role == "self":
            if own is not None and tuple(ref.numbers) == (str(own),):
                continue  # "this Section 8" in the draft's section 8; "this Section 8.1(d)" names a part it lacks
            span = (ref.start, ref.end, _singular(ref.keyword), "self", "removed")
        elif parts := _titled_parts(ref, resolve, resolve_title):  # each part by its name: "Section 17 (General Cap)"
            span = (ref.start, _through_direction(text, ref.end), _titled_list(parts, ref), "resolved", "renumbered")
        elif ref.tops and set(ref.tops) <= itself and not _THE_BEFORE.search(text, 0, ref.start):
            # "Clause 10.2 above" -> its part by heading (part_by_order), else "this Clause": no paragraph numbers
            new = own is not None and part_by_order(ref.numbers[0], text, str(own))
            new = new or _this(ref.keyword, text, ref.start)
            span = (ref.start, _through_direction(text, ref.end), new, "part of itself", "renumbered")
        else:
            titles = ref.titles or ("",) * len(ref.tops)
            mapped = [resolve_one(t, title, resolve, resolve_title) for t, title in zip(ref.tops, titles)]
            drafted = [int(m) for m in mapped if m is not None]
            if drafted:
                end = _through_direction(text, ref.end)  # the draft's order is not the source's
                new = _format_sections(drafted, ref.keyword.isupper())
                part = _part_title(ref, mapped)
                alone = own is not None and [str(d) for d in drafted] == [str(own)]
                if part:  # "Section 8.4 (Exceptions)" -> "Section 9 (Exceptions)": the part keeps its name
                    new = f"{new} ({part})"
                elif alone:  # by its part's heading where it names a part ("7.1(a)"), else "this Section"
                    new = part_by_order(ref.numbers[0], text, str(own)) or _into_itself(ref, text, end, new)
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
                if ref.keyword.isupper() and text[s:e].upper() == text[s:e]:
                    new = new.upper()  # in a run of capitals: "AS DEFINED IN THIS AGREEMENT"
                span = (s, e, new, rule, "removed")
        s, e, new, rule, action = span
        pieces += [text[at:s], new]
        at = e
        changes.append({"old": text[s:e], "new": new, "action": action, "rule": rule, "numbers": numbers})
    pieces.append(text[at:])
    return "".join(pieces), changes


def _into_itself(ref, text: str, end: int, new: str) -> str:
    """A reference resolved into the section it stands in: "this Section" ("except pursuant to Section 5"); in a
    sentence that already says "this Section" ("shall this Section apply to any claim covered by Section 8": two parts
    of one section now, and "this Section" twice would cancel the clause) a blank, which part being the reader's to
    say; after "the", the number as resolved."""
    if _says_this(text, ref.start, end):
        return f"{_singular(ref.keyword)} {BLANK}"
    return new if _THE_BEFORE.search(text, 0, ref.start) else _this(ref.keyword, text, ref.start)


_THIS = re.compile(r"\bthis\s+(?:Section|Article|Clause|Paragraph)\b", re.I)


def _says_this(text: str, start: int, end: int) -> bool:
    """Whether the sentence around text[start:end] already says "this Section" (or "this Article") elsewhere."""
    lo = max((m.end() for m in re.finditer(r"[.!?;]\s", text[:start])), default=0)
    hi = next((m.start() for m in re.finditer(r"[.!?;](?:\s|$)", text[end:])), len(text) - end) + end
    return bool(_THIS.search(text[lo:start] + " " + text[end:hi]))


def _this(keyword: str, text: str, start: int) -> str:
    """ "this Section" for a reference at `start` that names the section it stands in; "This Section" opening a
    sentence, "THIS SECTION" in capitals."""
    if keyword.isupper():
        return "THIS " + _singular(keyword)
    return ("This " if _SENTENCE_START.search(text, 0, start) else "this ") + _singular(keyword)


def _titled_list(parts: list, ref: Ref) -> str:
    """ "Section 2 (Feedback and Usage Data), Section 3 (Restrictions on Customer), and Section 5 (Payment)", joined by
    the reference's own last "and", "or" or "and/or" ("breach of Section 9.1 (Compliance) or 9.2 (High-Risk
    Activities)" stays a breach of either, not of both)."""
    kw = "SECTION" if ref.keyword.isupper() else "Section"
    items = [f"{kw} {d} ({title})" for d, title in parts]
    conj = (re.findall(r"\b(and/or|and|or)\s", re.sub(r"\([^()]*\)", "", ref.text), re.I) or ["and"])[-1]
    tail = f", {conj} " if len(items) > 2 else f" {conj} "
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + tail + items[-1]


def _titled_parts(ref: Ref, resolve, resolve_title) -> list:
    """[(draft section, heading)] for a list of several numbers each written with its heading, one at least a part
    ("Section 1.4 (Feedback and Usage Data), Section 1.6 (Machine Learning), Section 2.1 (Restrictions on Customer)"):
    renumbered item by item, each keeping its heading, since a draft that numbers only sections would otherwise revive
    the whole of each ("Sections 2 and 3"); items the draft lacks are dropped. [] for any other reference, and for a
    list of which the draft holds none (the caller's rewrite keeps the sentence reading)."""
    pairs = [(m.group("num"), m.group("title")) for m in _TITLED.finditer(ref.text)]
    if ref.role != "reference" or len(pairs) < 2 or len(pairs) != len(ref.numbers):
        return []
    resolved = [resolve_one(_top(num), title, resolve, resolve_title) for num, title in pairs]
    if not any(re.match(r"\d+[.(]\w", n) for n, _ in pairs) and not all(isinstance(d, Headed) for d in resolved):
        return []  # whole sections the draft heads otherwise: "Sections 12 through 14"
    return [(int(d), title) for d, (_, title) in zip(resolved, pairs) if d is not None]


def _part_title(ref: Ref, mapped: list) -> str:
    """The heading a reference to one part of a section writes after its number ("Exceptions" of "Section 8.4
    (Exceptions)"), kept where the draft does not number its paragraphs, and a whole section's where the draft's
    section has that very heading ("Section 12 (Confidentiality)"); "" for several sections or another heading."""
    drafted = {int(m) for m in mapped if m is not None}
    if len(ref.numbers) != 1 or len(drafted) != 1 or not ref.titles or not ref.titles[0]:
        return ""
    return ref.titles[0] if re.match(r"\d+[.(]\w", ref.numbers[0]) or isinstance(mapped[0], Headed) else ""


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
