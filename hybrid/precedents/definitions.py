"""A Definitions section composed from precedents: only the definitions a draft can use.

Owns: `entries` (a definitions body cut into its lead-in and its '"Term" means ...' entries),
`keep_terms` (which terms a template's Definitions section may define), `compose` (one
precedent-like body from the kept entries of several ranked precedents, citing each source) and
`defined_heads` (the quoted terms an edited precedent keeps unmasked: hybrid.text.start).

Why: a Definitions precedent defines its own deal's vocabulary ("Abnormal Use", "Aircraft", "kWh"),
so editing one whole put another deal's terms, as junk, into every draft. What a template's
Definitions may define instead:
- its own defined terms (template.defined_terms) that its preamble does not already define (a
  second, foreign meaning of "Effective Date" would contradict the deal);
- GENERIC_TERMS: boilerplate terms that name no deal, no industry and no product. They are the
  terms that at least 10 of the train split's 213 Definitions precedents define (counted by
  `entries` on the library: tests/precedents/test_definitions.py checks it), less the template-level ones
  ("Agreement", "Effective Date", "Party", "Confidential Information"), those that name a deal's
  subject ("Territory", "Product(s)", "Services", "FDA", "Specifications", "Software", "Net Sales",
  "Marks", "Documentation", "GAAP"), a deal's own period ("Term", "Contract Year", "Calendar Year"),
  a role ("Indemnifying Party") and variants of a kept one ("Laws", "Applicable Laws",
  "Intellectual Property").
- the terms the draft's other sections use without defining them ("any Third Party", "the Term",
  "each Purchase Order": `used_terms`), each from the library's best entry for it (`term_entries`): a
  capitalized term a contract uses undefined is what a lawyer marks first, and a Definitions section
  of real entries reads as one where an index of the preamble's terms did not.
Knows nothing of models or tokenizers; hybrid.skeleton.from_precedents calls compose per variant.
"""

import re
import weakref
from dataclasses import dataclass, field
from functools import lru_cache

from hybrid.common.sentences import without_run_in_headings
from hybrid.data.roles import FAMILIES
from hybrid.fidelity.foreign_facts import BOILERPLATE_TERMS
from hybrid.precedents.fit import STANDARD_SOURCES
from hybrid.precedents.generic_uses import lower_uses
from hybrid.precedents.library import MARKER_RE, Precedent, letter_words

__all__ = [
    "head_terms",
    "defined_heads",
    "DEFINITION_CANDIDATES",
    "GENERIC_TERMS",
    "MAX_WORDS",
    "MAX_ENTRY_WORDS",
    "ComposedPrecedent",
    "entries",
    "keep_terms",
    "compose",
    "used_terms",
    "term_entries",
    "pick_entries",
    "inline_definitions",
]

# the foreign-facts check and the fact guard count their words as generic contract words
GENERIC_TERMS = BOILERPLATE_TERMS
DEFINITION_CANDIDATES = 8  # ranked definitions precedents a variant composes from (variant v > 0: its seeded draw of 8)
MAX_WORDS = 180  # the composed body (a Definitions span's budget is 256 tokens)
MAX_ENTRY_WORDS = 90  # one entry; a longer one is cut after its last full sentence or clause within this many words

