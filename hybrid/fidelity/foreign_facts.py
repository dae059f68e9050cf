"""Facts in contract text, and which of them a draft did not get from its deal ("foreign facts").

Owns: finding the fact-like strings of a text (party names of corpus contracts, statutes, US
states and countries, the source contract's own names, amounts, durations, exhibits, section
references, years, numbers, proper nouns), the vocabulary a deal allows (its fields and its
template's own text) and the comparison of the two. Pure functions of strings; two word lists
ship as data, built from the train split: CUAD's party names (hybrid/fidelity/cuad_parties.json, from
master_clauses.csv by `build_party_list`) and the words contracts write in lower case
(hybrid/fidelity/common_words.json, by `build_common_words`). Knows nothing about models, templates as
objects or files beyond those lists.

A fact is foreign when the deal does not state it (kinds in KINDS order):
- party: a party name of any CUAD contract (case-insensitive), unless the deal's text holds it;
- statute: a named act, code or set of rules ("the Lanham Act", "LANHAM ACT", "the Securities Act
  of 1933", "Section 365(n) of the Bankruptcy Code", "15 U.S.C. § 1051", "HIPAA") that the deal's
  text does not name (all-caps runs too: a statute in an emphasised paragraph is still one);
- place: a US state, Canadian province or country that the deal's text does not name
  ("United States" is left out: every shipped template is a US-law contract);
- source: a name of the precedent's own contract (`extra_names`: hybrid.precedents.library.Precedent.facts)
  in any case ("ebix", "EGAIN"): a fact holding a distinctive word, and each such word alone (a
  word of 3+ letters that is neither generic, nor the deal's, nor one contracts write in lower
  case: "About", "Racing" and "Corporation" are words, "eGain" and "Ebix" are not);
- amount: money ($, USD, EUR, dollars ...) or a percentage whose number the deal's text lacks;
- duration: N days/weeks/months/quarters/years (in digits or words, "thirty (30) days") whose
  value the deal's text lacks (years also allowed as 12 x months, weeks as 7 x days);
- exhibit: an exhibit, schedule, annex, appendix or attachment with its designator ("Exhibit A",
  "Schedule 2.1", "Exhibits A and B") that the deal's text does not write: a draft of ours has no
  attachments unless its deal has them (a bare "the Exhibits" is left alone);
- reference: "Section 8.2", "Sections 4 through 20", "Article IV", "clause (b)": found so that
  their numbers are not counted as numbers, never foreign (numbering is the consistency pass's);
- year: a year 1900-2099, alone or in a date ("January 15, 2010", "1/15/2010"), that the deal's
  text does not write;
- number: a number in digits ("3000 pagers", "1,000", "2.5", "5:00") the deal's text does not
  write, except list markers ("1." or "8.1" opening an item, "(1)": one or two digits in
  parentheses), digits in parentheses that restate a number in words ("two (2) counterparts",
  "twenty-four (24) hours": numbers in words are never facts, only digits count, so "one hundred
  (100) units" is left alone too), digits glued to letters ("EAR99", "15th", "10-K"), a day after
  a month ("December 31") and numbers inside the kinds above;
- name: a run of capitalized words, not at the start of a sentence or list item (unless its first
  word has an inner capital: "GitHub"), holding a word
  the deal's text never uses (in any case) and that is not a generic contract word (Section,
  Exhibit, month names, the words of BOILERPLATE_TERMS: "Governmental Authority" ...). All-caps words (emphasis: "AS
  IS") and roman numerals are skipped.
Occurrences are counted; a span found by an earlier kind in that order is not counted again.
"""

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

__all__ = [
    "Fact",
    "KINDS",
    "NOT_FOREIGN",
    "BOILERPLATE_TERMS",
    "US_STATES",
    "PLACES",
    "find_facts",
    "foreign_facts",
    "draft_foreign_facts",
    "place_ban_ids",
    "name_ban_ids",
    "deal_ban_ids",
    "build_capitalized_terms",
    "allowed_text",
    "deal_days",
    "name_vocabulary",
    "foreign_acronyms",
    "party_names",
    "build_party_list",
    "common_words",
    "build_common_words",
    "source_words",
]

KINDS = ("party", "statute", "place", "source", "amount", "duration", "exhibit", "reference", "year", "number", "name")
NOT_FOREIGN = ("reference",)  # kinds find_facts reports that foreign_facts never counts
PARTIES_FILE = Path(__file__).with_name("cuad_parties.json")
WORDS_FILE = Path(__file__).with_name("common_words.json")

