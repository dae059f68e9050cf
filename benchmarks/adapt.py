"""Adapting a pretrained base (`hybrid train --init-from`): bits per byte before vs after, and tokens/s.

Prints one JSON line. The baseline is measured in the same run on the same documents and noise
draws: the base as fetched, with the fill shift on (step 0 of the recipe), against the adapted
checkpoint after `--steps` optimizer steps on the train split. Evaluation is on the val split only
(never tune on test): the `--val-docs` shortest val documents that have clause bodies, to bound
the CPU time. Training tokens/s comes from the run's training record.

    python benchmarks/adapt.py [--base smollm2-135m] [--steps 12] [--lora-rank 8] [--threads 1] [--out FILE]
"""

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hybrid.common.config import TrainConfig  # noqa: E402
from hybrid.data.corpus import load_documents  # noqa: E402
from hybrid.model.pretrained import load_pretrained  # noqa: E402
from hybrid.model.resolve import resolve  # noqa: E402
from hybrid.rank.bpb import corpus_bpb  # noqa: E402
from hybrid.train.loop import train  # noqa: E402

from machine import machine  # noqa: E402


def _bpb(model, tok, docs, draws, device) -> tuple[dict, float]:
    t0 = time.perf_counter()
    r = corpus_bpb(model.to(device), tok, docs, draws=draws, device=device, progress=False)
    return {k: r[k] for k in ("ar_bpb", "fill_bpb")}, round(time.perf_counter() - t0, 1)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", default="smollm2-135m", help="a fetched base name or a Llama directory")
    ap.add_argument("--steps", type=int, default=12)
    ap.add_argument("--lora-rank", type=int, default=8, help="0 = full fine-tuning")
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seq-len", type=int, default=128)
    ap.add_argument("--batch-size", type=int, default=2)
    ap.add_argument("--train-docs", type=int, default=20, help="first N train documents (windows drawn from them)")
    ap.add_argument("--val-docs", type=int, default=3)
    ap.add_argument(
        "--draws", type=int, default=1, help="fill noise draws per document (the same draws before and after)"
    )
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    ap.add_argument("--keep", default=None, help="write the adapted checkpoint here (default: a temporary directory)")
    ap.add_argument("--out", default=None, help="also write the JSON to this file")
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    docs = sorted((d for d in load_documents(None, splits=("val",)) if d.sections), key=lambda d: len(d.text))[
        : args.val_docs
    ]

    model, tok, _ = load_pretrained(args.base)
    model.cfg.shift_fill_logits = True  # what --init-from starts from
    before, before_s = _bpb(model, tok, docs, args.draws, args.device)
    del model

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(args.keep or Path(tmp) / "adapted")
        cfg = TrainConfig(
            out=str(out),
            init_from=args.base,
            lora_rank=args.lora_rank,
            lr=args.lr,
            seq_len=args.seq_len,
            stride=args.seq_len,
            batch_size=args.batch_size,
            warmup_steps=2,
            max_steps=args.steps,
            eval_every=args.steps,
            eval_windows=2,
            limit_docs=args.train_docs,
            threads=args.threads,
        )
        record = train(cfg, log=lambda m: print(m, file=sys.stderr))
        size = sum(p.stat().st_size for p in out.iterdir() if p.name not in ("train_state.pt",) and p.is_file())
        adapted, tok2, _ = resolve(out)
        after, after_s = _bpb(adapted, tok2, docs, args.draws, args.device)

    result = {
        "benchmark": "adapt",
        "base": args.base,
        "device": args.device,
        **machine(),
        "recipe": {
            "lora_rank": args.lora_rank,
            "lr": args.lr,
            "steps": args.steps,
            "seq_len": args.seq_len,
            "batch_size": args.batch_size,
            "train_docs": args.train_docs,
            "objective": "ar + fill (shifted)",
        },
        "val_docs": len(docs),
        "val_bytes": sum(len(d.text.encode()) for d in docs),
        "draws": args.draws,
        "before": before,
        "after": after,
        "ar_bpb_ratio": round(after["ar_bpb"] / before["ar_bpb"], 4),
        "fill_bpb_ratio": round(after["fill_bpb"] / before["fill_bpb"], 4),
        "train_tokens": record["tokens_seen"],
        "train_seconds": record["wall_seconds"],
        "train_tokens_per_second": record["tokens_per_second"],
        "trainable_params": record["trainable_params"],
        "params": record["params"],
        "checkpoint_bytes_without_train_state": size,
        "eval_seconds": {"before": before_s, "after": after_s},
        "command": "python benchmarks/adapt.py " + " ".join(argv if argv is not None else sys.argv[1:]),
    }
    line = json.dumps(result)
    print(line)
    if args.out:
        Path(args.out).write_text(line + "\n")


if __name__ == "__main__":
    main()
