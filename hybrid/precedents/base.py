"""The one whole document a variant starts from: a base of the template's kind, as a lawyer picks one.

Owns: `Base` (a train-split document of the library as its sections in order, with why it was chosen) and
`choose_bases` (the bases of a template for a deal, best first). Knows nothing of tokens, models or skeletons:
hybrid.skeleton.from_base turns a base into what the filler edits.

A lawyer drafts from one good document of the deal's kind and adapts it; sections assembled from unrelated deals
read as another deal's clauses, contradictions and reversed roles (DESIGN.md, "Drafting from precedent"). The order
of choice:
1. a standard form of the kind (Common Paper, Bonterms) that is whole (a cover page alone is not a base);
2. otherwise the train-split contracts of the template's kinds (its doc type and grounding doc types), by how well
   they fit the deal: the clauses real contracts of the kind hold (completeness: hybrid.precedents.checklist),
   the deal's subject matter (what it is about beside what the deal's fields say: MiniLM over its subject phrases,
   `subject_profile`, counted from a floor only: MEANING_FLOOR whole, PHRASE_FLOOR phrase by phrase; and BM25 of
   the deal's own words over the document), how little of it is tied to another deal (its replaced facts and
   redactions per 100 words, and another deal's subject matter per 1,000 words: hybrid.fidelity.foreign_subject),
   how much of it is written as contracts for any deal are (hybrid.precedents.typicality) and a length a lawyer
   would start from (within the kind's own: `_longest`);
3. for a kind the corpus lacks, the documents of any kind by the same measures, each marked `nearest`.
A document written for a person (a role defined as "the individual") is no base where every party is a company,
while another of its rank (form or contract) is left.

Held-out data stays out: the library holds the train split only (hybrid.precedents.library).
"""

import math
import re
import weakref
from dataclasses import dataclass, field

from hybrid.data.clean import REDACTION_RE
from hybrid.precedents.fit import POLICY_SOURCES, STANDARD_SOURCES
from hybrid.precedents.library import MARKER_RE, letter_words

__all__ = ["Base", "choose_bases", "documents", "kinds_of", "kind_phrases", "subject_profile", "person_document",
           "between_companies", "MIN_FORM_WORDS", "MAX_BASE_WORDS"]

MIN_FORM_WORDS = 600  # a standard form shorter than this is its cover page, not the agreement's terms
MIN_BASE_WORDS = 400  # a contract shorter than this is an amendment, a letter or an exhibit
MAX_BASE_WORDS = 16000  # longer ones are mostly exhibits and schedules (unless the kind's run longer: _longest)
# weights of a contract's fit (each part in [0, 1]): clauses a lawyer expects first, then the deal's subject
# The meaning of the deal's subject weighs most after completeness: a word match took an air-purifier franchise
# (BM25 1.0: "County", "retail") for a bakery cafe over a fast-food one, mining rigs for ultrasound scanners.
# A base written as any contract of its kind is written carries less of its deal (hybrid.precedents.typicality): a
# master supply agreement read B where a vehicle maker's manufacturing agreement read C (session 35).
W_COMPLETE, W_SUBJECT, W_MEANING, W_TIED, W_FOREIGN, W_LENGTH, W_TYPICAL = 2.0, 0.5, 3.0, 1.0, 1.5, 0.5, 3.0
PROFILE_PHRASES = 25  # the subject phrases that say what a document is about (subject_profile)
# The MiniLM cosine of a document's subject profile to the deal's subject from which it shares the deal's subject
# at all, and the span over which it comes to share it wholly. Calibrated on the train split: a distributor of
# cryptocurrency mining rigs finds the mining-rig reseller agreement at 0.47, of linear accelerators for radiation
# oncology the accelerator maker's at 0.35; unrelated subjects stay under it (plastic containers against a vehicle
# maker's agreement 0.26, ultrasound scanners against an energy distributor's 0.27, a solar venture against every
# joint venture of the split at most 0.13). Scaled against the pool instead, as before, the nearest of unrelated
# documents took all of W_MEANING, and chose the vehicle maker's agreement for plastic containers; from a floor of
# 0.2 the energy distributor's still came first for ultrasound scanners, where a blind reader preferred a medical
# device distributor's agreement (seed 457, session 35).
MEANING_FLOOR, MEANING_SPAN = 0.28, 0.06
# The same cosine phrase by phrase: the mean of a profile's PHRASE_TOP phrases nearest the deal's subject, from
# PHRASE_FLOOR over PHRASE_SPAN. A profile joined whole reads as its boilerplate where the subject is one of many
# phrases: a bakery cafe found no franchise at 0.28 (the fast-food restaurant's 0.26, the air purifiers' 0.15) and
# took the air-purifier reseller franchise on word matches; phrase by phrase the restaurants' "franchised
# restaurant", "restaurant manager" reach 0.42 where the air purifiers' nearest stay at 0.27 (session 38). The
# unrelated subjects above stay under it: a solar venture's nearest farming venture 0.27, ultrasound scanners'
# energy distributor 0.17, plastic containers' vehicle maker 0.27.
PHRASE_TOP, PHRASE_FLOOR, PHRASE_SPAN = 3, 0.33, 0.08
TYPICAL_POOL = 8  # the contracts, best fit first without it, whose typicality is measured (one embedding a sentence)
TIED_SCALE = 4.0  # replaced facts and redactions per 100 words at which a document counts as wholly tied
# another deal's subject matter per 1,000 words at which a document counts as wholly another deal's (a pharma
# supply agreement's "clinical trial material", "US DMF": hybrid.fidelity.foreign_subject)
FOREIGN_SCALE = 25.0
_STOP = frozenset(
    "the a an and or of to in for on by with as at from per under this that any each its it be is are shall "
    "agreement party parties e g i".split()
)


