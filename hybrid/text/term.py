"""How long the agreement runs, as a contract writes it: `DURATION` (a duration: "three (3) years", "36 months",
"third anniversary"), `parse_duration` and `canonical_duration` (one in a comparable form: months, days, business
days or seasons), `TERM_SUBJECT` (the agreement or its term, then the verb that says how long it runs), `NOT_TERM`
(what makes a period another than the term: a renewal, a notice, a survival) and `states_term` (whether a sentence
states the agreement's term).

Reads text, never edits it: the revise passes (hybrid.text.wording, hybrid.text.revise_passes: a sentence restating
the frame's term, a second statement of the term) and the consistency pass ask `states_term`; the substance check's
one-term rule (hybrid.draft.substance) reads the same definitions. Sentences are split by hybrid.common.sentences.
"""

import re

from hybrid.common.sentences import sentences

__all__ = ["DURATION", "NOT_TERM", "TERM_SUBJECT", "canonical_duration", "parse_duration", "states_term"]

_ONES = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen " \
        "seventeen eighteen nineteen".split()
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_NUMBERS = {w: i for i, w in enumerate(_ONES, 1)} | _TENS | {
    f"{t}-{o}": v + i for t, v in _TENS.items() for i, o in enumerate(_ONES[:9], 1)}
_ORDINALS = {w: i for i, w in enumerate(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split(), 1)}
_NUM = "|".join(sorted(map(re.escape, _NUMBERS), key=len, reverse=True))
DURATION = re.compile(
    rf"\b(?:(?P<word>{_NUM}|\d+)(?:\s*\(\d+\))?[\s-]+"
    r"(?P<unit>(?:calendar |business )?(?:day|week|month|quarter|year|season))s?"
    rf"|(?P<ord>{'|'.join(_ORDINALS)}|\d+(?:st|nd|rd|th))\s+anniversary)\b", re.I)
_TO_CANON = {"year": (12, "months"), "quarter": (3, "months"), "month": (1, "months"), "week": (7, "days"),
             "day": (1, "days"), "calendar day": (1, "days"), "business day": (1, "business days"),
             "season": (1, "seasons")}
# the agreement as an object ("materials ... furnished in connection with this Agreement ... shall remain the
# Buyer's property") states no term
_NOT_SUBJECT = "".join(rf"(?<!\b{w} )" for w in ("with", "under", "to", "of", "by", "in", "from", "for", "upon", "on"))
TERM_SUBJECT = re.compile(  # the agreement or its term, then the verb that states how long it runs
    rf"\b(?:{_NOT_SUBJECT}(?:[Tt]his|[Tt]he) Agreement|Term|[Ii]nitial [Tt]erm|[Ss]ubscription [Tt]erm"
    r"|[Tt]erm of (?:this|the) Agreement|[Ss]ponsorship|(?:[Tt]he|[Tt]his) (?:licen[cs]e|franchise) hereby granted"
    r"|(?:[Tt]hese|[Tt]he) Framework Terms)"
    r"\b[^.;]{0,60}?"
    r"\b(?:begin|commence|continue|remain|be|is|run|last|expire|terminate|end)s?\b")
# "extended for a period of one year" renews; "shall commence on ... and extend through [___]" states the term
NOT_TERM = re.compile(r"renew|successive|additional|extend(?!s?\s+(?:through|until)\b)|extension|notice|surviv"
                       r"|confidential|obligation|warrant"
                       r"|thereafter|prior to|before|within|records|retain|maintain|payment|invoice|\bmay\b|right to",
                       re.I)
_HOW_LONG = re.compile(r"\b(?:until|as long as|through|expir\w*|anniversary|commenc\w*|continu\w*|remain\w*"
                       r"|in (?:full )?(?:force|effect))\b", re.I)
# an event and what follows it: "Upon termination or expiration of this Agreement, ... all rights granted hereunder
# ... shall immediately terminate, and:" opens a franchise's post-termination duties (it had gone as a second term and
# left "A. You shall immediately cease to operate the Franchise" with no lead-in: seed 457)
_ON_EVENT = re.compile(r"\bif\b|\bin the event\b|\bupon (?:the )?(?:occurrence|breach|insolvency|bankruptcy)"
                       r"|\b(?:up)?on (?:the )?(?:any )?(?:termination|expiration|expiry)\b", re.I)


def states_term(sentence: str) -> bool:
    """Whether a sentence states how long the agreement runs ("This Agreement will remain in full force and effect
    for as long as Consultant is performing Services"), not a renewal, notice, survival or right to end it, nor an
    event that ends it ("terminates if ..."). Of a text of several sentences (a frame that grants, then states the
    term: "The Franchisor grants the Franchisee the right to operate ... The term of this Agreement is 10 years"),
    whether one of them does."""
    parts = sentences(sentence)
    return any(map(_states_term, parts)) if len(parts) > 1 else _states_term(sentence)


# a sentence opening a list of what ends it ("will end on the earlier of: (a) ...; (b) ... written notice ..."): its
# term is stated before the list, whose items may name notices and events
_LIST_OPENS = re.compile(r":\s*\(?(?:a|i|1)\)\s")


def _states_term(sentence: str) -> bool:
    """One sentence's states_term, read up to a list it opens: a master supply agreement's 'The "Term" of this
    Agreement will commence on the Effective Date and will end on the earlier of: (a) the first anniversary ...; (b) a
    termination date elected by a Party in a written notice ...' had stood beside the deal's "continues for 5 years"
    (two cold readers at seeds 401 and 433), its items' "notice" read as a notice clause's."""
    head = _LIST_OPENS.split(sentence, 1)[0]
    return (bool(TERM_SUBJECT.search(head)) and bool(_HOW_LONG.search(head) or DURATION.search(head))
            and not NOT_TERM.search(head) and not _ON_EVENT.search(head))


def parse_duration(text: str) -> "tuple[int, str] | None":
    """The first duration in text in a comparable form: ("three (3) years", "36 months", "third
    anniversary") -> (36, "months"); weeks and days -> days; None where text states none."""
    m = DURATION.search(text or "")
    return canonical_duration(m) if m else None


def canonical_duration(m: re.Match) -> "tuple[int, str] | None":
    """A DURATION match in a comparable form: years and quarters in months, weeks in days."""
    if m.group("ord"):
        word = m.group("ord").lower()
        return 12 * (_ORDINALS[word] if word in _ORDINALS else int(word[:-2])), "months"
    word = m.group("word").lower()
    qty = int(word) if word.isdigit() else _NUMBERS[word]
    factor, unit = _TO_CANON[m.group("unit").lower()]
    return qty * factor, unit
