"""Clause relevance against CUAD's lawyer labels: the relevance scorer vs BM25, MiniLM and the PMI reranker.

Prints one JSON line: NDCG@5, NDCG@10 and MRR on the held-out part of evals.relevance_data (train/val
documents only) for
- "relevance": hybrid.precedents.relevance.RelevanceScorer with its shipped weights (DEFAULT_WEIGHTS),
- "bm25", "minilm" (bi-encoder cosine), "coverage": its features alone,
- "reranker_pmi": the backbone's PMI + coverage scorer that Reranker.score used before
  (Reranker.pmi_coverage_score), and "relevance_pmi" (the scorer with the PMI feature on its
  short-list), both on a hash-chosen sample of --pmi-queries held-out queries (the PMI costs a
  backbone pass per pair), with the other systems' figures on the same sample beside them;
and the seconds to score 1,000 candidates (embeddings cached, and cold), with CPU model, threads and load.

--fit refits the weights on the dev part (pairwise logistic regression, see hybrid.precedents.relevance) and
prints them to stderr with their dev figures; the shipped weights are what an earlier --fit printed.
Queries are ranked with ties broken by a hash of (query, candidate): never by pool order, which
lists the query document's own clauses first.

    .venv/bin/python benchmarks/relevance.py [--fit] [--pmi-queries 40] > benchmarks/results/relevance-cpu.json
"""

import argparse
import hashlib
import json
import math
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from evals import relevance_data  # noqa: E402
from hybrid.precedents import relevance as rel  # noqa: E402

BASE = ("bm25", "dense", "coverage")
FIT = ("bm25", "dense")  # coverage left out: 2-fold (by document) dev NDCG@5 0.6427 without it, 0.6406 with it


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


def combine(feats: dict, w: dict) -> np.ndarray:
    return sum(w[f] * feats[f] for f in w)


def fit(queries: list[dict], feats: list[dict], names=BASE, C: float = 1.0) -> dict:
    """Pairwise logistic regression without intercept on x_better - x_worse (and the reverse, label 0)."""
    from sklearn.linear_model import LogisticRegression

    X = []
    for q, f in zip(queries, feats):
        g = np.asarray(q["gains"])
        M = np.stack([f[n] for n in names], 1)  # (n, F)
        better, worse = np.nonzero(g[:, None] > g[None, :])
        X.append(M[better] - M[worse])
    X = np.concatenate(X)
    y = np.r_[np.ones(len(X)), np.zeros(len(X))]
    lr = LogisticRegression(C=C, fit_intercept=False, max_iter=1000).fit(np.r_[X, -X], y)
    return {n: round(float(c), 3) for n, c in zip(names, lr.coef_[0])}


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


