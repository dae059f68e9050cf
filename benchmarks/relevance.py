"""Clause relevance on two validations side by side: drafting requests and CUAD's category queries.

Prints one JSON line with NDCG@5, NDCG@10 and MRR, per system, on
- "drafting": the never-fitted `heldout` slice of evals.drafting_relevance (requests as a lawyer writes
  them, built from train documents only, graded 0-3 by how much of the request a clause meets);
- "cuad": the `heldout` part of evals.relevance_data (CUAD category names, descriptions and short
  requests as queries, graded by CUAD's labels);
for "relevance" (hybrid.precedents.relevance.RelevanceScorer with REQUEST_WEIGHTS, the default before issue 53:
BM25 + MiniLM + clause type, then the re-ranking stage over its best RERANK_TOP), "first_stage" (the same without
the re-ranking stage),
"cuad_category_weights" (the weights before issue 30, fit on CUAD's categories alone), "bm25", "minilm"
(bi-encoder cosine alone), "type" (clause-type agreement alone) and "coverage", all in the same run; the
weights; and the seconds to score 1,000 candidates (embeddings cached), the re-ranking stage over RERANK_TOP
candidates with no cached embedding at one thread, and `hybrid rank` over 1,000, with CPU model, threads and load.

--fit searches the weights on the fitting data only (evals.drafting_relevance `fit` + evals.relevance_data
`dev`, see fit_weights) and prints the search to stderr; REQUEST_WEIGHTS are what it picked.
--centroids first rebuilds the "type" feature's clause-type centroids (hybrid/precedents/clause_type_centroids.npz,
build_centroids: the train split's clause library without any document of a company either validation holds out).
--pmi-queries N adds the backbone PMI systems on a hash-chosen sample of N CUAD held-out queries (slow).
Queries are ranked with ties broken by a hash of (query, candidate): never by pool order, which
lists the query document's own clauses first.

    .venv/bin/python benchmarks/relevance.py [--centroids] [--fit] [--pmi-queries 0] \
        > benchmarks/results/relevance-cpu.json
"""

import argparse
import dataclasses
import hashlib
import itertools
import json
import math
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from evals import drafting_relevance, relevance_data  # noqa: E402
from hybrid.precedents import relevance as rel  # noqa: E402

BASE = ("bm25", "dense", "type", "coverage")
FIT = ("bm25", "dense")
# the search of --fit: first-stage weights, then the re-ranking stage's (coverage, pieces, best_piece)
GRID_FIRST = [(b, d, t) for d in (8.0, 10.063) for b in (1.0, 2.0, 2.95) for t in (0.0, 1.0, 2.0, 4.0)]
CENTROID_WORDS = 128  # words of each library clause its centroid's embedding reads
GRID_TOP = [(c, p, m) for c in (0, 1, 2, 3, 4, 6) for p in (0, 1, 2, 4) for m in (0, 1, 2)]


def _h(*parts) -> int:
    return int.from_bytes(hashlib.sha1("\x1f".join(map(str, parts)).encode()).digest()[:8], "big")


def ndcg(order: list[int], gains: list[int], k: int) -> float:
    dcg = sum((2 ** gains[i] - 1) / math.log2(r + 2) for r, i in enumerate(order[:k]))
    ideal = sum((2 ** g - 1) / math.log2(r + 2) for r, g in enumerate(sorted(gains, reverse=True)[:k]))
    return dcg / ideal if ideal else 0.0


def mrr(order: list[int], gains: list[int]) -> float:
    top = max(gains)
    return next((1.0 / (r + 1) for r, i in enumerate(order) if gains[i] == top), 0.0)


def evaluate(queries: list[dict], scores: list[np.ndarray]) -> dict:
    out = {"ndcg@5": [], "ndcg@10": [], "mrr": []}
    for q, s in zip(queries, scores):
        order = sorted(range(len(s)), key=lambda i: (-s[i], _h(q["id"], i)))
        out["ndcg@5"].append(ndcg(order, q["gains"], 5))
        out["ndcg@10"].append(ndcg(order, q["gains"], 10))
        out["mrr"].append(mrr(order, q["gains"]))
    return {k: round(float(np.mean(v)), 4) for k, v in out.items()} | {"queries": len(queries)}


