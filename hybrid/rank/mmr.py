"""Maximal marginal relevance: diversity among the top of a ranking.

Owns: `mmr_order` (scores + texts -> an order trading score against word-n-gram overlap with what
is already picked). Pure; knows nothing about how the scores were made.
"""

from hybrid.common.errors import SamplingError
from hybrid.common.options import MMR
from hybrid.rank.contract_checks import word_ngrams

__all__ = ["mmr_order"]


def _jaccard(a: set, b: set) -> float:
    return len(a & b) / len(a | b) if a or b else 1.0


def mmr_order(scores: list[float], texts: list[str], mmr: float, ngram: int = 3) -> list[int]:
    """Indices best first. mmr = 0: by score. mmr in (0, 1): maximal marginal relevance, each pick
    maximizing (1 - mmr) * relevance - mmr * (max word-n-gram Jaccard similarity to those picked),
    relevance being the score min-max scaled to [0, 1]."""
    MMR.check("mmr", mmr, error=SamplingError)
    by_score = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
    if mmr == 0 or len(scores) < 3:
        return by_score
    lo, hi = min(scores), max(scores)
    rel = [(s - lo) / (hi - lo) if hi > lo else 1.0 for s in scores]
    sets = [set(word_ngrams(t, ngram)) for t in texts]
    picked = [by_score[0]]
    rest = by_score[1:]
    while rest:
        best = max(rest, key=lambda i: ((1 - mmr) * rel[i] - mmr * max(_jaccard(sets[i], sets[j]) for j in picked), -i))
        picked.append(best)
        rest.remove(best)
    return picked
