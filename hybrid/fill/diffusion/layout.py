"""Where every span slot of a fill lives: pages, skeleton rows, slot rows and the keys each reads.

Owns: `PageLayout` (built once per fill from a TokenSkeleton: per page its skeleton tokens and
the slots of its spans, padded into tensors; per (page, variant) row the packed key order
[page skeleton | span slots | one trash key]) and `encode_skeleton`, the one skeleton forward of
a document. Knows nothing about commits, sampling or guidance.
"""

import torch

from hybrid.model.backbone import fill_mask
from hybrid.model.cache import KVCache
from hybrid.skeleton.tokenized import TokenSkeleton

__all__ = ["PageLayout", "encode_skeleton", "row_chunks"]


class PageLayout:
    """Per-page skeleton rows and per-(variant, page) span-slot rows, padded; built once per call."""

    def __init__(self, sk: TokenSkeleton, n: int, window: int, min_context: int, device):
        pages = sk.pages(window, min_context)
        self.n, self.R, self.S = n, len(pages), len(sk.spans)
        is_span, heading = sk.span_mask, sk.heading_ids
        skel_rows, slot_rows = [], []
        for pg in pages:
            idx = torch.arange(pg.start, pg.end)
            skel_rows.append(idx[~is_span[idx]])
            slot_rows.append(torch.cat([torch.arange(sk.spans[i].start, sk.spans[i].end) for i in pg.spans]))
        Ts = max(len(r) for r in skel_rows)
        L = max(len(r) for r in slot_rows)
        R = self.R
        # skeleton rows (R, Ts)
        self.skel_ids = torch.full((R, Ts), sk.eos_id, dtype=torch.long)
        self.skel_pos = torch.zeros(R, Ts, dtype=torch.long)
        self.skel_valid = torch.zeros(R, Ts, dtype=torch.bool)
        # slot rows (R, L + 1): the last column is a trash slot padded queries write into
        span_of_pos = torch.full((len(sk),), -1, dtype=torch.long)
        off_of_pos = torch.zeros(len(sk), dtype=torch.long)
        for s in sk.spans:
            span_of_pos[s.start : s.end] = s.index
            off_of_pos[s.start : s.end] = torch.arange(s.length)
        lock_end = [0] * self.S  # eos may not come before a span's last locked text token
        for s in sk.spans:
            lk = sk.locked[s.start : s.end - 1].nonzero()
            lock_end[s.index] = int(lk.max()) + 1 if len(lk) else 0
        lock_end = torch.tensor(lock_end)
        shape = (R, L + 1)
        self.ids = torch.full(shape, sk.mask_id, dtype=torch.long)
        self.pos = torch.zeros(shape, dtype=torch.long)
        self.valid = torch.zeros(shape, dtype=torch.bool)
        self.span = torch.full(shape, -1, dtype=torch.long)
        self.off = torch.zeros(shape, dtype=torch.long)
        self.section = torch.full(shape, -1, dtype=torch.long)
        self.locked = torch.zeros(shape, dtype=torch.bool)
        # each slot's predecessor (the token at its position - 1), for a backbone whose fill output at
        # i-1 predicts token i (hybrid.model.objective.fill_shift): a slot of the same row, or else
        # a column of its page's skeleton row; -1 where it is not that kind (or not in the page)
        self.prev_slot = torch.full(shape, -1, dtype=torch.long)
        self.prev_skel = torch.full(shape, -1, dtype=torch.long)
        for r, (pg, sr, pr) in enumerate(zip(pages, skel_rows, slot_rows)):
            self.skel_ids[r, : len(sr)] = sk.ids[sr]
            self.skel_pos[r, : len(sr)] = sr - pg.start
            self.skel_valid[r, : len(sr)] = True
            k = len(pr)
            self.ids[r, :k] = sk.ids[pr]
            self.pos[r, :k] = pr - pg.start
            self.valid[r, :k] = True
            self.span[r, :k] = span_of_pos[pr]
            self.off[r, :k] = off_of_pos[pr]
            self.section[r, :k] = sk.section[pr]
            self.locked[r, :k] = sk.locked[pr]
            col = torch.full((len(sk) + 1,), -1, dtype=torch.long)  # document position -> slot column; [-1] stays -1
            col[pr] = torch.arange(k)
            self.prev_slot[r, :k] = col[pr - 1]
            col.fill_(-1)
            col[sr] = torch.arange(len(sr))
            self.prev_skel[r, :k] = col[pr - 1]
        self.eos_ok = self.valid & (self.off >= lock_end[self.span.clamp_min(0)])
        self._keys(skel_rows, slot_rows, heading, Ts, L)
        self.pages = pages
        names = (
            "skel_ids",
            "skel_pos",
            "skel_valid",
            "ids",
            "pos",
            "valid",
            "span",
            "off",
            "section",
            "locked",
            "eos_ok",
            "prev_slot",
            "prev_skel",
        )
        for name in names + ("key_valid", "key_head", "key_of_slot"):
            setattr(self, name, getattr(self, name).to(device))

    def _keys(self, skel_rows, slot_rows, heading, Ts: int, L: int):
        """The keys a slot row reads: its page's skeleton then its slots, packed (<= window), the last
        column a trash key that padded queries write into (never attended)."""
        R = self.R
        self.Tk = max(Ts, max(len(sr) + len(pr) for sr, pr in zip(skel_rows, slot_rows))) + 1
        self.key_valid = torch.zeros(R, self.Tk, dtype=torch.bool)
        self.key_head = torch.full((R, self.Tk), -1, dtype=torch.long)
        self.key_of_slot = torch.full((R, L + 1), self.Tk - 1, dtype=torch.long)
        for r, (sr, pr) in enumerate(zip(skel_rows, slot_rows)):
            ts, k = len(sr), len(pr)
            self.key_valid[r, : ts + k] = True
            self.key_head[r, :ts] = heading[sr]
            self.key_of_slot[r, :k] = ts + torch.arange(k)

    def rows(self, t: torch.Tensor) -> torch.Tensor:
        """Page rows (R, ...) -> page-major (R*n, ...) rows (row m = page m // n, variant m % n):
        a page's rows are contiguous, so a chunk of pages is a view of the slot store."""
        return t.repeat_interleave(self.n, dim=0)


