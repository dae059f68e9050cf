"""Which writer drafts best: issue 27's same-run comparison of whole default drafts on the test split.

Runs the evaluation harness (`hybrid eval run`) once with these systems, every one `hybrid draft`'s
default path on its own writer (evals.systems):

- `hybrid`: hybrid-small, the diffusion editor (the shipped default);
- `smollm2-edit-ar`: pretrained SmolLM2-135M zero-shot, the batched AR editor;
- `lora-edit-ar`: the shipped LoRA adaptation of SmolLM2-135M, the batched AR editor;
- `lora-edit`: the same adaptation, the diffusion editor (its shift);
- `pasting`: no writer: the default draft's own precedents pasted with the deal's facts;

judged by gemma3-270m (the harness picks it: no system shares its weights), and prints one JSON line per
system: MAUVE against the real passages, the judge's bits/byte and its ratio to the real clauses', foreign
facts, distinct-2, doubled words per 1,000 words and the share of bodies ending mid-sentence among those the
harness did not cut (hybrid.draft.consistency's reading checks, on the drafts' own section bodies), and the
seconds per 4-variant draft call in the harness and of a warm 4-variant `hybrid draft mutual-nda --example` call
(nda_seconds); with the ratio of each writer's figures to hybrid's.

    python benchmarks/writer.py [--limit 25] [--threads 1] [--run DIR] [--reuse] [--out FILE]

--reuse reads a finished (or resumed) harness run in --run instead of starting it.
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from machine import add_run_args, emit, machine  # noqa: E402

SYSTEMS = ("hybrid", "pasting", "smollm2-edit-ar", "lora-edit-ar", "lora-edit")
KEEP = ("mauve", "mauve_std", "mauve_passages", "judge_bpb", "judge_bpb_vs_real", "judged_documents", "foreign_facts",
        "distinct_2", "repetition", "required_fraction", "seconds_per_document", "documents", "skipped")
CUT_WORDS = 128  # the harness's --max-body-words


def harness(run: Path, limit: int, threads: int) -> list[str]:
    return [sys.executable, "-m", "hybrid", "eval", "run", "--systems", ",".join(SYSTEMS), "--templated-only",
            "--limit", str(limit), "--max-docs", str(limit), "--max-body-words", str(CUT_WORDS), "--n-variants", "4",
            "--judge-docs", "12", "--threads", str(threads), "--checkpoint", "checkpoints/hybrid-small",
            "--reference", "checkpoints/reference", "--out", str(run), "--no-progress", "--json"]


def reading(samples: Path) -> dict:
    """Per system, over every variant's section bodies (hybrid.draft.consistency.reading_checks): doubled words
    per 1,000 words, and bodies ending mid-sentence among those shorter than the harness's cut (a cut body ends
    where the cut fell)."""
    from hybrid.draft.consistency import reading_checks

    out: dict[str, dict] = {}
    for line in samples.read_text().splitlines():
        row = json.loads(line)
        if row.get("system") not in SYSTEMS or row.get("skipped"):
            continue
        acc = out.setdefault(row["system"], {"words": 0, "doubled": 0, "uncut": 0, "mid": 0})
        for variant in row.get("bodies") or []:
            whole = reading_checks(variant, len(variant))
            uncut = [b for b in variant if 0 < len(b.split()) < CUT_WORDS]
            acc["words"] += whole["words"]
            acc["doubled"] += whole["doubled_words"]
            acc["uncut"] += len(uncut)
            acc["mid"] += reading_checks(uncut, len(uncut))["mid_sentence_endings"]
    return {
        s: {"doubled_per_1000_words": round(1000 * a["doubled"] / max(a["words"], 1), 3),
            "mid_sentence_share": round(a["mid"] / max(a["uncut"], 1), 4), "uncut_bodies": a["uncut"]}
        for s, a in out.items()
    }


WRITERS = {"hybrid": (None, None), "smollm2-edit-ar": ("smollm2-135m", "ar-batched"),
           "lora-edit-ar": ("smollm2-135m-legal-lora", "ar-batched"), "lora-edit": ("smollm2-135m-legal-lora", None)}


def nda_seconds() -> dict:
    """Seconds of a warm 4-variant `hybrid draft mutual-nda --example` call per writer (a 1-variant call first
    loads and warms the model and the precedent library)."""
    import time

    from hybrid.draft.drafter import Drafter
    from hybrid.draft.request import DraftRequest
    from hybrid.templates.template import load_template

    t = load_template("mutual-nda")
    out = {}
    for name, (model, filler) in WRITERS.items():
        drafter = Drafter.from_pretrained(model)
        kw = {"filler": filler} if filler else {}
        drafter.draft(DraftRequest.of(t, t.example, n=1, seed=7, **kw))
        start = time.perf_counter()
        drafter.draft(DraftRequest.of(t, t.example, n=4, seed=7, **kw))
        out[name] = round(time.perf_counter() - start, 2)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--limit", type=int, default=25, help="test documents (all systems on the same ones)")
    ap.add_argument("--run", type=Path, default=Path("evals/runs/writer"), help="the harness's output folder")
    ap.add_argument("--reuse", action="store_true", help="read the run in --run instead of starting it")
    ap.add_argument("--no-nda-timing", action="store_true", help="skip the warm 4-variant NDA call per writer")
    ap.add_argument("--nda-threads", type=int, default=2, help="torch threads of the NDA calls (the bar: 2 cores)")
    add_run_args(ap, threads=1)
    args = ap.parse_args(argv)
    import torch

    torch.set_num_threads(max(args.threads, 1))
    cmd = harness(args.run, args.limit, args.threads)
    if not args.reuse:
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    summary = json.loads((args.run / "summary.json").read_text())
    systems = {s: {k: summary["systems"][s].get(k) for k in KEEP} for s in SYSTEMS if s in summary["systems"]}
    for s, extra in reading(args.run / "samples.jsonl").items():
        systems[s] |= extra
    if not args.no_nda_timing:
        torch.set_num_threads(args.nda_threads)
        for s, seconds in nda_seconds().items():
            if s in systems:
                systems[s]["nda_4_variant_seconds"] = seconds
    base = systems.get("hybrid", {})
    ratios = ("mauve", "judge_bpb", "seconds_per_document", "nda_4_variant_seconds")
    for row in systems.values():
        row["vs_hybrid"] = {k: round(row[k] / base[k], 3) for k in ratios if row.get(k) and base.get(k)}
    result = {"benchmark": "writer", "split": "test", "judge": summary.get("judge", {}).get("spec"),
              "systems": systems, "command": " ".join(["python", "benchmarks/writer.py", *(argv or sys.argv[1:])]),
              "harness": " ".join(cmd[1:]), "nda_threads": None if args.no_nda_timing else args.nda_threads,
              "machine": machine()}
    emit(result, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
