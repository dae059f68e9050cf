"""Clause relevance on ACORD's expert ratings: the scorer, each of its stages, and the configurations fit on train.

ACORD (../shared/acord/, CC BY 4.0) holds clause-drafting queries ("buyer-favorable cap on liability clauses") and,
per query, a pool of clauses that legal experts rated 0-4. Prints one JSON line with NDCG@5 and NDCG@10 (sklearn's
ndcg_score over each query's whole rated pool, ties averaged; the mean over queries) for
- each feature of hybrid.precedents.relevance alone (bm25, minilm, type, coverage, pieces, best_piece);
- the shipped weights before issue 53 (OLD_DEFAULT) and the precedent weights (PRECEDENT_WEIGHTS);
- each configuration of CONFIGS, its weights grid-searched (best mean NDCG@5) on ACORD train: on valid (fit on all of
  train), and on train by cross-validation grouped by query category (leave one category out: each category's
  queries scored with the weights fit on the other categories'), with the weights fit on all of train;
- the shipped default (DEFAULT_WEIGHTS), which is the configuration that scored best on valid;
- seconds: the scorer over 1,000 ACORD clauses with cached embeddings, in process and as `hybrid rank` (a child
  process, imports included), and the PMI's cost per (spec, clause) pair on this machine (--pmi-pairs; 0 = skip).
The test split is never read (only qrels/train.tsv and qrels/valid.tsv). Valid only chooses among CONFIGS.

    .venv/bin/python benchmarks/relevance_acord.py --threads 1 --out benchmarks/results/relevance-acord.json
"""

import argparse
import csv
import dataclasses
import itertools
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from sklearn.metrics import ndcg_score  # noqa: E402

from hybrid.precedents import relevance as rel  # noqa: E402

from machine import add_run_args, emit, machine  # noqa: E402

ACORD = ROOT.parent / "shared" / "acord"
SPLITS = ("train", "valid")  # never "test": it is held out
STAGES = ("bm25", "dense", "type", "coverage", "pieces", "best_piece")
OLD_DEFAULT = rel.RelevanceWeights(bm25=2.95, dense=8.0, type=4.0, coverage=6.0, pieces=2.0, best_piece=1.0)
# each configuration: the features it may weigh and their grids (dense is the scale: 8 wherever it is on)
_LEXICAL = {"bm25": (0, 0.5, 1, 2, 3)}
_RERANK = {"coverage": (0, 1, 2, 4, 6), "pieces": (0, 1, 2, 4), "best_piece": (0, 1, 2, 4)}
CONFIGS = {
    "minilm": {"dense": (8,)},
    "minilm+bm25": {"dense": (8,), **_LEXICAL},
    "minilm+bm25+type": {"dense": (8,), **_LEXICAL, "type": (0, 1, 2, 4)},
    "minilm+bm25+rerank": {"dense": (8,), **_LEXICAL, **_RERANK},
    "all": {"dense": (8,), **_LEXICAL, "type": (0, 1, 2, 4), **_RERANK},
}


def load_acord(root: Path = ACORD) -> tuple[list[str], dict[str, list[dict]]]:
    """(clause texts, {split: [{"id", "query", "category", "pool": [text index], "gains": [0-4]}]}) in file order."""
    ids, texts = {}, []
    for line in (root / "corpus.jsonl").read_text().splitlines():
        row = json.loads(line)
        ids[row["_id"]] = len(texts)
        texts.append(row["text"])
    meta = {q["_id"]: q for q in map(json.loads, (root / "queries.jsonl").read_text().splitlines())}
    out = {}
    for split in SPLITS:
        pools: dict[str, dict] = {}
        with open(root / "qrels" / f"{split}.tsv", newline="") as f:
            for row in csv.DictReader(f, delimiter="\t"):
                q = meta[row["query-id"]]
                assert q["metadata"]["split"] == split, f"{row['query-id']} is {q['metadata']['split']}, not {split}"
                p = pools.setdefault(q["_id"], {"id": q["_id"], "query": q["text"],
                                                "category": q["metadata"]["category"], "pool": [], "gains": []})
                p["pool"].append(ids[row["corpus-id"]])
                p["gains"].append(int(row["score"]))
        out[split] = list(pools.values())
    return texts, out


def pool_features(scorer, queries: list[dict], texts: list[str]) -> list[dict]:
    """Per query, {feature: (n,) array} over its whole pool, the re-ranking stage's included (on every candidate,
    so that any weights can be tried without re-embedding; rel.combine takes them on its top only)."""
    out = []
    for q in queries:
        cands = [texts[i] for i in q["pool"]]
        out.append(scorer.features(q["query"], cands) | scorer.top_features(q["query"], cands))
    return out


def ndcg(queries: list[dict], scores: list[np.ndarray], k: int) -> np.ndarray:
    """Per query, NDCG@k of `scores` against its experts' gains (sklearn: linear gains, tied scores averaged)."""
    return np.array([ndcg_score([q["gains"]], [s], k=k) for q, s in zip(queries, scores)])


def figures(queries: list[dict], scores: list[np.ndarray]) -> dict:
    return {f"ndcg@{k}": round(float(ndcg(queries, scores, k).mean()), 4) for k in (5, 10)} | {"queries": len(queries)}


