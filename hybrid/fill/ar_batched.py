"""The strongest fair AR baseline: every span of every variant decoded at once, KV-cached.

Owns: a causal decode loop whose batch rows are (variant, span) pairs. Each row is prefilled with
the skeleton text before its span (at most `window` - budget tokens, other spans' bodies left
out: they are not written yet), then writes its span token by token until <eos> or its budget,
all rows advancing together: max-budget decode steps for the whole contract instead of the sum of
the budgets. Same processors, locks and <eos> rules as the sequential AR fill (hybrid.fill.ar) and
the diffusion filler; one generator per variant, seeded from (seed, variant) as the diffusion
filler's, so variant i does not depend on n. Knows nothing about diffusion or templates.

What it gives up against hybrid.fill.ar: a span does not see the bodies written before it (the
diffusion filler's spans see each other's partial text). It is the speed yardstick
(benchmarks/fill.py), not the quality one.

Editing (`start=`, an edit start as the diffusion filler takes it: hybrid.text.start): each
row's kept tokens are forced at the offsets the diffusion filler pins them to, and only the holes
(and what follows a start that does not hold its whole text) are sampled. A run of kept tokens is
fed in one forward together with the token sampled before it, so a step costs one forward per
hole token, not per span token: the strongest fair AR baseline for editing. The holes get the
same rules as the diffusion filler's (no <eos> before the last kept token, no piece glued onto a
kept word, a hole that writes a word outside SpanStart.words given its precedent's tokens back).
"""

import time
from dataclasses import replace

import torch

from hybrid.common.precision import autocast
from hybrid.common.sampling import apply_processors, sample, variant_seed
from hybrid.fill.api import FillJob, FillResult, StepEvent, check_start, fill_job
from hybrid.fill.ar import ARConfig, DrawRules, _Decoder, prepare

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


def _prefilled(model, sk, B: int, window: int, capacity: int, pad: int, device) -> _Decoder:
    """A decoder of B rows (variant-major: row b is span b % S) prefilled with each span's skeleton
    text before it (_prefixes), left-padded to a common length."""
    S = len(sk.spans)
    dec = _Decoder(model, B, capacity, pad, device)
    pre = _prefixes(sk, window)
    T = max(len(p) for p in pre)
    ids = torch.full((B, T), pad, dtype=torch.long)
    valid = torch.zeros(B, T, dtype=torch.bool)
    for b in range(B):
        p = pre[b % S]
        ids[b, T - len(p) :] = torch.tensor(p)
        valid[b, T - len(p) :] = True
    dec.feed(ids.to(device), valid.to(device))
    return dec


@torch.no_grad()
def fill(model, tokenizer, skeleton, job: FillJob | None = None, on_step=None, config: ARConfig | None = None,
         **kw) -> list[FillResult]:
    """Write every span of `skeleton` of n variants in one batch of n x spans rows (same API as the
    other fillers; job as hybrid.fill.api.FillJob or its fields as keywords: steps is ignored, guidance must be
    1 = off). on_step(StepEvent) after each token step. config: ARConfig (window, precision, kept_per_step).
    start: start[v][s] token ids (hybrid.text.start), as the diffusion filler's `start`: kept
    tokens forced, only the holes written (module docstring); ARConfig.kept_per_step k > 0 feeds at most k
    tokens per row per step (1: one token, kept or sampled), less padding than whole uneven runs."""
    t_start = time.perf_counter()
    job, cfg = fill_job(job, kw), config or ARConfig()
    n, seed, window, precision = job.n, job.seed, cfg.window, cfg.precision
    sk, params, procs, device = prepare(model, tokenizer, skeleton, job.params)
    if job.start is not None:
        check_start(job.start, n, len(sk.spans))
        return _edit(model, tokenizer, sk, replace(job, params=params), cfg, procs, t_start)
    V, eos, pad = model.cfg.vocab_size, sk.eos_id, tokenizer.pad_id
    S = len(sk.spans)
    if S == 0:
        return [
            FillResult([], [], sk.render([]), {"skeleton": 0.0, "fill": 0.0, "total": 0.0, "forwards": 0}, 0)
            for _ in range(n)
        ]
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
        dec = _prefilled(model, sk, B, window, window + L, pad, device)
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


