"""Capitalized terms a draft never defines, written in lower case.

Owns: `lower_undefined` (one section body: each mid-sentence run of capitalized common words that the draft does not
define and the deal does not write, in lower case: "under accepted Purchase Orders" -> "under accepted purchase
orders", "during the Term" -> "during the term", "the Manufacture and characterization of the Product" -> "the
manufacture and characterization of the Product" where the deal defines "Products"). A precedent's own defined term
reads, in a draft that does not define it, as a term a lawyer has to chase; as plain words it says what it says.

Left as written: a term the draft defines (its Definitions entries, a defining parenthetical or '"X" means' anywhere,
the preamble's terms; a singular or plural of one counts), a word the deal's own text writes with a capital (its
preamble, frames and required terms: "State of Ohio"), a party's role word, a place ("United States"), a reference
("Section 6", "Exhibit A"), a run-in heading or a sentence's first word, and a word that is not a common lower-case
word of contracts (a name). Pure string functions; a body that needs no change comes back unchanged, byte for byte.
"""

import re

from hybrid.data.roles import ROLE_WORDS
from hybrid.fidelity.fact_vocab import PLACES, common_words

__all__ = ["lower_undefined", "as_lowered", "term_forms", "deal_capitals", "undefined_runs"]

# a capitalized run after a lower-case word (so no sentence's first word and no run-in heading), with "of"/"and"
_MID = re.compile(  # a word may be hyphenated: "the Non-Renewal Notice Date" (a form's Variable, seed-947 reader)
    r"(?<=[a-z,;] )((?:[A-Z][a-z]+(?:-[A-Z][a-z]+)?)(?: (?:of |and |for )?[A-Z][a-z]+(?:-[A-Z][a-z]+)?){0,3})"
    r"(?![\w'’-])(?! ?\(?\d)"
    r"(?! (?:of |and |for |in |on )?[A-Z])"  # the whole run or nothing: no "purchase Order's", "arms Regulations"
)
_REFERENCE = frozenset(
    "section sections article articles exhibit exhibits schedule schedules annex appendix attachment clause "
    "paragraph part".split()
)
_ROLES = ROLE_WORDS
_PLACE_WORDS = frozenset(w.lower() for p in PLACES for w in p.split())
_CAPITAL = re.compile(r"\b[A-Z][a-z]+\b")
_AFTER_CAPITAL = re.compile(r"[A-Z][\w'’-]* (?:of|and|for) $")
# the tail of a longer name across a short lower-case word: "Contracts for the International Sale of Goods",
# "International Traffic in Arms Regulations" (a role or a defined term before it starts no name: "Customer for the")
_NAME_BEFORE = re.compile(r"([A-Z][\w'’-]*) (?:(?:of|and|for|in|on|the) ){1,2}$")
_AFTER_LOWER = re.compile(r"(?:^|[\s(\"“])[a-z][a-z'’-]*[,;]? $")


def term_forms(terms) -> set[str]:
    """The lower-cased terms with their singular and plural forms ("Products" -> products, product)."""
    out = {t.lower() for t in terms}
    return out | {t[:-1] for t in out if t.endswith("s")} | {t + "s" for t in out} | {t[:-1] + "ies" for t in out}


def deal_capitals(texts) -> set[str]:
    """The capitalized words the deal's own texts write (lower-cased): none of them is lowered."""
    return {w.lower() for t in texts for w in _CAPITAL.findall(t)}


def lower_undefined(body: str, defined: set[str], capitals: set[str]) -> tuple[str, list[str]]:
    """(body with each undefined capitalized run of common words in lower case, the runs lowered as written).
    `defined`: term_forms of the terms the draft defines; `capitals`: deal_capitals of the deal's texts."""
    common = common_words()
    if not common:
        return body, []
    lowered: list[str] = []

    def kept(w: str, first: bool) -> bool:  # a word that keeps its capital (a reference word only as the run's head)
        w = w.lower()
        reference = first and w in _REFERENCE  # "the Schedule", not "a Purchase Schedule"
        return (w in defined or w in capitals or w in _ROLES or reference or w in _PLACE_WORDS
                or not all(part in common for part in w.split("-")))

    def lower(m: re.Match) -> str:
        phrase = m.group(1)
        before = m.string[max(0, m.start() - 60) : m.start()]
        if (
            _AFTER_CAPITAL.search(before)  # the tail of a longer run: "(Representations and Warranties)"
            or _named(before, defined)
            or not _AFTER_LOWER.search(before)  # a sentence's first word before it: "The Confidential Information"
            or phrase.lower() in defined
        ):
            return phrase
        words = phrase.split()
        roles = _opening_roles(words)  # "Rights Holder Team": the roles keep their capitals, the rest is judged
        if roles == len(words) or any(kept(w, k == roles) for k, w in enumerate(words[roles:], roles)
                                      if w not in ("of", "and", "for")):
            return phrase
        lowered.append(phrase)
        return as_lowered(phrase)

    out = _MID.sub(lower, body)
    return (out, lowered) if lowered else (body, [])


def as_lowered(phrase: str) -> str:
    """An undefined run as lower_undefined writes it: in lower case but for the party role words it opens with
    ("Rights Holder Team", a base's "BSR Team" under the deal's role, -> "Rights Holder team")."""
    words = phrase.split()
    roles = _opening_roles(words)
    return " ".join(words[:roles] + [w.lower() for w in words[roles:]])


def _opening_roles(words: list[str]) -> int:
    """How many of `words` open them as party role words ("Rights", "Holder" of "Rights Holder Team": 2)."""
    return next((k for k, w in enumerate(words) if w.lower() not in _ROLES), len(words))


def _named(before: str, defined: set[str]) -> bool:
    m = _NAME_BEFORE.search(before)
    return bool(m) and m.group(1).lower() not in _ROLES and m.group(1).lower() not in defined


def undefined_runs(texts, defined, capitals=()) -> list[str]:
    """The capitalized runs of common words that texts use and do not define, as first written, in order of first
    use, one per term in any case: what lower_undefined would lower. A standard form written around a cover page
    uses its Variables so ("not more than the General Cap Amount"): the form defines them on a cover page a base
    does not carry. `defined`: the terms defined (any case); `capitals`: words the deal itself writes."""
    forms, caps = term_forms(defined), {c.lower() for c in capitals}
    seen: dict[str, str] = {}
    for text in texts:
        for run in lower_undefined(text, forms, caps)[1]:
            seen.setdefault(run.lower(), run)
    return list(seen.values())
