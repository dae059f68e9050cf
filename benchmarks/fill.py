"""Fill benchmark: the diffusion filler against the AR fill baseline on the same weights, one JSON line.

    python benchmarks/fill.py [--checkpoint checkpoints/hybrid-small] [--device cpu|cuda] [--quick]

Measured in one run (ratios never cross runs):
- speedup_vs_ar: wall time of our KV-cached AR fill / the diffusion fill, N variants of full
  contracts from >= 3 templates, same spans, same sampling params; also against transformers'
  generate() on the same weights (per span, left-padded batch, same processors);
- quality: bits per byte of the generated span text scored by the model in causal mode with the
  skeleton as context (hybrid.rank.likelihood's sliding windows of the checkpoint's training length), for both paths;
  distinct-2; key-term rate;
- the quality-vs-steps curve (K), the guidance sweep (w), the exact-vs-reused committed K/V cost;
- step time at skeleton lengths 256..2048 (paged, and with the whole skeleton visible);
- peak RSS of the process after the main comparison.

--edit T measures the regime drafting from precedent makes (`hybrid draft --precedents 1
--precedent-start T`) instead: every span starts from its variant's own precedent (the drafter's
draws, hybrid.skeleton.from_precedents.draft_from_precedents), partly masked, and both fillers write only
the holes: the diffusion filler at each K of --edit-steps, the batched AR fill with the same start
(hybrid.fill.ar_batched.fill(start=): kept runs fed in one forward, one step per hole token; and one
token per row per step, and at most 8 a step; the fastest is the baseline). Quality is the bits/byte of the
whole span under the drafting model with the skeleton as context (the likelihood of the clause as
written: a hole must fit the kept words after it too, which left-to-right writing cannot see), and
of the written tokens alone; and the independent judge's bits/byte of the bodies (evals.judge,
SmolLM2-135M: a reader that did not write them). Top-level keys: the fastest K whose bpb is within 1.15x the AR's. Its
own JSON line.
"""

import argparse
import math
import platform
import resource
import sys
import time
from pathlib import Path

import torch

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from hybrid.common.precision import PRECISIONS, autocast  # noqa: E402
from hybrid.common.sampling import SamplingParams  # noqa: E402
from hybrid.data.document import Segment  # noqa: E402
from hybrid.data.layout import lay_out  # noqa: E402
from hybrid.fill import ar as arfill  # noqa: E402
from hybrid.fill import ar_batched as arfill_batched  # noqa: E402
from hybrid.fill.ar import ARConfig  # noqa: E402
from hybrid.fill.diffusion import sampler  # noqa: E402
from hybrid.fill.diffusion.commit import COMMIT_RULES  # noqa: E402
from hybrid.fill.diffusion.sampler import FillConfig  # noqa: E402
from hybrid.rank.likelihood import logprob_sums, sliding_windows, trained_window  # noqa: E402
from hybrid.skeleton.tokenized import from_template, tokenize_segments  # noqa: E402
from hybrid.templates.template import load_template  # noqa: E402

from machine import add_run_args, emit, machine  # noqa: E402  (benchmarks/machine.py)

TEMPLATES = ("mutual-nda", "saas-agreement", "supply")


def _load(args):
    if args.random:
        from hybrid.model.backbone import Backbone, BackboneConfig
        from hybrid.tokenizer.bpe import HybridTokenizer

        texts = [
            p.read_text() for p in sorted((REPO.parent / "shared" / "corpus" / "standard-agreements").glob("*.txt"))
        ]
        tok = HybridTokenizer.train(texts, vocab_size=8192)
        torch.manual_seed(0)
        return Backbone(BackboneConfig(vocab_size=8192)).eval(), tok, {"random": True}
    from hybrid.model.resolve import resolve

    return resolve(args.checkpoint)  # ours, a Llama directory, a fetched base name or an adapted checkpoint


def full_outline(t, sections: int) -> dict:
    """A valid outline of about `sections` sections: the required clauses around as many optional
    clause types (default headings) as the template's outline schema allows."""
    from hybrid.common.errors import TemplateError

    required = t.required_clauses
    optional = [c for c in t.clause_types if c not in required]
    best = t.example_outline()
    for m in range(len(optional) + 1):
        for cut in range(len(required) + 1):
            clauses = required[:cut] + optional[:m] + required[cut:]
            if len(clauses) > max(sections, len(required)):
                continue
            outline = {
                "title": t.title,
                "sections": [{"heading": t.clauses[c]["heading"], "clause": c} for c in clauses],
            }
            try:
                t.validate_outline(outline)
            except TemplateError:
                continue
            if len(clauses) > len(best["sections"]):
                best = outline
    return best


