"""The diffusion filler's settings: FillConfig (validated at construction) and the default K and w.

Owns: every knob of hybrid.fill.diffusion.sampler.fill besides n, steps, guidance and seed (commit
schedule, semi-AR blocks, threshold commits, committed-slot K/V refresh, pages, the entropy
guard, precision, chunking) with its range and its measured reason, and DEFAULT_STEPS /
DEFAULT_GUIDANCE. Knows nothing about models or the denoising loop.
"""

from dataclasses import dataclass

from hybrid.common.errors import SamplingError
from hybrid.common.options import bounded, check_fields, int_range
from hybrid.common.precision import PRECISIONS
from hybrid.fill.diffusion.commit import COMMIT_RULES, COMMIT_SCHEDULES

__all__ = ["FillConfig", "DEFAULT_STEPS", "DEFAULT_GUIDANCE", "CPU_MAX_BATCH_TOKENS"]

# K: the speed/quality knob. With this small model a span's later tokens are rarely confident
# before its earlier ones are written, so quality holds only near one committed token per span per
# step (plus the confident ones): K ~ the longest clause budget (256). The speed comes from every
# span of every variant moving at once. The shipped model at these defaults against the AR
# fillers: benchmarks/results/fill-cpu.json (benchmarks/fill.py); the earlier K / block / threshold
# sweep that chose them: benchmarks/results/figures-without-a-result-file.md.
DEFAULT_STEPS = 256
# w (uncond + w (cond - uncond); 1 = off): guidance costs ~1.5x the time (a second row per query).
# The earlier sweep that chose "off" ran with unconditional rows reading conditional keys/values
# (fixed since); benchmarks/fill.py --guidance-sweep re-measures it.
DEFAULT_GUIDANCE = 1.0
CPU_MAX_BATCH_TOKENS = 8192  # FillConfig.max_batch_tokens=None on CPU: query tokens per forward call


@dataclass
class FillConfig:
    """How the filler spends its K steps. Defaults are the measured speed/quality point (benchmarks/fill.py)."""

    commit: str = "auto"
    """"auto" | "confidence" | "runs": which slots a step commits (hybrid.fill.diffusion.commit). "confidence": the
    schedule's quota of most confident active slots plus those over `threshold`; "runs": the first
    masked slot of every run of masked slots, all at once (made for edit starts, whose holes are
    short runs; schedule, threshold and block are then unused); "auto": "runs" when the fill edits a
    start, else "confidence". Why "runs" for edits: benchmarks/results/fill-edit-cpu.json (editing at
    t = 0.25; its point "256" is runs, against confidence at K = 16, 64 and 256, each with its speed
    and bpb against the batched AR fill given the same start; fill-edit-default-cpu.json re-measures
    the default pair)."""
    run_chunk: int = bounded(0, int_range(0))
    """>= 0. commit="runs": a run of masked slots longer than this is written as pieces of this many
    slots, each from its own first slot, all at once (bounds the steps a long hole takes); 0 = whole runs."""
    schedule: str = "linear"
    """"cosine" | "linear": fraction of a span's masked slots left after step k of K."""
    threshold: float = 0.8
    """[0, 1). > 0: also commit every active slot whose confidence >= threshold (Fast-dLLM), so spans may finish before
    step K; 0 = the schedule alone."""
    refresh_every: int = bounded(0, int_range(0))
    """>= 0. Recompute every slot's keys/values every r steps; 1 = every step (exact, slowest); 0 = never after step 0
    (measured: no better with 8 or 16)."""
    block: int = bounded(2, int_range(0))
    """>= 0. Semi-autoregressive commits: only a span's first max(block, quota) masked slots may be committed (and are
    recomputed) each step; 0 = the whole span."""
    window: int = bounded(384, int_range(64))
    """>= 64. Tokens of context per page (training used 512; 384 measured as good and faster: the run is in
    benchmarks/results/figures-without-a-result-file.md)."""
    min_context: int = bounded(64, int_range(0))
    """>= 0. Skeleton tokens a page keeps around its spans at least."""
    guard_n: int = bounded(3, int_range(2))
    """>= 2. n-gram size the repetition guard counts."""
    guard_ratio: float = 0.5
    """[0, 1). Re-mask a span whose distinct-n ratio falls below this; 0 = guard off."""
    guard_min: int = bounded(12, int_range(1))
    """>= 1. Committed n-grams a span needs before the guard judges it."""
    guard_max: int = bounded(2, int_range(0))
    """>= 0. Re-masks per span at most (so the loop always ends in K steps)."""
    logits_chunk: int = bounded(512, int_range(1))
    """>= 1. Slots per output-projection chunk (bounds the (chunk, vocab) logits memory)."""
    precision: str = "auto"
    """"auto" | "fp32" | "bf16": autocast of the forwards ("auto" = bf16 on CUDA, fp32 on CPU:
    hybrid.common.precision)."""
    max_batch_tokens: int | None = None
    """Query tokens per forward call (pages are split across calls above it: bounds activation memory); 0 = one call per
    step; None = 8192 on CPU, 0 on CUDA."""

    def __post_init__(self):
        if self.commit not in COMMIT_RULES:
            raise SamplingError(f"commit must be one of {', '.join(COMMIT_RULES)}, got {self.commit!r}.")
        if self.schedule not in COMMIT_SCHEDULES:
            raise SamplingError(f"schedule must be one of {', '.join(COMMIT_SCHEDULES)}, got {self.schedule!r}.")
        if not 0 <= self.threshold < 1:
            raise SamplingError(f"threshold must be in [0, 1) (0 = schedule), got {self.threshold}.")
        check_fields(self, error=SamplingError)
        if self.max_batch_tokens is not None:
            int_range(0).check("max_batch_tokens", self.max_batch_tokens, off="None", error=SamplingError)
        if self.precision not in PRECISIONS:
            raise SamplingError(f"precision must be one of {', '.join(PRECISIONS)}, got {self.precision!r}.")
        if not 0 <= self.guard_ratio < 1:
            raise SamplingError(f"guard_ratio must be in [0, 1) (0 = off), got {self.guard_ratio}.")
