"""Pure logits processors and the token draw, shared by the planner and the diffusion filler.

Owns: the processors (HF contract `__call__(input_ids, scores) -> scores`, composed by a list),
SamplingParams (validated, vLLM style) and `sample()`. Knows nothing about models, grammars or
tokenizers: ids are ints, scores are (B, V) float tensors.

Every processor returns a new tensor and never writes into `input_ids` or `scores`; a filtered
token gets -inf. Arguments are validated in `__init__` with messages naming the argument, the
allowed range and the value received; a bad value raises SamplingError.
"""

import math
import numbers
from dataclasses import dataclass

import torch

from hybrid.common.errors import SamplingError
from hybrid.common.options import bounded, check_fields, float_range, int_range
from hybrid.common.textsafe import shown

__all__ = [
    "LogitsProcessor",
    "Temperature",
    "TopK",
    "TopP",
    "MinP",
    "RepetitionPenalty",
    "NoRepeatNGram",
    "BannedTokens",
    "SamplingParams",
    "apply_processors",
    "sample",
    "variant_seed",
]

_NEG_INF = float("-inf")
_POSITIVE = float_range(0, lo_open=True)  # a processor's temperature, a repetition penalty
_NON_NEGATIVE = float_range(0)  # a draw's temperature: 0 = greedy


class LogitsProcessor:
    """`__call__(input_ids (B, T) long, scores (B, V) float) -> new scores (B, V)`."""

    def __call__(self, input_ids: torch.Tensor, scores: torch.Tensor) -> torch.Tensor:
        raise NotImplementedError

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({args})"


class Temperature(LogitsProcessor):
    """Divide scores by t. t > 0 (greedy decoding is `sample(..., temperature=0)`, not t=0 here)."""

    def __init__(self, temperature: float):
        _POSITIVE.check("temperature", temperature, error=SamplingError)
        self.temperature = float(temperature)

    def __call__(self, input_ids, scores):
        return scores / self.temperature


class TopK(LogitsProcessor):
    """Keep the k highest scores (ties at the k-th score are kept too)."""

    def __init__(self, top_k: int):
        int_range(1).check("top_k", top_k, error=SamplingError)
        self.top_k = top_k

    def __call__(self, input_ids, scores):
        k = min(self.top_k, scores.shape[-1])
        kth = torch.topk(scores, k, dim=-1).values[..., -1:]  # (B, 1)
        return scores.masked_fill(scores < kth, _NEG_INF)


class TopP(LogitsProcessor):
    """Nucleus: keep the smallest set of tokens whose probability mass reaches top_p (at least one).

    candidates=k: the nucleus is taken among the k best tokens only, their probabilities
    renormalized over the k (top-k and top-p together, as many samplers combine them), which
    spares a sort of the whole vocabulary per row; None = over the whole vocabulary.
    """

    def __init__(self, top_p: float, candidates: int | None = None):
        if not (isinstance(top_p, (int, float)) and 0 < top_p <= 1):
            raise SamplingError(f"top_p must be in (0, 1], got {top_p!r}.")
        if candidates is not None:
            int_range(1).check("candidates", candidates, error=SamplingError)
        self.top_p, self.candidates = float(top_p), candidates

    def __call__(self, input_ids, scores):
        if self.candidates is not None:
            top, idx = scores.topk(min(self.candidates, scores.shape[-1]), dim=-1)  # (B, k) descending
            probs = (top - top.logsumexp(-1, keepdim=True)).exp()  # renormalized over the k candidates
            keep_top = probs.cumsum(-1) - probs < self.top_p  # mass of strictly better tokens < top_p
            keep = torch.zeros_like(scores, dtype=torch.bool).scatter_(-1, idx, keep_top)
            return scores.masked_fill(~keep, _NEG_INF)
        sorted_scores, order = torch.sort(scores, dim=-1, descending=True)
        probs = sorted_scores.softmax(dim=-1)
        mass_before = probs.cumsum(dim=-1) - probs  # mass of strictly better tokens
        drop_sorted = mass_before >= self.top_p  # the best token has mass_before 0: always kept
        drop = torch.zeros_like(drop_sorted).scatter(-1, order, drop_sorted)
        return scores.masked_fill(drop, _NEG_INF)


