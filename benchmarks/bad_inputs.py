"""Bad-input audit over the CLI, one JSON line: every case of the reliability issue run as a user would.

    python benchmarks/bad_inputs.py [--out benchmarks/results/bad-inputs-cpu.json] [--only SUBSTR]

Each case runs `python -m hybrid ...` in a scratch directory holding a copy of the shipped model and
a few files of the user's, and checks: the exit code (2 for bad input), that stderr ends with one
line `hybrid: error: ...` (under 1,000 characters) naming what the case names, no traceback, and
that every file that existed before is byte-for-byte untouched. Concurrency cases start two
processes at once; the kill case sends SIGKILL to a `--force` run in the middle of drafting; the
--force cases put a user's file beside (or into the list of) a set hybrid wrote; the interrupted
commit case stops a commit between two moves. Issue 29's cases follow the first 25. Not a test (it
takes minutes on the shipped model); the suite tests each behaviour on tiny models.
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from hybrid.common.outdir import is_bookkeeping  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import machine  # noqa: E402

SHIPPED = REPO / "checkpoints" / "hybrid-small"
PY = sys.executable


def _snapshot(root: Path) -> dict:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".cache" not in p.parts
    }


def _run(args, cwd, timeout=600):
    """(exit code, stdout, stderr, seconds); a run still going after `timeout` is killed: exit 124 (a hang
    is a failure, not an abort)."""
    t0 = time.perf_counter()
    try:
        p = subprocess.run([PY, "-m", "hybrid", *args], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                           env={**os.environ, "PYTHONPATH": str(REPO)})
    except subprocess.TimeoutExpired as e:
        err = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
        return 124, "", err + f"\n(killed after {timeout} s)", time.perf_counter() - t0
    return p.returncode, p.stdout, p.stderr, time.perf_counter() - t0


def _setup(root: Path) -> None:
    shutil.copytree(SHIPPED, root / "model", ignore=shutil.ignore_patterns("train_state.pt"))
    (root / "notes.txt").write_text("the user's own file")
    (root / "a-file").write_text("not a directory")
    (root / "full").mkdir()
    (root / "full" / "keep.md").write_text("keep me")
    (root / "ckdir" / "hybrid-small").mkdir(parents=True)
    (root / "ckdir" / "hybrid-small" / "model.safetensors").write_bytes(b"a shipped model")
    bad = root / "bad-config"
    shutil.copytree(root / "model", bad)
    cfg = json.loads((bad / "config.json").read_text())
    cfg["n_layers"] = cfg.get("n_layers", 4) + 2
    (bad / "config.json").write_text(json.dumps(cfg))
    rec = root / "bad-record"
    shutil.copytree(root / "model", rec)
    (rec / "training_record.json").write_text("{truncated")
    (root / "nan.json").write_text(
        '{"party_a": "Acme Inc.", "party_b": "Blue LLC", "effective_date": "March 1, 2026", '
        '"governing_law": "Delaware", "purpose": "x", "nda_term": "2 years", "confidentiality_term": NaN}'
    )
    tpl = json.loads((REPO / "templates" / "mutual-nda.json").read_text())
    tpl["id"] = "evil-nda"
    tpl["preamble"] = tpl["preamble"] + " {party_a.__class__}"
    (root / "evil.json").write_text(json.dumps(tpl))
    tpl["preamble"] = tpl["preamble"].replace(" {party_a.__class__}", " {0}")
    (root / "evil0.json").write_text(json.dumps(tpl))
    (root / "evalrun").mkdir()
    (root / "evalrun" / "run.json").write_text("{damaged")
    # issue 29
    links = root / "links"
    links.mkdir()
    os.symlink("loop", links / "loop")
    os.symlink("nowhere", links / "dangling")
    nda = (REPO / "templates" / "mutual-nda.json").read_text()

    def template(name, mutate=None, text=None):
        data = json.loads(nda)
        data["id"] = name
        if mutate:
            mutate(data)
        (root / f"{name}.json").write_text(text if text is not None else json.dumps(data))

    template("ref-loop", lambda d: (d["outline_schema"]["$defs"].update(loop={"$ref": "#/$defs/loop"}),
                                    d["outline_schema"]["properties"].update(sections={"$ref": "#/$defs/loop"})))
    template(
        "ref-dangling",
        lambda d: d["outline_schema"]["properties"]["sections"]["anyOf"][0]["prefixItems"].__setitem__(
            0, {"$ref": "#/$defs/nothing"}
        ),
    )
    template(
        "ansi-signature", lambda d: d.update(signature_block="\x1b[2J\x1b[31mSIGNED\x1b[0m by {party_a} and {party_b}")
    )
    template("rtl-preamble", lambda d: d.update(preamble="\u202e" + d["preamble"]))
    template("big-preamble", lambda d: d.update(preamble="x" * 5_000_000))
    template(
        "dup-clause",
        text=nda.replace(
            '"clauses": {', '"clauses": {\n  "notices": {"heading": "Notices", "budget": 64, "required_terms": []},', 1
        ).replace('"mutual-nda"', '"dup-clause"', 1),
    )
    template(
        "unused-field",
        lambda d: (
            d["fields"]["properties"].update(signatory={"type": "string", "maxLength": 80, "description": "who signs"}),
            d["fields"]["required"].append("signatory"),
            d["example"].update(signatory="J. Doe"),
        ),
    )
    (root / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    franchise = json.loads((REPO / "templates" / "franchise.json").read_text())
    franchise["id"] = "nan-minimum"
    (root / "nan-minimum.json").write_text(json.dumps(franchise).replace('"minimum": 0,', '"minimum": NaN,', 1))


M = ["--checkpoint", "model"]
D = ["draft", "mutual-nda", "--example", "-n", "2", "--steps", "8"]
CASES = [
    # (name, argv, words the last stderr line must hold); every one must exit 2 and touch nothing
    (
        "train into a directory of other files",
        ["train", "--out", "ckdir", "--max-steps", "1"],
        ["ckdir", "holds no checkpoint"],
    ),
    ("train into an existing file", ["train", "--out", "a-file", "--max-steps", "1"], ["a-file", "existing file"]),
    (
        "train into an unwritable location",
        ["train", "--out", "/proc/hybrid-train", "--max-steps", "1"],
        ["/proc/hybrid-train", "not writable"],
    ),
    (
        "draft to a read-only location",
        [*D, *M, "--out", "/proc/hybrid-drafts"],
        ["/proc/hybrid-drafts", "not writable"],
    ),
    ("draft to --out .", [*D, *M, "--out", "."], ["--out .", "not empty"]),
    ("draft under a file", [*D, *M, "--out", "a-file/drafts"], ["a-file", "not a directory"]),
    ("draft to a non-empty directory without --force", [*D, *M, "--out", "full"], ["full", "--force"]),
    (
        "eval run to a file",
        ["eval", "run", "--systems", "hybrid", "--limit", "1", "--out", "a-file", *M],
        ["a-file", "existing file"],
    ),
    (
        "eval run over a damaged run.json",
        ["eval", "run", "--systems", "hybrid", "--limit", "1", "--out", "evalrun", *M],
        ["run.json"],
    ),
    (
        "NaN field value",
        ["draft", "mutual-nda", "--fields-file", "nan.json", *M, "--out", "o1"],
        ["confidentiality_term"],
    ),
    ("blank party name", [*D, *M, "--field", "party_a=   ", "--out", "o2"], ["party_a"]),
    ("control characters in a field", [*D, *M, "--field", "party_b=Blue\x07LLC", "--out", "o3"], ["party_b"]),
    ("ANSI escape in a field", [*D, *M, "--field", "party_b=\x1b[31mBlue LLC", "--out", "o4"], ["party_b"]),
    (
        "newline injecting a section",
        [*D, *M, "--field", "purpose=x\n\n## 99. Fake Section", "--out", "o5"],
        ["purpose"],
    ),
    (
        "placeholder reaching into an attribute",
        ["draft", "evil.json", "--example", *M, "--out", "o6"],
        ["party_a.__class__"],
    ),
    ("positional placeholder", ["draft", "evil0.json", "--example", *M, "--out", "o7"], ["{0}"]),
    (
        "config that does not fit the weights",
        ["eval", "bpb", "--checkpoint", "bad-config", "--limit", "1"],
        ["bad-config"],
    ),
    (
        "damaged training record",
        ["eval", "bpb", "--checkpoint", "bad-record", "--limit", "1"],
        ["training_record.json"],
    ),
    ("--draws -3", ["eval", "bpb", *M, "--draws", "-3"], ["--draws", "-3"]),
    ("--draws 0", ["eval", "bpb", *M, "--draws", "0"], ["--draws", "0"]),
    ("--limit -1", ["eval", "bpb", *M, "--limit", "-1"], ["--limit", "-1"]),
    ("--seed beyond 64 bits", [*D, *M, "--seed", str(2**64), "--out", "o8"], ["--seed"]),
    ("--vocab-size below the byte alphabet", ["train", "--out", "o9", "--vocab-size", "100"], ["--vocab-size", "100"]),
    ("--threads -1", [*D, *M, "--threads", "-1", "--out", "o10"], ["--threads", "-1"]),
    ("rank with an empty candidate", ["rank", "--spec", "Payment", "--candidates", "empty.jsonl", *M], ["line 1"]),
    # issue 29 ("Nothing lost, round two"); #1 and #9 are the functions below
    (
        "#2 $ref loop in outline_schema",
        ["draft", "ref-loop.json", "--example", *M, "--out", "o11"],
        ["$defs/loop", "itself"],
    ),
    (
        "#2 dangling $ref",
        ["draft", "ref-dangling.json", "--example", *M, "--out", "o12"],
        ["#/$defs/nothing", "names no entry"],
    ),
    *[
        (f"#3 {name} --out {what}", [*cmd, "--out", out], words)
        for name, cmd in (
            ("draft", [*D, *M]),
            ("train", ["train", "--max-steps", "1"]),
            ("eval run", ["eval", "run", "--systems", "hybrid", "--limit", "1", "--no-mauve", *M]),
        )
        for what, out, words in (
            ("a symlink loop", "links/loop", ["links/loop", "symlink loop"]),
            ("under a symlink loop", "links/loop/sub", ["links/loop/sub", "symlink loop"]),
            ("a dangling symlink", "links/dangling", ["links/dangling", "does not exist"]),
        )
    ],
    ("#3 --out with a 300-character name", [*D, *M, "--out", "n" * 300], ["(300 characters)", "too long"]),
    ("#3 draft --out under a 300-character name", [*D, *M, "--out", "new/" + "n" * 300], ["300 bytes"]),
    (
        "#3 300-character template id",
        ["draft", "t" * 300, "--example", *M, "--out", "o13"],
        ["unknown template", "(300 characters)"],
    ),
    (
        "#3 template nested 100,000 deep",
        ["draft", "deep.json", "--example", *M, "--out", "o14"],
        ["deep.json", "nested deeper"],
    ),
    (
        "#3 fields file nested 100,000 deep",
        ["draft", "mutual-nda", "--fields-file", "deep.json", *M, "--out", "o15"],
        ["deep.json", "nested deeper"],
    ),
    *[
        (
            f"#5 {name} in a party name",
            [*D, *M, "--field", f"party_b=Blue{ch}LLC", "--out", f"o16-{code}"],
            ["party_b", code],
        )
        for name, ch, code in (
            ("ZERO WIDTH SPACE", "\u200b", "U+200B"),
            ("ZERO WIDTH JOINER", "\u200d", "U+200D"),
            ("WORD JOINER", "\u2060", "U+2060"),
            ("SOFT HYPHEN", "\u00ad", "U+00AD"),
            ("ARABIC LETTER MARK", "\u061c", "U+061C"),
        )
    ],
    (
        "#5 ANSI escape in the template's signature_block",
        ["draft", "ansi-signature.json", "--example", *M, "--out", "o17"],
        ["/signature_block", "ANSI"],
    ),
    (
        "#5 U+202E in the template's preamble",
        ["draft", "rtl-preamble.json", "--example", *M, "--out", "o18"],
        ["/preamble", "U+202E"],
    ),
    (
        "#6 effective_date 2025-13-45",
        [*D, *M, "--field", "effective_date=2025-13-45", "--out", "o19"],
        ["effective_date", "real calendar date", "2025-13-45"],
    ),
    (
        "#6 effective_date February 30, 2025",
        [*D, *M, "--field", "effective_date=February 30, 2025", "--out", "o20"],
        ["effective_date", "28 days", "February 30, 2025"],
    ),
    (
        "#6 nda_term -3 years",
        [*D, *M, "--field", "nda_term=-3 years", "--out", "o21"],
        ["nda_term", "positive duration", "-3 years"],
    ),
    (
        "#6 nda_term forever",
        [*D, *M, "--field", "nda_term=forever", "--out", "o22"],
        ["nda_term", "positive duration", "forever"],
    ),
    ("#7 a clause id twice", ["draft", "dup-clause.json", "--example", *M, "--out", "o23"], ["notices", "twice"]),
    (
        "#7 minimum NaN",
        ["draft", "nan-minimum.json", "--example", *M, "--out", "o24"],
        ["NaN", "/fields/properties/royalty_percent/minimum"],
    ),
    (
        "#7 a required field no text uses",
        ["draft", "unused-field.json", "--example", *M, "--out", "o25"],
        ["signatory", "placed in no text"],
    ),
    (
        "#8 a 5 MB preamble",
        ["draft", "big-preamble.json", "--example", *M, "--out", "o26"],
        ["/preamble", "(5000000 characters)"],
    ),
    ('#10 --out ""', [*D, *M, "--out", ""], ["--out", "must name a directory"]),
    ("#10 eval bpb --split nonsense", ["eval", "bpb", *M, "--split", "nonsense"], ["--split", "nonsense"]),
]


def one_case(root: Path, name, argv, words) -> dict:
    before = _snapshot(root)
    code, out, err, secs = _run(argv, root)
    lines = err.strip().splitlines()
    last = lines[-1] if lines else ""
    after = _snapshot(root)
    changed = sorted(k for k in before if after.get(k) != before[k])
    created = sorted(k for k in after if k not in before)
    ok = (
        code == 2
        and "Traceback" not in err
        and last.startswith("hybrid: error: ")
        and len(last) < 1000
        and all(w in last for w in words)
        and not changed
        and not created
    )
    return {
        "case": name,
        "ok": ok,
        "exit": code,
        "seconds": round(secs, 2),
        "message": last[:300],
        "changed": changed,
        "created": created,
    }


def concurrent_drafts(root: Path) -> dict:
    """Two drafts into one --out at once: one completes, the other exits 2 naming the holder."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    procs = [subprocess.Popen([PY, "-m", "hybrid", *D, *M, "--out", "shared-out"], cwd=root, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    res = [(p.wait(timeout=900), p.stderr.read()) for p in procs]
    codes = sorted(c for c, _ in res)
    loser = next((e for c, e in res if c == 2), "")
    out = root / "shared-out"
    files = sorted(p.name for p in out.iterdir() if not is_bookkeeping(p.name)) if out.is_dir() else []
    ok = (
        codes == [0, 2]
        and ("in use by another run" in loser or "not empty" in loser)
        and files == ["draft-1.md", "draft-2.md", "drafts.json"]
    )
    return {
        "case": "two concurrent drafts into one --out",
        "ok": ok,
        "exits": codes,
        "loser_message": loser.strip().splitlines()[-1][:300] if loser.strip() else "",
        "files": files,
    }


