"""The gemma3-270m judge on CPU: its speed and whether it tells real clauses from shuffled ones.

Prints one JSON line. Takes the first --docs documents of the test split that have clause bodies, their
first --sections sections, and scores every clause body exactly as `hybrid eval run` does
(evals.judge.clause_nats: the 64 tokens of the document before each clause, its first 128 words)
twice per judge: the real bodies, and the same bodies with their words shuffled (seeded; both
written with single spaces, so both have the same bytes). Reports bits/byte of each, their ratio
(shuffled / real: far above 1 = the judge discriminates), seconds and scored tokens per second
(after one untimed warm-up passage) and load time.
The same-run baseline is the smollm2-135m judge on the same passages (speed ratio gemma3 / smollm2),
when it is fetched.

    python benchmarks/judge_gemma3.py [--docs 3] [--sections 3] [--threads 1] [--out FILE]

Needs `hybrid eval fetch-judge gemma3-270m` (and `hybrid model fetch smollm2-135m` for the baseline).
"""

import argparse
import math
import random
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from evals.judge import BODY_WORDS, CONTEXT_TOKENS, clause_nats, load_judge  # noqa: E402
from evals.runner import shorten  # noqa: E402
from hybrid.common.errors import CheckpointError  # noqa: E402
from hybrid.common.options import set_threads  # noqa: E402

from machine import add_run_args, emit, machine  # noqa: E402


def passages(corpus, docs: int, sections: int):
    """[(segments, real bodies, shuffled bodies)] of the first `docs` test documents with clause bodies."""
    from hybrid.data.corpus import load_documents

    out, rng = [], random.Random(0)
    for d in load_documents(corpus, splits=("test",)):
        if len(out) == docs:
            break
        d = shorten(d, sections, BODY_WORDS)  # the judge reads 128 words of each body: cut alike
        segs = d.segments()
        bodies = [s.text for s in segs if s.kind == "body"]
        if not any(b.strip() for b in bodies):
            continue
        real = [" ".join(re.findall(r"\S+", b)) for b in bodies]
        shuffled = []
        for b in real:
            w = b.split()
            rng.shuffle(w)
            shuffled.append(" ".join(w))
        out.append((segs, real, shuffled))
    return out


def score(judge, items) -> dict:
    clause_nats(judge, items[0][0], items[0][1])  # warm-up (first-call allocations), not timed
    res = {}
    for arm, k in (("real", 1), ("shuffled", 2)):
        nats = nbytes = tokens = 0
        t0 = time.perf_counter()
        for it in items:
            a, b, c = clause_nats(judge, it[0], it[k], context_tokens=CONTEXT_TOKENS, body_words=BODY_WORDS)
            nats, nbytes, tokens = nats + a, nbytes + b, tokens + c
        secs = time.perf_counter() - t0
        res[arm] = {"bpb": round(nats / nbytes / math.log(2), 4), "bytes": nbytes, "tokens": tokens,
                    "seconds": round(secs, 2), "tokens_per_second": round(tokens / secs, 1)}
    res["shuffled_over_real"] = round(res["shuffled"]["bpb"] / res["real"]["bpb"], 3)
    return res


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--docs", type=int, default=3)
    ap.add_argument("--sections", type=int, default=3)
    ap.add_argument("--corpus", default=None)
    ap.add_argument("--baseline", default="smollm2-135m", help="the same-run baseline judge ('' = none)")
    add_run_args(ap, threads=1)
    args = ap.parse_args(argv)
    set_threads(args.threads)
    items = passages(args.corpus, args.docs, args.sections)
    result = {"benchmark": "judge_gemma3", "docs": len(items), "passages": sum(len(i[1]) for i in items),
              "words_per_passage": BODY_WORDS, "context_tokens": CONTEXT_TOKENS}
    for name in ("gemma3-270m", args.baseline):
        if not name:
            continue
        t0 = time.perf_counter()
        try:
            judge = load_judge(name)
        except CheckpointError as e:
            result[name] = {"error": str(e)}
            continue
        result[name] = {"load_seconds": round(time.perf_counter() - t0, 1), "params": judge.params,
                        **score(judge, items)}
        del judge
    g, b = result.get("gemma3-270m", {}), result.get(args.baseline, {})
    if "real" in g and "real" in b:
        result["gemma3_over_baseline_seconds"] = round(
            (g["real"]["seconds"] + g["shuffled"]["seconds"]) / (b["real"]["seconds"] + b["shuffled"]["seconds"]), 2)
    result["machine"] = machine()
    emit(result, args.out)


if __name__ == "__main__":
    main()