class CachedPMI:
    """reranker.pmi per (spec, text), memoized in a JSON file under .cache/relevance/ (PMI is the slow part)."""

    def __init__(self, reranker, name: str):
        self.reranker = reranker
        base = os.environ.get("HYBRID_CACHE") or str(Path(__file__).resolve().parents[1] / ".cache")
        self.path = Path(base) / "relevance" / f"pmi-{hashlib.sha1(name.encode()).hexdigest()[:12]}.json"
        self.memo = json.loads(self.path.read_text()) if self.path.is_file() else {}

    def __call__(self, spec: str, texts: list[str]) -> list[float]:
        keys = [hashlib.sha1(f"{spec}\x1f{t}".encode()).hexdigest() for t in texts]
        todo = [(k, t) for k, t in dict(zip(keys, texts)).items() if k not in self.memo]
        if todo:
            self.memo.update(zip([k for k, _ in todo], self.reranker.pmi([spec] * len(todo), [t for _, t in todo])))
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps(self.memo))
        return [self.memo[k] for k in keys]


def rank_cli_seconds(spec: str, texts: list[str]) -> dict:
    """`hybrid rank --json` over texts in a child process at one thread: its CPU seconds (what one core
    spends: imports, checkpoint, MiniLM, scoring) and its wall seconds (which other jobs on the machine stretch)."""
    import resource
    import subprocess
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        f.write("".join(json.dumps({"text": t}) + "\n" for t in texts))
    env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "hybrid", "rank", "--spec", spec, "--candidates", f.name, "--json", "--cpu"],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        cwd=Path(__file__).resolve().parents[1],
    )
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    os.unlink(f.name)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return {"hybrid_rank_cpu_seconds": round(cpu, 2), "hybrid_rank_wall_seconds": round(wall, 2)}


def cpu_info() -> dict:
    from machine import machine

    m = machine()  # the keys this benchmark's committed results use
    return {"cpu": m["cpu_model"], "cores": m["cores"], "torch_threads": m["threads"], "load_avg": m["load_average"]}


def pool_features(scorer, queries: list[dict], texts: list[str]) -> list[dict]:
    """Per query, {feature: (n,) array} over its whole pool: the first stage's features and the re-ranking
    stage's (computed on every candidate here, so that any weights can be tried without re-embedding)."""
    out = []
    for q in queries:
        cands = [texts[i] for i in q["pool"]]
        out.append(scorer.features(q["query"], cands) | scorer.top_features(q["query"], cands))
    return out


def staged(f: dict, w, top: int = rel.RERANK_TOP) -> np.ndarray:
    """RelevanceScorer.breakdown's total (without PMI) from precomputed features: the first stage, then the
    re-ranking stage's terms on its best `top`, the rest given the smallest of those terms."""
    total = w.bm25 * f["bm25"] + w.dense * f["dense"] + w.type * f["type"]
    if not any(getattr(w, k) for k in rel.TOP_FEATURES):
        return total
    best = sorted(range(len(total)), key=lambda i: (-total[i], i))[:top]
    add = sum(getattr(w, k) * f[k][best] for k in rel.TOP_FEATURES)
    stage = np.full(len(total), float(np.min(add)))
    stage[best] = add
    return total + stage


def fit_weights(drafting: tuple, cuad: tuple) -> tuple[rel.RelevanceWeights, list]:
    """The weights with the best NDCG@5 on drafting `fit` + CUAD `dev` (sum of the two) among GRID_FIRST x
    GRID_TOP, of those no worse on CUAD dev than CUAD_CATEGORY_WEIGHTS (the category queries must not lose).
    drafting, cuad: (queries, pool_features). Returns (weights, [(drafting, cuad, weights)] of the search)."""
    floor = evaluate(cuad[0], [staged(f, rel.CUAD_CATEGORY_WEIGHTS) for f in cuad[1]])["ndcg@5"]
    tried = []
    for (b, d, t), (c, p, m) in itertools.product(GRID_FIRST, GRID_TOP):
        w = rel.RelevanceWeights(bm25=b, dense=d, type=t, coverage=c, pieces=p, best_piece=m)
        got = tuple(evaluate(qs, [staged(f, w) for f in fs])["ndcg@5"] for qs, fs in (drafting, cuad))
        tried.append((*got, w))
    ok = [t for t in tried if t[1] >= floor] or tried
    return max(ok, key=lambda t: t[0] + t[1])[2], tried


