"""What one denoising step draws: guided logits, the per-slot blockers and processors, confidences, the draws.

Owns: the classifier-free guidance combination over the vocabulary (`guided_logits`) and `SlotDraws`,
the part of the diffusion filler's per-fill state (hybrid.fill.diffusion.sampler._Run) that turns the
hidden states predicting the active slots into distributions, confidences and tokens. Knows nothing
about pages, caches or which slots a step commits (hybrid.fill.diffusion.commit).
"""

import torch
import torch.nn.functional as F

from hybrid.common.sampling import apply_processors, sample
from hybrid.fill.diffusion.guards import left_context, ngram_bans

__all__ = ["guided_logits", "SlotDraws"]

def guided_logits(weight, h_c, h_u, w: float, ban: torch.Tensor, eos_ok: torch.Tensor, eos_id: int) -> torch.Tensor:
    """uncond + w (cond - uncond) over the vocabulary (h_u None: the conditional logits, w = 1), specials
    (ids `ban`) banned, <eos> only where allowed."""
    logits = F.linear(h_c, weight).float()
    if h_u is not None:
        uncond = F.linear(h_u, weight).float()
        logits = uncond + w * (logits - uncond)
    logits.index_fill_(1, ban, float("-inf"))
    logits[:, eos_id] = logits[:, eos_id].masked_fill(~eos_ok, float("-inf"))
    return logits


class SlotDraws:
    """The draw half of the filler's state. Reads the fill's own attributes (set by _Run.__init__ and
    hybrid.fill.diffusion.start.apply_start): weight, w, ban, eos_id, mask_id, V, cfg, params, procs,
    tok, valid, masked, span, variant, n, gens, device, word_start and glue."""

    def logits(self, h_c, h_u, eos_ok):
        return guided_logits(self.weight, h_c, h_u, self.w, self.ban, eos_ok, self.eos_id)

    def confidence(self, h_c, h_u, eos_ok, rows, slots):
        """(conf (P,), logits or None): the top probability of each active slot under the distribution it
        would be drawn from (guided logits after the n-gram blocker and the shared processors:
        temperature, top-k/p), and those logits when they fit in one chunk (the usual case: the draw
        reuses them instead of computing them again)."""
        P = h_c.shape[0]
        conf = torch.empty(P, device=self.device)
        kept = None
        for a, lg in self.processed(h_c, h_u, eos_ok, rows, slots):
            conf[a : a + lg.shape[0]] = (lg.amax(-1) - lg.logsumexp(-1)).exp()
            kept = lg if P <= self.cfg.logits_chunk else None
        return conf, kept

    def processed(self, h_c, h_u, eos_ok, rows, slots):
        """(offset, logits) chunks for the slots (rows[c], slots[c]): guided logits, n-gram blocker, shared
        processors."""
        countable = self.valid & ~self.masked & (self.tok != self.eos_id)
        ngram, c = self.params.no_repeat_ngram, self.cfg.logits_chunk
        for a in range(0, rows.shape[0], c):  # chunks: top-p sorts a (chunk, vocab) block
            r, s = rows[a : a + c], slots[a : a + c]
            lg = self.logits(h_c[a : a + c], None if h_u is None else h_u[a : a + c], eos_ok[a : a + c])
            if ngram:  # before truncation, so top-p/top-k choose among allowed tokens (<eos> is never banned)
                lg = lg.masked_fill(ngram_bans(self.tok, countable, self.span, r, s, ngram, self.V), float("-inf"))
            if self.word_start is not None:  # a hole after a kept word: no piece glued onto that word
                lg = lg.masked_fill(self.word_start[r, s][:, None] & self.glue[None, : lg.shape[1]], float("-inf"))
            if self.params.fact_guard is not None:  # likewise; judged by the committed tokens to the slot's left
                lg = lg.masked_fill(
                    self.params.fact_guard.ban_mask(
                        left_context(self.tok, countable, self.span, r, s, reach=self.params.fact_guard.reach)
                    ),
                    float("-inf"),
                )
            if self.procs:  # their context: the committed text of the slot's own span
                ctx = torch.where(countable[r] & (self.span[r] == self.span[r, s][:, None]), self.tok[r], self.mask_id)
                lg = apply_processors(self.procs, ctx, lg)
            yield a, lg

    def draw(self, h_c, h_u, eos_ok, rows, slots, logits=None) -> torch.Tensor:
        """Tokens for the committed slots: n-gram blocker, shared processors, one draw each (`logits`:
        those already computed for exactly these slots)."""
        x = torch.empty_like(rows)
        u = torch.empty(rows.shape[0], 1, device=self.device)  # one uniform per draw, from its variant's generator
        var = self.variant[rows, 0]
        for v in range(self.n):
            sel = (var == v).nonzero(as_tuple=True)[0]
            if len(sel):
                u[sel] = torch.rand(len(sel), 1, generator=self.gens[v], device=self.device)
        chunks = [(0, logits)] if logits is not None else self.processed(h_c, h_u, eos_ok, rows, slots)
        for a, lg in chunks:
            x[a : a + lg.shape[0]] = sample(
                lg, None, temperature=0.0 if self.params.greedy else 1.0, uniforms=u[a : a + lg.shape[0]]
            )
        return x
