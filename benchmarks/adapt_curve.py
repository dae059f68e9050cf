"""The learning curve of an adaptation run (`hybrid train --init-from ... --lora-rank R`), from its record.

Prints one JSON line: every in-loop validation point of the run's training_record.json (val AR and
fill loss, 16 windows of 256 tokens, fill at a random masking level) converted to bits per byte
with the run's bytes per token, with the tokens seen and the CPU-hours so far. The same-run
baseline is the run's own first validation point (ratio of the last to the first). Test-split
figures of the finished run are benchmarks/writer_bpb.py's.

    python benchmarks/adapt_curve.py RUN_DIR [--out FILE]
"""

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import emit, machine  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    rec = json.loads((Path(args.run) / "training_record.json").read_text())
    c, bpt, cfg = rec["curves"], rec["bytes_per_token"], rec["config"]
    to_bpb = lambda nats: round(nats / math.log(2) / bpt, 4)  # noqa: E731
    tokens_per_step = rec["tokens_seen"] / rec["step"]
    curve = [{"step": s, "val_ar_bpb": to_bpb(a), "val_fill_bpb": to_bpb(f), "tokens_seen": round(s * tokens_per_step)}
             for s, a, f in zip(c["val_step"], c["val_ar"], c["val_diff"])]
    result = {
        "benchmark": "adapt-curve", "base": cfg.get("init_from"),
        "recipe": {k: cfg.get(k) for k in ("lora_rank", "lr", "seq_len", "batch_size", "warmup_steps", "max_steps",
                                           "precision")},
        **machine(), "step": rec["step"], "tokens_seen": rec["tokens_seen"],
        "cpu_hours": round(rec["wall_seconds"] / 3600, 3), "bytes_per_token": bpt,
        "val_windows": cfg.get("eval_windows"),
        "note": "in-loop val (16 windows of 256 tokens, fill at random t); the run was resumed exactly (--resume) "
                "across sessions; machine fields are this script's, the training ran 1 thread bf16 on 2 cores",
        "last_over_first": {"val_ar_bpb": round(curve[-1]["val_ar_bpb"] / curve[0]["val_ar_bpb"], 4),
                            "val_fill_bpb": round(curve[-1]["val_fill_bpb"] / curve[0]["val_fill_bpb"], 4)},
        "curve": curve,
        "command": "python benchmarks/adapt_curve.py " + " ".join(argv if argv is not None else sys.argv[1:]),
    }
    emit(result, args.out)


if __name__ == "__main__":
    main()