def encode_skeleton(model, lay: PageLayout) -> tuple[KVCache, torch.Tensor]:
    """The one skeleton forward of a document: every page's skeleton in one batch, keys/values kept;
    (cache, final hidden states (R, Ts, D): a shifted backbone predicts a span's first token from
    the skeleton token before it)."""
    cache = KVCache()
    sk = torch.zeros_like(lay.skel_valid)  # skeleton queries: no span tokens anywhere
    mask = fill_mask(sk, sk, k_valid=lay.skel_valid)
    hidden = model(
        lay.skel_ids, "fill", cache=cache, positions=lay.skel_pos, attn_mask=mask, write_cache=True, return_hidden=True
    )
    return cache, hidden


def row_chunks(nq: torch.Tensor, n: int, max_tokens: int, copies: int) -> list[tuple[int, int]]:
    """Contiguous row ranges [a, b) of whole pages (n rows each) that have queries, each with
    rows x max queries x copies <= max_tokens (0 = no limit); a page alone always forms a chunk.
    Pages whose spans are all finished are skipped."""
    per_page = nq.view(-1, n).amax(1).tolist()
    out, a, q = [], None, 0
    for r, qr in enumerate(per_page + [0]):
        if a is not None and (qr == 0 or (max_tokens and (r * n + n - a) * max(q, qr) * copies > max_tokens)):
            out.append((a, r * n))
            a = None
        if qr > 0:
            if a is None:
                a, q = r * n, 0
            q = max(q, qr)
    return out
