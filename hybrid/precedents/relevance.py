"""Relevance of clause texts to a clause spec: one scorer for `hybrid rank`, the reranker's
`score(spec, candidates)`, drafting's choice of a clause a base lacks and precedent retrieval.

Owns: the relevance features of (spec, candidate) pairs, the embedding cache, and the small
linear combination that turns the features into one score (RelevanceWeights). Knows nothing
about the backbone: the PMI feature comes in as a callable (hybrid.rank.rerank passes its own PMI),
and the dense encoder is any `embed(texts) -> (n, d)` callable (default: the bundled MiniLM).

The default (DEFAULT_WEIGHTS: `hybrid rank`, Reranker.score, hybrid.skeleton.clause_choice) is the "feedback"
feature alone, MiniLM with pseudo-relevance feedback over each candidate's whole text and windows: of the configurations
benchmarks/relevance_acord.py fits on ACORD's expert-rated train queries (ACORD, The Atticus Project, CC BY 4.0) whose
features keep `hybrid rank` within its time (MiniLM's alone: BM25 and coverage stem with nltk, whose import alone
costs more), it scored best on train cross-validated by query category (benchmarks/results/relevance-acord.json holds
every configuration compared, per query, with valid's figures beside), so no other feature is computed for it. The
other features stay for the weights that use them:
PRECEDENT_WEIGHTS (precedent retrieval), CUAD_CATEGORY_WEIGHTS (the reranker's fit check) and REQUEST_WEIGHTS (the
default before issue 53, a benchmarks' baseline). A scorer computes only the features its weights use; the others
are None in its breakdown.

Two stages. The first ranks the whole list by its weighted bm25, dense, feedback and type; the re-ranking stage
(pointwise: each candidate scored on its own) adds its terms to the first stage's best RERANK_TOP only, the rest
getting the smallest of those terms, so it can re-order that top but never lift a candidate into it.
Features, each computed against the whole candidate list of one spec:
- "bm25" (first stage): Okapi BM25 (rank_bm25, k1 1.5, b 0.75) of the spec's terms over the candidates
  (lower-cased, Porter-stemmed words, function words dropped), divided by the list's maximum,
  so in [0, 1] whatever the spec's length; the idf is the list's own.
- "dense" (first stage): cosine of the spec's and the candidate's all-MiniLM-L6-v2 embeddings.
- "feedback" (first stage): the same cosine after Rocchio's pseudo-relevance feedback (the spec's vector plus
  FEEDBACK_BETA times the mean of its FEEDBACK_TOP nearest candidates', on a list of at least FEEDBACK_MIN), each
  candidate's best over its whole text and its windows (`windows`: MiniLM reads the first 256 word pieces only).
- "type" (first stage): how likely the spec and the candidate are of one clause type: each one's softmax
  (TYPE_TEMPERATURE) over its MiniLM cosines to the clause-type centroids (the mean embedding of the clause
  library's clauses of each type, clause_type_centroids.npz), the dot product of the two (type_agreement).
- "coverage" (re-ranking stage): share of the spec's terms that occur in the candidate (0..1).
- "pieces" (re-ranking stage): the request cut at commas and semicolons into its parts (request_parts), the
  candidate cut into sentence pieces of at most PIECE_WORDS words (pieces); per part, its best MiniLM cosine with
  a piece; their mean.
- "best_piece" (re-ranking stage): the whole request's best MiniLM cosine with a piece of the candidate.
- "pmi": the backbone's log p(text | spec) - log p(text | spec hidden), nats per token, computed
  only on the SHORTLIST best candidates by the rest (it costs a forward pass per pair); the others get
  the short-list's minimum. Only computed when its weight is non-zero and a PMI callable is given.

score = sum over features f of weight_f * f.

For precedent retrieval: `RelevanceScorer(PRECEDENT_WEIGHTS).score(query, [embedding_text(p) for p in pool])`
ranks a clause library's pool of one clause type (the embeddings of its bodies persist in the cache).

Embedding cache: per text (sha1 of the text and the encoder's name), in memory and in one
SQLite file, <repo>/.cache/relevance/embeddings.sqlite ($HYBRID_CACHE moves it, "off" keeps it
in memory only). Ranking 1,000 new candidates is bound by encoding them once with MiniLM; with
their embeddings cached the default scorer reads 1,001 vectors and takes one matrix product
(benchmarks/results/rank-speed.json times `hybrid rank`). Measured and not taken (the figures:
benchmarks/results/figures-without-a-result-file.md): int8 dynamic quantization of MiniLM, 128
word pieces instead of 256, and embedding only BM25's best 100-300 of 1,000 candidates.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from hybrid.common.errors import ConfigError
from hybrid.common.options import WEIGHT, bounded, check_fields
from hybrid.common.sentences import sentence_boundaries
from hybrid.common.stems import stem
from hybrid.precedents.clause_types import (  # re-exported: the "type" feature's centroids
    CENTROIDS_FILE,
    ENCODER,  # part of the cache key: another encoder never reads these vectors
    TYPE_TEMPERATURE,
    shipped_centroids,
    type_agreement,
)
from hybrid.precedents.embeddings import EmbeddingCache, minilm_encoder, unit_rows  # re-exported

__all__ = [
    "FEATURES",
    "TOP_FEATURES",
    "SHORTLIST",
    "RERANK_TOP",
    "DEFAULT_WEIGHTS",
    "REQUEST_WEIGHTS",
    "CUAD_CATEGORY_WEIGHTS",
    "PRECEDENT_WEIGHTS",
    "WEIGHTS_WITH_PMI",
    "RelevanceWeights",
    "EmbeddingCache",
    "RelevanceScorer",
    "combine",
    "terms",
    "pieces",
    "request_parts",
    "minilm_encoder",
    "shipped_centroids",
    "type_agreement",
    "CENTROIDS_FILE",
    "TYPE_TEMPERATURE",
    "ENCODER",
    "unit_rows",
]

FEATURES = ("bm25", "dense", "feedback", "type", "coverage", "pieces", "best_piece", "pmi")
FIRST_FEATURES = ("bm25", "dense", "feedback", "type")  # the first stage's, over the whole list
TOP_FEATURES = ("coverage", "pieces", "best_piece")  # the re-ranking stage's, on the RERANK_TOP best by the first
SHORTLIST = 20  # candidates whose PMI is computed (one backbone forward pair each)
RERANK_TOP = 50  # candidates the re-ranking stage scores (their pieces cost one embedding each, cached)
PIECE_WORDS = 40  # a candidate's sentences are cut into pieces of at most this many words
# "feedback": Rocchio's pseudo-relevance feedback, (top, beta) fit on ACORD train (benchmarks/relevance_acord.py)
FEEDBACK_TOP = 5  # the spec's vector moves towards the mean of its list's best this many by the MiniLM cosine
FEEDBACK_BETA = 1.0  # by this weight of that mean (the spec's own vector has weight 1)
FEEDBACK_MIN = 50  # a list of fewer candidates gets no feedback: its best few are no sample of what the spec finds
# MiniLM reads 256 word pieces (about 180 words of contract text); a longer candidate is also read in windows
WINDOW_WORDS, WINDOW_STRIDE, WINDOW_LONG = 150, 100, 180  # window width, its step, the words a text needs to get any

_WORD = re.compile(r"[a-z0-9]+")
_FUNCTION_WORDS = frozenset(
    "a an and are as at be by for from in into is it its of on or shall such that the their this to under upon with "
    "without will any all each other does do there if can which what has have been than".split()
)


@dataclass(frozen=True)
class RelevanceWeights:
    """Weights of the features (score = sum of weight * feature); the defaults are the MiniLM cosine alone (the
    shipped scorer is DEFAULT_WEIGHTS, see the module doc). Each weight's "off" value is 0: the feature is not
    computed."""

    bm25: float = bounded(0.0, WEIGHT)
    """>= 0. BM25 divided by the list's best, in [0, 1] (first stage)."""
    dense: float = bounded(1.0, WEIGHT)
    """>= 0. MiniLM cosine, in [-1, 1] (first stage)."""
    feedback: float = bounded(0.0, WEIGHT)
    """>= 0. MiniLM cosine of the candidate (its best over its whole text and its windows) with the spec's vector
    after pseudo-relevance feedback, in [-1, 1] (first stage)."""
    type: float = bounded(0.0, WEIGHT)
    """>= 0. Probability that the spec and the candidate are of one clause type, in [0, 1] (first stage)."""
    coverage: float = bounded(0.0, WEIGHT)
    """>= 0. Share of the spec's terms in the candidate (re-ranking stage)."""
    pieces: float = bounded(0.0, WEIGHT)
    """>= 0. Mean over the request's parts of their best MiniLM cosine with a piece of the candidate (re-ranking)."""
    best_piece: float = bounded(0.0, WEIGHT)
    """>= 0. Best MiniLM cosine of the whole request with a piece of the candidate (re-ranking stage)."""
    pmi: float = bounded(0.0, WEIGHT)
    """>= 0; 0 = off (no backbone pass). Backbone PMI in nats/token on the short-list."""

    def __post_init__(self):
        check_fields(self, label="relevance weight ")

    def used(self, names=FEATURES) -> tuple[str, ...]:
        """Those of `names` whose weight is not 0: the features this scorer computes."""
        return tuple(n for n in names if getattr(self, n))

    def formula(self, shortlist: int = SHORTLIST, top: int = RERANK_TOP) -> str:
        """The score as text, e.g. "2 * bm25 + 8 * dense + 6 * coverage (coverage on the best 50 by the rest)"
        (what `hybrid rank --json` reports)."""
        parts = [f"{getattr(self, f):g} * {f}" for f in FEATURES if getattr(self, f)]
        text = " + ".join(parts) or "0"
        staged = [f for f in TOP_FEATURES if getattr(self, f)]
        if staged:
            first = " + ".join(f for f in ("bm25", "dense", "type") if getattr(self, f)) or "input order"
            text += f" ({', '.join(staged)} on the best {top} by {first})"
        return text + (f" (pmi on the best {shortlist} by the rest)" if self.pmi else "")


