"""The reranker: scores finished candidates with the shared backbone. It never samples.

Owns: the weights that combine a draft's likelihood and its contract checks (RerankWeights), the
ranking of variants (Reranker.rank, with MMR from hybrid.rank.mmr), and the Reranker's relevance
entry points (`score`, `pmi`, `pmi_coverage_score`). The parts live beside it and know nothing of
each other's weights: hybrid.rank.likelihood (windowed teacher-forced likelihood), hybrid.rank.pmi (the PMI
estimators), hybrid.rank.contract_checks (ContractSpec and every check), hybrid.common.stems (spec
coverage), hybrid.precedents.relevance (the relevance scorer). Knows nothing about planning or filling: it
takes finished text.

Likelihood. Each variant is laid out exactly as training documents are (hybrid.data.layout:
`<bos><doc>` + every segment tokenized on its own, each body followed by one `<eos>`), and every
body token plus its `<eos>` is scored teacher-forced in `causal` mode, in the checkpoint's
training windows (`window`/`stride`, from its record through hybrid.rank.likelihood.trained_window:
512 and 384 for the shipped model; positions rebased to 0, as in training); each token is scored
once, with at least window - stride tokens of context after the first window. All windows of all
variants go through the backbone in one batch (split only past `max_batch_tokens`), and only
scored positions are projected onto the vocabulary.

Relevance to a spec: `score` is hybrid.precedents.relevance's scorer, which takes this backbone's PMI
(hybrid.rank.pmi, estimator picked by `pmi_mode`) as one feature on a short-list where its weights weigh it (the
default's do not).
`pmi_coverage_score` (what `score` was before) adds a lexical term to the PMI:
`lexical_weight * coverage`, where coverage is the share of the spec's content words
(hybrid.common.stems) found in the text. A small model's PMI carries a weak topical signal (MRR above
random, below BM25); whether a clause says what its heading names is mostly lexical, and the PMI
then orders candidates the words cannot tell apart. benchmarks/rerank_mrr.py measures PMI alone,
coverage alone, the combination and BM25 on the test split (benchmarks/results/rerank-mrr-test-cpu.json).
The weight was chosen on the val split (the sweep: benchmarks/results/figures-without-a-result-file.md).

Total score of a draft (higher is better):

    total = w.likelihood * loglik + sum over checks c of w.c * (check_c - 1)

The checks are contract_checks (text only) plus "fit", which needs hybrid.precedents.relevance's scorer
(the one relevance module behind `score`, `hybrid rank` and precedent retrieval): for each
section, are its own body and no other of the draft's bodies the most relevant to its heading and
clause type? It catches a section holding another clause (entire-agreement boilerplate under
"Definitions"), which no text check sees.

loglik is the mean log-probability per span token (nats, typically -1 to -4); every check is in
[0, 1] with 1 = no defect, so a clean draft is ranked by likelihood alone and each defect costs
up to its weight in nats/token. The defaults make any check failure outweigh typical likelihood
gaps between fluent variants (tenths of a nat/token): contract defects rank below fluency.
"""

from dataclasses import dataclass, replace

from hybrid.common.config import TrainConfig
from hybrid.common.errors import ConfigError, SamplingError
from hybrid.common.options import WEIGHT, bounded, check_fields
from hybrid.common.stems import LEXICAL_WEIGHT, content_stems, coverage, spec_coverage
from hybrid.data.layout import lay_out
from hybrid.rank.contract_checks import TEXT_CHECKS, ContractSpec, contract_checks, section_fit, section_spec
from hybrid.rank.likelihood import MAX_BATCH_TOKENS, logprob_sums, training_windows
from hybrid.rank.mmr import mmr_order
from hybrid.rank.pmi import PMI_MODES, pmi_estimator, spec_prefix
from hybrid.skeleton.tokenized import as_token_skeleton

