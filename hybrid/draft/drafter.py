"""The Drafter: template + fields -> plan -> fill -> rerank -> N ranked drafts.

Owns: the public drafting API (Drafter; its result types Draft and DraftEvent live in
hybrid.draft.result and are importable from here), argument validation for a draft (once per call),
the filler factory, the stage timings and the streaming of progress events. It is the only
module that imports every stage (planner, filler, reranker); it adds no modelling of its own.

Thread safety: a Drafter holds one re-entrant lock and every public method (plan, fill, rank,
draft and each stream) runs under it, so concurrent calls on one Drafter from several threads
are safe and run one after another (the backbone, the planner's grammar cache and the model's
rotary tables are shared state). For parallel throughput, load one Drafter per thread.

Seeds: the planner and the filler each draw from their own torch.Generator seeded with `seed`,
so the same (model, template, fields, settings, seed) gives the same drafts in the same order.
"""

import codecs
import queue
import threading
import time
import warnings
from dataclasses import replace
from pathlib import Path

import torch

from hybrid.common.config import SHIPPED_CHECKPOINT
from hybrid.common.errors import CheckpointError, HybridError, SamplingError
from hybrid.common.options import (
    DEFAULT_PRECEDENT_START,
    DEFAULT_PRECEDENTS,
    EDIT_FILLERS,
    MMR,
    PRECEDENT_GUIDANCE,
    PRECEDENTS,
    SEED,
)
from hybrid.common.sampling import SamplingParams
from hybrid.data.clean import strip_numbering
from hybrid.draft.provenance import attach_sources
from hybrid.draft.result import Draft, DraftEvent, source_note
from hybrid.fill.api import FillResult, check_fill_args
from hybrid.rank.likelihood import trained_window
from hybrid.rank.rerank import ContractSpec, Reranker, RerankWeights
from hybrid.templates.template import load_template

MAX_START_TOKENS = 4096  # a precedent start is tokenized up to this; the filler cuts it to the span's budget

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

FILLERS = ("diffusion", "ar", "ar-batched")
_HEADINGS = {
    "template": lambda template, outline: template.with_template_headings(outline),
    "planned": lambda template, outline: outline,
}
HEADINGS = tuple(_HEADINGS)
"""Where a planned draft's title and section headings come from: the template's defaults for the
planned clause types ("template", the default: the small shipped model's free-text headings are
often garbled) or the planner's own text ("planned")."""
DRAFT_SAMPLING = {"temperature": 0.8, "top_p": 0.95}  # the `hybrid plan` defaults; overridden by **sampling
_SAMPLING_FIELDS = ("temperature", "top_k", "top_p", "min_p", "repetition_penalty", "no_repeat_ngram")
_MASK_GLYPH = "_"  # how stream() shows a slot the filler has not committed yet


def load_model(path=None, device=None):
    """(backbone on `device`, tokenizer, training record, path) of a checkpoint dir; None = the shipped model.

    device None = CUDA when available, else CPU. CheckpointError names a missing or broken path.
    """
    from hybrid.model.pretrained import BASES
    from hybrid.model.resolve import resolve
    from hybrid.model.shipped import locate

    path = locate(path) if path is not None else None  # a bare NAME shipped in checkpoints/NAME
    p = Path(path) if path is not None else SHIPPED_CHECKPOINT
    if path is None and not (p / "model.safetensors").is_file():
        raise CheckpointError(
            f"the shipped model is missing: {p} (train it with `hybrid train`, or pass a checkpoint directory)."
        )
    if str(path) not in BASES and not p.is_dir():  # before loading, which imports transformers (seconds)
        raise CheckpointError(f"checkpoint directory not found: {p}")
    model, tok, record = resolve(path if str(path) in BASES else p)  # ours, a Llama directory or a fetched base name
    device = device or ("cuda" if torch.cuda.is_available() else "cpu")
    return model.to(device), tok, record, p


def _default_steps() -> int:
    from hybrid.fill.diffusion.sampler import DEFAULT_STEPS

    return DEFAULT_STEPS


