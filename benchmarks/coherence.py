"""Contracts of the deal's kind: whole default drafts against the form a lawyer fills in, measured as a lawyer reads.

Prints one JSON line. For every shipped template with its example fields, over --seeds x --n variants, in one
process, three arms:

- `hybrid`: `hybrid draft`'s default (one coherent base per variant: hybrid.skeleton.from_base);
- `form`: the baseline a lawyer starts from by hand: for each variant the same base (the same choice, without the
  engine), its sections with the deal's facts substituted, nothing inserted, settled or written
  (hybrid.skeleton.from_base.form_sections), under the template's title, preamble and signature block;
- `sections`: the section-by-section assembly (`base=False`: each section from its own precedent), the default
  before this benchmark.

Per arm: the share of sections whose sources are all of the template's kind (its doc types, or a standard form of
them) or the engine's own text (`same_kind_share`); checklist coverage (hybrid.precedents.checklist.market_check)
against the mean coverage of the real train contracts of the kind (real_coverage); median words against the median
real train contract of the kind; substance contradictions (hybrid.draft.substance); the reading checks
(hybrid.draft.consistency.reading_checks); foreign facts (names, numbers) and foreign subject matter
(hybrid.fidelity.foreign_subject) per 1,000 words; the share of words the filler wrote (against each section's
source text); seconds per draft call. Per template too, so a bar can be read per kind.

    python benchmarks/coherence.py [--seeds 7,8,9] [--n 4] [--threads 1] [--arms hybrid,form,sections]
        [--templates ID,...] [--out FILE]
"""

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hybrid.common.options import set_threads  # noqa: E402
from hybrid.data.corpus import corpus_root, load_manifest  # noqa: E402
from hybrid.draft.consistency import reading_checks  # noqa: E402
from hybrid.draft.provenance import written_words  # noqa: E402
from hybrid.draft.substance import substance_checks  # noqa: E402
from hybrid.fidelity.foreign_facts import allowed_text, draft_foreign_facts  # noqa: E402
from hybrid.fidelity.foreign_subject import foreign_subjects, load_subject_index  # noqa: E402
from hybrid.precedents.base import kind_phrases, kinds_of  # noqa: E402
from hybrid.precedents.checklist import market_check, real_coverage  # noqa: E402
from hybrid.templates.template import TEMPLATES_DIR, load_template  # noqa: E402

from machine import add_run_args, emit, machine  # noqa: E402

ARMS = ("hybrid", "form", "sections")
READING = ("mid_sentence_endings", "broken_paragraphs", "dangling_references", "doubled_words")


def real_median_words(template) -> int:
    """The median length in words of the train contracts of the template's kind (the manifest's count)."""
    kinds = kinds_of(template)
    entries = load_manifest(corpus_root())
    words = [e["words"] for e in entries if e["split"] == "train" and e["doc_type"].upper() in kinds]
    return int(statistics.median(words)) if words else 0


def form_drafts(drafter, template, values, n):
    """The `form` arm's n drafts: variant v is the base the default's variant v starts from, facts substituted."""
    from hybrid.draft.base_stage import pageable
    from hybrid.skeleton.from_base import base_variants, form_sections
    from hybrid.templates.rendered import substitute

    out = []
    for bv in base_variants(drafter.precedent_library(), template, values, n, pageable=pageable(drafter)):
        sections = form_sections(bv.base, template, values)
        text = "\n\n".join([template.title, substitute(template.preamble, values),
                            *(f"{s['number']}. {s['heading']}.\n{s['body']}" for s in sections),
                            substitute(template.signature_block, values)])
        out.append({"sections": sections, "text": text, "source_facts": [], "consistency": {}})
    return out


def _as_dict(d) -> dict:
    return d if isinstance(d, dict) else {"sections": d.sections, "text": d.text, "source_facts": d.source_facts}


def count(library, template, drafts, tot, index, subjects) -> None:
    """Adds each draft's measures to the arm's totals `tot` (and its template's row)."""
    kinds = kinds_of(template)
    deal_text = allowed_text(template, template.example)
    for d in map(_as_dict, drafts):
        secs = d["sections"]
        bodies = [s["body"] for s in secs]
        words = sum(len(b.split()) for b in bodies)
        tot["drafts"] += 1
        tot["sections"] += len(secs)
        tot["words"].append(words)
        for s in secs:
            cited = [index[c["id"]] for c in s.get("precedents", []) if c.get("id") in index]
            if all(p.doc_type.upper() in kinds for p in cited):  # no source: the engine's own text
                tot["same_kind"] += 1
            elif len(tot["other_kind_examples"]) < 12:
                tot["other_kind_examples"].append(f"{template.id} {s['heading']}: {cited[0].doc_type}")
            if s.get("start_text"):  # a flat word diff: a redline's paragraph units count moved markers as rewrites
                tot["model_words"] += written_words(s["start_text"], s["body"])
        check = market_check(template, secs)
        tot["coverage"].append(check["coverage"])
        sub = substance_checks(secs, template, template.example)
        tot["contradictions"] += sub["contradictions"]
        for k in ("term", "exclusivity", "roles"):
            for f in sub.get(k, [])[:1]:
                if len(tot["contradiction_examples"]) < 12:
                    tot["contradiction_examples"].append(f"{template.id} {k}: {f.get('quote', '')[:160]}")
        r = reading_checks(bodies, len(bodies))
        for k in READING:
            tot[k] += r[k]
        tot["foreign_facts"] += len(draft_foreign_facts(template, template.example, bodies, d["source_facts"]))
        found = foreign_subjects("\n".join(bodies), deal_text, index=subjects, kind=kind_phrases(template))
        tot["foreign_subjects"] += len(found)
        if found and len(tot["subject_examples"]) < 16:
            tot["subject_examples"].append(f"{template.id}: {', '.join(found[:4])}")
        tot["word_total"] += words


