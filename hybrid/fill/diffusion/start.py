"""Editing a partly noised text: a fill's start tokens pinned into its slots before the first step.

Owns: apply_start, which commits each (variant, span)'s start tokens (hybrid.text.start writes
them: an adapted precedent with whole words masked) into a hybrid.fill.diffusion.sampler run's slots,
pins them like locks, keeps <eos> out of the holes before the last kept token, marks the holes
right after a kept word as word starts (no piece glued onto that word) and, for a start that holds
its whole text (SpanStart.ends), ends the span right after it; and the holes' word check:
`hole_recheck` (holes just filled that write a word outside SpanStart.words, to be masked again)
and `revert_holes` (after the last step, such a hole gets its precedent's own tokens back). Knows
nothing about models, precedents or the denoising loop; the sampler calls these.
"""

import torch

from hybrid.fill.diffusion.guards import glue_tokens
from hybrid.precedents.library import letter_words

__all__ = ["apply_start", "hole_recheck", "revert_holes", "start_holes", "writes_unknown_word", "HOLE_RECHECKS"]

HOLE_RECHECKS = 2  # times a hole that wrote a word no contract uses is masked again before it is reverted


class _Hole:
    """One run of masked start slots: its row, slots, the precedent's tokens there (None: not revertible)."""

    __slots__ = ("row", "slots", "original", "words", "tries")

    def __init__(self, row, slots, original, words):
        self.row, self.slots, self.original, self.words, self.tries = row, slots, original, words, 0


def start_holes(at_all, ids, mask_id: int) -> list[tuple[list, list | None]]:
    """The runs of <mask> in a start placed at slots (or offsets) `at_all`: (their slots, the
    precedent's tokens there, None where any is -1: not revertible)."""
    out, run = [], []
    orig = getattr(ids, "original", None)
    for i in range(len(at_all) + 1):
        if i < len(at_all) and ids[i] == mask_id:
            run.append(i)
            continue
        if run:
            o = [orig[j] for j in run] if orig is not None else None
            out.append((at_all[run[0] : run[-1] + 1], None if o is None or min(o) < 0 else o))
            run = []
    return out


def writes_unknown_word(tokenizer, ids, words, eos_id: int) -> bool:
    """Whether the tokens `ids` (<eos> aside) write a run of letters not in `words`."""
    return any(w not in words for w in letter_words(tokenizer.decode([t for t in ids if t != eos_id])))


def apply_start(run, start) -> None:
    """Commit each (variant, span)'s start tokens into the span's first unlocked slots before step 0
    (entries equal to <mask> stay masked; the span's last slot is always left masked, so it can end).
    Kept tokens are pinned like locks, the holes before the last of them may not take <eos>, and a
    hole right after a kept token opens a new word (the start masks whole words: a piece glued onto
    the kept word, "Bizzingo" + "an", would make a word no text has).
    Where the span opens with a frame sentence, a start's `spaced` form is taken (the text after a
    space). A start that holds its whole text (SpanStart.ends) ends the span right after it: what the filler
    would write there comes from no text. Holes of a start with `words` are checked when filled
    (hole_recheck). The denoising then fills only what is still masked: a partly noised text is edited, not
    rewritten."""
    lay = run.lay
    run.word_start = torch.zeros_like(run.masked)  # a hole right after a kept word opens a new word
    run.holes, run.hole_of = [], torch.full_like(run.tok, -1)
    ended = False
    for m in range(run.M):
        v, page = m % run.n, m // run.n
        for s in lay.pages[page].spans:
            ids = start[v][s]
            if not ids and not getattr(ids, "ends", False):  # an empty start that ends: the span ends at once
                continue
            mine = ((run.span[m] == s) & run.valid[m]).nonzero().flatten()
            if getattr(ids, "spaced", None) is not None and len(mine) and bool(run.locked[m, mine[0]]):
                ids = ids.spaced  # a frame sentence ends right before: the text goes on after a space
            free = ((run.span[m] == s) & run.valid[m] & ~run.locked[m]).nonzero().flatten()[:-1]
            k = min(len(ids), len(free))
            if getattr(ids, "words", None) is not None:
                for slots, original in start_holes(free[:k], ids, run.mask_id):
                    run.hole_of[m, slots] = len(run.holes)
                    run.holes.append(_Hole(m, slots, original, ids.words))
            if getattr(ids, "ends", False) and len(ids) < len(free):  # the text ends here: so does the span
                e = free[len(ids)]
                run.tok[m, e], run.masked[m, e], run.locked[m, e] = run.eos_id, False, True
                ended = True
            t = torch.tensor(ids[:k], dtype=torch.long, device=run.device)
            keep = t != run.mask_id
            at = free[:k][keep]
            run.tok[m, at] = t[keep]
            run.masked[m, at] = False
            run.locked[m, at] = True  # kept as given: never re-masked by the repetition guard
            if len(at):  # and no <eos> in a hole before the last kept token (it would cut the text there)
                run.eos_ok[m] &= ~((run.span[m] == s) & (run.off[m] <= run.off[m, at[-1]]))
            after = torch.zeros_like(run.masked[m])
            after[(at + 1).clamp_max(after.shape[0] - 1)] = True
            run.word_start[m] |= after & run.masked[m] & (run.span[m] == s)
    run.glue = glue_tokens(run.tokenizer, run.V).to(run.device)  # the pieces a word-start hole may not take
    if ended:
        run.end_spans()


def _writes_unknown_word(run, h: _Hole) -> bool:
    return writes_unknown_word(run.tokenizer, run.tok[h.row, h.slots].tolist(), h.words, run.eos_id)


def hole_recheck(run, new) -> torch.Tensor:
    """(M, L) bool: the slots of holes whose last open slot was just committed (`new`), that write a
    word (a run of letters) not in their start's `words` and were masked again fewer than
    HOLE_RECHECKS times; their tries are counted. "Liability" rewritten as "Liabilia", or a
    two-piece hole filled "omit" + "or", comes back masked."""
    out = torch.zeros_like(run.masked)
    if not run.holes:
        return out
    hit = run.hole_of[new & (run.hole_of >= 0)].unique().tolist()
    for j in hit:
        h = run.holes[j]
        if h.tries >= HOLE_RECHECKS or bool(run.masked[h.row, h.slots].any()) or not _writes_unknown_word(run, h):
            continue
        h.tries += 1
        out[h.row, h.slots] = True
    return out


def revert_holes(run) -> int:
    """After the last step: every hole that still writes an unknown word and has its precedent's
    tokens gets them back (a foreign fact's hole has none and keeps what the guarded filler wrote).
    Returns how many holes were reverted."""
    n = 0
    for h in run.holes:
        if h.original is not None and _writes_unknown_word(run, h):
            run.tok[h.row, h.slots] = torch.tensor(h.original, dtype=torch.long, device=run.device)
            n += 1
    if n:
        run.end_spans()  # an <eos> a reverted hole held is gone; none may stand before a kept token
    return n