def grid(config: dict) -> list[rel.RelevanceWeights]:
    names = list(config)
    zero = {f: 0.0 for f in STAGES}
    combos = itertools.product(*config.values())
    return [rel.RelevanceWeights(**(zero | dict(zip(names, map(float, v))))) for v in combos]


def search(queries: list[dict], feats: list[dict], weights: list) -> np.ndarray:
    """(len(weights), len(queries)) NDCG@5 of every weighting on every query."""
    return np.array([ndcg(queries, [rel.combine(f, w) for f in feats], 5) for w in weights])


def fit_config(name: str, train: tuple, valid: tuple) -> dict:
    """One configuration: weights fit on all of train (best mean NDCG@5, the first of equals), its valid figures,
    and train's figure by leave-one-category-out cross-validation."""
    weights = grid(CONFIGS[name])
    queries, feats = train
    table = search(queries, feats, weights)
    best = weights[int(np.argmax(table.mean(1)))]
    cats = np.array([q["category"] for q in queries])
    held = np.zeros(len(queries))
    for c in np.unique(cats):
        w = int(np.argmax(table[:, cats != c].mean(1)))
        held[cats == c] = table[w, cats == c]
    return {"weights": {k: v for k, v in dataclasses.asdict(best).items() if v},
            "valid": figures(valid[0], [rel.combine(f, best) for f in valid[1]]),
            "train_fit": round(float(table.mean(1).max()), 4), "train_cv_ndcg@5": round(float(held.mean()), 4),
            "grid_size": len(weights)}


def systems(queries: list[dict], feats: list[dict]) -> dict:
    """Every stage alone, the weights before issue 53, the precedent weights and the shipped default."""
    named = {"default": rel.DEFAULT_WEIGHTS, "old_default": OLD_DEFAULT, "precedent_weights": rel.PRECEDENT_WEIGHTS}
    return {("minilm" if s == "dense" else s): figures(queries, [f[s] for f in feats]) for s in STAGES} | {
        k: figures(queries, [rel.combine(f, w) for f in feats]) for k, w in named.items()}


def speed(scorer, texts: list[str], spec: str) -> dict:
    """The default scorer over 1,000 ACORD clauses with their embeddings cached: in process, and `hybrid rank`."""
    import subprocess
    import tempfile

    thousand = texts[:1000]
    scorer.breakdown(spec, thousand)  # the embeddings into the cache, as a second `hybrid rank` finds them
    t = time.perf_counter()
    scorer.breakdown(spec, thousand)
    out = {"candidates": 1000, "scorer_seconds_cached": round(time.perf_counter() - t, 3)}
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        f.write("".join(json.dumps({"text": t}) + "\n" for t in thousand))
    cmd = [sys.executable, "-m", "hybrid", "rank", "--spec", spec, "--candidates", f.name, "--json", "--cpu"]
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=ROOT, env=dict(os.environ, OMP_NUM_THREADS="2"))
    out["hybrid_rank_wall_seconds"] = round(time.perf_counter() - t, 3)
    os.unlink(f.name)
    return out


def pmi_cost(texts: list[str], spec: str, pairs: int) -> dict:
    """Seconds per (spec, clause) PMI pair with the shipped backbone on CPU (what the "pmi" stage costs)."""
    from hybrid.draft.drafter import load_model
    from hybrid.rank.rerank import Reranker

    model, tok, _, _ = load_model(None, device="cpu")
    reranker = Reranker(model, tok)
    reranker.pmi([spec], texts[:1])
    t = time.perf_counter()
    reranker.pmi([spec] * pairs, texts[1 : 1 + pairs])
    each = (time.perf_counter() - t) / pairs
    return {"pairs": pairs, "seconds_per_pair": round(each, 3),
            "seconds_per_query_shortlist": round(each * rel.SHORTLIST, 2)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_run_args(ap, threads=1)
    ap.add_argument("--pmi-pairs", type=int, default=8, help="PMI pairs to time (0 = skip)")
    args = ap.parse_args(argv)
    import torch

    torch.set_num_threads(args.threads or torch.get_num_threads())
    texts, splits = load_acord()
    scorer = rel.RelevanceScorer(embed=rel.EmbeddingCache(rel.minilm_encoder()))
    feats = {s: pool_features(scorer, qs, texts) for s, qs in splits.items()}
    train, valid = (splits["train"], feats["train"]), (splits["valid"], feats["valid"])
    configs = {name: fit_config(name, train, valid) for name in CONFIGS}
    result = {
        "benchmark": "relevance-acord",
        "data": "ACORD train (cross-validated by query category) and valid; qrels 0-4; test never read",
        "default": {"weights": {k: v for k, v in dataclasses.asdict(rel.DEFAULT_WEIGHTS).items() if v},
                    "formula": rel.DEFAULT_WEIGHTS.formula()},
        "valid": systems(*valid),
        "train": systems(*train),
        "configs": configs,
        "chosen_on_valid": max(configs, key=lambda c: (configs[c]["valid"]["ndcg@5"], -len(CONFIGS[c]))),
        "speed": speed(scorer, texts, splits["valid"][0]["query"]),
    }
    if args.pmi_pairs:
        result["pmi"] = pmi_cost(texts, splits["valid"][0]["query"], args.pmi_pairs)
    result["machine"] = machine()
    emit(result, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