def _default_guidance() -> float:
    from hybrid.fill.diffusion.sampler import DEFAULT_GUIDANCE

    return DEFAULT_GUIDANCE


def fill_function(filler: str, fill_config=None):
    """The fill function of a filler (FILLERS); all take the arguments of hybrid.fill.api's contract
    (the EDIT_FILLERS also a precedent `start`)."""
    if filler == "diffusion":
        from functools import partial

        from hybrid.fill.diffusion.sampler import fill

        return partial(fill, config=fill_config)
    if filler == "ar":
        from hybrid.fill.ar import fill

        return fill
    if filler == "ar-batched":
        from hybrid.fill.ar_batched import fill

        return fill
    raise SamplingError(f"filler must be one of {', '.join(FILLERS)}, got {filler!r}.")


def sampling_params(sampling: dict, defaults: dict) -> SamplingParams:
    """SamplingParams from keyword arguments; an unknown name is a SamplingError listing the known ones."""
    unknown = [k for k in sampling if k not in _SAMPLING_FIELDS]
    if unknown:
        raise SamplingError(f"unknown sampling argument {unknown[0]!r}; allowed: {', '.join(_SAMPLING_FIELDS)}.")
    return SamplingParams(**{**defaults, **sampling})


def check_draft_args(n, steps, guidance, seed, mmr: float = 0.0) -> None:
    """SamplingError naming the argument, its range and the value: n in 1..hybrid.common.options.MAX_VARIANTS (64),
    steps >= 1,
    guidance >= 0, seed an integer, mmr in [0, 1)."""
    check_fill_args(n, steps, guidance, seed)
    MMR.check("mmr", mmr, error=SamplingError)


def _checked(n, steps, guidance, seed, mmr, sampling: dict):
    """(steps, guidance, SamplingParams) of a call's arguments, defaults filled in, every one checked (once per
    call)."""
    steps = _default_steps() if steps is None else steps
    guidance = _default_guidance() if guidance is None else guidance
    check_draft_args(n, steps, guidance, seed, mmr)
    return steps, guidance, sampling_params(sampling, DRAFT_SAMPLING)


def resolve_precedents(precedents=None, precedent_guidance=None, precedent_start=None, filler: str = "diffusion",
                       names: dict | None = None) -> tuple:
    """(precedents, precedent_guidance, precedent_start) of a draft, each None (unset) given its default, then
    checked (check_precedent_args; names as there):
    - precedents: hybrid.common.options.DEFAULT_PRECEDENTS (1) when the filler edits a start (EDIT_FILLERS) or
      precedent_start / precedent_guidance is set; else 0 (the "ar" filler drafts from scratch);
    - precedent_guidance: 0 (off);
    - precedent_start: DEFAULT_PRECEDENT_START (0: edit from precedent, only what the deal needs changed)
      when precedents >= 1, precedent_guidance
      is 0 and the filler edits; else 1 (off: with precedents >= 1 they sit beside the span).
    So a call that sets nothing edits from one precedent per section; precedents=0 drafts from scratch."""
    w = 0.0 if precedent_guidance is None else precedent_guidance
    edits = filler in EDIT_FILLERS
    if precedents is None:
        asked = precedent_start not in (None, 1, 1.0) or w not in (0, 0.0)  # compares, never raises on a bad type
        precedents = DEFAULT_PRECEDENTS if edits or asked else 0
    if precedent_start is None:
        precedent_start = DEFAULT_PRECEDENT_START if precedents not in (0, False) and w in (0, 0.0) and edits else 1.0
    check_precedent_args(precedents, w, precedent_start, names)
    if precedent_start < 1 and not edits:
        n = {"precedent_start": "precedent_start", "filler": "filler"} | (names or {})
        raise SamplingError(
            f"{n['precedent_start']} < 1 needs a filler that edits a start ({', '.join(EDIT_FILLERS)}), "
            f"got {n['filler']} {filler!r} with {n['precedent_start']} {precedent_start!r}."
        )
    return precedents, w, precedent_start


