"""The reranker: scores finished candidates with the shared backbone. It never samples.

Owns: teacher-forced causal likelihood of clause bodies given their document, PMI relevance of a
text to a clause spec, the contract checks, the weights that combine them (RerankWeights) and
MMR ordering. Knows nothing about planning or filling: it takes finished text.

Likelihood. Each variant is laid out exactly as training documents are (hybrid.data.windows:
`<bos><doc>` + every segment tokenized on its own, each body followed by one `<eos>`), and every
body token plus its `<eos>` is scored teacher-forced in `causal` mode. The model was trained on
512-token windows starting anywhere in a document, so a long document is scored in overlapping
windows (stride 384, positions rebased to 0, as in training); each token is scored once, with at
least 128 tokens of context after the first window. All windows of all variants go through the
backbone in one batch (split only past `max_batch_tokens`), and only scored positions are
projected onto the vocabulary.

Relevance to a spec (`score`, `pmi`): log p(text | spec) - log p(text | spec hidden), per text
token, with the spec as the canonical heading line `heading_line("1", spec)` of a one-section
document whose body is the text. A raw likelihood favours short generic text; the contrast
measures what the heading explains. Two estimators (PMI_MODES, picked by `pmi_mode`):
- "causal": teacher-forced log p(text | heading line) - log p(text | no heading line).
- "fill": the filler's view. Every text token is masked (t = 1) and predicted in `fill` mode
  with the heading visible, and again with it hidden through the attention mask: exactly the
  unconditional branch that condition dropout trains for guidance. One forward per pair, no
  left-to-right dependence; a text longer than the window is scored on its first tokens.
"fill" is the default: on 8 val-split documents (103 clauses, bodies cut to 100 words, the
step-950 checkpoint) its heading MRR was 0.437 against 0.376 for "causal" (random: ~0.30).

`score` is hybrid.relevance's scorer, which takes this PMI as one feature on a short-list.
`pmi_coverage_score` (what `score` was before) adds a lexical term to the PMI:
`lexical_weight * coverage`, where coverage is the share
of the spec's content words (lower-cased, Porter-stemmed, function words dropped) found in the
text. A small model's PMI carries a weak topical signal (MRR above random, below BM25);
whether a clause says what its heading names is mostly lexical, and the PMI then orders
candidates the words cannot tell apart. benchmarks/rerank_mrr.py measures PMI alone, coverage
alone, the combination and BM25 on the test split. The weight was chosen on the val split (16
documents, 196 clauses, 64 words, step-950 model): heading MRR 0.417 PMI alone, 0.684 coverage
alone, 0.673 / 0.690 / 0.698 / 0.697 combined at w = 0.5 / 1 / 2 / 4, BM25 0.687.

Total score of a draft (higher is better):

    total = w.likelihood * loglik + sum over checks c of w.c * (check_c - 1)

The checks are contract_checks (text only) plus "fit", which needs hybrid.relevance's scorer
(the one relevance module behind `score`, `hybrid rank` and precedent retrieval): for each
section, are its own body and no other of the draft's bodies the most relevant to its heading and
clause type? It catches a section holding another clause (entire-agreement boilerplate under
"Definitions"), which no text check sees.

loglik is the mean log-probability per span token (nats, typically -1 to -4); every check is in
[0, 1] with 1 = no defect, so a clean draft is ranked by likelihood alone and each defect costs
up to its weight in nats/token. The defaults make any check failure outweigh typical likelihood
gaps between fluent variants (tenths of a nat/token): contract defects rank below fluency.
"""

import math
import re
from dataclasses import asdict, dataclass, field
from functools import lru_cache

import torch
import torch.nn.functional as F

from hybrid.data.document import heading_line
from hybrid.errors import ConfigError, SamplingError
from hybrid.foreign_facts import foreign_facts
from hybrid.model.backbone import fill_mask
from hybrid.skeleton import as_token_skeleton

__all__ = ["Reranker", "RerankWeights", "ContractSpec", "Ranked", "contract_checks", "mmr_order", "section_fit", "section_spec", "spec_coverage", "content_stems", "CHECKS", "TEXT_CHECKS", "PMI_MODES", "LEXICAL_WEIGHT"]

