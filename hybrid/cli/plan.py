"""`hybrid templates` and `hybrid plan`: thin command-line maps over hybrid.templates.template and hybrid.plan.planner.

Owns: these two subcommands' arguments and output only. `add_parsers(subparsers)` is wired into
hybrid/cli/main.py, which turns any HybridError into exit code 2 with a one-line message.
"""

import json
import sys
from pathlib import Path

from hybrid.common.errors import FieldError
from hybrid.common.jsonl import JSONInputError, strict_json
from hybrid.common.options import SEED, add_threads, float_range, int_range

__all__ = [
    "add_parsers",
    "add_template_arguments",
    "args_fields",
    "collect_fields",
    "parse_field_args",
    "read_fields_file",
    "FIELDS_ORDER",
]

FIELDS_ORDER = "Fields: --example starts from the template's example, then --fields-file, then --field NAME=VALUE."
"""collect_fields' merge order, as the --help of a command with add_template_arguments says it."""


def parse_field_args(pairs: list[str]) -> dict[str, str]:
    """["k=v", ...] -> {k: v}; a pair without "=" is a FieldError naming it."""
    out = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise FieldError(f"--field expects NAME=VALUE, got {pair!r}.")
        out[key.strip()] = value
    return out


def read_fields_file(path) -> dict:
    """A JSON object of fields from a file (hybrid.common.jsonl.strict_json: no key twice, not nested deep;
    NaN is left for the field's own check, which names it); FieldError names the file and the problem."""
    p = Path(path)
    try:
        data = strict_json(p.read_text(encoding="utf-8"), allow_nan=True)
    except (OSError, ValueError) as e:  # ValueError: a NUL in the path
        if isinstance(e, JSONInputError):
            raise FieldError(f"fields file {p} is not valid JSON: {e}") from None
        if isinstance(e, UnicodeDecodeError):
            raise FieldError(
                f"fields file {p} is not valid JSON: not UTF-8 text ({e.reason} at byte {e.start})"
            ) from None
        raise FieldError(f"cannot read fields file {p}: {getattr(e, 'strerror', None) or e}") from None
    if not isinstance(data, dict):
        raise FieldError(f"fields file {p} must hold a JSON object of name -> value, got {type(data).__name__}.")
    return data


def collect_fields(template, *, field_args=None, fields_file=None, example=False) -> dict:
    """Merge, lowest precedence first: the template's example (--example), --fields-file, --field."""
    fields = dict(template.example) if example else {}
    if fields_file:
        fields.update(read_fields_file(fields_file))
    fields.update(template.coerce_field_strings(parse_field_args(field_args)))
    return template.validate_fields(fields)


def add_template_arguments(p) -> None:
    """The template and its fields (`hybrid plan`, `hybrid draft`): read by args_fields."""
    p.add_argument("template", help="a template id (see `hybrid templates`) or a path to a template JSON file")
    p.add_argument("--field", action="append", default=[], metavar="NAME=VALUE", help="one field value (repeatable)")
    p.add_argument("--fields-file", metavar="FILE", help="a JSON object of fields")
    p.add_argument("--example", action="store_true", help="start from the template's example fields")


def args_fields(template, args) -> dict:
    """collect_fields of the arguments add_template_arguments added."""
    return collect_fields(template, field_args=args.field, fields_file=args.fields_file, example=args.example)


def _cmd_templates(args) -> int:
    from hybrid.templates.template import list_templates

    rows = [t.summary() for t in list_templates()]
    if args.json:
        print(json.dumps(rows, ensure_ascii=False))
    else:
        width = max(len(r["id"]) for r in rows)
        for r in rows:
            print(
                f"{r['id']:<{width}}  {r['title']}\n{'':<{width}}  path: {r['path']}\n"
                f"{'':<{width}}  required: {', '.join(r['required_fields'])}"
            )
    return 0


def _cmd_plan(args) -> int:
    import torch

    from hybrid.common.sampling import SamplingParams
    from hybrid.model.checkpoint import load_checkpoint
    from hybrid.plan.planner import Planner
    from hybrid.templates.template import load_template

    template = load_template(args.template)
    fields = args_fields(template, args)
    params = SamplingParams(temperature=args.temperature, top_p=args.top_p, top_k=args.top_k)
    if args.checkpoint is None:
        from hybrid.common.config import SHIPPED_CHECKPOINT

        args.checkpoint = SHIPPED_CHECKPOINT
    model, tok, _ = load_checkpoint(args.checkpoint)
    if torch.cuda.is_available() and not args.cpu:
        model = model.to("cuda")
    print(f"planning {template.id} (seed {args.seed}) ...", file=sys.stderr)
    result = Planner(model, tok).plan(template, fields, seed=args.seed, params=params, max_tokens=args.max_tokens)
    if args.json:
        print(
            json.dumps(
                {"template": template.id, "fields": fields, "seed": args.seed, **result.to_dict()}, ensure_ascii=False
            )
        )
    else:
        print(result.outline["title"])
        for i, s in enumerate(result.outline["sections"], 1):
            print(f"{i:>3}. {s['heading']}  [{s['clause']}]")
        print(f"{len(result.tokens)} tokens ({result.forced_tokens} forced) in {result.seconds:.2f} s", file=sys.stderr)
    return 0


def add_parsers(subparsers) -> None:
    t = subparsers.add_parser("templates", help="list the contract templates",
                              description="List template ids, titles, file paths and required fields.")
    t.add_argument("--json", action="store_true", help="print a JSON list on stdout")
    t.set_defaults(func=_cmd_templates)

    p = subparsers.add_parser(
        "plan",
        help="write an outline for a template (constrained planner)",
        description="Decode an outline with the planner under the template's outline JSON Schema. " + FIELDS_ORDER,
    )
    add_template_arguments(p)
    p.add_argument("--seed", type=SEED, default=0, help="random seed, 0 .. 2^64-1 (default: 0)")
    p.add_argument("--temperature", type=float_range(0), default=0.8, help="0 = greedy (default: 0.8)")
    p.add_argument(
        "--top-p", type=float_range(0, 1, lo_open=True), default=0.95, help="nucleus mass in (0, 1] (default: 0.95)"
    )
    p.add_argument(
        "--top-k", type=int_range(0, 1 << 20), default=0, help="keep the k best tokens; 0 = off (default: 0)"
    )
    p.add_argument("--max-tokens", type=int_range(1, 4096), default=2048,
                   help="outline token limit, 1-4096: the model's positions (default: 2048)")
    p.add_argument("--checkpoint", type=Path, default=None, help="checkpoint dir (default: the shipped model)")
    p.add_argument("--cpu", action="store_true", help="stay on CPU even when CUDA is available")
    add_threads(p)
    p.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    p.set_defaults(func=_cmd_plan)
