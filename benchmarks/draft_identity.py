"""Default drafts written whole, to tell a behaviour-identical change from one that is not.

For every shipped template and each seed, drafts its example deal (`Drafter.draft(t, t.example, n=N, seed=s)`) and
writes each variant's text (`TEMPLATE-SEED-K.md`) and consistency report (`.json`) into --out; with --against DIR
(the same run at another commit) it compares them byte for byte. Prints one JSON line: files written, files that
differ from --against, seconds, the machine.

    python benchmarks/draft_identity.py --out /tmp/after [--against /tmp/before] [--seeds 7,21] [--n 2]
        [--templates mutual-nda,supply] [--threads 1]
"""

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hybrid.common.options import set_threads  # noqa: E402
from hybrid.templates.template import TEMPLATES_DIR, load_template  # noqa: E402

from machine import machine  # noqa: E402


def write_drafts(drafter, out: Path, template_ids, seeds, n: int) -> list[str]:
    out.mkdir(parents=True, exist_ok=True)
    names = []
    for seed in seeds:
        for tid in template_ids:
            t = load_template(tid)
            for k, d in enumerate(drafter.draft(t, t.example, n=n, seed=seed)):
                stem = f"{tid}-{seed}-{k}"
                (out / f"{stem}.md").write_text(d.text)
                (out / f"{stem}.json").write_text(json.dumps(d.consistency, indent=1, default=str, sort_keys=True))
                names += [f"{stem}.md", f"{stem}.json"]
            print(f"{tid} {seed}: done", file=sys.stderr, flush=True)
    return names


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="the folder the drafts are written to")
    ap.add_argument("--against", default=None, help="a folder of the same run at another commit, to compare with")
    ap.add_argument("--seeds", default="7,21")
    ap.add_argument("--n", type=int, default=2)
    ap.add_argument("--templates", default="", help="comma-separated ids (default: every shipped template)")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    set_threads(args.threads)
    from hybrid import Drafter

    ids = args.templates.split(",") if args.templates else sorted(p.stem for p in TEMPLATES_DIR.glob("*.json"))
    t0 = time.perf_counter()
    names = write_drafts(Drafter.from_pretrained(), Path(args.out), ids, [int(s) for s in args.seeds.split(",")],
                         args.n)
    seconds = time.perf_counter() - t0
    differ = None
    if args.against:
        against = Path(args.against)
        differ = [x for x in names if not (against / x).is_file()
                  or (against / x).read_bytes() != (Path(args.out) / x).read_bytes()]
    print(json.dumps({"benchmark": "draft_identity", **machine(), "templates": ids, "seeds": args.seeds, "n": args.n,
                      "files": len(names), "differ": differ, "seconds": round(seconds, 1)}))


if __name__ == "__main__":
    main()
