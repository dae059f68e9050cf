"""Sentence boundaries of contract text: where a clause may end.

Owns: `sentence_boundaries` (the ends of sentences, abbreviations, initials, numbers and list markers
aside), `cut_to_sentence` (the longest prefix ending at a boundary that fits a caller's budget) and
`cut_to_clause` (where no sentence ends: the text before its last coordinated clause, closed with a full
stop) and `ends_mid_sentence` (the reading check). Pure string functions: a budget is the caller's `fits`.
"""

import re

__all__ = ["CLOSERS", "CLOSE", "RUN_IN_HEADING", "HEADING_BEFORE_TEXT", "PART_LINE", "sentence_boundaries", "sentences",
           "cut_to_sentence", "cut_to_clause", "ends_mid_sentence", "HEADING_WORD", "without_run_in_headings"]

_CLOSERS = "\"'”’)]"
_CLOSE = "[" + re.escape(_CLOSERS) + "]"  # one closing quote or bracket, for a pattern
# a word before a full stop that does not end a sentence (case-sensitive: "no." ends one, "No. 5" does not)
_ABBREVIATIONS = frozenset(
    "Inc Ltd Corp Co Bros Pty Mr Mrs Ms Dr Jr Sr St No Nos Sec Secs Art Arts Ex vs v cf approx Para para".split()
    # and in a run of capitals: "ORION PAYMENTS, INC. AND SUCH OTHER PERSONS" goes on ("NO." may end one)
    + "INC LTD CORP CO BROS PTY MR MRS MS DR JR SR ST SEC SECS ART ARTS".split()
)
_INITIALISM = re.compile(
    r"^(?:[A-Za-z]\.)+[A-Za-z]$"
)  # "U.S", "L.L.C", "e.g", "i.e", "N.V" (the last dot not included)
_ROMAN_MARKER = re.compile(r"^(?:i{1,3}|iv|vi{0,3}|ix|x)$")  # "ii." of an inline list "i. ... ii. ..."
_LIST_NUMBER = re.compile(r"^\d{1,3}(?:\.\d{1,3})*$")
_STOP = re.compile(rf"[.!?]{_CLOSE}*(?=\s|$)")
_PARAGRAPH_END = re.compile(rf"[.;:]{_CLOSE}*(?=[ \t]*\n)")


def _ends_sentence(text: str, dot: int, end: int) -> bool:
    """Whether the '.', '!' or '?' at `dot` (its closers run to `end`) ends a sentence."""
    if text[dot] != ".":
        return True
    start = dot
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    word = text[start:dot].lstrip("(\"'“‘[")
    if (
        word in _ABBREVIATIONS
        or _INITIALISM.match(word)
        or (len(word) == 1 and word.isalpha())
        or _ROMAN_MARKER.match(word)
    ):
        return False
    if word == "etc":  # "etc. and" goes on; "etc. The" is a new sentence
        nxt = text[end:].lstrip()
        return not nxt[:1].islower()
    if _LIST_NUMBER.match(word):  # "1." or "2.1." opening a line is a list marker; "in Section 2." ends a sentence
        line_start = text.rfind("\n", 0, start) + 1
        return bool(text[line_start:start].strip())
    return True


