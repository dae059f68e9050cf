"""A clause's deal facts <-> typed role markers.

Owns: finding a document's own facts (party names and their defined short names, dates,
amounts, percentages, durations, governing-law jurisdictions), replacing them in a clause body
by typed markers (`normalize`), and writing a deal's facts in the markers' place (`adapt`).
Knows nothing about files, tokenizers or models.

Markers are bracketed upper-case words (`[PARTY_A]`, `[DATE]`, ...): the byte-level BPE splits
them into a few stable pieces, they never occur in the corpus text itself, and a leftover one is
easy to spot. They live only in the library: the model always sees a precedent *after* `adapt`
has written the deal's facts in (in training the target document's facts, in drafting the
user's), so what it learns to copy is exactly what drafting shows it.

A marker whose fact the deal does not give becomes a neutral phrase (FALLBACK), never the
precedent's own value: a precedent's names, dates, amounts and laws cannot reach a draft.
"""

import re
from dataclasses import dataclass, field

from hybrid.data.offering import apply_offering
from hybrid.data.roles import PARTY_MARKER as _PARTY_MARKER
from hybrid.data.roles import apply_roles, company_as_marker, family_of

__all__ = [
    "MARKERS", "BLANK", "FALLBACK", "DealFacts", "Normalized", "party_names", "defined_names", "normalize", "adapt",
    "swapped", "flip_parties", "COMPANY_SUFFIX_RE"
]

MARKERS = ("[PARTY_A]", "[PARTY_B]", "[DATE]", "[AMOUNT]", "[PERCENT]", "[DURATION]", "[LAW]")
BLANK = "[___]"
"""A commercial term the deal does not state (a cure, notice or payment period, a price, a deadline) is left as a
drafting blank for the user to complete, the convention of a first draft: a phrase such as "the agreed period"
read as if an agreement elsewhere stated it ("remedied within the agreed period of receipt of such notice",
"successive the agreed period periods"), and the precedent's own value is another deal's fact."""
FALLBACK = {
    "[PARTY_A]": "the first Party",
    "[PARTY_B]": "the other Party",
    "[DATE]": "the Effective Date",
    "[AMOUNT]": BLANK,
    "[PERCENT]": BLANK,
    "[DURATION]": BLANK,
    "[LAW]": "the agreed jurisdiction",
}

_MONTH = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December"
    r"|Jan\.|Feb\.|Mar\.|Apr\.|Aug\.|Sept?\.|Oct\.|Nov\.|Dec\.)"
)
_DATE_RE = re.compile(
    rf"\b{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}\b"
    rf"|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:day\s+)?of\s+{_MONTH},?\s+\d{{4}}\b"
    rf"|\b\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH},?\s+\d{{4}}\b"
    rf"|\b\d{{1,2}}/\d{{1,2}}/\d{{2,4}}\b|\b\d{{4}}-\d{{2}}-\d{{2}}\b|\b{_MONTH}\s+\d{{4}}\b",
    re.I,
)
_NUMWORD = r"[A-Za-z]+(?:[ -][A-Za-z]+){0,5}"
_MONEY = (
    r"(?:US\s?\$|U\.S\.\s?\$|\$|€|£|USD\s?|EUR\s?|GBP\s?|CAD\s?)\s?\d[\d,]*(?:\.\d+)?"
    r"(?:\s?(?:million|billion|thousand)\b)?"
)
_AMOUNT_RE = re.compile(
    rf"\b{_NUMWORD}\s+(?:U\.S\.\s+)?(?:Dollars|dollars|Euros|euros|Pounds|pounds)\s*\(\s*{_MONEY}\s*\)"
    rf"|{_MONEY}|\b\d[\d,]*(?:\.\d+)?\s+(?:U\.S\.\s+)?(?:dollars|Dollars|euros|Euros)\b"
)
_PERCENT_RE = re.compile(
    rf"\b(?:{_NUMWORD}\s+)?(?:percent|per cent)\s*\(\s*\d+(?:\.\d+)?\s*%\s*\)|\b\d+(?:\.\d+)?\s*(?:%|percent\b|per "
    rf"cent\b)"
)
_UNIT = r"(?:calendar\s+|business\s+|working\s+)?(?:days?|weeks?|months?|years?)"
# "thirty (30) days", "twenty-four (24) months", "twenty four (24) months": a number spelled in two words separated by
# a space is a tens word and a units word, so no word before the number ("successive one (1) year", "no later than
# six (6) months") is taken in with it, but for its hundreds ("one hundred twenty (120) days", not "one hundred [___]")
_TENS = r"(?i:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)"
_HUNDREDS = r"(?i:[a-z]+\s+(?:hundred\s+(?:and\s+)?|(?=hundred\s*\()))?"
_DURATION_RE = re.compile(rf"\b{_HUNDREDS}(?:{_TENS}\s+[A-Za-z]+\s*\(\s*\d+\s*\)|[A-Za-z]+(?:-[a-z]+)?\s*\(\s*\d+\s*\)"
                          rf"|\d+)\s*{_UNIT}\b")