def terms(text: str) -> list[str]:
    """BM25 terms: lower-cased, Porter-stemmed words without function words and bare numbers."""
    return [stem(w) for w in _WORD.findall(text.lower()) if w not in _FUNCTION_WORDS and not w.isdigit()]


def pieces(text: str, words: int = PIECE_WORDS) -> list[str]:
    """The text cut at sentence ends and semicolons into pieces of at most `words` words (the text when it has none)."""
    out, start = [], 0
    for end in [*sentence_boundaries(text), len(text)]:
        for part in re.split(r";\s+", text[start:end]):
            w = part.split()
            out += [" ".join(w[i : i + words]) for i in range(0, len(w), words)]
        start = end
    return out or [text]


def windows(text: str, words: int = WINDOW_WORDS, stride: int = WINDOW_STRIDE, long: int = WINDOW_LONG) -> list[str]:
    """A text of more than `long` words cut into windows of `words` words every `stride` (the last ends at the
    text's end); none for a shorter text, which MiniLM reads whole."""
    w = text.split()
    if len(w) <= long:
        return []
    return [" ".join(w[i : i + words]) for i in range(0, len(w) - words + stride, stride)]


def feedback(spec_vec: np.ndarray, vecs: np.ndarray, win_vecs: np.ndarray, owner: np.ndarray,
             top: int = FEEDBACK_TOP, beta: float = FEEDBACK_BETA, least: int = FEEDBACK_MIN) -> np.ndarray:
    """The "feedback" feature from unit vectors: the spec's (d,), the candidates' (n, d), their windows' (m, d)
    and each window's candidate (m,). Rocchio's pseudo-relevance feedback: the spec's vector plus beta times the
    mean of the `top` candidates it is nearest (a list of fewer than `least` keeps the spec's own), scaled to unit
    length; each candidate's cosine with it, the best of its whole text and its windows."""
    q = spec_vec
    if top and beta and len(vecs) >= least:
        first = vecs @ spec_vec
        q = spec_vec + beta * vecs[np.argsort(-first, kind="stable")[:top]].mean(0)
    q = q / max(float(np.linalg.norm(q)), 1e-12)
    out = (vecs @ q).astype(np.float64)
    if len(win_vecs):
        np.maximum.at(out, owner, (win_vecs @ q).astype(np.float64))
    return out


