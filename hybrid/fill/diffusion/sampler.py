"""The masked-diffusion filler: every span of N variants written in parallel in K steps.

Owns: the denoising loop (`fill`), which rows run guided, and the per-variant randomness; its
options (`FillConfig`, DEFAULT_STEPS, DEFAULT_GUIDANCE) are hybrid.fill.diffusion.fill_config,
importable from here. Calls the backbone; knows nothing about templates or
tokenization beyond the TokenSkeleton it is given. Its parts live beside it:
hybrid.fill.diffusion.layout (pages, rows, the skeleton forward), hybrid.model.slot_cache (the slot
key/value store the loop reads and writes, beside the skeleton's KVCache), hybrid.fill.diffusion.commit
(schedules and the confidence commit rule), hybrid.fill.diffusion.draws (guided logits, confidences
and draws of the active slots), hybrid.fill.diffusion.guards (n-gram blocker, repeats, the
fact guard's second look) and hybrid.fill.diffusion.start (a partly noised start text pinned into the slots).

Layout. A document is cut into pages (TokenSkeleton.pages: <= `window` tokens, positions rebased
to 0, as in training windows). The skeleton of every page is run once per document, in one
batched forward, into a KVCache (skeleton tokens see only skeleton tokens in `fill` mode, so
this is exact). Batch rows are (page, variant) pairs; each row keeps its page's skeleton
keys/values (copied from that cache once per fill, never recomputed) followed by the keys/values
of its span slots.

One step:
1. active slots: the masked slots each span may commit now (all of them, or with `block` > 0 the
   first few, semi-autoregressive); queries = active slots + slots that changed last step (all
   slots on a refresh step). Slots that are not queries keep the keys/values they had when last
   computed (Fast-dLLM-style reuse: an approximation; `refresh_every=1` makes every step exact).
2. one forward over the queries of all rows (split into several calls only above
   `max_batch_tokens`); with guidance w != 1 the same queries again in unconditional rows that
   cannot see their own section's heading (through the attention mask over the cached skeleton)
   and `logits = uncond + w * (cond - uncond)`; w = 1 (the conditional model) skips those rows.
   Unconditional rows keep their own slot keys/values (never the conditional ones, which saw
   the heading).
3. confidence = the top probability of each active slot under the distribution it would be drawn
   from (after the position-aware n-gram blocker and the shared processors: penalties,
   temperature, top-k/p); per span the most confident are committed on the schedule (cosine /
   linear fraction left after each step) plus every one at or over `threshold`, and drawn. With
   FillConfig.commit "runs" (the "auto" choice when a start is edited) the active slots are the
   first open slot of every run of masked slots, and all of them are committed.
4. <eos> ends a span: every slot after a span's first committed <eos> becomes <eos>.
5. the fact guard's second look (params.fact_guard): a slot committed beside or before its left
   neighbour is judged again now that the neighbour is known, and re-masked if banned (at most
   FACT_RECHECKS times); then the guard re-masks the repeated n-grams of a span whose distinct-n
   ratio collapses.

Guidance convention (docs/ARCHITECTURE.md): `uncond + w * (cond - uncond)`: w = 1 is no guidance (the
extra rows are skipped), w > 1 pushes towards the heading, w = 0 is the unconditional model. The same loop
without any of the speed-ups, to read and to test against: hybrid.fill.diffusion.reference.

Randomness: variant v draws from its own generator, seeded from (seed, v), in slot order, so
variant v's text does not depend on how many variants are drafted with it.
"""

import time
from dataclasses import replace

import torch