def _skeleton(tok, tid: str, sections: int):
    t = load_template(tid)
    return from_template(tok, t.render_skeleton(full_outline(t, sections), t.example))


def _sync(device):
    if device.type == "cuda":
        torch.cuda.synchronize()


def _timed(fn, device):
    _sync(device)
    t0 = time.perf_counter()
    out = fn()
    _sync(device)
    return out, time.perf_counter() - t0


@torch.no_grad()
def hf_fill(hf, tok, sk, n, params: SamplingParams, seed: int, window: int):
    """AR fill through transformers generate(): one call per span, contexts left-padded to a batch."""
    torch.manual_seed(seed)
    device = next(hf.parameters()).device
    ids = sk.ids.tolist()
    eos, pad = tok.eos_id, tok.pad_id
    suppress = [i for i in tok.special_ids if i != eos]
    hist = [[] for _ in range(n)]
    bodies = [[] for _ in range(n)]
    prev = 0
    kw = {"do_sample": not params.greedy}
    if not params.greedy:
        kw.update(temperature=params.temperature, top_p=params.top_p, top_k=params.top_k or None)
    for s in sk.spans:
        for h in hist:
            h.extend(ids[prev : s.start])
        ctx = [h[-(window - s.length) :] for h in hist]
        T = max(len(c) for c in ctx)
        x = torch.full((n, T), pad, dtype=torch.long)
        am = torch.zeros(n, T, dtype=torch.long)
        for b, c in enumerate(ctx):
            x[b, T - len(c) :] = torch.tensor(c)
            am[b, T - len(c) :] = 1
        out = hf.generate(
            x.to(device), attention_mask=am.to(device), max_new_tokens=s.length - 1, eos_token_id=eos,
            pad_token_id=pad, suppress_tokens=suppress, **kw,
        )
        for b, row in enumerate(out[:, T:].tolist()):
            body = row[: row.index(eos)] if eos in row else row
            bodies[b].append(body)
            hist[b].extend(body + [eos])
        prev = s.end
    return bodies


def span_nats_bytes(model, tok, sk, token_lists, window: int, stride: int, forced=None):
    """(nats, bytes) of the span bodies (+ their <eos>) under the causal model, skeleton as context
    (hybrid.data.layout + hybrid.rank.likelihood's sliding windows); with `forced` ([variant * S + span]
    [offset], -1 where the filler wrote: hybrid.fill.ar_batched._targets) only the written tokens,
    the kept ones as context."""
    S = len(sk.spans)
    lays = [lay_out(tok, sk.segments, bodies) for bodies in token_lists]
    scored, nbytes = [x.scored for x in lays], 0
    if forced is None:
        nbytes = sum(len(tok.decode(b).encode("utf-8")) for bodies in token_lists for b in bodies)
    else:
        scored = [[False] * len(x.ids) for x in lays]
        for v, (lay, bodies) in enumerate(zip(lays, token_lists)):
            for i, (a, e) in enumerate(lay.spans):
                f = forced[v * S + i]
                for o in range(e - a):
                    if o >= len(f) or f[o] < 0:
                        scored[v][a + o] = True
                        if o < len(bodies[i]):
                            nbytes += len(tok.decode([bodies[i][o]]).encode("utf-8"))
    sums = logprob_sums(
        model, [x.ids for x in lays], scored, lambda n: sliding_windows(n, window, stride), pad_id=tok.pad_id
    )
    return -sum(logp for logp, _ in sums), nbytes


def distinct2(texts: list[str]) -> float:
    """Unique word bigrams / word bigrams, averaged over variants (each variant = all its spans)."""
    vals = []
    for t in texts:
        w = t.split()
        grams = list(zip(w, w[1:]))
        if grams:
            vals.append(len(set(grams)) / len(grams))
    return sum(vals) / max(len(vals), 1)


def key_term_rate(sk, span_texts: list[list[str]]) -> float | None:
    """Fraction of (span, required term) pairs whose term appears in the span text (case-insensitive)."""
    hit = tot = 0
    for spans in span_texts:
        for s, text in zip(sk.spans, spans):
            for term in s.required_terms:
                tot += 1
                hit += term.lower() in text.lower()
    return hit / tot if tot else None


