"""Clause relevance on ACORD's expert ratings: the scorer, each of its stages, and the configurations fit on train.

ACORD (../shared/acord/, CC BY 4.0) holds clause-drafting queries ("buyer-favorable cap on liability clauses") and,
per query, a pool of clauses that legal experts rated 0-4. Prints one JSON line with NDCG@5 and NDCG@10 (sklearn's
ndcg_score over each query's whole rated pool, ties averaged; the mean over queries) for
- each configuration of CONFIGS (MiniLM alone, with BM25, with the clause type, with both, reciprocal rank fusion of
  MiniLM and BM25, with the re-ranking stage, all): its setting grid-searched (best mean NDCG@5) on ACORD train; on
  valid with the setting fit on all of train, per query too; on train by cross-validation grouped by query category
  (leave one category out); "chosen_on_valid": the best on valid (of equals, the one with fewer parameters), which
  the shipped default (DEFAULT_WEIGHTS) must rank as ("default": "ranks_as_chosen");
- "valid_vs_minilm": each configuration's per-query differences from MiniLM alone on valid (mean, standard error,
  queries above and below): valid is 6 queries, so a difference under about two standard errors is noise;
- each feature of hybrid.precedents.relevance alone, the weights before issue 53 (OLD_DEFAULT), the precedent
  weights (PRECEDENT_WEIGHTS) and the default, on valid and train;
- the PMI's cost per (spec, clause) pair on this machine (--pmi-pairs; 0 = skip): not scored on ACORD's pools
  (about 1,000 clauses per query, a backbone pass each).
The test split is never read (only qrels/train.tsv and qrels/valid.tsv). Valid only chooses among CONFIGS.
`hybrid rank`'s time: benchmarks/rank_speed.py.

    .venv/bin/python benchmarks/relevance_acord.py --threads 1 --out benchmarks/results/relevance-acord.json
"""