from hybrid.common.errors import SamplingError
from hybrid.common.precision import autocast
from hybrid.common.sampling import SamplingParams, variant_seed
from hybrid.fill.api import FillJob, FillResult, StepEvent, check_start, fill_job, fill_processors
from hybrid.fill.diffusion.commit import COMMIT_SCHEDULES, NO_SLOT, get_commit_rule, resolve_commit
from hybrid.fill.diffusion.draws import SlotDraws
from hybrid.fill.diffusion.fill_config import CPU_MAX_BATCH_TOKENS, DEFAULT_GUIDANCE, DEFAULT_STEPS, FillConfig
from hybrid.fill.diffusion.guards import fact_recheck, repeated_ngrams
from hybrid.fill.diffusion.layout import PageLayout, encode_skeleton, row_chunks
from hybrid.fill.diffusion.start import apply_start, hole_recheck, revert_holes
from hybrid.model.backbone import fill_mask
from hybrid.model.cache import KVCache
from hybrid.model.objective import fill_shift
from hybrid.model.slot_cache import SlotStore
from hybrid.skeleton.tokenized import TokenSkeleton, as_token_skeleton

__all__ = ["FillConfig", "fill", "DEFAULT_STEPS", "DEFAULT_GUIDANCE", "COMMIT_SCHEDULES"]

FACT_RECHECKS = 2  # times a slot may be re-masked by the fact guard's second look (then its token stays)