_QUOTES = '"“”'
_TERM = r"[\"“]([A-Z][^\"“”\n]{0,48}[A-Za-z0-9])[\"”]"  # a quoted capitalized term
# '(the "X")', 'of any Person', 'shall'
_QUALIFIER = r"\s*(?:\([^)\n]{0,80}\)\s*)?(?:of [A-Za-z ]{1,30})?\s*(?:shall\s+)?"
_DEFINES = r"(?:means?|refers? to|includes?)\b"
# an entry opens a paragraph (after its list number) or follows a sentence's end, with a quoted term and a defining
# verb, or a cross-reference ("has the meaning set forth in ..."), which compose leaves out
_ENTRY = re.compile(
    r"(?:^|(?<=[.;:]\s)|(?<=[.;:]\s\s))\s*(?:\(?[a-z0-9]{1,4}[.)]\s*|\d+(?:\.\d+)*\.?\s+)?"
    rf"({_TERM}){_QUALIFIER}(?:{_DEFINES}|has the meaning\b|have the meaning\b|shall have\b)"
)
_HEAD = re.compile(rf"{_TERM}(?={_QUALIFIER}{_DEFINES})")  # a term a definition defines, wherever it stands
_TRAILING_NUMBER = re.compile(r"(?:(?:^|\s)(?:\(?[a-z0-9]{1,4}\)|\d+(?:\.\d+)*\.?|[a-z]\.))+\s*$")
_TRAILING_JOIN = re.compile(r"[\s;,:]*(?:\b(?:and|or)\b)?[\s;,:]*$")
_CROSS_REFERENCE = re.compile(
    r"^.{0,80}?\b(?:has|have|shall have) the meanings?\b"
)  # "... has the meaning set forth in Section 4"
_LEAD = re.compile(
    r"\b(?:mean|defin|used in|purposes)", re.I
)  # a lead-in says what follows ("... shall have the meanings ...")
_PREAMBLE_TERM = re.compile(r"[\"“]([^\"“”]{1,60})[\"”]")
# a capitalized phrase after a lower-case word: "any Third Party", "the Term", "under each Purchase Order"
_MID_USE = re.compile(r"\b[a-z][a-z']*[ ,(]+((?:[A-Z][A-Za-z'-]*)(?: (?:of |and |or |the )?[A-Z][A-Za-z'-]*){0,4})")
# an entry that points into its own contract ("as set forth in Section 4.2", "listed in Exhibit A") or keeps a blank
_POINTS = re.compile(
    r"\b(?:Sections?|Articles?|Exhibits?|Schedules?|Appendix|Appendices|Annex(?:es)?|Attachments?)\b"
    r"|\b(?:clause|section|paragraph|article)s? \(?\d|\[(?:___|\*\*\*)\]"
)
# terms that name a deal's own subject, scope, period, document or party: another deal's entry would make the deal's
# terms up ('"Territory" shall mean the world', '"Initial Term" shall mean the period set forth on the first page')
_DEAL_OWN = frozenset(
    "territory, product, products, service, services, software, marks, documentation, specifications, content, site, "
    "term, initial term, renewal term, contract year, order, purchase order".split(", ")
) | frozenset(w.lower() for words in FAMILIES.values() for w in words)
# an entry that leaves its meaning to its own contract's layout or to later drafting, or stops on a dangling word
_UNFINISHED = re.compile(
    r"\[|\b(?:first|cover|signature) page\b|\bidentified as\b"
    r"|\b(?:to|which|of|the|a|an|and|or|with|for|by|that|in|as applicable)\W*$",
    re.I,
)
_WEEKDAYS = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
_INDEX: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_PAREN_TERMS = re.compile(r"\(([^()\n]{0,160})\)")
_PAREN_LEAD = re.compile(
    r"^\s*(?:(?:the|a|an|each|collectively|together|individually|jointly|severally|hereinafter|herein|"
    r"referred|to|as|called|and|such)\b,?\s*){0,5}$"
)  # '(the "X")', '(each a "X")', '(collectively, the "X")'
_QUOTED = re.compile(r"[\"“]([A-Z][^\"“”\n]{0,58})[\"”]")
# a term named by a verb, outside parentheses: 'a Party receiving it is the "Receiving Party"', '(hereinafter
# referred to as "Licensor")'
_NAMED = re.compile(
    r"\b(?:is|are|hereinafter(?: referred to as| called)?|(?:shall be )?referred to as|called)\s+(?:the\s+|a\s+|an\s+)?"
    r"[\"“]([A-Z][^\"“”\n]{0,58})[\"”]"
)


@dataclass
class ComposedPrecedent(Precedent):
    """A Precedent whose body was composed from others' entries; `sources` are those, in the order they first gave
    one."""

    sources: list = field(default_factory=list)

    def citations(self) -> list[dict]:
        return [p.provenance() for p in self.sources]