@dataclass
class Base:
    """A whole document a variant starts from: its sections (library Precedents, in the document's order)."""

    doc_id: str
    doc_type: str
    source: str
    sections: list
    kind: str  # "form" (a standard form of the kind), "precedent" (a contract of the kind), "nearest" (another kind)
    score: float = 0.0
    parts: dict = field(default_factory=dict)  # the fit's parts: completeness, subject, tied, length

    @property
    def words(self) -> int:
        return sum(len(p.body.split()) for p in self.sections)

    def summary(self) -> dict:
        """What drafts.json says of the base: which document, of which kind, and why it was chosen."""
        return {
            "doc_id": self.doc_id,
            "doc_type": self.doc_type,
            "source": self.source,
            "license": self.sections[0].license if self.sections else "",
            "kind": self.kind,
            "words": self.words,
            "sections": len(self.sections),
            "score": round(self.score, 4),
            "parts": {k: round(v, 4) for k, v in self.parts.items()},
        }


_DOCS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # library -> {doc id: [Precedent] in order}


def documents(library) -> dict[str, list]:
    """{doc id: its sections (Precedents) in library order}: each train document as the library holds it."""
    docs = _DOCS.get(library)
    if docs is None:
        docs = {}
        for p in library.precedents:
            docs.setdefault(p.doc_id, []).append(p)
        _DOCS[library] = docs
    return docs


def kinds_of(template) -> set[str]:
    """The doc types (upper case) of the template's kind: its own, its grounding's, and the standard forms of a
    neighbouring kind its grounding names as what a lawyer would start from where the corpus holds no form of its
    own kind (grounding "forms": a hosting deal from the cloud service agreement with a service level)."""
    named = [template.doc_type, *template.grounding.get("doc_types", []), *template.grounding.get("forms", [])]
    return {d.upper() for d in named}


def kind_phrases(template) -> frozenset[str]:
    """The phrases of the template's kind's own language (hybrid.fidelity.foreign_subject.kind_vocabulary over
    kinds_of): a joint venture's "capital account" is no other deal's subject matter in a joint venture."""
    from hybrid.fidelity.foreign_subject import kind_vocabulary

    return kind_vocabulary(kinds_of(template))


def _tied(sections) -> float:
    """Replaced facts and redactions per 100 words, scaled to [0, 1]: how much of the document is another deal."""
    words = sum(len(p.body.split()) for p in sections) or 1
    marks = sum(len(MARKER_RE.findall(p.body)) + len(REDACTION_RE.findall(p.body)) for p in sections)
    return min(1.0, 100.0 * marks / words / TIED_SCALE)


def _length(words: int, target: int) -> float:
    """1 at the kind's median length, falling off by the log ratio either way (0 at 4x or 1/4x)."""
    if words <= 0 or target <= 0:
        return 0.0
    return max(0.0, 1.0 - abs(math.log(words / target)) / math.log(4))


