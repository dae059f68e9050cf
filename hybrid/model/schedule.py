"""Noise schedules of the absorbing-state process: pure tensor math, no model, no tokens.

A schedule gives alpha(t), the probability that a token is still unmasked at time t in [0, 1]
(alpha(0) ~ 1, alpha(1) ~ 0), and the continuous-time ELBO weight -alpha'(t) / (1 - alpha(t))
that multiplies the cross-entropy of masked tokens (MDLM, Sahoo et al. 2024, eq. 10-11).
"""

import math

import torch

from hybrid.common.errors import ConfigError

__all__ = ["Schedule", "LogLinear", "Cosine", "Linear", "get_schedule", "SCHEDULES"]


class Schedule:
    eps: float = 1e-3  # keeps alpha(1) > 0 and the weight finite at t -> 0

    def alpha(self, t: torch.Tensor) -> torch.Tensor:
        raise NotImplementedError

    def alpha_rate(self, t: torch.Tensor) -> torch.Tensor:
        """d alpha / dt (negative)."""
        raise NotImplementedError

    def mask_prob(self, t: torch.Tensor) -> torch.Tensor:
        return 1.0 - self.alpha(t)

    def loss_weight(self, t: torch.Tensor) -> torch.Tensor:
        return -self.alpha_rate(t) / (1.0 - self.alpha(t)).clamp_min(1e-8)


class LogLinear(Schedule):
    """alpha(t) = 1 - (1 - eps) t (total noise sigma = -log(1 - (1-eps) t)); weight = 1/t."""

    def alpha(self, t):
        return 1.0 - (1.0 - self.eps) * t

    def alpha_rate(self, t):
        return torch.full_like(t, -(1.0 - self.eps))


class Cosine(Schedule):
    """alpha(t) = cos(pi/2 * t) scaled into [eps, 1]."""

    def alpha(self, t):
        return self.eps + (1.0 - self.eps) * torch.cos(math.pi / 2 * t)

    def alpha_rate(self, t):
        return -(1.0 - self.eps) * math.pi / 2 * torch.sin(math.pi / 2 * t)


class Linear(Schedule):
    """alpha(t) = 1 - t clipped to [eps, 1 - eps]."""

    def alpha(self, t):
        return (1.0 - t).clamp(self.eps, 1.0 - self.eps)

    def alpha_rate(self, t):
        return torch.full_like(t, -1.0)


SCHEDULES = {"loglinear": LogLinear, "cosine": Cosine, "linear": Linear}


def get_schedule(name: str) -> Schedule:
    if name not in SCHEDULES:
        raise ConfigError(f"schedule must be one of {sorted(SCHEDULES)}, got {name!r}.")
    return SCHEDULES[name]()
