"""`hybrid ...` command line: a thin map from subcommand to the Python API.

Owns: argument parsing, exit codes and output streams only. Results go to stdout (one JSON
object with --json), progress and messages to stderr. Any HybridError exits 2 with a one-line
message and no traceback.
"""

import argparse
import json
import sys
from pathlib import Path

from hybrid.common.config import SHIPPED_CHECKPOINT
from hybrid.common.errors import HybridError
from hybrid.common.options import add_threads, int_range, set_threads
from hybrid.data.corpus import SPLITS

__all__ = ["main", "build_parser", "DEFAULT_CHECKPOINT"]

DEFAULT_CHECKPOINT = SHIPPED_CHECKPOINT  # the shipped model (hybrid.common.config)


def _cmd_train(args) -> int:
    from hybrid.common.config import TrainConfig
    from hybrid.train.loop import train

    overrides = {k: v for k, v in vars(args).items() if k in TrainConfig.field_names() and v is not None}
    record = train(TrainConfig(**overrides), resume=args.resume)
    if args.json:
        print(
            json.dumps(
                {k: record.get(k) for k in ("step", "tokens_seen", "wall_seconds", "tokens_per_second", "params")}
            )
        )
    return 0


def _cmd_eval_bpb(args) -> int:
    import torch

    from hybrid.data.corpus import load_documents
    from hybrid.model.resolve import resolve
    from hybrid.rank.bpb import corpus_bpb
    from hybrid.rank.likelihood import trained_window

    model, tok, record = resolve(args.checkpoint)  # one of our checkpoints, a Llama dir or a fetched base name
    docs = load_documents(args.corpus, splits=(args.split,))
    if args.limit:
        docs = docs[: args.limit]
    device = "cuda" if torch.cuda.is_available() and not args.cpu else "cpu"
    result = corpus_bpb(
        model.to(device),
        tok,
        docs,
        draws=args.draws,
        length=trained_window(record)["window"],
        device=device,
        fill=not record.get("zero_shot"),
    )  # a zero-shot base has no fill training
    result = {"split": args.split, "checkpoint": str(args.checkpoint), **result}
    print(json.dumps(result) if args.json else "\n".join(f"{k}: {v}" for k, v in result.items()))
    return 0


def _add_train(sub) -> None:
    from hybrid.common.config import TrainConfig

    p = sub.add_parser(
        "train",
        help="train the shared backbone (AR + masked diffusion) from scratch on the corpus",
        description="Train one backbone on the train split with the joint AR + MDLM objective. "
        "Writes an atomic, resumable checkpoint with its tokenizer, config and training record to --out. "
        "Multi-GPU: `accelerate launch -m hybrid train ...`.",
    )
    defaults, helps, ranges = TrainConfig(), TrainConfig.field_help(), TrainConfig.ranges()
    for name in TrainConfig.field_names():
        default = getattr(defaults, name)
        kind = ranges.get(name) or (type(default) if default is not None else str)
        p.add_argument(
            f"--{name.replace('_', '-')}",
            dest=name,
            type=kind,
            default=None,
            help=f"{helps.get(name, '')} (default: {default})".replace("%", "%%"),
        )
    p.add_argument(
        "--resume", action="store_true", help="continue the checkpoint in --out (step, optimizer, scheduler, RNG)"
    )
    p.add_argument("--json", action="store_true", help="print a JSON summary on stdout")
    p.set_defaults(func=_cmd_train)


