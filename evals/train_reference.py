"""Train the evaluation's reference model into checkpoints/reference/.

    python -m evals.train_reference [--out checkpoints/reference] [--max-minutes 45] [--threads 1] [--resume]

The same command through the main CLI (what this module runs):

    hybrid train --out checkpoints/reference --d-model 192 --n-layers 3 --n-heads 6 --seq-len 512 \
        --stride 384 --batch-size 8 --max-steps 1000 --max-minutes 45 --warmup-steps 100 --eval-every 100 \
        --threads 1 --diffusion-weight 0 --plan-repeat 0 --seed 777

Why these settings: `hybrid eval run` scores every system's text by its likelihood under this
model, so it must not be the drafting model or share its weights' accidents. It is a causal LM
only (diffusion_weight 0: no fill objective; plan_repeat 0: no planner pairs, documents only),
trained on the train split only (hybrid.train.loop never reads test), with its own tokenizer, a
different seed (777; the drafting model uses 1234) and a different size (d_model 192, 3 layers;
the shipped model is d_model 256, 4 layers). Refuses to write over an existing checkpoint
unless --resume.
"""

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

__all__ = ["REFERENCE_CONFIG", "reference_config", "main"]

REFERENCE_CONFIG = dict(
    out=str(REPO / "checkpoints" / "reference"),
    d_model=192,  # the drafting model is 256 wide: a different size
    n_layers=3,
    n_heads=6,
    seq_len=512,
    stride=384,
    batch_size=8,
    max_steps=1000,  # the shipped reference: 1,000 steps, 4.09M tokens, 28.9 min on 1 shared CPU core
    max_minutes=45.0,
    warmup_steps=100,
    eval_every=100,
    threads=1,  # the CPUs are shared with other jobs; 1 thread is faster then (hybrid/common/config.py)
    diffusion_weight=0.0,  # AR only: the reference is a plain causal LM
    plan_repeat=0,  # no planner pairs: it scores document text, not outlines
    seed=777,  # the drafting model trains with 1234
)


def reference_config(**overrides):
    """The reference TrainConfig; overrides for tests (tiny sizes) or another --out."""
    from hybrid.common.config import TrainConfig

    return TrainConfig(**{**REFERENCE_CONFIG, **{k: v for k, v in overrides.items() if v is not None}})


def main(argv=None) -> int:
    from hybrid.common.config import TrainConfig
    from hybrid.common.errors import HybridError
    from hybrid.train.loop import train

    ranges = TrainConfig.ranges()
    ap = argparse.ArgumentParser(prog="python -m evals.train_reference", description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=None, help=f"checkpoint directory (default: {REFERENCE_CONFIG['out']})")
    ap.add_argument("--corpus", default=None, help="corpus root (default: $HYBRID_CORPUS or ../shared/corpus)")
    ap.add_argument(
        "--max-minutes",
        type=ranges["max_minutes"],
        default=None,
        help=f"wall-clock stop (default: {REFERENCE_CONFIG['max_minutes']})",
    )
    ap.add_argument(
        "--max-steps", type=ranges["max_steps"], default=None, help=f"steps (default: {REFERENCE_CONFIG['max_steps']})"
    )
    ap.add_argument(
        "--threads", type=ranges["threads"], default=None, help=f"CPU threads (default: {REFERENCE_CONFIG['threads']})"
    )
    ap.add_argument("--resume", action="store_true", help="continue the checkpoint in --out")
    args = ap.parse_args(argv)
    try:
        cfg = reference_config(
            out=args.out,
            corpus=args.corpus,
            max_minutes=args.max_minutes,
            max_steps=args.max_steps,
            threads=args.threads,
        )
        record = train(cfg, resume=args.resume)
    except HybridError as e:
        print(f"train_reference: error: {e}", file=sys.stderr)
        return e.exit_code
    print(json.dumps({k: record.get(k) for k in ("step", "tokens_seen", "wall_seconds", "params")} | {"out": cfg.out}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
