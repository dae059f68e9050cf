"""Issue 12's measures, new vs previous behaviour (and new without the fact guard) in one run, one JSON line.

    python benchmarks/fidelity.py [--templates all] [--seeds 7,8,9] [--n 4] [--threads 1] [--out FILE]

Per (template, seed) the same draft is made twice, interleaved so load drifts hit both alike:
- "new": Drafter.draft's pipeline as shipped: the planner under the structural grammar
  (hybrid.plan.grammar.outline_ebnf), the template's headings, frames locked in their spans, places
  and capitalized terms the deal does not name banned in the filler (hybrid.fidelity.foreign_facts.deal_ban_ids), the
  reranker with the foreign-facts check, body
  lines cleaned of section numbers, and the fact guard (hybrid.fidelity.fact_guard: no capitalized word,
  digits or duration the deal does not state, judged by the token to the left);
- "noguard": "new" without the fact guard (what issue 12's first pass measured as "new");
- "previous": the behaviour before issue 12 on the same model: the planner under the JSON Schema
  alone (structured=False), no frames (render_skeleton(frames=False)), no token bans in the filler
  (a skeleton without deal_text), the reranker without the foreign-facts check (a ContractSpec
  without the deal's text), bodies as the filler wrote them.
- "edit" (only with --arms ...,edit): Drafter.draft edited from precedent (--precedents 1
  --precedent-start T, hybrid.text.start) on the outline "new" plans.
Templates: the 12 of templates/ plus benchmarks/templates/equipment-lease.json (a user's own
template file, not in templates/), each with its example fields. Every variant of every draft is
measured (n per draft), not only the best: duplicate clause types per outline, outlines valid
under jsonschema, titles equal to the template's, required terms present in their own clause,
fields present where the template puts them (hybrid.templates.template.Template.field_clauses), foreign
facts per 1,000 words (hybrid.fidelity.foreign_facts), junk-numbering lines (final text, and the filler's
raw output before cleaning), seconds per draft (plan + fill + rank of n variants).
"""

import argparse
import json
import os
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import torch

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from evals.metrics import duplicate_clause_types, fields_in_place, foreign_facts, junk_numbering_lines, terms_in_clauses  # noqa: E402
from hybrid.common.errors import TemplateError  # noqa: E402
from hybrid.common.machine import cpu_model  # noqa: E402
from hybrid.draft.drafter import Drafter, DraftRequest  # noqa: E402
from hybrid.fidelity.foreign_facts import allowed_text, party_names  # noqa: E402
from hybrid.rank.rerank import ContractSpec  # noqa: E402
from hybrid.templates.template import TEMPLATES_DIR, load_template  # noqa: E402

USER_TEMPLATE = REPO / "benchmarks" / "templates" / "equipment-lease.json"


def _one(drafter, t, values, seed, n, arm: str, precedent_start: float = 0.25) -> dict:
    """Plan, fill and rank one draft of n variants; the measures of every variant."""
    new = arm != "previous"
    drafter.fact_guard = arm in ("new", "edit")
    request = DraftRequest.of(t, values, n=n, seed=seed, precedent_mode="off", filler=drafter.filler)  # the defaults
    params = request.sampling
    t0 = time.perf_counter()
    plan = drafter.planner.plan(t, values, seed=seed, params=params, structured=new)
    outline = t.with_template_headings(plan.outline)
    skeleton = t.render_skeleton(outline, values, frames=new)
    if not new:
        skeleton = replace(skeleton, deal_text="")  # no place bans in the fillers
    if arm == "edit":  # Drafter.draft edited from precedent, on the outline just planned (the same plan as "new")
        drafts = drafter.draft(
            t, values, n=n, seed=seed, outline=plan.outline, precedents=1, precedent_start=precedent_start
        )
        fills = []
    else:
        fills = drafter._fill(request, skeleton, request.guidance, None)
    if arm == "edit":
        variants = [[s["body"] for s in d.sections] for d in drafts]
    elif new:
        drafts = drafter.rank(t, values, outline, fills, seed=seed)
        variants = [[s["body"] for s in d.sections] for d in drafts]
    else:
        spec = ContractSpec.from_template(t, values)
        spec.allowed, spec.corpus_parties = "", ()  # the checks as they were: no foreign-facts term
        drafter.reranker.rank(skeleton, [f.spans for f in fills], spec)
        variants = [f.spans for f in fills]
    seconds = time.perf_counter() - t0

    clauses = [s["clause"] for s in outline["sections"]]
    try:
        t.validate_outline(plan.outline)
        valid = True
    except TemplateError:
        valid = False
    allowed, parties = allowed_text(t, values), party_names()
    places = t.field_clauses()
    row = {"dup": duplicate_clause_types(clauses), "valid": valid, "title_ok": plan.outline["title"] == t.title,
           "seconds": seconds, "terms": [0, 0], "fields": [0, 0], "foreign": 0, "words": 0, "junk": 0,
           "junk_raw": sum(junk_numbering_lines(f.spans) for f in fills), "kinds": Counter(), "examples": []}
    for bodies in variants:
        for k, v in zip(
            ("terms", "fields"),
            (
                terms_in_clauses(bodies, [s.required_terms for s in skeleton.spans]),
                fields_in_place(
                    values,
                    places,
                    {
                        "preamble": skeleton.segments[1].text,
                        **{c: "\n".join(b for b, cc in zip(bodies, clauses) if cc == c) for c in set(clauses)},
                    },
                ),
            ),
        ):
            row[k][0] += v[0]
            row[k][1] += v[1]
        facts = foreign_facts("\n\n".join(bodies), allowed, parties)
        row["foreign"] += len(facts)
        row["kinds"].update(f["kind"] for f in facts)
        row["examples"] += [f["text"] for f in facts[:3]]
        row["words"] += sum(len(b.split()) for b in bodies)
        row["junk"] += junk_numbering_lines(bodies)
    return row