__all__ = [
    "Reranker",
    "RerankConfig",
    "RerankWeights",
    "ContractSpec",
    "Ranked",
    "contract_checks",
    "mmr_order",
    "section_fit",
    "section_spec",
    "spec_coverage",
    "content_stems",
    "CHECKS",
    "TEXT_CHECKS",
    "PMI_MODES",
    "LEXICAL_WEIGHT",
]

CHECKS = TEXT_CHECKS + ("fit",)  # fit needs the relevance scorer: Reranker.rank adds it


@dataclass
class RerankWeights:
    """Weights of the total score; each check's weight is its cost in nats/token when it fails fully."""

    likelihood: float = bounded(1.0, WEIGHT)
    """>= 0. Multiplies the mean log-probability per span token (nats)."""
    parties: float = bounded(2.0, WEIGHT)
    """>= 0. Every party name present in the document, and its lead word never used without the full name in a body."""
    terms: float = bounded(1.0, WEIGHT)
    """>= 0. Each clause's required terms (e.g. the governing law, the term lengths) appear in its body."""
    consistency: float = bounded(1.0, WEIGHT)
    """>= 0. Multi-word defined terms keep their defined capitalization in the bodies."""
    clauses: float = bounded(3.0, WEIGHT)
    """>= 0. Every required clause present with a non-empty body; no empty section."""
    numbering: float = bounded(2.0, WEIGHT)
    """>= 0. Top-level numbering reads 1..S in order (no stray numbered lines in bodies), cross-references exist."""
    repetition: float = bounded(2.0, WEIGHT)
    """>= 0. Share of word n-grams not repeated within a body or across bodies."""
    foreign: float = bounded(2.0, WEIGHT)
    """>= 0. No foreign facts (hybrid.fidelity.foreign_facts: corpus party names, statutes, places, the source
    contracts' names, amounts, durations, exhibits, years, numbers, proper nouns the deal does not state):
    1 / (1 + foreign facts per 100 body words). 0 = off."""
    fit: float = bounded(2.0, WEIGHT)
    """>= 0. Each section holds its own clause: share of sections whose body is, of all the draft's
    bodies, the most relevant (hybrid.precedents.relevance) to the section's heading and clause type. 0 = off
    (no encoder is loaded)."""

    def __post_init__(self):
        check_fields(self, label="rerank weight ")

    def total(self, scores: dict) -> float:
        return self.likelihood * scores["loglik"] + sum(getattr(self, c) * (scores[c] - 1.0) for c in CHECKS)


@dataclass
class Ranked:
    """One ranked variant: its index in the input, the total and the breakdown (total included)."""

    index: int
    score: float
    scores: dict


@dataclass(frozen=True)
class RerankConfig:
    """How the reranker reads text (the weights of what it finds are RerankWeights); checked against the model by
    Reranker, whose keywords update it (`Reranker(model, tok, window=1024)`)."""

    window: int = TrainConfig.seq_len  # 16..max_len: tokens per scoring window (the checkpoint's training window)
    stride: int = TrainConfig.stride  # 1..window-1: tokens between window starts
    max_batch_tokens: int = MAX_BATCH_TOKENS  # >= window: tokens per backbone batch
    ngram: int = 5  # >= 2: the n of the repeated n-gram check
    pmi_mode: str = "fill"  # PMI_MODES: how the PMI hides the spec (hybrid.rank.pmi)
    lexical_weight: float = LEXICAL_WEIGHT  # >= 0: the spec coverage's weight in pmi_coverage_score


