"""Foreign content a reader sees: the foreign-facts check before and after it was widened (hybrid.foreign_facts).

    python benchmarks/foreign_content.py [--baseline DIR] [--bodies 200] [--seed 0] [--examples 20] [--threads 1]
                                         [--out FILE]

Two text sets, each checked by the old check (hybrid/foreign_facts.py at OLD_COMMIT, loaded from
git as a module of its own) and by the new one, against the same deal:
- drafts: the section bodies of the default drafts under --baseline (DIR/<template>/draft-*.md and
  their drafts.json, as `scripts/hybrid draft TEMPLATE --example -n 4 --seed 7` writes them; source
  notes, headings and the signature block left out), against their template's deal, with the
  facts of the source contracts of the precedents each draft cites (hybrid.skeleton.from_precedents.
  source_facts, what `hybrid draft` now passes) as the new check's extra_names;
- train bodies: --bodies clause bodies of the clause library (train split only; never val or
  test), seeded, each adapted to the deal of one of TEMPLATES in turn (its facts' markers filled),
  with its source contract's facts (source_facts) as extra_names.
Reports, per set: words, foreign items per 1,000 words by kind (old, new), references found (a
kind the new check reports but never counts), and --examples hits of the new kinds drawn with a
seeded generator, each with its context, so a reader can judge precision. One JSON line.
"""

import argparse
import importlib.util
import json
import random
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.machine import add_run_args, emit, machine  # noqa: E402

OLD_COMMIT = "76d5f3a"  # main before the widening
TEMPLATES = ("mutual-nda", "supply", "hosting", "software-license")  # the deals train bodies are adapted to
OLD_KINDS = ("party", "place", "amount", "duration", "name")


def _old_module():
    """hybrid/foreign_facts.py at OLD_COMMIT as a module of its own (its party list is passed in)."""
    show = ["git", "show", f"{OLD_COMMIT}:hybrid/foreign_facts.py"]
    src = subprocess.run(show, cwd=REPO, capture_output=True, text=True, check=True).stdout
    path = Path(tempfile.mkdtemp()) / "foreign_facts_old.py"
    path.write_text(src, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("foreign_facts_old", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _md_bodies(text: str) -> list[str]:
    """The section bodies of a draft's Markdown: text under each "## N. Heading", source notes and escapes out."""
    text = text.split("\n---\n")[0]
    out = []
    for part in re.split(r"^## \d+\. .*$", text, flags=re.M)[1:]:
        lines = [ln for ln in part.strip().split("\n") if not ln.startswith(("Drafted from precedent:", "[^s"))]
        out.append(re.sub(r"\\(.)", r"\1", "\n".join(lines).strip()))
    return out


def _baseline(root: Path, library) -> list[dict]:
    """[{text, allowed, extra}] per baseline draft."""
    from hybrid.fidelity.foreign_facts import allowed_text
    from hybrid.skeleton.from_precedents import source_facts
    from hybrid.templates.template import load_template

    by_id = {p.id: p for p in library.precedents}
    rows = []
    for report in sorted(root.glob("*/drafts.json")):
        meta = json.loads(report.read_text(encoding="utf-8"))
        t = load_template(meta["template"])
        allowed = allowed_text(t, t.validate_fields(meta["fields"]))
        for d, path in zip(meta["drafts"], sorted(report.parent.glob("draft-*.md"))):
            cited = {c["id"] for sec in d["precedents"] for c in sec}
            extra = list(dict.fromkeys(f for i in sorted(cited) if i in by_id for f in source_facts(library, by_id[i])))
            text = "\n\n".join(_md_bodies(path.read_text(encoding="utf-8")))
            rows.append({"name": f"{t.id}/{path.name}", "text": text, "allowed": allowed, "extra": extra})
    return rows


def _train_bodies(library, n: int, seed: int) -> list[dict]:
    from hybrid.fidelity.foreign_facts import allowed_text
    from hybrid.skeleton.from_precedents import deal_from_template, source_facts
    from hybrid.templates.template import load_template

    deals = []
    for tid in TEMPLATES:
        t = load_template(tid)
        values = t.validate_fields(t.example)
        deals.append((tid, deal_from_template(t, values), allowed_text(t, values)))
    picks = random.Random(seed).sample(library.precedents, n)
    rows = []
    for i, p in enumerate(picks):
        tid, deal, allowed = deals[i % len(deals)]
        extra = source_facts(library, p)
        rows.append({"name": f"{p.id} -> {tid}", "text": p.adapted(deal), "allowed": allowed, "extra": extra})
    return rows


def _rates(counts: Counter, words: int, per) -> dict:
    total = sum(counts.values())
    return {"total": total, "per_1000_words": round(1000 * total / max(words, 1), 2), "by_kind": per(counts)}


def _measure(rows, old, examples: int, rng: random.Random) -> dict:
    from hybrid.fidelity.foreign_facts import KINDS, find_facts, foreign_facts, party_names

    parties = party_names()
    words = sum(len(r["text"].split()) for r in rows)
    before, after, refs = Counter(), Counter(), 0
    hits = []
    for r in rows:
        before.update(f.kind for f in old.foreign_facts(r["text"], r["allowed"], parties))
        new = foreign_facts(r["text"], r["allowed"], parties, r["extra"])
        after.update(f.kind for f in new)
        refs += sum(f.kind == "reference" for f in find_facts(r["text"], parties))
        for f in new:
            if f.kind not in OLD_KINDS:
                context = r["text"][max(0, f.start - 50) : f.end + 50].replace("\n", " ")
                hits.append({"kind": f.kind, "text": f.text, "context": context, "where": r["name"]})
    per = lambda c: {k: round(1000 * c[k] / max(words, 1), 2) for k in KINDS if c[k]}  # noqa: E731
    by_kind: dict[str, list] = {}
    for h in hits:
        by_kind.setdefault(h["kind"], []).append(h)
    shown = []  # a few of every new kind first, then at random
    for k in sorted(by_kind):
        shown += rng.sample(by_kind[k], min(len(by_kind[k]), max(1, examples // (2 * len(by_kind)))))
    rest = [h for h in hits if h not in shown]
    shown += rng.sample(rest, min(len(rest), max(0, examples - len(shown))))
    return {"texts": len(rows), "words": words,
            "old": _rates(before, words, per),
            "new": _rates(after, words, per),
            "references_found_not_counted": refs, "examples": shown[:examples]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--baseline", default="/work/baseline", help="folder of default drafts, one subfolder per template")
    ap.add_argument("--bodies", type=int, default=200, help="train-split clause bodies to check (0: none)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--examples", type=int, default=20, help="example hits of the new kinds shown per set")
    add_run_args(ap, threads=1)
    args = ap.parse_args()
    import torch

    if args.threads:
        torch.set_num_threads(args.threads)
    from hybrid.precedents.library import load_library

    library = load_library(progress=False)
    old = _old_module()
    rng = random.Random(args.seed)
    result = {
        "benchmark": "foreign_content",
        "old_commit": OLD_COMMIT,
        "baseline": args.baseline,
        "bodies": args.bodies,
        "seed": args.seed,
        "templates": list(TEMPLATES),
        "machine": machine(),
    }
    base = Path(args.baseline)
    if base.is_dir():
        result["drafts"] = _measure(_baseline(base, library), old, args.examples, rng)
    if args.bodies:
        result["train_bodies"] = _measure(_train_bodies(library, args.bodies, args.seed), old, args.examples, rng)
    emit(result, args.out, ensure_ascii=False)


if __name__ == "__main__":
    main()
