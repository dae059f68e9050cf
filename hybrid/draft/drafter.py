"""The Drafter: template + fields -> plan -> fill -> rerank -> N ranked drafts.

Owns: the public drafting API (Drafter), the order of its stages and their timings. It is the only
module that imports every stage (planner, filler, reranker); it adds no modelling of its own. Its
pieces live beside it and every public name is importable from here: the checkpoint and the filler
factory (hybrid.draft.loading), the request every draft runs (DraftRequest, built and checked once at
the call: hybrid.draft.request), the precedent start and the revise/rank stage (hybrid.draft.stages), the
streaming of progress events (hybrid.draft.streaming) and the result types Draft and DraftEvent
(hybrid.draft.result).

Thread safety: a Drafter holds one re-entrant lock and every public method (plan, fill, rank,
draft and each stream) runs under it, so concurrent calls on one Drafter from several threads
are safe and run one after another (the backbone, the planner's grammar cache and the model's
rotary tables are shared state). For parallel throughput, load one Drafter per thread.

Seeds: the planner and the filler each draw from their own torch.Generator seeded with `seed`,
so the same (model, template, fields, settings, seed) gives the same drafts in the same order.
"""

import threading
import time
from dataclasses import replace

import torch

from hybrid.common.cancel import checkpoint
from hybrid.common.config import SHIPPED_CHECKPOINT
from hybrid.common.options import set_threads
from hybrid.draft.loading import FILLERS, HEADING_SOURCES, HEADINGS, DrafterConfig, fill_function, load_model
from hybrid.draft.request import DRAFT_SAMPLING, DraftRequest, PrecedentMode, RequestValueError
from hybrid.draft.result import Draft, DraftEvent, source_note
from hybrid.draft.stages import (  # MAX_START_TOKENS re-exported
    MAX_START_TOKENS,  # noqa: F401
    finish_drafts,
    prepare_precedents,
    ranked_drafts,
    revise_variants,
    variant_bodies,
)
from hybrid.draft.streaming import cancel_check, progress_events, run_streamed, step_events, token_events
from hybrid.fill.api import FillResult
from hybrid.rank.likelihood import trained_window
from hybrid.rank.rerank import ContractSpec, Reranker
from hybrid.templates.template import load_template

__all__ = [
    "Drafter",
    "DrafterConfig",
    "Draft",
    "DraftEvent",
    "load_model",
    "SHIPPED_CHECKPOINT",
    "FILLERS",
    "HEADINGS",
    "DRAFT_SAMPLING",
    "DraftRequest",
    "PrecedentMode",
    "RequestValueError",
    "source_note",
]