class Reranker:
    """Scores candidates with a causal backbone (`model(ids, "causal", return_hidden=True)`, tied
    output projection `model.output_weight`). config: RerankConfig, or its fields as keywords; relevance: a
    hybrid.precedents.relevance.RelevanceScorer (None: the default one, built on first score())."""

    def __init__(self, model, tokenizer, weights: RerankWeights | None = None, config: RerankConfig | None = None, *,
                 relevance=None, **options):
        cfg = replace(config or RerankConfig(), **options)
        window, stride, max_batch_tokens = cfg.window, cfg.stride, cfg.max_batch_tokens
        if not 16 <= window <= model.cfg.max_len:
            raise ConfigError(f"window must be in [16, {model.cfg.max_len}], got {window}.")
        if not 1 <= stride < window:
            raise ConfigError(f"stride must be in [1, window={window}), got {stride}.")
        if max_batch_tokens < window:
            raise ConfigError(f"max_batch_tokens must be >= window ({window}), got {max_batch_tokens}.")
        if cfg.ngram < 2:
            raise ConfigError(f"ngram must be >= 2, got {cfg.ngram}.")
        WEIGHT.check("lexical_weight", cfg.lexical_weight)
        self._pmi = pmi_estimator(cfg.pmi_mode, window=window, stride=stride, max_batch_tokens=max_batch_tokens)
        self.model, self.tokenizer, self.config = model, tokenizer, cfg
        self.weights = weights or RerankWeights()
        self.window, self.stride, self.max_batch_tokens, self.ngram = window, stride, max_batch_tokens, cfg.ngram
        self.pmi_mode, self.lexical_weight = cfg.pmi_mode, float(cfg.lexical_weight)
        self._relevance = relevance  # the default one is built on first score()
        self._fit_scorer = None  # the fit check's own scorer when none is given (see fit_relevance)

    # likelihood core

    def logprob_sums(self, seqs: list[list[int]], scored: list[list[bool]]) -> list[tuple[float, int]]:
        """Per sequence: (sum of log p over the scored targets, how many), teacher-forced in causal mode,
        in the training windows (hybrid.rank.likelihood)."""
        return logprob_sums(self.model, seqs, scored, lambda n: training_windows(n, self.window, self.stride),
                            pad_id=self.tokenizer.pad_id, max_batch_tokens=self.max_batch_tokens)

    # relevance to a spec

    def pmi(self, specs: list[str], texts: list[str]) -> list[float]:
        """Per (spec, text) pair: [log p(text | spec) - log p(text | spec hidden)] / text tokens (nats/token),
        estimated as `pmi_mode` says (see the module docstring)."""
        if len(specs) != len(texts):
            raise SamplingError(f"specs and texts must pair up, got {len(specs)} specs and {len(texts)} texts.")
        if not all(isinstance(t, str) for t in texts):
            raise SamplingError("every candidate must be a string.")
        prefixes = {s: spec_prefix(self.tokenizer, s) for s in dict.fromkeys(specs)}
        distinct = list(dict.fromkeys(texts))
        body = dict(zip(distinct, self.tokenizer.encode_batch(distinct))) if distinct else {}
        eos = [self.tokenizer.eos_id]
        return self._pmi(self.model, self.tokenizer, [prefixes[s] for s in specs], [body[t] + eos for t in texts])

    def score(self, spec: str, candidates: list[str]) -> list[float]:
        """Relevance of each candidate text to one clause spec (a heading or short description), higher =
        better, one score per candidate in input order: hybrid.precedents.relevance's scorer (by default the MiniLM
        cosine alone, the configuration that won on ACORD's expert ratings; where its weights say, BM25, clause type,
        coverage, the re-ranking stage and this backbone's PMI on a short-list). score_breakdown gives the parts."""
        return [r["score"] for r in self.score_breakdown(spec, candidates)]

    def score_breakdown(self, spec: str, candidates: list[str]) -> list[dict]:
        """Per candidate, input order: {"score", "bm25", "dense", "type", "coverage", "pieces", "best_piece", "pmi"},
        None where not computed (hybrid.precedents.relevance.RelevanceScorer.breakdown)."""
        if isinstance(candidates, str):
            raise SamplingError("candidates must be a list of strings, got one string.")
        candidates = list(candidates)
        if not all(isinstance(t, str) for t in candidates):
            raise SamplingError("every candidate must be a string.")
        spec_prefix(self.tokenizer, spec)  # the same spec check as the PMI's
        return self.relevance.breakdown(spec, candidates, pmi=lambda s, texts: self.pmi([s] * len(texts), texts))

    @property
    def relevance(self):
        """The hybrid.precedents.relevance.RelevanceScorer behind score() (the default one is built on first use)."""
        if self._relevance is None:
            from hybrid.precedents.relevance import RelevanceScorer

            self._relevance = RelevanceScorer()
        return self._relevance

    @property
    def fit_relevance(self):
        """The scorer of the fit check: the relevance scorer given at construction, else the one-stage
        CUAD_CATEGORY_WEIGHTS (a section heading against the draft's bodies is a category query, what those
        weights were fit on; the re-ranking stage for drafting requests would add ~1 s per 10-section
        variant for its pieces) with embeddings kept in memory only (drafts are one-off texts: they would
        only grow the persistent embedding cache)."""
        if self._relevance is not None:
            return self._relevance
        if self._fit_scorer is None:
            from hybrid.precedents.relevance import (
                CUAD_CATEGORY_WEIGHTS,
                EmbeddingCache,
                RelevanceScorer,
                minilm_encoder,
            )

            self._fit_scorer = RelevanceScorer(CUAD_CATEGORY_WEIGHTS, embed=EmbeddingCache(minilm_encoder(), path=None))
        return self._fit_scorer

    def pmi_coverage_score(self, spec: str, candidates: list[str]) -> list[float]:
        """What score() was before hybrid.precedents.relevance (benchmarks/relevance.py's "reranker_pmi" baseline):
        PMI (nats per text token) + lexical_weight * spec coverage, one per candidate, input order."""
        if isinstance(candidates, str):
            raise SamplingError("candidates must be a list of strings, got one string.")
        candidates = list(candidates)
        pmi = self.pmi([spec] * len(candidates), candidates)
        if not self.lexical_weight:
            return pmi
        want = content_stems(spec)  # once per spec, not per candidate
        return [p + self.lexical_weight * coverage(want, c) for p, c in zip(pmi, candidates)]

    # drafts

    def logliks(self, skeleton, variants: list[list[str]]) -> list[float]:
        """Mean log p per span token (bodies + their <eos>) of each variant given its document."""
        sk = as_token_skeleton(self.tokenizer, skeleton)
        tok = self.tokenizer
        S = len(sk.spans)
        for v, bodies in enumerate(variants):
            if len(bodies) != S:
                raise SamplingError(f"variant {v} has {len(bodies)} bodies, the skeleton has {S} spans.")
        flat = [b for bodies in variants for b in bodies]
        encoded = tok.encode_batch(flat) if flat else []
        lays = [lay_out(tok, sk.segments, encoded[v * S : (v + 1) * S]) for v in range(len(variants))]
        return [s / max(n, 1) for s, n in self.logprob_sums([x.ids for x in lays], [x.scored for x in lays])]

    def rank(
        self, skeleton, variants: list[list[str]], spec: ContractSpec | None = None, *, mmr: float = 0.0
    ) -> list[Ranked]:
        """Score variants (each a list of clause bodies for `skeleton`) and order them best first.

        skeleton: a hybrid.templates.template.Skeleton, TokenSkeleton or corpus Document. mmr > 0 reorders
        for diversity (see mmr_order); the scores themselves never change.
        """
        sk = as_token_skeleton(self.tokenizer, skeleton)
        spec = spec or ContractSpec()
        lls = self.logliks(sk, variants)
        specs = [section_spec(s) for s in sk.spans]
        out = []
        for i, (bodies, ll) in enumerate(zip(variants, lls)):
            scores = {"loglik": ll, **contract_checks(sk.render(bodies), bodies, sk.spans, spec, self.ngram)}
            scores["fit"] = section_fit(self.fit_relevance, specs, bodies) if self.weights.fit else 1.0
            total = self.weights.total(scores)
            out.append(Ranked(i, total, {"total": total, **scores}))
        order = mmr_order([r.score for r in out], ["\n".join(b) for b in variants], mmr)
        return [out[i] for i in order]