_STATES = (
    "Alabama Alaska Arizona Arkansas California Colorado Connecticut Delaware Florida Georgia Hawaii Idaho Illinois "
    "Indiana Iowa Kansas Kentucky Louisiana Maine Maryland Massachusetts Michigan Minnesota Mississippi Missouri "
    "Montana Nebraska Nevada Ohio Oklahoma Oregon Pennsylvania Tennessee Texas Utah Vermont Virginia Washington "
    "Wisconsin Wyoming"
).split() + [
    "New Hampshire", "New Jersey", "New Mexico", "New York", "North Carolina", "North Dakota", "Rhode Island",
    "South Carolina", "South Dakota", "West Virginia", "District of Columbia",
]
_COUNTRIES = [
    "England and Wales", "England", "Scotland", "Ireland", "United Kingdom", "Canada", "Ontario", "British Columbia",
    "Quebec", "Alberta", "Germany", "France", "Switzerland", "Israel", "Singapore", "Hong Kong", "China", "Japan",
    "India", "Australia", "Netherlands", "Sweden", "Italy", "Spain", "Luxembourg", "Bermuda", "Cayman Islands",
]
_PLACES = sorted(_STATES + _COUNTRIES, key=len, reverse=True)
_LAW_RE = re.compile(
    r"\b(?:the\s+)?(?:(?:State|Commonwealth|Province|Republic)\s+of\s+)?(?:"
    + "|".join(map(re.escape, _PLACES))
    + r")\b",
    re.I,
)
# defined terms that name the agreement or a concept, never a party
_NOT_PARTY = re.compile(
    r"agreement|effective|date|part(y|ies)|each|collectively|territory|products?|services?|term|purpose|exhibit|"
    r"schedule|confidential|venture|alliance|program|business|property|marks?|software|affiliates?|commencement|"
    r"contract|addendum|amendment|plan|license|documentation|content|project|deliverables?|information|site|system|"
    r"attachment|appendix|annex|page|\bact\b|stock|shares?|notice", re.I)
_DEFINED_RE = re.compile(
    r"\(\s*(?:[^()\"“”]{0,60}?\s)?(?:the\s+)?[\"“]([A-Z0-9][^\"”()]{1,40}?)[\"”]\s*(?:[^()]{0,40})?\)"
)
COMPANY_SUFFIX_RE = re.compile(
    r",?\s+(?:Inc|Incorporated|Corp|Corporation|Co|Company|LLC|L\.L\.C|Ltd|Limited|LLP|LP|L\.P|PLC|plc|GmbH|AG|"
    r"S\.A|SA|N\.V|B\.V|Pty|PTE|Holdings|Group)\.?\s*$",
    re.I,
)


@dataclass
class DealFacts:
    """The facts a precedent's markers are replaced by; None = not given (FALLBACK phrase)."""

    party_a: str | None = None  # how the clause names the first party (its defined role, else its name)
    party_b: str | None = None
    date: str | None = None
    amount: str | None = None
    percent: str | None = None
    duration: str | None = None
    law: str | None = None
    roles: tuple = ()  # ((a precedent's role word, the deal's), ...): hybrid.data.roles.deal_roles
    sides: tuple = ()  # (family of party A's role, of party B's): hybrid.data.roles.family_of; () = unknown
    offering: tuple = ()  # ((a precedent's word for the deal's subject, the deal's), ...): hybrid.data.offering

    def value(self, marker: str) -> str:
        key = {"[PARTY_A]": "party_a", "[PARTY_B]": "party_b", "[DATE]": "date", "[AMOUNT]": "amount",
               "[PERCENT]": "percent", "[DURATION]": "duration", "[LAW]": "law"}[marker]
        v = getattr(self, key)
        return v if v else FALLBACK[marker]

    def strings(self) -> list[str]:
        return [
            v for v in (self.party_a, self.party_b, self.date, self.amount, self.percent, self.duration, self.law) if v
        ]


