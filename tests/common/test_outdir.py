"""hybrid.common.outdir: writability checked up front, one writer per directory, file sets committed whole,
and a commit killed at any point leaves the old set or the new one, never a mix."""

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from hybrid.common import outdir
from hybrid.common.errors import OutputError
from hybrid.common.outdir import JOURNAL_NAME, FileSet, OutputLock, check_writable, recover

REPO = Path(__file__).resolve().parents[2]


def _listing(d: Path) -> dict:
    return {p.name: p.read_text() for p in sorted(d.iterdir()) if p.is_file()}


def _old_set(d: Path) -> dict:
    d.mkdir(exist_ok=True)
    for name, text in {"a.txt": "old a", "b.txt": "old b", "gone.txt": "old only", "mine.txt": "user file"}.items():
        (d / name).write_text(text)
    return _listing(d)


NEW = {"a.txt": "new a", "b.txt": "new b", "c.txt": "new c"}
NEW_LISTING = {**NEW, "mine.txt": "user file"}


def _write_new(fs: FileSet) -> None:
    for name, text in NEW.items():
        fs.path(name).write_text(text)


@pytest.mark.parametrize("where,why", [
    ("file", "is an existing file"),
    ("under_file", "is a file, not a directory"),
    ("proc", "not writable"),
])
def test_unwritable_locations_are_refused_before_any_work(tmp_path, where, why):
    (tmp_path / "f").write_text("keep")
    out = {"file": tmp_path / "f", "under_file": tmp_path / "f" / "sub" / "out", "proc": Path("/proc/hybrid-out/x")}[
        where
    ]
    with pytest.raises(OutputError, match=why) as e:
        check_writable(out, "--out")
    assert str(out) in str(e.value) and "--out" in str(e.value)
    assert (tmp_path / "f").read_text() == "keep" and sorted(p.name for p in tmp_path.iterdir()) == ["f"]


def test_check_writable_creates_nothing(tmp_path):
    check_writable(tmp_path / "a" / "b")
    check_writable(tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_commit_replaces_the_old_set_and_keeps_other_files(tmp_path):
    d = tmp_path / "out"
    _old_set(d)
    with OutputLock(d):
        fs = FileSet(d)
        _write_new(fs)
        fs.commit(remove=["a.txt", "b.txt", "gone.txt"])
    assert _listing(d) == NEW_LISTING and sorted(p.name for p in d.iterdir()) == sorted(NEW_LISTING)


def test_a_failure_before_commit_leaves_the_old_set_untouched(tmp_path):
    d = tmp_path / "out"
    before = _old_set(d)
    with pytest.raises(RuntimeError):
        with OutputLock(d), FileSet(d) as fs:
            fs.path("a.txt").write_text("half")
            raise RuntimeError("drafting failed")
    assert _listing(d) == before and sorted(p.name for p in d.iterdir()) == sorted(before)


def test_a_failed_run_removes_the_directory_it_created(tmp_path):
    d = tmp_path / "new"
    with pytest.raises(RuntimeError):
        with OutputLock(d):
            raise RuntimeError("boom")
    assert not d.exists()


def test_a_second_writer_is_refused_naming_the_holder(tmp_path):
    d = tmp_path / "out"
    with OutputLock(d):
        with pytest.raises(OutputError, match=rf"in use by another run \(pid {os.getpid()}"):
            with OutputLock(d):
                pass
        assert d.is_dir()
    with OutputLock(d):  # released: the next run gets it
        pass


_KILL_MID_COMMIT = """
import os, signal, sys
from pathlib import Path
from hybrid.common import outdir
d = Path(sys.argv[1]); stage_at = sys.argv[2]
real_replace = os.replace
moved = []
def replace_then_die(src, dst):
    real_replace(src, dst)
    moved.append(dst)
    if stage_at == "apply" and len(moved) == 2:
        os.kill(os.getpid(), signal.SIGKILL)
outdir.os.replace = replace_then_die
with outdir.OutputLock(d):
    fs = outdir.FileSet(d)
    for name, text in {new}.items():
        fs.path(name).write_text(text)
    if stage_at == "staged":
        os.kill(os.getpid(), signal.SIGKILL)
    fs.commit(remove=["a.txt", "b.txt", "gone.txt"])
"""


@pytest.mark.parametrize("stage_at,expect_new", [("staged", False), ("apply", True)])
def test_kill_9_during_a_write_leaves_the_old_set_or_the_new_one(tmp_path, stage_at, expect_new):
    d = tmp_path / "out"
    before = _old_set(d)
    proc = subprocess.run(
        [sys.executable, "-c", _KILL_MID_COMMIT.replace("{new}", repr(NEW)), str(d), stage_at],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    if expect_new:  # killed after two of three moves: a mix on disk until the journal is replayed
        assert (d / JOURNAL_NAME).is_file()
    with OutputLock(d):  # what every writer does first
        recover(d)
    assert _listing(d) == (NEW_LISTING if expect_new else before)
    assert not [p for p in d.iterdir() if outdir.is_bookkeeping(p.name)]


def test_a_damaged_journal_is_an_error_not_a_guess(tmp_path):
    d = tmp_path / "out"
    _old_set(d)
    (d / JOURNAL_NAME).write_text("{not json")
    with pytest.raises(OutputError, match="damaged"):
        recover(d)
    (d / JOURNAL_NAME).write_text(json.dumps({"stage": "../../etc", "files": ["a.txt"], "remove": []}))
    with pytest.raises(OutputError, match="damaged"):
        recover(d)