def quality(model, tok, sk, token_lists, span_texts, window: int):
    # fp32, whatever the fill precision
    nats, nbytes = span_nats_bytes(model, tok, sk, token_lists, window, window // 2)
    return {
        "bpb": round(nats / math.log(2) / max(nbytes, 1), 4),
        "bytes": nbytes,
        "distinct2": round(distinct2([" ".join(s) for s in span_texts]), 4),
        "key_terms": None if key_term_rate(sk, span_texts) is None else round(key_term_rate(sk, span_texts), 4),
    }


def synthetic_skeleton(tok, skeleton_tokens: int, budgets=(128, 128)):
    """A skeleton of >= `skeleton_tokens` fixed tokens (text split evenly around fixed spans)."""
    sentence = "The Supplier shall deliver the Products to the Customer in accordance with this Agreement. "
    reps = 1
    while True:
        segs = [Segment("SUPPLY AGREEMENT\n\n" + sentence * reps + "\n\n", "text")]
        for i, _ in enumerate(budgets):
            segs += [
                Segment(f"{i + 1}. Delivery.\n", "heading", i),
                Segment("", "body", i),
                Segment("\n\n" + sentence * reps, "text"),
            ]
        sk = tokenize_segments(tok, segs, list(budgets))
        if len(sk) - sk.span_tokens >= skeleton_tokens:
            return sk
        reps += 1


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--checkpoint", default=str(REPO / "checkpoints" / "hybrid-small"))
    ap.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    ap.add_argument("--quick", action="store_true", help="4 sections per contract, N=4, short sweeps, no generate()")
    ap.add_argument("--random", action="store_true", help="random weights at the default config (timing only)")
    ap.add_argument("--templates", default=",".join(TEMPLATES))
    ap.add_argument("--n", type=int, default=None)
    ap.add_argument(
        "--sections", type=int, default=10, help="sections per contract (the outline a planner would write)"
    )
    ap.add_argument("--steps", type=int, default=sampler.DEFAULT_STEPS)
    ap.add_argument("--guidance", type=float, default=sampler.DEFAULT_GUIDANCE)
    ap.add_argument("--refresh-every", type=int, default=FillConfig.refresh_every)
    ap.add_argument("--schedule", default=FillConfig.schedule)
    ap.add_argument("--block", type=int, default=FillConfig.block)
    ap.add_argument("--threshold", type=float, default=FillConfig.threshold)
    ap.add_argument("--window", type=int, default=FillConfig.window)
    ap.add_argument(
        "--precision",
        default="auto",
        choices=list(PRECISIONS),
        help="autocast of both fillers' forwards (scoring is fp32)",
    )
    ap.add_argument("--temperature", type=float, default=0.8)
    ap.add_argument("--top-p", type=float, default=0.9)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-generate", action="store_true", help="skip the transformers generate() baseline")
    ap.add_argument("--skip-sweeps", action="store_true")
    ap.add_argument(
        "--sweep-sections", type=int, default=4, help="sections of the contract the K and w sweeps fill (CPU time)"
    )
    ap.add_argument("--sweep-n", type=int, default=4, help="variants in the K and w sweeps")
    ap.add_argument(
        "--edit",
        type=float,
        default=None,
        metavar="T",
        help="measure editing a precedent at noise T instead (module docstring; 0.25 = what the README recommends)",
    )
    ap.add_argument(
        "--edit-steps",
        default="8/confidence,16/confidence,32/confidence,64/confidence,256/confidence,256",
        help="the diffusion filler's points in the --edit comparison, comma-separated: K[/bB][/tT][/RULE], "
        "K steps with semi-AR block B, commit threshold T and commit rule RULE (auto, confidence, runs; "
        "hybrid.fill.diffusion.commit), each part defaulting to --block, --threshold and --commit "
        "(e.g. 16/confidence: the schedule's commits in 16 steps; 256: what drafting uses)",
    )
    ap.add_argument("--commit", default=FillConfig.commit, choices=COMMIT_RULES,
                    help="the commit rule (FillConfig.commit; auto = runs when editing, confidence otherwise)")
    ap.add_argument(
        "--no-judge", dest="judge", action="store_false", help="--edit: leave out the independent judge (evals.judge)"
    )
    add_run_args(ap)
    return ap


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


class Bench:
    """One run: the model, its tokenizer, the device, sampling and fill settings; every filler timed the same way."""

    def __init__(self, args):
        self.args = args
        self.device = torch.device(args.device)
        self.model, self.tok, record = _load(args)
        self.model.to(self.device)
        self.window = trained_window(record)["window"]  # of the quality scoring: the checkpoint's training window
        self.n = args.n or (4 if args.quick else 8)
        self.sections = 4 if args.quick else args.sections
        self.params = SamplingParams(temperature=args.temperature, top_p=args.top_p)
        self.cfg = self.config()

    def config(self, **kw) -> FillConfig:
        a = self.args
        base = {
            "commit": a.commit,
            "schedule": a.schedule,
            "refresh_every": a.refresh_every,
            "block": a.block,
            "threshold": a.threshold,
            "window": a.window,
            "precision": a.precision,
        }
        return FillConfig(**{**base, **kw})

    def hybrid(self, sk, steps=None, w=None, config=None, nn=None):
        a = self.args
        return _timed(lambda: sampler.fill(self.model, self.tok, sk, n=nn or self.n, steps=steps or a.steps,
                                           guidance=a.guidance if w is None else w, seed=a.seed, params=self.params,
                                           config=config or self.cfg), self.device)

    def ar(self, sk, nn=None):
        a = self.args
        return _timed(lambda: arfill.fill(self.model, self.tok, sk, n=nn or self.n, seed=a.seed, params=self.params,
                                          config=ARConfig(precision=a.precision)), self.device)

    def ar_batched(self, sk, nn=None):
        a = self.args
        return _timed(
            lambda: arfill_batched.fill(
                self.model,
                self.tok,
                sk,
                n=nn or self.n,
                seed=a.seed,
                params=self.params,
                config=ARConfig(window=a.window, precision=a.precision),
            ),
            self.device,
        )

    def warm_up(self) -> None:
        warm = synthetic_skeleton(self.tok, 64, (8,))  # first-call allocations, kernels
        sampler.fill(self.model, self.tok, warm, n=2, steps=2, guidance=1.0, config=self.cfg)
        arfill.fill(self.model, self.tok, warm, n=2, config=ARConfig(precision=self.args.precision))
        arfill_batched.fill(self.model, self.tok, warm, n=2, config=ARConfig(precision=self.args.precision))

    def quality(self, sk, results) -> dict:
        return quality(self.model, self.tok, sk, [r.tokens for r in results], [r.spans for r in results], self.window)

    def point(self, sk, results, seconds, **extra) -> dict:
        return {**extra, "seconds": round(seconds, 3), **self.quality(sk, results)}


def compare(b: Bench, sks: dict, hf) -> dict:
    """The main comparison: every template filled by the three fillers (and generate()), timed, then scored."""
    per_template, t_h, t_a, t_g, t_b = {}, 0.0, 0.0, 0.0, 0.0
    hist = torch.zeros(9, dtype=torch.long)
    span_steps = span_commits = 0.0
    outs = {}
    for t, sk in sks.items():
        rh, sh = b.hybrid(sk)
        log(f"{t}: hybrid {sh:.2f}s")
        ra, sa = b.ar(sk)
        log(f"{t}: ar {sa:.2f}s ({ra[0].steps} decode steps)")
        rb, sb = b.ar_batched(sk)
        log(f"{t}: ar batched {sb:.2f}s ({rb[0].steps} decode steps)")
        t_b += sb
        hist += torch.tensor(rh[0].timings["commits_per_span_step"])
        span_steps += sum(rh[0].timings["commits_per_span_step"])
        span_commits += rh[0].timings["tokens_per_span_step"] * sum(rh[0].timings["commits_per_span_step"])
        sg = None
        if hf is not None:
            with autocast(b.device, b.args.precision):  # the same precision as both fillers
                _, sg = _timed(lambda sk=sk: hf_fill(hf, b.tok, sk, b.n, b.params, b.args.seed, b.window), b.device)
            log(f"{t}: generate() {sg:.2f}s")
            t_g += sg
        t_h, t_a = t_h + sh, t_a + sa
        outs[t] = (rh, ra, rb)
        per_template[t] = {
            "span_tokens": sk.span_tokens,
            "skeleton_tokens": len(sk) - sk.span_tokens,
            "spans": len(sk.spans),
            "pages": rh[0].timings["pages"],
            "hybrid_s": round(sh, 3),
            "ar_s": round(sa, 3),
            "ar_batched_s": round(sb, 3),
            "hybrid_steps": rh[0].steps,
            "tokens_per_span_step": round(rh[0].timings["tokens_per_span_step"], 3),
            "generate_s": None if sg is None else round(sg, 3),
            "ar_decode_steps": ra[0].steps,
            "hybrid_skeleton_s": round(rh[0].timings["skeleton"], 3),
            "hybrid_forward_tokens": rh[0].timings["forward_tokens"],
            "hybrid_remasked": rh[0].timings["remasked"],
        }
    peak_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    peak_gpu_mb = torch.cuda.max_memory_allocated() / 2**20 if b.device.type == "cuda" else None

    nat_h = nat_a = by_h = by_a = nat_b = by_b = 0.0
    d2h, d2a, kth, kta = [], [], [], []
    for t, (rh, ra, rb) in outs.items():
        qh, qa, qb = b.quality(sks[t], rh), b.quality(sks[t], ra), b.quality(sks[t], rb)
        per_template[t].update(hybrid_quality=qh, ar_quality=qa, ar_batched_quality=qb)
        nat_b += qb["bpb"] * qb["bytes"]
        by_b += qb["bytes"]
        nat_h += qh["bpb"] * qh["bytes"]
        by_h += qh["bytes"]
        nat_a += qa["bpb"] * qa["bytes"]
        by_a += qa["bytes"]
        d2h.append(qh["distinct2"])
        d2a.append(qa["distinct2"])
        kth.append(qh["key_terms"])
        kta.append(qa["key_terms"])
        log(f"{t}: bpb hybrid {qh['bpb']} ar {qa['bpb']}")
    bpb_h, bpb_a, bpb_b = nat_h / max(by_h, 1), nat_a / max(by_a, 1), nat_b / max(by_b, 1)
    out = {
        "speedup_vs_ar": round(t_a / t_h, 3),
        "speedup_vs_ar_batched": round(t_b / t_h, 3), "ar_batched_s": round(t_b, 3),
        "bpb_ar_batched": round(bpb_b, 4), "bpb_ratio_vs_ar_batched": round(bpb_h / max(bpb_b, 1e-9), 4),
        "tokens_per_span_step": round(span_commits / max(span_steps, 1), 3),
        "commits_per_span_step_histogram": {("8+" if i == 8 else str(i)): int(c) for i, c in enumerate(hist.tolist())},
        "speedup_vs_generate": round(t_g / t_h, 3) if hf is not None else None,
        "hybrid_s": round(t_h, 3), "ar_s": round(t_a, 3), "generate_s": round(t_g, 3) if hf is not None else None,
        "bpb_hybrid": round(bpb_h, 4), "bpb_ar": round(bpb_a, 4), "bpb_ratio": round(bpb_h / max(bpb_a, 1e-9), 4),
        "distinct2_hybrid": round(sum(d2h) / len(d2h), 4), "distinct2_ar": round(sum(d2a) / len(d2a), 4),
        "key_terms_hybrid": _mean(kth), "key_terms_ar": _mean(kta),
        "peak_rss_mb": round(peak_rss_mb, 1),
        "per_template": per_template,
    }
    if peak_gpu_mb is not None:
        out["peak_gpu_mb"] = round(peak_gpu_mb, 1)
    return out


def sweeps(b: Bench, tid: str) -> dict:
    """The quality-vs-steps curve, the guidance sweep, parallel commits, committed K/V reuse and step
    time against skeleton length, each against its baseline measured here."""
    a, out = b.args, {}
    sk0 = _skeleton(b.tok, tid, a.sweep_sections)
    ks = (16, 256) if a.quick else (4, 8, 16, 32, 64, 128, 256)
    curve = []
    for k in ks:
        curve.append(b.point(sk0, *b.hybrid(sk0, steps=k, nn=a.sweep_n), steps=k))
        log(f"K={k}: {curve[-1]}")
    ar_point = b.point(sk0, *b.ar(sk0, nn=a.sweep_n), filler="ar")
    log(f"AR on the sweep contract: {ar_point}")
    out["steps_curve"] = {
        "template": tid,
        "sections": a.sweep_sections,
        "n": a.sweep_n,
        "ar": ar_point,
        "points": curve,
    }
    sweep = []
    for w in (1.0, 2.5) if a.quick else (1.0, 1.5, 2.0, 2.5, 3.5, 5.0):
        sweep.append(b.point(sk0, *b.hybrid(sk0, w=w, nn=a.sweep_n), guidance=w))
        log(f"w={w}: {sweep[-1]}")
    out["guidance_sweep"] = {
        "template": tid,
        "sections": a.sweep_sections,
        "n": a.sweep_n,
        "ar": ar_point,
        "points": sweep,
    }
    # parallel commits: fewer steps with wider semi-AR blocks commit several tokens per span per
    # step; each point against the span-parallel AR fill of the same contract, same run
    rb0, sb0 = b.ar_batched(sk0, nn=a.sweep_n)
    arb_point = b.point(sk0, rb0, sb0, filler="ar_batched")
    grid = (
        ((256, 2, 0.8), (64, 8, 0.8))
        if a.quick
        else ((256, 2, 0.8), (128, 4, 0.8), (64, 8, 0.8), (64, 8, 0.5), (32, 16, 0.8), (96, 0, 0.8))
    )
    par = []
    for k, blk, thr in grid:
        r, s = b.hybrid(sk0, steps=k, config=b.config(block=blk, threshold=thr), nn=a.sweep_n)
        pt = b.point(
            sk0,
            r,
            s,
            steps=k,
            block=blk,
            threshold=thr,
            tokens_per_span_step=round(r[0].timings["tokens_per_span_step"], 3),
        )
        pt.update(
            speedup_vs_ar_batched=round(sb0 / max(s, 1e-9), 3),
            bpb_ratio_vs_ar_batched=round(pt["bpb"] / max(arb_point["bpb"], 1e-9), 3),
        )
        par.append(pt)
        log(f"parallel K={k} block={blk} thr={thr}: {pt}")
    out["parallel_commits"] = {
        "template": tid,
        "sections": a.sweep_sections,
        "n": a.sweep_n,
        "ar_batched": arb_point,
        "points": par,
    }
    # committed-slot key/value reuse against the exact loop (every slot recomputed every step);
    # on the first 4 sections with N=4: the exact loop is ~10x the work
    sk_small = _skeleton(b.tok, tid, 4)
    reuse = []
    for r_every in (1, 16, 0):
        r, s = b.hybrid(sk_small, config=b.config(refresh_every=r_every), nn=4)
        reuse.append(
            {
                "refresh_every": r_every,
                "seconds": round(s, 3),
                "forward_tokens": r[0].timings["forward_tokens"],
                **b.quality(sk_small, r),
            }
        )
        log(f"refresh_every={r_every}: {reuse[-1]}")
    out["kv_reuse"] = {"template": tid, "sections": 4, "n": 4, "points": reuse}
    # a full step (every slot a query) over 2 spans x 128 with more and more skeleton around
    lengths = (256, 512) if a.quick else (256, 512, 1024, 2048)
    steps_t = {}
    for page, name in ((a.window, "paged"), (4096, "whole_skeleton")):
        row = {}
        for L in lengths:
            sk = synthetic_skeleton(b.tok, L)
            r, _ = b.hybrid(
                sk,
                steps=3,
                w=1.0,
                config=b.config(refresh_every=1, guard_ratio=0.0, window=page, block=0, threshold=0.0),
            )
            row[str(len(sk) - sk.span_tokens)] = round(
                sum(r[0].timings["step_seconds"]) / len(r[0].timings["step_seconds"]), 4
            )
        steps_t[name] = row
        log(f"step time ({name}): {row}")
    out["step_seconds_vs_skeleton"] = {"n": b.n, "span_tokens": 256, **steps_t}
    return out


def _edit_point(text: str, b: Bench) -> tuple[int, FillConfig]:
    """(K, config) of one --edit-steps item: K[/bB][/tT][/RULE], each part defaulting to the run's --block, --threshold,
    --commit."""
    head, *opts = text.split("/")
    kw = {}
    try:
        k = int(head)
        for o in opts:
            if o[:1] == "b":
                kw["block"] = int(o[1:])
            elif o[:1] == "t":
                kw["threshold"] = float(o[1:])
            elif o in COMMIT_RULES:
                kw["commit"] = o
            elif o[:1] == "c":
                kw["run_chunk"] = int(o[1:])
            else:
                raise ValueError(o)
    except ValueError:
        raise SystemExit(
            f"--edit-steps: each item is K[/bB][/tT][/cC][/RULE] (e.g. 16/confidence or 256/b0/t0.9), got {text!r}."
        ) from None
    return k, b.config(**kw)


def edit_compare(b: Bench, tids: list[str]) -> dict:
    """Editing a precedent at noise --edit: the diffusion filler at each K against the batched AR fill
    with the same start, per template and pooled (module docstring)."""
    from hybrid.fill.ar_batched import _targets
    from hybrid.precedents.library import load_library
    from hybrid.skeleton.from_precedents import PrecedentDraw, draft_from_precedents

    a = b.args
    ks = [p.strip() for p in a.edit_steps.split(",")]
    settings = {k: _edit_point(k, b) for k in ks}  # a bad item fails here, before minutes of loading
    library = load_library(progress=False)
    judge = None
    if a.judge:
        sys.path.insert(0, str(REPO))
        from evals.judge import DEFAULT_JUDGE, clause_nats, load_judge

        judge = load_judge(DEFAULT_JUDGE)
    rows = {
        name: {
            "seconds": 0.0,
            "nats": 0.0,
            "bytes": 0,
            "w_nats": 0.0,
            "w_bytes": 0,
            "d2": [],
            "j_nats": 0.0,
            "j_bytes": 0,
        }
        for name in ("ar_runs", "ar_positions", "ar_chunks8")
    }
    rows.update(
        {
            f"K={k}": {
                "seconds": 0.0,
                "nats": 0.0,
                "bytes": 0,
                "w_nats": 0.0,
                "w_bytes": 0,
                "d2": [],
                "j_nats": 0.0,
                "j_bytes": 0,
                "commits": 0.0,
                "span_steps": 0,
                "hist": torch.zeros(9, dtype=torch.long),
                "steps": [],
            }
            for k in ks
        }
    )
    per_template = {}
    for tid in tids:
        t = load_template(tid)
        skel = t.render_skeleton(full_outline(t, b.sections), t.example)
        skel, _, start, _ = draft_from_precedents(
            b.tok, skel, library, t, t.example, PrecedentDraw(b.n, 1, a.seed, a.edit)
        )
        sk = from_template(b.tok, skel)
        forced, _, _ = _targets(b.tok, sk, b.n, start)
        per_template[tid] = {
            "span_tokens": sk.span_tokens,
            "spans": len(sk.spans),
            "kept_tokens": sum(x >= 0 for f in forced for x in f[:-1]),
        }
        runs = [
            (
                name,
                (
                    lambda kr=kr, sk=sk, start=start: arfill_batched.fill(
                        b.model,
                        b.tok,
                        sk,
                        n=b.n,
                        seed=a.seed,
                        params=b.params,
                        start=start,
                        config=ARConfig(window=a.window, precision=a.precision, kept_per_step=kr),
                    )
                ),
            )
            for name, kr in (("ar_runs", 0), ("ar_positions", 1), ("ar_chunks8", 8))
        ]
        runs += [
            (
                f"K={k}",
                (
                    lambda k=k, sk=sk, start=start: sampler.fill(
                        b.model,
                        b.tok,
                        sk,
                        n=b.n,
                        steps=settings[k][0],
                        guidance=a.guidance,
                        seed=a.seed,
                        params=b.params,
                        config=settings[k][1],
                        start=start,
                    )
                ),
            )
            for k in ks
        ]
        for name, fn in runs:
            res, sec = _timed(fn, b.device)
            r = rows[name]
            r["seconds"] += sec
            toks = [x.tokens for x in res]
            nats, nbytes = span_nats_bytes(b.model, b.tok, sk, toks, b.window, b.window // 2)
            wn, wb = span_nats_bytes(b.model, b.tok, sk, toks, b.window, b.window // 2, forced=forced)
            r["nats"], r["bytes"], r["w_nats"], r["w_bytes"] = (
                r["nats"] + nats,
                r["bytes"] + nbytes,
                r["w_nats"] + wn,
                r["w_bytes"] + wb,
            )
            r["d2"].append(distinct2([" ".join(x.spans) for x in res]))
            if judge is not None:  # an independent reader of the same bodies (SmolLM2-135M)
                for x in res:
                    jn, jb, _ = clause_nats(judge, sk.segments, x.spans)
                    r["j_nats"], r["j_bytes"] = r["j_nats"] + jn, r["j_bytes"] + jb
            info = {
                "seconds": round(sec, 3),
                "steps": res[0].steps,
                "bpb": round(nats / math.log(2) / max(nbytes, 1), 4),
                "written_bpb": round(wn / math.log(2) / max(wb, 1), 4),
            }
            if name.startswith("K="):
                c = res[0].timings["commits_per_span_step"]
                r["hist"] += torch.tensor(c)
                r["span_steps"] += sum(c)
                r["commits"] += res[0].timings["tokens_per_span_step"] * sum(c)
                info["tokens_per_span_step"] = round(res[0].timings["tokens_per_span_step"], 3)
            per_template[tid][name] = info
            log(f"edit {tid} {name}: {info}")
    # the faster AR fill is the baseline
    base = min(("ar_runs", "ar_positions", "ar_chunks8"), key=lambda k: rows[k]["seconds"])
    ar = rows[base]
    bpb = lambda r: r["nats"] / math.log(2) / max(r["bytes"], 1)  # noqa: E731
    wbpb = lambda r: r["w_nats"] / math.log(2) / max(r["w_bytes"], 1)  # noqa: E731
    jbpb = lambda r: round(r["j_nats"] / math.log(2) / r["j_bytes"], 4) if r["j_bytes"] else None  # noqa: E731
    points = []
    for k in ks:
        r = rows[f"K={k}"]
        points.append(
            {
                "steps": settings[k][0],
                "commit": settings[k][1].commit,
                "run_chunk": settings[k][1].run_chunk,
                "block": settings[k][1].block,
                "threshold": settings[k][1].threshold,
                "point": k,
                "seconds": round(r["seconds"], 3),
                "tokens_per_span_step": round(r["commits"] / max(r["span_steps"], 1), 3),
                "commits_per_span_step_histogram": {
                    ("8+" if i == 8 else str(i)): int(c) for i, c in enumerate(r["hist"].tolist())
                },
                "speedup_vs_ar_batched": round(ar["seconds"] / max(r["seconds"], 1e-9), 3),
                "bpb": round(bpb(r), 4),
                "bpb_ratio_vs_ar_batched": round(bpb(r) / max(bpb(ar), 1e-9), 4),
                "written_bpb": round(wbpb(r), 4),
                "written_bpb_ratio_vs_ar_batched": round(wbpb(r) / max(wbpb(ar), 1e-9), 4),
                "distinct2": round(sum(r["d2"]) / len(r["d2"]), 4),
                "judge_bpb": jbpb(r),
                "judge_bpb_ratio_vs_ar_batched": round(jbpb(r) / jbpb(ar), 4) if judge is not None else None,
            }
        )
    best = min(points, key=lambda p: p["seconds"] if p["bpb_ratio_vs_ar_batched"] <= 1.15 else float("inf"))
    return {
        "edit_noise": a.edit,
        "ar_baseline": base,
        **{
            name: {
                "seconds": round(r["seconds"], 3),
                "bpb": round(bpb(r), 4),
                "written_bpb": round(wbpb(r), 4),
                "distinct2": round(sum(r["d2"]) / len(r["d2"]), 4),
                "judge_bpb": jbpb(r),
            }
            for name, r in rows.items()
            if name.startswith("ar_")
        },
        "tokens_per_span_step": best["tokens_per_span_step"],
        "speedup_vs_ar_batched": best["speedup_vs_ar_batched"],
        "bpb_ratio_vs_ar_batched": best["bpb_ratio_vs_ar_batched"],
        "best_steps": best["steps"],
        "best_point": best["point"],
        "points": points,
        "per_template": per_template,
    }


def main(argv=None):
    args = _parser().parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)
    b = Bench(args)
    if args.edit is not None:
        tids = args.templates.split(",")
        b.warm_up()
        measured = edit_compare(b, tids)
        out = {
            "benchmark": "fill-edit",
            "checkpoint": args.checkpoint,
            "model_params": sum(p.numel() for p in b.model.parameters()),
            "n": b.n,
            "sections": b.sections,
            "templates": tids,
            "guidance": args.guidance,
            "block": args.block,
            "threshold": args.threshold,
            "window": args.window,
            "precision": args.precision,
            "sampling": {"temperature": args.temperature, "top_p": args.top_p},
            **machine(),
            **measured,
        }
        emit(out, args.out)
        return
    tids = args.templates.split(",")
    sks = {t: _skeleton(b.tok, t, b.sections) for t in tids}
    b.warm_up()
    hf = None
    if not (args.quick or args.no_generate):
        from hybrid.model.hf import HybridForCausalLM

        hf = HybridForCausalLM.from_backbone(
            b.model, bos_token_id=b.tok.bos_id, eos_token_id=b.tok.eos_id, pad_token_id=b.tok.pad_id
        ).eval()
    measured = compare(b, sks, hf)
    out = {
        "benchmark": "fill",
        "device": torch.cuda.get_device_name()
        if b.device.type == "cuda"
        else f"cpu ({platform.processor() or platform.machine()}, {torch.get_num_threads()} threads)",
        "checkpoint": "random" if args.random else args.checkpoint,
        "model_params": sum(p.numel() for p in b.model.parameters()),
        "n": b.n,
        "steps": args.steps,
        "guidance": args.guidance,
        "schedule": args.schedule,
        "refresh_every": args.refresh_every,
        "block": args.block,
        "threshold": args.threshold,
        "window": args.window,
        "precision": args.precision,
        "sampling": {"temperature": args.temperature, "top_p": args.top_p},
        "templates": tids,
        "sections": b.sections,
        "quick": args.quick,
        **machine(),
        **measured,
    }
    if not args.skip_sweeps:
        out.update(sweeps(b, tids[0]))
    emit(out, args.out)


def _mean(xs):
    xs = [x for x in xs if x is not None]
    return round(sum(xs) / len(xs), 4) if xs else None


if __name__ == "__main__":
    main()
