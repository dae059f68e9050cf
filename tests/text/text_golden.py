"""Golden drafts of the text pipeline: what real drafts fed its phases, and what came out, byte for byte.

`capture(template, seed)` drafts the template's example deal with the shipped model and records, for the top
variant, every start-phase run (a precedent adapted to the deal -> the text the filler edits, before the fit) and
the consistency pass (the filled sections -> the revised bodies and their report), with the answers its reference
resolvers gave. `replay(record)` runs the same inputs through today's passes. The model is not replayed: these
goldens see every interaction between the text passes, on real drafts, without depending on the CPU's arithmetic.

Update deliberately, and read the diff first:
    .venv/bin/python tests/text/text_golden.py mutual-nda:7 supply:21 ...
"""

import json
import sys
from dataclasses import asdict
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent / "golden"


def _start_record(names, text, ctx, tables) -> dict:
    lower = None if ctx.lower is None else tables.setdefault(f"lower:{id(ctx.lower)}", sorted(ctx.lower))
    key = f"allowed:{hash(ctx.allowed)}"
    tables.setdefault(key, ctx.allowed)
    return {"names": list(names), "text": text, "deal": asdict(ctx.deal), "allowed": key,
            "own": list(ctx.own), "lower": None if lower is None else f"lower:{id(ctx.lower)}", "frame": ctx.frame,
            "heading": ctx.heading, "others": sorted(ctx.others), "whole": ctx.whole}


def _typed(answer):
    """A resolver's answer as JSON keeps it: an Exact or Headed answer (hybrid.text.reference_resolve) as
    {"exact": n} / {"headed": n}, which the resolution order tells apart from a plain section number."""
    from hybrid.text.reference_resolve import Exact, Headed

    if isinstance(answer, Exact):
        return {"exact": str(answer)}
    return {"headed": str(answer)} if isinstance(answer, Headed) else answer


def _untyped(answer):
    from hybrid.text.reference_resolve import Exact, Headed

    if isinstance(answer, dict):
        return Exact(answer["exact"]) if "exact" in answer else Headed(answer["headed"])
    return answer


def capture(template_id: str, seed: int) -> dict:
    """Draft `template_id`'s example at `seed` (n=1) and record what its text phases were given and gave back."""
    import hybrid.draft.revise as revise
    import hybrid.text.start as start
    from hybrid.common.options import set_threads
    from hybrid.draft.drafter import Drafter
    from hybrid.templates.template import load_template

    set_threads(1)
    tables, starts, passes = {}, [], []
    run, consistency = start.run, revise.consistency_pass

    def recording_run(names, text, ctx, trace=None):
        out = run(names, text, ctx, trace)
        if ctx.tokenizer is None:  # the memoized part: what the precedent and the deal alone decide
            starts.append({**_start_record(names, text, ctx, tables), "out": out[0]})
        return out

    def recording_pass(sections, *, preamble, resolve_ref=None, keep_definitions=(), resolve_title=None):
        refs, titles = {}, {}

        def ref(i, n):
            answer = resolve_ref(i, n) if resolve_ref else None
            refs.setdefault(f"{i}|{n}", _typed(answer))
            return answer

        def title(i, t):
            answer = resolve_title(i, t) if resolve_title else None
            titles.setdefault(f"{i}|{t}", _typed(answer))
            return answer

        bodies, report = consistency(sections, preamble=preamble, resolve_ref=ref, keep_definitions=keep_definitions,
                                     resolve_title=title)
        passes.append(json.loads(json.dumps({  # as returned: the caller adds to the report after
            "sections": sections, "preamble": preamble, "keep": list(keep_definitions), "refs": refs,
            "titles": titles, "bodies": bodies, "report": report})))
        return bodies, report

    start.run, revise.consistency_pass = recording_run, recording_pass
    try:
        template = load_template(template_id)
        Drafter.from_pretrained().draft(template, template.example, n=1, seed=seed)
    finally:
        start.run, revise.consistency_pass = run, consistency
    unique = list({json.dumps(s, sort_keys=True): s for s in starts}.values())
    return {"template": template_id, "seed": seed, "tables": tables, "starts": unique, "consistency": passes}


def replay(record: dict) -> dict:
    """The record's inputs through today's passes: {"starts": [out, ...], "consistency": [(bodies, report), ...]}."""
    import hybrid.text.start_passes  # noqa: F401  (registers the start passes)
    from hybrid.data.facts import DealFacts
    from hybrid.draft.consistency import consistency_pass
    from hybrid.text.context import StartContext
    from hybrid.text.passes import run
    from hybrid.text.pipeline import FIT, phase

    tables = record["tables"]
    lowers = {k: frozenset(v) for k, v in tables.items() if k.startswith("lower:")}
    starts = []
    for s in record["starts"]:
        deal = DealFacts(**{k: tuple(tuple(x) if isinstance(x, list) else x for x in v) if isinstance(v, list) else v
                            for k, v in s["deal"].items()})
        ctx = StartContext(deal, tables[s["allowed"]], tuple(s["own"]), lowers.get(s["lower"]), s["frame"],
                           s["heading"], frozenset(s["others"]), s["whole"])
        starts.append(run(phase("start", stop=FIT), s["text"], ctx)[0])  # today's list, not the recorded one
    passes = []
    for c in record["consistency"]:
        bodies, report = consistency_pass(
            c["sections"], preamble=c["preamble"], keep_definitions=tuple(c["keep"]),
            resolve_ref=lambda i, n, refs=c["refs"]: _untyped(refs.get(f"{i}|{n}")),
            resolve_title=lambda i, t, titles=c["titles"]: _untyped(titles.get(f"{i}|{t}")))
        passes.append((bodies, json.loads(json.dumps(report))))
    return {"starts": starts, "consistency": passes}


def path_of(template_id: str, seed: int) -> Path:
    return GOLDEN / f"{template_id}-{seed}.json"


if __name__ == "__main__":
    GOLDEN.mkdir(exist_ok=True)
    for arg in sys.argv[1:]:
        tid, seed = arg.split(":")
        record = capture(tid, int(seed))
        path_of(tid, int(seed)).write_text(json.dumps(record, ensure_ascii=False, indent=0, sort_keys=True) + "\n")
        print(f"{path_of(tid, int(seed))}: {len(record['starts'])} starts, {len(record['consistency'])} passes")