def _query(values: dict, template) -> list[str]:
    """The deal's own subject words: its field values less party names, dates and stop words."""
    skip = {"party_a", "party_b", "effective_date"}
    text = " ".join(str(v) for k, v in values.items() if k not in skip and isinstance(v, str))
    return [w for w in letter_words(text) if w not in _STOP and len(w) > 2]


def _coverage(template, sections) -> float:
    """The share of the kind's checklist the sections hold (hybrid.precedents.checklist.market_check)."""
    from hybrid.precedents.checklist import market_check

    rows = [{"heading": p.heading, "clause": p.clause_type, "body": p.body} for p in sections]
    return market_check(template, rows)["coverage"]


def _subject_fields(values: dict, template) -> list[str]:
    """The deal's subject as the template's subject fields state it (x-subject: "the Vireo line of portable
    ultrasound scanners"), or, where none is marked, every free-text field but the parties' names. A price or
    delivery term ("FCA Supplier's facility") says nothing of what a deal is about and drowned the products: an
    electronics manufacturer's "contract price" and "shipping" came nearest to plastic containers."""
    props = template.fields.get("properties", {})
    free = {k: spec for k, spec in props.items() if k not in ("party_a", "party_b")
            and spec.get("x-kind", "text") == "text" and isinstance(values.get(k), str) and values[k].strip()}
    marked = [k for k, spec in free.items() if spec.get("x-subject")]
    return [values[k] for k in marked or free]


_PROFILES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # library -> {doc id: profile}


def subject_profile(library, doc_id: str, sections, index) -> str:
    """What a document is about, as the PROFILE_PHRASES subject phrases it writes most (at least twice each:
    hybrid.fidelity.foreign_subject, the phrases few contracts hold and those that do repeat), joined by "; "
    ("cryptocurrency mining rig; wafer number; ..."). Memoized per library and document."""
    from hybrid.fidelity.foreign_subject import phrases

    memo = _PROFILES.setdefault(library, {})
    if doc_id not in memo:
        counts = phrases("\n".join(p.body for p in sections))
        subject = sorted(((-c, k) for k, c in counts.items() if c >= 2 and index.subject(k.split())))
        memo[doc_id] = "; ".join(k for _, k in subject[:PROFILE_PHRASES])
    return memo[doc_id]


def _embedder(library):
    """The library's relevance scorer's embeddings (cached on disk per text), else MiniLM's through such a cache."""
    from hybrid.precedents.embeddings import EmbeddingCache, minilm_encoder

    return getattr(getattr(library, "relevance", None), "embed", None) or EmbeddingCache(minilm_encoder())


def _meaning(library, pool, values: dict, template, index, embed) -> list[float]:
    """Per document of pool, how much what it is about (subject_profile) is the deal's subject: the MiniLM cosine of
    its profile to each of the deal's subject fields, averaged over the fields, from MEANING_FLOOR (0) over
    MEANING_SPAN (1), or, where more, of its PHRASE_TOP nearest phrases from PHRASE_FLOOR over PHRASE_SPAN. All 0.0
    where the deal states no subject; 0.0 for a document without a profile. A whole document's embedding reads as
    its boilerplate; its rare, repeated phrases are what only its deal has."""
    from hybrid.precedents.embeddings import unit_rows

    fields = _subject_fields(values, template)
    profiles = [subject_profile(library, doc_id, ps, index) for doc_id, ps in pool]
    if not fields or not any(profiles):
        return [0.0] * len(pool)
    subject = unit_rows(embed(fields))
    raw = (unit_rows(embed([p or "-" for p in profiles])) @ subject.T).mean(axis=1)
    phrases = [p.split("; ") if p else [] for p in profiles]
    near_all = (unit_rows(embed([x for ps in phrases for x in ps])) @ subject.T).mean(axis=1)  # one batch for all
    out, at = [], 0
    for whole, ps in zip(raw, phrases):
        near, at = sorted(near_all[at : at + len(ps)], reverse=True)[:PHRASE_TOP], at + len(ps)
        phrase = sum(float(c) for c in near) / len(near) if near else 0.0
        out.append(min(1.0, max(0.0, (float(whole) - MEANING_FLOOR) / MEANING_SPAN,
                                (phrase - PHRASE_FLOOR) / PHRASE_SPAN)) if ps else 0.0)
    return out