class _Run(SlotDraws):
    """The state of one fill call: slot tokens, which are masked, the slot key/value store.

    One method per part of a step, in step order: queries -> forward -> confidence -> select ->
    draw -> end_spans -> fact recheck -> guard. A start text (edit mode) is pinned by
    hybrid.fill.diffusion.start.apply_start.
    """

    def __init__(self, model, tokenizer, sk: TokenSkeleton, job: FillJob, cfg: FillConfig):
        """job: its steps, guidance and params resolved (fill)."""
        n, K, w, seed, params, start = job.n, job.steps, job.guidance, job.seed, job.params, job.start
        self.model, self.cfg, self.params, self.K, self.w, self.n = model, cfg, params, K, w, n
        self.device = device = next(model.parameters()).device
        self.weight = model.output_weight
        self.V = self.weight.shape[0]
        self.gens = [torch.Generator(device=device).manual_seed(variant_seed(seed, v)) for v in range(n)]
        self.procs = fill_processors(params, positional_ngram=True)  # n-grams: ngram_bans()
        self.mask_id, self.eos_id = sk.mask_id, sk.eos_id
        self.ban = torch.tensor(
            [i for i in tokenizer.special_ids if i != self.eos_id and i < self.V], dtype=torch.long, device=device
        )
        self.lay = lay = PageLayout(sk, n, cfg.window, cfg.min_context, device)
        if int(lay.skel_pos.max().clamp_min(lay.pos.max())) >= model.cfg.max_len:
            raise SamplingError(
                f"a span needs a page longer than the model's max_len={model.cfg.max_len}; lower its budget."
            )
        self.M, self.S = n * lay.R, lay.S
        self.n_inst = n * lay.S  # (variant, span) instances
        self.tok = lay.rows(lay.ids)  # (M, L+1) current slot tokens
        self.valid, self.span, self.off = lay.rows(lay.valid), lay.rows(lay.span), lay.rows(lay.off)
        self.pos, self.section, self.eos_ok = lay.rows(lay.pos), lay.rows(lay.section), lay.rows(lay.eos_ok)
        self.locked = lay.rows(lay.locked).clone()  # (row copies: apply_start pins start tokens per variant)
        self.shift = fill_shift(model)  # an adapted AR base: slot i is predicted by the output at its predecessor
        self.prev_slot, self.prev_skel = lay.rows(lay.prev_slot), lay.rows(lay.prev_skel)
        self.commit = resolve_commit(cfg.commit, start is not None)
        self.rule = get_commit_rule(
            self.commit,
            schedule=cfg.schedule,
            threshold=cfg.threshold,
            block=cfg.block,
            steps=K,
            prev_slot=self.prev_slot,
            run_chunk=cfg.run_chunk,
        )
        if self.shift and bool((self.valid & (self.prev_slot < 0) & (self.prev_skel < 0)).any()):
            raise SamplingError(
                "a span starts its page: a backbone with shift_fill_logits predicts each token from the one before it, "
                "so every span needs a skeleton token before it (raise the window or min_context)."
            )
        self.masked = self.valid & ~self.locked
        self.changed = torch.zeros_like(self.masked)
        self.variant = torch.arange(self.M, device=device)[:, None] % n
        self.inst = torch.where(self.valid, self.variant * self.S + self.span, -1)
        self.page_of_row = torch.arange(self.M, device=device) // n
        self.guided = w != 1
        self.max_tokens = (
            cfg.max_batch_tokens
            if cfg.max_batch_tokens is not None
            else (CPU_MAX_BATCH_TOKENS if device.type == "cpu" else 0)
        )
        amp = torch.is_autocast_enabled(device.type)
        self.act_dtype = torch.get_autocast_dtype(device.type) if amp else self.weight.dtype
        self.store: SlotStore | None = None  # built from the skeleton cache at the first step
        self.guard_count = torch.zeros(self.n_inst, dtype=torch.long, device=device)
        self.fact_count = torch.zeros_like(self.masked, dtype=torch.long)  # fact-guard re-masks per slot
        self.forward_tokens = self.remasked = 0
        # histogram: 0..7, 8+ tokens committed by an open span in a step
        self.commits_per_span_step = torch.zeros(9, dtype=torch.long)
        self.span_steps = self.span_commits = 0  # (open span, step) pairs and the tokens they committed
        self.skel: KVCache | None = None
        self.skel_hidden: torch.Tensor | None = None  # (R, Ts, D) skeleton outputs, kept only when shifted
        self.tokenizer, self.word_start = tokenizer, None  # word_start: set by apply_start
        self.holes, self.reverted = [], 0  # an edit start's holes (hybrid.fill.diffusion.start), reverted ones
        if start is not None:
            apply_start(self, start)

    def active(self, k: int):
        """(active (M, L+1) bool, quota (n_inst,) long): the masked slots that may be committed this
        step and how many each span commits at least (hybrid.fill.diffusion.commit's rule, FillConfig.commit)."""
        return self.rule.active(k, self.masked, self.inst, self.n_inst)

    def queries(self, k: int, active):
        """(q_idx (M, Q) slot per query, padded with the trash slot; q_valid (M, Q); nq (M,))."""
        r = self.cfg.refresh_every
        refresh = k == 0 or r == 1 or (r > 0 and k % r == 0)
        qsel = self.valid if refresh else self.valid & (active | self.changed)
        if self.shift and not refresh:  # an active slot's prediction is read at the slot before it
            r, s = active.nonzero(as_tuple=True)
            p = self.prev_slot[r, s]
            qsel = qsel.clone()
            qsel[r[p >= 0], p[p >= 0]] = True
        nq = qsel.sum(1)
        Q = max(int(nq.max()), 1)
        q_valid = torch.arange(Q, device=self.device)[None] < nq[:, None]
        order = torch.sort((~qsel).to(torch.int8), dim=1, stable=True).indices[:, :Q]  # selected slots first
        q_idx = torch.where(q_valid, order, self.tok.shape[1] - 1)
        self.forward_tokens += int(nq.sum()) * (2 if self.guided else 1)
        return q_idx, q_valid, nq

    def forward(self, q_idx, q_valid, nq):
        """Final hidden states of the queries, conditional and (w != 1) unconditional: (M, Q, D) each."""
        model, lay, dev = self.model, self.lay, self.device
        M, Q, D = self.M, q_idx.shape[1], model.cfg.d_model
        if self.store is None:  # every row's packed [page skeleton | slots] keys/values, kept across steps
            self.store = SlotStore(self.skel, self.page_of_row, lay.Tk, self.guided)
            self.skel = None  # copied into the rows; the per-page cache is no longer read
        hid_c = torch.empty(M, Q, D, dtype=self.act_dtype, device=dev)
        hid_u = torch.empty_like(hid_c) if self.guided else None
        for a, b in row_chunks(nq, self.n, self.max_tokens, 2 if self.guided else 1):
            Qc = max(int(nq[a:b].max()), 1)
            qi, qv = q_idx[a:b, :Qc], q_valid[a:b, :Qc]
            src = torch.arange(a, b, device=dev)
            if self.guided:  # unconditional copies of the same rows after the conditional ones
                src, qi, qv = torch.cat([src, src]), torch.cat([qi, qi]), torch.cat([qv, qv])
            page = self.page_of_row[src]
            k_valid, k_head = lay.key_valid[page], lay.key_head[page]
            uncond = qv & (torch.arange(src.shape[0], device=dev) >= b - a)[:, None] if self.guided else None
            mask = fill_mask(
                torch.ones_like(qv), torch.ones_like(k_valid), self.section[src].gather(1, qi), k_head, uncond, k_valid
            )
            view = self.store.view(a, b, lay.key_of_slot[page].gather(1, qi))
            h = model(self.tok[src].gather(1, qi), "fill", cache=view, positions=self.pos[src].gather(1, qi),
                      attn_mask=mask, write_cache=True, return_hidden=True)  # (Bc, Qc, D)
            hid_c[a:b, :Qc] = h[: b - a]
            if self.guided:
                hid_u[a:b, :Qc] = h[b - a :]
        return hid_c, hid_u

    def predictors(self, hid_c, hid_u, q_idx, q_valid, r_p, c_p, s_p):
        """(h_c, h_u) that predict the active slots (rows r_p, query columns c_p, slots s_p): their own
        hidden states, or with a shifted backbone their predecessor's: the query of the slot before
        them, or (a span's first slot) the skeleton token before the span, which never sees spans, so
        conditional and unconditional rows share it."""
        if not self.shift:
            return hid_c[r_p, c_p], None if hid_u is None else hid_u[r_p, c_p]
        col = torch.full_like(self.tok, -1)  # slot -> its query column this step
        r, c = q_valid.nonzero(as_tuple=True)
        col[r, q_idx[r, c]] = c
        ps, pk = self.prev_slot[r_p, s_p], self.prev_skel[r_p, s_p]
        pc = col[r_p, ps.clamp_min(0)].clamp_min(0)
        assert bool((col[r_p, ps.clamp_min(0)][ps >= 0] >= 0).all()), "every active slot's predecessor slot is a query"
        from_slot = (ps >= 0)[:, None]
        sk = self.skel_hidden[self.page_of_row[r_p], pk.clamp_min(0)].to(hid_c.dtype)
        h_c = torch.where(from_slot, hid_c[r_p, pc], sk)
        return h_c, None if hid_u is None else torch.where(from_slot, hid_u[r_p, pc], sk)

    def end_spans(self):
        """Every slot after a span's first committed <eos> becomes <eos> (committed)."""
        is_eos = self.valid & ~self.masked & (self.tok == self.eos_id)
        first = torch.full((self.n_inst + 1,), NO_SLOT, dtype=torch.long, device=self.device)
        first.scatter_reduce_(0, torch.where(is_eos, self.inst, self.n_inst).flatten(), self.off.flatten(), "amin")
        tail = self.valid & (self.off > first[self.inst.clamp_min(0)])
        self.tok = torch.where(tail, self.eos_id, self.tok)
        self.masked &= ~tail

    def guard(self):
        """Re-mask the repeated n-grams of every span whose distinct-n ratio fell below guard_ratio."""
        cfg, N = self.cfg, self.n_inst
        countable = self.valid & ~self.masked & (self.tok != self.eos_id)
        rep, wok, wspan = repeated_ngrams(self.tok, countable, self.span, cfg.guard_n, self.V)
        winst = torch.where(wok, self.variant * self.S + wspan, N)
        tot = torch.bincount(winst.flatten(), minlength=N + 1)[:N]
        nrep = torch.bincount(torch.where(rep, winst, N).flatten(), minlength=N + 1)[:N]
        bad = (tot >= cfg.guard_min) & ((tot - nrep) < cfg.guard_ratio * tot) & (self.guard_count < cfg.guard_max)
        if not bool(bad.any()):
            return
        self.guard_count += bad.long()
        hit = rep & wok & bad[winst.clamp_max(N - 1)]
        re = torch.zeros_like(self.masked)
        for j in range(cfg.guard_n):  # every slot of a repeated occurrence
            re[:, j : j + hit.shape[1]] |= hit
        self.remask(re & self.valid & ~self.locked)

    def remask(self, re: torch.Tensor):
        """Turn the slots `re` back into <mask> (a guard's verdict), counted in `remasked`."""
        self.tok = torch.where(re, self.mask_id, self.tok)
        self.masked |= re
        self.remasked += int(re.sum())

    def step(self, k: int):
        active, quota = self.active(k)
        q_idx, q_valid, nq = self.queries(k, active)
        hid_c, hid_u = self.forward(q_idx, q_valid, nq)
        r_p, c_p = (q_valid & active.gather(1, q_idx)).nonzero(as_tuple=True)  # active queries
        s_p = q_idx[r_p, c_p]
        h_c, h_u = self.predictors(hid_c, hid_u, q_idx, q_valid, r_p, c_p, s_p)
        eo_p = self.eos_ok[r_p, s_p]
        lg = None
        # the last step commits everything left; so does the run rule, every step
        if k == self.K - 1 or self.rule.commits_all:
            ci = torch.arange(r_p.shape[0], device=self.device)
        else:
            conf, lg = self.confidence(h_c, h_u, eo_p, r_p, s_p)
            ci = self.rule.select(conf, self.inst[r_p, s_p], quota, self.n_inst).nonzero(as_tuple=True)[0]
        x = self.draw(
            h_c[ci], None if h_u is None else h_u[ci], eo_p[ci], r_p[ci], s_p[ci], None if lg is None else lg[ci]
        )
        open_inst = (
            torch.bincount(torch.where(self.masked, self.inst, self.n_inst).flatten(), minlength=self.n_inst + 1)[
                : self.n_inst
            ]
            > 0
        )
        per = torch.bincount(self.inst[r_p[ci], s_p[ci]], minlength=self.n_inst)[open_inst]
        self.commits_per_span_step += torch.bincount(per.clamp_max(8).cpu(), minlength=9)
        self.span_steps += int(per.numel())
        self.span_commits += int(per.sum())
        before = self.tok.clone()
        self.tok[r_p[ci], s_p[ci]] = x
        self.masked[r_p[ci], s_p[ci]] = False
        self.end_spans()
        if self.params.fact_guard is not None and k < self.K - 1:  # judged again now that their left is known
            ok = self.valid & ~self.masked & (self.tok != self.eos_id)
            re = fact_recheck(self.params.fact_guard, self.tok, ok, self.span, ok & (before != self.tok)) & ~self.locked
            re &= self.fact_count < FACT_RECHECKS
            self.fact_count += re.long()
            self.remask(re)
        if self.holes and k < self.K - 1:  # a hole that wrote a word no contract uses is written again
            re = hole_recheck(self, self.valid & ~self.masked & (self.tok != before))
            self.remask(re)
        if self.cfg.guard_ratio > 0 and k < self.K - 1:
            self.guard()
        self.changed = self.tok != before

    def renderer(self, tokenizer, sk: TokenSkeleton):
        """StepEvent.render: the variants as filled now, each open slot shown as the glyph."""
        mask = tokenizer.decode([self.mask_id])
        return lambda glyph: [r.text.replace(mask, glyph) for r in self.results(tokenizer, sk, {}, 0)]

    def results(self, tokenizer, sk: TokenSkeleton, timings: dict, steps: int) -> list[FillResult]:
        """Per variant, per span, the tokens up to the first <eos>."""
        tok, span, off, valid = self.tok.cpu(), self.span.cpu(), self.off.cpu(), self.valid.cpu()
        out = []
        for v in range(self.n):
            rows = slice(v, self.M, self.n)
            t_v, s_v, o_v = tok[rows][valid[rows]], span[rows][valid[rows]], off[rows][valid[rows]]
            bodies, toks = [], []
            for s in range(self.S):
                sel = s_v == s
                ids = t_v[sel][torch.argsort(o_v[sel])].tolist()
                ids = ids[: ids.index(self.eos_id)] if self.eos_id in ids else ids
                toks.append(ids)
                bodies.append(tokenizer.decode(ids))
            out.append(FillResult(bodies, toks, sk.render(bodies), dict(timings), steps))
        return out