def entries(body: str) -> tuple[str, list[tuple[str, str]]]:
    """(lead-in, [(term, entry text)]) of a definitions body. An entry runs from its quoted term to the
    next entry or the end of its paragraph (a line), its trailing list numbering and joining "; and"
    dropped; the lead-in is the first paragraph before the first entry. No entry found: (body, [])."""
    out, lead = [], None
    for para in body.split("\n"):
        found = list(_ENTRY.finditer(para))
        if not found:
            if lead is None and not out and para.strip():
                lead = para.strip()
            continue
        if lead is None and not out and para[: found[0].start()].strip():
            lead = para[: found[0].start()].strip()
        for m, nxt in zip(found, found[1:] + [None]):
            text = para[m.start(1) : nxt.start() if nxt else len(para)]
            text = _TRAILING_JOIN.sub("", _TRAILING_NUMBER.sub("", text.rstrip())).strip()
            out.append((m.group(2).strip(), text))
    return (body, []) if not out else (lead or "", out)


def _cut(text: str, max_words: int = MAX_ENTRY_WORDS) -> str:
    """text ending with a full stop; longer than max_words: cut after its last '.' or ';' within them."""
    words = text.split()
    if len(words) > max_words:
        head = " ".join(words[:max_words])
        end = max(head.rfind("."), head.rfind(";"))
        text = head[:end] if end > len(head) // 3 else head
    text = _TRAILING_JOIN.sub("", text.rstrip(" .;,:"))
    return text + "."


def head_terms(text: str) -> list[tuple[int, int, str]]:
    """(start, end, term) of every quoted term that opens a definition ('"Affiliate" means'), quotes included."""
    return [(m.start(), m.end(), m.group(1)) for m in _HEAD.finditer(text)]


def defined_heads(text: str, allowed: str) -> list[tuple[int, int]]:
    """Character spans of the quoted terms that open a definition ('"Affiliate" means') and that the deal's
    text (`allowed`) uses or GENERIC_TERMS holds: an edited precedent keeps them as written (a rewritten
    head turned "Governmental Authority" into "Software"), quotes included."""
    low, generic = allowed.lower(), {t.lower() for t in GENERIC_TERMS}
    return [(a, b) for a, b, term in head_terms(text) if term.lower() in generic or term.lower() in low]


def keep_terms(defined_terms, preamble: str) -> set[str]:
    """The terms a draft's Definitions may define (lower-cased): its template's defined terms the preamble does
    not define (in quotes there), and GENERIC_TERMS."""
    in_preamble = {t.strip().lower() for t in _PREAMBLE_TERM.findall(preamble)}
    own = {t.strip().lower() for t in defined_terms} - in_preamble
    return own | {t.lower() for t in GENERIC_TERMS}


def _good_lead(intro: str) -> bool:
    """Whether a definitions body's lead-in can open ours: short, saying what follows, quoting no term."""
    short = bool(intro) and len(intro.split()) <= 30
    return short and bool(_LEAD.search(intro)) and not any(q in intro for q in _QUOTES)


