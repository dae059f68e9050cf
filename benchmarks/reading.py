"""Reading checks of whole default drafts: what a lawyer notices, per template, against same-run baselines.

Prints one JSON line. For every shipped template and the README's user template without frames
(benchmarks/templates/equipment-lease.json), with its example fields, over --seeds x --n variants, it drafts
in the same process with each arm:

- `default`: `hybrid draft`'s default (edit only what the deal needs, another deal's common-word terms in
  lower case and its fact-laden sentences taken out: the start phase of hybrid.text.pipeline);
- `no-settle`: the same with the start phase's settling passes off (every foreign fact a hole the filler
  rewrites: the default before this change);
- `no-repair`: the default without the consistency pass's paragraph repair (hybrid.text.paragraphs: the
  default before it);
- `no-kind`: the default without the deal-kind fit (hybrid.precedents.library.Library.deal_kind off: a
  section's source chosen without its likeness to the template's own kind of deal's clauses);
- `no-absent`: the default without the fit's cost of a clause leaning on a clause the draft lacks and without the
  consistency pass's removal of such sentences (hybrid.common.topics: "obligations respecting confidentiality and
  indemnification" in an NDA without an indemnity);
- `keep-names`: the default where a sentence holding another deal's name or term stays when taking it out would
  leave less than half the precedent's words (hybrid.text.settle.NAME_HOLES_GO off: the filler rewrites the
  name's hole, the default before this change);
- `noise-0.25`: the default when the issue was filed (precedent_start 0.25: a quarter of the words masked);

and counts over the drafts' section bodies: sections whose source clause's type differs from the
section's, sections whose source is a clause of neither the template's doc types nor a standard form
(other_kind_sources: not wrong in itself, a boilerplate clause serves any deal, but where a clause of another
kind of deal comes in), clauses ending mid-sentence, paragraphs inside a clause that stop without a full stop, list
markers out of sequence, and markers or headings that number or head nothing ("A..", "Invoices and Payment." above
"Taxes.") (broken_paragraphs), cross-references to sections the draft lacks, sentences leaning on a clause the
draft lacks (absent_clause_sentences, and those the consistency pass removed), doubled words,
required terms stated (each section's rendered required terms found in its body), foreign facts
(hybrid.fidelity.foreign_facts.draft_foreign_facts) per 1,000 words, words the model wrote (inserted
against the section's source text, case aside, frame sentences aside) per 1,000 words, and seconds per
draft call.

    python benchmarks/reading.py [--seeds 7,8,9] [--n 4] [--threads 1]
        [--arms default,no-settle,no-repair,no-kind,no-absent,keep-names,noise-0.25]
        [--without-pass NAME,...] [--out FILE]

Any text pass can be switched off by its name in every arm (--without-pass; `hybrid passes` lists the names).
"""

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hybrid.common.options import set_threads  # noqa: E402
from hybrid.common.sentences import ends_mid_sentence, sentence_boundaries  # noqa: E402
from hybrid.common.topics import TERM_CLAUSES, absent_mentions, absent_types, convenience_termination  # noqa: E402
from hybrid.draft.consistency import paragraph_faults, reading_checks  # noqa: E402
from hybrid.draft.provenance import word_redline, written_words  # noqa: E402
from hybrid.fidelity.foreign_facts import draft_foreign_facts  # noqa: E402
from hybrid.precedents.fit import STANDARD_SOURCES  # noqa: E402
from hybrid.templates.template import TEMPLATES_DIR, load_template  # noqa: E402
from hybrid.text.passes import without  # noqa: E402
from hybrid.text.references import dangling_references  # noqa: E402

from machine import machine  # noqa: E402

ARMS = {"default": {}, "no-settle": {}, "no-repair": {}, "no-kind": {}, "no-absent": {}, "keep-names": {},
        "noise-0.25": {"precedent_start": 0.25}}
USER_TEMPLATE = Path(__file__).resolve().parent / "templates" / "equipment-lease.json"
COUNTS = (
    "type_mismatches",
    "other_kind_sources",
    "mid_sentence_endings",
    "broken_paragraphs",
    "dangling_references",
    "absent_clause_sentences",
    "absent_clause_sentences_removed",
    "doubled_words",
    "foreign_facts",
    "model_words",
    "required_terms",
    "required_terms_stated",
    "words",
    "sections",
    "drafts",
)


_ORIGINALS: dict = {}


def _switch(owner, name: str, on: bool, off) -> None:
    """owner.name as shipped (on) or replaced by `off` (an arm that turns one step off)."""
    original = _ORIGINALS.setdefault((id(owner), name), getattr(owner, name))
    setattr(owner, name, original if on else off)


def _arm_switches(arm: str) -> None:
    """Each step an arm turns off that is no text pass (those go by name: _arm_passes): the deal-kind fit
    (no-kind), the fit's rule against clauses leaning on a clause the draft lacks (no-absent) and the settling's
    taking out of a sentence for another deal's name alone (keep-names); every other arm has them all on."""
    import hybrid.skeleton.from_precedents as from_precedents
    import hybrid.text.settle as settle
    from hybrid.precedents.library import Library

    _switch(Library, "deal_kind", arm != "no-kind", lambda self, *a, **k: {})
    _switch(from_precedents, "absent_types", arm != "no-absent", lambda *a, **k: frozenset())
    _switch(settle, "NAME_HOLES_GO", arm != "keep-names", False)


