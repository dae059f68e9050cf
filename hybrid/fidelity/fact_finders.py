"""Finding the fact-like strings of contract text (kinds in KINDS order): party names of corpus contracts,
statutes, places, a source contract's own names, amounts, durations, exhibits, section references,
years, numbers in digits and proper nouns. What each kind is, and when one is foreign to a deal, is
hybrid.fidelity.foreign_facts's definition; this module finds them (`find_facts`) and holds the
parsers the comparison with the deal's text uses (`deal_days`: a deal's durations in days).
Pure functions of strings.
"""

import re
from dataclasses import dataclass
from functools import lru_cache

from hybrid.fidelity.fact_vocab import _CONNECTORS, _NUMBER_WORDS, _ROMAN, _UNITS, _WORD_RE, PLACES, source_words

__all__ = ["Fact", "KINDS", "find_facts", "deal_days"]

KINDS = ("party", "statute", "place", "source", "amount", "duration", "exhibit", "reference", "year", "number", "name")

_PLACE_RE = re.compile(r"\b(" + "|".join(re.escape(p) for p in sorted(PLACES, key=len, reverse=True)) + r")\b")
_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_AMOUNT_RE = re.compile(
    rf"(?:US\$|\$|USD|EUR|GBP|CAD|€|£)\s?({_NUM})(?:\s?(?:million|billion|thousand))?"
    rf"|\b({_NUM})\s?(?:%|percent\b|per cent\b|dollars\b|Dollars\b|euros\b)"
)
_DURATION_RE = re.compile(
    r"\b(?:(\d{1,4})|(" + "|".join(sorted((re.escape(w) for w in _NUMBER_WORDS), key=len, reverse=True)) + r"))"
    r"(?:\s*\((\d{1,4})\))?[\s-]+(?:calendar\s+|business\s+|consecutive\s+|full\s+)?(day|week|month|quarter|year)s?\b",
    re.I,
)
_INNER_CAP = re.compile(r"^[A-Za-z][a-z]+[A-Z]")  # "GitHub", "eBay": a name even at a sentence start
# where a capitalized word opens a sentence or a list item ("(d) ", "d) ": "d) Counterparts. This Agreement ...")
_INITIAL_BEFORE = re.compile(r"(?:^|[.!?:;]\s*|\n\s*|\(\w{1,4}\)\s*|(?:^|\s)\w{1,3}\)\s*|[\"'(]\s*)$")

