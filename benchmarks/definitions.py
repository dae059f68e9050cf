"""Definitions sections: composed from the entries a draft can use (hybrid.precedents.definitions) vs one precedent
edited whole.

    python benchmarks/definitions.py [--templates all] [--seeds 7,8] [--n 4] [--threads 1] [--out FILE]

Both arms are `Drafter.draft(template, example, n, seed)` as `hybrid draft` calls it (edit from
precedent at t = 0.25, the run rule), on the same plan; the "whole" arm only has
the composition switched off (hybrid.skeleton.from_precedents's compose), so its Definitions span edits the top (variant
0) or drawn
precedent as every other section does, which is what drafts did before the composition. Measured
on the Definitions bodies alone, every variant: the independent judge's bits per byte (SmolLM2-135M,
evals.judge; context: the skeleton before the section, the other bodies left out, alike in both
arms), foreign facts per 1,000 words (hybrid.fidelity.foreign_facts, against the deal's text), the share of
entries whose defined term the template or the boilerplate list owns, and words. One JSON line.
"""

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.machine import add_run_args, emit, machine  # noqa: E402


def _arm(drafter, templates, seeds, n, judge, composed: bool) -> dict:
    import hybrid.precedents.definitions as definitions
    import hybrid.skeleton.from_precedents as skeletons
    from evals.judge import clause_nats
    from hybrid.fidelity.foreign_facts import allowed_text, foreign_facts, party_names

    real_compose = skeletons.compose  # what variant_draws calls
    if not composed:
        skeletons.compose = lambda *a, **k: None
    try:
        nats = bytes_ = words = foreign = heads = owned = sections = 0
        seconds = 0.0
        for t in templates:
            values = t.validate_fields(t.example)
            allowed = allowed_text(t, values)
            keep = definitions.keep_terms(t.defined_terms, t.preamble)
            for seed in seeds:
                t0 = time.perf_counter()
                drafts = drafter.draft(t, t.example, n=n, seed=seed)
                seconds += time.perf_counter() - t0
                for d in drafts:
                    i = next((k for k, s in enumerate(d.sections) if s["clause"] == "definitions"), None)
                    if i is None:
                        continue
                    body = d.sections[i]["body"]
                    sk = t.render_skeleton(d.outline, values)
                    bodies = ["" for _ in d.sections]
                    bodies[i] = body
                    a, b, _ = clause_nats(judge, sk.segments, bodies)
                    nats, bytes_ = nats + a, bytes_ + b
                    words += len(body.split())
                    foreign += len(foreign_facts(body, allowed, party_names()))
                    found = [term for _, _, term in definitions.head_terms(body)]
                    heads += len(found)
                    owned += sum(h.lower() in keep or h.lower() in allowed.lower() for h in found)
                    sections += 1
    finally:
        skeletons.compose = real_compose
    import math

    return {"sections": sections, "words": words, "judge_bpb": round(nats / max(bytes_, 1) / math.log(2), 4),
            "foreign_facts": foreign, "foreign_per_1000_words": round(1000 * foreign / max(words, 1), 3),
            "definition_heads": heads, "heads_the_draft_owns_share": round(owned / max(heads, 1), 3),
            "seconds": round(seconds, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--templates", default="all", help="comma-separated template ids, or all")
    ap.add_argument("--seeds", default="7,8")
    ap.add_argument("--n", type=int, default=4)
    add_run_args(ap, threads=1)
    args = ap.parse_args()
    import torch

    if args.threads:
        torch.set_num_threads(args.threads)
    from evals.judge import DEFAULT_JUDGE, load_judge
    from hybrid.draft.drafter import Drafter
    from hybrid.templates.template import TEMPLATES_DIR, load_template

    ids = sorted(p.stem for p in TEMPLATES_DIR.glob("*.json")) if args.templates == "all" else args.templates.split(",")
    templates = [load_template(i) for i in ids]
    templates = [t for t in templates if "definitions" in t.clause_types]
    seeds = [int(s) for s in args.seeds.split(",")]
    drafter = Drafter.from_pretrained(device="cpu")
    judge = load_judge(DEFAULT_JUDGE)
    t0 = time.perf_counter()
    composed = _arm(drafter, templates, seeds, args.n, judge, True)
    whole = _arm(drafter, templates, seeds, args.n, judge, False)
    result = {"benchmark": "definitions", "templates": [t.id for t in templates], "seeds": seeds, "n": args.n,
              "judge": DEFAULT_JUDGE, **machine(), "composed": composed, "whole": whole,
              "judge_bpb_ratio_composed_over_whole": round(composed["judge_bpb"] / whole["judge_bpb"], 4),
              "wall_seconds": round(time.perf_counter() - t0, 1)}
    emit(result, args.out)


if __name__ == "__main__":
    main()
