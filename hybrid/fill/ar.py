"""The autoregressive fill baseline: the yardstick for the diffusion filler's speed and quality.

Owns: a KV-cached causal decode loop over a TokenSkeleton. Skeleton text is forced (prefilled
in one forward per run of text), each span is written token by token until <eos> or its budget
(the last position is always <eos>, as in the diffusion filler), N variants in one batch. Same
processors as the diffusion filler (hybrid.fill.api.fill_processors: hybrid.common.sampling's, top-p
taken among the 64 best tokens), with the span's own tokens as their context.
Knows nothing about diffusion or templates.

Batching: variants finish a span at different times; a finished row feeds <pad> (masked out as
a key, not counted in its positions) until every row has ended the span.

Windowing: the model was trained on 512-token windows. When the cache would outgrow `window`,
it is rebuilt from each row's last window/2 real tokens with positions from 0 (one prefill), so
context stays within what the model has seen and positions stay far below max_len.
"""

import time
from dataclasses import dataclass

import torch

from hybrid.common.errors import SamplingError
from hybrid.common.options import int_range
from hybrid.common.precision import PRECISIONS, autocast
from hybrid.common.sampling import SamplingParams, apply_processors, sample
from hybrid.fill.api import FillJob, FillResult, StepEvent, fill_job, fill_processors
from hybrid.model.cache import KVCache
from hybrid.skeleton.tokenized import DEFAULT_WINDOW, as_token_skeleton

__all__ = ["ARConfig", "DrawRules", "fill", "prepare"]


@dataclass(frozen=True)
class ARConfig:
    """The AR fillers' own knobs (FillConfig's counterpart), checked at construction."""

    window: int = DEFAULT_WINDOW  # >= 16: tokens of causal context a row keeps (rebuilt from its last window/2)
    precision: str = "auto"  # "auto" | "fp32" | "bf16": autocast of the forwards, as FillConfig.precision
    kept_per_step: int = 0  # >= 0, editing (ar_batched): kept tokens fed per row per step at most; 0 = whole runs

    def __post_init__(self):
        int_range(16).check("window", self.window, error=SamplingError)
        if self.precision not in PRECISIONS:
            raise SamplingError(f"precision must be one of {', '.join(PRECISIONS)}, got {self.precision!r}.")


@dataclass(frozen=True)
class DrawRules:
    """What every AR draw obeys: the specials banned, the shared processors, greedy or sampled (params), and the
    <pad> a finished row feeds."""

    ban: torch.Tensor  # (V,) bool: special ids but <eos>
    procs: list  # fill_processors(params)
    params: SamplingParams
    pad: int