def _targets(tokenizer, sk, n: int, start) -> tuple[list[list[int]], list[list[bool]], list[list]]:
    """Per row b = v * S + s: the token forced at each offset of its span (-1: written), the offsets
    that open a word right after a kept token, and the holes with their precedent's tokens
    [(offsets, original ids or None, allowed words)], laid out as hybrid.fill.diffusion.start.apply_start
    lays a start into the span's slots (skeleton locks first; a start's `spaced` form after a locked
    frame; the span's last slot left free; <eos> right after a start that holds its whole text)."""
    from hybrid.fill.diffusion.start import start_holes

    ids_all, locked_all, mask, eos = sk.ids.tolist(), sk.locked.tolist(), tokenizer.mask_id, sk.eos_id
    targets, word_start, holes = [], [], []
    for v in range(n):
        for s in sk.spans:
            tgt = [ids_all[s.start + t] if locked_all[s.start + t] else -1 for t in range(s.length)]
            tgt[s.length - 1] = eos  # a span's last position is <eos>
            ws, hs = [False] * s.length, []
            ids = start[v][s.index]
            if ids:
                if getattr(ids, "spaced", None) is not None and locked_all[s.start]:
                    ids = ids.spaced
                free = [t for t in range(s.length - 1) if not locked_all[s.start + t]]
                k = min(len(ids), len(free))
                if getattr(ids, "words", None) is not None:
                    hs = [(slots, original, ids.words) for slots, original in start_holes(free[:k], ids, mask)]
                for j in range(k):
                    if ids[j] != mask:
                        tgt[free[j]] = ids[j]
                        if free[j] + 1 < s.length:
                            ws[free[j] + 1] = True
                if getattr(ids, "ends", False) and len(ids) < len(free):
                    tgt[free[len(ids)]] = eos
            targets.append(tgt)
            word_start.append([w and tgt[t] < 0 for t, w in enumerate(ws)])
            holes.append(hs)
    return targets, word_start, holes


def _hole_logits(last, writing, out, last_kept, word_start, rules: DrawRules, glue, eos: int):
    """The logits of the rows `writing` at their next hole, from their last outputs `last`: specials
    banned, <eos> not before a row's last kept token, no piece glued onto a kept word, then the shared
    processors with each row's own text so far as context."""
    device, V, pad = last.device, last.shape[-1], rules.pad
    logits = last.masked_fill(rules.ban, float("-inf"))
    off = [len(out[b]) for b in writing]
    no_eos = torch.tensor([o < last_kept[b] for o, b in zip(off, writing)], device=device)
    logits[:, eos] = logits[:, eos].masked_fill(no_eos, float("-inf"))
    glued = torch.tensor([word_start[b][o] for o, b in zip(off, writing)], device=device)
    logits = logits.masked_fill(glued[:, None] & glue[None, :V], float("-inf"))
    width = max(off)  # each row's own text so far, left-padded, as the processors' context
    ctx = torch.tensor([[pad] * (width - len(out[b])) + out[b] for b in writing], dtype=torch.long).reshape(
        len(writing), width
    )
    return apply_processors(rules.procs, ctx.to(device), logits)


def _revert_holes(tokenizer, out, holes, eos: int) -> int:
    """Give a hole that wrote a word no contract uses its precedent's tokens back (in `out`); how many."""
    from hybrid.fill.diffusion.start import writes_unknown_word

    reverted = 0
    for b, hs in enumerate(holes):
        for offsets, original, words in hs:
            if original is None or offsets[-1] >= len(out[b]):
                continue
            if writes_unknown_word(tokenizer, [out[b][t] for t in offsets], words, eos):
                for t, o in zip(offsets, original):
                    out[b][t] = o
                reverted += 1
    return reverted