US_STATES = (
    "Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado", "Connecticut", "Delaware", "Florida",
    "Georgia",
    "Hawaii", "Idaho", "Illinois", "Indiana", "Iowa", "Kansas", "Kentucky", "Louisiana", "Maine", "Maryland",
    "Massachusetts", "Michigan", "Minnesota", "Mississippi", "Missouri", "Montana", "Nebraska", "Nevada",
    "New Hampshire",
    "New Jersey", "New Mexico", "New York", "North Carolina", "North Dakota", "Ohio", "Oklahoma", "Oregon",
    "Pennsylvania",
    "Rhode Island", "South Carolina", "South Dakota", "Tennessee", "Texas", "Utah", "Vermont", "Virginia", "Washington",
    "West Virginia", "Wisconsin", "Wyoming", "District of Columbia",
)  # fmt: skip
_PROVINCES = (
    "Ontario",
    "Quebec",
    "British Columbia",
    "Alberta",
    "Manitoba",
    "Saskatchewan",
    "Nova Scotia",
    "New Brunswick",
)
_COUNTRIES = (
    "Canada", "Mexico", "Brazil", "Argentina", "Chile", "Colombia", "Peru", "United Kingdom", "England", "Scotland",
    "Wales",
    "Ireland", "France", "Germany", "Italy", "Spain", "Portugal", "Netherlands", "Belgium", "Luxembourg", "Switzerland",
    "Austria", "Sweden", "Norway", "Denmark", "Finland", "Poland", "Czech Republic", "Hungary", "Greece", "Turkey",
    "Russia",
    "Ukraine", "Israel", "Egypt", "South Africa", "Nigeria", "Kenya", "India", "Pakistan", "China", "Hong Kong",
    "Taiwan",
    "Japan", "Korea", "South Korea", "Singapore", "Malaysia", "Thailand", "Vietnam", "Indonesia", "Philippines",
    "Australia",
    "New Zealand", "Cayman Islands", "Bermuda", "British Virgin Islands", "Puerto Rico", "United Arab Emirates",
    "Saudi Arabia",
)  # fmt: skip
PLACES = US_STATES + _PROVINCES + _COUNTRIES

_NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "fifteen": 15, "eighteen": 18, "twenty": 20, "twenty-four": 24, "thirty": 30,
    "thirty-six": 36, "forty-five": 45, "sixty": 60, "ninety": 90, "one hundred twenty": 120, "one hundred eighty": 180,
}  # fmt: skip
_UNITS = {"day": 1, "week": 7, "month": 30, "quarter": 91, "year": 365}
# boilerplate defined terms that name no deal, place, product or period (hybrid.precedents.definitions composes a
# draft's Definitions from them; how they were chosen is there): generic contract words too
BOILERPLATE_TERMS = (
    "Affiliate",
    "Person",
    "Business Day",
    "Third Party",
    "Governmental Authority",
    "Intellectual Property Rights",
    "Change of Control",
    "Force Majeure",
    "Losses",
    "Law",
    "Control",
)
# generic words a contract capitalizes whatever its deal (headings, references, calendar), and BOILERPLATE_TERMS's words
_GENERIC = frozenset(w for t in BOILERPLATE_TERMS for w in t.lower().split() if w != "of") | {"affiliates"} | frozenset(
    "section sections article articles exhibit exhibits schedule schedules annex appendix attachment clause paragraph "
    "subsection agreement agreements party parties effective date term days business day dollars state states united "
    "america court courts federal law laws government person persons notice notices recitals whereas witness whereof "
    "page signature name title by inc llc ltd corp l.l.c co l.p lp n.a s.a "
    "january february march april may june july august september october november december "
    "monday tuesday wednesday thursday friday saturday sunday "
    # sentence openers a small model capitalizes after a stray number or mark ("Section.1 If ...")
    "if subject upon each any all this that these those such in on at to for with without within during after before "
    "except unless where when whereas no neither nothing notwithstanding either both its their it".split()
)  # fmt: skip
_CONNECTORS = frozenset("of and & for the de".split())
_ROMAN = re.compile(r"^[IVXLC]+$")

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
# "U.S." whole, "Section.1" split
_WORD_RE = re.compile(r"[A-Za-z](?:[A-Za-z0-9&'-]|\.(?=[A-Za-z]))*[A-Za-z0-9]|[A-Za-z]")
_INNER_CAP = re.compile(r"^[A-Za-z][a-z]+[A-Z]")  # "GitHub", "eBay": a name even at a sentence start
_INITIAL_BEFORE = re.compile(r"(?:^|[.!?:;]\s*|\n\s*|\(\w{1,4}\)\s*|[\"'(]\s*)$")

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


