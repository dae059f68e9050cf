"""A reference masked-diffusion sampler: the plain loop that hybrid.fill.diffusion.sampler makes fast.

Read this file first if you know diffusion language models and want to know what the filler does;
read sampler.py when you need to know how it does it quickly. This one has no key/value cache, no
pages, no batching of variants, no repetition or fact guards and no edit starts: every step runs
the whole document through the backbone again. It is slow on purpose and exists to be read and to
be tested against (tests/fill/diffusion/test_reference.py checks that the fast sampler writes the
same tokens at the settings where the two must agree).

The model (absorbing-state, or "masked", discrete diffusion, as in MDLM, Sahoo et al. 2024): a
clause body is a span of `length` slots. At t = 1 every open slot holds the absorbing <mask>
token; the backbone, run in "fill" mode (span tokens see the whole document, skeleton tokens see
only the skeleton), predicts a distribution over the vocabulary for every slot at once. Sampling
walks t from 1 to 0 in K steps; a slot that leaves <mask> never goes back (absorbing state), and
the model is never allowed to predict <mask> or another special token (the SUBS parameterization).

One step k of K:
1. logits for every slot from one forward over the document as it stands. With classifier-free
   guidance weight w != 1 (Ho & Salimans 2022, as used for text by e.g. LLaDA) a second forward in
   which span tokens cannot see their own section's heading gives the unconditional logits, and
   logits = uncond + w * (cond - uncond): w = 1 is the conditional model, w > 1 follows the
   heading more, w = 0 is the unconditional model.
2. how many slots each span commits: the commit schedule gamma(t) is the fraction of a span's
   masked slots still masked at progress t (linear 1 - t, or cosine cos(pi t / 2) as in MaskGIT);
   a span with c masked slots commits c - floor(c * gamma((k+1)/K) / gamma(k/K)), at least one,
   and all of them on the last step.
3. which slots: the most confident ones (confidence = the top probability of the slot's
   distribution), ties to the leftmost; with `block` > 0 only the span's first max(block, quota)
   masked slots are candidates (semi-autoregressive, as in LLaDA); with `threshold` > 0 every
   candidate at or over it is committed too (as in Fast-dLLM). Committed slots are drawn:
   argmax at temperature 0, else one categorical draw at that temperature.
4. <eos> ends a span: every slot after a span's first committed <eos> becomes <eos>. <eos> is
   not allowed before a span's last locked token (a locked token is pinned text, e.g. a party name).

The fast sampler adds, on top of this loop: the skeleton's keys/values computed once, slot
keys/values reused across steps (exact with refresh_every=1), long documents cut into pages,
all variants in one batch with a generator each, the n-gram blocker, the repetition guard, the
fact guard's second look, the "runs" commit rule and edit starts. docs/ARCHITECTURE.md places
both in the pipeline.
"""

import math
from dataclasses import dataclass

import torch

from hybrid.common.errors import SamplingError
from hybrid.model.backbone import fill_mask
from hybrid.model.objective import align_fill, fill_shift
from hybrid.skeleton.tokenized import TokenSkeleton

__all__ = ["ReferenceCommit", "reference_fill"]

SCHEDULES = {
    "linear": lambda t: 1.0 - t,
    "cosine": lambda t: math.cos(math.pi / 2 * t) if t < 1 else 0.0,
}


def _logits(model, ids: torch.Tensor, sk: TokenSkeleton, w: float, banned: list[int]) -> torch.Tensor:
    """(T, V) guided logits for every position of the document `ids` (T,), specials but <eos> banned."""
    span = sk.span_mask[None]
    shift = fill_shift(model)  # an adapted AR base predicts position i from its output at i - 1
    cond = align_fill(model(ids[None], "fill", attn_mask=fill_mask(span, span)), shift)[0].float()
    if w != 1:
        hide = fill_mask(span, span, sk.section[None], sk.heading_ids[None], span)  # span queries: no own heading
        uncond = align_fill(model(ids[None], "fill", attn_mask=hide), shift)[0].float()
        cond = uncond + w * (cond - uncond)
    cond[:, banned] = float("-inf")
    return cond


