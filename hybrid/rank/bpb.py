"""Bits per byte of a checkpoint on a corpus split: `hybrid eval bpb`.

Owns: the two likelihood figures of the foundation issue, in bits per UTF-8 byte so that
tokenizers do not matter (total nats / ln 2 / bytes):
- ar_bpb: causal next-token NLL over whole documents, in hybrid.rank.likelihood's sliding windows of
  the checkpoint's training length (each token scored once, with at least half a window of left
  context after the first window);
- fill_bpb: the MDLM negative ELBO of clause bodies with the skeleton visible (fill mode), over
  non-overlapping windows, averaged over `draws` seeded noise draws (deterministic for a seed).
Knows nothing about training, templates or sampling.
"""

import math

import torch
from tqdm import tqdm

from hybrid.common.config import TrainConfig
from hybrid.common.options import int_range
from hybrid.data.layout import KIND_PAD, KIND_SPAN
from hybrid.data.windows import document_tokens
from hybrid.model.backbone import fill_mask
from hybrid.model.objective import align_fill, fill_shift, mdlm_loss, q_xt, sample_times
from hybrid.model.schedule import get_schedule
from hybrid.rank.likelihood import logprob_sums, sliding_windows

__all__ = ["ar_nats", "fill_nats", "corpus_bpb"]


def ar_nats(model, ids: list[int], length: int = TrainConfig.seq_len, stride: int = TrainConfig.seq_len // 2) -> float:
    """Total causal NLL (nats) of ids[1:] given everything before, in sliding windows (hybrid.rank.likelihood)."""
    ((logp, _),) = logprob_sums(
        model, [ids], [[False] + [True] * (len(ids) - 1)], lambda n: sliding_windows(n, length, stride)
    )
    return -logp


@torch.no_grad()
def fill_nats(
    model, ids, kind, mask_id: int, draws: int = 4, length: int = TrainConfig.seq_len, seed: int = 0, device="cpu"
) -> float:
    """MDLM negative ELBO (nats) of the span tokens, averaged over `draws` noise draws."""
    schedule = get_schedule("loglinear")
    g = torch.Generator(device=device).manual_seed(seed)
    rows = []
    for s in range(0, len(ids), length):
        pad = length - len(ids[s : s + length])
        rows.append((ids[s : s + length] + [0] * pad, kind[s : s + length] + [KIND_PAD] * pad))
    x0 = torch.tensor([r[0] for r in rows], device=device)
    k = torch.tensor([r[1] for r in rows], device=device)
    span, valid = k == KIND_SPAN, k != KIND_PAD
    if not bool(span.any()):
        return 0.0
    mask = fill_mask(span, span, k_valid=valid)
    total, shift = 0.0, fill_shift(model)
    for _ in range(draws):
        t = sample_times(x0.shape[0], g, device)
        xt, masked = q_xt(x0, span, t, schedule, mask_id, g)
        dl = mdlm_loss(align_fill(model(xt, "fill", attn_mask=mask), shift), x0, masked, span, t, schedule, mask_id)
        total += float(dl.nlls.sum())
    return total / draws


def corpus_bpb(model, tok, docs, draws: int = 4, length: int = TrainConfig.seq_len, device="cpu", progress: bool = True,
               fill: bool = True) -> dict:
    """{"ar_bpb", "fill_bpb", "docs", "bytes", "span_bytes"} over the given documents; fill=False leaves
    fill_bpb None (a pretrained base never trained in fill mode: its ELBO says nothing, at 2/3 of the cost).
    length: the window, the checkpoint's training window (hybrid.rank.likelihood.trained_window)."""
    int_range(1).check("draws", draws)  # 0 draws divides by zero; a negative count averaged nothing into 0.0
    model.eval()
    ar_total = fill_total = 0.0
    n_bytes = span_bytes = 0
    for i, doc in enumerate(tqdm(docs, desc="bpb", disable=not progress)):
        ids, kind, _ = document_tokens(doc, tok)
        ar_total += ar_nats(model, ids, length, length // 2)
        if fill:
            fill_total += fill_nats(model, ids, kind, tok.mask_id, draws, length, seed=i, device=device)
        n_bytes += len(doc.text.encode("utf-8"))
        span_bytes += sum(len(s.body.encode("utf-8")) for s in doc.sections)
    ln2 = math.log(2)
    return {
        "ar_bpb": round(ar_total / ln2 / max(n_bytes, 1), 4),
        "fill_bpb": round(fill_total / ln2 / max(span_bytes, 1), 4) if fill else None,
        "docs": len(docs),
        "bytes": n_bytes,
        "span_bytes": span_bytes,
        "draws": draws,
        "window": length,
    }
