"""`hybrid rank` over 1,000 candidates whose embeddings are cached: the command's wall time (a child process, Python
start and imports included), on the machine's cores.

Prints one JSON line: the wall seconds of RUNS runs of `hybrid rank --json --threads N` after one warm-up run that
caches the embeddings (as a second `hybrid rank` over the same clauses finds them), their min and median; in the
same run, the default scorer in process (its windows and feedback), MiniLM's cosine alone, the weights before issue
53 (REQUEST_WEIGHTS: BM25, type, coverage and the re-ranking stage's pieces besides MiniLM) in process, and the
backbone's load, which `hybrid rank` paid before issue 53 and now pays only where the score weighs the PMI. The
candidates are the first 1,000 clauses of ACORD's clause pool (../shared/acord/corpus.jsonl, CC BY 4.0; no query or
rating is read).

    .venv/bin/python benchmarks/rank_speed.py --threads 2 --out benchmarks/results/rank-speed.json
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from machine import add_run_args, emit, machine  # noqa: E402

CORPUS = ROOT.parent / "shared" / "acord" / "corpus.jsonl"
SPEC = "limitation of liability with carve-outs"  # the example request
RUNS = 5


def rank_wall(path: str, spec: str, threads: int) -> float:
    """Seconds of one `hybrid rank` child process over the candidates file."""
    cmd = [sys.executable, "-m", "hybrid", "rank", "--spec", spec, "--candidates", path, "--json",
           "--threads", str(threads)]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=ROOT, env=env)
    return time.perf_counter() - t


def in_process(texts: list[str], spec: str) -> dict:
    """Seconds of the default scorer, of MiniLM's cosine alone and of REQUEST_WEIGHTS over the cached candidates, and
    of the backbone's load."""
    from hybrid.precedents import relevance as rel

    out = {}
    named = (("default_scorer_seconds", rel.DEFAULT_WEIGHTS), ("minilm_alone_seconds", rel.RelevanceWeights()),
             ("request_weights_seconds", rel.REQUEST_WEIGHTS))
    for name, w in named:
        scorer = rel.RelevanceScorer(w)
        scorer.breakdown(spec, texts)  # the re-ranking stage's pieces into the cache
        t = time.perf_counter()
        scorer.breakdown(spec, texts)
        out[name] = round(time.perf_counter() - t, 3)
    from hybrid.draft.drafter import load_model

    t = time.perf_counter()
    load_model(None, device="cpu")
    out["backbone_load_seconds"] = round(time.perf_counter() - t, 3)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_run_args(ap, threads=2)
    args = ap.parse_args(argv)
    texts = [json.loads(line)["text"] for line in CORPUS.read_text().splitlines()[:1000]]
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        f.write("".join(json.dumps({"text": t}) + "\n" for t in texts))
    try:
        rank_wall(f.name, SPEC, args.threads)  # warm-up: the embeddings into the cache
        walls = [round(rank_wall(f.name, SPEC, args.threads), 3) for _ in range(RUNS)]
    finally:
        os.unlink(f.name)
    import torch

    torch.set_num_threads(args.threads)
    result = {
        "benchmark": "rank-speed", "candidates": len(texts), "spec": SPEC, "threads": args.threads,
        "hybrid_rank_wall_seconds": walls, "min": min(walls), "median": statistics.median(walls), "bar_seconds": 1.0,
        **in_process(texts, SPEC), "machine": machine(),
    }
    emit(result, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