def shortlist_pmi(queries, feats, texts, w: dict, pmi, k: int) -> list[dict]:
    """feats with a "pmi" array: PMI on the k best by w, the short-list's minimum elsewhere (as
    hybrid.precedents.relevance)."""
    out = []
    for q, f in zip(queries, feats):
        base = combine(f, w)
        short = sorted(range(len(base)), key=lambda i: (-base[i], i))[:k]
        values = pmi(q["query"], [texts[q["pool"][i]] for i in short])
        col = np.full(len(base), min(values))
        col[short] = values
        out.append(f | {"pmi": col})
    return out


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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fit", action="store_true", help="refit the weights on the dev part and report them (stderr)")
    ap.add_argument("--pmi-queries", type=int, default=40, help="held-out queries for the PMI systems (0 = skip)")
    ap.add_argument("--checkpoint", type=Path, default=None, help="backbone for the PMI systems (default: shipped)")
    ap.add_argument("--cold", action="store_true", help="also time 1,000 candidates with no cached embedding")
    args = ap.parse_args(argv)

    import torch

    torch.set_num_threads(1)
    data = relevance_data.load()
    texts = data["texts"]
    scorer = rel.RelevanceScorer(embed=rel.EmbeddingCache(rel.minilm_encoder()))
    feats = {
        p: [scorer.features(q["query"], [texts[i] for i in q["pool"]]) for q in data["parts"][p]]
        for p in relevance_data.PARTS
    }
    shipped = {f: getattr(scorer.weights, f) for f in BASE}

    held, hf = data["parts"]["heldout"], feats["heldout"]
    pmi = reranker = None
    if args.pmi_queries > 0:
        from hybrid.draft.drafter import load_model
        from hybrid.rank.rerank import Reranker, spec_coverage

        model, tok, _, _ = load_model(args.checkpoint, device="cpu")
        reranker = Reranker(model, tok)
        pmi = CachedPMI(reranker, str(args.checkpoint or "shipped") + f":{reranker.pmi_mode}")

    def sample(part):
        return sorted(range(len(data["parts"][part])), key=lambda i: _h("pmi-sample", data["parts"][part][i]["id"]))[
            : args.pmi_queries
        ]

    result = {
        "benchmark": "relevance",
        "data": f"evals.relevance_data v{relevance_data.VERSION} (CUAD lawyer labels, train/val documents)",
        "weights": shipped,
    }
    if args.fit:
        dev, df = data["parts"]["dev"], feats["dev"]
        w = fit(dev, df, FIT)
        print(
            json.dumps(
                {
                    "fit_on_dev": w,
                    "dev": {
                        "fit": evaluate(dev, [combine(f, w) for f in df]),
                        "shipped": evaluate(dev, [combine(f, shipped) for f in df]),
                        **{n: evaluate(dev, [f[n] for f in df]) for n in BASE},
                    },
                }
            ),
            file=sys.stderr,
        )
        if pmi is not None:  # the PMI weight: the same regression on short-list pairs of a dev sample
            sq = [dev[i] for i in sample("dev")]
            sf = shortlist_pmi(sq, [df[i] for i in sample("dev")], texts, w, pmi, rel.SHORTLIST)
            cut = [{n: f[n][np.argsort(-combine(f, w), kind="stable")[: rel.SHORTLIST]] for n in f} for f in sf]
            wp = fit(
                [
                    {"gains": list(np.asarray(q["gains"])[np.argsort(-combine(f, w), kind="stable")[: rel.SHORTLIST]])}
                    for q, f in zip(sq, sf)
                ],
                cut,
                names=(*FIT, "pmi"),
            )
            print(
                json.dumps(
                    {
                        "fit_on_dev_shortlists": wp,
                        "dev_sample": {
                            "with_pmi": evaluate(sq, [combine(f, wp) for f in sf]),
                            "without": evaluate(sq, [combine(f, w) for f in sf]),
                            "pmi_alone_on_shortlist": evaluate(sq, [combine(f, w) * 1e-6 + f["pmi"] for f in sf]),
                        },
                    }
                ),
                file=sys.stderr,
            )
    result["heldout"] = {
        "relevance": evaluate(held, [combine(f, shipped) for f in hf]),
        "bm25": evaluate(held, [f["bm25"] for f in hf]),
        "minilm": evaluate(held, [f["dense"] for f in hf]),
        "coverage": evaluate(held, [f["coverage"] for f in hf]),
    }

    if reranker is not None:
        pick = sample("heldout")
        sq, sf = [held[i] for i in pick], [hf[i] for i in pick]
        legacy = [
            np.asarray(pmi(q["query"], c))
            + reranker.lexical_weight * np.asarray([spec_coverage(q["query"], x) for x in c])
            for q in sq
            for c in [[texts[i] for i in q["pool"]]]
        ]  # = Reranker.pmi_coverage_score, memoized
        with_pmi = rel.RelevanceScorer(
            scorer.weights if scorer.weights.pmi else rel.WEIGHTS_WITH_PMI, embed=scorer.embed, pmi=pmi
        )
        result["sample"] = {
            "reranker_pmi": evaluate(sq, legacy),
            "relevance_pmi": evaluate(
                sq, [np.asarray(with_pmi.score(q["query"], [texts[i] for i in q["pool"]])) for q in sq]
            )
            | {"weights": {f: getattr(with_pmi.weights, f) for f in rel.FEATURES}},
            "relevance": evaluate(sq, [combine(f, shipped) for f in sf]),
            "bm25": evaluate(sq, [f["bm25"] for f in sf]),
            "minilm": evaluate(sq, [f["dense"] for f in sf]),
        }

    thousand = [texts[i] for i in sorted(range(len(texts)), key=lambda i: _h("speed", i))[:1000]]
    spec = relevance_data.DRAFTING_REQUESTS["Cap On Liability"]
    t = time.perf_counter()
    scorer.breakdown(spec, thousand)
    speed = {"candidates": 1000, "seconds_cached_embeddings": round(time.perf_counter() - t, 3)}
    if args.cold:
        cold = rel.RelevanceScorer(embed=rel.EmbeddingCache(rel.minilm_encoder(), path=None))
        cold.breakdown("warm up the encoder", ["load"])
        t = time.perf_counter()
        cold.breakdown(spec, thousand)
        speed["seconds_cold_embeddings"] = round(time.perf_counter() - t, 3)
    speed |= rank_cli_seconds(spec, thousand)
    result["speed"] = speed
    result["machine"] = cpu_info()
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
