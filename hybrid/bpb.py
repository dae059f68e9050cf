"""Bits per byte of a checkpoint on a corpus split: `hybrid eval bpb`.

Owns: the two likelihood figures of the foundation issue, in bits per UTF-8 byte so that
tokenizers do not matter (total nats / ln 2 / bytes):
- ar_bpb: causal next-token NLL over whole documents, sliding windows (each token scored once,
  with at least half a window of left context after the first window);
- fill_bpb: the MDLM negative ELBO of clause bodies with the skeleton visible (fill mode), over
  non-overlapping windows, averaged over `draws` seeded noise draws (deterministic for a seed).
Knows nothing about training, templates or sampling.
"""

import math

import torch
import torch.nn.functional as F
from tqdm import tqdm

from hybrid.data.windows import KIND_PAD, KIND_SPAN, document_tokens
from hybrid.diffusion.objective import align_fill, fill_shift, mdlm_loss, q_xt, sample_times
from hybrid.diffusion.schedule import get_schedule
from hybrid.model.backbone import fill_mask
from hybrid.options import int_range

__all__ = ["ar_nats", "fill_nats", "corpus_bpb"]


def _windows(n: int, length: int, stride: int) -> list[tuple[int, int, int]]:
    """(start, end, first_scored) covering positions 1..n-1 once each."""
    out, start = [], 0
    while True:
        end = min(start + length, n)
        first = 1 if start == 0 else start + (length - stride)
        out.append((start, end, first))
        if end >= n:
            return out
        start += stride


@torch.no_grad()
def ar_nats(model, ids: list[int], length: int = 512, stride: int = 256, device="cpu") -> float:
    """Total causal NLL (nats) of ids[1:] given everything before, in sliding windows."""
    total = 0.0
    for start, end, first in _windows(len(ids), length, stride):
        x = torch.tensor(ids[start:end], device=device)[None]
        logp = F.log_softmax(model(x, "causal")[0, :-1].float(), -1)
        nll = -logp.gather(-1, x[0, 1:, None]).squeeze(-1)  # predicts positions start+1 .. end-1
        total += float(nll[first - start - 1 :].sum())
    return total


@torch.no_grad()
def fill_nats(model, ids, kind, mask_id: int, draws: int = 4, length: int = 512, seed: int = 0, device="cpu") -> float:
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


def corpus_bpb(model, tok, docs, draws: int = 4, length: int = 512, device="cpu", progress: bool = True, fill: bool = True) -> dict:
    """{"ar_bpb", "fill_bpb", "docs", "bytes", "span_bytes"} over the given documents; fill=False leaves
    fill_bpb None (a pretrained base never trained in fill mode: its ELBO says nothing, at 2/3 of the cost)."""
    int_range(1).check("draws", draws)  # 0 draws divides by zero; a negative count averaged nothing into 0.0
    model.eval()
    ar_total = fill_total = 0.0
    n_bytes = span_bytes = 0
    for i, doc in enumerate(tqdm(docs, desc="bpb", disable=not progress)):
        ids, kind, _ = document_tokens(doc, tok)
        ar_total += ar_nats(model, ids, length, length // 2, device)
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
