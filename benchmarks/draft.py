"""End-to-end drafting benchmark: `hybrid draft` for N variants, by stage, diffusion fill vs AR fill, one JSON line.

    python benchmarks/draft.py [--checkpoint checkpoints/hybrid-small] [--n 8] [--templates
    mutual-nda,saas-agreement,supply]

What `hybrid draft` does after loading the model, through the same API (hybrid.draft.drafter.Drafter):
plan -> fill -> rank, per template, timed per stage. The baseline is the same draft with the AR
fill (hybrid.fill.ar) in place of the diffusion filler: same weights, same outline (the planner is
seeded identically), same sampling parameters, same reranker. Ratios are measured in this run only.
A warm-up draft (n=1, one step) runs first so one-time costs (grammar compilation, rotary tables)
are not charged to either side; model loading is reported on its own.
"""

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

import torch

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from hybrid.draft.drafter import Drafter  # noqa: E402
from hybrid.fill.diffusion.sampler import DEFAULT_GUIDANCE, DEFAULT_STEPS  # noqa: E402
from hybrid.templates.template import load_template  # noqa: E402

from machine import add_run_args, emit  # noqa: E402  (benchmarks/machine.py)

TEMPLATES = ("mutual-nda", "saas-agreement", "supply")


def _run(drafter: Drafter, tid: str, args, guidance: float) -> dict:
    t = load_template(tid)
    t0 = time.perf_counter()
    drafts = drafter.draft(t, t.example, n=args.n, steps=args.steps, guidance=guidance, seed=args.seed,
                           temperature=args.temperature, top_p=args.top_p, precedents=0)  # from scratch, as the AR side
    wall = time.perf_counter() - t0
    tm = drafts[0].timings
    return {
        "template": tid,
        "sections": len(drafts[0].outline["sections"]),
        "plan_s": round(tm["plan"], 3),
        "fill_s": round(tm["fill"], 3),
        "rank_s": round(tm["rank"], 3),
        "total_s": round(wall, 3),
        "words_mean": round(statistics.mean(d.words for d in drafts), 1),
        "distinct_drafts": len({d.text for d in drafts}),
        "best_score": round(drafts[0].score, 4),
        "mean_loglik": round(statistics.mean(d.scores["loglik"] for d in drafts), 4),
        "outline": [s["clause"] for s in drafts[0].outline["sections"]],
    }


def _sum(rows: list[dict]) -> dict:
    return {k: round(sum(r[k] for r in rows), 3) for k in ("plan_s", "fill_s", "rank_s", "total_s")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--checkpoint", default=str(REPO / "checkpoints" / "hybrid-small"))
    ap.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    ap.add_argument("--templates", default=",".join(TEMPLATES))
    ap.add_argument("--n", type=int, default=8, help="variants per draft (default: 8)")
    ap.add_argument("--steps", type=int, default=DEFAULT_STEPS)
    ap.add_argument("--guidance", type=float, default=DEFAULT_GUIDANCE)
    ap.add_argument("--temperature", type=float, default=0.8)
    ap.add_argument("--top-p", type=float, default=0.95)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--skip-ar", action="store_true", help="diffusion only (no baseline, no ratio)")
    add_run_args(ap)
    args = ap.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)

    t0 = time.perf_counter()
    diffusion = Drafter.from_pretrained(args.checkpoint, device=args.device)
    load_s = time.perf_counter() - t0
    ar = Drafter(diffusion.model, diffusion.tokenizer, filler="ar", record=diffusion.record, path=args.checkpoint)
    tids = [x for x in args.templates.split(",") if x]
    warm = load_template(tids[0])
    diffusion.draft(warm, warm.example, n=1, steps=1, seed=args.seed, precedents=0)

    rows_d = [_run(diffusion, tid, args, args.guidance) for tid in tids]
    result = {
        "benchmark": "draft",
        "device": args.device,
        "torch_threads": torch.get_num_threads(),
        "machine": platform.processor() or platform.machine(),
        "checkpoint": args.checkpoint,
        "model_params": diffusion.model.num_params(),
        "n": args.n,
        "steps": args.steps,
        "guidance": args.guidance,
        "temperature": args.temperature,
        "top_p": args.top_p,
        "seed": args.seed,
        "load_s": round(load_s, 3),
        "diffusion": {"per_template": rows_d, "total": _sum(rows_d)},
    }
    if not args.skip_ar:
        rows_a = [_run(ar, tid, args, 0.0) for tid in tids]
        assert [r["outline"] for r in rows_a] == [r["outline"] for r in rows_d], (
            "both fills must draft the same outlines"
        )
        result["ar_fill"] = {"per_template": rows_a, "total": _sum(rows_a)}
        td, ta = result["diffusion"]["total"], result["ar_fill"]["total"]
        result["speedup_end_to_end"] = round(ta["total_s"] / td["total_s"], 3)
        result["speedup_fill"] = round(ta["fill_s"] / td["fill_s"], 3)
    emit(result, args.out)


if __name__ == "__main__":
    main()