PMI_MODES = ("causal", "fill")
TEXT_CHECKS = ("parties", "terms", "consistency", "clauses", "numbering", "repetition", "foreign")  # contract_checks
CHECKS = TEXT_CHECKS + ("fit",)  # fit needs the relevance scorer: Reranker.rank adds it
_WORD = re.compile(r"\w+")
_TOP_LEVEL = re.compile(r"^(\d+)\.\s+\S", re.M)  # a line that reads as a top-level numbered section
_SECTION_REF = re.compile(r"\bSections?\s+(\d+)")
_FUNCTION_WORDS = frozenset(
    "a an and are as at be by for from in into is it its of on or shall such that the their this to under upon with "
    "without will any all each other".split()
)
LEXICAL_WEIGHT = 2.0
"""Default weight of spec coverage in Reranker.score (nats/token per unit of coverage; val split)."""


@lru_cache(maxsize=1)
def _porter():
    from nltk.stem import PorterStemmer

    return PorterStemmer()


@lru_cache(maxsize=1 << 16)
def _stem(word: str) -> str:
    return _porter().stem(word, to_lowercase=False)


def content_stems(text: str) -> set[str]:
    """Lower-cased, Porter-stemmed words of `text` that are not function words."""
    return {_stem(w) for w in _WORD.findall(text.lower()) if w not in _FUNCTION_WORDS and not w.isdigit()}


def spec_coverage(spec: str, text: str) -> float:
    """Share of the spec's content words that occur in the text, in [0, 1] (0 for a spec without any).

    Unweighted on purpose: weighting the words by their idf over the train split's clause bodies
    was measured worse on the val split (heading MRR 0.671 vs 0.684 alone, 0.685 vs 0.698 combined)."""
    return _coverage(content_stems(spec), text)


def _coverage(want: set[str], text: str) -> float:
    return len(want & content_stems(text)) / len(want) if want else 0.0


@dataclass
class RerankWeights:
    """Weights of the total score; each check's weight is its cost in nats/token when it fails fully."""

    likelihood: float = 1.0
    """>= 0. Multiplies the mean log-probability per span token (nats)."""
    parties: float = 2.0
    """>= 0. Every party name present in the document, and its lead word never used without the full name in a body."""
    terms: float = 1.0
    """>= 0. Each clause's required terms (e.g. the governing law, the term lengths) appear in its body."""
    consistency: float = 1.0
    """>= 0. Multi-word defined terms keep their defined capitalization in the bodies."""
    clauses: float = 3.0
    """>= 0. Every required clause present with a non-empty body; no empty section."""
    numbering: float = 2.0
    """>= 0. Top-level numbering reads 1..S in order (no stray numbered lines in bodies), cross-references exist."""
    repetition: float = 2.0
    """>= 0. Share of word n-grams not repeated within a body or across bodies."""
    foreign: float = 2.0
    """>= 0. No foreign facts (hybrid.foreign_facts: corpus party names, places, amounts, durations,
    proper nouns the deal does not state): 1 / (1 + foreign facts per 100 body words). 0 = off."""
    fit: float = 2.0
    """>= 0. Each section holds its own clause: share of sections whose body is, of all the draft's
    bodies, the most relevant (hybrid.relevance) to the section's heading and clause type. 0 = off
    (no encoder is loaded)."""

    def __post_init__(self):
        for name, v in asdict(self).items():
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not (math.isfinite(v) and v >= 0):
                raise ConfigError(f"rerank weight {name} must be a finite number >= 0, got {v!r}.")

    def total(self, scores: dict) -> float:
        return self.likelihood * scores["loglik"] + sum(getattr(self, c) * (scores[c] - 1.0) for c in CHECKS)


@dataclass
class ContractSpec:
    """What the checks hold a draft to (from its template and fields)."""

    parties: list[str] = field(default_factory=list)  # full legal names, verbatim
    defined_terms: list[str] = field(default_factory=list)  # placeholders already substituted
    required_clauses: list[str] = field(default_factory=list)  # clause types every outline must have
    allowed: str = ""  # everything the deal states (hybrid.foreign_facts.allowed_text); "" = no foreign-facts check
    corpus_parties: tuple[str, ...] = ()  # party names of corpus contracts (hybrid.foreign_facts.party_names)

    @classmethod
    def from_template(cls, template, fields: dict) -> "ContractSpec":
        from hybrid.foreign_facts import allowed_text, party_names
        from hybrid.templates import substitute

        values = template.validate_fields(fields)
        parties = [str(values[k]) for k in ("party_a", "party_b") if values.get(k)]
        return cls(parties, [substitute(t, values) for t in template.defined_terms], list(template.required_clauses),
                   allowed_text(template, values), party_names())