def _arm_passes(arm: str) -> set[str]:
    """The text passes an arm switches off by name (hybrid.text.pipeline; `hybrid passes` lists them): no-settle
    the start phase's settling (the text as adapted), no-repair the paragraph repairs, no-absent the removal of
    sentences leaning on a clause the draft lacks."""
    from hybrid.text.pipeline import FIT, phase

    return {"no-settle": set(phase("start", "page_legend", FIT)), "no-repair": {"paragraphs", "relist"},
            "no-absent": {"absent_clause"}}.get(arm, set())


def leaning_sentences(sections, deal_text: str) -> list[str]:
    """The sentences of a finished draft that lean on a clause it does not have (hybrid.common.topics: a phrase
    of an absent clause type, or a right to end the agreement at will outside its term section)."""
    clauses = [s["clause"] for s in sections]
    lacks = absent_types(clauses, deal_text)
    has_term = bool(TERM_CLAUSES & set(clauses))
    out = []
    for sec in sections:
        body = sec["body"]
        bounds = [0, *[b for b in sentence_boundaries(body) if 0 < b < len(body)], len(body)]
        for a, b in zip(bounds, bounds[1:]):
            x = body[a:b].strip()
            at_will = has_term and sec["clause"] not in TERM_CLAUSES and convenience_termination(x)
            if x and (absent_mentions(x, lacks) or at_will):
                out.append(f"{sec['heading']}: {x[:160]}")
    return out


def _written(redline, template_id: str, frame_words: int) -> list[str]:
    """What a reader sees where the model wrote words of its own: "template: ...words before [written] after..."
    for each insert of a section's redline against its source (the frame sentence's words aside: it opens the
    section)."""
    out = []
    for i, (op, words) in enumerate(redline):
        if op != "insert" or not words.split() or (i == 0 and frame_words):
            continue
        before = next((" ".join(w.split()[-6:]) for o, w in reversed(redline[:i]) if o == "equal" and w.split()), "")
        after = next((" ".join(w.split()[:4]) for o, w in redline[i + 1 :] if o == "equal" and w.split()), "")
        out.append(f"{template_id}: ...{before} [{' '.join(words.split())}] {after}...")
    return out