def _base(word: str) -> str:
    """Lower-cased, without a possessive ("Party's" -> "party")."""
    w = word.lower()
    return w[:-2] if w.endswith("'s") else w


def name_vocabulary(allowed: str) -> set[str]:
    """The words (lower case) a capitalized word of a draft may be: the deal's words and the generic ones."""
    return {w.lower() for w in _WORD_RE.findall(allowed)} | _GENERIC


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


def common_words() -> frozenset[str]:
    """The shipped lower-case words of the train split (hybrid/common_words.json; empty when absent)."""
    return _common_words()


@lru_cache(maxsize=1)
def _common_words() -> frozenset[str]:
    if not WORDS_FILE.is_file():
        return frozenset()
    return frozenset(json.loads(WORDS_FILE.read_text(encoding="utf-8"))["words"])


def source_words(names, allowed: str = "") -> tuple[str, ...]:
    """The forms a source contract's own names (hybrid.precedents.library.Precedent.facts) are matched by, in
    any case: each name that holds a distinctive word, and each distinctive word (3+ letters, as a
    word or a run of letters of one: "EBIX" of "EBIX.COM"), longest first. A word is distinctive when
    it is no generic contract word, no word of `allowed` and no word contracts write in lower case
    (common_words): "eGain", "Eliance", "GAINSCO" are; "About", "Racing", "Corporation" are not."""
    return _source_words(tuple(names), allowed)


@lru_cache(maxsize=64)
def _source_words(names: tuple[str, ...], allowed: str) -> tuple[str, ...]:
    common, vocab = _common_words(), name_vocabulary(allowed) if allowed else _GENERIC

    def distinct(w: str) -> bool:
        return len(w) >= 3 and w.lower() not in common and _base(w) not in vocab and w.lower() not in _CONNECTORS

    forms = set()
    for name in names:
        if len(name.split()) > 8:
            continue
        runs = [r for r in re.findall(r"[A-Za-z]+", name) if distinct(r)]
        words = [w for w in _WORD_RE.findall(name) if distinct(w) and any(map(distinct, re.findall(r"[A-Za-z]+", w)))]
        if runs:
            forms.update([re.sub(r"^(?:the|The|THE)\s+", "", name.strip(" .,;:")), *runs, *words])
    return tuple(sorted((f for f in forms if len(f) >= 3), key=len, reverse=True))


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
    for s, e in _bare_numbers(text):
        add("number", s, e)
    for s, e, run in _cap_runs(text):
        if any(_is_name_word(w) for w in run):
            add("name", s, e)
    return sorted(found, key=lambda f: f.start)


def foreign_facts(text: str, allowed: str, parties: tuple[str, ...] = (), extra_names=()) -> list[Fact]:
    """The facts of `text` that `allowed` (the deal's fields and its template's text) does not state
    (no "reference": NOT_FOREIGN). extra_names: the source contract's own names (Precedent.facts of
    the precedents a draft was made from), found in any case."""
    low = allowed.lower()
    flat = _squash(allowed)
    vocab = name_vocabulary(allowed)
    numbers = _numbers(allowed)
    years = set(re.findall(rf"(?<![0-9]){_YEAR}(?![0-9])", allowed))
    bare = set(_number_values(_YEAR_RE.sub(" ", allowed)))  # a date's day and month are no number the deal writes
    days = deal_days(allowed)
    out = []
    names = source_words(extra_names, allowed) if extra_names else ()
    for f in find_facts(text, tuple(p for p in parties if p.lower() not in low), names):
        if f.kind in NOT_FOREIGN:
            continue
        if f.kind == "statute" and _statute_name(f.text) in flat:
            continue
        if f.kind in ("place", "source") and re.search(rf"(?<!\w){re.escape(f.text.lower())}(?!\w)", low):
            continue
        if f.kind == "amount" and _amounts(f.text) and _amounts(f.text)[0][0] in numbers:
            continue
        if f.kind == "duration" and _durations(f.text)[0][0] in days:
            continue
        if f.kind == "exhibit" and _squash(f.text) in flat:
            continue
        if f.kind == "year" and set(re.findall(rf"(?<![0-9]){_YEAR}(?![0-9])", f.text)) <= years:
            continue
        if f.kind == "number" and set(_number_values(f.text)) <= bare:
            continue
        if f.kind == "name" and all(_base(w) in vocab for w in re.findall(_WORD_RE, f.text) if _is_name_word(w)):
            continue
        out.append(f)
    return out


