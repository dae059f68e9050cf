"""A draft from one coherent base per variant: base -> start -> fill the holes -> revise -> rank.

Owns: `base_events` (the pipeline of a request with `base` on, as DraftEvents: the Drafter runs it in place of
the section-by-section assembly) and `base_starts` (a variant's edit start: each section of its base adapted to
the deal, whole). Each variant has a skeleton of its own (its base's sections), so each is filled, revised and
scored on its own, then the n are ordered by score. Holds no state; hybrid.draft.drafter.Drafter calls it under
its lock.
"""

import time

from hybrid.common.cancel import checkpoint
from hybrid.common.sampling import variant_seed
from hybrid.draft.provenance import attach_sources
from hybrid.draft.result import Draft, DraftEvent
from hybrid.draft.stages import MAX_START_TOKENS, revise_variants, variant_bodies

__all__ = ["base_events", "base_starts", "base_allowed", "draft_checks", "MARKET_WEIGHT", "CONTRADICTION_COST",
           "ROOM_MARGIN", "pageable", "PAGE_MARGIN", "MEANING_WEIGHT", "by_base_fit",
           "BASE_START_TOKENS"]

ROOM_MARGIN = 3  # span slots past a start: the filler keeps the last one masked, and <eos> ends the span
MARKET_WEIGHT = 2.0  # a whole checklist held is worth as much as 2 nats per token of likelihood
CONTRADICTION_COST = 0.5  # per substance contradiction (two terms, exclusive and non-exclusive, roles reversed)
# per clause another document supplies in place of the base's own (a repeated base's alternative): it is there to
# make the variant differ, and is a reading risk the base's own clause is not, so it never lifts a variant above its
# base (seed 83: hosting's first draft had an NDA clause for the SLA's remedies, the form itself came second, 0.22
# behind); more than the likelihood spread between variants of one base (under 0.3 at seed 83)
ALTERNATIVE_COST = 0.5
# a draft whose base is about the deal's subject outranks one about another business: the franchise of an air
# purifier had come first for a bakery cafe (by 0.16, two more checklist items) over a fast-food franchise
MEANING_WEIGHT = 1.0
PAGE_MARGIN = 512  # positions a section's page keeps beside its text: its frame, room and context (pageable)
BASE_START_TOKENS = 4 * MAX_START_TOKENS  # a base's section is taken whole (a definitions article runs long)


def base_allowed(variant, deal_text: str) -> str:
    """What a base's sections may say as they stand: the deal's text, and the base's own words where the base is a
    standard form (written to be reused: its "Recipient", "Subscription Period" and "Customer Content" are nobody's
    deal), else the terms the base defines ('"Territory" means', '(the "Products")'). Anything else of another deal
    is a blank to complete (hybrid.text.settle.blank_holes)."""
    from hybrid.precedents.definitions import inline_definitions

    own = "\n".join(getattr(d, "body", "") or "" for d in variant.draws if d)
    if variant.base.kind == "form":
        return f"{deal_text}\n{own}"
    return f"{deal_text}\n" + "\n".join(sorted(inline_definitions(own)))


def base_starts(tokenizer, variant, library, template, values: dict, seed: int, t: float):
    """(start[0][s] for the variant's spans, the base's own facts): each section's precedent adapted to the deal
    and settled (hybrid.text.start.starts_from_draws) with no room cut, its frame before it; the spans'
    budgets set in place to what their starts need."""
    from hybrid.skeleton.from_precedents import deal_from_template, library_start_args
    from hybrid.templates.template import FRAME_MIN_FILL
    from hybrid.text.start import SpanEdits, starts_from_draws

    sk = variant.skeleton
    deal = deal_from_template(template, values)
    edits = SpanEdits(deal, base_allowed(variant, sk.deal_text), [BASE_START_TOKENS] * len(sk.spans), whole=True,
                      **library_start_args(library, deal, sk.spans))
    start, facts = starts_from_draws(tokenizer, [variant.draws], edits, t, seed)
    for s, ids in zip(sk.spans, start[0]):
        frame = len(tokenizer.encode(s.frame)) if s.frame else 0
        # a frame alone still leaves the room a skeleton requires (its start ends the span after the frame)
        s.budget = frame + max(len(ids) + ROOM_MARGIN, FRAME_MIN_FILL if frame else 0)
    return start, facts


