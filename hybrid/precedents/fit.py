"""Which precedent a drafted section adapts: fit to the heading, little deal-specific content, quality.

Owns: `fit` (one precedent's FitScore for one planned section), `ranked` (a retrieved shortlist by fit),
`pick` (the precedent each variant of a section edits) and `spare` (a fair one no earlier variant used).
Knows nothing of models or tokenizers: lengths are in words, estimated against the section's token budget.

Retrieval (hybrid.precedents.library.Library.retrieve) ranks by relevance to the section's query; a lawyer
picks a precedent by more than that. A section's source must be a clause of the section's kind
(its heading says so: "Return or Destruction of Confidential Information" is not the clause a
"Confidential Information" heading asks for), with little of its own deal in it (every foreign
fact is a hole the filler must write), of good quality (standard forms, Common Paper and Bonterms,
first; public website policies are not contracts; capitals only where a clause type is
conventionally conspicuous; no exhibit- or cross-reference-laden text) and near the budget in length
(a longer one loses its tail at the sentence cut).
"""

import random
import re
import weakref
from collections import Counter
from dataclasses import dataclass

from hybrid.common.cancel import cancellable
from hybrid.common.lexicon import LEANING
from hybrid.common.sentences import cut_to_clause, sentence_boundaries
from hybrid.common.stems import stem
from hybrid.data.clean import REDACTION_RE
from hybrid.data.corpus import STANDARD_SOURCES  # standard agreements written to be reused
from hybrid.precedents.library import MARKER_RE, letter_words
from hybrid.precedents.reversed import reversed_roles  # re-exported: fit's quality reads it

__all__ = [
    "FitContext",
    "FitScore",
    "fit",
    "ranked",
    "pick",
    "spare",
    "FAIR_MARGIN",
    "heading_words",
    "other_subject",
    "STANDARD_SOURCES",
    "CONSPICUOUS",
    "GOOD_MARGIN",
    "HEADING_SLACK",
    "topic_words",
    "common_words",
    "topic_counter",
    "doc_type_vocabulary",
    "reversed_roles",
    "without_hollow",
]

POLICY_SOURCES = frozenset({"github-site-policy", "basecamp-policies"})  # website policies: not bilateral contracts
CONSPICUOUS = frozenset({"warranties", "limitation_of_liability"})  # clause types that conventionally shout
# clause types whose text does not depend on the kind of deal: a standard form's version serves any contract
BOILERPLATE_CLAUSES = frozenset(
    {
        "governing_law",
        "dispute_resolution",
        "notices",
        "assignment",
        "severability",
        "entire_agreement",
        "amendment",
        "counterparts",
        "force_majeure",
        "general",
        "survival",
        "relationship",
        "publicity",
        "remedies",
    }
)
RANKED = 16  # relevance ranks that earn a bonus (the retrieval shortlist of hybrid.skeleton.from_precedents)
GOOD_MARGIN = 1.0  # precedents within this much of the best fit are good enough for a variant to adapt ...
HEADING_SLACK = 0.25  # ... when their heading is about as close to the section's as the best one's
FAIR_MARGIN = 2.0  # within this much (heading as close), fair enough for a variant that would repeat another whole
OTHER_SUBJECT = 1.0  # fit lost by a precedent whose heading shares no word with the section's
KIND_GAP = 0.15  # ranked leaves out a clause whose kind is this far below the best a heading-matching one has
ABSENT_COST = 1.5  # fit lost per phrase presupposing a clause the draft lacks (hybrid.common.topics), up to two
FIRST_PERSON_COST = 1.5  # fit lost by a clause written in the first or second person ("signed by both of us")
KIND_WEIGHT = 4.0  # fit per unit of cosine to the template's own kind of deal's clauses of the type (deal_kind)
TOPIC_SHARE = 0.003  # a word fewer than this share of the library's clauses write is another deal's topic ...
TOPIC_CAP = 12.0  # ... and a precedent loses fit by its topic words per 100 words, up to this many
TOPIC_LIMIT = 10.0  # ranked leaves out a clause with this many topic words per 100 words where another fits below it
WORDS_PER_TOKEN = 0.72  # contract English under the shipped BPE (about 4.4 bytes per token, 6 per word)
HOLLOW_SHARE = 0.35  # an edit keeping less than this share of the words a section holds of a precedent is hollow
HOLLOW_CHECK = 6  # ... asked of this many of the best fair candidates at most (each is settled once: 60 ms)
UNSTATED_LAW_COST = 2.0  # fit lost by a governing law clause that states no governing law (only the forum)
CAPS_TOKENS = 1.5  # text in capitals takes about this many times the tokens (2.1 per word against 1.4)