class _Decoder:
    """B rows of a causal context: the cache, its key-padding mask, positions and each row's history."""

    def __init__(self, model, B: int, window: int, pad_id: int, device):
        self.model, self.B, self.window, self.pad_id, self.device = model, B, window, pad_id, device
        self.hist: list[list[int]] = [[] for _ in range(B)]  # real tokens fed so far, per row
        self.cache = KVCache()
        self.kvalid = torch.zeros(B, 0, dtype=torch.bool, device=device)
        self.pos = torch.zeros(B, dtype=torch.long, device=device)
        self.last = None  # (B, V) next-token logits after each row's last real token
        self.forwards = 0

    def _forward(self, ids, valid):
        """Append ids (B, T) (valid False = padding) to the cache; update next-token logits."""
        pos = self.pos[:, None] + valid.long().cumsum(1) - 1
        self.kvalid = torch.cat([self.kvalid, valid], 1)
        mask = None if bool(self.kvalid.all()) else self.kvalid
        logits = self.model(ids, "causal", cache=self.cache, positions=pos.clamp_min(0), attn_mask=mask)
        self.forwards += 1
        self.pos += valid.sum(1)
        # the logits after each row's last valid token in this block
        has = valid.any(1)
        last_idx = (valid.long() * torch.arange(1, ids.shape[1] + 1, device=ids.device)).argmax(1)
        new = logits[torch.arange(self.B, device=ids.device), last_idx].float()
        self.last = new if self.last is None else torch.where(has[:, None], new, self.last)
        for b, (row, ok) in enumerate(zip(ids.tolist(), valid.tolist())):
            self.hist[b].extend(t for t, o in zip(row, ok) if o)

    def _rebuild(self):
        """Restart the cache from each row's last window/2 real tokens (left-padded to a common length)."""
        keep = self.window // 2
        tails = [h[-keep:] for h in self.hist]
        T = max(len(t) for t in tails)
        ids = torch.full((self.B, T), self.pad_id, dtype=torch.long)
        valid = torch.zeros(self.B, T, dtype=torch.bool)
        for b, t in enumerate(tails):
            if t:
                ids[b, T - len(t) :] = torch.tensor(t)
                valid[b, T - len(t) :] = True
        self.hist = [h[: len(h) - len(t)] for h, t in zip(self.hist, tails)]
        self.cache, self.kvalid = KVCache(), torch.zeros(self.B, 0, dtype=torch.bool, device=self.device)
        self.pos = torch.zeros(self.B, dtype=torch.long, device=self.device)
        self._forward(ids.to(self.device), valid.to(self.device))

    def feed(self, ids: torch.Tensor, valid: torch.Tensor | None = None):
        """Feed a (B, T) block, in pieces and with cache rebuilds so the context never exceeds `window`."""
        if valid is None:
            valid = torch.ones_like(ids, dtype=torch.bool)
        step = max(1, self.window // 2)
        for a in range(0, ids.shape[1], step):
            part, pv = ids[:, a : a + step], valid[:, a : a + step]
            if self.cache.seq_len + part.shape[1] > self.window:
                self._rebuild()
            self._forward(part, pv)


def prepare(model, tokenizer, skeleton, params) -> tuple:
    """What both AR fillers start from: (TokenSkeleton, params, processors, device). A job's n, steps, guidance (1:
    the AR fillers have no unconditional branch) and seed come checked from the draft's request
    (hybrid.draft.request); the window is checked in ARConfig."""
    params = params or SamplingParams()
    return as_token_skeleton(tokenizer, skeleton), params, fill_processors(params), next(model.parameters()).device


def _write_span(dec, sk, s, ids_all, rules: DrawRules, gen):
    """Decode span `s` of every variant left to right after what `dec` has read: locked tokens fed as
    they are, the rest drawn (specials `ban`ned, <eos> only after the last locked token); a variant
    that wrote <eos> is padded. (out (n, s.length) token ids, decode steps run)."""
    n, device, eos, pad_id = dec.B, dec.device, sk.eos_id, rules.pad
    locked = sk.locked[s.start : s.end].tolist()
    lock_end = max((i + 1 for i in range(s.length - 1) if locked[i]), default=0)
    out = torch.full((n, s.length), pad_id, dtype=torch.long, device=device)
    done = torch.zeros(n, dtype=torch.bool, device=device)
    steps = 0
    for t in range(s.length):
        if locked[t]:
            x = torch.full((n,), ids_all[s.start + t], dtype=torch.long, device=device)
        else:
            logits = dec.last.masked_fill(rules.ban, float("-inf"))
            if t < lock_end:
                logits[:, eos] = float("-inf")
            temperature = 0.0 if rules.params.greedy else 1.0
            x = sample(apply_processors(rules.procs, out[:, :t], logits), gen, temperature=temperature)
        x = torch.where(done, pad_id, x)
        out[:, t] = x
        dec.feed(x[:, None], ~done[:, None])
        steps += 1
        done = done | (x == eos)
        if bool(done.all()):
            break
    return out, steps


@torch.no_grad()
def fill(model, tokenizer, skeleton, job: FillJob | None = None, on_step=None, config: ARConfig | None = None,
         **kw) -> list[FillResult]:
    """Write every span of `skeleton` left to right, n variants in one batch (same API as the diffusion fill).

    job (hybrid.fill.api.FillJob, or its fields as keywords): steps is accepted for signature parity and ignored (one
    decode step per token); guidance must be 1 = off (the causal path has no unconditional branch); no start (the
    batched AR filler edits one). on_step(StepEvent) after each span. config: ARConfig (window, precision).
    """
    t_start = time.perf_counter()
    job, cfg = fill_job(job, kw), config or ARConfig()
    if job.start is not None:
        raise SamplingError("the sequential AR filler writes no edit start; the batched one does (ar-batched).")
    n, seed, window = job.n, job.seed, cfg.window
    sk, params, procs, device = prepare(model, tokenizer, skeleton, job.params)
    V = model.cfg.vocab_size
    eos = sk.eos_id
    gen = torch.Generator(device=device).manual_seed(seed)
    ban = torch.zeros(V, dtype=torch.bool, device=device)
    ban[[i for i in tokenizer.special_ids if i != eos and i < V]] = True
    rules = DrawRules(ban, procs, params, tokenizer.pad_id)
    with autocast(device, cfg.precision):
        dec = _Decoder(model, n, window, tokenizer.pad_id, device)
        ids_all = sk.ids.tolist()
        bodies: list[list[list[int]]] = [[] for _ in range(n)]
        t_skel = t_gen = 0.0
        decode_steps = 0
        prev = 0
        for s in sk.spans:
            t0 = time.perf_counter()
            if s.start > prev:
                dec.feed(torch.tensor(ids_all[prev : s.start], device=device)[None].expand(n, -1))
            t1 = time.perf_counter()
            t_skel += t1 - t0
            out, written = _write_span(dec, sk, s, ids_all, rules, gen)
            decode_steps += written
            for b, row in enumerate(out.tolist()):
                bodies[b].append(row[: row.index(eos)])
            prev = s.end
            t_gen += time.perf_counter() - t1
            if on_step is not None:

                def render(glyph, k=s.index + 1):  # the first k spans are written; the rest show as the glyph
                    return [
                        sk.render([tokenizer.decode(b[i]) if i < k else glyph for i in range(len(sk.spans))])
                        for b in bodies
                    ]

                on_step(
                    StepEvent(
                        s.index + 1,
                        len(sk.spans),
                        sum(x.length for x in sk.spans[s.index + 1 :]) * n,
                        time.perf_counter() - t0,
                        render=render,
                    )
                )
    total = time.perf_counter() - t_start
    results = []
    for b in range(n):
        texts = [tokenizer.decode(t) for t in bodies[b]]
        timings = {"skeleton": t_skel, "fill": t_gen, "total": total, "forwards": dec.forwards}
        results.append(FillResult(texts, bodies[b], sk.render(texts), timings, decode_steps))
    return results