@dataclass
class Normalized:
    text: str  # the body with its facts replaced by markers
    facts: list[str] = field(default_factory=list)  # the original strings replaced (for leak checks)
    sides: tuple = ()  # (family of [PARTY_A]'s defined role, of [PARTY_B]'s): hybrid.data.roles.family_of


def defined_names(preamble: str) -> list[str]:
    """Party short names defined in a preamble, in order: 'Acme Inc. ("Acme")', '(the "Distributor")'."""
    out = []
    for m in _DEFINED_RE.finditer(preamble):
        name = m.group(1).strip(" .,")
        if name and not _NOT_PARTY.search(name) and name not in out:
            out.append(name)
    return out


def _short_form(name: str) -> str:
    prev = None
    while prev != name:
        prev, name = name, COMPANY_SUFFIX_RE.sub("", name).strip(" ,.")
    return name


# characters after a party's name in which its defined short name stands (an address may come between)
ALIAS_REACH = 300


def party_names(fields: dict, preamble: str) -> tuple[list[str], list[str]]:
    """(names of party A, names of party B): full names from the fields, their short forms, and the
    preamble's defined names. A defined name is a party's alias when the nearest party name before it
    (full or short form, any occurrence) is that party's, at most ALIAS_REACH characters back, with
    no other defined name between ('International Business Machines Corporation ("IBM")'); a defined
    name further on names something else ('an attachment listed herein ("Attachment")', '("Common
    Stock")'). Without full names the first two defined names are A and B."""
    full = [fields.get("party_a") or "", fields.get("party_b") or ""]
    names: list[list[str]] = [[], []]
    for i, n in enumerate(full):
        if n:
            names[i] += [n, _short_form(n)]
    defined = list(_DEFINED_RE.finditer(preamble))
    found = [(m.start(), m.group(1).strip(" .,")) for m in defined]
    aliases = [(p, a) for p, a in found if a and not _NOT_PARTY.search(a)]
    low = preamble.lower()
    inside = lambda a: any(m.start() <= a < m.end() for m in defined)  # noqa: E731  a name quoted as a defined name
    ends = sorted((m.end(), i) for i in (0, 1) for n in {x for x in names[i] if len(x) >= 3}
                  # (end of a party's name, party)
                  for m in re.finditer(re.escape(n.lower()), low) if not inside(m.start()))
    if not ends:
        picked = [(k, a) for k, (_, a) in enumerate(aliases[:2])]
    else:
        picked = []
        starts = [p for p, _ in found]
        for p, alias in aliases:
            before = [(e, i) for e, i in ends if e <= p]
            if not before:
                continue
            e, i = before[-1]
            if p - e <= ALIAS_REACH and not any(e <= q < p for q in starts):
                picked.append((i, alias))
    for i, alias in picked:
        if alias not in names[i] and alias not in names[1 - i]:
            names[i].append(alias)
    return ([n for n in names[0] if len(n) >= 3], [n for n in names[1] if len(n) >= 3])


def _name_pattern(names: list[str]) -> re.Pattern | None:
    """A party's names in any case ("ACME ROBOTICS"), except a one-word defined name, which is a party only
    as written or in capitals: "Supplier" is the party, "a supplier of parts" is none."""
    names = sorted(set(names), key=len, reverse=True)
    if not names:
        return None
    alts = "|".join(
        f"(?:{re.escape(n)}|{re.escape(n.upper())})" if re.fullmatch(r"[A-Z][a-z]+", n) else f"(?i:{re.escape(n)})"
        for n in names
    )
    return re.compile(rf"(?:\b[Tt]he\s+)?(?<![\w-])(?:{alts})(?![\w-])")


# a standard form's cover-page terms for the law and the courts ("The Governing Law governs this NDA ... in the
# Courts"): the deal's law stands in, as [LAW] does for a contract that names its own
# "identified in the SOW" after them goes: the deal's law is stated here (seed-331 contractor reader: "The law of
# the State of Washington identified in the SOW", "the exclusive jurisdiction of such Chosen Courts")
_WHERE_STATED = (r"(?:\s+(?:identified|specified|stated|set forth) (?:in|on) the "
                 r"(?:SOW|Cover Page|Order Form|Key Terms))?")