@dataclass
class Ranked:
    """One ranked variant: its index in the input, the total and the breakdown (total included)."""

    index: int
    score: float
    scores: dict


def _count(pattern: str, text: str, flags=0) -> int:
    return len(re.findall(pattern, text, flags))


def _word_ngrams(text: str, n: int) -> list[tuple]:
    words = [w.lower() for w in _WORD.findall(text)]
    return [tuple(words[i : i + n]) for i in range(len(words) - n + 1)]


def contract_checks(text: str, bodies: list[str], spans, spec: ContractSpec, ngram: int = 5, min_words: int = 5) -> dict:
    """The contract checks of one draft, each in [0, 1] (1 = no defect).

    text: the whole document; bodies[i]: the i-th clause body; spans[i]: its SpanSlot (clause,
    required_terms). Single-word defined terms ("Party", "Agreement") are left out of the
    consistency check: their lower-case forms are ordinary English ("a third party").
    """
    assert len(bodies) == len(spans), f"{len(bodies)} bodies for {len(spans)} spans"
    joined = "\n\n".join(bodies)

    party = []
    for name in spec.parties:
        present = name in text
        lead = next((w for w in re.findall(r"[A-Za-z][\w&'-]*", name) if len(w) >= 3 and w.lower() != "the"), None)
        uses = _count(rf"\b{re.escape(lead)}\b", joined) if lead else 0
        full = joined.count(name) if lead and name.startswith(lead) else uses
        party.append(float(present) * (min(full, uses) / uses if uses else 1.0))

    required = [(t, b) for b, s in zip(bodies, spans) for t in s.required_terms]
    terms = sum(t in b for t, b in required) / len(required) if required else 1.0

    good = seen = 0
    for term in spec.defined_terms:
        if len(term.split()) < 2:
            continue
        seen += _count(rf"\b{re.escape(term)}\b", joined, re.I)
        good += _count(rf"\b{re.escape(term)}\b", joined)
    consistency = good / seen if seen else 1.0

    filled = {s.clause for b, s in zip(bodies, spans) if len(_WORD.findall(b)) >= min_words}
    items = [c in filled for c in spec.required_clauses] + [len(_WORD.findall(b)) >= min_words for b in bodies]
    clauses = sum(items) / len(items) if items else 1.0

    S = len(spans)
    found = [int(m.group(1)) for m in _TOP_LEVEL.finditer(text)]
    lcs = _lcs(found, list(range(1, S + 1)))
    numbering = lcs / max(len(found), S) if S else 1.0
    refs = [int(m.group(1)) for m in _SECTION_REF.finditer(joined)]
    if refs:
        numbering *= sum(1 <= r <= S for r in refs) / len(refs)

    total = repeated = 0
    grams = [_word_ngrams(b, ngram) for b in bodies]
    for i, g in enumerate(grams):
        others = set().union(*(set(x) for j, x in enumerate(grams) if j != i))
        seen_here: set = set()
        for gram in g:
            repeated += gram in seen_here or gram in others
            seen_here.add(gram)
        total += len(g)
    repetition = 1.0 - repeated / total if total else 1.0

    foreign = 1.0
    if spec.allowed:
        n = len(foreign_facts(joined, spec.allowed, spec.corpus_parties))
        foreign = 1.0 / (1.0 + 100.0 * n / max(len(_WORD.findall(joined)), 1))

    return {
        "parties": sum(party) / len(party) if party else 1.0,
        "terms": terms,
        "consistency": consistency,
        "clauses": clauses,
        "numbering": numbering,
        "repetition": repetition,
        "foreign": foreign,
    }


def _lcs(a: list, b: list) -> int:
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def _jaccard(a: set, b: set) -> float:
    return len(a & b) / len(a | b) if a or b else 1.0


