"""Drafting from precedent: a template skeleton with each span's precedents right before it.

Owns: the retrieval query of a planned section (section_query), each variant's precedents to edit
(variant_draws), the facts of a precedent's source contract (source_facts), what a draft from precedents fills
(draft_from_precedents: beside, or edited per variant), document_skeleton (a held-out document's own skeleton with a
precedent before each body, for the precedent benchmark and the evaluation), and condition(), which inserts each
span's top-k precedents (markers replaced by the deal's facts, hybrid.data.facts.adapt) into a
hybrid.templates.template.Skeleton in the layout training uses (hybrid.data.precedent_pairs.precedent_segment) and
returns their provenance per section. The deal's facts (deal_from_template) are hybrid.skeleton.deal's, re-exported.
Knows nothing of models; retrieval is hybrid.precedents.library.

Facts: the precedent the model sees always carries the deal's facts (in training the target
document's, here the user's), never markers: the small model copies far better than it maps a
marker to a fact stated elsewhere, and the same function writes them in both places. A marker
the deal does not give becomes a neutral phrase (hybrid.data.facts.FALLBACK).

Guidance: a precedent is a "heading" segment of its section, so the unconditional guidance rows
(which hide a span's own heading through the attention mask over the cached skeleton) hide the
precedent with it; the skeleton cache stays exact (skeleton tokens never see spans).
"""

import weakref
from dataclasses import dataclass, is_dataclass, replace

from hybrid.common.options import MAX_PRECEDENTS  # re-exported: the bound of an option's range
from hybrid.common.topics import absent_mentions, absent_types
from hybrid.data.facts import DealFacts, flip_parties
from hybrid.data.precedent_pairs import MAX_PRECEDENT_WORDS, precedent_segment
from hybrid.precedents.continued import continued, room_words
from hybrid.precedents.definitions import (
    DEFINITION_CANDIDATES,
    compose,
    inline_definitions,
    keep_terms,
    pick_entries,
    term_entries,
    used_terms,
)
from hybrid.precedents.fit import (
    STANDARD_SOURCES,
    FitContext,
    common_words,
    other_subject,
    pick,
    ranked,
    reversed_roles,
    spare,
    topic_counter,
)
from hybrid.skeleton.deal import clause_deal, deal_from_template  # re-exported: the deal a draft adapts to
from hybrid.text.context import StartContext
from hybrid.text.start import fact_holes, settled_start

__all__ = [
    "PrecedentDraw",
    "deal_from_template",
    "section_query",
    "condition",
    "variant_draws",
    "source_facts",
    "draft_from_precedents",
    "frame_alone",
    "FRAME_ALONE",
    "document_skeleton",
    "MAX_PRECEDENTS",
    "library_start_args",
]

def section_query(span, values: dict) -> str:
    """BM25 query of a planned section: its heading, its clause's required terms, the deal's field values."""
    return " ".join([span.heading, *span.required_terms, *(str(v) for v in values.values())])


def condition(
    skeleton,
    library,
    template,
    values: dict,
    k: int,
    *,
    seed: int = 0,
    max_words: int = MAX_PRECEDENT_WORDS,
    return_hits: bool = False,
):
    """(the skeleton with each span's k precedents before it, the same for every variant, [[provenance dict] per
    span]), and with return_hits the Precedents themselves per span as a third item."""
    deal = deal_from_template(template, values)
    hits = [
        library.retrieve(s.clause, section_query(s, values), doc_type=template.doc_type, k=k, seed=seed)
        for s in skeleton.spans
    ]
    segments, i = [], 0
    for seg in skeleton.segments:
        if seg.kind == "body":
            if hits[i]:
                segments.append(precedent_segment([p.adapted(deal, max_words) for p in hits[i]], seg.section))
            i += 1
        segments.append(seg)
    out = replace(skeleton, segments=segments), [[p.provenance() for p in h] for h in hits]
    return (*out, hits) if return_hits else out