def request_parts(spec: str) -> list[str]:
    """A request's parts, split at commas and semicolons ("a cap on damages, excluding fraud" -> two parts)."""
    return [p.strip() for p in re.split(r"[,;]\s+", spec) if p.strip()] or [spec]


def first_stage(f: dict, w: RelevanceWeights, n: int) -> np.ndarray:
    """The first stage's total over the whole list of n: weighted BM25, MiniLM cosine and clause type (a feature of
    weight 0 is not read: it may be absent)."""
    return sum((getattr(w, k) * f[k] for k in w.used(FIRST_FEATURES)), np.zeros(n))


def _length(f: dict, n: int | None) -> int:
    return len(next(iter(f.values()))) if n is None else n


def stage_top(f: dict, w: RelevanceWeights, top: int = RERANK_TOP, n: int | None = None) -> list[int]:
    """The first stage's best `top` (ties by input order): the candidates the re-ranking stage scores. n: the list's
    length (default: that of f's first array)."""
    total = first_stage(f, w, _length(f, n))
    return sorted(range(len(total)), key=lambda i: (-total[i], i))[:top]


def combine(f: dict, w: RelevanceWeights, top: int = RERANK_TOP, n: int | None = None) -> np.ndarray:
    """The score without the PMI from features {name: (n,) array}: the first stage, plus the re-ranking stage's
    weighted terms on its best `top`, the others getting the smallest of those terms (the stage re-orders that top,
    never lifts a candidate into it). The re-ranking features are read at the top only (elsewhere they may be NaN),
    a feature of weight 0 nowhere. n: the list's length (default: that of f's first array).
    Pure: what breakdown and benchmarks/relevance_acord.py both score with."""
    total = first_stage(f, w, _length(f, n))
    if not w.used(TOP_FEATURES):
        return total
    best = stage_top(f, w, top, len(total))
    add = sum(getattr(w, k) * f[k][best] for k in TOP_FEATURES if getattr(w, k))
    stage = np.full(len(total), float(np.min(add)))
    stage[best] = add
    return total + stage


