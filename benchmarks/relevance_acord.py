"""Clause relevance on ACORD's expert ratings: the scorer, each of its stages, and the configurations fit on train.

ACORD (../shared/acord/, CC BY 4.0) holds clause-drafting queries ("buyer-favorable cap on liability clauses") and,
per query, a pool of clauses that legal experts rated 0-4. Prints one JSON line with NDCG@5 and NDCG@10 (sklearn's
ndcg_score over each query's whole rated pool, ties averaged; the mean over queries) for
- each configuration of CONFIGS (MiniLM alone, with BM25, with the clause type, with both, reciprocal rank fusion of
  MiniLM and BM25, with the re-ranking stage, all; MiniLM over each candidate's windows, with pseudo-relevance
  feedback with and without them): its setting grid-searched (best mean NDCG@5) on ACORD train; on train by
  cross-validation grouped by query category (leave one category out: each category's queries scored with the
  setting fit on the others'); on valid with the setting fit on all of train, per query too; standard errors over
  the queries. "chosen": the best by train cross-validation among WITHIN_RANK_BAR (of equals, the one with fewer
  parameters), which the shipped default (DEFAULT_WEIGHTS) must rank as ("default": "ranks_as_chosen"); valid is
  reported, never chosen on: it is 6 queries;
- "valid_vs_minilm", "train_cv_vs_minilm": each configuration's per-query differences from MiniLM alone (mean,
  standard error, queries above and below): a difference under about two standard errors is noise;
- each feature of hybrid.precedents.relevance alone, the weights before issue 53 (OLD_DEFAULT), the precedent
  weights (PRECEDENT_WEIGHTS) and the default, on valid and train; the weights before with BM25 and coverage of the
  query without its stance words (lexical_query), and with the feedback feature for MiniLM's cosine (fixed
  weights: their train figure is fit on nothing but the feedback's top and beta);
- the PMI's cost per (spec, clause) pair on this machine (--pmi-pairs; 0 = skip): not scored on ACORD's pools
  (about 1,000 clauses per query, a backbone pass each).
The test split is never read (only qrels/train.tsv and qrels/valid.tsv). The first run embeds every clause, its
windows and its pieces (about 30 minutes on one thread; cached in .cache/relevance after).
`hybrid rank`'s time: benchmarks/rank_speed.py.

    .venv/bin/python benchmarks/relevance_acord.py --threads 1 --out benchmarks/results/relevance-acord.json
"""

import argparse
import csv
import dataclasses
import itertools
import json
import re
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
# the configurations whose features keep `hybrid rank` over 1,000 cached candidates under 1 s: MiniLM's alone (BM25
# and coverage stem every candidate with nltk, whose import alone takes 1.7-3.5 s on 2 cores): the default is the
# best of these by train cross-validation
WITHIN_RANK_BAR = ("minilm", "minilm+windows", "minilm+feedback-whole", "minilm+feedback")
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
    # pseudo-relevance feedback (hybrid.precedents.relevance.feedback): its top and beta; beta 0 = none, "-whole":
    # no windows (each candidate's one embedding, MiniLM's first 256 word pieces)
    "minilm+windows": {"feedback_top": (0,), "feedback_beta": (0.0,)},
    "minilm+feedback-whole": {"feedback_top": (3, 5, 10), "feedback_beta": (0.5, 1.0, 2.0), "windows": (False,)},
    "minilm+feedback": {"feedback_top": (3, 5, 10), "feedback_beta": (0.5, 1.0, 2.0)},
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


def lexical_query(query: str) -> str:
    """The query without the words that say what is wanted of a clause rather than what it says ("clause(s) that",
    "buyer-favorable"): ACORD's queries name a clause type and a stance; the clause's words match only the first."""
    out = re.sub(r"\b(clauses?( that)?|\w+-favorable)\b", " ", query, flags=re.I)
    return " ".join(out.split()).strip(" ,") or query


def feedback_settings() -> set[tuple]:
    """Every (top, beta, windows) of the feedback configurations' grids."""
    out = set()
    for c in CONFIGS.values():
        if "feedback_top" in c:
            out |= set(itertools.product(c["feedback_top"], c["feedback_beta"], c.get("windows", (True,))))
    return out


