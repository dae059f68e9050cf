"""`hybrid draft` and `hybrid rank`: thin command-line maps over hybrid.draft.drafter and hybrid.rank.rerank.

Owns: these two subcommands' arguments, the checks of `hybrid draft`'s input and `hybrid rank` with its
stdout. `add_parsers(subparsers)` is wired into hybrid/cli/main.py, which turns any HybridError into exit
code 2 with a one-line message. The draft itself runs in hybrid.cli.draft_run; the output directory (one
file per draft, rank in the name, plus drafts.json; written atomically) is hybrid.cli.draft_output's.

Every input is checked before the model is loaded and before anything is written, so a bad
argument exits 2 with nothing on disk: the drafting options once, by the DraftRequest they make
(draft_request; argparse only parses their numbers), the output options here.
"""

import argparse
import json
import sys
from pathlib import Path

from hybrid.cli.draft_output import (
    FORMATS,
    check_out_dir,
    default_out,
    draft_names,
    previous_set,  # noqa: F401 (re-exported)
)
from hybrid.cli.plan import FIELDS_ORDER, add_template_arguments, args_fields
from hybrid.common.errors import FieldError, OutputError, SamplingError
from hybrid.common.jsonl import json_lines
from hybrid.common.options import COMMIT_RULES, MAX_VARIANTS, add_threads, integer, number, out_dir
from hybrid.common.outdir import OutputLock, pending_commit, recover

__all__ = ["add_parsers", "draft_request", "read_candidates", "check_out_dir", "FORMATS"]


def _cmd_draft(args) -> int:
    # every check before loading the model or writing anything
    if args.redline and args.format != "docx":
        raise OutputError(f"--redline writes each clause as tracked changes in Word: it needs --format docx, got "
                          f"--format {args.format}.")
    request = draft_request(args)
    from hybrid.precedents.user_store import SHIPPED

    library = None
    if args.library not in (None, SHIPPED):  # an unknown or damaged one fails here, before the model loads
        from hybrid.precedents.user import drafting_library

        library = drafting_library(args.library)
    out = Path(args.out) if args.out is not None else default_out(request.template.id)
    names = draft_names(request.n, args.format)
    recovered = False
    if pending_commit(out):  # an interrupted commit is completed before anything looks at the directory
        with OutputLock(out):
            recovered = _recover(out)
    check_out_dir(out, args.force, names, recovered)  # fails in milliseconds, before the model loads
    with OutputLock(out):
        recovered = _recover(out) or recovered
        check_out_dir(out, args.force, names, recovered)  # again, now that no other run can write here
        from hybrid.cli.draft_run import draft_into

        return draft_into(out, args, request, library)


def draft_request(args):
    """The DraftRequest of `hybrid draft`'s options (the one place they are checked); its errors name the
    options (hybrid.draft.request.option_message: `argument -n: must be ...`)."""
    from hybrid.draft.request import DraftRequest, RequestValueError, option_message
    from hybrid.templates.template import load_template

    template = load_template(args.template)
    given = bool(args.field or args.fields_file or args.example)
    fields = args_fields(template, args) if given else {}
    sampling = {k: v for k, v in (("temperature", args.temperature), ("top_p", args.top_p)) if v is not None}
    try:
        request = DraftRequest(
            template, fields, n=args.n, seed=args.seed, steps=args.steps, guidance=args.guidance, sampling=sampling,
            precedents=args.precedents, precedent_guidance=args.precedent_guidance,
            precedent_start=args.precedent_start, filler=args.filler, commit=args.commit, threads=args.threads,
            base=args.base, base_doc=args.base_doc,
        )
    except RequestValueError as e:
        raise SamplingError(option_message(e)) from None
    except FieldError:
        if given:
            raise
        request = None
    if not given:  # after the options' checks, as argparse checked them before
        raise FieldError(
            f"no fields given for template {template.id!r}: pass --field NAME=VALUE (repeatable), --fields-file FILE "
            f"or --example (required: {', '.join(template.required_fields)})."
        )
    return request


def _recover(out: Path) -> bool:
    if recover(out):
        print(f"completed an interrupted write in {out}", file=sys.stderr)
        return True
    return False


