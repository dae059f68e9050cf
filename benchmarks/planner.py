"""Planner benchmark: prints one JSON line.

(a) constraint overhead: constrained vs unconstrained decode time per token, same model, same
    prompts, same token counts, same run (with jump-forward, and without it);
(b) our KV-cached decode loop vs transformers `generate()` on the same weights and prompt
    (greedy, tokens/s ratio; the two must produce the same tokens);
(c) validity: every template x --seeds seeds on a tiny random model (and on --checkpoint when
    given); every outline is checked with jsonschema;
(d) realism: sampled outlines vs the real documents recorded in each template's "grounding"
    (train/val): clause-type coverage error and order agreement (Spearman over clause types'
    mean relative positions), for the random model (a floor) and for --checkpoint.

    python benchmarks/planner.py [--checkpoint DIR] [--seeds 100] [--device cpu|cuda] [--threads 1]

Without --checkpoint the speed model is a random BackboneConfig() (the default size) over a
tokenizer trained on the corpus (or on the template files when no corpus is reachable).
"""

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import jsonschema
import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hybrid.common.errors import HybridError  # noqa: E402
from hybrid.common.sampling import SamplingParams  # noqa: E402
from hybrid.model.backbone import Backbone, BackboneConfig  # noqa: E402
from hybrid.plan.planner import Planner  # noqa: E402
from hybrid.templates.template import list_templates  # noqa: E402
from hybrid.tokenizer.bpe import HybridTokenizer  # noqa: E402

SPEED_TEMPLATES = ("distributor", "mutual-nda", "saas-agreement", "supply")


def _texts(limit: int = 120) -> list[str]:
    corpus = Path(os.environ.get("HYBRID_CORPUS", ROOT.parent / "shared" / "corpus"))
    files = sorted((corpus / "cuad" / "contracts").glob("*.txt"))[:limit]
    if files:
        return [f.read_text(errors="replace") for f in files]
    return [p.read_text() for p in sorted((ROOT / "templates").glob("*.json"))]


def _sync(device):
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def constraint_overhead(planner: Planner, seeds: int) -> dict:
    templates = [t for t in list_templates() if t.id in SPEED_TEMPLATES]
    sampling = SamplingParams(temperature=1.0)
    t0 = templates[0]
    planner.plan(t0, t0.example, seed=0)  # warm up: compile grammars, allocate
    for t in templates:
        planner.compiler(planner.model.cfg.vocab_size).compile(t.outline_schema)
    tok_c = tok_u = tok_n = 0
    sec_c = sec_u = sec_n = 0.0
    forced = fw_c = fw_u = 0
    for t in templates:
        prompt = planner.prompt_ids(t, t.example)
        for seed in range(seeds):
            c = planner.decode(prompt, t.outline_schema, seed=seed, params=sampling)
            u = planner.decode(prompt, None, seed=seed, params=sampling, max_tokens=len(c.tokens))
            n = planner.decode(prompt, t.outline_schema, seed=seed, params=sampling, jump_forward=False)
            tok_c, sec_c, forced, fw_c = (
                tok_c + len(c.tokens),
                sec_c + c.seconds,
                forced + c.forced_tokens,
                fw_c + c.forwards + 1,
            )
            tok_u, sec_u, fw_u = tok_u + len(u.tokens), sec_u + u.seconds, fw_u + u.forwards + 1
            tok_n, sec_n = tok_n + len(n.tokens), sec_n + n.seconds

    def ms(s, n):
        return round(1000 * s / n, 4)

    return {
        "outlines": len(templates) * seeds,
        "tokens_constrained": tok_c,
        "tokens_unconstrained": tok_u,
        "unconstrained_ms_per_token": ms(sec_u, tok_u),
        "constrained_ms_per_token": ms(sec_c, tok_c),
        "overhead_pct": round(100 * ((sec_c / tok_c) / (sec_u / tok_u) - 1), 2),
        "forced_fraction": round(forced / tok_c, 4),
        "constrained_ms_per_forward": ms(sec_c, fw_c),
        "unconstrained_ms_per_forward": ms(sec_u, fw_u),
        "overhead_per_forward_pct": round(100 * ((sec_c / fw_c) / (sec_u / fw_u) - 1), 2),
        "constrained_no_jump_forward_ms_per_token": ms(sec_n, tok_n),
        "overhead_no_jump_forward_pct": round(100 * ((sec_n / tok_n) / (sec_u / tok_u) - 1), 2),
    }


def versus_generate(planner: Planner, new_tokens: int, repeats: int) -> dict:
    from hybrid.model.hf import HybridForCausalLM

    tok = planner.tokenizer
    hf = HybridForCausalLM.from_backbone(planner.model).eval()
    t = next(t for t in list_templates() if t.id == "distributor")
    prompt = planner.prompt_ids(t, t.example)
    device = planner.device
    ids = torch.tensor([prompt], device=device)
    kw = dict(max_new_tokens=new_tokens, do_sample=False, eos_token_id=tok.eos_id, pad_token_id=tok.pad_id)
    greedy = SamplingParams(temperature=0)
    ours_s, theirs_s = [], []
    with torch.inference_mode():
        hf.generate(ids, **kw)  # warm up both
        planner.decode(prompt, None, params=greedy, max_tokens=new_tokens)
        for _ in range(repeats):
            d = planner.decode(prompt, None, params=greedy, max_tokens=new_tokens)
            ours_s.append(d.seconds)
            _sync(device)
            t0 = time.perf_counter()
            out = hf.generate(ids, **kw)
            _sync(device)
            theirs_s.append(time.perf_counter() - t0)
    theirs = out[0, len(prompt):].tolist()
    ours, theirs_med = statistics.median(ours_s), statistics.median(theirs_s)
    return {
        "prompt_tokens": len(prompt),
        "new_tokens": len(d.tokens),
        "ours_tokens_per_s": round(len(d.tokens) / ours, 1),
        "generate_tokens_per_s": round(len(theirs) / theirs_med, 1),
        "ratio": round((len(d.tokens) / ours) / (len(theirs) / theirs_med), 3),
        "same_tokens": d.tokens == theirs,
        "repeats": repeats,
    }