def pool_features(scorer, queries: list[dict], texts: list[str]) -> list[dict]:
    """Per query, {feature: (n,) array} over its whole pool, the re-ranking stage's included (on every candidate,
    so that any weights can be tried without re-embedding; rel.combine takes them on its top only); the feedback
    feature at every setting of the grids, {("feedback", top, beta, windows): (n,)}; and BM25 and coverage of the
    lexical_query ("bm25_rewritten", "coverage_rewritten")."""
    out = []
    for q in queries:
        cands = [texts[i] for i in q["pool"]]
        f = scorer.features(q["query"], cands) | scorer.top_features(q["query"], cands)
        lex = scorer.features(lexical_query(q["query"]), cands, names=("bm25", "coverage"))
        f |= {f"{k}_rewritten": v for k, v in lex.items()}
        cut = [rel.windows(c) for c in cands]
        owner = np.array([i for i, c in enumerate(cut) for _ in c], dtype=np.int64)
        vecs = rel.unit_rows(scorer.embed([q["query"], *cands, *(w for c in cut for w in c)]))
        n = len(cands)
        for top, beta, wins in feedback_settings():
            win = vecs[n + 1 :] if wins else vecs[:0]
            f["feedback", top, beta, wins] = rel.feedback(vecs[0], vecs[1 : n + 1], win, owner if wins else owner[:0],
                                                          top=top, beta=beta)
        out.append(f)
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
    if "feedback_top" in config:
        return [({"feedback_top": t, "feedback_beta": b} | ({} if w else {"windows": False}),
                 lambda f, key=("feedback", t, b, w): f[key])
                for t, b, w in itertools.product(config["feedback_top"], config["feedback_beta"],
                                                  config.get("windows", (True,)))]
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
    per = ndcg(valid[0], scores, 5)
    return {"params": params, "valid": figures(valid[0], scores) | {"ndcg@5_se": se(per)},
            "valid_ndcg@5_per_query": [round(float(x), 4) for x in per],
            "train_fit": round(float(table.mean(1).max()), 4), "train_cv_ndcg@5": round(float(held.mean()), 4),
            "train_cv_ndcg@5_se": se(held), "train_cv_ndcg@5_per_query": [round(float(x), 4) for x in held],
            "grid_size": len(settings)}


def se(x: np.ndarray) -> float:
    """The standard error of a mean over queries."""
    return round(float(np.std(x, ddof=1) / np.sqrt(len(x))), 4)


def against(configs: dict, key: str = "valid_ndcg@5_per_query", base: str = "minilm") -> dict:
    """How far each configuration's NDCG@5 (key: valid's, or train's cross-validated) is from `base`'s, and how
    sure: the mean of the per-query differences, its standard error over the queries, and on how many queries it
    is above / below."""
    ref = np.array(configs[base][key])
    out = {}
    for name, c in configs.items():
        d = np.array(c[key]) - ref
        out[name] = {"mean_diff": round(float(d.mean()), 4), "se": round(float(d.std(ddof=1) / np.sqrt(len(d))), 4),
                     "queries_above": int((d > 1e-9).sum()), "queries_below": int((d < -1e-9).sum())}
    return out


def same_ranking(w: rel.RelevanceWeights, params: dict) -> bool:
    """Whether weights w rank as a configuration's parameters do: a linear one's up to a positive scale; a feedback
    one's where w weighs the feedback feature alone, at the module's FEEDBACK_TOP and FEEDBACK_BETA (with windows)."""
    if "feedback_top" in params:
        alone = w.used() == ("feedback",)
        return alone and "windows" not in params and (rel.FEEDBACK_TOP, rel.FEEDBACK_BETA) == (
            params["feedback_top"], params["feedback_beta"])
    a = np.array([getattr(w, f) for f in STAGES])
    b = np.array([params.get(f, 0.0) for f in STAGES])
    return not w.pmi and a.any() and b.any() and bool(np.allclose(a / a.sum(), b / b.sum()))


def systems(queries: list[dict], feats: list[dict]) -> dict:
    """Every stage alone, the weights before issue 53, the precedent weights and the shipped default."""
    named = {"default": rel.DEFAULT_WEIGHTS, "old_default": OLD_DEFAULT, "precedent_weights": rel.PRECEDENT_WEIGHTS}
    out = {("minilm" if s == "dense" else s): [f[s] for f in feats] for s in STAGES}
    out |= {k: [rel.combine(f, w) for f in feats] for k, w in named.items()}
    rewritten = [f | {"bm25": f["bm25_rewritten"], "coverage": f["coverage_rewritten"]} for f in feats]
    shipped = ("feedback", rel.FEEDBACK_TOP, rel.FEEDBACK_BETA, True)
    out["old_default_rewritten"] = [rel.combine(f, OLD_DEFAULT) for f in rewritten]
    out["old_default_feedback_rewritten"] = [rel.combine(f | {"dense": f[shipped]}, OLD_DEFAULT) for f in rewritten]
    per = {k: ndcg(queries, v, 5) for k, v in out.items()}
    return {k: figures(queries, v) | {"ndcg@5_se": se(per[k]), "ndcg@5_per_query": [round(float(x), 4) for x in per[k]]}
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
    chosen = max(WITHIN_RANK_BAR, key=lambda c: (configs[c]["train_cv_ndcg@5"], -len(CONFIGS[c])))
    result = {
        "benchmark": "relevance-acord",
        "data": "ACORD train (cross-validated by query category) and valid; qrels 0-4; test never read",
        "valid_queries": [q["id"] for q in splits["valid"]],
        "configs": configs,
        "chosen": chosen,
        "chosen_by": "train_cv_ndcg@5, among " + ", ".join(WITHIN_RANK_BAR) + " (those within hybrid rank's 1 s)",
        "best_train_cv": max(configs, key=lambda c: configs[c]["train_cv_ndcg@5"]),
        "best_on_valid": max(configs, key=lambda c: configs[c]["valid"]["ndcg@5"]),
        "valid_vs_minilm": against(configs),
        "train_cv_vs_minilm": against(configs, "train_cv_ndcg@5_per_query"),
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