def _summary(rows: list[dict]) -> dict:
    words = sum(r["words"] for r in rows)
    terms = [sum(r["terms"][i] for r in rows) for i in (0, 1)]
    fields = [sum(r["fields"][i] for r in rows) for i in (0, 1)]
    kinds = sum((r["kinds"] for r in rows), Counter())
    examples = Counter(x for r in rows for x in r["examples"])
    secs = sorted(r["seconds"] for r in rows)
    return {
        "outlines": len(rows),
        "duplicate_clause_types_total": sum(r["dup"] for r in rows),
        "outlines_with_duplicates": sum(r["dup"] > 0 for r in rows),
        "max_duplicates_per_outline": max(r["dup"] for r in rows),
        "planner_valid_share": sum(r["valid"] for r in rows) / len(rows),
        "title_from_template_share": sum(r["title_ok"] for r in rows) / len(rows),
        "required_terms_present_share": terms[0] / terms[1] if terms[1] else None,
        "required_terms": terms,
        "fields_in_place_share": fields[0] / fields[1] if fields[1] else None,
        "fields_in_place": fields,
        "foreign_facts": sum(r["foreign"] for r in rows),
        "foreign_per_1000_words": 1000 * sum(r["foreign"] for r in rows) / words if words else None,
        "foreign_by_kind": dict(kinds.most_common()),
        "foreign_most_common": examples.most_common(12),
        "words": words,
        "junk_numbering_lines": sum(r["junk"] for r in rows),
        "junk_numbering_lines_filler_raw": sum(r["junk_raw"] for r in rows),
        "seconds_per_draft_mean": sum(secs) / len(secs),
        "seconds_per_draft_median": secs[len(secs) // 2],
    }


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--checkpoint", default=None, help="checkpoint dir (default: the shipped model)")
    ap.add_argument(
        "--templates", default="all", help="comma-separated ids or paths, or all: templates/ + the user template"
    )
    ap.add_argument("--seeds", default="7,8,9")
    ap.add_argument("--n", type=int, default=4, help="variants per draft")
    ap.add_argument("--threads", type=int, default=1, help="torch CPU threads (default: 1)")
    ap.add_argument("--out", default=None, help="also write the JSON to this file")
    ap.add_argument("--arms", default="new,noguard,previous",
                    help="behaviours to run, comma-separated: new, noguard, previous, and edit (drafting edited from "
                    "precedent: --precedents 1 --precedent-start T)")
    ap.add_argument("--precedent-start", type=float, default=0.25, help="the edit arm's T (default 0.25)")
    args = ap.parse_args(argv)
    arms = args.arms.split(",")
    if not arms or any(a not in ("new", "noguard", "previous", "edit") for a in arms):
        ap.error(f"--arms takes new, noguard, previous, edit; got {args.arms!r}")
    torch.set_num_threads(args.threads)
    load_before = os.getloadavg()
    drafter = Drafter.from_pretrained(args.checkpoint, device="cpu")
    if args.templates == "all":
        specs = [str(USER_TEMPLATE)] + [str(p) for p in sorted(TEMPLATES_DIR.glob("*.json"))]
    else:
        specs = args.templates.split(",")
    seeds = [int(s) for s in args.seeds.split(",")]
    rows = {a: [] for a in ("new", "noguard", "previous", "edit") if a in arms}
    per_template = {}
    t_start = time.perf_counter()
    for done, spec in enumerate(specs, 1):
        t = load_template(spec)
        values = t.validate_fields(t.example)
        for seed in seeds:
            for name in (list(rows)[::-1] if seed % 2 else list(rows)):
                r = _one(drafter, t, values, seed, args.n, name, args.precedent_start)
                r["template"] = t.id
                rows[name].append(r)
            print(f"{t.id} seed {seed}: " + "; ".join(
                f"{k} dup={v[-1]['dup']} fields={v[-1]['fields']} foreign={v[-1]['foreign']} junk={v[-1]['junk']} "
                f"{v[-1]['seconds']:.1f}s" for k, v in rows.items()), file=sys.stderr, flush=True)
        per_template[t.id] = {
            k: {
                "duplicates": sum(r["dup"] for r in v if r["template"] == t.id),
                "fields": [sum(r["fields"][i] for r in v if r["template"] == t.id) for i in (0, 1)],
                "foreign": sum(r["foreign"] for r in v if r["template"] == t.id),
            }
            for k, v in rows.items()
        }
        line = json.dumps(
            _report(args, specs[:done], len(specs), seeds, drafter, load_before, t_start, rows, per_template)
        )
        if args.out:  # after every template: a run cut short still leaves its measured part
            Path(args.out).write_text(line + "\n")
    print(line)


def _report(args, specs, planned, seeds, drafter, load_before, t_start, rows, per_template) -> dict:
    summary = {k: _summary(v) for k, v in rows.items()}
    new, prev = summary.get("new"), summary.get("previous")
    out = {
        "benchmark": "fidelity",
        "grid": {
            "templates": [load_template(s).id for s in specs],
            "templates_planned": planned,
            "complete": len(specs) == planned,
            "variants": args.n,
            "seeds": seeds,
            "arms": list(rows),
            "drafts_per_behaviour": len(next(iter(rows.values()))),
            "full_grid": len(specs) == planned and args.templates == "all" and len(seeds) == 3 and args.n == 4,
        },
        "checkpoint": drafter.path,
        "machine": {
            "cpu": cpu_model(),
            "cores": os.cpu_count(),
            "torch_threads": args.threads,
            "load_avg_before": [round(x, 2) for x in load_before],
            "load_avg_now": [round(x, 2) for x in os.getloadavg()],
            "torch": torch.__version__,
        },
        "wall_seconds": round(time.perf_counter() - t_start, 1),
        **summary,
    }
    if "edit" in summary:
        out["edit_precedent_start"] = args.precedent_start
        if new:
            out["seconds_ratio_edit_over_new"] = (
                summary["edit"]["seconds_per_draft_mean"] / new["seconds_per_draft_mean"]
            )
    if new and prev and "noguard" in summary:
        out.update(
            {
                "seconds_ratio_new_over_noguard": new["seconds_per_draft_mean"]
                / summary["noguard"]["seconds_per_draft_mean"],
                "seconds_ratio_new_over_previous": new["seconds_per_draft_mean"] / prev["seconds_per_draft_mean"],
                "bars": {
                    "no_duplicate_clause_types": new["duplicate_clause_types_total"] == 0,
                    "all_fields_in_place": new["fields_in_place_share"] == 1.0,
                    "foreign_at_most_1_per_10000_words": new["foreign_per_1000_words"] is not None
                    and new["foreign_per_1000_words"] <= 0.1,
                    "no_junk_numbering_lines": new["junk_numbering_lines"] == 0,
                    "planner_valid_100pct": new["planner_valid_share"] == 1.0,
                    "time_within_1_2x": new["seconds_per_draft_mean"] <= 1.2 * prev["seconds_per_draft_mean"],
                },
            }
        )
    out["per_template"] = per_template
    return out


if __name__ == "__main__":
    main()