def variant_draws(skeleton, library, template, values: dict, n: int, *, seed: int = 0) -> list[list]:
    """draws[v][s]: the precedent variant v edits in span s (hybrid.text.start), or None where the
    library has none of its clause type: v = 0 the top one (condition's first), v > 0 its own seeded
    draw among the best (hybrid.precedents.library.Library.retrieve(variant=v)), so that variants differ by
    their precedents as well as by their rewritten words; each continued by the sections after it in its source
    that hold its clause type and fit the span (hybrid.precedents.continued)."""
    out, keep = [], keep_terms(template.defined_terms, template.preamble)
    doc_types = [template.doc_type, *template.grounding.get("doc_types", [])]
    deal = deal_from_template(template, values)
    holes = lambda text: fact_holes(text, deal, skeleton.deal_text)  # noqa: E731
    topic = topic_counter(library, skeleton.deal_text, doc_types)
    lacks = absent_types([s.clause for s in skeleton.spans], skeleton.deal_text)
    absent = lambda text: len(absent_mentions(text, lacks))  # noqa: E731  leaning on a clause the draft lacks
    others = other_clauses(skeleton.spans)
    judged = FitContext(doc_types, holes, topic, absent)

    def kept(p, s, si: int) -> int:  # an unframed span's edit: the words it keeps
        own = source_facts(library, p)
        text = settled_start(p, StartContext(clause_deal(deal, s.clause), skeleton.deal_text, tuple(own),
                                             common_words(library), "", s.heading, others[si]))
        return len(text.split())

    chosen, scored = [], []
    for si, s in enumerate(skeleton.spans):
        pool, ranks = _candidates(library, s.clause, section_query(s, values), doc_types)
        kinds = library.deal_kind(s.clause, doc_types, pool)
        scored.append(
            ranked(
                [_Adapted(p, clause_deal(deal, s.clause)) for p in pool],
                s.heading,
                s.clause,
                s.budget,
                judged,
                ranks=ranks,
                kinds=kinds,
                kept=None if s.frame else (lambda p, s=s, si=si: kept(p, s, si)),
            )
        )
        chosen.append(
            [c.precedent if c is not None else None for c in pick(scored[-1], s.heading, s.clause, n, seed=seed)]
        )
    _vary_repeats(chosen, scored, skeleton.spans)
    index = term_entries(library)
    foreign = lambda text: topic(text) or holes(text)  # noqa: E731  another deal's words, in a Definitions entry
    for v in range(n):
        row = [
            continued(library, chosen[si][v], s.clause, room_words(s.budget, s.frame))
            for si, s in enumerate(skeleton.spans)
        ]
        for si, s in enumerate(skeleton.spans):
            if s.clause == "definitions":  # only the definitions this draft can use (hybrid.precedents.definitions)
                pool = library.retrieve(
                    s.clause,
                    section_query(s, values),
                    doc_type=template.doc_type,
                    k=DEFINITION_CANDIDATES,
                    seed=seed,
                    variant=v,
                )
                terms, extra = _undefined_entries(row, si, skeleton, index, keep, foreign, doc_types)
                composed = compose(pool, keep, extra=extra, wanted=terms)
                if composed is not None:
                    row[si] = composed
        out.append(row)
    return out


def _undefined_entries(row, si, skeleton, index, keep, foreign, doc_types) -> tuple[set, dict]:
    """(the terms variant `row`'s other sections use and neither they nor the deal define, lower-cased; the
    library's entries for them: hybrid.precedents.definitions.used_terms, pick_entries)."""
    bodies = [  # what the start keeps of each: about its span's room (hybrid.precedents.continued.room_words)
        " ".join(p.body.split(" ")[: room_words(s.budget, s.frame)])
        for i, (p, s) in enumerate(zip(row, skeleton.spans))
        if p is not None and i != si
    ]
    defined = inline_definitions(skeleton.deal_text + "\n" + "\n".join(bodies))
    terms = used_terms(bodies + [skeleton.deal_text], index, defined)
    known = {t.lower() for t in terms} | {t.lower() for t in defined} | keep
    return {t.lower() for t in terms}, pick_entries(terms, index, foreign, known, {d.upper() for d in doc_types})