import argparse
import csv
import dataclasses
import itertools
import json
import sys
import time
from collections.abc import Callable
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
OLD_DEFAULT = rel.REQUEST_WEIGHTS  # the shipped default before issue 53
# each configuration: the features it may weigh and their grids (dense is the scale: 8 wherever it is on), or, for
# "rrf", reciprocal rank fusion's k (the usual constants); every one is fit on train and all are compared on valid
_LEXICAL = {"bm25": (0, 0.5, 1, 2, 3)}
_TYPE = {"type": (0, 1, 2, 4)}
_RERANK = {"coverage": (0, 1, 2, 4, 6), "pieces": (0, 1, 2, 4), "best_piece": (0, 1, 2, 4)}
CONFIGS = {
    "minilm": {"dense": (8,)},
    "minilm+bm25": {"dense": (8,), **_LEXICAL},
    "minilm+type": {"dense": (8,), **_TYPE},
    "minilm+bm25+type": {"dense": (8,), **_LEXICAL, **_TYPE},
    "rrf(minilm,bm25)": {"rrf_k": (10, 30, 60)},
    "minilm+bm25+rerank": {"dense": (8,), **_LEXICAL, **_RERANK},
    "all": {"dense": (8,), **_LEXICAL, **_TYPE, **_RERANK},
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


def rrf(f: dict, k: float, names=("dense", "bm25")) -> np.ndarray:
    """Reciprocal rank fusion: sum over the features of 1 / (k + the candidate's rank by it), ranks from 1, ties by
    pool order."""
    out = np.zeros(len(f[names[0]]))
    for name in names:
        rank = np.empty(len(out))
        rank[np.argsort(-f[name], kind="stable")] = np.arange(1, len(out) + 1)
        out += 1.0 / (k + rank)
    return out


def grid(config: dict) -> list[tuple[dict, Callable]]:
    """Every setting of a configuration: (its non-zero parameters, features -> scores)."""
    if "rrf_k" in config:
        return [({"rrf_k": k}, lambda f, k=k: rrf(f, k)) for k in config["rrf_k"]]
    names, zero = list(config), {f: 0.0 for f in STAGES}
    out = []
    for values in itertools.product(*config.values()):
        w = rel.RelevanceWeights(**(zero | dict(zip(names, map(float, values)))))
        out.append(({k: v for k, v in dataclasses.asdict(w).items() if v}, lambda f, w=w: rel.combine(f, w)))
    return out


def search(queries: list[dict], feats: list[dict], settings: list) -> np.ndarray:
    """(len(settings), len(queries)) NDCG@5 of every setting on every query."""
    return np.array([ndcg(queries, [score(f) for f in feats], 5) for _, score in settings])


def fit_config(name: str, train: tuple, valid: tuple) -> dict:
    """One configuration: its setting fit on all of train (best mean NDCG@5, the first of equals), that setting's
    valid figures (mean and per query), and train's figure by leave-one-category-out cross-validation (each
    category's queries scored with the setting fit on the other categories')."""
    settings = grid(CONFIGS[name])
    queries, feats = train
    table = search(queries, feats, settings)
    params, best = settings[int(np.argmax(table.mean(1)))]
    cats = np.array([q["category"] for q in queries])
    held = np.zeros(len(queries))
    for c in np.unique(cats):
        w = int(np.argmax(table[:, cats != c].mean(1)))
        held[cats == c] = table[w, cats == c]
    scores = [best(f) for f in valid[1]]
    return {"params": params, "valid": figures(valid[0], scores),
            "valid_ndcg@5_per_query": [round(float(x), 4) for x in ndcg(valid[0], scores, 5)],
            "train_fit": round(float(table.mean(1).max()), 4), "train_cv_ndcg@5": round(float(held.mean()), 4),
            "grid_size": len(settings)}


def against(configs: dict, base: str = "minilm") -> dict:
    """How far each configuration's valid NDCG@5 is from `base`'s, and how sure: the mean of the per-query
    differences, its standard error over the queries, and on how many queries it is above / below."""
    ref = np.array(configs[base]["valid_ndcg@5_per_query"])
    out = {}
    for name, c in configs.items():
        d = np.array(c["valid_ndcg@5_per_query"]) - ref
        out[name] = {"mean_diff": round(float(d.mean()), 4), "se": round(float(d.std(ddof=1) / np.sqrt(len(d))), 4),
                     "queries_above": int((d > 1e-9).sum()), "queries_below": int((d < -1e-9).sum())}
    return out


def same_ranking(w: rel.RelevanceWeights, params: dict) -> bool:
    """Whether weights w rank as a linear configuration's parameters do (the one up to a positive scale)."""
    a = np.array([getattr(w, f) for f in STAGES])
    b = np.array([params.get(f, 0.0) for f in STAGES])
    return not w.pmi and a.any() and b.any() and bool(np.allclose(a / a.sum(), b / b.sum()))


def systems(queries: list[dict], feats: list[dict]) -> dict:
    """Every stage alone, the weights before issue 53, the precedent weights and the shipped default."""
    named = {"default": rel.DEFAULT_WEIGHTS, "old_default": OLD_DEFAULT, "precedent_weights": rel.PRECEDENT_WEIGHTS}
    out = {("minilm" if s == "dense" else s): [f[s] for f in feats] for s in STAGES}
    out |= {k: [rel.combine(f, w) for f in feats] for k, w in named.items()}
    return {k: figures(queries, v) | {"ndcg@5_per_query": [round(float(x), 4) for x in ndcg(queries, v, 5)]}
            for k, v in out.items()}


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
    chosen = max(configs, key=lambda c: (configs[c]["valid"]["ndcg@5"], -len(CONFIGS[c])))
    result = {
        "benchmark": "relevance-acord",
        "data": "ACORD train (cross-validated by query category) and valid; qrels 0-4; test never read",
        "valid_queries": [q["id"] for q in splits["valid"]],
        "configs": configs,
        "chosen_on_valid": chosen,
        "valid_vs_minilm": against(configs),
        "default": {"weights": {k: v for k, v in dataclasses.asdict(rel.DEFAULT_WEIGHTS).items() if v},
                    "formula": rel.DEFAULT_WEIGHTS.formula(),
                    "ranks_as_chosen": same_ranking(rel.DEFAULT_WEIGHTS, configs[chosen]["params"])},
        "valid": systems(*valid),
        "train": systems(*train),
    }
    if args.pmi_pairs:
        result["pmi"] = pmi_cost(texts, splits["valid"][0]["query"], args.pmi_pairs)
    result["machine"] = machine()
    emit(result, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
