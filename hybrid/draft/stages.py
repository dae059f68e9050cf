"""The stages of a draft around its fill: the precedent start before it, the revise and the ranked Drafts after.

Owns: the clause library a draft uses (a request that left its precedents unset falls back to drafting
from scratch without one, a note in Draft.settings; a request that asked for precedents raises), the
precedent start of the skeleton (hybrid.skeleton.from_precedents), the draft-level consistency pass over each filled
variant (hybrid.draft.revise, then hybrid.text.exclusivity), the Drafts made from the reranker's order, and what
every Draft carries from the run (stage timings, settings, consistency report, precedents, source texts).
Holds no state: hybrid.draft.drafter.Drafter runs these in order under its lock.
"""

from dataclasses import dataclass, field

from hybrid.common.errors import HybridError
from hybrid.data.clean import strip_numbering
from hybrid.draft.provenance import attach_sources
from hybrid.draft.result import Draft
from hybrid.fill.api import FillResult

__all__ = ["MAX_START_TOKENS", "PrecedentStart", "prepare_precedents", "revise_variants", "variant_bodies",
           "ranked_drafts", "finish_drafts"]

MAX_START_TOKENS = 4096  # a precedent start is tokenized up to this; the filler cuts it to the span's budget


@dataclass
class PrecedentStart:
    """What the precedent stage hands the fill: the skeleton to fill (from_precedents' when `used`), the
    clause library (None when there is none), each variant's precedents per section (provenance), the
    filler's start (None: nothing to edit), the precedents' source facts and the draft's settings."""

    skeleton: object
    settings: dict
    used: bool = False
    library: object = None
    provenance: list | None = None
    start: object = None
    facts: tuple = field(default=())  # the facts of the precedents' source contracts (from_precedents.source_facts)


def prepare_precedents(drafter, skeleton, request) -> PrecedentStart:
    """The precedent stage of a (checked) DraftRequest: the clause library (drafter.precedent_library()) and,
    with precedents >= 1, the skeleton drafted from it. A request that left its precedents unset
    (request.precedent_fallback) and cannot have the library is drafted from scratch, the reason in
    settings["precedent_note"]; one that asked for precedents fails."""
    precedents, precedent_start = request.precedents, request.precedent_start
    note = library = None
    if precedents:
        try:
            library = drafter.precedent_library()
        # no corpus, or a library of another corpus: a default falls back, a request fails
        except HybridError as e:
            if not request.precedent_fallback:
                raise
            note = (
                f"drafted from scratch: no clause library ({e}); pass precedents=0 (--precedents 0) "
                "to draft from scratch without this note"
            )
            precedents, precedent_start = 0, 1.0
    settings = {
        "precedents": precedents,
        "precedent_guidance": request.precedent_guidance,
        "precedent_start": precedent_start,
        "precedent_note": note,
        "base": False,  # each section from its own precedent (hybrid.draft.base_stage drafts from one base)
    }
    if not precedents:
        return PrecedentStart(skeleton, settings, library=library)
    from hybrid.skeleton.from_precedents import PrecedentDraw, draft_from_precedents

    draw = PrecedentDraw(request.n, precedents, request.seed, precedent_start, MAX_START_TOKENS)
    skeleton, provenance, start, facts = draft_from_precedents(
        drafter.tokenizer, skeleton, library, request.template, request.fields, draw
    )
    return PrecedentStart(skeleton, settings, True, library, provenance, start, facts)


def variant_bodies(fills) -> list[list[str]]:
    """Each filled variant's bodies (FillResults or lists of bodies), without the section numbers their lines
    open with: the skeleton numbers the sections, a body line's own "8.1" / "1.1.1" is dropped
    (hybrid.data.clean.strip_numbering)."""
    return [[strip_numbering(b) for b in (f.spans if isinstance(f, FillResult) else f)] for f in fills]


def revise_variants(template, skeleton, fills, provenance, library, values: dict):
    """(each variant's bodies after the draft-level consistency pass, its report: hybrid.draft.revise), then the
    appointment stated the way the deal says (hybrid.text.exclusivity: each sentence rewritten is a change of kind
    "exclusivity" in its section's report, their count totals["exclusivity_rewritten"])."""
    from hybrid.draft.revise import revise, source_ids, source_sections
    from hybrid.text.exclusivity import mend_exclusivity, record_changes

    bodies = variant_bodies(fills)
    sources = source_sections(library) if library is not None else {}
    ids = source_ids(library) if library is not None else {}
    preamble = skeleton.segments[1].text
    revised, reports = revise(
        bodies, skeleton.spans, preamble, provenance, sources, keep=template.defined_terms, ids=ids
    )
    deal_texts = [preamble, *(getattr(s, "frame", "") for s in skeleton.spans)]
    for v, report in enumerate(reports):
        revised[v], changes = mend_exclusivity(revised[v], deal_texts, template, values)
        record_changes(report, changes)
    return revised, reports


def ranked_drafts(ranked, variants, skeleton, template, values, outline, seed, source_facts) -> list[Draft]:
    """A Draft per entry of the reranker's order (`ranked`, best first) of the variants' bodies."""
    segs = skeleton.segments
    drafts = []
    for rank, r in enumerate(ranked, 1):
        bodies = variants[r.index]
        sections = [
            {"number": str(i + 1), "heading": s.heading, "clause": s.clause, "body": b}
            for i, (s, b) in enumerate(zip(skeleton.spans, bodies))
        ]
        drafts.append(
            Draft(
                rank,
                skeleton.render(bodies),
                outline["title"],
                segs[1].text.strip(),
                sections,
                segs[-1].text,
                outline,
                r.score,
                r.scores,
                template.id,
                values,
                seed,
                r.index,
                source_facts=list(source_facts),
            )
        )
    return drafts


def finish_drafts(drafts, timings, prep: PrecedentStart, revisions, template, values) -> None:
    """What each Draft carries from its run, in place: the stage timings and settings (one dict each, shared),
    its variant's consistency report, each section's precedents and each cited section's source text (Draft.edits)."""
    for d in drafts:
        d.timings, d.settings, d.consistency = timings, prep.settings, revisions[d.variant]
        for sec, prov in zip(d.sections, prep.provenance[d.variant] if prep.provenance else []):
            sec["precedents"] = prov
        for sec, report in zip(d.sections, d.consistency["sections"] if d.consistency else []):
            if report.get("indexed"):  # the body is the engine's index of the draft's terms (its note says so)
                sec["indexed"] = report["indexed"]
    attach_sources(drafts, prep.library, template, values)