class RelevanceScorer:
    """Scores candidate clause texts against one spec; `breakdown` gives the features, `score` the totals."""

    def __init__(self, weights: RelevanceWeights | None = None, *, embed: Callable | None = None,
                 pmi: Callable[[str, list[str]], list[float]] | None = None, shortlist: int = SHORTLIST,
                 top: int = RERANK_TOP, centroids="shipped"):
        """centroids: the clause-type centroids of the "type" feature ("shipped": shipped_centroids(); None: the
        feature is 0; or a (types, d) array). Centroids whose width is not the encoder's give 0 as well (an
        encoder other than MiniLM has no centroids)."""
        for name, v in (("shortlist", shortlist), ("top", top)):
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ConfigError(f"{name} must be an integer >= 1, got {v!r}.")
        self.weights = weights or DEFAULT_WEIGHTS
        self.embed = embed if isinstance(embed, EmbeddingCache) else EmbeddingCache(embed or minilm_encoder())
        self.pmi, self.shortlist, self.top = pmi, shortlist, top
        if isinstance(centroids, str) and centroids == "shipped":
            found = shipped_centroids()
            centroids = found[1] if found else None
        self.centroids = None if centroids is None else np.asarray(centroids, dtype=np.float32)

    def features(self, spec: str, candidates: list[str], names=(*FIRST_FEATURES, "coverage")) -> dict[str, np.ndarray]:
        """{feature: (n,) array} for each of `names` among the first stage's and "coverage" (breakdown adds the
        re-ranking stage's and "pmi")."""
        n = len(candidates)
        out = {}
        if "bm25" in names or "coverage" in names:
            q = terms(spec)
            docs = [terms(c) for c in candidates]
        if "bm25" in names:
            out["bm25"] = np.zeros(n)
            if q and any(docs):
                from rank_bm25 import BM25Okapi

                bm25 = np.asarray(BM25Okapi([d or ["_"] for d in docs]).get_scores(q), dtype=np.float64)
                top = bm25.max()
                out["bm25"] = bm25 / top if top > 0 else np.zeros(n)
        if "dense" in names or "type" in names or "feedback" in names:
            cut = [windows(c) for c in candidates] if "feedback" in names else [[] for _ in candidates]
            owner = np.array([i for i, c in enumerate(cut) for _ in c], dtype=np.int64)
            vecs = unit_rows(self.embed([spec, *candidates, *(w for c in cut for w in c)]))
            vecs, win_vecs = vecs[: n + 1], vecs[n + 1 :]
            out["dense"] = (vecs[1:] @ vecs[0]).astype(np.float64)
        if "feedback" in names:
            out["feedback"] = feedback(vecs[0], vecs[1:], win_vecs, owner)
        if "type" in names:
            out["type"] = np.zeros(n)
            if self.centroids is not None and self.centroids.shape[1] == vecs.shape[1]:
                out["type"] = type_agreement(vecs[0], vecs[1:], self.centroids)
        if "coverage" in names:
            want = set(q)
            out["coverage"] = np.array([len(want & set(d)) / len(want) if want else 0.0 for d in docs])
        return {k: out[k] for k in names if k in out}

    def top_features(self, spec: str, candidates: list[str]) -> dict[str, np.ndarray]:
        """{"pieces", "best_piece"}: (n,) arrays of the re-ranking stage's MiniLM matching of the request's parts
        and of the whole request against each candidate's pieces (every piece embedded once, cached)."""
        cut = [pieces(c) for c in candidates]
        asked = request_parts(spec)
        vecs = unit_rows(self.embed([spec, *asked, *(p for c in cut for p in c)]))
        whole, parts, rows = vecs[0], vecs[1 : 1 + len(asked)], vecs[1 + len(asked) :]
        out = {"pieces": np.zeros(len(candidates)), "best_piece": np.zeros(len(candidates))}
        at = 0
        for i, c in enumerate(cut):
            block = rows[at : at + len(c)]
            at += len(c)
            out["pieces"][i] = float((block @ parts.T).max(0).mean())
            out["best_piece"][i] = float((block @ whole).max())
        return out

    def breakdown(self, spec: str, candidates: list[str], pmi: Callable | None = None) -> list[dict]:
        """Per candidate, in input order: {"score", "bm25", "dense", "type", "coverage", "pieces", "best_piece",
        "pmi"}, a feature None where it was not computed: its weight is 0 ("pmi": or no PMI callable), or the
        candidate is outside the re-ranking stage's top ("pieces", "best_piece") or the PMI's short-list.
        pmi: `pmi(spec, texts) -> nats/token per text`, else the one given at construction."""
        candidates = list(candidates)
        pmi_of = pmi or self.pmi
        if not candidates:
            return []
        w = self.weights
        n = len(candidates)
        f = self.features(spec, candidates, w.used((*FIRST_FEATURES, "coverage")))
        top = {k: [None] * n for k in ("pieces", "best_piece")}
        if w.pieces or w.best_piece:
            best = stage_top(f, w, self.top, n)
            g = self.top_features(spec, [candidates[i] for i in best])
            for k in g:
                f[k] = np.full(n, np.nan)
                f[k][best] = g[k]
                for i, v in zip(best, g[k]):
                    top[k][i] = float(v)
        total = combine(f, w, self.top, n)
        pmi = [None] * n
        if w.pmi and pmi_of is not None:
            short = sorted(range(n), key=lambda i: (-total[i], i))[: self.shortlist]
            values = pmi_of(spec, [candidates[i] for i in short])
            floor = min(values)
            for i, v in zip(short, values):
                pmi[i] = float(v)
            total = total + w.pmi * np.array([floor if p is None else p for p in pmi])
        first = {k: [float(x) for x in f[k]] if k in f else [None] * n for k in (*FIRST_FEATURES, "coverage")}
        return [{"score": float(total[i]), **{k: v[i] for k, v in (first | top).items()}, "pmi": pmi[i]}
                for i in range(n)]

    def score(self, spec: str, candidates: list[str], pmi: Callable | None = None) -> list[float]:
        """One relevance score per candidate, input order, higher = more relevant."""
        return [r["score"] for r in self.breakdown(spec, candidates, pmi)]