def pageable(drafter):
    """Whether the filler can edit each of a document's sections whole: a span's page holds its every token within
    the model's positions (max_len, less PAGE_MARGIN for the frame, the span's room and its context); a longer one
    stopped the whole draft ("a span needs a page longer than the model's max_len"). A predicate of the sections."""
    limit = drafter.model.cfg.max_len - PAGE_MARGIN
    encode = drafter.tokenizer.encode
    # a word is at most 8 tokens (a byte-level vocabulary's longest words): a section this short needs no count
    return lambda sections: all(len(p.body.split()) <= limit // 8 or len(encode(p.body)) <= limit for p in sections)


class _Counted:
    """The filler's on_step for variant v of n filled one after another: its steps counted over the whole draft
    (step K of the second variant is step 2K of 2K...nK), so progress moves once, from 0 to all."""

    def __init__(self, on_step, v: int, n: int):
        self.on_step, self.v, self.n, self.last = on_step, v, n, None

    def __call__(self, ev):
        self.last = ev
        self.on_step(_Step(ev, self.v * ev.steps + ev.step, self.n * ev.steps))

    def done(self) -> None:
        """The variant's fill is over: its share of the bar is full, though a base with few holes stops the filler
        after a step or two (the bar had ended at 4 of 1,024 steps for 4 variants)."""
        ev = self.last
        if ev is not None and ev.step < ev.steps:
            self.on_step(_Step(ev, (self.v + 1) * ev.steps, self.n * ev.steps))


class _Step:
    def __init__(self, ev, step: int, steps: int):
        self.ev, self.step, self.steps = ev, step, steps

    def partial(self, glyph):
        return self.ev.partial(glyph)


def draft_checks(d, template, values: dict, deal_text: str, kind: frozenset) -> dict:
    """What a lawyer checks of a whole draft: the clauses real contracts of the kind hold (market_check), one
    term, exclusivity and roles (substance) and another deal's subject matter (foreign_subjects: the kind's own
    language, `kind` = hybrid.precedents.base.kind_phrases of the template, is no other deal's)."""
    from hybrid.draft.substance import substance_checks
    from hybrid.fidelity.foreign_subject import foreign_subjects
    from hybrid.precedents.checklist import market_check

    checks = {"market_check": market_check(template, d.sections)}
    checkpoint()  # each check reads the whole draft: a cancelled stream stops between them
    checks["substance"] = substance_checks(d.sections, template, values)
    checkpoint()
    checks["foreign_subjects"] = foreign_subjects("\n".join(s["body"] for s in d.sections), deal_text, kind=kind)
    return checks


def _score_checks(d) -> None:
    """In place: the reranker's total plus what a lawyer weighs first when the variants are whole different
    documents: the share of the kind's checklist it holds (MARKET_WEIGHT), each substance contradiction
    (CONTRADICTION_COST), each clause another document supplies in place of the base's own (ALTERNATIVE_COST), and
    how near its base is to what the deal is about (MEANING_WEIGHT: hybrid.precedents.base's "meaning" part).
    A likelihood alone preferred a short, incomplete base (a 577-word gas utility franchise over a 9,000-word
    franchise agreement for a bakery franchise)."""
    market = d.checks["market_check"]["coverage"]
    contradictions = d.checks["substance"]["contradictions"]
    alternatives = len(d.base.get("alternatives", []))
    meaning = d.base.get("parts", {}).get("meaning", 0.0)
    d.score = (d.score + MARKET_WEIGHT * market - CONTRADICTION_COST * contradictions
               - ALTERNATIVE_COST * alternatives + MEANING_WEIGHT * meaning)
    d.scores = {**d.scores, "total": d.score, "market": market, "contradictions": contradictions,
                "alternatives": alternatives, "meaning": meaning}


def by_base_fit(drafts):
    """The sort key of drafts best first: variants standing on different filed contracts in the order of their bases'
    fit (hybrid.precedents.base.choose_bases, the order the variants took them in), then, within one base or among
    standard forms, by score (the reranker's total with _score_checks). Across different contracts the likelihood
    reads each document's own style: a vehicle maker's manufacturing agreement scored 1.2 above a master supply
    agreement that two cold readers graded B against its C (session 35)."""
    first: dict = {}
    for d in sorted(drafts, key=lambda d: d.variant):
        first.setdefault(d.base.get("doc_id"), len(first))
    return lambda d: (0 if d.base.get("kind") == "form" else first[d.base.get("doc_id")], -d.score, d.variant)


def _draft(v, rank_row, bodies, variant, template, values, seed) -> Draft:
    sk = variant.skeleton
    sections = [{"number": str(i + 1), "heading": s.heading, "clause": s.clause, "body": b, "frame": s.frame}
                for i, (s, b) in enumerate(zip(sk.spans, bodies))]
    segs = sk.segments
    return Draft(0, sk.render(bodies), sk.outline["title"], segs[1].text.strip(), sections, segs[-1].text,
                 sk.outline, rank_row.score, rank_row.scores, template.id, values, seed, v, source_facts=[])


def base_events(drafter, request, emit, variants=None):
    """The pipeline of a (checked) request drafted from bases, as a generator of DraftEvents: "plan" (variant 0's
    outline: its base's sections and the clauses inserted), "precedents" (each variant's sources), then the
    filler's steps per variant, and "rank" with the drafts best first. variants: the bases already chosen
    (hybrid.skeleton.from_base.base_variants; None: chosen here)."""
    from hybrid.draft.streaming import cancel_check, progress_events, step_events
    from hybrid.precedents.base import kind_phrases
    from hybrid.rank.rerank import ContractSpec
    from hybrid.skeleton.from_base import base_variants

    t0 = time.perf_counter()
    count = progress_events(emit, t0)
    template, values = request.template, request.fields
    library = drafter.precedent_library()
    timings = {}
    if variants is None:
        variants = base_variants(library, template, values, request.n, cancel_check(emit), pageable(drafter))
    timings["plan"] = time.perf_counter() - t0
    yield DraftEvent("plan", time.perf_counter() - t0, outline=variants[0].skeleton.outline)
    ts = time.perf_counter()
    starts = []
    for v, bv in enumerate(variants):  # counted per variant: each is a base's every section tokenized
        count("precedents", v, len(variants))
        starts.append(base_starts(drafter.tokenizer, bv, library, template, values, variant_seed(request.seed, v),
                                  request.precedent_start))
    provenance = [[p.citations() if p else [] for p in bv.draws] for bv in variants]
    timings["precedents"] = time.perf_counter() - ts
    yield DraftEvent("precedents", time.perf_counter() - t0, sources=provenance)
    timings["fill"] = timings["revise"] = timings["rank"] = 0.0
    drafts, on_step, kind = [], step_events(emit, t0), kind_phrases(template)
    for v, (bv, (start, facts)) in enumerate(zip(variants, starts)):
        ts = time.perf_counter()
        counted = _Counted(on_step, v, len(variants)) if on_step else None
        fills = drafter._fill(request, bv.skeleton, request.guidance, counted, start=start, precedent_facts=facts,
                              n=1, seed=variant_seed(request.seed, v))
        if counted:
            counted.done()
        timings["fill"] += time.perf_counter() - ts
        checkpoint()  # between the phases of each variant: fill, revise, rank, checks
        ts = time.perf_counter()
        fills, revisions = revise_variants(template, bv.skeleton, fills, [provenance[v]], library, values)
        timings["revise"] += time.perf_counter() - ts
        count("rank", v, len(variants))  # the reranker's pass over this variant comes next
        ts = time.perf_counter()
        bodies = variant_bodies(fills)
        spec = ContractSpec.from_template(template, values, facts)
        ranked = drafter.reranker.rank(bv.skeleton, bodies, spec)
        timings["rank"] += time.perf_counter() - ts
        checkpoint()
        d = _draft(v, ranked[0], bodies[0], bv, template, values, request.seed)
        d.source_facts, d.consistency = list(facts), revisions[0]
        for sec, prov in zip(d.sections, provenance[v]):
            sec["precedents"] = prov
        d.base, d.checks = bv.summary(), draft_checks(d, template, values, bv.skeleton.deal_text, kind)
        _score_checks(d)
        drafts.append(d)
        count("rank", v + 1, len(variants))
    drafts.sort(key=by_base_fit(drafts))
    for rank, d in enumerate(drafts, 1):
        d.rank = rank
    timings["total"] = time.perf_counter() - t0
    settings = {**request.precedent_settings(), "base": True, "precedent_note": None}
    for d in drafts:
        d.timings, d.settings = timings, settings
    checkpoint()
    attach_sources(drafts, library, template, values)
    yield DraftEvent("rank", time.perf_counter() - t0, drafts=drafts)