_COVER_LAW = re.compile(rf"(?<!\bset )\b([Tt])he Governing Law\b(?!\s+(?:and|section|clause|provision|of)\b)"
                        rf"{_WHERE_STATED}")
_COVER_COURTS = re.compile(rf"\b([Tt]he|[Ss]uch) (?:Chosen )?Courts\b(?!\s+of\b){_WHERE_STATED}")
_PARTY_LETTER = re.compile(r"\b(?:Party|PARTY) ([AB])\b")  # a contract that names its parties "Party A" and "Party B"
_COVER_TERMS = (  # the rest of a standard form's cover page, in words the deal's own agreement uses
    (re.compile(r"\s*\((?:which )?includ(?:es|ing) the Cover Page\)"), ""),  # "This NDA (which includes the Cover
    # Page) is the parties' entire agreement": not "This Agreement (which includes this Agreement)"
    # "the meanings given herein or on the Cover Page", "on the Cover Page or below": the agreement holds both
    (re.compile(r"\b(?:herein or (?:on|in) the Cover Page|(?:on|in) the Cover Page or below)\b"), "in this Agreement"),
    (re.compile(r"\b(?:on|in) the Cover Page\b"), "in this Agreement"),
    # what the Key Terms may do: "set the Governing Law" (not "set the law of the State of Illinois", seed 331)
    (re.compile(r"\bset the Governing Law\b"), "set the governing law"),
    (re.compile(r"\bthe Cover Page\b"), "this Agreement"),
    (re.compile(r"\bthe (?:Term of NDA|MNDA Term|NDA Term)\b"), "the term of this Agreement"),
    (re.compile(r"\bthe Confidentiality Period\b"), "the confidentiality period this Agreement states"),
)


def normalize(text: str, fields: dict, preamble: str = "", own_terms: bool = False) -> Normalized:
    """Replace the document's own facts in `text` by typed markers; returns the text and the facts replaced. own_terms:
    a standard form's periods, rates and amounts are its own positions ("within 30 days", "99.9%"), a place it names a
    law it cites ("the United Kingdom" of the UK GDPR): they stay (as markers they were blanks in its drafts)."""
    facts: list[str] = []

    def sub(pattern, marker, s):
        def repl(m):
            facts.append(m.group(0))
            return marker
        return pattern.sub(repl, s) if pattern is not None else s

    text = _PARTY_LETTER.sub(lambda m: f"[PARTY_{m.group(1).upper()}]", text)  # "Party A shall ..."
    a, b = party_names(fields, preamble)
    b = [n for n in b if n.lower() not in {x.lower() for x in a}]
    out = _placeholders(text, facts)
    out = _COVER_LAW.sub(lambda m: f"{m.group(1)}he law of [LAW]", out)
    out = _COVER_COURTS.sub(lambda m: ("The" if m.group(1)[0].isupper() else "the") + " courts of [LAW]", out)
    for pattern, words in _COVER_TERMS:
        out = pattern.sub(words, out)
    out = sub(_name_pattern(a), "[PARTY_A]", out)
    out = sub(_name_pattern(b), "[PARTY_B]", out)
    out = _MARKER_IN_NAME.sub(r"\1", out)  # "Igene Biotechnology, Inc." whose short name "Igene" was replaced
    for pattern, marker in () if own_terms else _TERM_MARKERS:
        out = sub(pattern, marker, out)
    law = fields.get("governing_law")
    if law:
        out = sub(
            re.compile(rf"\b(?:the\s+)?(?:(?:State|Commonwealth|Province)\s+of\s+)?{re.escape(law)}\b", re.I),
            "[LAW]",
            out,
        )
    out = out if own_terms else sub(_LAW_RE, "[LAW]", out)
    sides = tuple(next((f for f in map(family_of, names) if f), None) for names in (a, b))
    return Normalized(out, list(dict.fromkeys(f.strip() for f in facts)), sides if any(sides) else ())


