"""The strongest fair AR baseline: every span of every variant decoded at once, KV-cached.

Owns: a causal decode loop whose batch rows are (variant, span) pairs. Each row is prefilled with
the skeleton text before its span (at most `window` - budget tokens, other spans' bodies left
out: they are not written yet), then writes its span token by token until <eos> or its budget,
all rows advancing together: max-budget decode steps for the whole contract instead of the sum of
the budgets. Same processors, locks and <eos> rules as the sequential AR fill (hybrid.arfill) and
the diffusion filler; one generator per variant, seeded from (seed, variant) as the diffusion
filler's, so variant i does not depend on n. Knows nothing about diffusion or templates.

What it gives up against hybrid.arfill: a span does not see the bodies written before it (the
diffusion filler's spans see each other's partial text). It is the speed yardstick
(benchmarks/fill.py), not the quality one.
"""

import time

import torch

from hybrid.arfill import _Decoder, prepare
from hybrid.fill_api import FillResult, StepEvent
from hybrid.precision import autocast
from hybrid.sampling import SamplingParams, apply_processors, sample, variant_seed
from hybrid.skeleton import DEFAULT_WINDOW

__all__ = ["fill"]


def _prefixes(sk, window: int) -> list[list[int]]:
    """Per span: the skeleton tokens before it (other spans' positions dropped), the last ones that fit
    in `window` with the span's budget."""
    is_span = sk.span_mask.tolist()
    ids = sk.ids.tolist()
    out = []
    for s in sk.spans:
        before = [t for t, sp in zip(ids[: s.start], is_span[: s.start]) if not sp]
        keep = max(1, window - s.length)
        out.append(before[-keep:])
    return out


@torch.no_grad()
def fill(model, tokenizer, skeleton, n: int = 8, steps: int | None = None, guidance: float = 1.0, seed: int = 0,
         params: SamplingParams | None = None, on_step=None, window: int = DEFAULT_WINDOW, precision: str = "auto") -> list[FillResult]:
    """Write every span of `skeleton` of n variants in one batch of n x spans rows (same API as the
    other fillers; steps is ignored, guidance must be 1 = off). on_step(StepEvent) after each token step."""
    t_start = time.perf_counter()
    sk, params, procs, device = prepare(model, tokenizer, skeleton, n, steps, guidance, seed, params, window)
    V, eos, pad = model.cfg.vocab_size, sk.eos_id, tokenizer.pad_id
    S = len(sk.spans)
    if S == 0:
        return [FillResult([], [], sk.render([]), {"skeleton": 0.0, "fill": 0.0, "total": 0.0, "forwards": 0}, 0) for _ in range(n)]
    B = n * S  # row b = variant b // S, span b % S
    gens = [torch.Generator(device=device).manual_seed(variant_seed(seed, v)) for v in range(n)]
    ban = torch.zeros(V, dtype=torch.bool, device=device)
    ban[[i for i in tokenizer.special_ids if i != eos and i < V]] = True
    lengths = torch.tensor([s.length for s in sk.spans], device=device).repeat(n)  # (B,)
    L = max(s.length for s in sk.spans)
    ids_all, locked_all = sk.ids.tolist(), sk.locked.tolist()
    lock_tok = torch.full((S, L), -1, dtype=torch.long)  # pinned token per (span, offset), -1 = free
    lock_end = torch.zeros(S, dtype=torch.long)
    for s in sk.spans:
        for t in range(s.length - 1):
            if locked_all[s.start + t]:
                lock_tok[s.index, t] = ids_all[s.start + t]
                lock_end[s.index] = t + 1
    lock_tok, lock_end = lock_tok.to(device).repeat(n, 1), lock_end.to(device).repeat(n)  # (B, L), (B,)
    with autocast(device, precision):
        t0 = time.perf_counter()
        dec = _Decoder(model, B, window + L, pad, device)
        pre = _prefixes(sk, window)
        T = max(len(p) for p in pre)
        ids = torch.full((B, T), pad, dtype=torch.long)
        valid = torch.zeros(B, T, dtype=torch.bool)
        for b in range(B):
            p = pre[b % S]
            ids[b, T - len(p) :] = torch.tensor(p)
            valid[b, T - len(p) :] = True
        dec.feed(ids.to(device), valid.to(device))
        t_skel = time.perf_counter() - t0
        out = torch.full((B, L), pad, dtype=torch.long, device=device)
        done = torch.zeros(B, dtype=torch.bool, device=device)
        decode_steps = 0
        for t in range(L):
            logits = dec.last.masked_fill(ban, float("-inf"))
            logits[:, eos] = logits[:, eos].masked_fill(t < lock_end, float("-inf"))
            logits = apply_processors(procs, out[:, :t], logits)
            if params.greedy:
                x = sample(logits, None, temperature=0.0)
            else:
                u = torch.cat([torch.rand(S, 1, generator=g, device=device) for g in gens])  # (B, 1), variant-major
                x = sample(logits, None, temperature=1.0, uniforms=u)
            x = torch.where(lock_tok[:, t] >= 0, lock_tok[:, t], x)
            x = torch.where(t == lengths - 1, torch.full_like(x, eos), x)  # a span's last position is <eos>
            x = torch.where(done, pad, x)
            out[:, t] = x
            done = done | (x == eos)
            decode_steps += 1
            if bool(done.all()):
                break
            dec.feed(x[:, None], ~done[:, None])
            if on_step is not None:
                on_step(StepEvent(t + 1, L, int((~done).sum()), 0.0))
    t_end = time.perf_counter()
    rows = out.tolist()
    results = []
    for v in range(n):
        toks = [r[: r.index(eos)] if eos in r else r for r in rows[v * S : (v + 1) * S]]
        texts = [tokenizer.decode(t) for t in toks]
        timings = {"skeleton": t_skel, "fill": t_end - t0, "total": t_end - t_start, "forwards": dec.forwards}
        results.append(FillResult(texts, toks, sk.render(texts), timings, decode_steps))
    return results