def _quota(masked: int, k: int, K: int, gamma) -> int:
    """How many of a span's `masked` slots step k of K commits at least."""
    if k == K - 1:
        return masked
    ratio = gamma((k + 1) / K) / max(gamma(k / K), 1e-12)
    return max(1, masked - math.floor(masked * ratio))


@dataclass(frozen=True)
class ReferenceCommit:
    """Which masked slots a step commits, as FillConfig's schedule, block and threshold (the fast sampler's
    "confidence" rule), checked at construction."""

    schedule: str = "linear"  # "linear" | "cosine": the share of a span's masked slots left after step k of K
    block: int = 0  # > 0: only a span's first max(block, quota) masked slots may be committed; 0 = the whole span
    threshold: float = 0.0  # > 0: also commit every candidate at least this confident; 0 = the schedule alone

    def __post_init__(self):
        if self.schedule not in SCHEDULES:
            raise SamplingError(f"schedule must be one of {', '.join(SCHEDULES)}, got {self.schedule!r}.")


@torch.no_grad()
def reference_fill(
    model,
    tokenizer,
    sk: TokenSkeleton,
    steps: int,
    guidance: float = 1.0,
    commit: ReferenceCommit = ReferenceCommit(),
    temperature: float = 0.0,
    generator: torch.Generator | None = None,
) -> list[list[int]]:
    """Fill every span of `sk` in `steps` denoising steps; the body token ids per span (no <eos>).

    One draft, the whole document in one context (it must fit the model's max_len). temperature 0
    draws greedily (deterministic); otherwise `generator` drives the draws.
    """
    if len(sk) > model.cfg.max_len:
        raise SamplingError(f"the reference sampler reads the document in one context: {len(sk)} tokens > "
                            f"max_len={model.cfg.max_len}.")
    schedule, block, threshold = commit.schedule, commit.block, commit.threshold
    gamma, eos = SCHEDULES[schedule], sk.eos_id
    V = model.output_weight.shape[0]
    banned = [i for i in tokenizer.special_ids if i != eos and i < V]
    ids = sk.ids.clone()
    masked = sk.span_mask & ~sk.locked  # the absorbing state: every open slot starts as <mask>
    eos_from = {}  # span -> first offset where <eos> may stand (after its last locked text token)
    for s in sk.spans:
        locked_text = sk.locked[s.start : s.end - 1].nonzero()
        eos_from[s.index] = int(locked_text.max()) + 1 if len(locked_text) else 0
    for k in range(steps):
        if not bool(masked.any()):
            break
        logits = _logits(model, ids, sk, float(guidance), banned)
        for s in sk.spans:
            open_ = s.start + masked[s.start : s.end].nonzero().flatten()  # this span's masked positions
            if len(open_) == 0:
                continue
            lg = logits[open_].clone()
            too_early = (open_ - s.start) < eos_from[s.index]
            lg[too_early, eos] = float("-inf")
            quota = _quota(len(open_), k, steps, gamma)
            cand = torch.arange(len(open_))
            if block > 0 and k < steps - 1:  # semi-autoregressive: only the leftmost masked slots
                cand = cand[: max(block, quota)]
            if temperature > 0:
                lg = lg / temperature
            conf = lg.softmax(-1).amax(-1)  # confidence: the top probability of the slot's distribution
            if k == steps - 1:
                chosen = cand
            else:
                by_conf = cand[torch.argsort(-conf[cand], stable=True)]  # most confident first, ties leftmost
                keep = torch.zeros(len(cand), dtype=torch.bool)
                keep[:quota] = True
                if threshold > 0:
                    keep |= conf[by_conf] >= threshold
                chosen = by_conf[keep]
            if temperature > 0:
                draw = torch.multinomial(lg[chosen].softmax(-1), 1, generator=generator).flatten()
            else:
                draw = lg[chosen].argmax(-1)
            ids[open_[chosen]] = draw
            masked[open_[chosen]] = False
            is_eos = (ids[s.start : s.end] == eos) & ~masked[s.start : s.end]
            first = int(is_eos.nonzero()[0])  # the span's last slot is a locked <eos>, so there is one
            ids[s.start + first : s.end] = eos  # <eos> ends the span
            masked[s.start + first : s.end] = False
    out = []
    for s in sk.spans:
        body = ids[s.start : s.end].tolist()
        out.append(body[: body.index(eos)])
    return out