# statutes: a run of capitalized (or all-caps) words before one of these, on one line
_STATUTE_KEY = re.compile(
    r"\b(?:Act|ACT|Code|CODE|Regulations|REGULATIONS|Rules|RULES|Directive|DIRECTIVE|Treaty|TREATY|Convention|CONVENTION)\b"
)
_STATUTE_RUN = re.compile(r"(?<![\w'’&.-])(?:(?:[A-Z][A-Za-z.'’&-]*|of|and|for|on|in|with|the|&)[ \t]+){1,8}$")
_STATUTE_PREFIX = re.compile(
    r"(?:\b(?:Sections?|SECTIONS?|Title|TITLE|Rule)[ \t]+|§§?[ \t]*)[0-9][0-9A-Za-z.()-]*"
    r"(?:[ \t]*(?:,|and|or|through)[ \t]*[0-9][0-9A-Za-z.()-]*)*[ \t]+(?:of|OF)[ \t]+(?:the[ \t]+|THE[ \t]+)?$"
)
_STATUTE_SUFFIX = re.compile(r"(?:[ \t]+(?:of|OF)[ \t]+(?:19|20)[0-9]{2}|[ \t]*\((?:19|20)[0-9]{2}\))(?![0-9])")
# words a run may open with that name no statute ("under the", "ANY"), and what an act may be without being a law
_STATUTE_OPENERS = frozenset(
    "the this that these those such any each all no under pursuant applicable relevant said an a its their our "
    "your in of and or by to if as with per other similar same every either neither including include includes "
    "without limitation not nor is are be for from on at upon than which hereby herein except provided "
    "notwithstanding where when whether unless also only and/or".split()
)
_ACT_ADJECTIVES = frozenset(
    "negligent willful wilful intentional criminal fraudulent unlawful illegal wrongful tortious deliberate overt "
    "hostile terrorist military official legislative governmental government corrupt improper prohibited malicious "
    "reckless dishonest unauthorized authorized affirmative final single good bad legal default".split()
)
# Code, Rules, Regulations and Convention also name software and events ("Source Code", "Annual Convention"):
# they count only after one of these words
_STATUTE_WORDS = frozenset(
    "revenue commercial bankruptcy civil penal tax labor labour corporations insurance procedure criminal business "
    "professions commerce vehicle health safety states administrative building evidence probate family finance "
    "financial securities unemployment customs environmental welfare arbitration administration export traffic "
    "federal treasury mediation uncitral icc aaa jams conciliation nations vienna hague berne geneva sale goods".split()
)
_RESTRICTED_KEYS = frozenset("code rules regulations convention".split())
_STATUTE_ACRONYMS = re.compile(
    r"(?<![\w-])(?:HIPAA|HITECH|GDPR|CCPA|CPRA|FCPA|ERISA|COBRA|OSHA|DMCA|FERPA|GLBA|COPPA|TCPA|UCC|"
    r"UCITA|CISG|ITAR|EAR|DTSA|FLSA|FMLA|PIPEDA|CERCLA|RCRA|TSCA|FIFRA)(?![\w-])"
)
# what follows a cited section's first digit: "1051", "365(n)", "12.212"
_CITED = r"(?:[0-9A-Za-z]|[.-](?=[0-9A-Za-z])|\([0-9A-Za-z]{1,4}\))*"
_USC = re.compile(
    rf"\b[0-9]+[ \t]+(?:U\.[ \t]?S\.[ \t]?C\.(?:[ \t]?A\.)?|C\.[ \t]?F\.[ \t]?R\.)[ \t]*"
    rf"(?:(?:§§?|Part|Sections?)[ \t]*)?"
    rf"(?:[0-9]{_CITED})?"
)
_SEC_RULE = re.compile(r"\bRule[ \t]+[0-9]+[0-9A-Za-z-]*(?:\([a-z0-9]{1,4}\))*")  # "Rule 144", "Rule 10b-5"
_EXHIBIT_WORD = (
    r"(?:Exhibits?|EXHIBITS?|Schedules?|SCHEDULES?|Annex(?:es)?|ANNEX(?:ES)?|Appendix|Appendices|APPENDIX|APPENDICES"
    r"|Attachments?|ATTACHMENTS?)"
)
_DESIGNATOR = r"(?:[A-Z](?:-?[0-9]+(?:\.[0-9]+)*)?|[0-9]+(?:\.[0-9]+)*(?:\([a-z0-9]+\))*|[IVX]+)(?![\w-])"
# a list of designators: "A and B", "4 through 20", "1, 2"
_LIST = r"(?:(?:,?[ \t]+(?:and|or|through|to|AND|OR|THROUGH)[ \t]+|,[ \t]+|[ \t]*[-–][ \t]*){d})*"
_EXHIBIT_RE = re.compile(rf"\b{_EXHIBIT_WORD}[ \t]+{_DESIGNATOR}{_LIST.format(d=_DESIGNATOR)}")
_REF_WORD = (
    r"(?:[Ss]ections?|SECTIONS?|[Aa]rticles?|ARTICLES?|[Cc]lauses?|[Pp]aragraphs?|[Ss]ubsections?|[Ss]ubparagraphs?"
    r"|[Pp]arts?|Items?|Chapters?)"
)
_REF_NUM = (
    r"(?:[0-9]+(?:\.[0-9]+)*(?:\([A-Za-z0-9]{1,4}\))*|[IVXLC]+(?:\.[0-9]+)*(?![\w])|(?:\([a-z0-9]{1,4}\))+"
    r"|[A-Z](?![\w]))"
)
# "8.5 [EFFECTS OF TERMINATION]", "8 (last sentence only)"
_REF_ITEM = _REF_NUM + r"(?:[ \t]+[\[(][^\])\n]{1,40}[\])])?"
_REFERENCE_RE = re.compile(rf"\b{_REF_WORD}[ \t]+{_REF_ITEM}{_LIST.format(d=_REF_ITEM)}|§§?[ \t]*[0-9]{_CITED}")
_MONTHS = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December"
    r"|Jan\.|Feb\.|Mar\.|Apr\.|Jun\.|Jul\.|Aug\.|Sept?\.|Oct\.|Nov\.|Dec\.)"
)
_YEAR = r"(?:19|20)[0-9]{2}"
# a year, with the date it closes: "January 15, 2010", "15th day of January, 2010", "1/15/2010", "2010-01-15"
_YEAR_RE = re.compile(
    rf"(?:{_MONTHS}[ \t]+[0-9]{{1,2}}(?:st|nd|rd|th)?,?[ \t]+"
    rf"|[0-9]{{1,2}}(?:st|nd|rd|th)?[ \t]+(?:day[ \t]+of[ \t]+)?{_MONTHS},?[ \t]+"
    rf"|{_MONTHS},?[ \t]+|[0-9]{{1,2}}[/.-][0-9]{{1,2}}[/.-])?"
    rf"(?<![\w$€£])(?<![0-9]\.)({_YEAR})(?:-[0-9]{{2}}-[0-9]{{2}})?(?![\w]|[.,][0-9])"
)
_NUMBER_WORD_BEFORE = re.compile(
    r"(?:\b|-)(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|[a-z]+teen|twenty|thirty|forty"
    r"|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million)[ \t]*\($",
    re.I,
)
_MONTH_BEFORE = re.compile(rf"{_MONTHS}[ \t]+$")
_DIGITS_RE = re.compile(r"[0-9](?:[0-9,.:-]*[0-9])?")
_CASE_NUMBER = re.compile(r"\b(?:[Cc]ase|[Dd]ocket|[Cc]ivil [Aa]ction|[Ii]ndex|[Ff]ile)[ \t]+(?:[Nn]o\.|[Nn]umber|#)"
                          r"[ \t]*([A-Za-z0-9][\w:./-]*\d[\w-]*)")