class Drafter:
    """Plan, fill and rank contract drafts with one shared backbone.

    model: a hybrid Backbone; tokenizer: its HybridTokenizer. filler: "diffusion" (the parallel
    masked-diffusion filler), "ar" (the autoregressive baseline, guidance must be 1 = off) or
    "ar-batched" (every clause of every variant decoded left to right at once: hybrid.fill.ar_batched;
    on CPU the fastest, each clause seeing the skeleton before it but not the other clauses).
    headings: "template" (default) or "planned", see HEADINGS; an outline passed to draft() is
    used as given. fact_guard (default on): the fillers may not write a capitalized word, digits
    or a duration that the deal's text does not state (hybrid.fidelity.fact_guard).
    """

    def __init__(self, model, tokenizer, config: DrafterConfig | None = None, *, record: dict | None = None, path=None,
                 library=None, **options):
        """config: DrafterConfig (filler, fill_config, weights, headings, fact_guard), or its fields as keywords;
        record, path: the checkpoint's training record and directory; library: hybrid.precedents.library.Library."""
        from hybrid.plan.planner import Planner

        cfg = replace(config or DrafterConfig(), **options)
        self.config, self.headings = cfg, cfg.headings
        self.model, self.tokenizer = model.eval(), tokenizer
        self.filler, self.fill_config = cfg.filler, cfg.fill_config
        self.planner = Planner(model, tokenizer)
        self.record = record or {}
        self.reranker = Reranker(model, tokenizer, cfg.weights, **trained_window(self.record))
        self.path = str(path) if path is not None else None
        self._lock = threading.RLock()
        self._library = library  # hybrid.precedents.library.Library; None = the default cache, loaded on first use
        # hybrid.fidelity.fact_guard on template drafts: names, numbers, durations the deal does not state
        self.fact_guard = cfg.fact_guard

    @classmethod
    def from_pretrained(cls, path=None, *, device=None, **kwargs) -> "Drafter":
        """Load a checkpoint directory (None = the shipped model); CheckpointError names a missing path."""
        model, tok, record, p = load_model(path, device)
        return cls(model, tok, record=record, path=p, **kwargs)

    @property
    def device(self) -> torch.device:
        return next(self.model.parameters()).device

    def model_info(self) -> dict:
        keep = ("step", "tokens_seen", "params", "git_commit", "wall_seconds")
        return {
            "path": self.path,
            "params": self.model.num_params() if hasattr(self.model, "num_params") else None,
            **{k: self.record[k] for k in keep if k in self.record},
        }

    def precedent_library(self, on_doc=None):
        """The clause library precedents are drawn from (hybrid.precedents.library.load_library on first use; on_doc:
        its build's progress, when it has to be built)."""
        if self._library is None:
            from hybrid.precedents.library import load_library

            self._library = load_library(on_doc=on_doc).use_relevance()
        return self._library

    # stages

    def request(self, request, fields: dict | None = None, **kw) -> DraftRequest:
        """The DraftRequest of a draft() or stream() call: `request` itself, or one built from the keyword form
        (template, fields, n=..., seed=..., any DraftRequest field or sampling argument; filler: this Drafter's)."""
        if isinstance(request, DraftRequest):
            if fields is not None or kw:
                raise RequestValueError(
                    "request", f"a DraftRequest holds every argument of a draft; got it with more: "
                    f"{sorted(kw) + (['fields'] if fields is not None else [])}."
                )
            return request
        return DraftRequest.of(request, fields, **{"filler": self.filler, **kw})

    # stages

    def plan(self, template, fields: dict, *, seed: int = 0, on_token=None, **sampling):
        """The outline for (template, fields): a hybrid.plan.planner.PlanResult (.outline, .text, .seconds)."""
        req = DraftRequest.of(template, fields, seed=seed, precedent_mode="off", **sampling)
        with self._lock:
            return self.planner.plan(req.template, fields, seed=req.seed, params=req.sampling, on_token=on_token)

    def fill(self, template, fields: dict, outline: dict, *, on_step=None, **settings) -> list[FillResult]:
        """n filled variants of the skeleton of `outline` (unranked, in batch order); settings: a DraftRequest's
        (n=4, seed=0, steps, guidance, temperature, ... as DraftRequest.of takes them)."""
        req = DraftRequest.of(template, fields, **{"n": 4, "seed": 0, **settings}, outline=outline,
                              precedent_mode="off", filler=self.filler)
        with self._lock:
            skeleton = req.template.render_skeleton(outline, fields)
            return self._fill(req, skeleton, req.guidance, on_step)

    def _fill(self, request, skeleton, guidance, on_step, start=None, precedent_facts=(), n=None, seed=None
              ) -> list[FillResult]:
        """The request's fill of `skeleton` at `guidance` (the request's, plus its precedent guidance beside);
        n, seed: the request's unless given (a base draft fills each variant's own skeleton on its own)."""
        params = request.sampling
        # places and terms the deal does not name cannot be written (hybrid.fidelity.foreign_facts)
        if getattr(skeleton, "deal_text", ""):
            from hybrid.fidelity.fact_guard import FactGuard
            from hybrid.fidelity.foreign_facts import deal_ban_ids

            bans = deal_ban_ids(self.tokenizer, skeleton.deal_text)
            guard = (
                FactGuard(
                    self.tokenizer,
                    skeleton.deal_text,
                    vocab=self.model.output_weight.shape[0],
                    precedent_facts=precedent_facts,
                )
                if self.fact_guard
                else None
            )
            params = replace(
                params, banned_tokens=tuple(sorted(set(params.banned_tokens) | set(bans))), fact_guard=guard
            )
        fill = fill_function(request.filler, self._fill_config(request))
        extra = {} if start is None else {"start": start}  # only EDIT_FILLERS edit a start (DraftRequest)
        return fill(self.model, self.tokenizer, skeleton, n=request.n if n is None else n, steps=request.steps,
                    guidance=guidance, seed=request.seed if seed is None else seed, params=params, on_step=on_step,
                    **extra)

    def _fill_config(self, request):
        """This Drafter's FillConfig, with the request's commit rule when it names one (not "auto")."""
        if request.commit == "auto":
            return self.fill_config
        from hybrid.fill.diffusion.fill_config import FillConfig

        return replace(self.fill_config or FillConfig(), commit=request.commit)

    def rank(
        self, template, fields: dict, outline: dict, fills: list, *, mmr: float = 0.0, seed: int = 0, source_facts=()
    ) -> list[Draft]:
        """Drafts from filled variants (FillResults or lists of bodies), best first. Body lines lose
        the section numbers they open with (hybrid.data.clean.strip_numbering). source_facts: the facts
        of the source contracts drafted from, foreign in any case (the reranker's check, Draft.source_facts)."""
        with self._lock:
            template = load_template(template)
            values = template.validate_fields(fields)
            skeleton = template.render_skeleton(outline, values)
            # the skeleton numbers the sections: a body line's own "8.1" / "1.1.1" is dropped (hybrid.data.clean)
            variants = variant_bodies(fills)
            spec = ContractSpec.from_template(template, values, source_facts)
            ranked = self.reranker.rank(skeleton, variants, spec, mmr=mmr)
            return ranked_drafts(ranked, variants, skeleton, template, values, outline, seed, source_facts)

    def draft(self, request, fields: dict | None = None, **kw) -> list[Draft]:
        """The request's n drafts, ranked best first: `Drafter.draft(DraftRequest.of(template, fields, n=4,
        seed=7))`, or the keyword form `Drafter.draft(template, fields, n=4, seed=7)` (self.request).

        The request's fields and their defaults: hybrid.draft.request.DraftRequest. outline=None plans one and
        the n variants share it; the sampling is used by both the planner and the filler. precedent_mode
        "edit" (the default with the diffusion or ar-batched filler): each variant's span starts as a precedent
        of its own (variant 0 the top one, the others their seeded draws: hybrid.skeleton.from_precedents),
        adapted to the deal, each word masked with probability precedent_start (the deal's facts kept, the
        precedent's foreign facts always masked); the filler writes only the masked tokens and a clause ends
        where its precedent ends (hybrid.text.start, hybrid.fill.diffusion.start). "beside": k precedents
        sit before each span, precedent_guidance pushing the draft towards them. "off": from scratch. A request
        that leaves the precedents unset and cannot have the clause library is drafted from scratch, with a note
        in each Draft's settings["precedent_note"]. Every Draft carries the stage timings and the settings used.
        """
        request = self.request(request, fields, **kw)
        drafts = None
        for ev in self._events(request, None):
            drafts = ev.drafts
        return drafts

    def stream(self, request, fields: dict | None = None, *, cancel=None, **kw):
        """Like draft(), yielding DraftEvents as the work happens; the last event ("rank") holds the drafts.

        The work runs in a worker thread that holds this Drafter's lock; closing the generator early, or setting
        `cancel` (a threading.Event, from any thread), stops it at its next event: a token, a step or a "progress"
        count. The request is built (and so checked) here, before any work.
        """
        request = self.request(request, fields, **kw)
        return run_streamed(lambda emit: self._events(request, emit), cancel)

    def _events(self, request: DraftRequest, emit):
        """The pipeline of a (checked) request as a generator of DraftEvents: plan -> precedents -> fill ->
        revise -> rank. `emit` (stream only) receives the in-stage events."""
        with self._lock:
            set_threads(request.threads)
            variants = self._bases(request, emit) if request.base else None
            if variants:  # one coherent base per variant (hybrid.draft.base_stage)
                from hybrid.draft.base_stage import base_events

                yield from base_events(self, request, emit, variants)
                return
            t0 = time.perf_counter()
            template, values = request.template, request.fields
            timings = {}
            outline = self._plan_stage(request, emit, t0, timings)
            yield DraftEvent("plan", time.perf_counter() - t0, outline=outline)

            skeleton = template.render_skeleton(outline, values)
            checkpoint()
            ts = time.perf_counter()
            prep = prepare_precedents(self, skeleton, request)
            guidance = request.guidance
            if prep.used:
                if prep.start is None:
                    guidance = guidance + request.precedent_guidance
                timings["precedents"] = time.perf_counter() - ts
                yield DraftEvent("precedents", time.perf_counter() - t0, sources=prep.provenance)

            ts = time.perf_counter()
            on_step = step_events(emit, t0)
            fills = self._fill(request, prep.skeleton, guidance, on_step, start=prep.start, precedent_facts=prep.facts)
            timings["fill"] = time.perf_counter() - ts

            checkpoint()  # between the phases: a cancelled stream stops before the next one
            ts = time.perf_counter()
            fills, revisions = revise_variants(template, prep.skeleton, fills, prep.provenance, prep.library,
                                              values)
            timings["revise"] = time.perf_counter() - ts
            checkpoint()
            ts = time.perf_counter()
            drafts = self.rank(template, values, outline, fills, mmr=request.mmr, seed=request.seed,
                               source_facts=prep.facts)
            timings["rank"] = time.perf_counter() - ts
            timings["total"] = time.perf_counter() - t0
            checkpoint()
            finish_drafts(drafts, timings, prep, revisions, template, values)
            yield DraftEvent("rank", time.perf_counter() - t0, drafts=drafts)

    def _bases(self, request, emit) -> list:
        """Each variant's base (hybrid.skeleton.from_base.base_variants), or [] where the clause library holds no
        whole document to start from (a user's own library of clauses) or cannot be had and the request left its
        precedents unset: such a draft goes section by section (stages.prepare_precedents notes a missing library).
        emit (stream only): the library build's "progress" counts, and a cancel point per base document and variant."""
        from hybrid.common.errors import HybridError
        from hybrid.draft.base_stage import pageable
        from hybrid.draft.request import RequestValueError
        from hybrid.skeleton.from_base import UnnamedBase, base_variants

        count = progress_events(emit, time.perf_counter())
        try:  # count: the library's build, document by document, when it is built now
            library = self.precedent_library(lambda done, total: count("library", done, total))
        except HybridError:
            if not request.precedent_fallback:
                raise
            return []
        try:
            return base_variants(library, request.template, request.fields, request.n, cancel_check(emit),
                                 pageable(self), base_doc=request.base_doc)
        except UnnamedBase as e:  # the lawyer's base_doc names no one base of the kind: said as the request's field
            detail = e.detail
            raise RequestValueError("base_doc", lambda n: f"{n('base_doc')} {detail}") from None

    def _plan_stage(self, request, emit, t0, timings) -> dict:
        """The draft's outline: the request's as given, or planned (its headings as self.headings says) with
        the planner's tokens emitted as "plan_token" events; its time into timings["plan"]."""
        if request.outline is not None:
            timings["plan"] = 0.0
            return request.outline
        on_token = token_events(emit, t0)
        ts = time.perf_counter()
        template = request.template
        outline = self.planner.plan(
            template, request.fields, seed=request.seed, params=request.sampling, on_token=on_token
        ).outline
        outline = HEADING_SOURCES[self.headings](template, outline)
        timings["plan"] = time.perf_counter() - ts
        return outline
