"""Which masked slots a denoising step commits: schedules and the confidence rule.

Owns: the commit schedules (`CommitSchedule` classes: the fraction of a span's masked slots left
at progress t, behind `get_commit_schedule`, which raises on an unknown name; not the noise
schedules of hybrid.diffusion.schedule) and `ConfidenceCommit`: per
span a quota from the schedule, an active window (semi-autoregressive blocks), and the choice of
the most confident active slots plus every one at or over a threshold. Pure tensor code; knows
nothing about models, caches or sampling.
"""

import math

import torch

from hybrid.errors import SamplingError

__all__ = ["COMMIT_SCHEDULES", "CommitSchedule", "get_commit_schedule", "ConfidenceCommit"]

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
