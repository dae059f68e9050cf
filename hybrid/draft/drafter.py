"""The Drafter: template + fields -> plan -> fill -> rerank -> N ranked drafts.

Owns: the public drafting API (Drafter), the order of its stages and their timings. It is the only
module that imports every stage (planner, filler, reranker); it adds no modelling of its own. Its
pieces live beside it and every public name is importable from here: the checkpoint and the filler
factory (hybrid.draft.loading), the argument defaults and checks, once per call
(hybrid.draft.arguments), the precedent start and the revise/rank stage (hybrid.draft.stages), the
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

from hybrid.common.config import SHIPPED_CHECKPOINT
from hybrid.common.errors import SamplingError
from hybrid.common.options import SEED
from hybrid.draft.arguments import (
    DRAFT_SAMPLING,
    HEADING_SOURCES,
    HEADINGS,
    check_draft_args,
    check_precedent_args,
    checked,
    resolve_precedents,
    sampling_params,
)
from hybrid.draft.loading import FILLERS, fill_function, load_model
from hybrid.draft.loading import default_guidance as _default_guidance  # noqa: F401 (re-exported)
from hybrid.draft.loading import default_steps as _default_steps  # noqa: F401 (re-exported)
from hybrid.draft.result import Draft, DraftEvent, source_note
from hybrid.draft.stages import (  # MAX_START_TOKENS re-exported
    MAX_START_TOKENS,  # noqa: F401
    finish_drafts,
    prepare_precedents,
    ranked_drafts,
    revise_variants,
    variant_bodies,
)
from hybrid.draft.streaming import run_streamed, step_events, token_events
from hybrid.fill.api import FillResult
from hybrid.rank.likelihood import trained_window
from hybrid.rank.rerank import ContractSpec, Reranker, RerankWeights
from hybrid.templates.template import load_template

__all__ = [
    "Drafter",
    "Draft",
    "DraftEvent",
    "load_model",
    "SHIPPED_CHECKPOINT",
    "FILLERS",
    "HEADINGS",
    "DRAFT_SAMPLING",
    "check_draft_args",
    "check_precedent_args",
    "resolve_precedents",
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

    def __init__(
        self,
        model,
        tokenizer,
        *,
        filler: str = "diffusion",
        fill_config=None,
        weights: RerankWeights | None = None,
        record: dict | None = None,
        path=None,
        headings: str = "template",
        library=None,
        fact_guard: bool = True,
    ):
        from hybrid.plan.planner import Planner

        fill_function(filler)  # an unknown name fails here, not at the first draft
        if headings not in HEADING_SOURCES:
            raise SamplingError(f"headings must be one of {', '.join(HEADINGS)}, got {headings!r}.")
        self.headings = headings
        self.model, self.tokenizer = model.eval(), tokenizer
        self.filler, self.fill_config = filler, fill_config
        self.planner = Planner(model, tokenizer)
        self.record = record or {}
        self.reranker = Reranker(model, tokenizer, weights, **trained_window(self.record))
        self.path = str(path) if path is not None else None
        self._lock = threading.RLock()
        self._library = library  # hybrid.precedents.library.Library; None = the default cache, loaded on first use
        # hybrid.fidelity.fact_guard on template drafts: names, numbers, durations the deal does not state
        self.fact_guard = fact_guard

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

    def precedent_library(self):
        """The clause library precedents are drawn from (hybrid.precedents.library.load_library on first use)."""
        if self._library is None:
            from hybrid.precedents.library import load_library

            self._library = load_library().use_relevance()
        return self._library

    # stages

    def plan(self, template, fields: dict, *, seed: int = 0, on_token=None, **sampling):
        """The outline for (template, fields): a hybrid.plan.planner.PlanResult (.outline, .text, .seconds)."""
        SEED.check("seed", seed, error=SamplingError)  # the rule draft and fill hold it to (check_fill_args)
        params = sampling_params(sampling, DRAFT_SAMPLING)
        with self._lock:
            return self.planner.plan(load_template(template), fields, seed=seed, params=params, on_token=on_token)

    def fill(
        self,
        template,
        fields: dict,
        outline: dict,
        *,
        n: int = 4,
        steps: int | None = None,
        guidance: float | None = None,
        seed: int = 0,
        on_step=None,
        **sampling,
    ) -> list[FillResult]:
        """n filled variants of the skeleton of `outline` (unranked, in batch order)."""
        steps, guidance, params = checked(n, steps, guidance, seed, 0.0, sampling)
        with self._lock:
            skeleton = load_template(template).render_skeleton(outline, fields)
            return self._fill(skeleton, n, steps, guidance, seed, params, on_step)

    def _fill(
        self, skeleton, n, steps, guidance, seed, params, on_step, start=None, precedent_facts=()
    ) -> list[FillResult]:
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
        fill = fill_function(self.filler, self.fill_config)
        extra = {} if start is None else {"start": start}  # only EDIT_FILLERS edit a start (checked in _events)
        return fill(
            self.model,
            self.tokenizer,
            skeleton,
            n=n,
            steps=steps,
            guidance=guidance,
            seed=seed,
            params=params,
            on_step=on_step,
            **extra,
        )


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

    def draft(
        self,
        template,
        fields: dict,
        n: int = 4,
        steps: int | None = None,
        guidance: float | None = None,
        seed: int = 0,
        *,
        outline: dict | None = None,
        mmr: float = 0.0,
        precedents: int | None = None,
        precedent_guidance: float | None = None,
        precedent_start: float | None = None,
        **sampling,
    ) -> list[Draft]:
        """n drafts ranked best first. outline=None plans one; the n variants share it.

        steps (K >= 1, default the filler's DEFAULT_STEPS), guidance (w >= 0), seed (int),
        mmr in [0, 1) (0 = order by score), sampling: temperature, top_k, top_p, min_p,
        repetition_penalty, no_repeat_ngram (SamplingParams over DRAFT_SAMPLING, used by both
        the planner and the filler). Every Draft carries the call's stage timings (seconds).
        Left unset (None), precedents, precedent_guidance and precedent_start take their defaults
        (resolve_precedents): with the diffusion or ar-batched filler a draft edits from one precedent per
        section at precedent_start 0 (only what the deal needs changed is rewritten); precedents=0 drafts
        from scratch. When none of the three is set
        and the default cannot be had (no corpus to build the clause library from), the draft is made
        from scratch with a warning; a call that sets one of them raises instead. Every Draft's `settings` holds the
        values used.
        precedents: k precedents of the train split per section (0 = off); each section then lists
        them under "precedents". With precedent_start 1 they sit before its span (hybrid.skeleton.from_precedents).
        precedent_guidance (>= 0, 0 = off) is added to the guidance weight: the unconditional rows
        hide the span's heading and its precedents, so it pushes the draft towards the precedent.
        precedent_start in [0, 1] (1 = off; the diffusion or ar-batched filler; needs precedents >= 1, and
        precedent_guidance 0): a draft edited from precedent. Each variant's span starts as a
        precedent of its own (variant 0 the top one, the others their seeded draws:
        hybrid.skeleton.from_precedents.variant_draws), adapted to the deal, each word masked with
        probability precedent_start (the deal's facts kept, the precedent's foreign facts always
        masked); the filler writes only the masked tokens, a hole that writes a word the library
        never writes twice is written again and at last given back its precedent's word, and a
        clause ends where its precedent ends (hybrid.precedents.start, hybrid.fill.diffusion.start).
        Nothing sits beside the spans then; each section lists the precedent its variant edited.
        """
        drafts = None
        steps, guidance, params, *prec = self._draft_args(
            n, steps, guidance, seed, mmr, sampling, precedents, precedent_guidance, precedent_start
        )
        for ev in self._events(template, fields, n, steps, guidance, seed, outline, mmr, params, None, *prec):
            drafts = ev.drafts
        return drafts

    def stream(
        self,
        template,
        fields: dict,
        n: int = 4,
        steps: int | None = None,
        guidance: float | None = None,
        seed: int = 0,
        *,
        outline: dict | None = None,
        mmr: float = 0.0,
        precedents: int | None = None,
        precedent_guidance: float | None = None,
        precedent_start: float | None = None,
        **sampling,
    ):
        """Like draft(), yielding DraftEvents as the work happens; the last event ("rank") holds the drafts.

        The work runs in a worker thread that holds this Drafter's lock; closing the generator
        early stops it at its next token or step. Arguments are validated here, before any work.
        """
        steps, guidance, params, *prec = self._draft_args(
            n, steps, guidance, seed, mmr, sampling, precedents, precedent_guidance, precedent_start
        )
        return run_streamed(
            lambda emit: self._events(template, fields, n, steps, guidance, seed, outline, mmr, params, emit, *prec)
        )

    def _draft_args(
        self, n, steps, guidance, seed, mmr, sampling, precedents, precedent_guidance, precedent_start
    ) -> tuple:
        """(steps, guidance, params, precedents, precedent_guidance, precedent_start, defaulted) of a draft()
        or stream() call, every argument checked; defaulted: none of the three precedent arguments was set,
        so a missing clause library means drafting from scratch with a warning (_events)."""
        steps, guidance, params = checked(n, steps, guidance, seed, mmr, sampling)
        defaulted = precedents is None and precedent_guidance is None and precedent_start is None
        return (
            steps,
            guidance,
            params,
            *resolve_precedents(precedents, precedent_guidance, precedent_start, self.filler),
            defaulted,
        )


    def _events(
        self,
        template,
        fields,
        n,
        steps,
        guidance,
        seed,
        outline,
        mmr,
        params,
        emit,
        precedents,
        precedent_guidance,
        precedent_start,
        defaulted=False,
    ):
        """The pipeline as a generator of DraftEvents, arguments already checked (checked, resolve_precedents): plan
        -> precedents -> fill -> revise -> rank. `emit` (stream only) receives the in-stage events. defaulted:
        precedents was left unset, so a clause library that cannot be had means drafting from scratch (a
        warning), not an error (hybrid.draft.stages.prepare_precedents)."""
        with self._lock:
            t0 = time.perf_counter()
            template = load_template(template)
            values = template.validate_fields(fields)
            timings = {}
            outline = self._plan_stage(template, values, outline, seed, params, emit, t0, timings)
            yield DraftEvent("plan", time.perf_counter() - t0, outline=outline)

            skeleton = template.render_skeleton(outline, values)
            ts = time.perf_counter()
            prep = prepare_precedents(
                self, skeleton, template, values, n, seed, precedents, precedent_guidance, precedent_start, defaulted
            )
            if prep.used:
                if prep.start is None:
                    guidance = guidance + precedent_guidance
                timings["precedents"] = time.perf_counter() - ts
                yield DraftEvent("precedents", time.perf_counter() - t0, sources=prep.provenance)

            ts = time.perf_counter()
            on_step = step_events(emit, t0)
            fills = self._fill(
                prep.skeleton, n, steps, guidance, seed, params, on_step, start=prep.start, precedent_facts=prep.facts
            )
            timings["fill"] = time.perf_counter() - ts

            ts = time.perf_counter()
            fills, revisions = revise_variants(template, prep.skeleton, fills, prep.provenance, prep.library)
            timings["revise"] = time.perf_counter() - ts
            ts = time.perf_counter()
            drafts = self.rank(template, values, outline, fills, mmr=mmr, seed=seed, source_facts=prep.facts)
            timings["rank"] = time.perf_counter() - ts
            timings["total"] = time.perf_counter() - t0
            finish_drafts(drafts, timings, prep, revisions, template, values)
            yield DraftEvent("rank", time.perf_counter() - t0, drafts=drafts)

    def _plan_stage(self, template, values, outline, seed, params, emit, t0, timings) -> dict:
        """The draft's outline: `outline` as given, or planned (its headings as self.headings says) with
        the planner's tokens emitted as "plan_token" events; its time into timings["plan"]."""
        if outline is not None:
            timings["plan"] = 0.0
            return outline
        on_token = token_events(emit, t0)
        ts = time.perf_counter()
        outline = self.planner.plan(template, values, seed=seed, params=params, on_token=on_token).outline
        outline = HEADING_SOURCES[self.headings](template, outline)
        timings["plan"] = time.perf_counter() - ts
        return outline
