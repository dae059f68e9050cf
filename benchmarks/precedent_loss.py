"""Does the filler use its precedent? Val-split diffusion loss of clause bodies with vs without one.

Prints one JSON line: for a checkpoint, the MDLM loss (nats per span token) of val-split clause
bodies, each in its own row (title, heading line, precedent, body: the training layout), with
- "none": no precedent (the plain layout),
- "cross": the best BM25 precedent of the same clause type from the train split, facts adapted
  to the val document's (what drafting gives the filler),
- "own": the clause's own body, facts adapted, words dropped and swapped (the training mix's
  adapt-and-repair pairs: an upper bound on how much the model can lean on a precedent).
Paired: the same clauses, and per clause the same time t and the same masked positions under every
mix (rows differ only by the precedent), condition dropout off. A model that uses precedents has
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
from hybrid.data.windows import KIND_HEADING, KIND_PAD, KIND_SPAN, KIND_TEXT  # noqa: E402
from hybrid.model.backbone import fill_mask  # noqa: E402
from hybrid.model.checkpoint import load_checkpoint  # noqa: E402
from hybrid.model.objective import mdlm_loss  # noqa: E402
from hybrid.model.schedule import get_schedule  # noqa: E402
from hybrid.precedents.library import load_library  # noqa: E402

MIXES = {"none": PairMix(0.0, 0.0, 1.0), "cross": PairMix(0.0, 1.0, 0.0), "own": PairMix(1.0, 0.0, 0.0)}
MAX_BODY_TOKENS = 320  # title + heading + precedent (<= ~110 tokens) + body stay within the 512-token window


def section_rows(docs, tok, library, mix: PairMix, seed: int = 0) -> list[tuple[list[int], list[int]]]:
    """One (ids, kind) row per clause: <bos><doc> title, heading line, [precedent], body, <eos>.

    Every mix gives the same body tokens in the same order, so the masks drawn per clause are
    the same under every mix and the comparison is paired."""
    rng = random.Random(seed)
    rows = []
    for d in docs:
        aug, _ = with_precedents(d, library, mix, rng)
        segs = aug.segments()
        for i, seg in enumerate(segs):
            if seg.kind != "body" or len(seg.text.split()) < 12:
                continue
            prec = segs[i - 1] if segs[i - 1].kind == "heading" and segs[i - 1].text.startswith("Precedent: ") else None
            head = segs[i - 2] if prec is not None else segs[i - 1]
            ids, kind = [tok.bos_id, tok.token_id("<doc>")], [KIND_TEXT, KIND_TEXT]
            for part, k in (
                (f"{d.title}\n\n", KIND_TEXT),
                (head.text, KIND_HEADING),
                (prec.text if prec else "", KIND_HEADING),
            ):
                part_ids = tok.encode(part) if part else []
                ids, kind = ids + part_ids, kind + [k] * len(part_ids)
            body = tok.encode(seg.text)[:MAX_BODY_TOKENS] + [tok.eos_id]
            rows.append((ids + body, kind + [KIND_SPAN] * len(body)))
    return rows


@torch.no_grad()
def fill_loss(model, rows, mask_id: int, pad_id: int, draws: int, batch: int = 8) -> tuple[float, int]:
    """(mean MDLM loss per span token, span tokens per draw); clause c's time and mask depend only on (draw, c)."""
    schedule = get_schedule("loglinear")
    total, n = 0.0, 0
    for d in range(draws):
        for a in range(0, len(rows), batch):
            chunk = rows[a : a + batch]
            T = max(len(r[0]) for r in chunk)
            ids = torch.full((len(chunk), T), pad_id)
            kind = torch.full((len(chunk), T), KIND_PAD)
            masked = torch.zeros(len(chunk), T, dtype=torch.bool)
            t = torch.empty(len(chunk))
            for j, (r_ids, r_kind) in enumerate(chunk):
                c = a + j
                ids[j, : len(r_ids)], kind[j, : len(r_kind)] = torch.tensor(r_ids), torch.tensor(r_kind)
                g = torch.Generator().manual_seed(7919 * d + c)
                t[j] = float(((c * 0.6180339887 + d * 0.5) % 1.0) or 1e-3)
                span_pos = (kind[j] == KIND_SPAN).nonzero().squeeze(-1)
                m = torch.rand(len(span_pos), generator=g) < schedule.mask_prob(t[j : j + 1])[0]
                masked[j, span_pos[m]] = True
            span, valid = kind == KIND_SPAN, kind != KIND_PAD
            section = torch.where(kind == KIND_HEADING, 0, -1)
            xt = torch.where(masked, torch.full_like(ids, mask_id), ids)
            mask = fill_mask(span, span, torch.where(span, 0, -1), section, torch.zeros_like(span), valid)
            out = mdlm_loss(model(xt, "fill", attn_mask=mask), ids, masked, span, t, schedule, mask_id)
            total += float(out.loss) * out.n_span_tokens
            n += out.n_span_tokens
    return total / max(n, 1), n // max(draws, 1)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--checkpoint", default="checkpoints/hybrid-small")
    ap.add_argument("--draws", type=int, default=2, help="noise draws per window (default 2)")
    ap.add_argument("--limit", type=int, default=0, help="only the first N val documents (0 = all)")
    ap.add_argument("--clauses", type=int, default=300, help="val clauses sampled (seeded; 0 = all)")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    t0 = time.time()
    model, tok, record = load_checkpoint(args.checkpoint)
    docs = load_documents(splits=("val",))
    docs = docs[: args.limit] if args.limit else docs
    library = load_library(progress=False)
    out = {"checkpoint": args.checkpoint, "step": record.get("step"), "val_docs": len(docs), "draws": args.draws}
    pick = random.Random(0)
    for name, mix in MIXES.items():
        rows = section_rows(docs, tok, library, mix)
        rows = (
            [rows[i] for i in sorted(pick.sample(range(len(rows)), min(args.clauses, len(rows))))]
            if args.clauses
            else rows
        )
        pick = random.Random(0)  # the same clauses under every mix
        loss, n = fill_loss(model, rows, tok.mask_id, tok.pad_id, args.draws)
        out[f"loss_{name}"] = round(loss, 4)
        out[f"span_tokens_{name}"] = n
    out["clauses"] = len(rows)
    out["cross_minus_none"] = round(out["loss_cross"] - out["loss_none"], 4)
    out["own_minus_none"] = round(out["loss_own"] - out["loss_none"], 4)
    out["seconds"] = round(time.time() - t0, 1)
    from machine import machine  # benchmarks/machine.py

    out["machine"] = machine()
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