def check_precedent_args(precedents, precedent_guidance, precedent_start=1.0, names: dict | None = None) -> None:
    """SamplingError naming the argument: precedents an integer in [0, MAX_PRECEDENTS], precedent_guidance finite >= 0,
    precedent_start in [0, 1] (< 1 needs precedents). names: how the message calls each argument
    (the CLI passes its options: {"precedents": "--precedents", ...}); default the Python names."""
    n = {k: k for k in ("precedents", "precedent_guidance", "precedent_start")} | (names or {})
    sep = "=" if names is None else " "
    PRECEDENTS.check(n["precedents"], precedents, error=SamplingError)
    w = precedent_guidance
    PRECEDENT_GUIDANCE.check(n["precedent_guidance"], w, error=SamplingError)
    if w and not precedents:
        raise SamplingError(
            f"{n['precedent_guidance']} needs {n['precedents']} >= 1, got {n['precedents']}{sep}{precedents!r} "
            f"with {n['precedent_guidance']}{sep}{w!r}."
        )
    from hybrid.precedents.start import check_start_noise

    if check_start_noise(precedent_start) < 1 and not precedents:
        raise SamplingError(
            f"{n['precedent_start']} needs {n['precedents']} >= 1, got {n['precedents']}{sep}{precedents!r} "
            f"with {n['precedent_start']}{sep}{precedent_start!r}."
        )
    if w and precedent_start < 1:
        raise SamplingError(
            f"{n['precedent_guidance']} guides on the precedents beside each clause; editing from precedent "
            f"({n['precedent_start']} < 1) puts none beside it (each variant edits its own): leave "
            f"{n['precedent_guidance']} at 0, got {n['precedent_guidance']}{sep}{w!r} with "
            f"{n['precedent_start']}{sep}{precedent_start!r}."
        )