def compose(
    candidates, keep: set[str], max_words: int = MAX_WORDS, extra=None, wanted=()
) -> "ComposedPrecedent | None":
    """One body from the ranked candidates' entries whose term is in `keep` (lower-cased) and that define it
    (not "has the meaning set forth in Section 4" of the source), and from `extra` ({term lower-cased:
    (precedent, entry text)}: pick_entries): each term once, in alphabetical order. Taken in this order while
    they fit in max_words words: the candidates' entries of the terms in `wanted` (lower-cased: those the draft
    uses), each from the best candidate that defines it; then `extra`'s, in its order; then the candidates'
    entries of the other kept terms. An entry holding a fact of the source deal (a marker: MARKER_RE) is left
    out. The lead-in is that of the first candidate that gives an entry, where it is short, says what follows
    and quotes nothing (else of the first candidate that has such a lead-in, which is then cited too); every
    precedent that gives something is cited. None: nothing to define."""
    offers = []  # (pass, candidate rank, key, text, precedent)
    for rank, p in enumerate(candidates):
        if p is None:
            continue
        for term, text in entries(p.body)[1]:
            key = term.lower()
            # the source's own sections, not ours; "over [PERCENT] of the capital stock": the source deal's facts
            if key in keep and not _CROSS_REFERENCE.match(text) and not MARKER_RE.search(text):
                offers.append((0 if key in wanted else 2, rank, key, _cut(text), p))
    offers += [(1, rank, key, text, p) for rank, (key, (p, text)) in enumerate((extra or {}).items())]
    chosen, used, sources, lead, words = [], set(), [], "", 0
    for _, _, key, text, p in sorted(offers, key=lambda o: o[:2]):
        n = len(text.split())
        if key in used or words + n > max_words:
            continue
        chosen.append((key, text))
        used.add(key)
        words += n
        if p not in sources:
            sources.append(p)
    giver = next((p for p in candidates if p is not None and p in sources), None)  # the best candidate that gave
    lead = entries(giver.body)[0] if giver is not None else ""
    lead = lead if _good_lead(lead) else ""
    if not chosen:
        return None
    if not lead:  # a lead-in from another candidate, as contracts open their definitions ("As used in ...:")
        leads = ((p, entries(p.body)[0]) for p in candidates if p is not None)
        p, lead = next(((p, intro) for p, intro in leads if _good_lead(intro)), (None, ""))
        if p is not None:
            sources.append(p)
    first = sources[0]
    # alphabetical, as contracts list them
    body = "\n\n".join(([lead] if lead else []) + [text for _, text in sorted(chosen)])
    facts = list(dict.fromkeys(f for p in sources for f in p.facts))
    return ComposedPrecedent(
        id="composed:" + "+".join(p.id for p in sources),
        doc_id=first.doc_id,
        source=first.source,
        license=first.license,
        doc_type=first.doc_type,
        clause_type=first.clause_type,
        heading=first.heading,
        body=body,
        facts=facts,
        sources=sources,
    )


def inline_definitions(text: str) -> set[str]:
    """The terms text defines outside a list of entries: '"Confidential Information" means' anywhere, a term
    a verb names ('... is the "Receiving Party"', 'hereinafter "Licensee"'), and the quoted terms of a defining
    parenthetical ('(the "Effective Date")', '(each a "Party")',
    '(collectively, the "Products")'). Case-sensitive, as written."""
    terms = {t for _, _, t in head_terms(text)} | set(_NAMED.findall(text))
    for m in _PAREN_TERMS.finditer(text):
        inner = m.group(1)
        first = _QUOTED.search(inner)
        if first and _PAREN_LEAD.match(inner[: first.start()]):
            terms |= set(_QUOTED.findall(inner))
    return terms


def term_entries(library) -> dict[str, list[tuple[Precedent, str]]]:
    """{term as written: [(precedent, entry text)]} over the library's Definitions precedents, in library order
    (cached per library)."""
    if library not in _INDEX:
        index: dict[str, list] = {}
        for p in library.of_type("definitions"):
            for term, text in entries(p.body)[1]:
                index.setdefault(term, []).append((p, text))
        _INDEX[library] = index
    return _INDEX[library]


def _singular(phrase: str, vocab) -> str:
    """The index's singular of a plural phrase ("Third Parties" -> "Third Party", "Affiliates" -> "Affiliate"), else
    "" """
    for tail, stem in (("ies", "y"), ("s", "")):
        if phrase.endswith(tail) and phrase[: -len(tail)] + stem in vocab:
            return phrase[: -len(tail)] + stem
    return ""


