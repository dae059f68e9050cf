"""Whole default drafts read by an independent judge: this tree against an earlier commit, same run.

Prints one JSON line. For each template (its example fields, one seed, N variants) it runs
`hybrid draft TEMPLATE --example -n N --seed S` twice: with this tree, and with the tree of
--baseline-commit (extracted by `git archive` into a temporary directory, its own library cache),
both on the shipped model. Every section body of every variant is then scored by the judge exactly
as `hybrid eval run` scores a clause (evals.judge.clause_nats: the 64 tokens of the draft before it,
its first 128 words), so what the judge reads is what a user gets. Reported per arm: judge bits/byte
over all section bodies and per template, doubled words per 1,000 words, words per draft, seconds
per draft call; and the ratio current / baseline. The default judge, gemma3-270m, shares no
weights with the drafting model.

    python benchmarks/draft_judge.py [--templates mutual-nda supply ...] [--n 2] [--seed 7]
        [--baseline-commit bb4f34d] [--judge gemma3-270m] [--threads 1] [--out FILE]
"""

import argparse
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(REPO))
from evals.judge import BODY_WORDS, CONTEXT_TOKENS, clause_nats, load_judge  # noqa: E402
from hybrid.common.options import set_threads  # noqa: E402
from hybrid.data.document import Segment  # noqa: E402

from machine import add_run_args, emit, machine  # noqa: E402

_SECTION = re.compile(r"^## (\d+)\. (.*?)(?:\[\^s\d+\])?\s*$", re.M)
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!&|~<>$])")
_NOTE = re.compile(r"^(?:Drafted from precedent:|\[\^s\d+\]:)")
_DOUBLED = re.compile(r"\b(\w+)\s+\1\b", re.I)


def parse_markdown(md: str) -> tuple[str, list[tuple[str, str]]]:
    """(title + preamble, [(heading, body)]) of a draft's Markdown, provenance lines and escapes removed."""
    md = md.split("\n---\n")[0]
    parts = _SECTION.split(md)
    head, out = parts[0], []
    for i in range(1, len(parts) - 2, 3):
        lines = [ln.rstrip() for ln in parts[i + 2].splitlines() if not _NOTE.match(ln.strip())]
        body = "\n".join(ln[:-2] if ln.endswith("  ") else ln for ln in lines).strip()
        out.append((_ESCAPE.sub(r"\1", parts[i + 1]), _ESCAPE.sub(r"\1", body)))
    return _ESCAPE.sub(r"\1", head.replace("# ", "", 1)).strip(), out


def draft_arm(tree: Path, templates, n: int, seed: int, work: Path, env: dict, model: str = "") -> dict:
    """{template: {"drafts": [(head, sections)], "seconds"}} drafted by `python -m hybrid draft` in `tree`."""
    out = {}
    for t in templates:
        dest = work / t
        cmd = [sys.executable, "-m", "hybrid", "draft", t, "--example", "-n", str(n), "--seed", str(seed),
               "--threads", "1", "--out", str(dest), *(["--model", model] if model else [])]
        t0 = time.perf_counter()
        subprocess.run(cmd, cwd=tree, env={**env, "PYTHONPATH": str(tree)}, check=True, capture_output=True)
        secs = time.perf_counter() - t0
        drafts = [parse_markdown(p.read_text()) for p in sorted(dest.glob("draft-*.md"))]
        out[t] = {"drafts": drafts, "seconds": round(secs, 1)}
    return out


def score(judge, arm: dict) -> dict:
    nats = nbytes = words = doubled = 0
    per = {}
    for t, r in arm.items():
        tn = tb = 0
        for head, sections in r["drafts"]:
            segs = [Segment(head + "\n\n", "text")]
            for i, (h, _) in enumerate(sections):
                segs += [Segment(f"{i + 1}. {h}\n", "heading", i), Segment("", "body", i), Segment("\n\n", "text")]
            bodies = [b for _, b in sections]
            a, b, _ = clause_nats(judge, segs, bodies, context_tokens=CONTEXT_TOKENS, body_words=BODY_WORDS)
            tn, tb = tn + a, tb + b
            text = " ".join(bodies)
            words += len(text.split())
            doubled += len([m for m in _DOUBLED.finditer(text) if not m.group(1).isdigit()])
        per[t] = round(tn / tb / math.log(2), 4) if tb else None
        nats, nbytes = nats + tn, nbytes + tb
    drafts = sum(len(r["drafts"]) for r in arm.values())
    return {"judge_bpb": round(nats / nbytes / math.log(2), 4), "per_template": per, "words": words,
            "words_per_draft": round(words / max(drafts, 1)),
            "doubled_per_1000_words": round(1000 * doubled / words, 3),
            "seconds_per_call": round(sum(r["seconds"] for r in arm.values()) / len(arm), 1)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--templates", nargs="+", default=["mutual-nda", "supply", "saas-agreement", "distributor"])
    ap.add_argument("--n", type=int, default=2)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--baseline-commit", default="bb4f34d", help="'same': this tree (compare --models instead)")
    ap.add_argument("--current-model", default="", help="--model of the current arm (default: the shipped one)")
    ap.add_argument("--baseline-model", default="", help="--model of the baseline arm (default: the shipped one)")
    ap.add_argument("--judge", default="gemma3-270m")
    ap.add_argument("--keep", default=None, help="keep both arms' drafts under this folder")
    add_run_args(ap, threads=1)
    args = ap.parse_args(argv)
    set_threads(args.threads)
    measured = machine()  # the commit drafted (recorded before drafting, not after scoring)
    env = {**os.environ, "OMP_NUM_THREADS": "1",
           "HYBRID_CORPUS": os.environ.get("HYBRID_CORPUS", str(REPO.parent / "shared" / "corpus"))}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(args.keep) if args.keep else Path(tmp)
        base, base_env = REPO, env
        if args.baseline_commit != "same":
            base, base_env = Path(tmp) / "baseline", {**env, "HYBRID_CACHE": str(Path(tmp) / "cache")}
            base.mkdir()
            archive = subprocess.run(["git", "-C", str(REPO), "archive", args.baseline_commit], check=True,
                                     capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
        arms = {
            "current": draft_arm(REPO, args.templates, args.n, args.seed, work / "current", env, args.current_model),
            "baseline": draft_arm(base, args.templates, args.n, args.seed, work / "baseline", base_env,
                                  args.baseline_model),
        }
    judge = load_judge(args.judge)
    result = {"benchmark": "draft_judge", "judge": args.judge, "templates": args.templates, "n": args.n,
              "seed": args.seed, "baseline_commit": args.baseline_commit,
              "current_model": args.current_model or "shipped", "baseline_model": args.baseline_model or "shipped",
              "arms": {k: score(judge, v) for k, v in arms.items()}}
    c, b = result["arms"]["current"], result["arms"]["baseline"]
    result["judge_bpb_ratio_current_vs_baseline"] = round(c["judge_bpb"] / b["judge_bpb"], 4)
    result["machine"] = {**measured, "load_average_after": machine()["load_average"]}
    result["command"] = "python benchmarks/draft_judge.py " + " ".join(argv if argv is not None else sys.argv[1:])
    emit(result, args.out)


if __name__ == "__main__":
    main()
