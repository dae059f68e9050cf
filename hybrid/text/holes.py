"""Which runs of an adapted precedent are holes the filler would write, and which sentence is the clause's own.

Owns: `outside` (a run of another deal's text less the deal's own facts inside it: what start_tokens masks),
`worded_holes` (the holes that are words, a name, a term, an acronym, not a figure: a figure becomes a blank
to complete, a word the 5M-parameter filler rewrites), `on_subject` (a sentence that writes a word of its
section's heading), `unpointed` (pointers into another contract's exhibits taken out, the sentence kept) and
`beyond_mending` (which of a whole base's sentences no blank mends).
hybrid.text.settle decides with them which sentences go. Knows nothing about models.
"""

import re

from hybrid.common.protections import protection_kind
from hybrid.common.stems import content_stems
from hybrid.data.clean import REDACTION_RE
from hybrid.data.facts import BLANK
from hybrid.precedents.fact_spans import found_facts, overlaps

__all__ = ["outside", "worded_holes", "on_subject", "unpointed", "beyond_mending", "PERIOD_KINDS"]

PERIOD_KINDS = frozenset({"duration", "number"})  # a whole base's holes that count toward no density: blanks serve


def beyond_mending(text: str, bad, other, runs, found, dense: int) -> list:
    """Of a whole base's `bad` sentences ((start, end) spans), those no blank mends: naming a document the deal
    lacks (`other`), or holding `dense` or more holes (`runs`) of another deal's names, sums and dates, and granting
    no protection (hybrid.common.protections) and opening no list. A period or a count (`found` facts of
    PERIOD_KINDS) is a blank to complete: a joint venture's buy-sell trigger ("in the thirty day period ... not less
    than ninety days after") had gone as dense, and the deadlock exit with it (seed-347 reader)."""
    periods = [(f.start, f.end) for f in found if f.kind in PERIOD_KINDS]
    return [s for s in bad if s in other or not protection_kind(text[s[0] : s[1]]) and not _leads_in(text, s)
            and dense <= sum(1 for x, y in runs if x < s[1] and s[0] < y and not overlaps(x, y, periods))]


def _leads_in(text: str, s) -> bool:
    """A sentence that opens a list ("..., including but not limited to the following:"): cut, the list reads
    headless (the seed-347 sponsorship's benefits list began "(i) displaying prominent identification ...")."""
    return text[s[0] : s[1]].rstrip().endswith(":")


def worded_holes(text: str, runs, allowed: str, own_facts, figure_kinds) -> list:
    """The runs (start, end) of `runs` that are not a figure of another deal (a fact of `figure_kinds`) or a
    redaction: another deal's name, term or acronym, which the filler would rewrite."""
    found = found_facts(text, allowed, own_facts)  # what the fact spans found in the same text
    figures = [(f.start, f.end) for f in found if f.kind in figure_kinds]
    figures += [m.span() for m in REDACTION_RE.finditer(text)]
    return [(x, y) for x, y in runs if not any(a <= x and y <= b for a, b in figures)]


_GENERIC_STEMS = frozenset(("parti", "agreement", "gener", "provis"))


def on_subject(sentence: str, heading: str) -> bool:
    """sentence writes a word of the section's heading ("will indemnify" under "Indemnification"; stems that
    share their first four letters or more, one the other's start): the clause's operative sentence, which the
    name rule leaves to the share rule. Without it "Indemnification" kept Bonterms' definitions and procedures and
    lost the indemnity itself."""
    mine = content_stems(heading) - _GENERIC_STEMS
    theirs = content_stems(sentence)
    return any(len(min(a, b, key=len)) >= 4 and (a.startswith(b) or b.startswith(a)) for a in mine for b in theirs)


def outside(drop, keep, text: str) -> list:
    """The parts of the `drop` spans outside every `keep` span that hold a letter or digit: what start_tokens masks
    ("Buyer Ex-Factory" with the deal's "Buyer" kept: the hole " Ex-Factory", which the filler had written as ". This
    Agreement")."""
    out = []
    for a, b in drop:
        parts = [(a, b)]
        for x, y in keep:  # each part less the kept span: what lies before it and what after
            parts = [q for s, e in parts for q in ((s, min(e, x)), (max(s, y), e)) if q[0] < q[1]]
        out += [(s, e) for s, e in parts if any(c.isalnum() for c in text[s:e])]
    return out


# "identified in Exhibit A", ", as set forth in Schedule 2 attached hereto": a participle pointing into an attachment
_POINTER = re.compile(
    r",?\s+(?:as\s+)?(?:identified|specified|set forth|set out|described|listed|referred to|contained|included)"
    r"\s+(?:in|on|under)\s+(?:the\s+)?(?:attached\s+)?((?:Exhibit|Schedule|Annex|Appendix|Attachment)\s+[A-Z0-9](?:[.-]?\d+)?)"
    r"\b(?:\s+(?:attached\s+)?(?:hereto|to this Agreement))?(?=[\s,;.)])"
)

# "As set forth in Schedule 2, Buyer pays": a pointer opening its sentence goes with its "As" and its comma
_OPENING_POINTER = re.compile(
    r"(?:(?<=^)|(?<=[.;:]\s)|(?<=\n))As\s+(?:identified|specified|set forth|set out|described|listed|referred to|"
    r"contained|included)\s+(?:in|on|under)\s+(?:the\s+)?(?:attached\s+)?"
    r"((?:Exhibit|Schedule|Annex|Appendix|Attachment)\s+[A-Z0-9](?:[.-]?\d+)?)\b"
    r"(?:\s+(?:attached\s+)?(?:hereto|to this Agreement))?,\s+(?P<next>[a-z])?",
    re.M,
)


def unpointed(text: str, allowed: str) -> str:
    """text without the phrases that point into an attachment the deal's text (`allowed`) does not name: "sell the
    Products identified in Exhibit A only within the Territory specified in Exhibit B" -> "sell the Products only
    within the Territory". A license grant's three pointers had made its one operative sentence dense with holes, and
    the clause went without its grant; as plain words the sentence says what the deal's own terms define. One opening
    its sentence goes with its "As" and comma ("As set forth in Schedule 2, the price ..." -> "The price ...")."""
    opening = lambda m: m.group(0) if m.group(1) in allowed else (m.group("next") or "").upper()  # noqa: E731
    text = _OPENING_POINTER.sub(opening, text)  # and the sentence's next word opens it
    return _POINTER.sub(lambda m: m.group(0) if m.group(1) in allowed else _pointer_gone(text, m), text)


_COPULA = re.compile(r"\b(?:be|is|are|was|were)$")
_COPULA_TERM = re.compile(r"\b(?:be|is|are|was|were)\s+the\s+[A-Z][a-z]+,?$")


def _pointer_gone(text: str, m: re.Match) -> str:
    """What stands where a pointer went: nothing, or a blank to complete where it was what the sentence states
    ("The price for the Products shall be as set forth on Exhibit C" -> "... shall be [___]", not "shall be."), or
    the pointer to a blank where it is what a term the sentence states means ("are to be the Price, as set out in
    Schedule 4" -> "... the Price, as set out in [___]": it had read "are to be the price.", seed 733)."""
    before = text[: m.start()].rstrip()
    if _COPULA_TERM.search(before):  # "are to be the Price, as set out in Schedule 4": the schedule says what it is
        return m.group(0).replace(m.group(1), BLANK)
    return f" {BLANK}" if _COPULA.search(before) else ""
