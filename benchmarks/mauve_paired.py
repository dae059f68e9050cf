"""How far the default's MAUVE stands from pasting's in one harness run, past the k-means seed: paired resamples.

Prints one JSON line. Reads a `hybrid eval run` output folder (its samples.jsonl, systems `hybrid` and `pasting` and
the `real` rows) and measures, on the documents both systems drafted:

- `mauve`: MAUVE of each system against the documents' whole real clause bodies (cut into passages as the harness
  cuts them), averaged over --seeds k-means seeds: the harness's own figure, recomputed;
- `paired`: hybrid minus pasting over --resamples resamples of the documents (drawn with replacement, the same
  draw for both systems, three k-means seeds each): its mean, standard deviation and how often hybrid is ahead. A
  gap smaller than this spread is level, whatever its sign in one run;
- `by_type`: per clause type, over the sections where the two systems' bodies differ, the mean of hybrid minus
  pasting in each passage's cosine to its nearest real passage (MiniLM): where the edits move the text towards or
  away from real clauses.

The baseline (`pasting`: the same outline and precedents pasted with the deal's facts) is in the same run.

    python benchmarks/mauve_paired.py RUN_DIR [--seeds 10] [--resamples 12] [--out FILE]
"""

import argparse
import json
import random
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from evals import metrics  # noqa: E402
from evals.aggregate import mauve_embedder  # noqa: E402
from hybrid.common.options import set_threads  # noqa: E402
from hybrid.data.corpus import load_documents  # noqa: E402

from machine import add_run_args, emit, machine  # noqa: E402


def _passages(bodies) -> list[str]:
    return [x for b in bodies for x in metrics.passages(b)]


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run", help="a `hybrid eval run --out` folder with hybrid, pasting and real samples")
    ap.add_argument("--seeds", type=int, default=10, help="k-means seeds of the whole-run MAUVE (default: 10)")
    ap.add_argument("--resamples", type=int, default=12, help="paired resamples of the documents (default: 12)")
    add_run_args(ap)
    args = ap.parse_args(argv)
    if args.threads:
        set_threads(args.threads)
    recs = [json.loads(line) for line in (Path(args.run) / "samples.jsonl").open()]
    by = {s: {r["doc"]: r for r in recs if r["system"] == s and not r.get("skipped")} for s in ("hybrid", "pasting")}
    docs = sorted(set(by["hybrid"]) & set(by["pasting"]))
    whole = {d.path: [s.body for s in d.sections] for d in load_documents(None, splits=("test",))}
    embed = mauve_embedder("cpu")
    real = {d: _passages(whole[d]) for d in docs}
    gen = {s: {d: _passages(b for v in by[s][d]["bodies"] for b in v) for d in docs} for s in by}

    def mauve(ds, system, seeds) -> float:
        p = embed([x for d in ds for x in real[d]])
        q = embed([x for d in ds for x in gen[system][d]])
        return metrics.mauve_from_features(p, q, seeds=seeds, unit="passages")["mauve"]

    seeds = tuple(range(1, args.seeds + 1))
    whole_run = {s: mauve(docs, s, seeds) for s in ("hybrid", "pasting")}
    rng = random.Random(0)
    diffs = []
    for _ in range(args.resamples):
        ds = [rng.choice(docs) for _ in docs]
        diffs.append(mauve(ds, "hybrid", (1, 2, 3)) - mauve(ds, "pasting", (1, 2, 3)))
    pool = np.asarray(embed([x for d in docs for x in real[d]]))
    pool /= np.linalg.norm(pool, axis=1, keepdims=True)

    def nearest(text: str) -> float:
        e = np.asarray(embed(metrics.passages(text)))
        e /= np.linalg.norm(e, axis=1, keepdims=True)
        return float((e @ pool.T).max(1).mean())

    types = defaultdict(list)
    for d in docs:
        h, p = by["hybrid"][d], by["pasting"][d]
        for hv, pv in zip(h["bodies"], p["bodies"]):
            for i, (a, b) in enumerate(zip(hv, pv)):
                if a != b and a.strip() and b.strip():
                    types[h["clauses"][i]].append(nearest(a) - nearest(b))
    d = np.asarray(diffs)
    result = {
        "benchmark": "mauve_paired",
        **machine(),
        "run": str(args.run),
        "documents": len(docs),
        "passages": {"real": sum(map(len, real.values())), **{s: sum(map(len, gen[s].values())) for s in gen}},
        "mauve": {**{s: round(v, 5) for s, v in whole_run.items()}, "seeds": len(seeds)},
        "paired": {"resamples": args.resamples, "mean": round(float(d.mean()), 5), "sd": round(float(d.std()), 5),
                   "hybrid_ahead": int((d > 0).sum())},
        "by_type": {t: {"sections": len(v), "mean": round(float(np.mean(v)), 4), "sum": round(float(np.sum(v)), 3)}
                    for t, v in sorted(types.items(), key=lambda kv: sum(kv[1]))},
        "command": "python benchmarks/mauve_paired.py " + " ".join(argv if argv is not None else sys.argv[1:]),
    }
    emit(result, args.out)
    return result


if __name__ == "__main__":
    main()
