"""A Definitions section composed from precedents: only the definitions a draft can use.

Owns: `entries` (a definitions body cut into its lead-in and its '"Term" means ...' entries),
`keep_terms` (which terms a template's Definitions section may define), `compose` (one
precedent-like body from the kept entries of several ranked precedents, citing each source) and
`defined_heads` (the quoted terms an edited precedent keeps unmasked: hybrid.precedents.start).

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
Knows nothing of models or tokenizers; hybrid.skeleton.from_precedents calls compose per variant.
"""

import re
from dataclasses import dataclass, field

from hybrid.fidelity.foreign_facts import BOILERPLATE_TERMS
from hybrid.precedents.library import MARKER_RE, Precedent

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
]

# the foreign-facts check and the fact guard count their words as generic contract words
GENERIC_TERMS = BOILERPLATE_TERMS
DEFINITION_CANDIDATES = 8  # ranked definitions precedents a variant composes from (variant v > 0: its seeded draw of 8)
MAX_WORDS = 180  # the composed body (a Definitions span's budget is 256 tokens)
MAX_ENTRY_WORDS = 90  # one entry; a longer one is cut after its last full sentence or clause within this many words

_QUOTES = "\"“”"
_TERM = r"[\"“]([A-Z][^\"“”\n]{0,48}[A-Za-z0-9])[\"”]"  # a quoted capitalized term
# '(the "X")', 'of any Person', 'shall'
_QUALIFIER = r"\s*(?:\([^)\n]{0,80}\)\s*)?(?:of [A-Za-z ]{1,30})?\s*(?:shall\s+)?"
_DEFINES = r"(?:means?|refers? to|includes?)\b"
# an entry opens a paragraph (after its list number) or follows a sentence's end, with a quoted term and a defining
# verb, or a cross-reference ("has the meaning set forth in ..."), which compose leaves out
_ENTRY = re.compile(r"(?:^|(?<=[.;:]\s)|(?<=[.;:]\s\s))\s*(?:\(?[a-z0-9]{1,4}[.)]\s*|\d+(?:\.\d+)*\.?\s+)?"
                    rf"({_TERM}){_QUALIFIER}(?:{_DEFINES}|has the meaning\b|have the meaning\b|shall have\b)")
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


def compose(candidates, keep: set[str], max_words: int = MAX_WORDS) -> "ComposedPrecedent | None":
    """One body from the ranked candidates' entries whose term is in `keep` (lower-cased) and that define it
    (not "has the meaning set forth in Section 4" of the source): each term once,
    from the best candidate that defines it, in alphabetical order;
    the lead-in of the first candidate that gives an entry, where it is short, says what follows and quotes
    nothing (else of the first candidate that has such a lead-in, which is then cited too); an entry holding a
    fact of the source deal (a marker: MARKER_RE) is left out; at most max_words words (an entry that would pass
    it is left out). None: no candidate defines a kept term."""
    chosen, used, sources, lead, words = [], set(), [], "", 0
    for p in candidates:
        if p is None:
            continue
        intro, items = entries(p.body)
        gave = False
        for term, text in items:
            key = term.lower()
            if key not in keep or key in used or _CROSS_REFERENCE.match(text):  # the source's own sections, not ours
                continue
            if MARKER_RE.search(
                text
            ):  # "over [PERCENT] of the capital stock", "banks in [LAW]": the source deal's own facts
                continue
            text = _cut(text)
            n = len(text.split())
            if words + n > max_words:
                continue
            chosen.append((key, text))
            used.add(key)
            words += n
            gave = True
        if gave:
            sources.append(p)
            if not lead and _good_lead(intro):
                lead = intro
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
