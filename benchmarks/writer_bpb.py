"""Test-split bits per byte of the candidate writers, same documents and same fill noise draws.

Prints one JSON line: for each model named (our checkpoint directory, a fetched base such as
smollm2-135m, an adapter directory written by `hybrid train --init-from ... --lora-rank R`), the AR
bits/byte of the test documents and the fill (masked-diffusion) bits/byte of their clause spans,
measured on the `--docs` shortest test documents with clause bodies (bounded CPU time; the figure of
the whole test split for hybrid-small is in benchmarks/results/bpb-test-cpu.json). The first model is
the baseline the ratios are against. A fetched base is read with the fill shift on (i-1 predicts i),
as `--init-from` starts from, so its zero-shot fill figure is what adaptation starts from.

    python benchmarks/writer_bpb.py --models checkpoints/hybrid-small smollm2-135m RUN_DIR [--docs 8] [--draws 1]
"""

import argparse
import json
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hybrid.data.corpus import load_documents  # noqa: E402
from hybrid.model.pretrained import BASES  # noqa: E402
from hybrid.model.resolve import resolve  # noqa: E402
from hybrid.rank.bpb import corpus_bpb  # noqa: E402

from machine import add_run_args, emit, machine  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", nargs="+", required=True, help="baseline first")
    ap.add_argument("--docs", type=int, default=8, help="the N shortest test documents with clause bodies")
    ap.add_argument("--draws", type=int, default=1, help="fill noise draws per document (the same for every model)")
    add_run_args(ap, threads=1)
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    docs = sorted((d for d in load_documents(None, splits=("test",)) if d.sections), key=lambda d: len(d.text))
    docs = docs[: args.docs]
    rows = []
    for name in args.models:
        model, tok, record = resolve(name)
        if name in BASES:
            model.cfg.shift_fill_logits = True
        t0 = time.perf_counter()
        r = corpus_bpb(model, tok, docs, draws=args.draws, device="cpu", progress=False)
        row = {"model": name, "ar_bpb": round(r["ar_bpb"], 4), "fill_bpb": round(r["fill_bpb"], 4)}
        row["seconds"] = round(time.perf_counter() - t0, 1)
        if isinstance(record, dict) and "step" in record:
            row["train_step"] = record["step"]
            row["train_tokens"] = record.get("tokens_seen")
        rows.append(row)
        print(json.dumps(row), file=sys.stderr)
        del model
    base = rows[0]
    for row in rows:
        row["ar_ratio"] = round(row["ar_bpb"] / base["ar_bpb"], 4)
        row["fill_ratio"] = round(row["fill_bpb"] / base["fill_bpb"], 4)
    result = {
        "benchmark": "writer_bpb",
        "split": "test",
        **machine(),
        "docs": len(docs),
        "bytes": sum(len(d.text.encode()) for d in docs),
        "draws": args.draws,
        "baseline": base["model"],
        "models": rows,
        "command": "python benchmarks/writer_bpb.py " + " ".join(argv if argv is not None else sys.argv[1:]),
    }
    emit(result, args.out)


if __name__ == "__main__":
    main()
