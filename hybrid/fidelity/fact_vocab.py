"""The word lists and vocabularies the foreign-facts check reads (hybrid.fidelity.foreign_facts has the
definition of a foreign fact).

Owns: the places (US_STATES, PLACES), the generic contract words and BOILERPLATE_TERMS, the words a
deal's text allows a capitalized word to be (`name_vocabulary`), the distinctive forms of a source
contract's own names (`source_words`), and the two word lists that ship as data, built from the train
split: CUAD's party names (hybrid/fidelity/cuad_parties.json, from master_clauses.csv by
`build_party_list`; read by `party_names`) and the words contracts write in lower case
(hybrid/fidelity/common_words.json, by `build_common_words`; read by `common_words`). Pure functions of
strings and those files.
"""

import json
import re
from functools import lru_cache
from pathlib import Path

__all__ = [
    "BOILERPLATE_TERMS",
    "US_STATES",
    "PLACES",
    "name_vocabulary",
    "party_names",
    "build_party_list",
    "common_words",
    "build_common_words",
    "source_words",
]

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
    # the defined term every kind of agreement writes (a template-level term, so not in BOILERPLATE_TERMS)
    "confidential information "
    # trade abbreviations every kind of deal writes: taxes, file formats, trade terms, currencies
    "vat gst hst cad oem odm iso sku edi erp pdf fob cif exw fca ddp dap cpt cip incoterms usd eur gbp "
    "january february march april may june july august september october november december "
    "monday tuesday wednesday thursday friday saturday sunday "
    # sentence openers a small model capitalizes after a stray number or mark ("Section.1 If ...")
    "if subject upon each any all this that these those such in on at to for with without within during after before "
    "except unless where when whereas no neither nothing notwithstanding either both its their it".split()
)  # fmt: skip
_CONNECTORS = frozenset("of and & for the de".split())
_ROMAN = re.compile(r"^[IVXLC]+$")

# "U.S." whole, "Section.1" split
_WORD_RE = re.compile(r"[A-Za-z](?:[A-Za-z0-9&'-]|\.(?=[A-Za-z]))*[A-Za-z0-9]|[A-Za-z]")


def _base(word: str) -> str:
    """Lower-cased, without a possessive ("Party's" -> "party")."""
    w = word.lower()
    return w[:-2] if w.endswith("'s") else w


def name_vocabulary(allowed: str) -> set[str]:
    """The words (lower case) a capitalized word of a draft may be: the deal's words and the generic ones."""
    return {w.lower() for w in _WORD_RE.findall(allowed)} | _GENERIC


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


_CODED = re.compile(r"(?<![\w-])[A-Za-z]{1,4}-?[0-9]{1,3}(?![\w-])")


@lru_cache(maxsize=64)
def _source_words(names: tuple[str, ...], allowed: str) -> tuple[str, ...]:
    common, vocab = _common_words(), name_vocabulary(allowed) if allowed else _GENERIC

    def distinct(w: str) -> bool:
        return len(w) >= 3 and w.lower() not in common and _base(w) not in vocab and w.lower() not in _CONNECTORS

    forms = set()
    for name in names:
        if len(name.split()) > 8:
            continue
        # a coded name, letters and digits ("bw-3" of "bw-3 FRANCHISE SYSTEMS, INC.": "our parent, bw-3, Inc." had
        # stayed in a franchise draft, every reader quoting it) is as distinctive as a run of letters
        runs = [r for r in re.findall(r"[A-Za-z]+", name) if distinct(r)] + [
            c for c in _CODED.findall(name) if distinct(c)]
        words = [w for w in _WORD_RE.findall(name) if distinct(w) and any(map(distinct, re.findall(r"[A-Za-z]+", w)))]
        if runs:
            forms.update([re.sub(r"^(?:the|The|THE)\s+", "", name.strip(" .,;:")), *runs, *words])
    return tuple(sorted((f for f in forms if len(f) >= 3), key=len, reverse=True))


@lru_cache(maxsize=1)
def party_names() -> tuple[str, ...]:
    """The shipped CUAD party names (empty when the data file is absent)."""
    if not PARTIES_FILE.is_file():
        return ()
    return tuple(json.loads(PARTIES_FILE.read_text(encoding="utf-8"))["names"])


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