# a county, parish, court division or city named in capitals ("COURTS OF DALLAS COUNTY", "NORTHERN DISTRICT OF TEXAS,
# DALLAS DIVISION", "IN DALLAS, TEXAS"): the run of capitalized names misses it, an all-capitals word being emphasis
_CAPS_PLACE = re.compile(r"(?<![\w-])((?!(?:THE|ANY|SUCH|SAID|EACH|SAME|OF|AND|OR|IN|FOR|THAT|WHICH)\b)[A-Z]{3,}"
                         r"(?:[ \t]+[A-Z]{3,})?)[ \t]+(?:COUNTY|PARISH|DIVISION)\b"
                         r"|\b(?:COUNTY|PARISH)[ \t]+OF[ \t]+([A-Z]{3,}(?:[ \t]+[A-Z]{3,})?)\b"
                         r"|(?<![\w-])([A-Z]{3,}(?:[ \t]+[A-Z]{3,})?),[ \t]+(?=the State of\b|STATE OF\b|"
                         + "|".join(re.escape(q) for p in PLACES for q in (p, p.upper())) + r")")
_ITEM_BEFORE = re.compile(r"(?:^|\n)[ \t]*$|[.;:!?][\"')\]”’]*[ \t]+$")


@dataclass(frozen=True)
class Fact:
    kind: str  # one of KINDS
    text: str  # as written in the draft
    start: int  # character offset in the text checked
    end: int

    def to_dict(self) -> dict:
        return {"kind": self.kind, "text": self.text}


def _number(s: str) -> float:
    return float(s.replace(",", ""))


def _durations(text: str) -> list[tuple[float, int, int]]:
    """(days, start, end) of every duration in text."""
    out = []
    for m in _DURATION_RE.finditer(text):
        value = int(m.group(3) or m.group(1)) if (m.group(3) or m.group(1)) else _NUMBER_WORDS[m.group(2).lower()]
        out.append((value * _UNITS[m.group(4).lower()], m.start(), m.end()))
    return out


def deal_days(allowed: str) -> set[float]:
    """The lengths in days of the durations `allowed` states, a year also as 12 months of 30 days:
    a duration of a draft is the deal's when its days are one of these."""
    days = {d for d, _, _ in _durations(allowed)}
    return days | {d * 12 * 30 / 365 for d in days if d % 365 == 0}