DEFAULT_WEIGHTS = RelevanceWeights(dense=0.0, feedback=1.0)
"""MiniLM with pseudo-relevance feedback and windows: of the configurations within `hybrid rank`'s time, the best on
ACORD train cross-validated by query category (see the module doc)."""
REQUEST_WEIGHTS = RelevanceWeights(bm25=2.95, dense=8.0, type=4.0, coverage=6.0, pieces=2.0, best_piece=1.0)
"""The default before issue 53: a grid search by benchmarks/relevance.py --fit on the `fit` slice of
evals.drafting_relevance (requests as lawyers write them, built from train documents) plus the `dev` part of
evals.relevance_data (CUAD category queries). Best on those sets' held-out slices (relevance-cpu.json), which overlap
lexically with what they score, it fell below MiniLM alone on ACORD's expert-rated queries
(relevance-acord.json). TYPE_TEMPERATURE was chosen with it (of 10, 20 and 40, 40 on CUAD dev)."""
PRECEDENT_WEIGHTS = RelevanceWeights(bm25=2.0, dense=8.0, type=0.0, coverage=6.0, pieces=4.0, best_piece=2.0)
"""What precedent retrieval re-orders BM25's short-list with (Library.use_relevance): the weights shipped before the
"type" feature. Its pool is of one clause type already; the weights fit with the type feature (REQUEST_WEIGHTS) held
0.083 of a val clause's word 4-grams in the top precedent against 0.092 with these, in the same run
(benchmarks/results/precedent-retrieval-cpu.json), so retrieval keeps these."""
CUAD_CATEGORY_WEIGHTS = RelevanceWeights(bm25=2.95, dense=10.063, type=0.0, coverage=0.0, pieces=0.0, best_piece=0.0)
"""The weights before issue 30: one stage, fit on CUAD's category queries alone (benchmarks/relevance.py keeps
them as a same-run baseline)."""
WEIGHTS_WITH_PMI = RelevanceWeights(
    bm25=1.871, dense=7.176, type=0.0, coverage=0.0, pieces=0.0, best_piece=0.0, pmi=0.56
)
"""The same regression with the PMI, on the short-lists of 40 dev queries (shipped checkpoint, "fill" PMI), with
the one-stage weights of before: no better than without it there (benchmarks/relevance.py --pmi-queries 40 puts
the PMI systems beside the others), so the PMI stays off."""
