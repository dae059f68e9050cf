"""Does the filler use its precedent? Val-split diffusion loss of clause bodies with vs without one.

Prints one JSON line: for a checkpoint, the MDLM loss (nats per masked span token, and bits per
byte) of every val-split clause body in training-layout windows, with
- "none": no precedent (the plain layout),
- "cross": the best BM25 precedent of the same clause type from the train split, facts adapted
  to the val document's (what drafting gives the filler),
- "own": the clause's own body, facts adapted, words dropped and swapped (the training mix's
  adapt-and-repair pairs: an upper bound on how much the model can lean on a precedent).
Same documents, same noise seeds, condition dropout off. A model that uses precedents has
loss_cross < loss_none (and loss_own well below).

    .venv/bin/python benchmarks/precedent_loss.py --checkpoint runs/prec --draws 2
"""

import argparse
import json
import random
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hybrid.data.corpus import load_documents  # noqa: E402
from hybrid.data.precedent_pairs import PairMix, with_precedents  # noqa: E402
from hybrid.data.windows import KIND_HEADING, KIND_PAD, KIND_SPAN, document_windows  # noqa: E402
from hybrid.diffusion.objective import mdlm_loss, q_xt, sample_times  # noqa: E402
from hybrid.diffusion.schedule import get_schedule  # noqa: E402
from hybrid.model.backbone import fill_mask  # noqa: E402
from hybrid.precedents import load_library  # noqa: E402
from hybrid.checkpoint import load_checkpoint  # noqa: E402

MIXES = {"none": PairMix(0.0, 0.0, 1.0), "cross": PairMix(0.0, 1.0, 0.0), "own": PairMix(1.0, 0.0, 0.0)}


@torch.no_grad()
def fill_loss(model, rows, mask_id: int, draws: int, batch: int = 8) -> tuple[float, int]:
    """(mean MDLM loss per masked span token, span tokens) over rows, noise seeded per draw."""
    schedule = get_schedule("loglinear")
    total, n = 0.0, 0
    for d in range(draws):
        g = torch.Generator().manual_seed(1000 + d)
        for i in range(0, len(rows), batch):
            ids, kind, section = rows.ids[i : i + batch], rows.kind[i : i + batch], rows.section[i : i + batch]
            span, valid = kind == KIND_SPAN, kind != KIND_PAD
            if not bool(span.any()):
                continue
            t = sample_times(ids.shape[0], g, ids.device)
            xt, masked = q_xt(ids, span, t, schedule, mask_id, g)
            heading = torch.where(kind == KIND_HEADING, section, torch.full_like(section, -1))
            mask = fill_mask(span, span, section, heading, torch.zeros_like(span), valid)
            out = mdlm_loss(model(xt, "fill", attn_mask=mask), ids, masked, span, t, schedule, mask_id)
            total += float(out.loss) * out.n_span_tokens
            n += out.n_span_tokens
    return total / max(n, 1), n // max(draws, 1)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--checkpoint", default="checkpoints/hybrid-small")
    ap.add_argument("--draws", type=int, default=2, help="noise draws per window (default 2)")
    ap.add_argument("--limit", type=int, default=0, help="only the first N val documents (0 = all)")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    t0 = time.time()
    model, tok, record = load_checkpoint(args.checkpoint)
    docs = load_documents(splits=("val",))
    docs = docs[: args.limit] if args.limit else docs
    library = load_library(progress=False)
    body_bytes = sum(len(s.body.encode()) for d in docs for s in d.sections)
    body_tokens = sum(len(tok.encode(s.body)) for d in docs for s in d.sections)
    out = {"checkpoint": args.checkpoint, "step": record.get("step"), "val_docs": len(docs), "draws": args.draws}
    for name, mix in MIXES.items():
        rng = random.Random(0)
        augmented = [with_precedents(d, library, mix, rng)[0] for d in docs]
        rows = document_windows(augmented, tok, 512, 512)
        loss, n = fill_loss(model, rows, tok.mask_id, args.draws)
        out[f"loss_{name}"] = round(loss, 4)
        out[f"bpb_{name}"] = round(loss / 0.6931471805599453 * body_tokens / body_bytes, 4)
        out[f"span_tokens_{name}"] = n
    out["cross_minus_none"] = round(out["loss_cross"] - out["loss_none"], 4)
    out["own_minus_none"] = round(out["loss_own"] - out["loss_none"], 4)
    out["seconds"] = round(time.time() - t0, 1)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
