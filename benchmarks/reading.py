"""Reading checks of whole default drafts: what a lawyer notices, per template, against a same-run baseline.

Prints one JSON line. For every shipped template (its example fields, one seed, N variants) it drafts
twice in the same process: the default (edit only what the deal needs: precedent_start 0) and the
random-noise edit of earlier versions (precedent_start 0.25, every other word masked with probability
0.25), and counts, over the drafts' section bodies: clauses ending mid-sentence, cross-references to
sections the draft lacks, doubled words and foreign facts (hybrid.fidelity.foreign_facts) per 1,000
words, and seconds per draft call.

    python benchmarks/reading.py [--seed 7] [--n 2] [--threads 1] [--out FILE]
"""

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hybrid.common.options import set_threads  # noqa: E402
from hybrid.draft.consistency import reading_checks  # noqa: E402
from hybrid.fidelity.foreign_facts import draft_foreign_facts  # noqa: E402
from hybrid.templates.template import TEMPLATES_DIR, load_template  # noqa: E402

from machine import machine  # noqa: E402

ARMS = {"default": {}, "noise-0.25": {"precedent_start": 0.25}}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--n", type=int, default=2)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--templates", default="", help="comma-separated ids (default: every shipped template)")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    set_threads(args.threads)
    from hybrid import Drafter

    drafter = Drafter.from_pretrained()
    ids = args.templates.split(",") if args.templates else sorted(p.stem for p in TEMPLATES_DIR.glob("*.json"))
    totals = {
        a: {
            "mid_sentence_endings": 0,
            "dangling_references": 0,
            "doubled_words": 0,
            "foreign_facts": 0,
            "words": 0,
            "sections": 0,
            "seconds": 0.0,
            "examples": [],
        }
        for a in ARMS
    }
    for tid in ids:
        t = load_template(tid)
        for arm, kw in ARMS.items():
            t0 = time.perf_counter()
            drafts = drafter.draft(t, t.example, n=args.n, seed=args.seed, **kw)
            tot = totals[arm]
            tot["seconds"] += time.perf_counter() - t0
            for d in drafts:
                bodies = [s["body"] for s in d.sections]
                r = reading_checks(bodies, len(bodies))
                ff = draft_foreign_facts(t, d.fields, bodies, d.source_facts)
                tot["mid_sentence_endings"] += r["mid_sentence_endings"]
                tot["dangling_references"] += r["dangling_references"]
                tot["doubled_words"] += r["doubled_words"]
                tot["foreign_facts"] += len(ff)
                tot["words"] += r["words"]
                tot["sections"] += len(bodies)
                if len(tot["examples"]) < 12:
                    tot["examples"] += [f["text"] for f in ff][:2]
    for tot in totals.values():
        w = max(tot["words"], 1)
        tot["doubled_per_1000_words"] = round(1000 * tot["doubled_words"] / w, 3)
        tot["foreign_per_1000_words"] = round(1000 * tot["foreign_facts"] / w, 3)
        tot["seconds_per_draft"] = round(tot["seconds"] / len(ids), 2)
        tot["seconds"] = round(tot["seconds"], 1)
    out = {
        "benchmark": "reading",
        **machine(),
        "templates": ids,
        "seed": args.seed,
        "n": args.n,
        "arms": totals,
        "time_ratio_default_vs_noise": round(
            totals["default"]["seconds"] / max(totals["noise-0.25"]["seconds"], 1e-9), 3
        ),
        "command": "python benchmarks/reading.py " + " ".join(argv if argv is not None else sys.argv[1:]),
    }
    line = json.dumps(out)
    print(line)
    if args.out:
        Path(args.out).write_text(line + "\n")


if __name__ == "__main__":
    main()