_WORD = re.compile(r"[a-z]+")
_HEADING_STOP = frozenset("the and of to or in a an for by on with this its".split())
_REFERENCE = re.compile(
    r"\b(?:Sections?|Articles?|Exhibits?|Schedules?|Annex(?:es)?|Appendix|Attachments?|Paragraphs?)\s+"
    r"(?:[0-9]+|[A-Z]\b|[IVX]+\b)",
    re.I,
)
# a clause that opens by leaning on text before it ("In addition, Licensor may ..."): a fragment of its source's
# clause, not a clause a section can start with
_STATES_LAW = re.compile(  # "governed by the laws of", "The law of the State of Delaware governs"
    r"\b(?:govern\w*|constru\w*|interpret\w*)\b[^.;]{0,160}?\blaws?\b|\blaws?\b[^.;]{0,160}?\bgovern", re.I
)
_FIRST_PERSON = re.compile(r"\b(?:we|us|our|ours|you|your|yours)\b|(?:^|(?<=[.;:]\s))(?:We|Our|You|Your)\b")
_FIGURE = re.compile(
    r"\[(?:DATE|AMOUNT|PERCENT|DURATION)\]"
)  # the source deal's own figures (the deal's, or a fallback phrase, stand in)


def other_subject(heading: str, precedent_heading: str) -> bool:
    """Whether a precedent's heading names another subject than the section's: both have content words and
    share none ("Non-Solicitation of Employees" under "Exclusivity")."""
    mine, theirs = heading_words(heading), heading_words(precedent_heading)
    return bool(mine and theirs and not mine & theirs)


def heading_words(heading: str) -> set[str]:
    """A heading's content words, Porter-stemmed ("Fees and Royalties" and "Continuing Fee" share "fee"): what two
    headings are compared by."""
    return {stem(w) for w in _WORD.findall(heading.lower()) if w not in _HEADING_STOP}


_TOPICS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # library -> topic_words


def topic_words(library) -> frozenset[str]:
    """The lower-case words fewer than TOPIC_SHARE of the library's clauses write ("celebrity", "groundwater",
    "doughnuts", "annuity"): what shows a clause was written for another kind of deal. Cached per library."""
    found = _TOPICS.get(library)
    if found is None:
        df = Counter()
        for p in cancellable(library.precedents):
            df.update(set(letter_words(MARKER_RE.sub(" ", p.body))))
        limit = TOPIC_SHARE * len(library.precedents)
        found = _TOPICS[library] = frozenset(w for w, c in df.items() if c < limit)
    return found


_LOWER: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # library -> common_words
_CASED_WORD = re.compile(r"[A-Za-z]+")


def common_words(library, min_count: int = 5, ratio: float = 0.25) -> frozenset[str]:
    """The words the library's clauses write in lower case at least min_count times and at least `ratio` times
    as often as with a capital ("documentation", "payment", "claims"; not "san", "francisco", "addendum"): the
    words a term of another deal may be written in lower case with (hybrid.text.settle.lower_common_names).
    Cached per library (for the default arguments)."""
    found = _LOWER.get(library) if (min_count, ratio) == (5, 0.25) else None
    if found is None:
        low, cap = Counter(), Counter()
        for p in cancellable(library.precedents):
            for w in _CASED_WORD.findall(MARKER_RE.sub(" ", p.body)):
                if w.islower():
                    low[w] += 1
                elif w[1:].islower():
                    cap[w.lower()] += 1
        found = frozenset(w for w, c in low.items() if c >= min_count and c >= ratio * cap[w])
        if (min_count, ratio) == (5, 0.25):
            _LOWER[library] = found
    return found


VOCABULARY_MIN = 100  # clauses the template's doc types need in the library for their vocabulary to judge by
_VOCAB: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # library -> {doc types: vocabulary}