_ACRONYM = re.compile(r"(?<![\w-])[A-Z]{2,6}(?![\w-])")
_CAPS_WORD = re.compile(r"^[A-Z]{2,}$")


def foreign_acronyms(text: str, allowed: str) -> list[tuple[int, int]]:
    """(start, end) of each isolated all-caps word of 2-6 letters ("LBIO", "JSC") that `allowed` never
    writes, is no roman numeral and no generic word ("LLC"): another deal's short name or defined
    term. find_facts skips all-caps words (emphasis: "AS IS"), so a word whose neighbour is all caps
    too is left alone here as well."""
    written = set(_WORD_RE.findall(allowed))
    out = []
    for m in _ACRONYM.finditer(text):
        w = m.group(0)
        if w in written or w.lower() in _GENERIC or _ROMAN.match(w):
            continue
        before = text[: m.start()].split()[-1:]
        after = text[m.end() :].split()[:1]
        if any(_CAPS_WORD.match(x.strip("\"'(),.;:")) for x in before + after):
            continue
        out.append((m.start(), m.end()))
    return out


def allowed_text(template, values: dict) -> str:
    """Everything the deal states: field values and the template's own text (title, preamble,
    signature block, defined terms, clause headings, frames and required terms)."""
    parts = [template.title, template.preamble, template.signature_block, *template.defined_terms]
    for spec in template.clauses.values():
        parts += [spec["heading"], spec.get("frame", ""), *spec["required_terms"]]
    parts += [str(v) for v in values.values()]
    return "\n".join(parts)


@lru_cache(maxsize=1)
def party_names() -> tuple[str, ...]:
    """The shipped CUAD party names (empty when the data file is absent)."""
    if not PARTIES_FILE.is_file():
        return ()
    return tuple(json.loads(PARTIES_FILE.read_text(encoding="utf-8"))["names"])


@lru_cache(maxsize=8)
def _party_regex(parties: tuple[str, ...]) -> re.Pattern:
    alts = "|".join(re.escape(p) for p in sorted(parties, key=len, reverse=True))
    return re.compile(rf"(?<![\w&])(?:{alts})(?![\w&])", re.I)


_NOT_A_NAME = re.compile(r"\b(?:shall|herein|referred|collectively|hereinafter|each|means)\b", re.I)