def systems(queries: list[dict], feats: list[dict]) -> dict:
    """NDCG/MRR of every system of the module docstring on one validation."""
    first = dataclasses.replace(rel.REQUEST_WEIGHTS, coverage=0.0, pieces=0.0, best_piece=0.0)
    return {
        "relevance": evaluate(queries, [staged(f, rel.REQUEST_WEIGHTS) for f in feats]),
        "first_stage": evaluate(queries, [staged(f, first) for f in feats]),
        "cuad_category_weights": evaluate(queries, [staged(f, rel.CUAD_CATEGORY_WEIGHTS) for f in feats]),
        **{("minilm" if n == "dense" else n): evaluate(queries, [f[n] for f in feats]) for n in BASE},
    }


def speed(scorer, texts: list[str]) -> dict:
    """Seconds for 1,000 candidates with cached embeddings (the re-ranking stage's pieces included), for the
    re-ranking stage over RERANK_TOP candidates with nothing cached, and `hybrid rank` over the 1,000."""
    thousand = [texts[i] for i in sorted(range(len(texts)), key=lambda i: _h("speed", i))[:1000]]
    spec = relevance_data.DRAFTING_REQUESTS["Cap On Liability"]
    scorer.breakdown(spec, thousand)  # the top's pieces into the cache, as a second `hybrid rank` finds them
    t = time.perf_counter()
    rows = scorer.breakdown(spec, thousand)
    out = {"candidates": 1000, "seconds_cached_embeddings": round(time.perf_counter() - t, 3)}
    top = sorted(range(len(rows)), key=lambda i: -rows[i]["score"])[: rel.RERANK_TOP]
    cold = rel.RelevanceScorer(embed=rel.EmbeddingCache(rel.minilm_encoder(), path=None))
    cold.top_features("warm up the encoder", ["load"])
    t = time.perf_counter()
    cold.top_features(spec + ", with an exception for a cold cache", [thousand[i] for i in top])
    out["rerank_top"] = rel.RERANK_TOP
    out["seconds_rerank_stage_cold"] = round(time.perf_counter() - t, 3)
    return out | rank_cli_seconds(spec, thousand)


def held_out_company(group: str) -> bool:
    """Whether a company's documents are in the held-out part of either validation (never fit on)."""
    return (relevance_data._h("part", group) % 1000 < relevance_data.HELDOUT_SHARE * 1000
            or drafting_relevance._h("slice", group) % 1000 < drafting_relevance.HELDOUT_SHARE * 1000)


