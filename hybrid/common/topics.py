"""What a sentence presupposes of the rest of its contract: a clause of a type the draft may not have.

Owns: `PRESUPPOSES` (clause type -> the phrases that only read where a clause of that type stands: "the license
hereby granted" needs a licence, "obligations respecting confidentiality and indemnification" an indemnity),
`absent_types` (which of them a draft lacks), `absent_mentions` (where a text leans on one) and
`convenience_termination` (a right to end the agreement at will, which belongs in its term section).
Pure string functions: no models, no library.

A precedent is another deal's clause, and it speaks of that deal's other clauses. An NDA's survival clause taken
from a services agreement keeps "indemnification"; an exclusivity clause taken from an endorsement agreement keeps
"the license hereby granted"; an outsourcing NDA's general terms keep "Confidential Information" in an equipment
lease. A lawyer deletes the sentence, or takes another precedent; hybrid.precedents.fit and
hybrid.draft.consistency do the same.
"""

import re

__all__ = ["PRESUPPOSES", "absent_types", "absent_mentions", "convenience_termination", "TERM_CLAUSES",
           "ARBITRATION", "absent_agreements"]

PRESUPPOSES = {
    "indemnification": re.compile(
        r"\bindemni(?:fy|fies|fied|fying|fication|fications|ty|ties|tee|tees|tor|tors)\b|\b(?:hold|save)s? harmless\b",
        re.I,
    ),
    "license": re.compile(
        r"(?i:\blicen[cs]es? (?:hereby |herein |hereunder )?granted(?: (?:hereunder|herein|hereby))?\b)"  # any case
        r"|\bLicen[cs]ee\b|\bLicen[cs]or\b|\broyalt(?:y|ies)\b",
    ),
    "confidentiality": re.compile(
        r"\bConfidential Information\b|\bconfidentiality obligations?\b"
        r"|\bobligations? (?:of|respecting|regarding|relating to|with respect to) confidentiality\b"
        r"|\b(?:disclose|receive) (?:or (?:to )?(?:disclose|receive) )?Information\b",
    ),
}
"""A clause type -> the phrases that only read in a contract holding a clause of that type."""

# the clause types a type's phrases may also stand under (a confidentiality obligation inside an NDA's
# "obligations", a licence inside "intellectual_property")
_ALSO = {
    "license": frozenset({"intellectual_property"}),
    "confidentiality": frozenset(),
    "indemnification": frozenset(),
}
TERM_CLAUSES = frozenset({"term", "termination"})
_CONVENIENCE = re.compile(
    r"\bmay terminate this Agreement\b[^.;]*?\b(?:for convenience|for any (?:or no )?reason|without cause"
    r"|(?:upon|by|on|with) (?:giving |providing |delivering )?(?:at least )?(?:\S+ )?(?:\(\S+\) )?"
    r"(?:(?:days?|months?|weeks?|years?)(?:['’]s?)?)?\s*(?:prior )?(?:written )?notice)",
    re.I,
)
_CAUSE = re.compile(r"\b(?:breach|default|fail|insolven|bankrupt|force majeure|cure|change of control)", re.I)


def absent_types(clauses, deal_text: str = "") -> frozenset[str]:
    """The types in PRESUPPOSES that none of `clauses` (the draft's section clause types) is, nor may hold
    (_ALSO), and whose phrases `deal_text` (preamble, frames, fields) does not write itself."""
    have = set(clauses)
    return frozenset(
        t for t, pattern in PRESUPPOSES.items()
        if t not in have and not (_ALSO[t] & have) and not pattern.search(deal_text)
    )


# An agreement a contract states in a sentence, not a section: to arbitrate. Its details ("The place of arbitration
# shall be the State of Ohio.") only read where a sentence refers disputes to arbitration; a supply draft had kept
# them after the reference itself (to another deal's arbitration centre) went (seed-331 reader).
ARBITRATION = re.compile(r"\b(?:place|seat|venue|language|costs?|rules) of (?:the )?arbitration\b|\bthe arbitrators?\b"
                         r"|\b(?:the )?arbitral tribunal\b", re.I)
_ARBITRATES = re.compile(r"\b(?:settled|resolved|determined|decided|submitted|referred)\b[^.;]{0,120}?\barbitration\b"
                         r"|\bbinding arbitration\b|\barbitrat\w*\b[^.;]{0,80}?\b(?:administered|rules of)\b", re.I)


_PHRASES = {**PRESUPPOSES, "arbitration": ARBITRATION}  # what leans on a clause type or on an agreement


def absent_agreements(text: str) -> frozenset[str]:
    """The agreements stated in a sentence (arbitration) whose details `text`, a whole draft, keeps without them."""
    return frozenset({"arbitration"}) if ARBITRATION.search(text) and not _ARBITRATES.search(text) else frozenset()


def absent_mentions(text: str, absent) -> list[tuple[int, int, str]]:
    """[(start, end, clause type)] of each phrase in text that presupposes a clause of a type in `absent` (or an
    agreement of absent_agreements), in order."""
    found = [(m.start(), m.end(), t) for t in absent for m in _PHRASES[t].finditer(text)]
    return sorted(found)


def convenience_termination(sentence: str) -> bool:
    """Whether a sentence gives a right to end the agreement at will, on notice alone ("Either party may terminate
    this Agreement by providing [___] month's written notice to the other"), not for a cause (breach, insolvency,
    force majeure): in a draft whose term section sets the term, such a right elsewhere contradicts it."""
    m = _CONVENIENCE.search(sentence)
    return bool(m) and not _CAUSE.search(sentence)