def validity(planner: Planner, seeds: int) -> dict:
    valid = plans = 0
    errors = []
    t0 = time.perf_counter()
    for t in list_templates():
        for seed in range(seeds):
            plans += 1
            try:
                r = planner.plan(t, t.example, seed=seed)
                jsonschema.validate(r.outline, t.outline_schema)
                valid += 1
            except (HybridError, jsonschema.ValidationError, ValueError) as e:
                errors.append(f"{t.id}/{seed}: {type(e).__name__}: {e}"[:300])
    return {
        "plans": plans,
        "valid": valid,
        "rate": valid / plans,
        "seconds": round(time.perf_counter() - t0, 1),
        "errors": errors[:5],
    }


def _spearman(xs: list[float], ys: list[float]) -> float:
    def ranks(v):
        order = sorted(range(len(v)), key=lambda i: v[i])
        r = [0.0] * len(v)
        i = 0
        while i < len(order):  # average ranks over ties
            j = i
            while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
                j += 1
            for k in range(i, j + 1):
                r[order[k]] = (i + j) / 2
            i = j + 1
        return r

    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    num = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    den = (sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry)) ** 0.5
    return num / den if den else 0.0


def realism(planner: Planner, seeds: int, temperature: float) -> dict:
    """Per template: mean |P(type in sampled outline) - P(type in real document)| over the
    template's clause types, and Spearman of mean relative positions over the types both use."""
    per = {}
    for t in list_templates():
        g = t.grounding
        n_real = max(1, g["documents_with_outline"])
        real_freq = {c: g["clause_doc_frequency"].get(c, 0) / n_real for c in t.clause_types}
        counts = {c: 0 for c in t.clause_types}
        positions: dict[str, list[float]] = {}
        for seed in range(seeds):
            sections = planner.plan(t, t.example, seed=seed, params=SamplingParams(temperature=temperature)).outline[
                "sections"
            ]
            for c in {s["clause"] for s in sections}:
                counts[c] += 1
            for i, s in enumerate(sections):
                positions.setdefault(s["clause"], []).append(i / max(1, len(sections) - 1))
        shared = [c for c in positions if c in g["mean_relative_position"]]
        per[t.id] = {
            "coverage_mae": round(statistics.fmean(abs(counts[c] / seeds - real_freq[c]) for c in t.clause_types), 4),
            "order_spearman": round(
                _spearman(
                    [statistics.fmean(positions[c]) for c in shared], [g["mean_relative_position"][c] for c in shared]
                ),
                4,
            )
            if len(shared) >= 3
            else None,
            "real_documents": g["documents_with_outline"],
        }
    orders = [v["order_spearman"] for v in per.values() if v["order_spearman"] is not None]
    return {
        "seeds": seeds,
        "temperature": temperature,
        "coverage_mae_mean": round(statistics.fmean(v["coverage_mae"] for v in per.values()), 4),
        "order_spearman_mean": round(statistics.fmean(orders), 4) if orders else None,
        "per_template": per,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--checkpoint", type=Path, help="a trained checkpoint (default: random weights)")
    ap.add_argument("--seeds", type=int, default=100, help="validity seeds per template (default: 100)")
    ap.add_argument("--speed-seeds", type=int, default=5, help="outlines per template for the overhead timing")
    ap.add_argument("--new-tokens", type=int, default=256, help="greedy tokens for the generate() comparison")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--realism-seeds", type=int, default=20, help="sampled outlines per template for realism")
    ap.add_argument("--temperature", type=float, default=0.8, help="sampling temperature for realism")
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--threads", type=int, default=1, help="torch CPU threads (batch-1 decoding)")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    device = torch.device(args.device)
    torch.manual_seed(0)

    if args.checkpoint:
        from hybrid.model.checkpoint import load_checkpoint

        model, tok, _ = load_checkpoint(args.checkpoint)
        source = str(args.checkpoint)
    else:
        tok = HybridTokenizer.train(_texts(), 8192)
        model = Backbone(BackboneConfig(vocab_size=8192))
        source = "random BackboneConfig()"
    model = model.to(device).eval()
    planner = Planner(model, tok)
    tiny = Planner(Backbone(BackboneConfig.tiny(tok.vocab_size)).to(device).eval(), tok)

    result = {
        "benchmark": "planner",
        "device": torch.cuda.get_device_name(device) if device.type == "cuda" else f"cpu ({args.threads} threads)",
        "model": {
            "source": source,
            "params": model.num_params(),
            "d_model": model.cfg.d_model,
            "n_layers": model.cfg.n_layers,
            "vocab_size": model.cfg.vocab_size,
            "tokenizer_vocab": tok.vocab_size,
        },
        "constraint": constraint_overhead(planner, args.speed_seeds),
        "vs_generate": versus_generate(planner, args.new_tokens, args.repeats),
        "validity": {
            "templates": len(list_templates()),
            "seeds": args.seeds,
            "random_tiny": validity(tiny, args.seeds),
        },
    }
    result["realism"] = {
        "reference": "templates' grounding (train/val)",
        "random_tiny": realism(tiny, args.realism_seeds, args.temperature),
    }
    if args.checkpoint:
        result["validity"]["checkpoint"] = validity(planner, args.seeds)
        result["realism"]["checkpoint"] = realism(planner, args.realism_seeds, args.temperature)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