class MinP(LogitsProcessor):
    """Drop tokens whose probability is below min_p times the top token's probability."""

    def __init__(self, min_p: float):
        if not (isinstance(min_p, (int, float)) and 0 < min_p <= 1):
            raise SamplingError(f"min_p must be in (0, 1], got {min_p!r}.")
        self.min_p = float(min_p)

    def __call__(self, input_ids, scores):
        # compare in log space: log p_i < log p_max + log min_p  <=>  s_i < s_max + log min_p
        threshold = scores.max(dim=-1, keepdim=True).values + math.log(self.min_p)
        return scores.masked_fill(scores < threshold, _NEG_INF)


class RepetitionPenalty(LogitsProcessor):
    """CTRL-style penalty on every token already in input_ids: s / p if s > 0 else s * p."""

    def __init__(self, penalty: float):
        _POSITIVE.check("repetition_penalty", penalty, error=SamplingError)
        self.penalty = float(penalty)

    def __call__(self, input_ids, scores):
        if input_ids.shape[-1] == 0:
            return scores.clone()
        seen = torch.gather(scores, -1, input_ids)
        seen = torch.where(seen > 0, seen / self.penalty, seen * self.penalty)
        return scores.scatter(-1, input_ids, seen)


class NoRepeatNGram(LogitsProcessor):
    """Ban every token that would complete an n-gram already present in input_ids."""

    def __init__(self, n: int):
        int_range(1).check("no_repeat_ngram", n, error=SamplingError)
        self.n = n

    def __call__(self, input_ids, scores):
        B, T = input_ids.shape
        n = self.n
        if T < n:
            return scores.clone()
        grams = input_ids.unfold(-1, n, 1)  # (B, T-n+1, n)
        if n == 1:
            match = torch.ones(grams.shape[:2], dtype=torch.bool, device=scores.device)
        else:
            suffix = input_ids[:, T - n + 1 :]  # (B, n-1): the prefix the next token would extend
            match = (grams[:, :, :-1] == suffix[:, None, :]).all(dim=-1)  # (B, T-n+1)
        banned = torch.zeros_like(scores, dtype=torch.bool)
        rows, cols = match.nonzero(as_tuple=True)
        banned[rows, grams[rows, cols, -1]] = True
        return scores.masked_fill(banned, _NEG_INF)


class BannedTokens(LogitsProcessor):
    """Never emit the given token ids."""

    def __init__(self, token_ids):
        ids = list(token_ids)
        bad = [t for t in ids if not (isinstance(t, int) and not isinstance(t, bool) and t >= 0)]
        if bad:
            raise SamplingError(f"banned token ids must be integers >= 0, got {bad[0]!r}.")
        self.token_ids = ids

    def __call__(self, input_ids, scores):
        if not self.token_ids:
            return scores.clone()
        if max(self.token_ids) >= scores.shape[-1]:
            raise SamplingError(
                f"banned token id must be < vocabulary size {scores.shape[-1]}, got {max(self.token_ids)}."
            )
        out = scores.clone()
        out[:, self.token_ids] = _NEG_INF
        return out


def apply_processors(processors, input_ids: torch.Tensor, scores: torch.Tensor) -> torch.Tensor:
    """Run processors left to right (HF LogitsProcessorList semantics)."""
    for p in processors:
        scores = p(input_ids, scores)
    return scores


def sample(logits: torch.Tensor, generator: torch.Generator | None, temperature: float = 1.0,
           uniforms: torch.Tensor | None = None) -> torch.Tensor:
    """Draw one id per row from logits (B, V) -> (B,) long.

    temperature 0 is argmax (deterministic, ignores the generator); otherwise an exact draw from
    softmax(logits / temperature) by inverse CDF with one uniform per row from `generator` only,
    so a seed fixes the result (and faster than torch.multinomial on CPU:
    benchmarks/results/figures-without-a-result-file.md).
    `uniforms` (B, 1) in [0, 1): the caller's own draws instead of the generator's (per-variant streams).
    A row whose logits are all -inf has no candidate: that is a caller bug (assert).
    """
    _NON_NEGATIVE.check("temperature", temperature, error=SamplingError)
    if temperature == 0:
        ids = logits.argmax(dim=-1)
    else:
        probs = (logits.float() / temperature).softmax(dim=-1)
        cdf = probs.cumsum(dim=-1)  # (B, V)
        u = (
            uniforms
            if uniforms is not None
            else torch.rand((logits.shape[0], 1), generator=generator, device=logits.device)
        )
        # target in (0, total]: the first index whose cdf reaches it has a positive probability
        ids = torch.searchsorted(cdf, (1 - u) * cdf[:, -1:]).squeeze(-1).clamp_max(logits.shape[-1] - 1)
    assert bool(torch.isfinite(logits.gather(-1, ids[:, None])).all()), "every row needs at least one finite logit"
    return ids