# a party's marker standing for the short name that opens its full name: the rest of the name goes with it (seed
# 331: "Archer Daniels Midland Corporation v. Igene Biotechnology, Inc." read "v. SolarReach Energy Ltd.
# Biotechnology, Inc.")
_MARKER_IN_NAME = re.compile(r"(\[PARTY_[AB]\])(?:\s+[A-Z][\w&-]*){1,3},?\s+(?:Inc|Incorporated|Corp|Corporation|LLC"
                             r"|L\.L\.C|Ltd|Limited|LLP|PLC|plc|GmbH|AG|S\.A|N\.V|B\.V)\b\.?")
_TERM_MARKERS = ((_AMOUNT_RE, "[AMOUNT]"), (_PERCENT_RE, "[PERCENT]"), (_DATE_RE, "[DATE]"),
                 (_DURATION_RE, "[DURATION]"))
_MARKER_RE = re.compile("|".join(re.escape(m) for m in MARKERS))
_ARTICLED = re.compile(r"(?:\b([Aa]n?)[ \t]+)?(" + _MARKER_RE.pattern + ")")  # a marker and the article before it
_PLACEHOLDER_RE = re.compile(r"\{([a-z][a-z0-9_]{0,60})\}")
_PLACEHOLDER_MARKERS = [
    ("law|jurisdiction|venue|court", "[LAW]"),
    ("percent", "[PERCENT]"),
    ("fee|price|amount|cap|payment", "[AMOUNT]"),
    ("date|start", "[DATE]"),
    ("term|period|duration|days|months|years", "[DURATION]"),
]


def _placeholders(text: str, facts: list[str]) -> str:
    """A standard agreement's own template placeholders ("{governing_law}") -> the marker of their fact."""
    def repl(m):
        for pattern, marker in _PLACEHOLDER_MARKERS:
            if re.search(pattern, m.group(1)):
                facts.append(m.group(0))
                return marker
        return m.group(0)
    return _PLACEHOLDER_RE.sub(repl, text)


def swapped(sides: tuple, deal: DealFacts) -> bool:
    """Whether a precedent's parties stand the other way round from the deal's: its [PARTY_A] plays the
    role the deal's party B does ("Distributor" of a distributor agreement edited into a supply agreement
    whose party A is the Supplier), by the families of their roles (hybrid.data.roles)."""
    if not sides or not deal.sides:
        return False
    (pa, pb), (da, db) = sides, deal.sides
    if pa and pa == da or pb and pb == db:
        return False
    return bool(pa and pa == db or pb and pb == da)


_PARTY_SWAP = {"[PARTY_A]": "[PARTY_B]", "[PARTY_B]": "[PARTY_A]"}


def flip_parties(body: str) -> str:
    """A normalized body with its two parties' markers exchanged."""
    return _PARTY_MARKER.sub(lambda m: _PARTY_SWAP[m.group(0)], body)
# a [DATE] the deal's effective date stands in for: the date an agreement is made, dated or starts on
# where a place a precedent names is its law or its forum, which the deal's governing law takes: "governed by the
# laws of", "the courts of", "venue", "arbitration in". Elsewhere a place is the source deal's own (an address, a
# territory, a place of business): "Supplier of the State of Minnesota" and "'Territory' shall be defined as the
# People's the State of Ohio" had read the governing law into another deal's places (readers at seeds 283 and 313).
_LAW_CONTEXT = re.compile(r"\b(?:laws?|legal|statutes?|courts?|tribunals?|jurisdictions?|venue|forum|governed|"
                          r"governing|construed|interpreted|enforced|arbitrat\w*|judicial)\b[^.;:!?\n]*$", re.I)
LAW_WINDOW = 120  # characters before a place in which its law or forum is named
OTHER_PLACE = BLANK
_PEOPLES = re.compile(r"\b(?:[Tt]he\s+)?People'?s\s+\[LAW\]")
_START_DATE = re.compile(
    r"(?:\b(?:as of|dated|effective(?: as of| on)?|made(?: on)?|entered into(?: on)?|commenc\w* (?:on|as of)|"
    r"(?:begin|start)\w* (?:on|as of)|Effective Date[^.]{0,20}?(?:is|of|means))\s*(?:the\s+)?)$",
    re.I,
)
OTHER_DATE = BLANK