def _amounts(text: str) -> list[tuple[float, int, int]]:
    return [(_number(m.group(1) or m.group(2)), m.start(), m.end()) for m in _AMOUNT_RE.finditer(text)]


def _numbers(text: str) -> set[float]:
    return {_number(m.group(0)) for m in re.finditer(_NUM, text)}


_CONDUCT = re.compile(r"[ \t]+of[ \t]+(?:Business[ \t]+)?(?:Conduct|Ethics|Practice)", re.I)  # "Code of Conduct"


def _statutes(text: str) -> list[tuple[int, int, str]]:
    """(start, end, name) of each statute of text; name: lower case, without "the" or a section cited in it."""
    out = []
    for m in _STATUTE_KEY.finditer(text):
        key = m.group(0).lower()
        if key == "code" and _CONDUCT.match(text[m.end() :]):
            continue
        w0 = max(0, m.start() - 120)
        run = _STATUTE_RUN.search(text, w0, m.start())
        words = [(run.start() + w.start(), w.group(0)) for w in re.finditer(r"\S+", run.group(0))] if run else []
        cut = [i for i, (_, w) in enumerate(words) if w.lower() == "the"]  # "this Agreement and the Lanham Act"
        words = words[cut[-1] + 1 :] if cut else words
        while words and words[0][1].lower() in _STATUTE_OPENERS:
            words.pop(0)
        low = [w.lower().strip(".") for _, w in words]
        if not words or all(w in _STATUTE_OPENERS for w in low):
            continue
        if key == "act" and low[-1] in _ACT_ADJECTIVES:
            continue
        if key in _RESTRICTED_KEYS and not _STATUTE_WORDS & set(low):
            continue
        start = words[0][0]
        end = m.end()
        if suffix := _STATUTE_SUFFIX.match(text, end):
            end = suffix.end()
        if prefix := _STATUTE_PREFIX.search(text, max(0, start - 80), start):
            start = prefix.start()
        out.append((start, end, " ".join(low + [key])))
    for rx in (_STATUTE_ACRONYMS, _USC, _SEC_RULE):
        out += [(m.start(), m.end(), m.group(0).lower()) for m in rx.finditer(text)]
    return sorted(out)


def _statute_name(text: str) -> str:
    """The name (lower case) a statute found in text is compared to the deal's text by."""
    found = _statutes(text)
    return found[0][2] if found else _squash(text)


def _cap_runs(text: str):
    """(start, end, words) of each run of capitalized words (connectors inside), initial word dropped."""
    words = [(m.start(), m.end(), m.group(0)) for m in _WORD_RE.finditer(text)]
    i = 0
    while i < len(words):
        s, e, w = words[i]
        if not w[0].isupper():
            i += 1
            continue
        run = [words[i]]
        j = i + 1
        while j < len(words):
            gap = text[run[-1][1] : words[j][0]]
            if gap.strip() not in ("", "&") or "\n" in gap:
                break
            if words[j][2][0].isupper():
                run.append(words[j])
                j += 1
            elif words[j][2].lower() in _CONNECTORS and j + 1 < len(words) and words[j + 1][2][0].isupper() \
                    and not text[words[j][1] : words[j + 1][0]].strip():
                run += [words[j], words[j + 1]]
                j += 2
            else:
                break
        i = j
        if _INITIAL_BEFORE.search(text[max(0, run[0][0] - 8) : run[0][0]]) and not _INNER_CAP.search(run[0][2]):
            run = run[1:]
            while run and run[0][2].lower() in _CONNECTORS:
                run = run[1:]
        if run:
            yield run[0][0], run[-1][1], [w for _, _, w in run]


def _is_name_word(w: str) -> bool:
    if len(w) == 1 or _ROMAN.match(w) or w.lower() in _CONNECTORS:
        return False
    return not (w.isupper() and len(w) >= 2)  # ALL-CAPS: emphasis or an acronym heading