def _edit(model, tokenizer, sk, job: FillJob, cfg: ARConfig, procs, t_start: float) -> list[FillResult]:
    """The editing decode of job.start: per step every row feeds its sampled token and the kept run after it in
    one forward (at most cfg.kept_per_step tokens, 0 = the whole run), then samples its next hole if it has
    reached it (rows advance through their own offsets)."""
    from hybrid.fill.diffusion.guards import glue_tokens

    n, seed, params, start, device = job.n, job.seed, job.params, job.start, next(model.parameters()).device
    window, precision, chunk = cfg.window, cfg.precision, cfg.kept_per_step
    V, eos, pad = model.cfg.vocab_size, sk.eos_id, tokenizer.pad_id
    S = len(sk.spans)
    B = n * S
    gens = [torch.Generator(device=device).manual_seed(variant_seed(seed, v)) for v in range(n)]
    ban = torch.zeros(V, dtype=torch.bool, device=device)
    ban[[i for i in tokenizer.special_ids if i != eos and i < V]] = True
    glue = glue_tokens(tokenizer, V).to(device)
    rules = DrawRules(ban, procs, params, pad)
    targets, word_start, holes = _targets(tokenizer, sk, n, start)
    lengths = [len(t) for t in targets]
    last_kept = [max([t for t, x in enumerate(tg[:-1]) if x >= 0], default=-1) for tg in targets]
    L = max(lengths)
    with autocast(device, precision):
        t0 = time.perf_counter()
        # room for uneven kept runs' padding
        dec = _prefilled(model, sk, B, window, window + (4 if chunk != 1 else 1) * L, pad, device)
        t_skel = time.perf_counter() - t0
        out = [[] for _ in range(B)]  # each row's span tokens so far (offset = index)
        pending = [[] for _ in range(B)]  # tokens written but not yet fed
        done = [False] * B
        decode_steps = 0
        while True:
            # each open row: its kept run up to the next offset it writes (fed with the token before it)
            for b in range(B):
                while not done[b] and targets[b][len(out[b])] >= 0 and (not chunk or len(pending[b]) < chunk):
                    x = targets[b][len(out[b])]
                    out[b].append(x)
                    if x == eos:
                        done[b] = True
                    else:
                        pending[b].append(x)
            if all(done):
                break
            feed = [p if p and not done[b] else [] for b, p in enumerate(pending)]
            width = max(len(p) for p in feed)
            if width:  # right-aligned: each row's last fed token is the one its next hole follows
                ids = torch.tensor([[pad] * (width - len(p)) + p for p in feed], dtype=torch.long)
                valid = torch.tensor([[False] * (width - len(p)) + [True] * len(p) for p in feed])
                dec.feed(ids.to(device), valid.to(device))
            pending = [[] for _ in range(B)]
            writing = [b for b in range(B) if not done[b] and targets[b][len(out[b])] < 0]
            decode_steps += 1
            # every variant draws S uniforms every step, writing or not: each row advances on its own
            # schedule, so variant i's draws (and text) do not depend on the other rows or on n
            u = None if params.greedy else torch.cat([torch.rand(S, 1, generator=g, device=device) for g in gens])
            if not writing:
                continue
            r = torch.tensor(writing, device=device)
            logits = _hole_logits(dec.last[r], writing, out, last_kept, word_start, rules, glue, eos)
            if params.greedy:
                x = sample(logits, None, temperature=0.0)
            else:
                x = sample(logits, None, temperature=1.0, uniforms=u[r])
            for b, t in zip(writing, x.tolist()):
                out[b].append(t)
                if t == eos:
                    done[b] = True
                else:
                    pending[b].append(t)
    t_end = time.perf_counter()
    reverted = _revert_holes(tokenizer, out, holes, eos)
    results = []
    for v in range(n):
        toks = [r[: r.index(eos)] if eos in r else r for r in out[v * S : (v + 1) * S]]
        texts = [tokenizer.decode(t) for t in toks]
        timings = {"skeleton": t_skel, "fill": t_end - t0, "total": t_end - t_start, "forwards": dec.forwards,
                   "reverted_holes": reverted}
        results.append(FillResult(texts, toks, sk.render(texts), timings, decode_steps))
    return results