def mmr_order(scores: list[float], texts: list[str], mmr: float, ngram: int = 3) -> list[int]:
    """Indices best first. mmr = 0: by score. mmr in (0, 1): maximal marginal relevance, each pick
    maximizing (1 - mmr) * relevance - mmr * (max word-n-gram Jaccard similarity to those picked),
    relevance being the score min-max scaled to [0, 1]."""
    if not (isinstance(mmr, (int, float)) and not isinstance(mmr, bool) and 0 <= mmr < 1):
        raise SamplingError(f"mmr must be in [0, 1) (0 = off), got {mmr!r}.")
    by_score = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
    if mmr == 0 or len(scores) < 3:
        return by_score
    lo, hi = min(scores), max(scores)
    rel = [(s - lo) / (hi - lo) if hi > lo else 1.0 for s in scores]
    sets = [set(_word_ngrams(t, ngram)) for t in texts]
    picked = [by_score[0]]
    rest = by_score[1:]
    while rest:
        best = max(rest, key=lambda i: ((1 - mmr) * rel[i] - mmr * max(_jaccard(sets[i], sets[j]) for j in picked), -i))
        picked.append(best)
        rest.remove(best)
    return picked


def section_spec(slot) -> str:
    """What a section's body should be about: its heading and its clause type in words."""
    words = slot.clause.replace("_", " ") if slot.clause and slot.clause != "other" else ""
    return " ".join(x for x in (slot.heading, words) if x).strip()


def section_fit(relevance, specs: list[str], bodies: list[str], min_words: int = 5) -> float:
    """Share of sections whose own body ranks first among the draft's bodies for the section's spec
    (relevance: a hybrid.relevance.RelevanceScorer). Sections without a spec or with a body under
    min_words words are left out (the clauses check already counts empty bodies); 1.0 when fewer
    than two sections take part, since there is nothing to confuse a body with."""
    assert len(specs) == len(bodies), f"{len(specs)} specs for {len(bodies)} bodies"
    take = [i for i, (q, b) in enumerate(zip(specs, bodies)) if q and len(_WORD.findall(b)) >= min_words]
    if len(take) < 2:
        return 1.0
    texts = [bodies[i] for i in take]
    hits = 0
    for k, i in enumerate(take):
        scores = relevance.score(specs[i], texts)
        hits += max(range(len(texts)), key=lambda j: (scores[j], j == k)) == k
    return hits / len(take)


