"""Two wording repairs of a finished section body, where an edited precedent and the template meet:
`drop_restated` (a precedent's sentence that states again what the section's frame already states: "This
Agreement is governed by the laws of the State of Delaware. ... All matters relating to this Agreement shall be
governed by the laws of the State of Delaware, without regard to ...") and `capitalize_defined_party` (the
preamble defines "Party", a precedent writes "each party": "each Party").

Pure string functions, no model; text that needs no change comes back unchanged, byte for byte.
hybrid.draft.consistency runs both over every section.
"""

import re

from hybrid.common.sentences import sentence_boundaries

__all__ = ["RESTATED_SHARE", "restated_sentences", "drop_restated", "defines_party", "capitalize_defined_party"]

RESTATED_SHARE = 0.6  # a later sentence holding this share of the frame's content words and every value restates it
_WORD = re.compile(r"[A-Za-z]+|\d+")
_STOP = frozenset(
    "a an and any as at be by for from in into is it its of on or shall such that the their this to under upon "
    "with will all each other hereby hereof hereunder".split()
)
_GENERAL = frozenset("agreement this the".split())  # capitalized in any frame, no fact of the deal


def _content(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text) if w.lower() not in _STOP}


def _values(frame: str, locked) -> set[str]:
    """What the frame states of the deal, as words: its numbers and the capitalized words after its first, less the
    words of the locked strings (party names and defined terms, which any sentence of the draft may name)."""
    common = {w.lower() for s in locked for w in _WORD.findall(s)} | _GENERAL
    words = _WORD.findall(frame)
    return {w.lower() for w in words[1:] if (w[0].isupper() or w.isdigit()) and w.lower() not in common}


def restated_sentences(text: str, frame: str, locked=()) -> list[tuple[int, int]]:
    """(start, end) of every sentence of text after its opening frame that restates the frame: it holds every value
    the frame states (_values: "Delaware", "5") and at least RESTATED_SHARE of the frame's content words. A frame
    that states no value ("The Supplier shall supply the Products") has no restatement. text[start:end] is the
    sentence with the space before it."""
    frame = frame.strip()
    if not frame or not text.lstrip().startswith(frame):
        return []
    values, want = _values(frame, locked), _content(frame)
    if not values or len(want) < 4:
        return []
    out, start = [], text.index(frame) + len(frame)
    for end in [b for b in sentence_boundaries(text) if b > start] + [len(text)]:
        piece = text[start:end]
        words = _content(piece)
        if piece.strip() and values <= words and len(want & words) >= RESTATED_SHARE * len(want):
            out.append((start, end))
        start = end
    return out


def drop_restated(text: str, frame: str, locked=()) -> tuple[str, list[str]]:
    """(text without the sentences restated_sentences finds, those sentences stripped)."""
    found = restated_sentences(text, frame, locked)
    if not found:
        return text, []
    out, at = [], 0
    for s, e in found:
        out.append(text[at:s])
        at = e
    out.append(text[at:])
    return "".join(out), [text[s:e].strip() for s, e in found]


_DEFINES_PARTY = re.compile(r"[\"“](?:Party|Parties)[\"”]")
# a lower-case "party"/"parties" that means one of this Agreement's parties: not "third party", "non-party", "party to
# any action" (a litigant of any dispute), nor inside a word
_PARTY = re.compile(
    r"(?<![\w-])(?<!third )(?<!third-)(?<!Third )(?<!non-)(?<!any other )(party|parties)(?![\w-])"
    r"(?!\s+to\s+(?:any|an?|such)\s+(?:action|suit|proceeding|litigation|arbitration|claim))"
)


def defines_party(preamble: str) -> bool:
    """Whether the preamble defines "Party" (or "Parties") as a term."""
    return bool(_DEFINES_PARTY.search(preamble))


def capitalize_defined_party(text: str) -> tuple[str, list[str]]:
    """(text with "party"/"parties" that name this Agreement's parties written "Party"/"Parties", the words changed):
    for a draft whose preamble defines the term (defines_party). "third party" and "non-party" stay."""
    found = [m.group(1) for m in _PARTY.finditer(text)]
    if not found:
        return text, []
    return _PARTY.sub(lambda m: m.group(1)[0].upper() + m.group(1)[1:], text), found
