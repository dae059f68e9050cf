"""Reranker validity on held-out contracts: does the true heading win? MRR of the reranker vs BM25, one JSON line.

    python benchmarks/rerank_mrr.py [--checkpoint checkpoints/hybrid-small] [--limit-docs 0] [--max-words 200]
    python benchmarks/rerank_mrr.py --split val --lexical-weights 0.25,0.5,1,2   # how LEXICAL_WEIGHT was chosen

For every clause of every test-split document (hybrid.data.corpus, splits=("test",)), the clause
body is scored against its own heading and against the headings of the other clause types in the
same document (one heading per type). The reranker ranks headings by PMI,
log p(body | heading) - log p(body | heading hidden) (Reranker.pmi), with each of its estimators
(hybrid.rank.rerank.PMI_MODES: "causal" teacher-forced, "fill" all-masked in fill mode with the heading
hidden as in guidance); `mrr_pmi` is the shipped default's (Reranker's pmi_mode). The baseline ranks them by BM25
(Okapi, k1=1.5, b=0.75, Porter-stemmed lower-case words, IDF over the same test-split bodies) of
the heading as the query against the body. Ties count as the expected reciprocal rank under a
random tie break. Both methods see the same (truncated) bodies and the same candidate sets.

`mrr_reranker` is what `Reranker.score` ranks by (the default PMI + LEXICAL_WEIGHT * spec
coverage, hybrid.rank.rerank); `mrr["coverage"]` is the lexical term alone, `mrr[<pmi mode>]` each
PMI alone. `--lexical-weights` adds one combined figure per weight (tune on --split val only).
"""

import argparse
import math
import re
import sys
import time
from collections import Counter
from pathlib import Path

import torch

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from hybrid.data.corpus import load_documents  # noqa: E402
from hybrid.rank.rerank import LEXICAL_WEIGHT, PMI_MODES, Reranker, spec_coverage  # noqa: E402

from machine import add_run_args, emit  # noqa: E402  (benchmarks/machine.py)

_WORD = re.compile(r"[a-z0-9]+")


def _stemmer():
    try:
        from nltk.stem import PorterStemmer

        return PorterStemmer().stem
    except ImportError:  # BM25 without stemming is a weaker baseline; say so in the output
        return None


class BM25:
    def __init__(self, docs: list[str], stem, k1: float = 1.5, b: float = 0.75):
        self.stem, self.k1, self.b = stem, k1, b
        toks = [self.tokens(d) for d in docs]
        self.N = len(toks)
        self.avgdl = sum(map(len, toks)) / max(self.N, 1)
        self.df = Counter(t for d in toks for t in set(d))

    def tokens(self, text: str) -> list[str]:
        words = _WORD.findall(text.lower())
        return [self.stem(w) for w in words] if self.stem else words

    def idf(self, t: str) -> float:
        df = self.df.get(t, 0)
        return math.log((self.N - df + 0.5) / (df + 0.5) + 1)

    def score(self, query: str, doc: str) -> float:
        d = self.tokens(doc)
        tf = Counter(d)
        norm = self.k1 * (1 - self.b + self.b * len(d) / self.avgdl)
        return sum(self.idf(t) * tf[t] * (self.k1 + 1) / (tf[t] + norm) for t in set(self.tokens(query)) if tf[t])


def reciprocal_rank(scores: list[float], true: int) -> float:
    """Expected 1/rank of `true` when ties are broken uniformly at random."""
    s = scores[true]
    better = sum(x > s for x in scores)
    ties = sum(x == s for x in scores)  # includes `true`
    return sum(1 / (better + k) for k in range(1, ties + 1)) / ties


