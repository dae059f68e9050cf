"""Repetition control inside a span: the position-aware n-gram blocker and the guard's detector.

Owns: `left_context` (the committed tokens left of a slot, for hybrid.fidelity.fact_guard), `fact_recheck`
(the committed slots the fact guard bans once their left neighbours are known), `ngram_bans` (tokens that would repeat a
committed n-gram of the same span, matched on the
committed slots to the left or right of a slot) and `repeated_ngrams` (windows that repeat an
earlier window of their span). Pure tensor functions; know nothing about models or sampling.
"""

from functools import lru_cache

import torch

__all__ = ["ngram_bans", "repeated_ngrams", "left_context", "glue_tokens", "fact_recheck"]

_CHUNK = 512  # commits whose (W, n) windows are compared at once: bounds the (chunk, W, n) comparison


def ngram_bans(tok, ok, span, rows, slots, n: int, vocab: int) -> torch.Tensor:
    """(C, vocab) bool: tokens that, placed at (rows[c], slots[c]), would repeat an n-gram committed
    elsewhere in the same span, matched on the n-1 committed slots to its left or to its right.

    tok/ok/span (M, L): slot tokens, committed-and-countable flags, span ids; rows/slots (C,).
    """
    M, L = tok.shape
    C = rows.shape[0]
    banned = torch.zeros(C, vocab + 1, dtype=torch.bool, device=tok.device)
    if L < n or C == 0:
        return banned[:, :vocab]
    win_t = tok.unfold(1, n, 1)  # (M, W, n)
    win_s = span.unfold(1, n, 1)
    win_ok = ok.unfold(1, n, 1).all(-1) & (win_s == win_s[..., :1]).all(-1)  # (M, W)
    span_c = span[rows, slots]
    for side in ("left", "right"):
        ctx_slots = slots[:, None] + (
            torch.arange(-(n - 1), 0, device=tok.device) if side == "left" else torch.arange(1, n, device=tok.device)
        )
        inside = (ctx_slots >= 0) & (ctx_slots < L)
        cs = ctx_slots.clamp(0, L - 1)
        ctx_ok = (inside & ok[rows[:, None], cs] & (span[rows[:, None], cs] == span_c[:, None])).all(-1)  # (C,)
        ctx = tok[rows[:, None], cs]  # (C, n-1)
        for a in range(0, C, _CHUNK):  # (chunk, W, n) windows per commit
            b = min(C, a + _CHUNK)
            wt = win_t[rows[a:b]]
            part = wt[..., : n - 1] if side == "left" else wt[..., 1:]
            hit = (
                (part == ctx[a:b, None, :]).all(-1)
                & win_ok[rows[a:b]]
                & (win_s[rows[a:b], :, 0] == span_c[a:b, None])
                & ctx_ok[a:b, None]
            )
            cand = wt[..., n - 1] if side == "left" else wt[..., 0]
            banned[a:b].scatter_(1, torch.where(hit, cand, vocab), True)
    return banned[:, :vocab]


@lru_cache(maxsize=4)
def glue_tokens(tokenizer, vocab: int) -> torch.Tensor:
    """(vocab,) bool: tokens whose text starts with a letter or digit, i.e. that continue the word to
    their left instead of opening one (special tokens are not)."""
    special = set(tokenizer.special_ids)
    return torch.tensor(
        [i not in special and tokenizer.decode([i])[:1].isalnum() for i in range(vocab)], dtype=torch.bool
    )


def left_context(tok, ok, span, rows, slots, reach: int = 4) -> torch.Tensor:
    """(C, reach) long: the committed tokens to the left of each slot (rows[c], slots[c]) in its own
    span, nearest first; -1 where that slot is not committed (ok False), -2 beyond the span's start."""
    cs = slots[:, None] - torch.arange(1, reach + 1, device=tok.device)
    inside = cs >= 0
    cs = cs.clamp_min(0)
    r = rows[:, None]
    same = inside & (span[r, cs] == span[rows, slots][:, None])
    return torch.where(same & ok[r, cs], tok[r, cs], torch.where(same, -1, -2))


def fact_recheck(guard, tok, ok, span, new) -> torch.Tensor:
    """(M, L) bool: committed slots (ok) whose token `guard` (hybrid.fidelity.fact_guard.FactGuard) bans under
    the committed tokens now to their left, among those that are newly committed (`new`) or stand
    within its reach after a newly committed slot. A slot decided while its left neighbour was still
    masked (both committed in one step, or the right one first) was guarded as if in mid-sentence
    but not against the word it spells on; this is where that is judged."""
    near = new.clone()
    for j in range(1, guard.reach + 1):
        near[:, j:] |= new[:, :-j]
    rows, slots = (near & ok).nonzero(as_tuple=True)
    out = torch.zeros_like(ok)
    if len(rows):
        ban = guard.ban_mask(left_context(tok, ok, span, rows, slots, reach=guard.reach))
        hit = ban.gather(1, tok[rows, slots].clamp(0, ban.shape[1] - 1)[:, None])[:, 0]
        out[rows[hit], slots[hit]] = True
    return out


def repeated_ngrams(tok, ok, span, n: int, vocab: int):
    """Windows of n committed slots that repeat an earlier window of the same span.

    Returns (repeat (M, W) bool, win_ok (M, W) bool, win_span (M, W) long), W = L - n + 1.
    Sort-based: O(W log W) per row.
    """
    win_t = tok.unfold(1, n, 1)  # (M, W, n)
    win_s = span.unfold(1, n, 1)
    win_ok = ok.unfold(1, n, 1).all(-1) & (win_s == win_s[..., :1]).all(-1)
    base = torch.tensor([vocab**i for i in range(n - 1, -1, -1)], device=tok.device)
    M, W = win_ok.shape
    key = (win_s[..., 0] + 1) * vocab**n + (win_t * base).sum(-1)  # (span, n-gram) id, >= 0
    key = torch.where(win_ok, key, -1 - torch.arange(W, device=tok.device))  # unusable windows never match
    sk, order = torch.sort(key, dim=1, stable=True)  # equal keys keep position order
    dup = torch.zeros_like(win_ok)
    dup[:, 1:] = (sk[:, 1:] == sk[:, :-1]) & (sk[:, 1:] >= 0)
    repeat = torch.zeros_like(win_ok).scatter_(1, order, dup)
    return repeat, win_ok, win_s[..., 0]
