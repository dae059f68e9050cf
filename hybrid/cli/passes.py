"""`hybrid passes`: the text pipeline (hybrid.text.pipeline.PIPELINE), every pass in the order it runs, with its
phase and one-line contract; --json for tools, --examples for each pass's worked examples.

Owns this subcommand's arguments and output only.
"""

import json

__all__ = ["add_parsers", "pipeline_rows", "render"]


def pipeline_rows() -> list[dict]:
    """One row per place in the pipeline: {"phase", "step", "name", "contract", "examples"}."""
    import hybrid.draft.consistency  # noqa: F401  (registers the revise and whole passes, the phases it runs)
    import hybrid.text.start_passes  # noqa: F401  (registers the start passes)
    from hybrid.text.passes import registered
    from hybrid.text.pipeline import PIPELINE

    passes = registered()
    return [{"phase": phase, "step": i, "name": name, "contract": passes[name].contract,
             "examples": [list(ex[:2]) for ex in passes[name].examples]}
            for phase, names in PIPELINE.items() for i, name in enumerate(names, 1)]


def render(rows: list[dict], examples: bool = False) -> str:
    """The pipeline as `hybrid passes` prints it (and docs/ARCHITECTURE.md shows it): each phase, then its passes
    numbered in order with their contracts."""
    lines, phase = [], None
    for r in rows:
        if r["phase"] != phase:
            phase = r["phase"]
            lines.append(f"{phase}:")
        lines.append(f"  {r['step']:>2}. {r['name']:<18} {r['contract']}")
        for before, after in r["examples"] if examples else ():
            lines += [f"        {before!r}", f"     -> {after!r}"]
    return "\n".join(lines)


def _cmd_passes(args) -> int:
    rows = pipeline_rows()
    if args.phase:
        rows = [r for r in rows if r["phase"] == args.phase]
    if args.json:
        print(json.dumps(rows if args.examples else [{k: v for k, v in r.items() if k != "examples"} for r in rows],
                         ensure_ascii=False))
    else:
        print(render(rows, args.examples))
    return 0


def add_parsers(sub) -> None:
    from hybrid.text.pipeline import PIPELINE

    p = sub.add_parser(
        "passes",
        help="list the text passes a draft goes through, in order",
        description="List every text pass of the drafting pipeline in the order it runs: the start phase (what an "
                    "edit keeps of a precedent adapted to the deal), the revise phase (each finished section) and "
                    "the whole phase (every section at once). Benchmarks switch a pass off by the name shown here.",
    )
    p.add_argument("--phase", choices=list(PIPELINE), help="only this phase's passes")
    p.add_argument("--examples", action="store_true", help="each pass's worked examples (text before and after)")
    p.add_argument("--json", action="store_true", help="one JSON array of {phase, step, name, contract}")
    p.set_defaults(func=_cmd_passes)