# "“Contractor” means the individual providing Services": a role the document writes for a person
_FOR_PERSON = re.compile(r"[\"“][A-Z][\w ]{1,30}[\"”] means (?:the|an|a) (?:individual|natural person)\b")
_PRONOUN = re.compile(r"\b(?:she|he|her|him|his|herself|himself)\b", re.I)  # a party who is a person
_EITHER = re.compile(r"\b(?:he|she|his|her|him|himself|herself)\s*(?:or|/)\s*(?:he|she|his|her|him|himself|herself)\b",
                     re.I)  # "his or her": an employee or officer of either party, no party's own
# personal pronouns per 1,000 words from which a document is written for a person: the train split's endorsement
# agreements run 3.4-7.7 ("her own honest opinions", "she is a bona fide user"), an executive's service agreement
# 15.1; its supply and distribution agreements between companies at most 0.7
PERSON_PRONOUNS = 1.5


def for_a_person(sections) -> bool:
    """The document defines a party's role as a person (Common Paper's contractor form: its payroll-tax and
    employee-benefit terms and one-way protections are written for an individual), or speaks of one as "she" or
    "he" (PERSON_PRONOUNS: an endorsement agreement with a golfer)."""
    if any(_FOR_PERSON.search(p.body) for p in sections):
        return True
    text = _EITHER.sub(" ", "\n".join(p.body for p in sections))
    return 1000 * len(_PRONOUN.findall(text)) >= PERSON_PRONOUNS * max(1, len(text.split()))


_PERSONS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # library -> {doc id: for_a_person}


def person_document(library, doc_id: str) -> bool:
    """for_a_person of one library document, memoized per library."""
    memo = _PERSONS.setdefault(library, {})
    if doc_id not in memo:
        memo[doc_id] = for_a_person(documents(library).get(doc_id, []))
    return memo[doc_id]


def between_companies(values: dict) -> bool:
    """Every party of the deal is a company (is_entity of its legal name)."""
    names = [values.get(k) for k in ("party_a", "party_b")]
    return all(isinstance(n, str) and is_entity(n) for n in names)


def is_entity(name: str) -> bool:
    """The legal name is a company's ("Lumen Advisory Partners LLC", "Cobalt Manufacturing Co."), not a person's."""
    from hybrid.data.facts import COMPANY_SUFFIX_RE

    return bool(COMPANY_SUFFIX_RE.search(name.strip()))


def _unfit_for_companies(library, pool, values: dict) -> list:
    """pool less the documents written for a person where every party of the deal is a company (a consulting firm
    took the individual contractor form: "not eligible for ... any employee benefit"), unless none is left."""
    if not between_companies(values):
        return pool
    kept = [(d, ps) for d, ps in pool if not person_document(library, d)]
    return kept or pool


def _foreign(sections, deal_text: str, index, kind: frozenset) -> float:
    """Another deal's subject matter per 1,000 words, scaled to [0, 1] (hybrid.fidelity.foreign_subject; the
    kind's own phrases, kind_phrases, are none)."""
    from hybrid.fidelity.foreign_subject import foreign_subject_rate

    text = "\n".join(p.body for p in sections)
    return min(1.0, foreign_subject_rate(text, deal_text, index, kind=kind) / FOREIGN_SCALE)