def _vary_repeats(chosen, scored, spans) -> None:
    """In place: a variant whose precedents repeat an earlier variant's in every section (a clause type the library
    holds few good clauses of: the mutual NDA's Bonterms sections) adapts, in the one section where that costs the
    least fit, the best fair precedent no variant has adapted there yet (hybrid.precedents.fit.spare), so no two
    drafts come out the same; it stays a repeat where no section has one. chosen[s][v]: variant v's precedent in
    span s; scored[s]: span s's `ranked` list. Definitions sections are composed per variant and not varied here,
    nor counted as a difference."""
    n = len(chosen[0]) if chosen else 0
    # a Definitions span is composed per variant, and its entries may all go (an index of the draft's own terms
    # stands instead): two variants that differ there alone come out the same
    kept = [si for si, sp in enumerate(spans) if sp.clause != "definitions"]
    # by text: the corpus holds some contracts twice under two names ("CONSULTING AGREEMENT(1).txt")
    key = lambda v: tuple(_text(chosen[si][v]) for si in kept)  # noqa: E731
    for v in range(1, n):
        if key(v) not in {key(u) for u in range(v)}:
            continue
        options = []
        for si, sp in enumerate(spans):
            if sp.clause == "definitions":
                continue
            found = spare(scored[si], {_text(c) for c in chosen[si][:v]}, key=lambda c: _text(c.precedent))
            if found is not None:
                options.append((found[0], si, found[1]))
        if options:
            _, si, alt = min(options, key=lambda o: (o[0], o[1]))
            chosen[si][v] = alt.precedent


def _text(p):
    """What makes two chosen precedents the same draft text: the body (the id where there is none)."""
    return getattr(p, "body", None) or getattr(p, "id", None)


def frame_alone(span, precedent):
    """The precedent a framed span edits, or FRAME_ALONE where the best the library holds is headed for another
    subject ("Sponsor Fees" for a lease's "Rent"): the frame sentence states the deal's terms, and another kind
    of deal's clause after it would only bring that deal in (a kind of deal the corpus lacks)."""
    if precedent is None or not span.frame or getattr(precedent, "clause_type", "") == "definitions":
        return precedent
    return FRAME_ALONE if other_subject(span.heading, precedent.heading) else precedent


FRAME_ALONE = ""
"""A draw that keeps a span to its frame sentence (hybrid.text.start.starts_from_draws ends it there)."""

ROOM_MARGIN = 3  # span slots a start leaves free: the filler keeps the last one masked, and <eos> ends the span
FIT_CANDIDATES = (
    16  # retrieved candidates per section that hybrid.precedent_fit chooses from (as many again of any doc type)
)


def _candidates(library, clause: str, query: str, doc_types) -> tuple[list, dict]:
    """(the shortlist a section's precedents are chosen from, {id: relevance rank}): every clause of its type
    from the template's doc types and from the standard forms (both are few), then the most relevant
    FIT_CANDIDATES of any doc type."""
    wanted = {d.upper() for d in doc_types}
    ranked = library.retrieve(clause, query, k=FIT_CANDIDATES)
    seen, out = set(), []
    for p in [
        *library.of_type(clause, lambda p: p.doc_type.upper() in wanted or p.source in STANDARD_SOURCES),
        *ranked,
    ]:
        if p.id not in seen:
            seen.add(p.id)
            out.append(p)
    return out, {p.id: r for r, p in enumerate(ranked)}


class _Adapted:
    """A precedent as fit() reads it: its body with the deal's facts in place (what the edit starts from)."""

    def __init__(self, precedent, deal):
        self.precedent, self.body = precedent, precedent.adapted(deal)
        sides = dict(zip(deal.sides, (deal.value("[PARTY_A]"), deal.value("[PARTY_B]")))) if deal.sides else {}
        roles = sides.get("provider", ""), sides.get("customer", "")
        self.reversed = reversed_roles(self.body, *roles)
        if self.reversed and is_dataclass(precedent):  # its parties the other way round: the flipped one is edited
            flipped = replace(precedent, body=flip_parties(precedent.body))
            body = flipped.adapted(deal)
            if not reversed_roles(body, *roles):
                self.precedent, self.body, self.reversed = flipped, body, 0

    def __getattr__(self, name):
        return getattr(self.precedent, name)


_DOC_FACTS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # library -> {doc id: its clauses' facts}


def source_facts(library, precedent) -> list[str]:
    """The facts normalization replaced in every clause of `precedent`'s source contract (a composed
    precedent: of each source's), its own first: a name replaced in another clause ("EBIX.COM" of a
    co-branding agreement) is that contract's too, and its body may still write it ("the ebix Site").
    What the fact guard bans and hybrid.fidelity.foreign_facts finds as the source's names (extra_names)."""
    by_doc = _DOC_FACTS.get(library)
    if by_doc is None:
        by_doc = {}
        for p in library.precedents:
            by_doc.setdefault(p.doc_id, []).extend(p.facts)
        _DOC_FACTS[library] = by_doc
    docs = [p.doc_id for p in getattr(precedent, "sources", None) or [precedent]]
    return list(dict.fromkeys([*precedent.facts, *(f for d in docs for f in by_doc.get(d, ()))]))


