"""Facts in contract text, and which of them a draft did not get from its deal ("foreign facts").

Owns: finding the fact-like strings of a text (party names of corpus contracts, statutes, US
states and countries, the source contract's own names, amounts, durations, exhibits, section
references, years, numbers, proper nouns), the vocabulary a deal allows (its fields and its
template's own text) and the comparison of the two. Pure functions of strings; two word lists
ship as data, built from the train split: CUAD's party names (hybrid/fidelity/cuad_parties.json, from
master_clauses.csv by `build_party_list`) and the words contracts write in lower case
(hybrid/fidelity/common_words.json, by `build_common_words`). Knows nothing about models, templates as
objects or files beyond those lists. The parts live beside it: the word lists and vocabularies in
hybrid.fidelity.fact_vocab, the finders in hybrid.fidelity.fact_finders, the token bans of a deal in
hybrid.fidelity.ban_ids; every name of __all__ (and the data files' paths) is importable from here.

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

import re

from hybrid.data.roles import FAMILIES, TURN_ROLES
from hybrid.fidelity.ban_ids import TERMS_FILE as TERMS_FILE
from hybrid.fidelity.ban_ids import build_capitalized_terms, deal_ban_ids, name_ban_ids, place_ban_ids
from hybrid.fidelity.fact_finders import (
    _YEAR,
    _YEAR_RE,
    KINDS,
    Fact,
    _amounts,
    _durations,
    _is_name_word,
    _number_values,
    _numbers,
    _squash,
    _statute_name,
    deal_days,
    find_facts,
)
from hybrid.fidelity.fact_vocab import (
    _GENERIC,
    _ROMAN,
    _WORD_RE,
    BOILERPLATE_TERMS,
    PLACES,
    US_STATES,
    _base,
    build_common_words,
    build_party_list,
    common_words,
    name_vocabulary,
    party_names,
    source_words,
)
from hybrid.fidelity.fact_vocab import PARTIES_FILE as PARTIES_FILE
from hybrid.fidelity.fact_vocab import WORDS_FILE as WORDS_FILE

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

NOT_FOREIGN = ("reference",)  # kinds find_facts reports that foreign_facts never counts
# a role a clause gives either party by turns (hybrid.data.roles.TURN_ROLES), possessive or not: no deal's name. A
# master supply agreement's confidentiality clause defines "Disclosing Party" and "Receiving Party" in its own text;
# read as another deal's names, the clause's definition and its use and return-or-destroy duties went as sentences
# dense with them, and the rest read "a [___] represents ... to the [___]" (a reader's quote, session 35)
_TURN_ROLE = re.compile(
    r"(?<![\w-])(?:" + "|".join(re.escape(w) for f in TURN_ROLES for w in FAMILIES[f]) + r")(?:'s)?(?![\w-])"
)


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
        named = _TURN_ROLE.sub(" ", f.text) if f.kind == "name" else ""
        named = named.title() if named.isupper() else named  # a county in capitals (fact_finders._CAPS_PLACE)
        words = [w for w in re.findall(_WORD_RE, named) if _is_name_word(w)]
        if f.kind == "name" and all(_in_vocab(_base(w), vocab) for w in words):
            continue
        out.append(f)
    return out


def _in_vocab(word: str, vocab) -> bool:
    """word, or the singular it is the plural of ("franchisees" beside the deal's "Franchisee"), is in vocab."""
    return word in vocab or (word.endswith("s") and (word[:-1] in vocab or word.endswith("es") and word[:-2] in vocab))


_ACRONYM = re.compile(r"(?<![\w-])[A-Z]{2,6}(?![\w-])")
_CAPS_WORD = re.compile(r"^[A-Z]{2,}$")


def foreign_acronyms(text: str, allowed: str) -> list[tuple[int, int]]:
    """(start, end) of each isolated all-caps word of 2-6 letters ("LBIO", "JSC") that `allowed` never
    writes, is no roman numeral and no generic word ("LLC"): another deal's short name or defined
    term (in either number: a base defining its "Current SOPs" writes "the SOP"). find_facts skips all-caps words
    (emphasis: "AS IS"), so a word whose neighbour is all caps too is left alone here as well."""
    written = set(_WORD_RE.findall(allowed))
    out = []
    for m in _ACRONYM.finditer(text):
        w = m.group(0)
        if w in written or w + "s" in written or w.lower() in _GENERIC or _ROMAN.match(w):
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


def draft_foreign_facts(template, values: dict, bodies: list[str], extra_names=()) -> list[dict]:
    """[{"kind", "text"}] of the foreign facts in a draft's clause bodies (what drafts.json lists);
    extra_names: the facts of the source contracts it was drafted from (Draft.source_facts)."""
    found = foreign_facts("\n\n".join(bodies), allowed_text(template, values), party_names(), extra_names)
    return [f.to_dict() for f in found]
