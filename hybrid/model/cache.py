"""KV cache for the shared backbone.

Owns: per-layer key/value tensors and the four operations the planner, the filler and the AR
baseline need: prefill/append (`update`, the transformers `Cache.update` signature, so the same
attention code serves transformers' DynamicCache in `generate()`), read without writing
(`get`), expand to N rows without copying (`expand`), and `truncate`. Knows nothing about
attention masks or sampling.
"""

import torch

__all__ = ["KVCache"]


class KVCache:
    """Appends write into a per-layer buffer that grows by doubling, so decoding T tokens costs O(T)
    copies in all, not O(T^2) (torch.cat per step copied the whole cache every token: with 48 rows
    of 600 keys that was most of an AR decode step). The tensors handed out are views of the
    buffer, valid until the next write after a `truncate`."""

    def __init__(self):
        self.keys: list[torch.Tensor] = []  # per layer (B, nh, T, hs)
        self.values: list[torch.Tensor] = []
        self._bufs: list[tuple[torch.Tensor, torch.Tensor] | None] = []  # per layer (B, nh, capacity, hs)

    @property
    def seq_len(self) -> int:
        return 0 if not self.keys else self.keys[0].shape[2]

    def get_seq_length(self, layer_idx: int = 0) -> int:  # transformers Cache protocol
        return self.seq_len

    @property
    def batch_size(self) -> int:
        return 0 if not self.keys else self.keys[0].shape[0]

    def update(self, k: torch.Tensor, v: torch.Tensor, layer_idx: int) -> tuple[torch.Tensor, torch.Tensor]:
        """Append k, v (B, nh, T, hs) to layer `layer_idx`; return the layer's full keys and values."""
        if layer_idx == len(self.keys):
            self.keys.append(k)
            self.values.append(v)
            return k, v
        while len(self._bufs) < len(self.keys):
            self._bufs.append(None)
        ck, cv = self.keys[layer_idx], self.values[layer_idx]
        t0, t1 = ck.shape[2], ck.shape[2] + k.shape[2]
        buf = self._bufs[layer_idx]
        owned = (
            buf is not None
            and ck.data_ptr() == buf[0].data_ptr()
            and ck.stride() == buf[0].stride()
            and cv.data_ptr() == buf[1].data_ptr()
        )
        if not owned or buf[0].shape[2] < t1 or buf[0].dtype != k.dtype:
            cap = max(t1, 2 * t0, 64)
            bk = k.new_empty(k.shape[0], k.shape[1], cap, k.shape[3])
            bv = v.new_empty(v.shape[0], v.shape[1], cap, v.shape[3])
            bk[:, :, :t0] = ck
            bv[:, :, :t0] = cv
            buf = self._bufs[layer_idx] = (bk, bv)
        buf[0][:, :, t0:t1] = k
        buf[1][:, :, t0:t1] = v
        self.keys[layer_idx], self.values[layer_idx] = buf[0][:, :, :t1], buf[1][:, :, :t1]
        return self.keys[layer_idx], self.values[layer_idx]

    def get(self, layer_idx: int) -> tuple[torch.Tensor, torch.Tensor] | None:
        """Read layer `layer_idx` without writing (None when the cache is empty)."""
        if layer_idx >= len(self.keys):
            return None
        return self.keys[layer_idx], self.values[layer_idx]

    def expand(self, n: int) -> "KVCache":
        """A cache of n rows viewing this one's single row: no copy (shares storage)."""
        assert self.batch_size == 1, f"expand needs a 1-row cache, got {self.batch_size} rows"
        out = KVCache()
        out.keys = [k.expand(n, -1, -1, -1) for k in self.keys]
        out.values = [v.expand(n, -1, -1, -1) for v in self.values]
        return out

    def select(self, rows) -> "KVCache":
        """A cache holding the given batch rows (index tensor or list); copies."""
        out = KVCache()
        out.keys = [k[rows] for k in self.keys]
        out.values = [v[rows] for v in self.values]
        return out

    def truncate(self, length: int) -> None:
        """Drop every position at or after `length` (views, no copy)."""
        assert 0 <= length <= self.seq_len, f"truncate to {length} outside [0, {self.seq_len}]"
        self.keys = [k[:, :, :length] for k in self.keys]
        self.values = [v[:, :, :length] for v in self.values]

    def reset(self) -> None:
        self.keys, self.values, self._bufs = [], [], []