@dataclass(frozen=True)
class PrecedentDraw:
    """How a draft's sections take their precedents: the request's precedent settings (hybrid.draft.request)."""

    n: int  # variants
    k: int  # precedents beside each span (start_noise 1)
    seed: int = 0
    # 1: the k precedents beside each span; < 1: each variant edits its own, each word masked with this probability
    start_noise: float = 1.0
    max_start_tokens: int = 4096  # a span's start holds at most this many tokens


def draft_from_precedents(tokenizer, skeleton, library, template, values: dict, draw: PrecedentDraw):
    """What Drafter.draft(precedents=k, precedent_start=start_noise) fills: (skeleton, provenance[v][s],
    start or None, the facts of the precedents' source contracts (source_facts) for the fact guard), as `draw`
    says. start_noise = 1: the k precedents sit beside each span (condition), the same for every variant; < 1:
    nothing beside the spans, each variant edits its own draw (variant_draws) through hybrid.text.start's
    start tokens, its holes checked against the library's words."""
    from hybrid.text.start import SpanEdits, starts_from_draws

    n, seed = draw.n, draw.seed
    if draw.start_noise >= 1:
        skeleton, beside, hits = condition(skeleton, library, template, values, draw.k, seed=seed, return_hits=True)
        facts = list(dict.fromkeys(f for h in hits for p in h for f in source_facts(library, p)))
        return skeleton, [beside] * n, None, facts
    draws = variant_draws(skeleton, library, template, values, n, seed=seed)
    draws = [[frame_alone(s, p) for s, p in zip(skeleton.spans, d)] for d in draws]
    rooms = [s.budget - (len(tokenizer.encode(s.frame)) if s.frame else 0) - ROOM_MARGIN for s in skeleton.spans]
    deal = deal_from_template(template, values)
    edits = SpanEdits(deal, skeleton.deal_text, [draw.max_start_tokens] * len(skeleton.spans), rooms=rooms,
                      **library_start_args(library, deal, skeleton.spans), others=other_clauses(skeleton.spans))
    start, facts = starts_from_draws(tokenizer, draws, edits, draw.start_noise, seed)
    return skeleton, [[p.citations() if p else [] for p in d] for d in draws], start, facts


def library_start_args(library, deal, spans) -> dict:
    """What starts_from_draws takes from the clause library and the spans for any draft that edits precedents: the
    words a hole may write, each span's deal, a precedent's own facts (its whole source's), the words another deal's
    terms may be lowered to, each span's frame and heading."""
    return {
        "words": library.words(),
        "deals": [clause_deal(deal, s.clause) for s in spans],
        "facts_of": lambda p: source_facts(library, p),
        "lower": common_words(library),
        "frames": [s.frame for s in spans],
        "headings": [s.heading for s in spans],
    }


def other_clauses(spans) -> list[frozenset]:
    """Per span, the clause types of the draft's other sections, less its own: the parts its edit drops."""
    clauses = [s.clause for s in spans]
    return [frozenset(clauses[:i] + clauses[i + 1 :]) - {c} for i, c in enumerate(clauses)]


def document_skeleton(tokenizer, doc, hits, deal: DealFacts):
    """A corpus document's token skeleton (hybrid.skeleton.tokenized.TokenSkeleton) with hits[i] (a Precedent
    or None, per section: hybrid.precedents.library.Library.for_document), its facts replaced by the deal's,
    right before the i-th body, in the layout training uses; each body's budget is its real length
    in tokens + 1 (<eos>). hits None: no precedents."""
    from hybrid.skeleton.tokenized import tokenize_segments

    segs, budgets = [], []
    for seg in doc.segments():
        if seg.kind == "body":
            p = hits[seg.section] if hits else None
            if p is not None:
                segs.append(precedent_segment([p.adapted(deal, MAX_PRECEDENT_WORDS)], seg.section))
            budgets.append(len(tokenizer.encode(seg.text)) + 1)
        segs.append(seg)
    return tokenize_segments(tokenizer, segs, budgets)
