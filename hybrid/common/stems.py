"""Spec coverage: the share of a clause spec's content words that a text uses.

Owns: content stems (lower-cased, Porter-stemmed words, function words and numbers dropped) and
`spec_coverage`, the lexical term beside the backbone's PMI (hybrid.rank.pmi) in
Reranker.pmi_coverage_score and a feature of hybrid.precedents.relevance. Pure text; knows nothing about
models.
"""

import re
from functools import lru_cache

__all__ = ["stem", "content_stems", "spec_coverage", "coverage", "LEXICAL_WEIGHT"]

_WORD = re.compile(r"\w+")
_FUNCTION_WORDS = frozenset(
    "a an and are as at be by for from in into is it its of on or shall such that the their this to under upon with "
    "without will any all each other".split()
)
LEXICAL_WEIGHT = 2.0
"""Default weight of spec coverage in Reranker.pmi_coverage_score (nats/token per unit of coverage; val split)."""


@lru_cache(maxsize=1)
def _porter():
    from nltk.stem import PorterStemmer

    return PorterStemmer()


@lru_cache(maxsize=1 << 17)
def stem(word: str) -> str:
    """The Porter stem of a lower-case word (cached: contract text repeats its words)."""
    return _porter().stem(word, to_lowercase=False)


def content_stems(text: str) -> set[str]:
    """Lower-cased, Porter-stemmed words of `text` that are not function words."""
    return {stem(w) for w in _WORD.findall(text.lower()) if w not in _FUNCTION_WORDS and not w.isdigit()}


def spec_coverage(spec: str, text: str) -> float:
    """Share of the spec's content words that occur in the text, in [0, 1] (0 for a spec without any).

    Unweighted on purpose: weighting the words by their idf over the train split's clause bodies
    was measured worse on the val split (benchmarks/results/figures-without-a-result-file.md)."""
    return coverage(content_stems(spec), text)


def coverage(want: set[str], text: str) -> float:
    return len(want & content_stems(text)) / len(want) if want else 0.0
