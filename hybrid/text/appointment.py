"""Which way a sentence states an appointment or grant, exclusive or not, and which way the deal says it:
`exclusivity_statement` (kind, the key that makes two statements the same appointment or grant, the grant word, the
exclusivity words of its phrase), `APPOINTMENT` (the appointment's key), `deal_exclusivity` (the deal's fields read
one way) and `parties` (the role names a template's preamble gives its parties).

Reads text, never edits it: the exclusivity mend (hybrid.text.exclusivity) rewrites by it, and the substance check
(hybrid.draft.substance) reports by the same notion, so that what the mend leaves is what the check reads.
"""

import re

from hybrid.data.roles import FAMILIES

__all__ = ["APPOINTMENT", "deal_exclusivity", "exclusivity_statement", "parties"]

# a word or phrase that states exclusivity: "non-exclusive" and "not to the exclusion of" one way, the rest the other
_EXCLUSIVE = re.compile(r"\b(?:non[-\s]?exclusive|exclusive|(?:not\s+)?to\s+the\s+exclusion\s+of)\b", re.I)
_GRANT = re.compile(r"\b(?:appoint|grant|licen[cs]e)\w*", re.I)
_AUTHORIZES = re.compile(r"\bauthori[sz]\w*", re.I)
_ANY_GRANT = re.compile(r"\b(?:appoint|grant|licen[cs]e|authori[sz])\w*", re.I)
_SUB = re.compile(r"\bsub-?(?:distribut|licen|contract|agent)\w*", re.I)
_ADJECTIVES = re.compile(r"(?:,?\s+(?:and\s+)?(?:non-?transferable|royalty-free|worldwide|perpetual|irrevocable|limited"
                         r"|revocable|non-?sublicensable|(?:fully\s+)?paid-up|sole))*,?\s+(\w+)", re.I)
_PARTY = re.compile(r'\{party_[ab]\} \(the "([^"]+)"\)')


def parties(template) -> list[str]:
    """The role names the template's preamble gives party A and party B ([] where it gives none)."""
    return _PARTY.findall(getattr(template, "preamble", "") or "")


APPOINTMENT = ("appoint",)
"""exclusivity_statement's key of the appointment (of the template's appointed party): one per agreement."""


def deal_exclusivity(values: dict) -> "tuple[str, str] | None":
    """(field, "exclusive" | "non-exclusive") as the deal states its exclusivity: its `exclusivity` field, else the
    fields whose values read one way ("Non-Exclusive", "non exclusive"); None where the deal is silent or its fields
    say both."""
    def kind(value) -> str:
        return " ".join(str(value or "").lower().split()).replace(" ", "-").replace("nonexclusive", "non-exclusive")

    if kind(values.get("exclusivity")) in ("exclusive", "non-exclusive"):
        return "exclusivity", kind(values["exclusivity"])
    stated = sorted((f, kind(v)) for f, v in values.items() if kind(v) in ("exclusive", "non-exclusive"))
    return stated[0] if len({k for _, k in stated}) == 1 else None


def _roles_re(template) -> re.Pattern:
    roles = [*parties(template), *(w for f in ("provider", "customer") for w in FAMILIES[f])]
    return re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, set(roles)), key=len, reverse=True)) + r")\b")


def exclusivity_statement(text: str, template) -> "tuple[str, tuple, int, list[tuple[int, int]]] | None":
    """(kind, key, grant, spans) where one sentence appoints, grants or licenses with an exclusivity word ("exclusive",
    "non-exclusive", "(not) to the exclusion of"), all its words one way: kind "exclusive" or "non-exclusive"; key,
    what makes two statements the same appointment or grant (APPOINTMENT for an appointment, or an authorization or
    grant of the template's appointed party's role: "an authorized non-exclusive Distributor"; else ("grant", the
    licence noun, the parties named)); grant, the offset of the grant word the key reads; spans, the exclusivity
    words of that grant's phrase (up to the next grant word of another family: "appoints ... its exclusive
    distributor, and grants ... a non-exclusive license to the Marks" holds two). None for a sentence that states no
    grant, states both kinds (an exclusive licence of one thing beside a non-exclusive one of another), or is about a
    sub-distributor or sublicence."""
    marks = list(_EXCLUSIVE.finditer(text))
    grant = _GRANT.search(text) or _AUTHORIZES.search(text)
    if not grant or not marks or _SUB.search(text):
        return None
    kinds = {"non-exclusive" if m.group(0).lower().startswith("no") else "exclusive" for m in marks}
    if len(kinds) > 1:
        return None
    word = next((m for m in marks if m.group(0).lower().endswith("exclusive")), None)
    noun = _ADJECTIVES.match(text, word.end()) if word else None
    noun = (noun.group(1).lower() if noun else "").replace("licence", "license")
    appointed = (template.roles.get("appointed") or "").lower() if template else ""
    if grant.group(0).lower().startswith("appoint") or (appointed and noun == appointed):
        key = APPOINTMENT
    elif _AUTHORIZES.fullmatch(grant.group(0)):
        return None  # "authorized to use the Marks on a non-exclusive basis" authorizes no appointment
    else:
        key = ("grant", noun, tuple(dict.fromkeys(_roles_re(template).findall(text))))
    return kinds.pop(), key, grant.start(), _phrase(text, grant.start(), marks)


def _phrase(text: str, at: int, marks) -> list[tuple[int, int]]:
    """The spans of marks in the phrase of the grant word at `at`: from the previous grant word of another family
    (or the sentence's start) to the next one (or its end)."""
    words = [(m.start(), m.group(0).lower().startswith(("appoint", "authori"))) for m in _ANY_GRANT.finditer(text)]
    family = next(f for s, f in words if s == at)
    lo = max((s for s, f in words if s < at and f != family), default=0)
    hi = min((s for s, f in words if s > at and f != family), default=len(text))
    return [m.span() for m in marks if lo <= m.start() < hi]
