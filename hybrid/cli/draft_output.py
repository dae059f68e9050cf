"""What `hybrid draft` writes: the output directory, its files and drafts.json, and the lines on stdout.

Owns: the names of a run's files (one per draft, rank in the name, then drafts.json), the checks on --out
before any work (check_out_dir: a file, not writable, or not empty without --force; with --force, only
hybrid's own unchanged files are replaced), the default --out, the report drafts.json holds
(draft_report), the atomic write of the whole set (write_drafts, hybrid.common.outdir.FileSet) and what is
printed once it is written (print_drafts). hybrid.cli.draft re-exports check_out_dir and FORMATS.
"""

import json
import sys
import time
from pathlib import Path

from hybrid.common.errors import OutputError
from hybrid.common.outdir import FileSet, check_replaceable, check_writable, is_bookkeeping, recorded

__all__ = ["FORMATS", "REPORT", "draft_names", "check_out_dir", "previous_set", "default_out", "draft_report",
           "write_drafts", "print_drafts"]

FORMATS = ("md", "docx", "txt")
REPORT = "drafts.json"


def _draft_name(rank: int, n: int, fmt: str) -> str:
    return f"draft-{rank:0{len(str(n))}d}.{fmt}"


def draft_names(n: int, fmt: str) -> list[str]:
    """The files a run of n drafts in `fmt` commits: one per draft, rank in the name, then drafts.json."""
    return [_draft_name(rank, n, fmt) for rank in range(1, n + 1)] + [REPORT]


def check_out_dir(out: Path, force: bool, names=(), recovered: bool = False) -> None:
    """OutputError when --out is a file, not writable, or a non-empty directory without --force
    (this module's own bookkeeping files do not count); with --force, when one of `names` (the files
    this run will write) or a file of the previous set is not hybrid's own unchanged file
    (hybrid.common.outdir.check_replaceable: sha256 recorded at commit time)."""
    check_writable(out)
    if not out.is_dir():
        return
    if not force:
        if any(not is_bookkeeping(p.name) for p in out.iterdir()):
            done = " (it holds the set an interrupted run left, completed now)" if recovered else ""
            raise OutputError(
                f"--out {out} is not empty{done}; pass --force to replace the drafts in it, "
                "or choose another directory."
            )
        return
    check_replaceable(out, names, previous_set(out))


def previous_set(out: Path) -> list[str]:
    """The files the last draft run committed into `out`, as hybrid recorded them with their sha256
    (hybrid.common.outdir.recorded), which --force replaces; drafts.json's own "files" list is for readers
    and never decides what is removed."""
    return list(recorded(out))


def default_out(template_id: str) -> Path:
    base = Path("drafts") / f"{template_id}-{time.strftime('%Y%m%d-%H%M%S')}"
    out, i = base, 1
    while out.exists():
        i += 1
        out = base.with_name(f"{base.name}-{i}")
    return out


def write_drafts(out: Path, drafts, fmt: str, report: dict, redline: bool = False) -> list[Path]:
    """Each draft and the report staged inside `out`, then committed as one set (hybrid.common.outdir.FileSet):
    a kill leaves the previous set or this one, never a mix. The caller holds the directory's lock."""
    names = [_draft_name(d.rank, len(drafts), fmt) for d in drafts]
    for d, name in zip(report["drafts"], names):
        d["path"] = str(out / name)
    report["files"] = names + [REPORT]
    with FileSet(out, owned=True) as fs:
        for d, name in zip(drafts, names):
            if fmt == "docx":
                d.to_docx(fs.path(name), redline=redline)
            else:
                fs.path(name).write_text(d.markdown if fmt == "md" else d.text, encoding="utf-8")
        fs.path(REPORT).write_text(
            json.dumps(report, indent=1, ensure_ascii=False, allow_nan=False) + "\n", encoding="utf-8"
        )
        fs.commit(remove=previous_set(out))
    return [out / n for n in names]


def draft_report(template, fields, outline, seed, settings, model, timings, drafts) -> dict:
    """drafts.json of a run (each draft's "path" filled in by write_drafts): the request, the settings used,
    the model, the stage timings and per draft its scores, precedents, foreign facts and consistency report."""
    from hybrid.fidelity.foreign_facts import draft_foreign_facts

    return {
        "template": template.id,
        "template_path": template.path,
        "fields": fields,
        "outline": outline,
        "seed": seed,
        "settings": settings,
        "model": model,
        "timings": {k: round(v, 4) for k, v in timings.items()},
        "drafts": [
            {
                "rank": d.rank,
                "score": d.score,
                "scores": d.scores,
                "variant": d.variant,
                "words": d.words,
                "path": None,
                "precedents": [s.get("precedents", []) for s in d.sections],
                "foreign_facts": draft_foreign_facts(
                    template, d.fields, [s["body"] for s in d.sections], d.source_facts
                ),
                "consistency": d.consistency,
                **({"base": d.base} if d.base else {}),
                **d.checks,
            }
            for d in drafts
        ],
    }


def check_line(d) -> str:
    """One line of what a lawyer checks first: the base, the market check and what it lacks, contradictions."""
    mc, sub = d.checks.get("market_check", {}), d.checks.get("substance", {})
    lacks = ", ".join(mc.get("lacking", [])[:4]) or "nothing"
    base = d.base.get("doc_id", "").rsplit("/", 1)[-1]
    if d.base.get("repeats") is not None:  # drafts.json's variant numbers
        why = "the base named by --base-doc" if d.base.get("named") else "no other base of the kind fits this deal"
        base += (f", the sections of variant {d.base['repeats']} again: {why} "
                 "and no other document's clause keeps its terms")
    return (f"base {base} ({d.base.get('kind', '')}); market check {mc.get('held', 0)}/{mc.get('total', 0)} "
            f"(lacks {lacks}); contradictions {sub.get('contradictions', 0)}; "
            f"foreign subject matter {len(d.checks.get('foreign_subjects', []))}"
            + (f"; Key Terms proposed to confirm {len(d.base['proposed_terms'])} (drafts.json)"
               if d.base.get("proposed_terms") else ""))


def print_drafts(out: Path, drafts, paths, report: dict, as_json: bool) -> None:
    """The written drafts on stdout: one JSON object (as_json: --json) or a line per draft, best first."""
    if as_json:
        rows = [
            {"rank": d.rank, "score": d.score, "scores": d.scores, "text": d.text, "path": str(p)}
            for d, p in zip(drafts, paths)
        ]
        print(
            json.dumps(
                {
                    "drafts": rows,
                    **{k: report[k] for k in ("template", "seed", "settings", "outline", "timings")},
                    "out": str(out),
                },
                ensure_ascii=False,
            )
        )
    else:
        for d, p in zip(drafts, paths):
            print(f"{d.rank:>3}  score {d.score:8.4f}  {d.words:>5} words  {p}")
            if d.checks:
                print(f"     {check_line(d)}")
        print(f"report: {out / REPORT}", file=sys.stderr)
