"""Memorization: how much of a text is copied verbatim from the train split.

Owns: the word tokenization memorization is measured in (lowercased `\\w+` runs, so line breaks,
punctuation and capitals cannot hide a copy), the index of every train-split 13-gram (a sorted
array of 64-bit hashes, built once per corpus and cached under .cache/memorization/ with the
corpus fingerprint of hybrid.precedents.library), and two pure measures over it:

- `copy_share(text, index)`: (13-grams of the text found in the train split, 13-grams of the text);
- `longest_copied_run(text, index)`: the longest run of words every 13-gram of which is in the
  train split (0 when none is). A run stitched from two train documents that overlap by 12 words
  counts as one run: an upper bound on the longest run shared with one document, exact for runs
  that come from a single one.

Knows nothing about systems or reports. Drafting from precedent copies by design; these numbers
make the copying visible, so adaptation is seen as adaptation and pasting as pasting.
"""

import hashlib
import os
import re
import tempfile
from pathlib import Path

__all__ = [
    "N",
    "memo_words",
    "gram_hashes",
    "TrainIndex",
    "build_index",
    "load_index",
    "copy_share",
    "longest_copied_run",
]

N = 13  # the n-gram length of contamination studies (GPT-3's 13-gram overlap)
_W = re.compile(r"\w+")


def memo_words(text: str) -> list[str]:
    return _W.findall(text.lower())


def gram_hashes(words: list[str], n: int = N):
    """uint64 hash of each word n-gram, in order (stable across processes: blake2b, not hash())."""
    import numpy as np

    out = np.empty(max(0, len(words) - n + 1), dtype=np.uint64)
    for i in range(len(out)):
        out[i] = int.from_bytes(hashlib.blake2b(" ".join(words[i : i + n]).encode(), digest_size=8).digest(), "little")
    return out


class TrainIndex:
    """The train split's 13-gram hashes, sorted and unique."""

    def __init__(self, hashes, fingerprint: str = ""):
        import numpy as np

        self.hashes = np.unique(np.asarray(hashes, dtype=np.uint64))
        self.fingerprint = fingerprint

    def __len__(self) -> int:
        return len(self.hashes)

    def contains(self, grams):
        """Boolean array: which of the given hashes are in the index."""
        import numpy as np

        if len(grams) == 0 or len(self.hashes) == 0:
            return np.zeros(len(grams), dtype=bool)
        pos = np.searchsorted(self.hashes, grams).clip(0, len(self.hashes) - 1)
        return self.hashes[pos] == grams


def build_index(texts, fingerprint: str = "") -> TrainIndex:
    import numpy as np

    parts = [gram_hashes(memo_words(t)) for t in texts]
    return TrainIndex(np.concatenate(parts) if parts else np.empty(0, dtype=np.uint64), fingerprint)


def _cache_path(fingerprint: str) -> Path:
    base = os.environ.get("HYBRID_CACHE", "")
    root = Path(base) if base else Path(__file__).resolve().parents[1] / ".cache"
    return root / "memorization" / f"train{N}-{fingerprint}.npy"


def load_index(corpus=None, log=lambda m: None) -> TrainIndex:
    """The train split's index for this corpus: from the cache when its fingerprint matches, else built and cached."""
    import numpy as np

    from hybrid.data.corpus import corpus_root, load_documents
    from hybrid.precedents.library import corpus_fingerprint

    root = corpus_root(corpus)
    fp = corpus_fingerprint(root)
    path = _cache_path(fp)
    if path.is_file():
        return TrainIndex(np.load(path), fp)
    docs = load_documents(root, splits=("train",))
    log(f"memorization: indexing the {N}-grams of {len(docs)} train documents (once; cached at {path})")
    index = build_index(("".join(s.text for s in d.segments()) for d in docs), fp)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".npy")
    os.close(fd)
    np.save(tmp, index.hashes)
    os.replace(tmp, path)
    return index


def copy_share(text: str, index: TrainIndex) -> tuple[int, int]:
    """(13-grams of `text` found in the train split, 13-grams of `text`)."""
    grams = gram_hashes(memo_words(text))
    return int(index.contains(grams).sum()), len(grams)


def longest_copied_run(text: str, index: TrainIndex) -> int:
    """Words in the longest run of `text` whose every 13-gram is in the train split; 0 if no 13-gram is."""
    hit = index.contains(gram_hashes(memo_words(text)))
    best = run = 0
    for h in hit:
        run = run + 1 if h else 0
        best = max(best, run)
    return best + N - 1 if best else 0
