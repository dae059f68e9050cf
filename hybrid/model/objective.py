"""The forward masking process q(x_t | x_0) and the MDLM loss (SUBS parameterization).

Owns: which span tokens get masked at time t, the SUBS logit transform (never predict <mask>;
unmasked tokens are carried through, so they contribute no loss) and the continuous-time ELBO
weighting, and where a backbone's fill-mode outputs are read (`fill_shift`, `align_fill`). Knows
nothing about windows, tokenizers or optimizers; calls no backbone.
"""

from dataclasses import dataclass

import torch
import torch.nn.functional as F

from hybrid.model.schedule import Schedule

__all__ = ["q_xt", "subs_logits", "mdlm_loss", "DiffusionLoss", "sample_times", "fill_shift", "align_fill"]


def sample_times(batch: int, generator: torch.Generator | None = None, device=None) -> torch.Tensor:
    """Antithetic (low-discrepancy) times in (0, 1]: one stratum per row, lower-variance ELBO."""
    u = torch.rand(1, generator=generator, device=device)
    t = (u + torch.arange(batch, device=device) / batch) % 1.0
    return t.clamp_min(1e-4)


def q_xt(
    x0: torch.Tensor, span: torch.Tensor, t: torch.Tensor, schedule: Schedule, mask_id: int,
    generator: torch.Generator | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Mask each span token of x0 (B, T) independently with prob 1 - alpha(t) (t per row).

    Returns (x_t, masked) where masked (B, T) bool marks the positions turned into <mask>.
    Skeleton tokens (span False) are never masked.
    """
    p = schedule.mask_prob(t)[:, None]  # (B, 1)
    r = torch.rand(x0.shape, generator=generator, device=x0.device)
    masked = (r < p) & span
    return torch.where(masked, torch.full_like(x0, mask_id), x0), masked


def fill_shift(model) -> bool:
    """Whether `model`'s fill-mode output at position i-1 is its prediction of the token at i: a
    pretrained AR base adapted to diffusion keeps its head's next-token alignment (DiffuLLaMA, Dream;
    `shift_fill_logits` in its config, set by `hybrid train --init-from`). Our own backbone, trained for
    fill from scratch, predicts position i at i (no such field: False). `model` is the unwrapped backbone."""
    return bool(getattr(model.cfg, "shift_fill_logits", False))


def align_fill(x: torch.Tensor, shift: bool) -> torch.Tensor:
    """Fill-mode outputs x (B, T, ...) (logits or hidden states) re-indexed so that [:, i] predicts
    token i: x itself without shift; with it [:, i] = x[:, i-1], and position 0, which has no
    predecessor in the window, keeps its own output (a window that starts inside a span)."""
    if not shift:
        return x
    return torch.cat([x[:, :1], x[:, :-1]], 1)  # (B, T, ...)


def subs_logits(logits: torch.Tensor, mask_id: int) -> torch.Tensor:
    """SUBS: the model never predicts the absorbing <mask> token (log-prob -inf)."""
    return logits.index_fill(-1, torch.tensor([mask_id], device=logits.device), float("-inf"))


@dataclass
class DiffusionLoss:
    loss: torch.Tensor  # scalar: ELBO-weighted NLL averaged over span tokens (nats/token)
    nlls: torch.Tensor  # (B, T) weighted NLL per position (0 off masked positions)
    token_mask: torch.Tensor  # (B, T) bool: the masked span positions that carry loss
    n_span_tokens: int  # span tokens the average is over


def mdlm_loss(
    logits: torch.Tensor, x0: torch.Tensor, masked: torch.Tensor, span: torch.Tensor, t: torch.Tensor,
    schedule: Schedule, mask_id: int,
) -> DiffusionLoss:
    """Continuous-time MDLM ELBO on span tokens: weight(t) * CE at masked positions.

    The average is over all span tokens (masked or not), so it is an unbiased estimate of the
    per-token negative ELBO, comparable to an AR per-token NLL (nats).
    """
    logp = F.log_softmax(subs_logits(logits.float(), mask_id), dim=-1)
    nll = -logp.gather(-1, x0[..., None]).squeeze(-1)  # (B, T)
    w = schedule.loss_weight(t)[:, None]  # (B, 1)
    nlls = torch.where(masked, nll * w, torch.zeros_like(nll))
    n = int(span.sum())
    return DiffusionLoss(loss=nlls.sum() / max(n, 1), nlls=nlls, token_mask=masked, n_span_tokens=n)