class _Cancelled(Exception):
    """Raised inside a stream's worker when the consumer closed the stream."""


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
        if headings not in _HEADINGS:
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
        steps, guidance, params = _checked(n, steps, guidance, seed, 0.0, sampling)
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

    @staticmethod
    def _revise(template, skeleton, fills, provenance, library):
        """(each variant's bodies after the draft-level consistency pass, its report: hybrid.draft.revise)."""
        from hybrid.draft.revise import revise, source_sections

        bodies = [[strip_numbering(b) for b in (f.spans if isinstance(f, FillResult) else f)] for f in fills]
        sources = source_sections(library) if library is not None else {}
        preamble = skeleton.segments[1].text
        return revise(bodies, skeleton.spans, preamble, provenance, sources, keep=template.defined_terms)

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
            variants = [[strip_numbering(b) for b in (f.spans if isinstance(f, FillResult) else f)] for f in fills]
            spec = ContractSpec.from_template(template, values, source_facts)
            ranked = self.reranker.rank(skeleton, variants, spec, mmr=mmr)
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
        return self._stream(template, fields, n, steps, guidance, seed, outline, mmr, params, *prec)

    def _draft_args(
        self, n, steps, guidance, seed, mmr, sampling, precedents, precedent_guidance, precedent_start
    ) -> tuple:
        """(steps, guidance, params, precedents, precedent_guidance, precedent_start, defaulted) of a draft()
        or stream() call, every argument checked; defaulted: none of the three precedent arguments was set,
        so a missing clause library means drafting from scratch with a warning (_events)."""
        steps, guidance, params = _checked(n, steps, guidance, seed, mmr, sampling)
        defaulted = precedents is None and precedent_guidance is None and precedent_start is None
        return (
            steps,
            guidance,
            params,
            *resolve_precedents(precedents, precedent_guidance, precedent_start, self.filler),
            defaulted,
        )

    def _stream(
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
        precedents,
        precedent_guidance,
        precedent_start,
        defaulted=False,
    ):
        q: queue.Queue = queue.Queue()
        cancel = threading.Event()
        done = object()

        def emit(ev):
            if cancel.is_set():
                raise _Cancelled
            q.put(ev)

        def work():
            try:
                for ev in self._events(
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
                    defaulted,
                ):
                    emit(ev)
            except _Cancelled:
                pass
            except BaseException as e:  # handed to the consumer, raised there
                q.put(e)
            finally:
                q.put(done)

        worker = threading.Thread(target=work, name="hybrid-drafter-stream", daemon=True)
        worker.start()
        try:
            while True:
                item = q.get()
                if item is done:
                    break
                if isinstance(item, BaseException):
                    raise item
                yield item
        finally:
            cancel.set()
            worker.join()

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
        """The pipeline as a generator of DraftEvents, arguments already checked (_checked, resolve_precedents); `emit`
        (stream only) receives the in-stage events. defaulted: precedents was left unset, so a clause
        library that cannot be had means drafting from scratch (a warning), not an error."""
        with self._lock:
            t0 = time.perf_counter()
            template = load_template(template)
            values = template.validate_fields(fields)
            timings = {}
            if outline is None:
                on_token = None
                if emit is not None:
                    dec = codecs.getincrementaldecoder("utf-8")(errors="replace")

                    def on_token(tok_id, piece, forced):
                        emit(DraftEvent("plan_token", time.perf_counter() - t0, text=dec.decode(piece), forced=forced))

                ts = time.perf_counter()
                outline = self.planner.plan(template, values, seed=seed, params=params, on_token=on_token).outline
                outline = _HEADINGS[self.headings](template, outline)
                timings["plan"] = time.perf_counter() - ts
            else:
                timings["plan"] = 0.0
            yield DraftEvent("plan", time.perf_counter() - t0, outline=outline)

            skeleton = template.render_skeleton(outline, values)
            provenance = start = None
            facts = ()  # the facts of the precedents' source contracts (skeleton.from_precedents.source_facts)
            note = library = None
            ts = time.perf_counter()
            if precedents:
                try:
                    library = self.precedent_library()
                # no corpus, or a library of another corpus: a default falls back, a request fails
                except HybridError as e:
                    if not defaulted:
                        raise
                    note = (
                        f"drafted from scratch: no clause library ({e}); pass precedents=0 (--precedents 0) "
                        "to draft from scratch without this warning"
                    )
                    warnings.warn(note, stacklevel=3)
                    precedents, precedent_start = 0, 1.0
            settings = {
                "precedents": precedents,
                "precedent_guidance": precedent_guidance,
                "precedent_start": precedent_start,
                "precedent_note": note,
            }
            if precedents:
                from hybrid.skeleton.from_precedents import draft_from_precedents

                skeleton, provenance, start, facts = draft_from_precedents(
                    self.tokenizer,
                    skeleton,
                    library,
                    template,
                    values,
                    n,
                    k=precedents,
                    seed=seed,
                    start_noise=precedent_start,
                    max_start_tokens=MAX_START_TOKENS,
                )
                if start is None:
                    guidance = guidance + precedent_guidance
                timings["precedents"] = time.perf_counter() - ts
                yield DraftEvent("precedents", time.perf_counter() - t0, sources=provenance)
            on_step = None
            if emit is not None:

                def on_step(ev):
                    partial = ev.partial(_MASK_GLYPH)
                    emit(
                        DraftEvent("fill_step", time.perf_counter() - t0, step=ev.step, steps=ev.steps, partial=partial)
                    )

            ts = time.perf_counter()
            fills = self._fill(skeleton, n, steps, guidance, seed, params, on_step, start=start, precedent_facts=facts)
            timings["fill"] = time.perf_counter() - ts

            ts = time.perf_counter()
            fills, revisions = self._revise(template, skeleton, fills, provenance, library)
            timings["revise"] = time.perf_counter() - ts
            ts = time.perf_counter()
            drafts = self.rank(template, values, outline, fills, mmr=mmr, seed=seed, source_facts=facts)
            timings["rank"] = time.perf_counter() - ts
            timings["total"] = time.perf_counter() - t0
            for d in drafts:
                d.timings, d.settings, d.consistency = timings, settings, revisions[d.variant]
                for sec, prov in zip(d.sections, provenance[d.variant] if provenance else []):
                    sec["precedents"] = prov
            attach_sources(drafts, library, template, values)  # each cited section's source text (Draft.edits)
            yield DraftEvent("rank", time.perf_counter() - t0, drafts=drafts)