def variant_seed(seed: int, variant: int) -> int:
    """The seed of variant `variant`'s generator in every filler: a function of (seed, variant) only,
    so variant i of a seed does not depend on how many variants are drawn with it."""
    return (seed * 1_000_003 + variant * 7_919 + 1) % (2**63 - 1)


_FLOAT_RULES = {"temperature": _NON_NEGATIVE.rule(), "top_p": "a number in (0, 1]", "min_p": "a number in [0, 1]",
                "repetition_penalty": _POSITIVE.rule()}


def _as_float(name: str, value, rule: str) -> float:
    """`value` as a float, or SamplingError naming `name`, `rule` and the value (a string, a bool, a list, an integer
    too large for a float: float() would say neither the name nor the rule)."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        try:
            return float(value)
        except OverflowError:
            raise SamplingError(f"{name} must be {rule}, got an integer too large for a float.") from None
    raise SamplingError(f"{name} must be {rule}, got {shown(value)} ({type(value).__name__}).")


@dataclass
class SamplingParams:
    """How to turn logits into a token. Each field's "off" value disables it."""

    temperature: float = bounded(1.0, _NON_NEGATIVE)
    """>= 0. 0 = greedy (argmax, deterministic); 1 = the model's distribution."""
    top_k: int = bounded(0, int_range(0, off=0))
    """>= 0. Keep the k best tokens; 0 = off."""
    top_p: float = 1.0
    """(0, 1]. Nucleus mass to keep; 1 = off."""
    min_p: float = 0.0
    """[0, 1]. Drop tokens below min_p x the best token's probability; 0 = off."""
    repetition_penalty: float = bounded(1.0, _POSITIVE)
    """> 0. Penalize tokens already emitted (> 1 discourages repeats); 1 = off."""
    no_repeat_ngram: int = bounded(0, int_range(0, off=0))
    """>= 0. Ban tokens that would repeat an n-gram of this size; 0 = off."""
    banned_tokens: tuple[int, ...] = ()
    """Token ids never emitted (the drafter bans places a deal does not name:
    hybrid.fidelity.foreign_facts.place_ban_ids); () = off."""
    fact_guard: LogitsProcessor | None = None
    """A context-dependent ban (hybrid.fidelity.fact_guard.FactGuard: names, numbers and durations the deal
    does not state, judged by the tokens to the left); None = off. The diffusion filler applies it
    per slot with the slot's committed left neighbours instead of as a prefix processor."""

    def __post_init__(self):
        for name, rule in _FLOAT_RULES.items():
            setattr(self, name, _as_float(name, getattr(self, name), rule))
        check_fields(self, error=SamplingError)
        if not 0 < self.top_p <= 1:
            raise SamplingError(f"top_p must be in (0, 1], got {self.top_p}.")
        if not 0 <= self.min_p <= 1:
            raise SamplingError(f"min_p must be in [0, 1], got {self.min_p}.")
        self.banned_tokens = tuple(self.banned_tokens)
        BannedTokens(self.banned_tokens)  # validates the ids

    @property
    def greedy(self) -> bool:
        return self.temperature == 0

    def processors(self) -> list[LogitsProcessor]:
        """The enabled processors in HF order: penalties, then temperature, then truncation."""
        out: list[LogitsProcessor] = [BannedTokens(self.banned_tokens)] if self.banned_tokens else []
        if self.fact_guard is not None:
            out.append(self.fact_guard)
        if self.repetition_penalty != 1:
            out.append(RepetitionPenalty(self.repetition_penalty))
        if self.no_repeat_ngram:
            out.append(NoRepeatNGram(self.no_repeat_ngram))
        if self.greedy:
            return out  # truncation cannot change the argmax
        if self.temperature != 1:
            out.append(Temperature(self.temperature))
        if self.top_k:
            out.append(TopK(self.top_k))
        if self.top_p < 1:
            out.append(TopP(self.top_p))
        if self.min_p > 0:
            out.append(MinP(self.min_p))
        return out

    def next_token(
        self, input_ids: torch.Tensor, logits: torch.Tensor, generator: torch.Generator | None
    ) -> torch.Tensor:
        """processors() then a draw: (B, T) ids, (B, V) logits -> (B,) ids."""
        scores = apply_processors(self.processors(), input_ids, logits)
        return sample(scores, generator, temperature=0.0 if self.greedy else 1.0)