def _longest(sizes) -> int:
    """The most words a contract base may hold: MAX_BASE_WORDS, or, for a kind whose contracts run longer, the
    upper quartile of its own documents' lengths (`sizes`, in words). A franchise agreement runs to 18,000 words
    without an exhibit (a restaurant franchisor's, the one whole restaurant franchise a bakery cafe could start
    from); at 16,000 for every kind, a bakery cafe took the air-purifier reseller franchise (session 38)."""
    lengths = sorted(sizes)
    return max(MAX_BASE_WORDS, lengths[(3 * len(lengths)) // 4] if lengths else 0)


def choose_bases(library, template, values: dict, check=None, pageable=None) -> list[Base]:
    """The bases a draft of `template` for the deal `values` may start from, best first (see the module
    docstring): whole standard forms of the kind, then contracts of the kind by fit, or, where the library holds
    none of the kind, contracts of any kind marked "nearest". Deterministic for a library, template and deal.
    check(): called before each document is scored (a stream's cancel point: hybrid.draft.streaming.cancel_check).
    pageable(sections): whether the filler can page every section (hybrid.draft.base_stage.pageable: a 21,000-word
    "General Terms" runs past the model's positions); a document it refuses is no base. None: every one is."""
    from rank_bm25 import BM25Okapi

    from hybrid.fidelity.foreign_facts import allowed_text
    from hybrid.fidelity.foreign_subject import load_subject_index

    deal_text = allowed_text(template, values)
    docs = documents(library)
    wanted = kinds_of(template)
    own = {d: ps for d, ps in docs.items() if ps[0].doc_type.upper() in wanted}
    kind = "precedent"
    if not any(ps[0].source not in POLICY_SOURCES for ps in own.values()):
        own, kind = {d: ps for d, ps in docs.items() if ps[0].source not in POLICY_SOURCES}, "nearest"
    forms, contracts = [], []
    size = {doc_id: sum(len(p.body.split()) for p in ps) for doc_id, ps in own.items()}  # words, counted once
    longest = _longest(size.values())
    for doc_id, ps in own.items():
        if ps[0].source in STANDARD_SOURCES:
            if size[doc_id] >= MIN_FORM_WORDS:
                forms.append((doc_id, ps))
        elif MIN_BASE_WORDS <= size[doc_id] <= longest and (pageable is None or pageable(ps)):
            contracts.append((doc_id, ps))
    forms, contracts = _unfit_for_companies(library, forms, values), _unfit_for_companies(library, contracts, values)
    pool = forms + contracts
    if not pool:
        return []
    query = _query(values, template)
    corpus = [[w for p in ps for w in letter_words(p.body)] or ["_"] for _, ps in pool]
    bm25 = BM25Okapi(corpus).get_scores(query) if query else [0.0] * len(pool)
    top = max(bm25) or 1.0
    lengths = sorted(size[doc_id] for doc_id, _ in contracts) or [MIN_FORM_WORDS * 4]
    median = lengths[len(lengths) // 2]
    index = load_subject_index()  # once: each load checks the corpus's every train file for a change
    embed = _embedder(library)  # one cache for the meaning and the typicality of this choice
    kind_words = kind_phrases(template)
    meaning = _meaning(library, pool, values, template, index, embed)
    out = []
    for i, (doc_id, ps) in enumerate(pool):
        if check is not None:
            check()
        is_form = i < len(forms)
        parts = {
            "completeness": _coverage(template, ps),
            "subject": max(0.0, bm25[i] / top),
            "meaning": meaning[i],
            "tied": _tied(ps),
            "foreign": _foreign(ps, deal_text, index, kind_words),
            "length": 1.0 if is_form else _length(size[doc_id], median),
        }
        score = (W_COMPLETE * parts["completeness"] + W_SUBJECT * parts["subject"] + W_MEANING * parts["meaning"]
                 - W_TIED * parts["tied"] - W_FOREIGN * parts["foreign"] + W_LENGTH * parts["length"])
        base_kind = "form" if is_form and kind == "precedent" else kind
        out.append(Base(doc_id, ps[0].doc_type, ps[0].source, list(ps), base_kind, score, parts))
    _typical(library, out, docs, embed, check)
    # a whole standard form of the kind comes before any contract: it was written to be reused
    out.sort(key=lambda b: (b.kind != "form", -b.score, b.doc_id))
    return out


def _typical(library, bases: list, docs: dict, embed, check=None) -> None:
    """Each base's "typical" part and its weight in the score (hybrid.precedents.typicality): measured for the
    TYPICAL_POOL contracts that fit best without it; 1.0 for a standard form (written for every deal of its kind);
    0.0 for the contracts past the pool, which it cannot lift past those measured."""
    from hybrid.precedents.typicality import typical_part, typicality

    contracts = sorted((b for b in bases if b.kind != "form"), key=lambda b: (-b.score, b.doc_id))
    measured = {b.doc_id for b in contracts[:TYPICAL_POOL]}
    for b in bases:
        if check is not None and b.doc_id in measured:
            check()
        value = 1.0 if b.kind == "form" else (
            typical_part(typicality(library, b.doc_id, b.sections, embed, docs)) if b.doc_id in measured else 0.0)
        b.parts["typical"] = value
        b.score += W_TYPICAL * value

