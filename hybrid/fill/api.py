"""The contract both fillers (hybrid.fill.diffusion.sampler, hybrid.fill.ar, hybrid.fill.ar_batched)
share with their callers.

Owns: what a fill is asked for (FillJob), what it returns (FillResult), what its `on_step` callback receives
(StepEvent), the shape check of an edit start (`check_start`) and the processor list every filler applies
(`fill_processors`). A fill's n, steps, guidance and seed come checked from the draft's request (hybrid.draft.request).
Knows nothing about models, skeleton layout (hybrid.skeleton.tokenized) or how a filler decodes.
"""

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from hybrid.common.errors import SamplingError
from hybrid.common.options import MAX_VARIANTS
from hybrid.common.sampling import NoRepeatNGram, SamplingParams, TopP

__all__ = ["FillJob", "FillResult", "StepEvent", "check_start", "fill_job", "fill_processors", "FILL_TOP_P_CANDIDATES",
           "MAX_VARIANTS"]

FILL_TOP_P_CANDIDATES = 64
"""Every filler draws top-p among this many best tokens (TopP(candidates=...)). Why: TopP sorts the
whole vocabulary per row; masked slots far from committed text have flat distributions, so the
full sort took about a quarter of a fill (the profile: benchmarks/results/figures-without-a-result-file.md)."""


@dataclass(frozen=True)
class FillJob:
    """What one fill call is asked to write, the same for every filler; each filler's own knobs are its config
    (FillConfig, ARConfig). As transformers' GenerationConfig, a call's keywords update it: `fill(model, tokenizer,
    skeleton, n=4, seed=7)` is `fill(model, tokenizer, skeleton, FillJob(n=4, seed=7))` (fill_job)."""

    n: int = 8  # variants, one generator each (variant i does not depend on n)
    steps: int | None = None  # denoising steps K (None: the filler's default; the AR fillers ignore it)
    guidance: float | None = None  # w in uncond + w (cond - uncond), 1 = off (None: the filler's default)
    seed: int = 0  # the same seed gives the same drafts
    params: SamplingParams | None = None  # the processors shared with the planner (None: SamplingParams())
    start: list | None = None  # an edit start: start[v][s] token ids, <mask> where the filler writes (check_start)


def fill_job(job: FillJob | None, keywords: dict) -> FillJob:
    """`job` (or the defaults) with the keywords a fill call was given beside it; an unknown keyword is a TypeError."""
    return replace(job or FillJob(), **keywords)


def check_start(start, n: int, spans: int) -> None:
    """An edit start (hybrid.text.start) as the fillers that edit take it: n lists of one token list per span."""
    if start is not None and (len(start) != n or any(len(x) != spans for x in start)):
        raise SamplingError(
            f"start must hold n={n} lists of {spans} token lists (one per span), got {[len(x) for x in start]} lists."
        )


def fill_processors(params, positional_ngram: bool = False) -> list:
    """params.processors() as every filler applies them: TopP taken among the FILL_TOP_P_CANDIDATES
    best tokens; NoRepeatNGram and the fact guard dropped when the caller applies them per position
    itself (the diffusion filler)."""
    out = []
    for p in params.processors():
        if isinstance(p, TopP):
            out.append(TopP(p.top_p, candidates=FILL_TOP_P_CANDIDATES))
        elif not (positional_ngram and (isinstance(p, NoRepeatNGram) or p is params.fact_guard)):
            out.append(p)
    return out


@dataclass
class FillResult:
    """One filled variant."""

    spans: list[str]  # body text per span (up to its first <eos>)
    tokens: list[list[int]]  # body token ids per span (no <eos>)
    text: str  # the whole document: skeleton with the bodies in place
    timings: dict  # seconds: "skeleton", "fill" (all steps), "total", plus filler-specific counters
    steps: int  # denoising steps run (diffusion) or decode steps (AR)


@dataclass
class StepEvent:
    """What a filler's `on_step` callback receives after each step (diffusion) or span (AR)."""

    step: int  # 1-based
    steps: int  # total planned (K, or the number of spans)
    masked: int  # span slots still open over all variants
    seconds: float  # wall time of this step
    render: Callable[[str], list[str]] | None = field(default=None, repr=False)
    """The filler's renderer of the partly filled variants (called by `partial`, only on demand)."""

    def partial(self, glyph: str = "_") -> list[str] | None:
        """Every variant's document as filled so far, an open slot shown as `glyph` (None when the
        filler gave no renderer). Rendering decodes every variant, so it is done only when asked; call
        it inside on_step (the diffusion filler renders its state at the time of the call)."""
        return None if self.render is None else self.render(glyph)