def new_totals() -> dict:
    return {"drafts": 0, "sections": 0, "same_kind": 0, "words": [], "coverage": [], "contradictions": 0,
            "foreign_facts": 0, "foreign_subjects": 0, "model_words": 0, "word_total": 0, "seconds": 0.0, "calls": 0,
            **dict.fromkeys(READING, 0), "other_kind_examples": [], "contradiction_examples": [],
            "subject_examples": []}


def summarize(tot: dict, real: dict | None = None) -> dict:
    w = max(tot["word_total"], 1)
    out = {
        "drafts": tot["drafts"],
        "same_kind_share": round(tot["same_kind"] / max(tot["sections"], 1), 4),
        "coverage_mean": round(statistics.mean(tot["coverage"]), 4) if tot["coverage"] else None,
        "median_words": int(statistics.median(tot["words"])) if tot["words"] else 0,
        "contradictions": tot["contradictions"],
        **{k: tot[k] for k in READING},
        "foreign_facts_per_1000_words": round(1000 * tot["foreign_facts"] / w, 3),
        "foreign_subjects_per_1000_words": round(1000 * tot["foreign_subjects"] / w, 3),
        "model_words_share": round(tot["model_words"] / w, 4),
        "seconds_per_draft_call": round(tot["seconds"] / max(tot["calls"], 1), 2),
    }
    if real:
        out.update(real)
    for k in ("other_kind_examples", "contradiction_examples", "subject_examples"):
        if tot[k]:
            out[k] = tot[k]
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", default="7,8,9")
    ap.add_argument("--n", type=int, default=4)
    ap.add_argument("--arms", default=",".join(ARMS), help=f"comma-separated, of {', '.join(ARMS)}")
    ap.add_argument("--templates", default="", help="comma-separated ids (default: every shipped template)")
    add_run_args(ap, threads=1)
    args = ap.parse_args(argv)
    set_threads(args.threads)
    from hybrid import Drafter

    arms = [a.strip() for a in args.arms.split(",") if a.strip()]
    if unknown := [a for a in arms if a not in ARMS]:
        ap.error(f"--arms: unknown {unknown}; valid: {', '.join(ARMS)}")
    seeds = [int(s) for s in args.seeds.split(",")]
    ids = args.templates.split(",") if args.templates else sorted(p.stem for p in TEMPLATES_DIR.glob("*.json"))
    drafter = Drafter.from_pretrained()
    library = drafter.precedent_library()
    index = {p.id: p for p in library.precedents}
    subjects = load_subject_index()
    warm = load_template(ids[0])
    drafter.draft(warm, warm.example, n=1, seed=0)  # untimed: loading the library and the model is no arm's cost
    totals = {a: new_totals() for a in arms}
    per_template = {}
    for tid in ids:
        t = load_template(tid)
        rows = {a: new_totals() for a in arms}
        for seed in seeds:
            for arm in arms:
                t0 = time.perf_counter()
                if arm == "form":
                    drafts = form_drafts(drafter, t, t.example, args.n)
                else:
                    drafts = drafter.draft(t, t.example, n=args.n, seed=seed, base=arm == "hybrid")
                dt = time.perf_counter() - t0
                for tot in (totals[arm], rows[arm]):
                    tot["seconds"] += dt
                    tot["calls"] += 1
                    count(library, t, drafts, tot, index, subjects)
        rc = real_coverage(t)
        real = {"real_coverage_mean": round(rc["mean"], 4), "real_median_words": real_median_words(t)}
        per_template[t.id] = {a: summarize(rows[a], real) for a in arms}
        print(f"{t.id}: " + json.dumps({a: {k: per_template[t.id][a][k] for k in (
            "same_kind_share", "coverage_mean", "median_words", "contradictions", "foreign_subjects_per_1000_words")}
            for a in arms}), file=sys.stderr, flush=True)
    out = {
        "benchmark": "coherence",
        **machine(),
        "templates": ids,
        "seeds": seeds,
        "n": args.n,
        "arms": {a: summarize(tot) for a, tot in totals.items()},
        "per_template": per_template,
        "command": "python benchmarks/coherence.py " + " ".join(argv if argv is not None else sys.argv[1:]),
    }
    emit(out, args.out)


if __name__ == "__main__":
    main()