def doc_type_vocabulary(library, doc_types) -> frozenset[str] | None:
    """The lower-case words the library's clauses of `doc_types` write (None when they hold fewer than
    VOCABULARY_MIN clauses): a word outside it ("cooperator", "golfers" in a supply agreement's clause) shows a
    clause written for another kind of deal, even where the word is common elsewhere ("channel", "estate")."""
    key = frozenset(d.upper() for d in doc_types)
    cache = _VOCAB.setdefault(library, {})
    if key not in cache:
        mine = [p for p in library.precedents if p.doc_type.upper() in key]
        words = set()
        for p in cancellable(mine):
            words.update(letter_words(MARKER_RE.sub(" ", p.body)))
        cache[key] = frozenset(words) if len(mine) >= VOCABULARY_MIN else None
    return cache[key]


def topic_counter(library, deal_text: str, doc_types=()):
    """text -> how many of its words are another deal's topic: topic_words, or words the clauses of the
    template's doc types never write (doc_type_vocabulary), that the deal's own text does not write."""
    deal = set(letter_words(deal_text))
    words = topic_words(library) - deal
    vocab = doc_type_vocabulary(library, doc_types) if doc_types else None
    if vocab is None:
        return lambda text: sum(w in words for w in letter_words(text))
    return lambda text: sum(w in words or (w not in vocab and w not in deal) for w in letter_words(text))


@dataclass(frozen=True)
class FitScore:
    """One precedent's fit for one section; `total` orders candidates (higher is better)."""

    heading: float  # Jaccard overlap of the section's and the precedent's heading words, in [0, 1]
    quality: float  # source (standard forms +, policies -) and capitals outside conspicuous clause types (-)
    specific: float  # deal-specific content per 100 words: references, exhibits, redactions, the source's own facts
    length: float  # how far the body is from filling the budget, in [0, 1]
    total: float
    topic: float = 0.0  # another deal's topic words per 100 words (topic_counter)
    kind: float = 0.0  # MiniLM cosine to the template's doc types' clauses of the type (0: not known)
    absent: int = 0  # phrases presupposing a clause the draft lacks (fit's absent)

    def to_dict(self) -> dict:
        keys = ("heading", "quality", "specific", "length", "topic", "kind", "total")
        return {k: round(getattr(self, k), 3) for k in keys}


@dataclass(frozen=True)
class FitContext:
    """What a draft judges every candidate of every section by (fit, ranked); None: not counted."""

    doc_types: tuple | list = ()  # the template's document types: a clause from one of them fits better
    # text -> the holes an edit of it must open (the source's own facts: hybrid.text.start.fact_holes;
    # None: the source's replaced facts are counted instead)
    holes: object = None
    topic: object = None  # text -> how many of its words are another kind of deal's (topic_counter)
    # text -> how many of its phrases presuppose a clause the draft does not have (hybrid.common.topics.absent_mentions)
    absent: object = None