def build_party_list(csv_path) -> list[str]:
    """Distinctive party names of CUAD's master_clauses.csv: at most 8 words, no clause text, and
    either several words or one with an inner capital or digit ("CyberShop", "mPhase")."""
    import csv

    from hybrid.data.cuad import parse_parties

    names = set()
    with open(csv_path, encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            for name in parse_parties(row.get("Parties-Answer", "")):
                name = name.strip(" .,")
                words = name.split()
                if not 1 <= len(words) <= 8 or len(name) < 4 or _NOT_A_NAME.search(name):
                    continue
                distinctive = [
                    w for w in words if w[0].isupper() and w.lower().strip(".,") not in _GENERIC | _CONNECTORS
                ]
                if len(words) == 1 and not re.search(r".[A-Z0-9]", name):
                    continue
                if distinctive:
                    names.add(name)
    return sorted(names, key=str.lower)


_LOWER_RUN = re.compile(r"(?<![A-Za-z])[a-z]{3,}(?![A-Za-z])")


def build_common_words(corpus_root, min_groups: int = 2) -> dict:
    """The runs of 3+ letters that documents of at least `min_groups` groups (issuers: one group may
    hold several contracts) of the corpus's train split write in lower case: English and contract
    words ("about", "racing", "corporation"), as opposed to a name one contract writes in lower
    case ("ebix" of "www.ebix.com"). What source_words tells a name's distinctive words by."""
    from collections import defaultdict

    from hybrid.data.corpus import load_manifest

    root = Path(corpus_root)
    groups: dict[str, set[str]] = defaultdict(set)
    entries = [e for e in load_manifest(root) if e["split"] == "train"]
    for e in entries:
        for w in set(_LOWER_RUN.findall((root / e["path"]).read_text(encoding="utf-8", errors="replace"))):
            groups[w].add(e["group"])
    words = sorted(w for w, g in groups.items() if len(g) >= min_groups)
    source = f"train split, {len(entries)} documents; built by hybrid.fidelity.foreign_facts.build_common_words"
    return {"source": source, "min_groups": min_groups, "words": words}


# words of PLACES that name no place on their own ("New", "North") or that several places share
_PLACE_WORDS_SHARED = frozenset(
    "New North South West United Kingdom Republic Islands Island British Virgin District Arab "
    "Emirates Saudi Czech Hong Kong Korea Nova Scotia Cayman Puerto Rico Zealand Africa of".split()
)


def place_ban_ids(tokenizer, allowed: str) -> list[int]:
    """Token ids that spell, as one token, a distinctive word of a place `allowed` does not name
    (" Texas", " York" of New York, " Ontario"): a pure ban the fillers apply everywhere, so a
    draft cannot write another state's or country's name in those forms. Words of places the
    deal names are never banned ("Virginia" when the law is West Virginia's)."""
    low = allowed.lower()
    keep = {w.lower() for w in _WORD_RE.findall(allowed)}
    out = set()
    for place in PLACES:
        if re.search(rf"\b{re.escape(place.lower())}\b", low):
            continue
        for word in place.split():
            if word in _PLACE_WORDS_SHARED or word.lower() in keep:
                continue
            for text in (" " + word, word):
                ids = tokenizer.encode(text)
                if len(ids) == 1:
                    out.add(ids[0])
    return sorted(out)


TERMS_FILE = Path(__file__).with_name("capitalized_terms.json")


def _vocab_sha(tokenizer) -> str:
    import hashlib

    return hashlib.sha1(json.dumps(sorted(tokenizer.hf.get_vocab().items())).encode()).hexdigest()[:16]


def build_capitalized_terms(tokenizer, bodies, min_count: int = 5, min_mid_share: float = 0.8) -> dict:
    """The tokens that open a capitalized word mostly in mid-sentence in `bodies` (train-split
    clause bodies): other deals' defined terms and names ("Licensor", "Products", "GitHub") and
    the first pieces of such words, as opposed to sentence openers ("The", "Each", "Upon").
    A token counts as sentence-initial after . : ; ! ? ) or a quote and a space, or at a line start."""
    from collections import Counter

    initial, mid = Counter(), Counter()
    for ids in tokenizer.encode_batch(list(bodies)):
        prev = "\n"
        for i in ids:
            piece = tokenizer.decode([i])
            if re.match(r"^ ?[A-Z][a-z]", piece):
                start = re.search(r"[.:;!?)\"]\s*$", prev) if piece.startswith(" ") else prev.endswith("\n")
                (initial if start else mid)[i] += 1
            prev = piece
    inv = {i: p for p, i in tokenizer.hf.get_vocab().items()}
    pieces = sorted(
        inv[i] for i in set(mid) if initial[i] + mid[i] >= min_count and mid[i] / (initial[i] + mid[i]) >= min_mid_share
    )
    return {
        "vocab_sha": _vocab_sha(tokenizer),
        "min_count": min_count,
        "min_mid_share": min_mid_share,
        "pieces": pieces,
    }


@lru_cache(maxsize=1)
def _capitalized_terms() -> dict:
    return json.loads(TERMS_FILE.read_text(encoding="utf-8")) if TERMS_FILE.is_file() else {}


def name_ban_ids(tokenizer, allowed: str) -> list[int]:
    """Token ids of hybrid/fidelity/capitalized_terms.json (built for this tokenizer; none for another)
    that the deal's text never uses and that are not generic contract words: other deals'
    defined terms and names cannot open a word of a draft."""
    data = _capitalized_terms()
    if not data or data.get("vocab_sha") != _vocab_sha(tokenizer):
        return []
    vocab = tokenizer.hf.get_vocab()
    words = set(_WORD_RE.findall(allowed))
    used = set(tokenizer.encode(allowed))
    for w in words:
        used |= set(tokenizer.encode(" " + w)) | set(tokenizer.encode(w))
    generic = {w.lower() for w in _GENERIC} | {w.lower() for w in words}
    out = []
    for piece in data["pieces"]:
        i = vocab.get(piece)
        if i is None or i in used or tokenizer.decode([i]).strip().lower() in generic:
            continue
        out.append(i)
    return sorted(out)


def deal_ban_ids(tokenizer, allowed: str) -> list[int]:
    """Every token the fillers must not write for this deal: place_ban_ids and name_ban_ids."""
    return sorted(set(place_ban_ids(tokenizer, allowed)) | set(name_ban_ids(tokenizer, allowed)))


def draft_foreign_facts(template, values: dict, bodies: list[str], extra_names=()) -> list[dict]:
    """[{"kind", "text"}] of the foreign facts in a draft's clause bodies (what drafts.json lists);
    extra_names: the facts of the source contracts it was drafted from (Draft.source_facts)."""
    found = foreign_facts("\n\n".join(bodies), allowed_text(template, values), party_names(), extra_names)
    return [f.to_dict() for f in found]