class Reranker:
    """Scores candidates with a causal backbone (`model(ids, "causal", return_hidden=True)`, tied
    output projection `model.output_weight`)."""

    def __init__(
        self,
        model,
        tokenizer,
        weights: RerankWeights | None = None,
        *,
        window: int = 512,
        stride: int = 384,
        max_batch_tokens: int = 32768,
        ngram: int = 5,
        pmi_mode: str = "fill",
        lexical_weight: float = LEXICAL_WEIGHT,
        relevance=None,
    ):
        if not 16 <= window <= model.cfg.max_len:
            raise ConfigError(f"window must be in [16, {model.cfg.max_len}], got {window}.")
        if not 1 <= stride <= window:
            raise ConfigError(f"stride must be in [1, window={window}], got {stride}.")
        if max_batch_tokens < window:
            raise ConfigError(f"max_batch_tokens must be >= window ({window}), got {max_batch_tokens}.")
        if ngram < 2:
            raise ConfigError(f"ngram must be >= 2, got {ngram}.")
        if isinstance(lexical_weight, bool) or not isinstance(lexical_weight, (int, float)) or not (math.isfinite(lexical_weight) and lexical_weight >= 0):
            raise ConfigError(f"lexical_weight must be a finite number >= 0, got {lexical_weight!r}.")
        if pmi_mode not in PMI_MODES:
            raise ConfigError(f"pmi_mode must be one of {', '.join(PMI_MODES)}, got {pmi_mode!r}.")
        self.model, self.tokenizer = model, tokenizer
        self.weights = weights or RerankWeights()
        self.window, self.stride, self.max_batch_tokens, self.ngram = window, stride, max_batch_tokens, ngram
        self.pmi_mode, self.lexical_weight = pmi_mode, float(lexical_weight)
        self._relevance = relevance  # a hybrid.relevance.RelevanceScorer; the default one is built on first score()
        self._fit_scorer = None  # the fit check's own scorer when none is given (see fit_relevance)

    # likelihood core

    def _windows(self, T: int) -> list[tuple[int, int, int]]:
        """(start, end, first target) rows covering targets 1..T-1 once, as training cuts windows."""
        W, S = self.window, self.stride
        starts = list(range(0, max(T - W, 0) + 1, S))
        if starts[-1] + W < T:
            starts.append(T - W)
        rows, done = [], 1
        for s in starts:
            e = min(s + W, T)
            if e > done:
                rows.append((s, e, max(done, s + 1)))
                done = e
        return rows

    @torch.inference_mode()
    def logprob_sums(self, seqs: list[list[int]], scored: list[list[bool]]) -> list[tuple[float, int]]:
        """Per sequence: (sum of log p over the scored targets, how many), teacher-forced in causal mode."""
        assert len(seqs) == len(scored), "one scored mask per sequence"
        rows = []  # (seq, start, end, first target)
        for i, (ids, sc) in enumerate(zip(seqs, scored)):
            assert len(ids) == len(sc), f"sequence {i}: {len(ids)} ids, {len(sc)} flags"
            rows += [(i, s, e, f) for s, e, f in self._windows(len(ids)) if any(sc[f:e])]
        rows.sort(key=lambda r: r[2] - r[1])  # similar lengths share a batch: less padding
        sums = [0.0] * len(seqs)
        counts = [sum(sc[1:]) for sc in scored]
        device = next(self.model.parameters()).device
        weight = self.model.output_weight
        self.model.eval()
        a = 0
        while a < len(rows):
            b, longest = a, 0
            while b < len(rows) and max(longest, rows[b][2] - rows[b][1]) * (b - a + 1) <= self.max_batch_tokens:
                longest = max(longest, rows[b][2] - rows[b][1])
                b += 1
            batch = rows[a:b]
            ids = torch.full((len(batch), longest), self.tokenizer.pad_id, dtype=torch.long)
            r_idx, p_idx, tgt, owner = [], [], [], []
            for r, (i, s, e, f) in enumerate(batch):
                ids[r, : e - s] = torch.tensor(seqs[i][s:e])
                for t in range(f, e):
                    if scored[i][t]:
                        r_idx.append(r)
                        p_idx.append(t - s - 1)  # the position whose output predicts target t
                        tgt.append(seqs[i][t])
                        owner.append(i)
            # right padding: causal attention never lets a real token see a pad, so no mask is needed
            hidden = self.model(ids.to(device), "causal", return_hidden=True)  # (B, L, D)
            h = hidden[torch.tensor(r_idx, device=device), torch.tensor(p_idx, device=device)]  # (P, D)
            tgt_t = torch.tensor(tgt, device=device)
            lp = torch.empty(len(tgt), device=device)
            for c in range(0, len(tgt), 1024):  # bound the (chunk, vocab) logits
                logits = F.linear(h[c : c + 1024], weight).float()
                lp[c : c + 1024] = logits.log_softmax(-1).gather(1, tgt_t[c : c + 1024, None])[:, 0]
            for i, v in zip(owner, lp.tolist()):
                sums[i] += v
            a = b
        return list(zip(sums, counts))

    # relevance to a spec

    def _spec_prefix(self, spec: str) -> list[int]:
        if not isinstance(spec, str) or not spec.strip().rstrip(".:"):
            raise SamplingError(f"spec must be a non-empty heading or clause description, got {spec!r}.")
        return self.tokenizer.encode(heading_line("1", " ".join(spec.split())))

    def pmi(self, specs: list[str], texts: list[str]) -> list[float]:
        """Per (spec, text) pair: [log p(text | spec) - log p(text | spec hidden)] / text tokens (nats/token),
        estimated as `pmi_mode` says (see the module docstring)."""
        if len(specs) != len(texts):
            raise SamplingError(f"specs and texts must pair up, got {len(specs)} specs and {len(texts)} texts.")
        if not all(isinstance(t, str) for t in texts):
            raise SamplingError("every candidate must be a string.")
        prefixes = {s: self._spec_prefix(s) for s in dict.fromkeys(specs)}
        distinct = list(dict.fromkeys(texts))
        body = dict(zip(distinct, self.tokenizer.encode_batch(distinct))) if distinct else {}
        eos = [self.tokenizer.eos_id]
        if self.pmi_mode == "fill":
            return self._fill_pmi([prefixes[s] for s in specs], [body[t] + eos for t in texts])
        return self._causal_pmi([prefixes[s] for s in specs], [body[t] + eos for t in texts])

    def _causal_pmi(self, prefixes: list[list[int]], bodies: list[list[int]]) -> list[float]:
        tok = self.tokenizer
        head = [tok.bos_id, tok.token_id("<doc>")]
        seqs, scored, hidden_of = [], [], {}
        for p, x in zip(prefixes, bodies):
            seqs.append(head + p + x)
            scored.append([False] * (len(head) + len(p)) + [True] * len(x))
        for x in map(tuple, bodies):  # each distinct text's hidden-spec likelihood once
            if x not in hidden_of:
                hidden_of[x] = len(seqs)
                seqs.append(head + list(x))
                scored.append([False] * len(head) + [True] * len(x))
        out = self.logprob_sums(seqs, scored)
        return [(out[i][0] - out[hidden_of[tuple(x)]][0]) / out[i][1] for i, x in enumerate(bodies)]

    @torch.inference_mode()
    def _fill_pmi(self, prefixes: list[list[int]], bodies: list[list[int]]) -> list[float]:
        """Every body token masked; each pair as a conditional and an unconditional row of one batch."""
        tok = self.tokenizer
        head = [tok.bos_id, tok.token_id("<doc>")]
        device = next(self.model.parameters()).device
        weight = self.model.output_weight
        rows = []  # (pair, ids, targets, n heading, n body); the body is cut to fit the window
        for i, (p, x) in enumerate(zip(prefixes, bodies)):
            x = x[: max(1, self.window - len(head) - len(p))]
            rows.append((i, head + p + [tok.mask_id] * len(x), x, len(p)))
        order = sorted(range(len(rows)), key=lambda r: len(rows[r][1]))
        out = [0.0] * len(rows)
        self.model.eval()
        a = 0
        while a < len(order):
            b = a + 1
            while b < len(order) and len(rows[order[b]][1]) * 2 * (b - a + 1) <= self.max_batch_tokens:
                b += 1
            batch = [rows[r] for r in order[a:b]]
            B, L = len(batch), max(len(r[1]) for r in batch)
            ids = torch.full((B, L), tok.pad_id, dtype=torch.long)
            span = torch.zeros(B, L, dtype=torch.bool)
            valid = torch.zeros(B, L, dtype=torch.bool)
            heading = torch.full((B, L), -1, dtype=torch.long)
            for r, (_, x_ids, x, n_head) in enumerate(batch):
                ids[r, : len(x_ids)] = torch.tensor(x_ids)
                valid[r, : len(x_ids)] = True
                span[r, len(x_ids) - len(x) : len(x_ids)] = True
                heading[r, len(head) : len(head) + n_head] = 0
            section = torch.where(span, 0, -1)
            ids2, span2, valid2 = ids.repeat(2, 1), span.repeat(2, 1), valid.repeat(2, 1)  # (2B, L): cond rows, then uncond
            uncond = span2 & (torch.arange(2 * B)[:, None] >= B)
            mask = fill_mask(span2, span2, section.repeat(2, 1), heading.repeat(2, 1), uncond, valid2)
            hidden = self.model(ids2.to(device), "fill", attn_mask=mask.to(device), return_hidden=True)  # (2B, L, D)
            r_idx, c_idx = span2.nonzero(as_tuple=True)
            tgt = torch.cat([torch.tensor(x) for _, _, x, _ in batch] * 2).to(device)  # row-major, as nonzero() orders
            lp = torch.empty(tgt.shape[0], device=device)
            h = hidden[r_idx.to(device), c_idx.to(device)]
            for c in range(0, tgt.shape[0], 1024):
                logits = F.linear(h[c : c + 1024], weight).float()
                logits[:, tok.mask_id] = float("-inf")  # SUBS: <mask> is never a prediction
                lp[c : c + 1024] = logits.log_softmax(-1).gather(1, tgt[c : c + 1024, None])[:, 0]
            per_row = torch.zeros(2 * B, device=device).index_add_(0, r_idx.to(device), lp).tolist()
            for r, (i, _, x, _) in enumerate(batch):
                out[i] = (per_row[r] - per_row[B + r]) / len(x)
            a = b
        return out

    def score(self, spec: str, candidates: list[str]) -> list[float]:
        """Relevance of each candidate text to one clause spec (a heading or short description), higher =
        better, one score per candidate in input order: hybrid.relevance's scorer (BM25, MiniLM cosine,
        spec coverage and, where weighted, this backbone's PMI on a short-list; weights fit on CUAD's
        lawyer labels). score_breakdown gives the parts."""
        return [r["score"] for r in self.score_breakdown(spec, candidates)]

    def score_breakdown(self, spec: str, candidates: list[str]) -> list[dict]:
        """Per candidate, input order: {"score", "bm25", "dense", "coverage", "pmi"} (hybrid.relevance)."""
        if isinstance(candidates, str):
            raise SamplingError("candidates must be a list of strings, got one string.")
        candidates = list(candidates)
        if not all(isinstance(t, str) for t in candidates):
            raise SamplingError("every candidate must be a string.")
        self._spec_prefix(spec)  # the same spec check as the PMI's
        return self.relevance.breakdown(spec, candidates, pmi=lambda s, texts: self.pmi([s] * len(texts), texts))

    @property
    def relevance(self):
        """The hybrid.relevance.RelevanceScorer behind score() (the default one is built on first use)."""
        if self._relevance is None:
            from hybrid.relevance import RelevanceScorer

            self._relevance = RelevanceScorer()
        return self._relevance

    @property
    def fit_relevance(self):
        """The scorer of the fit check: the relevance scorer given at construction, else the default
        weights with embeddings kept in memory only (drafts are one-off texts: they would only grow
        the persistent embedding cache)."""
        if self._relevance is not None:
            return self._relevance
        if self._fit_scorer is None:
            from hybrid.relevance import EmbeddingCache, RelevanceScorer, minilm_encoder

            self._fit_scorer = RelevanceScorer(embed=EmbeddingCache(minilm_encoder(), path=None))
        return self._fit_scorer

    def pmi_coverage_score(self, spec: str, candidates: list[str]) -> list[float]:
        """What score() was before hybrid.relevance (benchmarks/relevance.py's "reranker_pmi" baseline):
        PMI (nats per text token) + lexical_weight * spec coverage, one per candidate, input order."""
        if isinstance(candidates, str):
            raise SamplingError("candidates must be a list of strings, got one string.")
        candidates = list(candidates)
        pmi = self.pmi([spec] * len(candidates), candidates)
        if not self.lexical_weight:
            return pmi
        want = content_stems(spec)  # once per spec, not per candidate
        return [p + self.lexical_weight * _coverage(want, c) for p, c in zip(pmi, candidates)]

    # drafts

    def logliks(self, skeleton, variants: list[list[str]]) -> list[float]:
        """Mean log p per span token (bodies + their <eos>) of each variant given its document."""
        sk = as_token_skeleton(self.tokenizer, skeleton)
        tok = self.tokenizer
        S = len(sk.spans)
        for v, bodies in enumerate(variants):
            if len(bodies) != S:
                raise SamplingError(f"variant {v} has {len(bodies)} bodies, the skeleton has {S} spans.")
        fixed = tok.encode_batch([s.text for s in sk.segments if s.kind != "body"])
        flat = [b for bodies in variants for b in bodies]
        encoded = tok.encode_batch(flat) if flat else []
        seqs, scored = [], []
        for v in range(len(variants)):
            ids, sc = [tok.bos_id, tok.token_id("<doc>")], [False, False]
            fi, bi = iter(fixed), iter(encoded[v * S : (v + 1) * S])
            for seg in sk.segments:
                part, is_body = (next(bi) + [tok.eos_id], True) if seg.kind == "body" else (next(fi), False)
                ids += part
                sc += [is_body] * len(part)
            seqs.append(ids + [tok.eos_id])
            scored.append(sc + [False])
        return [s / max(n, 1) for s, n in self.logprob_sums(seqs, scored)]

    def rank(self, skeleton, variants: list[list[str]], spec: ContractSpec | None = None, *, mmr: float = 0.0) -> list[Ranked]:
        """Score variants (each a list of clause bodies for `skeleton`) and order them best first.

        skeleton: a hybrid.templates.Skeleton, TokenSkeleton or corpus Document. mmr > 0 reorders
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