def sentence_boundaries(text: str) -> list[int]:
    """Sorted end offsets (exclusive) of the sentences of text: after '.', '!' or '?' (and any closing
    quote or bracket) before whitespace or the end, unless the stop belongs to an abbreviation, an
    initial, a number or a list marker; and after '.', ';' or ':' that ends a paragraph (a line)."""
    ends = {m.end() for m in _STOP.finditer(text) if _ends_sentence(text, m.start(), m.end())}
    ends |= {m.end() for m in _PARAGRAPH_END.finditer(text)}
    return sorted(ends)


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) offsets of the non-blank sentences of text (`sentence_boundaries`), whitespace included: for a
    caller that rewrites a sentence in place."""
    ends = [b for b in sentence_boundaries(text) if 0 < b < len(text)]
    return [(a, b) for a, b in zip([0, *ends], [*ends, len(text)]) if text[a:b].strip()]


def sentences(text: str) -> list[str]:
    """The non-blank sentences of text (`sentence_spans`), stripped."""
    return [text[a:b].strip() for a, b in sentence_spans(text)]


def cut_to_sentence(text: str, fits) -> "str | None":
    """The longest prefix of text that ends at a sentence boundary (`sentence_boundaries`) and for which
    `fits(prefix)` is true; text itself, unchanged, where it fits whole. None where no boundary fits
    (the caller picks another precedent or keeps the first sentence). `fits` must be monotone (a prefix
    of a fitting text fits); it is called once on the whole text and O(log n) times on prefixes."""
    if fits(text):
        return text
    ends = sentence_boundaries(text)
    lo, hi, best = 0, len(ends) - 1, None
    while lo <= hi:
        mid = (lo + hi) // 2
        if fits(text[: ends[mid]]):
            best, lo = ends[mid], mid + 1
        else:
            hi = mid - 1
    return None if best is None else text[:best]


# where a long sentence may be closed: before "; " or before ", and" (any case) that coordinates a further
# clause; never before a comma that opens a carve-out ("..., except", "..., provided that") nor before ", or"
# (a list of alternatives: "its officers, directors, or affiliates")
_CLAUSE_BREAK = re.compile(r"(?:;|,(?=\s+(?:and|AND)\s))\s")


def cut_to_clause(text: str, min_words: int = 12, fits=None) -> "str | None":
    """text cut before its last clause break (`_CLAUSE_BREAK`) and closed with a full stop: for a body that
    stops mid-sentence and holds no sentence end to cut at ("... LOSS OR DAMAGE, AND EVEN IF ANY OF THE" ->
    "... LOSS OR DAMAGE."); with `fits`, the last break whose closed head fits. None where no break leaves at
    least `min_words` words outside an open bracket or quote (and fits)."""
    breaks = [m.start() for m in _CLAUSE_BREAK.finditer(text)]
    for at in reversed(breaks):
        head = text[:at].rstrip(" ,;")
        quoted = head.count('"') % 2 == 0 and head.count("“") <= head.count("”")
        balanced = head.count("(") <= head.count(")") and quoted
        if len(head.split()) < min_words:
            return None
        if balanced and (fits is None or fits(head + ".")):
            return head + "."
    return None


_HEADING_WORD = re.compile(r"^(?:[A-Z0-9][\w'’&/-]*|of|and|or|the|to|for|in|on|by|with|from|a|an)[,;]?$")


def ends_mid_sentence(text: str) -> bool:
    """Whether a section body stops mid-sentence: its stripped text does not end with '.', '!', '?', ':'
    or ';' (a closing quote or bracket may follow), or its last sentence leaves a bracket open. An empty
    body and a heading-only one (a single line of at most 8 title-case words, or a markdown heading) are
    not mid-sentence."""
    body = text.strip()
    if not body:
        return False
    if "\n" not in body and (
        body.startswith("#") or (len(body.split()) <= 8 and all(_HEADING_WORD.match(w) for w in body.split()))
    ):
        return False
    if body.rstrip(_CLOSERS + "*_")[-1:] not in ".!?:;":
        return True
    ends = [e for e in sentence_boundaries(body) if e < len(body.rstrip(_CLOSERS + "*_")) - 1]
    last = body[ends[-1] if ends else 0 :]
    return last.count("(") > last.count(")")  # a stop inside an open bracket: '(ACME, INC. AND ITS OFFICERS, INC.'


CLOSERS, CLOSE, HEADING_WORD = _CLOSERS, _CLOSE, _HEADING_WORD


_TITLE_WORD = r"(?:[A-Z][\w'&/-]*|and|or|of|the|to|for|in|on|by|with|upon|from|under|at)"
_HEADING_WORDS = rf"{_TITLE_WORD}(?:[ ,;]+{_TITLE_WORD}){{0,6}}"  # up to seven title-case words, connectors between
RUN_IN_HEADING = rf"{_HEADING_WORDS}\."
"""A run-in heading: up to seven title-case words (connectors between) and a full stop ("Delivery; Shipment.")."""
# a company's abbreviation ends a name, not a heading: "During the Term, Berkely Lights, Inc. shall manufacture ..."
_COMPANY_ABBREVIATIONS = ("Inc", "Ltd", "Corp", "Co", "LLC", r"L\.P", r"S\.A", r"N\.V", "Pty", "PLC")
_NOT_HEADING_STOP = "".join(rf"(?<!\b{a})" for a in _COMPANY_ABBREVIATIONS)
HEADING_BEFORE_TEXT = rf"{_HEADING_WORDS}{_NOT_HEADING_STOP}\."
"""A run-in heading with a sentence after it: RUN_IN_HEADING, but not one whose stop is a company's abbreviation
("Berkely Lights, Inc. shall ..." is a sentence; "Indemnification by Adaptimmune LLC." alone is a heading)."""

PART_LINE = re.compile(rf"^[ \t]*{HEADING_BEFORE_TEXT}(?=\s|$)", re.M)
"""A line opening a headed part: a run-in heading before its text, or a heading alone above its paragraphs
("Termination."); `match` one line, or `findall` a text's such lines."""

_RUN_IN_AT_START = re.compile(rf"(?m)^([ \t]*(?:\(?[A-Za-z0-9]{{1,3}}[.)][ \t]+)?){HEADING_BEFORE_TEXT}(?=\s|$)")


def without_run_in_headings(text: str) -> str:
    """text without the run-in headings that open its paragraphs, list markers kept ("(b) Required by Law. Receiving
    Party may ..." -> "(b)  Receiving Party may ..."): a heading names a subject, it does not use a defined term."""
    return _RUN_IN_AT_START.sub(lambda m: m.group(1), text)