def _add_eval(sub, with_run: bool = True) -> None:
    p = sub.add_parser(
        "eval",
        help="offline evaluation: `eval bpb` (bits per byte) and `eval run` (drafting systems side by side)",
        description="Offline evaluation. `hybrid eval bpb`: bits per byte of a checkpoint on a corpus split. "
        "`hybrid eval run`: draft the held-out contracts with each system and score them (see `hybrid eval run -h`).",
    )
    esub = p.add_subparsers(dest="eval_command", required=True)
    b = esub.add_parser(
        "bpb",
        help="bits per byte of a checkpoint on a corpus split (AR and diffusion ELBO)",
        description="ar_bpb: causal NLL of whole documents; fill_bpb: MDLM ELBO of clause bodies with the "
        "skeleton visible, averaged over seeded noise draws. Both in bits per UTF-8 byte.",
    )
    b.add_argument(
        "--checkpoint",
        type=Path,
        default=DEFAULT_CHECKPOINT,
        help="checkpoint dir, a Llama checkpoint dir or a fetched base name such as smollm2-135m (default: the shipped "
             "model)",
    )
    b.add_argument("--split", choices=SPLITS, default="test", help="corpus split (default: test)")
    b.add_argument("--corpus", default=None, help="corpus root (default: $HYBRID_CORPUS or ../shared/corpus)")
    b.add_argument(
        "--draws", type=int_range(1, 1024), default=4, help="noise draws averaged for fill_bpb, 1-1024 (default: 4)"
    )
    b.add_argument(
        "--limit",
        "--limit-docs",
        dest="limit",
        type=int_range(0, None),
        default=0,
        help="only the first N documents (0 = all)",
    )
    add_threads(b)
    b.add_argument("--cpu", action="store_true", help="stay on CPU even when CUDA is available")
    b.add_argument("--json", action="store_true", help="one JSON line on stdout")
    b.set_defaults(func=_cmd_eval_bpb)
    if not with_run:  # the harness is imported only for `hybrid eval ...`
        return
    try:  # `hybrid eval run` lives in the evals/ harness at the repo root; absent when evals/ is not importable
        from evals.cli import add_eval_run
    except ModuleNotFoundError as e:
        # "evals.cli": a tests/evals/ dir on sys.path shadows it as a namespace package
        if e.name not in ("evals", "evals.cli"):
            raise
    else:
        add_eval_run(esub)


class _Parser(argparse.ArgumentParser):
    """A usage error is one line on stderr, like a HybridError: `hybrid: error: argument -n: must be ..., got '0'`
    (subcommand parsers inherit this class)."""

    def error(self, message):
        self.exit(2, f"hybrid: error: {message} (see `{self.prog} -h`)\n")


def build_parser(argv=None) -> argparse.ArgumentParser:
    """The whole CLI. `argv` (the arguments about to be parsed) lets `eval run` and its harness be
    imported only when the command is `eval` (None: build everything)."""
    from hybrid.cli.draft import add_parsers as add_draft_parsers
    from hybrid.cli.library import add_parsers as add_library_parsers
    from hybrid.cli.model import add_parsers as add_model_parsers
    from hybrid.cli.passes import add_parsers as add_pass_parsers
    from hybrid.cli.plan import add_parsers as add_plan_parsers
    from hybrid.cli.precedents import add_parsers as add_precedent_parsers
    from hybrid.cli.serve import add_parsers as add_serve_parsers

    parser = _Parser(
        prog="hybrid",
        description="Draft contracts: a JSON-Schema-constrained planner, a masked-diffusion filler and a reranker on "
                    "one small transformer.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    _add_train(sub)
    _add_eval(sub, with_run=argv is None or list(argv)[:1] == ["eval"])
    add_plan_parsers(sub)
    add_draft_parsers(sub)
    add_precedent_parsers(sub)
    add_model_parsers(sub)
    add_serve_parsers(sub)
    add_library_parsers(sub)
    add_pass_parsers(sub)
    return parser


MAX_MESSAGE = 1000
"""Characters of an error line: messages cut what they echo themselves (hybrid.common.textsafe.shown); this
is the last bound, so that no input, however large, makes a large error line."""


def _one_line(message: str) -> str:
    return message if len(message) <= MAX_MESSAGE else f"{message[:MAX_MESSAGE]}... ({len(message)} characters)"


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv)
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # --help (0) or a usage error (2, its one line already printed)
        return e.code
    set_threads(getattr(args, "threads", None))
    try:
        return args.func(args)
    except HybridError as e:
        from hybrid.draft.request import RequestValueError, option_message

        said = option_message(e) if isinstance(e, RequestValueError) else str(e)  # a field named by its option
        print(f"hybrid: error: {_one_line(said)}", file=sys.stderr)
        return e.exit_code
    except KeyboardInterrupt:
        print("hybrid: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
