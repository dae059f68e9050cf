"""What of a precedent's text is another deal's facts, and what is the deal's: the character spans an edit always
keeps and always masks, memoized per text.

Owns `found_facts` (hybrid.fidelity.foreign_facts of a text, memoized), `fact_spans` (keep, drop), `fact_holes` (how
many holes an edit must open) and `overlaps`. Used by the start (hybrid.text.start), the settling
(hybrid.text.settle, holes, blanks) and the fit; imports none of them.
"""

import re

from hybrid.data.clean import REDACTION_RE
from hybrid.data.facts import DealFacts
from hybrid.data.roles import PARTY_ROLE_WORDS
from hybrid.fidelity.fact_vocab import common_words
from hybrid.fidelity.foreign_facts import foreign_acronyms, foreign_facts, party_names, source_words
from hybrid.fidelity.ordinary_words import load_ordinary_words
from hybrid.precedents.definitions import defined_heads

__all__ = ["ORDINARY_KINDS", "fact_holes", "found_facts", "fact_spans", "overlaps", "own_terms"]

ORDINARY_KINDS = ("name", "statute")  # foreign facts that are no deal's when of ordinary words (fact_spans)
# a term the text defines in quotes: '(the "Offer Notice")', '(each a "Board Dispute")', '"Offer Price" means'
_QUOTED_TERM = re.compile(r"[\"“]([A-Z][\w'&-]*(?: [A-Z][\w'&-]*){0,4})[\"”]")


def own_terms(text: str) -> set[str]:
    """The terms text defines in quotes whose every word is a common lower-case word of the corpus
    (hybrid.fidelity.fact_vocab.common_words) and no party's role word: the contract's own vocabulary, which it
    defines for itself ("Offer Notice", "Board Dispute"), not another deal's name ("IFFC", "Neutraceutical
    Opportunity"). Masked or blanked, a joint venture's buy-sell read 'a written notice (the "[___]")' and its
    trigger had gone as a sentence dense with another deal's names (seed-347 reader: the deadlock exit gutted)."""
    common = common_words()
    return {t for t in _QUOTED_TERM.findall(text)
            if all(w.lower() in common and w.lower() not in PARTY_ROLE_WORDS for w in t.split())}
def fact_holes(text: str, deal: DealFacts, allowed: str, own_facts=()) -> int:
    """How many holes an edit of `text` (an adapted precedent) must open at t = 0: the runs of characters
    start_tokens always masks (foreign facts, redactions, another deal's acronyms, the source's own facts)."""
    _, drop = fact_spans(text, deal, allowed, own_facts)
    runs, end = 0, -1
    for a, b in sorted(drop):
        if a > end + 1:
            runs += 1
        end = max(end, b)
    return runs


def overlaps(a: int, b: int, spans) -> bool:
    return any(a < e and s < b for s, e in spans)


_FOUND: dict = {}  # (text, allowed, own facts) -> its foreign facts, within one process


def found_facts(text: str, allowed: str, own_facts=()) -> list:
    """hybrid.fidelity.foreign_facts.foreign_facts of text, party_names() as the names, memoized: the fact spans,
    the worded holes, the lowered names and the figure blanks of one settling each ask it of the same text."""
    key = (text, allowed, tuple(own_facts))
    if key not in _FOUND:
        if len(_FOUND) > 4096:
            _FOUND.clear()
        _FOUND[key] = foreign_facts(text, allowed, party_names(), own_facts)
    return _FOUND[key]


def fact_spans(text: str, deal: DealFacts, allowed: str, own_facts) -> tuple[list, list]:
    """(keep, drop): character spans of text that stay as written (the deal's facts, the terms definitions
    define: hybrid.precedents.definitions.defined_heads) and that are
    always masked (foreign facts wherever they stand, the precedent's own names in any case among them,
    redaction marks, another deal's acronyms, the precedent's own leftover names as written). A
    reference ("Section 8.2") is no foreign fact: the consistency pass renumbers it. Nor is a name, statute or
    acronym of ordinary words (hybrid.fidelity.ordinary_words: "acts of God", "shall NOT", "the FCPA"), which
    contracts of many companies write: masked, the filler rewrote it, and a base's blank read as damage."""
    keep = [(m.start(), m.end()) for f in deal.strings() for m in re.finditer(re.escape(f), text)]
    keep += defined_heads(text, allowed)  # '"Affiliate" means': the term a definition defines stays as written
    keep += [(m.start(), m.end()) for t in own_terms(text) for m in re.finditer(rf"(?<!\w){re.escape(t)}(?!\w)", text)]
    ordinary = load_ordinary_words()
    found = [
        f
        for f in found_facts(text, allowed, own_facts)
        if f.kind not in ORDINARY_KINDS or not ordinary.ordinary(f.text, allowed)
    ]
    drop = [(f.start, f.end) for f in found]
    for name in {f.text for f in found if f.kind == "name" and len(f.text) >= 3}:  # every other place it stands too:
        # the check skips a capitalized word after a list marker ("(a) Discloser identifies"), which a
        # rewritten neighbour can turn into mid-sentence
        drop += [(m.start(), m.end()) for m in re.finditer(r"(?<!\w)" + re.escape(name) + r"(?!\w)", text)]
    drop += [(m.start(), m.end()) for m in REDACTION_RE.finditer(text)]  # CUAD's "[***]": a hole to fill, not text
    # another deal's short name ("LBIO"), which find_facts skips; not an ordinary one ("NOT", "FCPA")
    drop += [(a, b) for a, b in foreign_acronyms(text, allowed) if not ordinary.ordinary(text[a:b], allowed)]
    for f in own_facts:  # the precedent's own names that its normalization missed ("CERES" beside "[PARTY_A]"); a fact
        # in lower case of words only ("about", "the racing": its party matched in any case) is no name
        if len(f) >= 3 and f.lower() not in allowed.lower() and (f != f.lower() or source_words([f], allowed)):
            drop += [(m.start(), m.end()) for m in re.finditer(r"(?<!\w)" + re.escape(f) + r"(?!\w)", text)]
    return keep, drop
