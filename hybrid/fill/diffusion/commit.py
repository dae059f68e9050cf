"""Which masked slots a denoising step commits: schedules and the confidence rule.

Owns: the commit schedules (`CommitSchedule` classes: the fraction of a span's masked slots left
at progress t, behind `get_commit_schedule`, which raises on an unknown name; not the noise
schedules of hybrid.model.schedule) and the commit rules behind `get_commit_rule` (raises on
an unknown name): `ConfidenceCommit` ("confidence"): per span a quota from the schedule, an active
window (semi-autoregressive blocks), and the choice of the most confident active slots plus every
one at or over a threshold; `RunCommit` ("runs"): the first masked slot of every run of masked
slots, all at once (an edit start's holes, each written left to right, every hole in parallel).
Pure tensor code; knows nothing about models, caches or sampling.
"""

import math

import torch

from hybrid.common.errors import SamplingError
from hybrid.common.options import (
    COMMIT_RULES,  # ("auto", "confidence", "runs"); auto: "runs" for a fill with a start, else "confidence"
)

__all__ = ["COMMIT_SCHEDULES", "COMMIT_RULES", "CommitSchedule", "get_commit_schedule", "ConfidenceCommit", "RunCommit",
           "get_commit_rule", "resolve_commit"]

COMMIT_SCHEDULES = ("cosine", "linear")  # not the noise schedules of diffusion/schedule.py
NO_SLOT = 1 << 30  # a slot index beyond any span: the start of a per-span minimum (scatter_reduce "amin")


class CommitSchedule:
    """gamma(t): the fraction of masked slots left at progress t in [0, 1] (1 -> 0)."""

    name = ""

    def __call__(self, t: float) -> float:
        raise NotImplementedError


class CosineCommit(CommitSchedule):
    name = "cosine"

    def __call__(self, t: float) -> float:
        return math.cos(math.pi / 2 * t) if t < 1 else 0.0  # MaskGIT


class LinearCommit(CommitSchedule):
    name = "linear"

    def __call__(self, t: float) -> float:
        return 1.0 - t


def get_commit_schedule(name: str) -> CommitSchedule:
    for cls in (CosineCommit, LinearCommit):
        if cls.name == name:
            return cls()
    raise SamplingError(f"schedule must be one of {', '.join(COMMIT_SCHEDULES)}, got {name!r}.")


class ConfidenceCommit:
    """Per span: commit its `quota` most confident active slots, plus every active slot whose
    confidence is >= `threshold` (Fast-dLLM); with `block` > 0 only each span's first
    max(block, quota) masked slots are active (semi-autoregressive, LLaDA-style)."""

    commits_all = False

    def __init__(self, schedule: str, threshold: float, block: int, steps: int):
        self.gamma, self.threshold, self.block, self.K = get_commit_schedule(schedule), threshold, block, steps

    def quota(self, k: int, cnt: torch.Tensor) -> torch.Tensor:
        """(n_inst,) how many of its `cnt` masked slots each span commits at least at step k (all on the last)."""
        if k == self.K - 1:
            return cnt
        ratio = self.gamma((k + 1) / self.K) / max(self.gamma(k / self.K), 1e-12)
        return (cnt - torch.floor(cnt.double() * ratio).long()).clamp_min(1)

    def active(self, k: int, masked: torch.Tensor, inst: torch.Tensor, n_inst: int):
        """(active (M, L) bool, quota (n_inst,)) for slots `masked` of span instances `inst` (-1: none)."""
        minst = torch.where(masked, inst, n_inst)
        cnt = torch.bincount(minst.flatten(), minlength=n_inst + 1)[:n_inst]
        quota = self.quota(k, cnt)
        if k == self.K - 1 or self.block == 0:
            return masked, quota
        m = masked.long()
        c = m.cumsum(1)
        before = torch.full((n_inst + 1,), NO_SLOT, dtype=torch.long, device=masked.device)
        before.scatter_reduce_(0, minst.flatten(), (c - m).flatten(), "amin")  # masked slots before each span
        rank = c - 1 - before[minst]  # order of a masked slot among its span's masked slots
        width = quota.clamp_min(self.block)
        return masked & (rank < width[inst.clamp_min(0)]), quota

    def select(self, conf: torch.Tensor, inst_p: torch.Tensor, quota: torch.Tensor, n_inst: int) -> torch.Tensor:
        """(P,) bool for the active slots with confidences `conf` of instances `inst_p`."""
        P = inst_p.shape[0]
        cnt = torch.bincount(inst_p, minlength=n_inst)
        o1 = torch.argsort(-conf, stable=True)
        o2 = o1[torch.argsort(inst_p[o1], stable=True)]  # by span, most confident first
        starts = torch.cumsum(cnt, 0) - cnt
        rank = torch.empty(P, dtype=torch.long, device=conf.device)
        rank[o2] = torch.arange(P, device=conf.device) - starts[inst_p[o2]]
        commit = rank < quota[inst_p]
        if self.threshold > 0:
            commit |= conf >= self.threshold
        return commit


