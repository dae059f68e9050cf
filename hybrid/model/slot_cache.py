"""The filler's per-row key/value store: packed [page skeleton | span slots] keys and values,
kept across denoising steps, with a separate store for the unconditional rows of guidance.

Owns: `SlotStore` (built once per fill from the skeleton's KVCache: each row's page skeleton
keys/values copied in front of its slot columns) and `SlotKV`, the view one forward call reads
and writes (it duck-types the cache protocol of the backbone's attention). Beside KVCache, which
holds the skeleton; knows nothing about commits or sampling.
"""

import torch

from hybrid.model.cache import KVCache

__all__ = ["SlotStore", "SlotKV"]


class SlotStore:
    """Per layer (M, nh, Tk, hs) keys/values of every (page, variant) row; with `guided` a second
    store the unconditional rows read and write (slot keys computed without the heading)."""

    def __init__(self, skel: KVCache, page_of_row: torch.Tensor, Tk: int, guided: bool):
        M = page_of_row.shape[0]

        def packed_rows(x):  # (R, nh, Ts, hs) -> (M, nh, Tk, hs); slot columns are filled at step 0
            return torch.cat([x[page_of_row], x.new_zeros(M, x.shape[1], Tk - x.shape[2], x.shape[3])], 2)

        self.k = [packed_rows(x) for x in skel.keys]
        self.v = [packed_rows(x) for x in skel.values]
        self.ku = [x.clone() for x in self.k] if guided else None
        self.vu = [x.clone() for x in self.v] if guided else None

    def view(self, a: int, b: int, slot_idx: torch.Tensor) -> "SlotKV":
        """The rows [a, b) for one forward call; slot_idx (B or 2B, Q): the key column of each query."""
        rows = lambda xs: None if xs is None else [x[a:b] for x in xs]  # noqa: E731
        return SlotKV(rows(self.k), rows(self.v), slot_idx, rows(self.ku), rows(self.vu))


class SlotKV:
    """Keys/values one forward call reads, per layer: rows of packed [page skeleton | span slots].

    `keys[layer]`/`values[layer]` (the call's conditional rows, (B, nh, Tk, hs)) hold the
    page's skeleton keys/values (copied from the skeleton KVCache once per fill) and every slot's
    last computed keys/values; this call's fresh query keys/values are scattered into them in
    place, so they are at once what the conditional rows read and the store for the next step.
    Unconditional rows do the same in their own store `ukeys`/`uvalues` (slot keys/values computed
    without the heading), so they never read a conditional row's keys. Duck-types the cache
    protocol of the backbone's attention (`update`, `get_seq_length`).
    """

    def __init__(self, keys, values, slot_idx, ukeys=None, uvalues=None):
        self.keys, self.values, self.slot_idx = keys, values, slot_idx  # slot_idx (B or 2B, Q): key index per query
        self.ukeys, self.uvalues = ukeys, uvalues

    def get_seq_length(self, layer_idx: int = 0) -> int:
        return 0  # positions are always passed explicitly

    def update(self, k, v, layer_idx):
        B = k.shape[0]
        kk, vv = self.keys[layer_idx], self.values[layer_idx]
        M = kk.shape[0]
        rows = torch.arange(M, device=k.device)[:, None].expand(M, self.slot_idx.shape[1])
        kt, vt = k.transpose(1, 2).to(kk.dtype), v.transpose(1, 2).to(vv.dtype)  # (B, Q, nh, hs)
        # advanced-index assignment, not scatter_: bf16 scatter_ is far slower on CPU
        # (benchmarks/results/figures-without-a-result-file.md)
        if B > M:  # unconditional rows: their own store, with their fresh queries
            uk, uv = self.ukeys[layer_idx], self.uvalues[layer_idx]
            uk[rows, :, self.slot_idx[M:]] = kt[M:]
            uv[rows, :, self.slot_idx[M:]] = vt[M:]
        kk[rows, :, self.slot_idx[:M]] = kt[:M]
        vv[rows, :, self.slot_idx[:M]] = vt[:M]
        if B > M:
            return torch.cat([kk, uk]), torch.cat([vv, uv])
        return kk, vv  # (B, nh, Tk, hs)
