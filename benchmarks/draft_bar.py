"""The drafting bar of issue 5 on every template: `hybrid draft T --example -n 4 --seed 7`, one JSON line.

    python benchmarks/draft_bar.py [--checkpoint checkpoints/hybrid-small] [--templates all] [--rerun mutual-nda]

For each template, the same call `hybrid draft` makes (hybrid.draft.drafter.Drafter.draft with the
template's example fields, n=4, seed 7, the CLI's default steps, guidance and sampling) and, per
template: the words of each draft (goal: >= 300 each), how many distinct texts (goal: 4), whether
the drafts come sorted by score, and the seconds. `--rerun` drafts the named templates a second
time and checks the texts are identical (same seed, same drafts). Beside each, the same call with
precedents=0 (from scratch, the default before 2026-12-02) as a same-run baseline: its seconds and
shortest draft.
"""

import argparse
import sys
import time
from pathlib import Path

import torch

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from hybrid.draft.drafter import Drafter  # noqa: E402
from hybrid.templates.template import list_templates, load_template  # noqa: E402

from machine import add_run_args, emit, machine  # noqa: E402  (benchmarks/machine.py)

MIN_WORDS = 300


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--checkpoint", default=None, help="checkpoint dir (default: the shipped model)")
    ap.add_argument("--templates", default="all", help="comma-separated ids, or all (default)")
    ap.add_argument("--n", type=int, default=4)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--rerun", default="mutual-nda", help="templates drafted twice to check determinism ('' = none)")
    add_run_args(ap)
    args = ap.parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)
    drafter = Drafter.from_pretrained(args.checkpoint)
    tids = [t.id for t in list_templates()] if args.templates == "all" else args.templates.split(",")
    rows = {}
    for tid in tids:
        t = load_template(tid)
        t0 = time.perf_counter()
        drafts = drafter.draft(t, t.example, n=args.n, seed=args.seed)
        secs = time.perf_counter() - t0
        words = [len(d.text.split()) for d in drafts]
        scores = [d.score for d in drafts]
        row = {"words": words, "min_words": min(words), "distinct": len({d.text for d in drafts}),
               "sorted": all(a >= b for a, b in zip(scores, scores[1:])), "seconds": round(secs, 1),
               "ok": min(words) >= MIN_WORDS and len({d.text for d in drafts}) == args.n}
        row["settings"] = drafts[0].settings  # what the default drafted with (edit from precedent unless it fell back)
        t0 = time.perf_counter()
        scratch = drafter.draft(t, t.example, n=args.n, seed=args.seed, precedents=0)  # the baseline: from scratch
        row["scratch_seconds"] = round(time.perf_counter() - t0, 1)
        row["scratch_min_words"] = min(len(d.text.split()) for d in scratch)
        if tid in args.rerun.split(","):
            again = drafter.draft(t, t.example, n=args.n, seed=args.seed)
            row["identical_on_rerun"] = [d.text for d in again] == [d.text for d in drafts]
        rows[tid] = row
        print(f"{tid}: {row}", file=sys.stderr, flush=True)
    out = {
        "benchmark": "draft_bar",
        "checkpoint": drafter.path,
        "n": args.n,
        "seed": args.seed,
        "min_words_goal": MIN_WORDS,
        "templates": len(rows),
        "templates_ok": sum(r["ok"] for r in rows.values()),
        "all_sorted": all(r["sorted"] for r in rows.values()),
        "seconds_ratio_default_over_scratch": round(
            sum(r["seconds"] for r in rows.values()) / max(sum(r["scratch_seconds"] for r in rows.values()), 1e-9), 3
        ),
        **machine(),
        "per_template": rows,
    }
    emit(out, args.out)


if __name__ == "__main__":
    main()