class RunCommit:
    """Every step, the first masked slot of each run of masked slots (a slot whose predecessor in its
    span is committed, or that opens its span) is active, and all of them are committed: each run is
    written left to right, every run at once, so a fill takes as many steps as its longest run.
    With `chunk` > 0 a run longer than that is cut into pieces of `chunk` slots, each written left to
    right from its own first slot (the steps are then bounded by `chunk`, plus re-masks).

    Made for editing (hybrid.fill.diffusion.start): an edit start's holes are short runs between kept
    words, each hole's first token sees the kept words on both sides, and two tokens of one piece are
    never drawn independently of each other. On a span that starts fully masked it is one token per
    step (per piece), as block 1 is. `prev_slot` (M, L) is each slot's predecessor slot in its span
    (-1: none), hybrid.fill.diffusion.layout.PageLayout's, whose span slots are consecutive columns."""

    commits_all = True  # every active slot is committed: the loop need not rank them by confidence

    def __init__(self, prev_slot: torch.Tensor, steps: int, chunk: int = 0):
        self.prev, self.K, self.chunk = prev_slot, steps, chunk
        col = torch.arange(prev_slot.shape[1], device=prev_slot.device).expand_as(prev_slot)
        assert bool(((prev_slot < 0) | (prev_slot == col - 1)).all()), "a span's slots are consecutive columns"
        self.col = col

    def active(self, k: int, masked: torch.Tensor, inst: torch.Tensor, n_inst: int):
        """(active (M, L) bool, quota (n_inst,)): the runs' first masked slots, and with `chunk` every
        chunk-th slot of a run after it (every masked slot on the last step)."""
        minst = torch.where(masked, inst, n_inst)
        quota = torch.bincount(minst.flatten(), minlength=n_inst + 1)[:n_inst]
        if k == self.K - 1:
            return masked, quota
        head = masked & ~(masked.gather(1, self.prev.clamp_min(0)) & (self.prev >= 0))
        if self.chunk:
            first = torch.where(head, self.col, -1).cummax(1).values  # the head of the run each slot is in
            head = masked & ((self.col - first) % self.chunk == 0)
        return head, quota

    def select(self, conf: torch.Tensor, inst_p: torch.Tensor, quota: torch.Tensor, n_inst: int) -> torch.Tensor:
        """(P,) bool: every active slot."""
        return torch.ones_like(conf, dtype=torch.bool)


def resolve_commit(name: str, edit: bool) -> str:
    """The rule "auto" means: "runs" when the fill edits a start (`edit`), else "confidence"; other names as
    given (FillConfig checks them; get_commit_rule refuses an unknown one)."""
    return ("runs" if edit else "confidence") if name == "auto" else name


def get_commit_rule(name: str, *, schedule: str, threshold: float, block: int, steps: int, prev_slot: torch.Tensor,
                    run_chunk: int = 0):
    """The commit rule called `name` (COMMIT_RULES but "auto", which resolve_commit turns into one) for a fill of
    `steps` steps."""
    if name == "confidence":
        return ConfidenceCommit(schedule, threshold, block, steps)
    if name == "runs":
        return RunCommit(prev_slot, steps, run_chunk)
    raise SamplingError(f"commit must be one of {', '.join(COMMIT_RULES)}, got {name!r}.")