def fit(p, heading: str, clause: str, budget: int, ctx: FitContext = FitContext(), rank: int | None = None,
        kind: float | None = None) -> FitScore:
    """How well precedent `p` (hybrid.precedents.library.Precedent) serves a section of type `clause` headed
    `heading` with a budget of `budget` tokens, judged by `ctx` (FitContext: a clause of the template's doc types
    fits better; the holes an edit must open count as deal-specific; another deal's topic words cost);
    rank: its place in the relevance ranking of the section's query (None: not ranked); kind: its cosine to the
    clauses of the section's type that the template's doc types write (deal_kind; None: not known), worth
    KIND_WEIGHT a unit: a supply agreement's "Term and Termination" from an NDA ("Recipient's obligations relating to
    Confidential Information will survive") or its "Obligations of the Parties" from an outsourcing agreement
    (back-up data files) reads as another kind of deal though its heading fits; each phrase presupposing a clause
    the draft does not have (ctx.absent) costs ABSENT_COST up to two ("the license hereby granted" in a supply
    agreement without a licence). A clause written in the first or second person ("signed by both of us") loses
    FIRST_PERSON_COST."""
    doc_types, holes, topic, absent = ctx.doc_types, ctx.holes, ctx.topic, ctx.absent
    mine, theirs = heading_words(heading), heading_words(p.heading)
    overlap = len(mine & theirs) / len(mine | theirs) if mine and theirs else 0.0
    room = budget * WORDS_PER_TOKEN
    words = max(len(p.body.split()), 1)
    body = " ".join(p.body.split()[: int(room) + 1])  # what a draft keeps of it (the sentence cut drops the rest)
    letters = [c for c in MARKER_RE.sub("", body) if c.isalpha()]
    caps = sum(c.isupper() for c in letters) / max(len(letters), 1)
    same_type = bool(doc_types) and p.doc_type.upper() in {d.upper() for d in doc_types}
    quality = -1.5 if p.source in POLICY_SOURCES else 0.0
    if p.source in STANDARD_SOURCES and overlap > 0 and (same_type or clause in BOILERPLATE_CLAUSES):
        quality += 1.0  # a standard form's clause, where its own deal's kind does not show through
    if caps > 0.5 and clause not in CONSPICUOUS:
        quality -= 1.0
    if same_type:
        quality += 0.5
    if other_subject(heading, p.heading):
        quality -= OTHER_SUBJECT  # headed for another subject of the type ("Non-Solicitation" under "Exclusivity")
    ends = sentence_boundaries(p.body)
    first = p.body[: ends[0]] if ends else p.body
    limit = room / CAPS_TOKENS if caps > 0.5 else room
    if len(first.split()) > limit:  # not even its first sentence fits the budget: closed before a coordinated
        # clause that fits (hybrid.common.sentences.cut_to_clause), or else the clause stops mid-sentence
        quality -= 1.0 if cut_to_clause(first, fits=lambda x: len(x.split()) <= limit) else 4.0
    if LEANING.match(p.body):
        quality -= 2.0  # it continues a sentence the draft does not have
    if rank is not None:
        quality += 0.5 * max(0.0, 1 - rank / RANKED)
    raw = " ".join(getattr(p, "precedent", p).body.split()[: int(room) + 1])  # markers still in place
    figures = len(_FIGURE.findall(raw))  # the source deal's own dates, sums and periods: fallback phrases in a draft
    own = holes(body) + figures if holes is not None else sum(body.count(f) for f in p.facts if len(f) >= 3) + figures
    specific = (
        100 * (len(_REFERENCE.findall(body)) + 2 * len(REDACTION_RE.findall(body)) + own) / max(len(body.split()), 1)
    )
    length = min(abs(words - room) / room, 1.0) if words > room else max(0.0, 1 - words / (0.4 * room))
    topical = 100 * topic(body) / max(len(body.split()), 1) if topic is not None else 0.0
    quality -= 2.0 * min(getattr(p, "reversed", 0), 2)  # its parties stand the wrong way round (reversed_roles)
    leaning = absent(body) if absent is not None else 0
    quality -= ABSENT_COST * min(leaning, 2)
    if _FIRST_PERSON.search(body):
        quality -= FIRST_PERSON_COST
    if clause == "governing_law" and not _STATES_LAW.search(body):
        quality -= UNSTATED_LAW_COST  # a forum clause under "Governing Law" that never says which law governs
    total = 2.0 * overlap + quality - 0.25 * min(specific, 8.0) - 0.5 * length - 0.25 * min(topical, TOPIC_CAP)
    total += KIND_WEIGHT * (kind or 0.0)
    return FitScore(overlap, quality, specific, length, total, topical, kind or 0.0, leaning)