def items(docs, max_words: int, min_words: int) -> list[dict]:
    out = []
    for d in docs:
        by_type = {}
        for s in d.sections:
            by_type.setdefault(s.clause_type, s.heading)
        for s in d.sections:
            words = s.body.split()
            if len(words) < min_words:
                continue
            others = [
                h for c, h in by_type.items() if c != s.clause_type and h.strip().lower() != s.heading.strip().lower()
            ]
            if not others:
                continue
            out.append(
                {
                    "doc": d.path,
                    "clause": s.clause_type,
                    "text": " ".join(words[:max_words]),
                    "headings": [s.heading] + others,
                }
            )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--checkpoint", default=str(REPO / "checkpoints" / "hybrid-small"))
    ap.add_argument("--corpus", default=None, help="corpus root (default: $HYBRID_CORPUS or ../shared/corpus)")
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument(
        "--split", default="test", choices=("val", "test"), help="held-out split (tune on val, report test)"
    )
    ap.add_argument(
        "--lexical-weights", default="", help="comma-separated extra weights of coverage to measure, e.g. 0.5,1,2"
    )
    ap.add_argument("--limit-docs", type=int, default=0, help="first N test documents only (0 = all)")
    ap.add_argument("--max-words", type=int, default=200, help="clause bodies are cut to their first W words")
    ap.add_argument("--min-words", type=int, default=5, help="skip clauses with fewer body words")
    ap.add_argument("--modes", default=",".join(PMI_MODES), help="PMI estimators to measure (default: all)")
    ap.add_argument("--random", action="store_true", help="a random tiny model instead of the checkpoint (smoke test)")
    add_run_args(ap)
    args = ap.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)

    docs = load_documents(args.corpus, splits=(args.split,))
    if args.limit_docs:
        docs = docs[: args.limit_docs]
    rows = items(docs, args.max_words, args.min_words)
    if args.random:
        from hybrid.model.backbone import Backbone, BackboneConfig
        from hybrid.tokenizer.bpe import HybridTokenizer

        tok = HybridTokenizer.train([r["text"] for r in rows], vocab_size=512)
        torch.manual_seed(0)
        model = Backbone(BackboneConfig.tiny(tok.vocab_size)).eval()
    else:
        from hybrid.model.checkpoint import load_checkpoint

        model, tok, _ = load_checkpoint(args.checkpoint)
    model = model.to(args.device)
    specs = [h for r in rows for h in r["headings"]]
    texts = [r["text"] for r in rows for _ in r["headings"]]
    modes = [m for m in args.modes.split(",") if m]
    pmi, pmi_s = {}, {}
    for mode in modes:
        t0 = time.perf_counter()
        pmi[mode] = Reranker(model, tok, pmi_mode=mode).pmi(specs, texts)
        pmi_s[mode] = round(time.perf_counter() - t0, 2)

    t0 = time.perf_counter()
    stem = _stemmer()
    bm25 = BM25([r["text"] for r in rows], stem)
    bm = [bm25.score(h, r["text"]) for r in rows for h in r["headings"]]
    bm25_s = time.perf_counter() - t0

    default = Reranker.__init__.__kwdefaults__["pmi_mode"]
    cov = [spec_coverage(h, t) for h, t in zip(specs, texts)]
    combos = {"reranker": LEXICAL_WEIGHT} | {
        f"combined_w{w:g}": w for w in (float(x) for x in args.lexical_weights.split(",") if x)
    }
    scores = {m: pmi[m] for m in modes} | {"coverage": cov}
    if default in pmi:
        scores |= {name: [p + w * c for p, c in zip(pmi[default], cov)] for name, w in combos.items()}
    rr = {m: [] for m in [*scores, "bm25"]}
    per_clause: dict[str, list[dict]] = {}
    i = 0
    for r in rows:
        k = len(r["headings"])
        got = {m: reciprocal_rank(v[i : i + k], 0) for m, v in scores.items()}
        got["bm25"] = reciprocal_rank(bm[i : i + k], 0)
        i += k
        for m, v in got.items():
            rr[m].append(v)
        per_clause.setdefault(r["clause"], []).append(got)
    n = max(len(rows), 1)
    mrr = {m: round(sum(v) / n, 4) for m, v in rr.items()}
    top1 = {m: round(sum(x == 1.0 for x in v) / n, 4) for m, v in rr.items()}
    result = {
        "benchmark": "rerank_mrr",
        "split": args.split,
        "checkpoint": "random-tiny" if args.random else args.checkpoint,
        "documents": len({r["doc"] for r in rows}),
        "clauses": len(rows),
        "pairs": len(specs),
        "mean_candidates": round(len(specs) / n, 2),
        "max_words": args.max_words,
        "default_pmi_mode": default,
        "lexical_weight": LEXICAL_WEIGHT,
        "mrr_reranker": mrr.get("reranker"),
        "mrr_pmi": mrr.get(default),
        "mrr_bm25": mrr["bm25"],
        "mrr_random": round(
            sum(sum(1 / j for j in range(1, len(r["headings"]) + 1)) / len(r["headings"]) for r in rows) / n, 4
        ),
        "reranker_beats_bm25": (mrr.get("reranker") or 0) > mrr["bm25"],
        "pmi_beats_bm25": mrr.get(default, 0) > mrr["bm25"],
        "mrr": mrr,
        "top1": top1,
        "bm25_stemming": stem is not None,
        "per_clause_mrr": {
            c: {"n": len(v), **{m: round(sum(g[m] for g in v) / len(v), 3) for m in rr}}
            for c, v in sorted(per_clause.items(), key=lambda kv: -len(kv[1]))
        },
        "seconds": {**{f"pmi_{m}": s for m, s in pmi_s.items()}, "bm25": round(bm25_s, 2)},
        "device": args.device,
        "torch_threads": torch.get_num_threads(),
    }
    emit(result, args.out)


if __name__ == "__main__":
    main()