@torch.no_grad()
def fill(model, tokenizer, skeleton, job: FillJob | None = None, on_step=None, config: FillConfig | None = None,
         **kw) -> list[FillResult]:
    """Fill every span of `skeleton` in `steps` parallel denoising steps, n variants in one batch.

    skeleton: TokenSkeleton, hybrid.templates.template.Skeleton or corpus Document. job (hybrid.fill.api.FillJob, or
    its fields as keywords): n, steps (None: DEFAULT_STEPS), guidance w >= 0 in uncond + w (cond - uncond) (1 = off;
    None: DEFAULT_GUIDANCE), seed, params (SamplingParams shared with the planner; its no_repeat_ngram is applied per
    position inside each span), start. on_step(StepEvent) after each step. Same seed -> same drafts.
    Returns one FillResult per variant; timings hold "skeleton", "fill", "total" seconds, the
    per-step seconds, the query tokens run ("forward_tokens"), "remasked" slots, "pages", an edit
    start's "rewritten_holes" and "reverted_holes" (hybrid.fill.diffusion.start), the "commit" rule used, and how many
    tokens each open span committed per step ("commits_per_span_step" histogram 0..8+, its mean
    "tokens_per_span_step").
    start: optional start[v][s] token ids per variant and span, committed into the span's first
    unlocked slots before the first step, <mask> where the filler is to write (a partly noised
    text to edit, e.g. an adapted precedent: hybrid.text.start); None = every span starts masked.
    """
    t_start = time.perf_counter()
    job = fill_job(job, kw)
    steps = DEFAULT_STEPS if job.steps is None else job.steps
    guidance = float(DEFAULT_GUIDANCE if job.guidance is None else job.guidance)
    job = replace(job, steps=steps, guidance=guidance, params=job.params or SamplingParams())
    cfg = config or FillConfig()
    sk = as_token_skeleton(tokenizer, skeleton)
    with autocast(next(model.parameters()).device, cfg.precision):
        check_start(job.start, job.n, len(sk.spans))
        run = _Run(model, tokenizer, sk, job, cfg)
        t0 = time.perf_counter()
        run.skel, hidden = encode_skeleton(model, run.lay)
        run.skel_hidden = hidden if run.shift else None
        t_skel = time.perf_counter() - t0
        step_times = []
        render = run.renderer(tokenizer, sk) if on_step is not None else None
        for k in range(steps):
            ts = time.perf_counter()
            run.step(k)
            step_times.append(time.perf_counter() - ts)
            if on_step is not None:
                on_step(StepEvent(k + 1, steps, int(run.masked.sum()), step_times[-1], render=render))
            if not bool(run.masked.any()):
                break
    assert not bool(run.masked.any()), "every slot is committed after the last step"
    if run.holes:
        run.reverted = revert_holes(run)
    t_end = time.perf_counter()
    timings = {
        "skeleton": t_skel,
        "fill": t_end - t0,
        "total": t_end - t_start,
        "step_seconds": step_times,
        "forward_tokens": run.forward_tokens,
        "remasked": run.remasked,
        "pages": run.lay.R,
        "reverted_holes": run.reverted,
        "rewritten_holes": sum(h.tries for h in run.holes),
        "commit": run.commit,
        "commits_per_span_step": run.commits_per_span_step.tolist(),
        "tokens_per_span_step": run.span_commits / max(run.span_steps, 1),
    }
    return run.results(tokenizer, sk, timings, len(step_times))
