"""Facts in contract text, and which of them a draft did not get from its deal ("foreign facts").

Owns: finding the fact-like strings of a text (party names of corpus contracts, US states and
countries, amounts, durations, proper nouns), the vocabulary a deal allows (its fields and its
template's own text) and the comparison of the two. Pure functions of strings; the CUAD party
list ships as data (hybrid/fidelity/cuad_parties.json, built from CUAD's master_clauses.csv by
`build_party_list`). Knows nothing about models, templates as objects or files beyond that list.

A fact is foreign when the deal does not state it:
- party: a party name of any CUAD contract (case-insensitive), unless the deal's text holds it;
- place: a US state, Canadian province or country that the deal's text does not name
  ("United States" is left out: every shipped template is a US-law contract);
- amount: money ($, USD, EUR, dollars ...) or a percentage whose number the deal's text lacks;
- duration: N days/weeks/months/quarters/years (in digits or words, "thirty (30) days") whose
  value the deal's text lacks (years also allowed as 12 x months, weeks as 7 x days);
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
]

KINDS = ("party", "place", "amount", "duration", "name")
PARTIES_FILE = Path(__file__).with_name("cuad_parties.json")

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


def find_facts(text: str, parties: tuple[str, ...] = ()) -> list[Fact]:
    """Every fact-like string of text (kinds in KINDS order; later kinds skip spans already taken)."""
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
    for m in _PLACE_RE.finditer(text):
        add("place", m.start(), m.end())
    for _, s, e in _amounts(text):
        add("amount", s, e)
    for _, s, e in _durations(text):
        add("duration", s, e)
    for s, e, run in _cap_runs(text):
        if any(_is_name_word(w) for w in run):
            add("name", s, e)
    return sorted(found, key=lambda f: f.start)


def foreign_facts(text: str, allowed: str, parties: tuple[str, ...] = ()) -> list[Fact]:
    """The facts of `text` that `allowed` (the deal's fields and its template's text) does not state."""
    low = allowed.lower()
    vocab = name_vocabulary(allowed)
    numbers = _numbers(allowed)
    days = deal_days(allowed)
    out = []
    for f in find_facts(text, tuple(p for p in parties if p.lower() not in low)):
        if f.kind == "place" and re.search(rf"\b{re.escape(f.text.lower())}\b", low):
            continue
        if f.kind == "amount" and _amounts(f.text) and _amounts(f.text)[0][0] in numbers:
            continue
        if f.kind == "duration" and _durations(f.text)[0][0] in days:
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


def draft_foreign_facts(template, values: dict, bodies: list[str]) -> list[dict]:
    """[{"kind", "text"}] of the foreign facts in a draft's clause bodies (what drafts.json lists)."""
    return [f.to_dict() for f in foreign_facts("\n\n".join(bodies), allowed_text(template, values), party_names())]