def count(drafter, t, drafts, tot, examples):
    index = {p.id: p for p in drafter.precedent_library().precedents}
    own = {d.upper() for d in [t.doc_type, *t.grounding.get("doc_types", [])]}
    written = []  # what the model wrote in these drafts: two of each template and seed are listed
    for d in drafts:
        bodies = [s["body"] for s in d.sections]
        skeleton = t.render_skeleton(d.outline, d.fields)  # rendered once: its spans and its deal text
        spans = skeleton.spans
        spans = spans if len(spans) == len(d.sections) else [None] * len(d.sections)
        r = reading_checks(bodies, len(bodies))
        leaning = leaning_sentences(d.sections, skeleton.deal_text)
        tot["absent_clause_sentences"] += len(leaning)
        tot["absent_examples"] += leaning[: max(0, 20 - len(tot["absent_examples"]))]
        removed = (d.consistency.get("totals") or {}).get("absent_clause_sentences_removed", 0)
        tot["absent_clause_sentences_removed"] += removed
        ff = draft_foreign_facts(t, d.fields, bodies, d.source_facts)
        for sec, span in zip(d.sections, spans):
            types = {index[c["id"]].clause_type for c in sec.get("precedents", []) if c.get("id") in index}
            if types - {sec["clause"]}:
                tot["type_mismatches"] += 1
                examples.append(f"{sec['heading']}: from {sorted(types)}")
            cited = [index[c["id"]] for c in sec.get("precedents", []) if c.get("id") in index]
            if any(p.doc_type.upper() not in own and p.source not in STANDARD_SOURCES for p in cited):
                tot["other_kind_sources"] += 1
            terms = list(span.required_terms) if span else []
            tot["required_terms"] += len(terms)
            tot["required_terms_stated"] += sum(term in sec["body"] for term in terms)
            if sec.get("start_text"):
                frame = len(span.frame.split()) if span and span.frame else 0
                redline = word_redline(sec["start_text"].lower(), sec["body"].lower())  # the examples a reader sees
                ins = written_words(sec["start_text"], sec["body"])  # the count: a flat word diff
                tot["model_words"] += max(ins - frame, 0)
                written += _written(redline, t.id, frame)
        for k in ("mid_sentence_endings", "broken_paragraphs", "dangling_references", "doubled_words", "words"):
            tot[k] += r[k]
        # what a reader sees where a reference points nowhere (listed only where reading_checks counted one)
        for ref in dangling_references(bodies, len(bodies)) if r["dangling_references"] else ():
            if len(tot["dangling_examples"]) < 20:
                body = bodies[ref["section"] - 1]
                at = body.find(ref["text"])
                tot["dangling_examples"].append(
                    f"{t.id} {d.sections[ref['section'] - 1]['heading']}: ...{body[max(at - 80, 0):at + 80]}..."
                )
        for sec in d.sections:  # what a reader sees where a clause stops mid-sentence
            if ends_mid_sentence(sec["body"]) and len(tot["mid_sentence_examples"]) < 20:
                tot["mid_sentence_examples"].append(f"{t.id} {sec['heading']}: ...{sec['body'].rstrip()[-120:]}")
            for fault in paragraph_faults(sec["body"]) if r["broken_paragraphs"] else ():
                if len(tot["paragraph_examples"]) < 20:
                    tot["paragraph_examples"].append(f"{t.id} {sec['heading']}: {fault['kind']}: {fault['text']}")
        tot["foreign_facts"] += len(ff)
        tot["sections"] += len(bodies)
        tot["drafts"] += 1
        if len(examples) < 40:
            examples += [f"foreign: {f['text']}" for f in ff][:2]
    tot["model_examples"] += written[:: max(1, len(written) // 2)][:2]


def summarize(tot: dict) -> dict:
    w = max(tot["words"], 1)
    return {
        **{k: tot[k] for k in COUNTS},
        "doubled_per_1000_words": round(1000 * tot["doubled_words"] / w, 3),
        "foreign_per_1000_words": round(1000 * tot["foreign_facts"] / w, 3),
        "model_words_per_1000_words": round(1000 * tot["model_words"] / w, 2),
        "required_terms_share": round(tot["required_terms_stated"] / max(tot["required_terms"], 1), 4),
        "seconds": round(tot["seconds"], 1),
        "seconds_per_draft_call": round(tot["seconds"] / max(tot["calls"], 1), 2),
        "examples": tot["examples"][:40],
        "mid_sentence_examples": tot["mid_sentence_examples"],
        "dangling_examples": tot["dangling_examples"],
        "paragraph_examples": tot["paragraph_examples"],
        "absent_examples": tot["absent_examples"],
        "model_examples": tot["model_examples"],
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", default="7,8,9")
    ap.add_argument("--n", type=int, default=4)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--arms", default=",".join(ARMS), help=f"comma-separated, of {', '.join(ARMS)}")
    ap.add_argument(
        "--templates",
        default="",
        help="comma-separated ids or paths (default: every shipped template and the user template without frames)",
    )
    ap.add_argument("--without-pass", default="", metavar="NAMES",
                    help="comma-separated text passes (`hybrid passes`) switched off in every arm")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    set_threads(args.threads)
    from hybrid import Drafter

    arms = [a.strip() for a in args.arms.split(",") if a.strip()]
    if unknown := [a for a in arms if a not in ARMS]:
        ap.error(f"--arms: unknown {unknown}; valid: {', '.join(ARMS)}")
    seeds = [int(s) for s in args.seeds.split(",")]
    drafter = Drafter.from_pretrained()
    ids = (
        args.templates.split(",")
        if args.templates
        else [*sorted(p.stem for p in TEMPLATES_DIR.glob("*.json")), str(USER_TEMPLATE)]
    )
    totals = {
        a: {**dict.fromkeys(COUNTS, 0), "seconds": 0.0, "calls": 0, "examples": [], "mid_sentence_examples": [],
            "paragraph_examples": [], "dangling_examples": [], "absent_examples": [], "model_examples": []}
        for a in arms
    }
    warm = load_template(ids[0])
    drafter.draft(warm, warm.example, n=1, seed=0)  # untimed: loading the library and the model is no arm's cost
    for tid in ids:
        t = load_template(tid)
        for seed in seeds:
            for arm in arms:
                _arm_switches(arm)
                t0 = time.perf_counter()
                with without(_arm_passes(arm) | set(filter(None, args.without_pass.split(",")))):
                    drafts = drafter.draft(t, t.example, n=args.n, seed=seed, **ARMS[arm])
                totals[arm]["seconds"] += time.perf_counter() - t0
                totals[arm]["calls"] += 1
                count(drafter, t, drafts, totals[arm], totals[arm]["examples"])
        print(f"{t.id}: done", file=sys.stderr, flush=True)
    _arm_switches("default")
    out = {
        "benchmark": "reading",
        **machine(),
        "templates": [load_template(i).id for i in ids],
        "seeds": seeds,
        "n": args.n,
        "arms": {a: summarize(tot) for a, tot in totals.items()},
        "command": "python benchmarks/reading.py " + " ".join(argv if argv is not None else sys.argv[1:]),
    }
    if "noise-0.25" in totals and "default" in totals:
        out["time_ratio_default_vs_noise"] = round(
            totals["default"]["seconds"] / max(totals["noise-0.25"]["seconds"], 1e-9), 3
        )
    line = json.dumps(out)
    print(line)
    if args.out:
        Path(args.out).write_text(line + "\n")


if __name__ == "__main__":
    main()