def build_centroids(embed, path: Path = rel.CENTROIDS_FILE) -> dict:
    """The "type" feature's clause-type centroids: per clause type of the clause library (train split; "other"
    left out), the normalized mean MiniLM embedding of its clauses' first CENTROID_WORDS words, markers out,
    over the documents of companies neither validation holds out. Written to `path` (npz: encoder, types,
    centroids as float16); returns what it counted."""
    from hybrid.data.corpus import corpus_root, load_manifest
    from hybrid.precedents.library import MARKER_RE, load_library

    groups = {e["path"]: e["group"] for e in load_manifest(corpus_root(None))}
    lib = load_library()
    keep = [p for p in lib.precedents if p.clause_type != "other" and not held_out_company(groups[p.doc_id])]
    vecs = embed([" ".join(MARKER_RE.sub(" ", p.body).split()[:CENTROID_WORDS]) for p in keep])
    vecs = vecs / np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12)
    types = sorted({p.clause_type for p in keep})
    rows = np.zeros((len(types), vecs.shape[1]), dtype=np.float64)
    for p, v in zip(keep, vecs):
        rows[types.index(p.clause_type)] += v
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, encoder=np.array(rel.ENCODER), types=np.array(types), centroids=rows.astype(np.float16))
    os.replace(tmp, path)
    rel.shipped_centroids.cache_clear()
    return {"clauses": len(keep), "library_clauses": len(lib), "types": len(types),
            "documents": len({p.doc_id for p in keep})}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--centroids", action="store_true",
                    help=f"first rebuild the clause-type centroids of the 'type' feature ({rel.CENTROIDS_FILE.name})")
    ap.add_argument("--fit", action="store_true", help="search the weights on the fitting data (stderr)")
    ap.add_argument("--pmi-queries", type=int, default=0, help="CUAD held-out queries for the PMI systems (0 = skip)")
    ap.add_argument("--checkpoint", type=Path, default=None, help="backbone for the PMI systems (default: shipped)")
    args = ap.parse_args(argv)

    import torch

    torch.set_num_threads(1)
    drafting, cuad = drafting_relevance.load(), relevance_data.load()
    cache = rel.EmbeddingCache(rel.minilm_encoder())
    built = build_centroids(cache) if args.centroids else None
    scorer = rel.RelevanceScorer(rel.REQUEST_WEIGHTS, embed=cache)
    sets = {
        "drafting": (drafting, drafting["slices"]["heldout"]), "cuad": (cuad, cuad["parts"]["heldout"]),
        "drafting_fit": (drafting, drafting["slices"]["fit"]), "cuad_dev": (cuad, cuad["parts"]["dev"]),
    }
    feats = {k: pool_features(scorer, qs, data["texts"]) for k, (data, qs) in sets.items()}
    if args.fit:
        fitting = [(sets[k][1], feats[k]) for k in ("drafting_fit", "cuad_dev")]
        w, tried = fit_weights(*fitting)
        top = sorted(tried, key=lambda t: -(t[0] + t[1]))[:10]
        print(json.dumps({"picked": dataclasses.asdict(w), "best_ten": [
            {"drafting_fit": a, "cuad_dev": b, "weights": dataclasses.asdict(x)} for a, b, x in top]}), file=sys.stderr)
    result = {
        "benchmark": "relevance",
        "data": {"drafting": f"evals.drafting_relevance v{drafting_relevance.VERSION} heldout slice (train documents)",
                 "cuad": f"evals.relevance_data v{relevance_data.VERSION} heldout part (train/val documents)"},
        "weights": dataclasses.asdict(rel.REQUEST_WEIGHTS),
        "cuad_category_weights": dataclasses.asdict(rel.CUAD_CATEGORY_WEIGHTS),
        "formula": rel.REQUEST_WEIGHTS.formula(),
        "type_temperature": rel.TYPE_TEMPERATURE,
        **({"centroids_built": built} if built else {}),
        "heldout": {k: systems(sets[k][1], feats[k]) for k in ("drafting", "cuad")},
        "fitting_data": {k: systems(sets[k][1], feats[k]) for k in ("drafting_fit", "cuad_dev")},
    }
    if args.pmi_queries > 0:
        result["sample"] = pmi_sample(args, scorer, sets["cuad"][1], feats["cuad"], cuad["texts"])
    result["speed"] = speed(scorer, cuad["texts"])
    result["machine"] = cpu_info()
    print(json.dumps(result))
    return 0


def pmi_sample(args, scorer, held: list[dict], hf: list[dict], texts: list[str]) -> dict:
    """The PMI systems (the backbone's PMI + coverage that Reranker.score used before, and the scorer with the
    PMI feature) on a hash-chosen sample of CUAD held-out queries, with the other systems beside them."""
    from hybrid.draft.drafter import load_model
    from hybrid.rank.rerank import Reranker, spec_coverage

    model, tok, _, _ = load_model(args.checkpoint, device="cpu")
    reranker = Reranker(model, tok)
    pmi = CachedPMI(reranker, str(args.checkpoint or "shipped") + f":{reranker.pmi_mode}")
    pick = sorted(range(len(held)), key=lambda i: _h("pmi-sample", held[i]["id"]))[: args.pmi_queries]
    sq, sf = [held[i] for i in pick], [hf[i] for i in pick]
    legacy = [
        np.asarray(pmi(q["query"], c)) + reranker.lexical_weight * np.asarray([spec_coverage(q["query"], x) for x in c])
        for q in sq
        for c in [[texts[i] for i in q["pool"]]]
    ]
    with_pmi = rel.RelevanceScorer(rel.WEIGHTS_WITH_PMI, embed=scorer.embed, pmi=pmi)
    return {
        "reranker_pmi": evaluate(sq, legacy),
        "relevance_pmi": evaluate(sq, [np.asarray(with_pmi.score(q["query"], [texts[i] for i in q["pool"]]))
                                       for q in sq]) | {"weights": dataclasses.asdict(rel.WEIGHTS_WITH_PMI)},
        **systems(sq, sf),
    }


if __name__ == "__main__":
    raise SystemExit(main())
