"""Windowed teacher-forced likelihood under a causal backbone: the one scorer of token sequences.

Owns: cutting a long sequence into scoring windows (each target scored once, in the first window
that holds it and its predecessor; positions rebased to 0 as in training), batching the windows
of many sequences into few forwards, projecting only the scored positions onto the vocabulary,
and the training window a checkpoint records (`trained_window`). Used by hybrid.rank.bpb (bits per
byte), hybrid.rank.rerank (draft likelihood, causal PMI), evals.metrics (the reference model's span
NLL) and benchmarks/fill.py.

Two window placements, both with at least `length - stride` tokens of left context after the
first window:
- `sliding_windows`: a window every `stride` tokens until one reaches the end (bpb, the
  harness, the fill benchmark);
- `training_windows`: where training cuts them (hybrid.data.layout.window_starts: the last
  window ends exactly at the end), as the reranker scores drafts.

Knows nothing about documents (hybrid.data.layout lays them out), templates or sampling; the
model is any backbone with `model(ids, "causal", return_hidden=True)` and `model.output_weight`.
"""

from collections.abc import Callable, Sequence

import torch
import torch.nn.functional as F

from hybrid.common.cancel import checkpoint
from hybrid.common.config import TrainConfig
from hybrid.data.layout import window_starts

__all__ = ["Window", "sliding_windows", "training_windows", "logprob_sums", "token_logprobs", "trained_window",
           "MAX_BATCH_TOKENS", "LOGITS_CHUNK"]

Window = tuple[int, int, int]  # (start, end, first scored target): tokens [start, end), targets first..end-1
MAX_BATCH_TOKENS = 32768  # padded tokens per forward: bounds activation memory
LOGITS_CHUNK = 1024  # scored positions projected at a time: bounds the (chunk, vocab) logits


def _scored(starts: Sequence[int], n: int, length: int) -> list[Window]:
    rows, done = [], 1
    for s in starts:
        e = min(s + length, n)
        if e > done:
            rows.append((s, e, max(done, s + 1)))
            done = e
    return rows


def sliding_windows(n: int, length: int, stride: int) -> list[Window]:
    """Windows at 0, stride, 2 * stride, ... until one ends at n; targets 1..n-1 each once."""
    assert 0 < stride < length, f"stride must be in (0, {length}), got {stride}"
    return _scored(range(0, max(n - length, 0) + stride, stride), n, length)


def training_windows(n: int, length: int, stride: int) -> list[Window]:
    """Windows where training cuts them (the last ends at n); targets 1..n-1 each once."""
    assert 0 < stride < length, f"stride must be in (0, {length}), got {stride}"
    return _scored(window_starts(n, length, stride), n, length)


def trained_window(record: dict | None) -> dict:
    """{"window", "stride"}: the training window a checkpoint's record states (TrainConfig's defaults
    for a record without one, e.g. a pretrained base; half a window for a run trained without overlap)."""
    cfg = (record or {}).get("config") or {}
    window, stride = int(cfg.get("seq_len", TrainConfig.seq_len)), int(cfg.get("stride", TrainConfig.stride))
    return {"window": window, "stride": stride if stride < window else window // 2}  # scoring needs overlapping windows


def token_logprobs(
    hidden: torch.Tensor, weight: torch.Tensor, targets: torch.Tensor, exclude: int | None = None
) -> torch.Tensor:
    """log p(targets[i]) from final hidden states (P, D) and the output projection (V, D), fp32;
    `exclude` is a token never predicted (the filler's <mask>, SUBS)."""
    lp = torch.empty(targets.shape[0], device=hidden.device)
    for c in range(0, targets.shape[0], LOGITS_CHUNK):
        checkpoint()  # a long document's logits take a second or more: a cancelled stream stops between chunks
        logits = F.linear(hidden[c : c + LOGITS_CHUNK], weight).float()  # (chunk, V)
        if exclude is not None:
            logits[:, exclude] = float("-inf")
        lp[c : c + LOGITS_CHUNK] = logits.log_softmax(-1).gather(1, targets[c : c + LOGITS_CHUNK, None])[:, 0]
    return lp


@torch.inference_mode()
def logprob_sums(
    model,
    seqs: Sequence[Sequence[int]],
    scored: Sequence[Sequence[bool]],
    windows: Callable[[int], list[Window]],
    *,
    pad_id: int = 0,
    max_batch_tokens: int = MAX_BATCH_TOKENS,
) -> list[tuple[float, int]]:
    """Per sequence: (sum of log p over its scored targets, how many), teacher-forced in causal mode.

    windows(len(seq)) places the windows (sliding_windows / training_windows with a length and
    stride bound in). Windows of similar length share a forward (at most max_batch_tokens padded
    tokens); right padding needs no mask, since a causal row never sees the pads after it.
    """
    assert len(seqs) == len(scored), "one scored mask per sequence"
    rows = []  # (seq, start, end, first target)
    for i, (ids, sc) in enumerate(zip(seqs, scored)):
        assert len(ids) == len(sc), f"sequence {i}: {len(ids)} ids, {len(sc)} flags"
        rows += [(i, s, e, f) for s, e, f in windows(len(ids)) if any(sc[f:e])]
    rows.sort(key=lambda r: r[2] - r[1])  # similar lengths share a batch: less padding
    sums = [0.0] * len(seqs)
    counts = [sum(sc[1:]) for sc in scored]
    device = next(model.parameters()).device
    weight = model.output_weight
    model.eval()
    a = 0
    while a < len(rows):
        checkpoint()  # a forward per batch: a cancelled stream stops between them
        b, longest = a, 0
        while b < len(rows) and max(longest, rows[b][2] - rows[b][1]) * (b - a + 1) <= max_batch_tokens:
            longest = max(longest, rows[b][2] - rows[b][1])
            b += 1
        b = max(b, a + 1)  # a window longer than the budget still goes, alone
        longest = max(longest, rows[a][2] - rows[a][1])
        batch = rows[a:b]
        ids = torch.full((len(batch), longest), pad_id, dtype=torch.long)
        r_idx, p_idx, tgt, owner = [], [], [], []
        for r, (i, s, e, f) in enumerate(batch):
            ids[r, : e - s] = torch.tensor(seqs[i][s:e])
            for t in range(f, e):
                if scored[i][t]:
                    r_idx.append(r)
                    p_idx.append(t - s - 1)  # the position whose output predicts target t
                    tgt.append(seqs[i][t])
                    owner.append(i)
        hidden = model(ids.to(device), "causal", return_hidden=True)  # (B, L, D)
        h = hidden[torch.tensor(r_idx, device=device), torch.tensor(p_idx, device=device)]  # (P, D)
        lp = token_logprobs(h, weight, torch.tensor(tgt, device=device))
        for i, v in zip(owner, lp.tolist()):
            sums[i] += v
        a = b
    return list(zip(sums, counts))
