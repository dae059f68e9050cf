"""Which retriever finds the more useful precedent? BM25 vs hybrid.precedents.relevance (BM25's short-list re-ordered
by the relevance scorer with PRECEDENT_WEIGHTS, what drafting does; "relevance_request_weights" with REQUEST_WEIGHTS,
those of `hybrid rank` and Reranker.score before issue 53; "relevance_cuad_weights" with the one-stage weights of
before issue 30) vs MiniLM embeddings alone vs random, on val.

Prints one JSON line. For every val-split clause (>= hybrid.precedents.library.MIN_WORDS words) the
query is what drafting has: its heading plus the document's field values (never its body); a
seeded sample of CLAUSES clauses; MiniLM embeds a precedent's heading and first 48 words.
Each retriever returns the top precedent of the same clause type (same doc type preferred, as
Library.retrieve does); the score is the share of the real clause's word 4-grams (and 2-grams)
found in that precedent (markers dropped), mean over clauses: how much real wording the
filler could copy. "random" draws a same-type precedent with a fixed seed.

    .venv/bin/python benchmarks/precedent_retrieval.py
"""

import json
import random
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hybrid.data.corpus import load_documents  # noqa: E402
from hybrid.data.facts import normalize  # noqa: E402
from hybrid.precedents.library import MIN_WORDS, load_library  # noqa: E402

CLAUSES = 200  # val clauses sampled (seeded): the embeddings of the library dominate the cost on CPU
_WORD = re.compile(r"[a-z0-9]+")
_MARK = re.compile(r"\[[A-Z_]+\]")


def _grams(text: str, n: int) -> set:
    w = _WORD.findall(_MARK.sub(" ", text).lower())
    return {tuple(w[i : i + n]) for i in range(len(w) - n + 1)}


def _share(real: str, prec: str, n: int) -> float:
    g = _grams(real, n)
    return len(g & _grams(prec, n)) / len(g) if g else 0.0


def main() -> int:
    import numpy as np

    from evals.metrics import minilm_embedder

    t0 = time.time()
    lib = load_library(progress=False)
    docs = load_documents(splits=("val",))
    clauses = [(d, s) for d in docs for s in d.sections if len(s.body.split()) >= MIN_WORDS]
    clauses = random.Random(1).sample(clauses, min(CLAUSES, len(clauses)))
    types = {s.clause_type for _, s in clauses}
    embed = minilm_embedder()
    pre = [p for p in lib.precedents if p.clause_type in types]
    pre_emb = embed([f"{p.heading}. {' '.join(_MARK.sub(' ', p.body).split()[:48])}" for p in pre])
    pre_emb /= np.linalg.norm(pre_emb, axis=1, keepdims=True) + 1e-9
    idx = {id(p): i for i, p in enumerate(pre)}
    queries = [f"{s.heading} " + " ".join(str(v) for v in d.fields.values()) for d, s in clauses]
    q_emb = embed(queries)
    q_emb /= np.linalg.norm(q_emb, axis=1, keepdims=True) + 1e-9
    rng = random.Random(0)
    from hybrid.precedents.relevance import CUAD_CATEGORY_WEIGHTS, PRECEDENT_WEIGHTS, REQUEST_WEIGHTS, RelevanceScorer

    relevance = RelevanceScorer(PRECEDENT_WEIGHTS)  # what Library.use_relevance() re-orders BM25's short-list with
    requests = RelevanceScorer(REQUEST_WEIGHTS, embed=relevance.embed)  # the weights fit on the two validations
    before = RelevanceScorer(CUAD_CATEGORY_WEIGHTS, embed=relevance.embed)  # the one-stage weights of before
    arms = ("bm25", "relevance", "relevance_request_weights", "relevance_cuad_weights", "minilm", "random")
    scores = {name: {2: [], 4: []} for name in arms}
    for (d, s), q, qe in zip(clauses, queries, q_emb):
        real = normalize(s.body, d.fields, d.preamble).text
        pool = [p for p in pre if p.clause_type == s.clause_type]
        same = [p for p in pool if p.doc_type == d.doc_type]
        pool = same or pool
        if not pool:
            continue
        picks = {
            "bm25": lib.retrieve(s.clause_type, q, doc_type=d.doc_type, k=1, relevance=None)[0],
            "relevance": lib.retrieve(s.clause_type, q, doc_type=d.doc_type, k=1, relevance=relevance)[0],
            "relevance_cuad_weights": lib.retrieve(s.clause_type, q, doc_type=d.doc_type, k=1, relevance=before)[0],
            "relevance_request_weights": lib.retrieve(
                s.clause_type, q, doc_type=d.doc_type, k=1, relevance=requests
            )[0],
            "minilm": max(pool, key=lambda p: float(pre_emb[idx[id(p)]] @ qe)),
            "random": rng.choice(pool),
        }
        for name, p in picks.items():
            for n in (2, 4):
                scores[name][n].append(_share(real, p.body, n))
    out = {
        f"{name}_{n}gram_share": round(sum(v) / len(v), 4) for name, by in scores.items() for n, v in by.items() if v
    }
    out.update({"val_clauses": len(scores["bm25"][4]), "library": len(pre), "seconds": round(time.time() - t0, 1)})
    from machine import machine  # benchmarks/machine.py

    out["machine"] = machine()
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