def read_candidates(path) -> list[str]:
    """Texts from a JSON Lines file of {"text": ...} objects; FieldError names the file and line."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise FieldError(f"cannot read --candidates file {p}: {getattr(e, 'strerror', None) or e}") from None
    texts = []
    for i, row, line in json_lines(
        text, lambda i, msg: FieldError(f"--candidates {p} line {i} is not valid JSON: {msg}")
    ):
        if not isinstance(row, dict) or not isinstance(row.get("text"), str):
            raise FieldError(f"--candidates {p} line {i} must be an object with a string \"text\", got {line[:80]!r}.")
        if not row["text"].strip():
            raise FieldError(f"--candidates {p} line {i} has an empty \"text\"; every candidate needs words to score.")
        texts.append(row["text"])
    if not texts:
        raise FieldError(f"--candidates {p} holds no candidates (one {{\"text\": ...}} object per line).")
    return texts


def _score_label(relevance) -> dict:
    """What Reranker.score computes, for `rank --json`: hybrid.precedents.relevance's weighted features (each row's
    "scores")."""
    return {"metric": "relevance", "formula": relevance.weights.formula(relevance.shortlist)}


def _breakdown(args, texts: list[str]) -> tuple:
    """(the relevance scorer, Reranker.score_breakdown's rows). The backbone is loaded only where the scorer weighs
    its PMI (the default does not): the same rows, without seconds of checkpoint loading."""
    from hybrid.precedents.relevance import RelevanceScorer

    relevance = RelevanceScorer()
    if not relevance.weights.pmi:
        return relevance, relevance.breakdown(args.spec, texts)
    from hybrid.draft.drafter import load_model
    from hybrid.rank.rerank import Reranker

    model, tok, _, _ = load_model(args.checkpoint, device="cpu" if args.cpu else None)
    return relevance, Reranker(model, tok, relevance=relevance).score_breakdown(args.spec, texts)


def _cmd_rank(args) -> int:
    if not args.spec.strip().rstrip(".:"):
        raise FieldError("--spec must be a non-empty clause heading or description.")
    texts = read_candidates(args.candidates)
    relevance, parts = _breakdown(args, texts)
    scores = [p.pop("score") for p in parts]
    order = sorted(range(len(texts)), key=lambda i: (-scores[i], i))
    rows = [
        {"rank": r, "index": i, "score": scores[i], "scores": parts[i], "text": texts[i]}
        for r, i in enumerate(order, 1)
    ]
    if args.json:
        print(json.dumps({"spec": args.spec, **_score_label(relevance), "candidates": rows}, ensure_ascii=False))
    else:
        for row in rows:
            text = " ".join(row["text"].split())
            print(
                f"{row['rank']:>3}  {row['score']:+.4f}  #{row['index']:<3} "
                f"{text[:70]}{'...' if len(text) > 70 else ''}"
            )
    return 0


class _FillerDefaultsHelp(argparse.HelpFormatter):
    """Appends the filler's --steps/--guidance defaults, read from hybrid.fill.diffusion.sampler only when help
    is printed: importing it loads torch (~1 s), which parsing a command line must not pay."""

    def _get_help_string(self, action):
        if action.dest not in ("steps", "guidance"):
            return action.help
        from hybrid.fill.diffusion.sampler import DEFAULT_GUIDANCE, DEFAULT_STEPS

        return f"{action.help} (default: {DEFAULT_STEPS if action.dest == 'steps' else DEFAULT_GUIDANCE:g})"




def add_parsers(subparsers) -> None:
    _add_draft_parser(subparsers)
    _add_rank_parser(subparsers)


def _add_draft_parser(subparsers) -> None:
    d = subparsers.add_parser(
        "draft",
        help="draft N ranked variants of a contract (plan -> diffusion fill -> rerank)",
        formatter_class=_FillerDefaultsHelp,
        description="Plan an outline, fill every clause of N variants in parallel with the diffusion filler, rank "
        "them, and write one file per draft (rank in the name) plus drafts.json to --out. By default each variant's "
        "clause starts as a train-split precedent of its own, adapted to the deal: only what the deal needs changes "
        "(its facts in, the precedent's own facts and references out) and the filler writes those holes "
        "(--precedent-start T also rewrites a share T of the other words; --precedents 0: from scratch). "
        + FIELDS_ORDER,
    )
    add_template_arguments(d)
    d.add_argument(
        "-n", type=integer, default=4, help=f"number of drafts, 1-{MAX_VARIANTS} (default: 4)"
    )
    d.add_argument("--steps", type=integer, default=None, help="denoising steps K, 1-65536")
    d.add_argument(
        "--guidance",
        type=number,
        default=None,
        help="classifier-free guidance on the heading, logits = uncond + w (cond - uncond), w >= 0: 1 = off, > 1 "
             "follows the heading more, 0 = unconditional",
    )
    from hybrid.cli.precedents import add_draft_arguments

    add_draft_arguments(d)
    d.add_argument("--library", default=None, metavar="NAME",
                   help="draft from your own precedents first (`hybrid library add DIR --name NAME`); clause types "
                   "it lacks come from the shipped library ('shipped': the shipped library alone, the default)")
    d.add_argument("--seed", type=integer, default=0,
                   help="random seed, 0 .. 2^64-1; same seed, same drafts (default: 0)")
    d.add_argument("--temperature", type=number, default=None, help="0 = greedy (default: 0.8)")
    d.add_argument("--top-p", type=number, default=None, help="nucleus mass in (0, 1] (default: 0.95)")
    _add_output_arguments(d)
    _add_model_arguments(d)
    add_threads(d)
    d.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    d.set_defaults(func=_cmd_draft)


def _add_output_arguments(d) -> None:
    """`hybrid draft`'s --headings, --format, --redline, --out and --force: what the drafts' files hold, and where."""
    d.add_argument("--headings", choices=("template", "planned"), default="template",
                   help="title and section headings from the template's defaults for the planned clauses (default), "
                        "or the planner's own words")
    d.add_argument("--format", choices=FORMATS, default="md", help="draft file format (default: md; sources: "
                   "footnotes in md, Word comments in docx)")
    d.add_argument("--redline", action="store_true",
                   help="with --format docx: each clause drafted from precedent as dated tracked changes against "
                   "the precedent's own words (a section the engine composed says so in its comment)")
    d.add_argument(
        "--out", metavar="DIR", type=out_dir, default=None, help="output directory (default: drafts/<template>-<time>)"
    )
    d.add_argument("--force", action="store_true", help="write into a non-empty --out (replaces earlier draft files)")
    d.add_argument("--base", action=argparse.BooleanOptionalAction, default=None,
                   help="draft each variant from one whole base document of the template's kind (a standard form "
                   "first), adapted to the deal, with the clauses real contracts of the kind hold inserted where it "
                   "lacks them (default: on when editing precedents); --no-base assembles each section from its own "
                   "precedent")
    d.add_argument("--base-doc", metavar="DOC", default=None,
                   help="start every variant from this base document of the template's kind: its library id or a "
                   "part of one that names one candidate ('Reynolds'); the variants then differ by alternative "
                   "clauses. A name that fits none or several lists the candidates, best fit first (default: the "
                   "engine's choice, shown per draft in drafts.json and the summary)")


def _add_model_arguments(d) -> None:
    """`hybrid draft`'s --checkpoint, --filler, --commit and --cpu: the model, the filler that drafts with it, where."""
    d.add_argument(
        "--checkpoint",
        "--model",
        dest="checkpoint",
        type=Path,
        default=None,
        help="checkpoint dir, Llama checkpoint dir or fetched base name such as smollm2-135m (default: the shipped "
             "model)",
    )
    d.add_argument(
        "--filler",
        choices=("diffusion", "ar", "ar-batched"),
        default="diffusion",
        help="diffusion: the parallel masked-diffusion filler; ar: left-to-right, clause after clause (a zero-shot "
        "pretrained base needs it); ar-batched: every clause left to right at once (fastest on CPU from scratch, see "
        "README; with --precedent-start it writes only the holes, the AR baseline of editing)",
    )
    d.add_argument(
        "--commit",
        choices=COMMIT_RULES,
        default="auto",
        help="which slots a diffusion step commits: confidence = the most confident ones on the schedule (plus "
        "those over the threshold); runs = the first open slot of every masked run at once, each hole of an "
        "edited precedent written left to right, all holes in parallel (~8 tokens per clause per step, see "
        "README); auto = runs with --precedent-start < 1, confidence otherwise (default: auto; --filler "
        "diffusion only)",
    )
    d.add_argument("--cpu", action="store_true", help="stay on CPU even when CUDA is available")


def _add_rank_parser(subparsers) -> None:
    r = subparsers.add_parser(
        "rank", help="rank candidate clause texts by their relevance to a clause spec (Reranker.score)",
        description="Score each candidate's relevance to the spec (a clause heading or short description) with the "
        "reranker's score; --json names what that score is (\"metric\", \"formula\"). "
        "Candidates: a JSON Lines file, one non-empty {\"text\": ...} object per line.",
    )
    r.add_argument("--spec", required=True, help="the clause heading or short description, e.g. 'Confidentiality'")
    r.add_argument("--candidates", required=True, metavar="FILE.jsonl", help="one {\"text\": ...} object per line")
    r.add_argument("--checkpoint", type=Path, default=None, help="checkpoint dir (default: the shipped model); "
                   "loaded only where the score weighs the backbone's PMI, which the default does not")
    r.add_argument("--cpu", action="store_true", help="keep the backbone on CPU even when CUDA is available")
    add_threads(r)
    r.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    r.set_defaults(func=_cmd_rank)