def _glued(text: str, s: int, e: int) -> bool:
    """Is text[s:e] (digits) part of a word or a code: "EAR99", "Section.1", "EX-10.1", "15th", "10-K", "24/7"?"""
    before, after = text[max(0, s - 2) : s], text[e : e + 2]
    if (
        before[-1:].isalnum()
        or before[-1:] in ("_", "$", "€", "£")
        or (before[-1:] in (".", ",", "-", ":", "/") and before[:1].isalnum())
        or before in ("$.", "€.", "£.")
    ):
        return True
    # "11.F", "3.01.B"
    return after[:1].isalpha() or after[:1] == "_" or (after[:1] in ("-", "/", ".") and after[1:2].isalnum())


def _bare_numbers(text: str):
    """(start, end) of each number in digits of text that is no list marker, no "(2)" and no part of a code."""
    for m in _DIGITS_RE.finditer(text):
        s, e = m.span()
        if _glued(text, s, e):
            continue
        # "(1)": a marker; "twenty-four (24)": words restated
        if (
            text[s - 1 : s] == "("
            and text[e : e + 1] == ")"
            and (e - s <= 2 or _NUMBER_WORD_BEFORE.search(text, max(0, s - 40), s))
        ):
            continue
        if _MONTH_BEFORE.search(text, max(0, s - 12), s):  # "December 31": a day of the year, no quantity
            continue
        if _ITEM_BEFORE.search(text, max(0, s - 6), s) and re.match(r"[.)](?:\s|$)", text[e : e + 2]):  # "1. The"
            continue
        if re.fullmatch(r"[0-9]+(?:\.[0-9]+){2,}", m.group(0)) or (  # "13.2.3.2", and "8.1 Term": a section's number
                re.fullmatch(r"[0-9]+\.[0-9]+", m.group(0)) and re.match(r"\s+[A-Z\"(]", text[e : e + 3])):
            continue
        yield s, e


def _number_values(text: str) -> list[float]:
    return [_number(x) for x in re.findall(r"[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?|[0-9]+(?:\.[0-9]+)?", text)]


def _squash(text: str) -> str:
    return " ".join(text.lower().split())


@lru_cache(maxsize=8)
def _party_regex(parties: tuple[str, ...]) -> re.Pattern:
    alts = "|".join(re.escape(p) for p in sorted(parties, key=len, reverse=True))
    return re.compile(rf"(?<![\w&])(?:{alts})(?![\w&])", re.I)


def find_facts(text: str, parties: tuple[str, ...] = (), extra_names=()) -> list[Fact]:
    """Every fact-like string of text (kinds in KINDS order; later kinds skip spans already taken).
    extra_names: a source contract's own names (source_words picks the forms matched, in any case)."""
    found: list[Fact] = []
    taken: list[tuple[int, int]] = []

    def add(kind, s, e):
        if any(s < b and a < e for a, b in taken):
            return
        taken.append((s, e))
        found.append(Fact(kind, text[s:e], s, e))

    if parties:
        for m in _party_regex(parties).finditer(text):
            add("party", m.start(), m.end())
    for s, e, _ in _statutes(text):
        add("statute", s, e)
    for m in _PLACE_RE.finditer(text):
        add("place", m.start(), m.end())
    if forms := source_words(extra_names) if extra_names else ():
        for m in _party_regex(forms).finditer(text):
            add("source", m.start(), m.end())
    for _, s, e in _amounts(text):
        add("amount", s, e)
    for _, s, e in _durations(text):
        add("duration", s, e)
    for rx, kind in ((_EXHIBIT_RE, "exhibit"), (_REFERENCE_RE, "reference")):
        for m in rx.finditer(text):
            add(kind, m.start(), m.end())
    for m in _YEAR_RE.finditer(text):
        add("year", m.start(), m.end())
    for m in _CASE_NUMBER.finditer(text):  # "case no. S97-2358": a court's number for another deal's lawsuit
        add("number", m.start(1), m.end(1))
    for s, e in _bare_numbers(text):
        add("number", s, e)
    for m in _CAPS_PLACE.finditer(text):
        # "DALLAS COUNTY" whole: COUNTY alone reads as an acronym
        add("name", *(m.span() if m.group(1) else m.span(2) if m.group(2) else m.span(3)))
    for s, e, run in _cap_runs(text):
        if any(_is_name_word(w) for w in run):
            add("name", s, e)
    return sorted(found, key=lambda f: f.start)