def killed_force(root: Path) -> dict:
    """SIGKILL a --force run while it drafts: the previous set is left whole."""
    code, _, err, _ = _run([*D, *M, "--out", "kill-out"], root)
    assert code == 0, err
    before = {k: v for k, v in _snapshot(root / "kill-out").items() if not is_bookkeeping(k)}
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    p = subprocess.Popen(
        [
            PY,
            "-m",
            "hybrid",
            "draft",
            "mutual-nda",
            "--example",
            "-n",
            "4",
            *M,
            "--out",
            "kill-out",
            "--force",
            "--seed",
            "3",
        ],
        cwd=root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    for line in p.stderr:  # kill once the fill has started
        if "fill" in line or "outline:" in line:
            break
    time.sleep(1.0)
    p.send_signal(signal.SIGKILL)
    p.wait()
    # the killed run's lock file may stay behind (its flock died with it; the next run takes it):
    # bookkeeping, not a draft, so it is not part of the set compared
    after = {k: v for k, v in _snapshot(root / "kill-out").items() if not is_bookkeeping(k)}
    same = after == before
    return {"case": "kill -9 during a --force draft", "ok": same, "files_after": sorted(after),
            "left_behind": sorted(p.name for p in (root / "kill-out").iterdir() if is_bookkeeping(p.name))}


def _listing(d: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(d.iterdir()) if p.is_file() and not is_bookkeeping(p.name)}


def force_keeps_what_hybrid_did_not_write(root: Path) -> list[dict]:
    """Issue 29 #1: a 1-draft set plus the user's own draft-2.md, then `-n 2 --force`; and a name added
    to drafts.json's list by hand. Both exit 2 naming the file, every file byte-identical."""
    code, _, err, _ = _run([*D, "-n", "1", *M, "--out", "force-out"], root)
    assert code == 0, err
    (root / "force-out" / "draft-2.md").write_text("the user's own draft")
    one = one_case(
        root,
        "#1 --force over the user's draft-2.md",
        [*D, *M, "--out", "force-out", "--force"],
        ["draft-2.md", "not a file hybrid wrote"],
    )
    (root / "force-out" / "draft-2.md").unlink()
    report = json.loads((root / "force-out" / "drafts.json").read_text())
    report["files"].append("notes.txt")
    (root / "force-out" / "notes.txt").write_text("the user's notes")
    (root / "force-out" / "drafts.json").write_text(json.dumps(report))
    two = one_case(
        root,
        "#1 --force with notes.txt added to drafts.json",
        [*D, "-n", "1", *M, "--out", "force-out", "--force"],
        ["drafts.json", "changed since"],
    )
    return [one, two]


_KILL_BETWEEN_MOVES = """
import os, signal, sys
from pathlib import Path
from hybrid.common import outdir
d = Path(sys.argv[1]); real = os.replace; moved = []
def replace_then_die(src, dst):
    if Path(dst).parent == d and Path(dst).name != outdir.JOURNAL_NAME:
        if len(moved) == 1:
            os.kill(os.getpid(), signal.SIGKILL)
        moved.append(dst)
    real(src, dst)
outdir.os.replace = replace_then_die
with outdir.OutputLock(d):
    fs = outdir.FileSet(d, owned=True)
    for name in ("draft-1.md", "draft-2.md", "drafts.json"):
        fs.path(name).write_text("the killed run's " + name)
    fs.commit(remove=list(outdir.recorded(d)))
"""


def interrupted_commit_then_plain_run(root: Path) -> dict:
    """Issue 29 #9: SIGKILL between two moves of a commit (the new draft-1.md beside the old drafts.json);
    the next plain run completes that commit and says so, then exits 2 "not empty"."""
    code, _, err, _ = _run([*D, *M, "--out", "killed-commit"], root)
    assert code == 0, err
    d = root / "killed-commit"
    p = subprocess.run([PY, "-c", _KILL_BETWEEN_MOVES, str(d)], cwd=root, env={**os.environ, "PYTHONPATH": str(REPO)},
                       capture_output=True, text=True, timeout=120)
    mixed = (d / "draft-1.md").read_text().startswith("the killed run's") and not (
        d / "drafts.json"
    ).read_text().startswith("the killed")
    code, _, err, _ = _run([*D, *M, "--out", "killed-commit"], root)
    last = err.strip().splitlines()[-1] if err.strip() else ""
    files = _listing(d)
    whole = sorted(files) == ["draft-1.md", "draft-2.md", "drafts.json"] and all(
        v.startswith(b"the killed run's") for v in files.values()
    )
    ok = (
        p.returncode == -signal.SIGKILL
        and mixed
        and code == 2
        and "Traceback" not in err
        and "completed an interrupted write" in err
        and "interrupted run" in last
        and whole
        and not (d / ".commit.json").exists()
    )
    return {
        "case": "#9 a commit killed between two moves, then a plain run",
        "ok": ok,
        "exit": code,
        "mixed_before": mixed,
        "message": last[:300],
        "files_after": sorted(files),
        "whole_set_after": whole,
    }


def unwritable_is_fast(root: Path) -> dict:
    code, _, err, secs = _run([*D, *M, "--out", "/proc/hybrid-fast"], root)
    return {
        "case": "draft --out unwritable fails in under 10 s",
        "ok": code == 2 and secs < 10,
        "seconds": round(secs, 2),
    }


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=None, help="also write the JSON line to this file")
    ap.add_argument("--only", default=None, help="run only the cases whose name holds this text")
    args = ap.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="hybrid-bad-inputs-"))
    try:
        _setup(root)
        (root / "empty.jsonl").write_text('{"text": ""}\n')
        results = [one_case(root, *c) for c in CASES if not args.only or args.only in c[0]]
        if not args.only:
            results += [unwritable_is_fast(root), concurrent_drafts(root), killed_force(root)]
            results += [*force_keeps_what_hybrid_did_not_write(root), interrupted_commit_then_plain_run(root)]
        for r in results:
            print(("ok   " if r["ok"] else "FAIL ") + r["case"] + ("" if r["ok"] else f": {r}"), file=sys.stderr)
        out = {"benchmark": "bad_inputs", "cases": len(results), "passed": sum(r["ok"] for r in results),
               "failed": [r["case"] for r in results if not r["ok"]], **machine(),
               "threads": 1, "results": results}  # threads: the CLI runs each case at its default --threads 1
        line = json.dumps(out, ensure_ascii=False)
        print(line)
        if args.out:
            Path(args.out).write_text(line + "\n")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