def adapt(text: str, deal: DealFacts, sides: tuple = ()) -> str:
    """A normalized precedent with its role words and its words for the deal's subject the deal's
    (hybrid.data.roles.apply_roles, hybrid.data.offering.apply_offering: before the
    markers, so a fact written in is never rewritten), its party markers swapped where its parties' roles
    stand the other way round (sides: Normalized.sides; `swapped`), and every marker replaced by the
    deal's fact (or its FALLBACK phrase)."""
    swap = swapped(sides, deal)

    def fact(m: re.Match) -> str:
        marker = _PARTY_SWAP.get(m.group(2), m.group(2)) if swap else m.group(2)
        if marker == "[DATE]" and not _START_DATE.search(m.string, 0, m.start(2)):
            return OTHER_DATE  # an expiry or a deadline of the source's deal is not the deal's effective date
        if marker == "[LAW]" and not _LAW_CONTEXT.search(m.string, max(0, m.start(2) - LAW_WINDOW), m.start(2)):
            return OTHER_PLACE  # a place of the source's deal (an address, a territory) is not the governing law
        got = deal.value(marker)
        party = marker in _PARTY_SWAP  # a party's name or role; other facts stand as the deal writes them
        if party and _in_capitals(m.string, m.start(2), m.end(2)):
            return got.upper()
        if got[:1].islower() and _SENTENCE_OPEN.search(m.string, 0, m.start(2)):  # "The agreed percentage ..."
            return got[:1].upper() + got[1:]
        return got

    def value(m: re.Match) -> str:  # an article before the fact agrees with it: "an AIRSOPURE Center" -> "a Franchisor"
        got, art, before = fact(m), m.group(1), m.group(0)[: m.start(2) - m.start()]
        agreed = art and got[:1].isalpha() and art[0] + ("n" if got[0].lower() in "aeiou" else "")
        return (agreed + before[len(art):] if agreed else before) + got

    # a blank for a period leaves no plural ending of the word it replaced: "until [___](s)" -> "until [___]"
    shown = lambda m: _PARTY_SWAP[m] if swap else m  # noqa: E731  the deal's party a marker is written as
    named = lambda m: family_of(deal.party_a if shown(m) == "[PARTY_A]" else deal.party_b) is None  # noqa: E731
    text = apply_offering(apply_roles(company_as_marker(text, named), deal.roles), deal.offering)
    text = _PEOPLES.sub("[LAW]", text)  # "the People's Republic of China": the marker took only "Republic of China"
    text = _MARKER_SUFFIX.sub(r"\1", text)  # '"GAINSCO Inc. and all related entities"': the suffix is the name's
    # a possessive of capitals after a name written as the deal writes it: "CELEBRITY'S use" -> "Rights Holder's use"
    return _CAPS_POSSESSIVE.sub("'s", _ARTICLED.sub(value, text).replace(f"{BLANK}(s)", BLANK))


_CAPS_POSSESSIVE = re.compile(r"(?<=[a-z])'S\b")
_MARKER_SUFFIX = re.compile(r"(\[PARTY_[AB]\]),?[ \t]+(?:Inc|LLC|L\.L\.C|Ltd|Limited|Corp|Corporation|Co|PLC|GmbH|AG|"
                            r"S\.A|N\.V|L\.P|LP)(?:\.(?=\s+[a-z\"”])|(?=\.)|(?![.\w]))")
_CAPS_WORD = re.compile(r"[A-Za-z]{2,}")
_SENTENCE_OPEN = re.compile(r"(?:^|[.!?]\s+|\n\s*)$")  # where a marker opens a sentence


def _in_capitals(text: str, start: int, end: int, k: int = 2) -> bool:
    """Whether text[start:end] stands in a run of capitals ("DISCLAIM ... [PARTY_A] AND ITS SUPPLIERS"): the k
    words before and the k after it (markers aside) all in capitals, at least k of them. A fact written there in
    capitals reads as the clause does ("SUPPLIER AND ALL SUPPLIER'S SUPPLIERS", not "Supplier AND ALL ..."); adapt
    writes only the parties so (the deal's other facts are checked as the deal writes them)."""
    before = _CAPS_WORD.findall(_MARKER_RE.sub(" ", text[max(0, start - 80) : start]))[-k:]
    after = _CAPS_WORD.findall(_MARKER_RE.sub(" ", text[end : end + 80]))[:k]
    near = before + after
    return len(near) >= k and all(w.isupper() for w in near)
