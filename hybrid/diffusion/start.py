"""Editing a partly noised text: a fill's start tokens pinned into its slots before the first step.

Owns: apply_start, which commits each (variant, span)'s start tokens (hybrid.precedent_start writes
them: an adapted precedent with whole words masked) into a hybrid.diffusion.sampler run's slots,
pins them like locks, keeps <eos> out of the holes before the last kept token, and marks the holes
right after a kept word as word starts (no piece glued onto that word). Knows nothing about models,
precedents or the denoising loop; the sampler calls it once per fill.
"""

import torch

from hybrid.diffusion.guards import glue_tokens

__all__ = ["apply_start"]


def apply_start(run, start) -> None:
    """Commit each (variant, span)'s start tokens into the span's first unlocked slots before step 0
    (entries equal to <mask> stay masked; the span's last slot is always left masked, so it can end).
    Kept tokens are pinned like locks, the holes before the last of them may not take <eos>, and a
    hole right after a kept token opens a new word (the start masks whole words: a piece glued onto
    the kept word, "Bizzingo" + "an", would make a word no text has).
    The denoising then fills only what is still masked: a partly noised text is edited, not rewritten."""
    lay = run.lay
    run.word_start = torch.zeros_like(run.masked)  # a hole right after a kept word opens a new word
    for m in range(run.M):
        v, page = m % run.n, m // run.n
        for s in lay.pages[page].spans:
            ids = start[v][s]
            if not ids:
                continue
            free = ((run.span[m] == s) & run.valid[m] & ~run.locked[m]).nonzero().flatten()[:-1]
            k = min(len(ids), len(free))
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