def used_terms(texts, vocab, defined=()) -> dict[str, int]:
    """{term: uses} of the terms in `vocab` that `texts` use mid-sentence (after a lower-case word: "any Third
    Party", "the Term"; not a heading or a sentence's first word), the longest such prefix of each capitalized
    phrase, a plural counted as its singular where that is in vocab ("the Affiliates", "Third Parties"); less the
    terms in `defined` (lower-cased) and their singular or plural ("Product" where the deal defines "Products").
    A boilerplate term written in lower case ("any third party": hybrid.precedents.generic_uses) counts as a use:
    the consistency pass writes it with capitals where the Definitions keep it."""
    gone = {t.lower() for t in defined}
    gone |= {t[:-1] for t in gone if t.endswith("s")} | {t + "s" for t in gone} | {t[:-1] + "ies" for t in gone}
    out: dict[str, int] = {}
    for text in texts:
        for m in _MID_USE.finditer(without_run_in_headings(text)):  # a run-in heading ("Required by Law.") uses none
            words = m.group(1).split(" ")
            for k in range(len(words), 0, -1):
                phrase = " ".join(words[:k])
                term = _singular(phrase, vocab) or (phrase if phrase in vocab else "")
                if term:
                    if term.lower() not in gone:
                        out[term] = out.get(term, 0) + 1
                    break
    for term, n in lower_uses(texts).items():
        if term in vocab and term.lower() not in gone:
            out[term] = out.get(term, 0) + n
    return out


def _named(text: str) -> set[str]:
    """The capitalized phrases text writes mid-sentence, and the terms it quotes as defined ("where "control"
    means")."""
    return {m.group(1) for m in _MID_USE.finditer(text)} | set(_HEAD.findall(text))


@lru_cache(maxsize=4096)
def _typical(texts: tuple[str, ...]) -> list[float]:
    """Per text, its mean word-set overlap (Jaccard) with the others: how close it is to what the others say."""
    sets = [set(letter_words(t.lower())) for t in texts]
    out = []
    for i, a in enumerate(sets):
        sims = [len(a & b) / max(len(a | b), 1) for j, b in enumerate(sets) if j != i]
        out.append(sum(sims) / len(sims) if sims else 0.0)
    return out


def pick_entries(terms, index, foreign, known, doc_types=()) -> dict[str, tuple[Precedent, str]]:
    """{term lower-cased: (precedent, entry text)}: for each term (most used first), the library entry that
    defines it fully and generally: no fact of its source deal (a marker), no pointer into its own contract
    (a section, clause, exhibit, schedule or page), no blank or bracket, no cross-reference, no dangling end
    ("a Third Party to which, as applicable"), no party "identified as" itself, no capitalized phrase but its own
    term (or its plural), the `known` ones (lower-cased: kept, used or the deal's) and the days of the week, and
    nothing of another deal (`foreign(text)` 0: its topic's words, places, names). Of those: standard forms first,
    then the entry closest to what the library's other entries of the term say (a term's usual sense, not one
    deal's: "Order" as a purchase order, not a court's), then the template's doc types, then the shortest.
    A term no entry defines so, whose singular or plural was picked, or that names what only the deal can say
    (_DEAL_OWN: its territory, products, services, term, orders, a party's role) is left out."""
    out = {}
    for term in sorted(terms, key=lambda t: (-terms[t], t)):
        if {term.lower(), term.lower() + "s", term.lower().rstrip("s")} & (set(out) | _DEAL_OWN):
            continue
        given = index.get(term, [])
        typical = _typical(tuple(text for _, text in given))  # the same for every draft: cached
        best = None
        for (p, text), usual in zip(given, typical):
            if (
                MARKER_RE.search(text)
                or _POINTS.search(text)
                or _CROSS_REFERENCE.match(text)
                or _UNFINISHED.search(text)
            ):
                continue
            text = _cut(text)
            if len(text.split()) > MAX_ENTRY_WORDS or foreign(text):
                continue
            if any(
                _singular(t, {term}) != term != t and t.lower() not in known and t not in _WEEKDAYS
                for t in _named(text)
            ):
                continue
            rank = (p.source not in STANDARD_SOURCES, -round(usual, 2), p.doc_type.upper() not in doc_types, len(text))
            if best is None or rank < best[0]:
                best = (rank, p, text)
        if best is not None:
            out[term.lower()] = (best[1], best[2])
    return out
