"""Warm draft time of the default (one coherent base per variant) against the section-by-section assembly.

Prints one JSON line. For each --templates id with its example fields: one untimed draft first (the model, the
clause library, the subject index and the templates' caches loaded), then --repeats timed 4-variant drafts per arm,
alternating the arms: `base` (the default) and `sections` (`base=False`, the default before it), each at --seeds.
Reports per template and arm the median seconds per call, the stage timings of the last call and the ratio of the
two arms, with the machine (CPU model, threads, load average).

    python benchmarks/draft_time.py [--templates mutual-nda,supply] [--seeds 7] [--repeats 3] [--threads 2] [--out F]
"""

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hybrid.common.options import set_threads  # noqa: E402
from hybrid.templates.template import load_template  # noqa: E402

from machine import add_run_args, emit, machine  # noqa: E402

ARMS = {"base": {"base": True}, "sections": {"base": False}}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--templates", default="mutual-nda,supply")
    ap.add_argument("--seeds", default="7")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--n", type=int, default=4)
    add_run_args(ap, threads=2)
    args = ap.parse_args(argv)
    set_threads(args.threads)
    from hybrid import Drafter

    drafter = Drafter.from_pretrained()
    seeds = [int(s) for s in args.seeds.split(",")]
    rows = {}
    for tid in args.templates.split(","):
        t = load_template(tid)
        drafter.draft(t, t.example, n=1, seed=0)  # untimed: caches loaded
        times = {a: [] for a in ARMS}
        stages = {}
        for _ in range(args.repeats):
            for arm, kw in ARMS.items():
                for seed in seeds:
                    t0 = time.perf_counter()
                    drafts = drafter.draft(t, t.example, n=args.n, seed=seed, **kw)
                    times[arm].append(time.perf_counter() - t0)
                    stages[arm] = {k: round(v, 2) for k, v in drafts[0].timings.items()}
        med = {a: statistics.median(v) for a, v in times.items()}
        rows[tid] = {"seconds_median": {a: round(v, 2) for a, v in med.items()}, "stages_last": stages,
                     "base_vs_sections": round(med["base"] / max(med["sections"], 1e-9), 3)}
        print(f"{tid}: {json.dumps(rows[tid])}", file=sys.stderr, flush=True)
    out = {"benchmark": "draft_time", **machine(), "n": args.n, "seeds": seeds, "repeats": args.repeats,
           "templates": rows,
           "command": "python benchmarks/draft_time.py " + " ".join(argv if argv is not None else sys.argv[1:])}
    emit(out, args.out)


if __name__ == "__main__":
    main()