def ranked(candidates, heading: str, clause: str, budget: int, ctx: FitContext = FitContext(), *, ranks=None,
           kinds=None, kept=None) -> list:
    """[(FitScore, candidate)] of every candidate (None skipped), best fit first (ties: the given order), less
    those whose kind is KIND_GAP below the best kind of a candidate whose heading shares a word with the section's
    (a standard form of the template's own doc types stays), and those with TOPIC_LIMIT topic words per 100 words
    where a candidate whose heading shares a word has fewer (a supply agreement's "Exclusivity" that is all about
    "the exclusive cooperator of Supplier's real estate and home furnishing cooperation channel"), and those
    leaning on a clause the draft lacks (fit's absent) where a candidate whose heading shares a word does not.
    ctx: as fit's; ranks: {precedent id: relevance rank}; kinds: {precedent id: fit's kind}
    (deal_kind). kept(candidate) -> the words an edit of it keeps (None: not asked): `without_hollow`."""
    doc_types = ctx.doc_types
    ranks, kinds = ranks or {}, kinds or {}
    scored = sorted(
        (
            (fit(p, heading, clause, budget, ctx, ranks.get(p.id), kinds.get(p.id)), i, p)
            for i, p in enumerate(candidates)
            if p is not None
        ),
        key=lambda x: (-x[0].total, x[1]),
    )
    near = [f.kind for f, _, p in scored if f.heading > 0 and p.id in kinds]
    if near and KIND_GAP is not None:  # another kind of deal's clause, where one reading as the template's kind fits
        floor = max(near) - KIND_GAP  # the heading as well; a standard form of the template's own kind stays
        own = {d.upper() for d in doc_types}
        scored = [
            (f, i, p)
            for f, i, p in scored
            if p.id not in kinds or f.kind >= floor or (p.source in STANDARD_SOURCES and p.doc_type.upper() in own)
        ]
    if any(f.heading > 0 and f.topic < TOPIC_LIMIT for f, _, _ in scored):
        scored = [(f, i, p) for f, i, p in scored if f.topic < TOPIC_LIMIT]
    if any(f.heading > 0 and not f.absent for f, _, _ in scored):  # nothing leaning on a clause the draft lacks
        scored = [(f, i, p) for f, i, p in scored if not f.absent]
    out = [(f, p) for f, _, p in scored]
    return without_hollow(out, kept, budget * WORDS_PER_TOKEN) if kept is not None else out


def without_hollow(scored, kept, room: float) -> list:
    """`ranked`'s list less its fair candidates (within FAIR_MARGIN of the best, HOLLOW_CHECK at most) whose edit
    keeps under HOLLOW_SHARE of the words of theirs a section of `room` words holds (kept(candidate) -> the words
    it keeps): a clause whose sentences lean on another deal's committee or documents loses them all to the
    settling, and what stays says nothing ("The parties recognize that disputes ... may arise from time to time
    during the term." as a whole Dispute Resolution section). Unchanged where each one checked is hollow."""
    if not scored:
        return scored
    best, hollow, checked = scored[0][0].total, set(), 0
    for f, p in scored[:HOLLOW_CHECK]:
        if f.total < best - FAIR_MARGIN:
            break
        checked += 1
        if kept(p) < HOLLOW_SHARE * min(len(p.body.split()), room):
            hollow.add(id(p))
    return scored if len(hollow) == checked else [(f, p) for f, p in scored if id(p) not in hollow]


def pick(scored, heading: str, clause: str, n: int, *, seed: int = 0) -> list:
    """The candidate each of n variants adapts from `ranked`'s list (None where it is empty): variant 0 the best
    fit, the others the remaining good ones (within GOOD_MARGIN of the best, their heading about as close) in a
    seeded order, cycling when there are fewer good ones than variants, so variants differ by their sources where
    they can."""
    if not scored:
        return [None] * n
    best = scored[0][0]
    good = [p for f, p in scored if f.total >= best.total - GOOD_MARGIN and f.heading >= best.heading - HEADING_SLACK]
    rest = good[1:]
    random.Random(f"{seed}:{clause}:{heading}").shuffle(rest)
    order = [good[0], *rest]
    return [order[v % len(order)] for v in range(n)]


def spare(scored, taken, key=None) -> tuple[float, object] | None:
    """(fit lost against the best, candidate) of the best candidate of `ranked`'s list not in `taken` (ids) that is
    fair (within FAIR_MARGIN of the best fit, its heading about as close): what a variant that would otherwise
    repeat an earlier variant whole adapts in one section instead (hybrid.skeleton.from_precedents.variant_draws);
    None when there is none. key(candidate): what `taken` holds of a candidate (None: its id)."""
    if not scored:
        return None
    key = key or (lambda c: c.id)
    best = scored[0][0]
    for f, p in scored:
        if f.total < best.total - FAIR_MARGIN:
            break
        if key(p) not in taken and f.heading >= best.heading - HEADING_SLACK:
            return best.total - f.total, p
    return None

