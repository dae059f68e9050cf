"""hybrid.common.outdir: writability checked up front, one writer per directory, file sets committed whole,
and a commit killed at any point leaves the old set or the new one, never a mix."""

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from hybrid.common import outdir
from hybrid.common.errors import OutputError
from hybrid.common.outcheck import shown
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
    assert shown(out) in str(e.value) and "--out" in str(e.value)  # shown: a long path keeps its start and end
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


# --- owned sets: --force never deletes or changes a file hybrid did not write (issue 29 #1) --------

import tempfile  # noqa: E402
from contextlib import contextmanager  # noqa: E402

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from hybrid.common.outdir import MANIFEST_NAME, check_replaceable, is_bookkeeping, recorded  # noqa: E402

NAMES = ["draft-1.md", "draft-2.md", "draft-3.md", "drafts.json", "notes.txt", "draft-1.docx"]
CONTENT = st.binary(max_size=12)
USER_ACTS = st.sampled_from(["none", "edit", "rewrite_same", "delete", "user_file", "directory", "symlink", "dangling"])
MANIFEST_ACTS = st.sampled_from(["none", "none", "drop_entry", "wrong_hash", "add_user_name", "corrupt", "delete"])


def _tree(d: Path) -> dict:
    """Every entry but the bookkeeping: bytes of a file, ("link", target) of a symlink, "dir" of a directory."""
    out = {}
    for p in sorted(d.iterdir()):
        if is_bookkeeping(p.name):
            continue
        out[p.name] = ("link", os.readlink(p)) if p.is_symlink() else "dir" if p.is_dir() else p.read_bytes()
    return out


def _owned_commit(d: Path, files: dict, remove) -> None:
    fs = FileSet(d, owned=True)
    try:
        for name, data in files.items():
            fs.path(name).write_bytes(data)
        fs.commit(remove=remove)
    finally:
        fs.discard()


class _Killed(BaseException):
    pass


@contextmanager
def _killed_after(d: Path, moves: int | None):
    """os.replace dies (like SIGKILL, nothing runs after it) once `moves` files of a set have moved into d."""
    real, done = os.replace, []

    def replace(src, dst):
        if moves is not None and Path(dst).parent == d and Path(dst).name != JOURNAL_NAME:
            if len(done) == moves:
                raise _Killed
            done.append(dst)
        real(src, dst)

    outdir.os.replace = replace
    try:
        yield
    finally:
        outdir.os.replace = real


@settings(
    max_examples=300, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(first=st.dictionaries(st.sampled_from(NAMES), CONTENT, min_size=1),
       acts=st.lists(st.tuples(st.sampled_from(NAMES), USER_ACTS, CONTENT), max_size=5),
       manifest_act=st.tuples(MANIFEST_ACTS, st.sampled_from(NAMES)),
       second=st.dictionaries(st.sampled_from(NAMES), CONTENT, min_size=1),
       listed=st.lists(st.sampled_from(NAMES + ["../outside.txt", "", ".", ".hybrid.lock"]), max_size=4),
       kill=st.one_of(st.none(), st.integers(0, 4)))
def test_force_never_deletes_or_changes_a_file_hybrid_did_not_write(first, acts, manifest_act, second, listed, kill):
    """A first owned commit, then the user's doings (edits, own files, a directory or a link in the way,
    hand edits of the record), then a second owned commit that asks to remove the recorded set plus any
    names at all (an edited drafts.json list), possibly killed mid-way and replayed: every entry that is
    not hybrid's own unchanged file is exactly as the user left it, and the commit goes through exactly
    when nothing of the user's is in its way."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "outside.txt").write_bytes(b"outside")
        d = root / "out"
        d.mkdir()
        _owned_commit(d, first, [])
        for name, act, data in acts:
            p = d / name
            if act == "edit" and p.is_file() and not p.is_symlink():
                p.write_bytes(p.read_bytes() + b"+" + data)
            elif act == "rewrite_same" and p.is_file() and not p.is_symlink():
                p.write_bytes(p.read_bytes())
            elif act == "delete" and p.is_file() and not p.is_symlink():
                p.unlink()
            elif not os.path.lexists(p):
                if act == "user_file":
                    p.write_bytes(b"user " + data)
                elif act == "directory":
                    p.mkdir()
                    (p / "inside").write_bytes(data)
                elif act == "symlink":
                    p.symlink_to(root / "outside.txt")
                elif act == "dangling":
                    p.symlink_to(root / "nowhere")
        act, name = manifest_act
        m = d / MANIFEST_NAME
        record = json.loads(m.read_text())
        if act == "drop_entry":
            record["files"].pop(name, None)
        elif act == "wrong_hash":
            record["files"][name] = "0" * 64
        elif act == "add_user_name":
            record["files"]["notes.txt"] = "f" * 64
        if act == "corrupt":
            m.write_text("{damaged")
        elif act == "delete":
            m.unlink()
        elif act != "none":
            m.write_text(json.dumps(record))

        proven = recorded(d)
        ours = {
            n for n in proven if (d / n).is_file() and not (d / n).is_symlink() and outdir._sha256(d / n) == proven[n]
        }
        protected = {n: v for n, v in _tree(d).items() if n not in ours}  # the user's: never touched
        before = _tree(d)
        remove = list(proven) + listed
        in_way = [n for n in dict.fromkeys([*second, *remove]) if n in protected]
        try:
            with _killed_after(d, kill):
                _owned_commit(d, second, remove)
        except OutputError as e:
            assert in_way and str(d / in_way[0]) in str(e) or any(str(d / n) in str(e) for n in in_way), str(e)
            assert _tree(d) == before  # refused before anything moved
            assert not (d / JOURNAL_NAME).exists()
        except _Killed:
            assert not in_way
            recover(d)  # what the next run does first
        else:
            assert not in_way, (in_way, protected)
        after = _tree(d)
        for n, v in protected.items():
            assert after.get(n) == v, n
        assert (root / "outside.txt").read_bytes() == b"outside"
        if not in_way:  # committed: the new set in place, the old one gone, the user's kept
            assert {n: after[n] for n in second} == second
            assert set(after) == set(second) | set(protected) | {n for n in ours if n not in remove}
            assert recorded(d) == {n: outdir._sha256(d / n) for n in second} | {
                n: proven[n] for n in ours if n not in second and n not in remove
            }
        assert not (d / JOURNAL_NAME).exists() and not list(d.glob(".stage-*"))


def test_check_replaceable_names_the_first_file_in_the_way(tmp_path):
    d = tmp_path / "out"
    d.mkdir()
    _owned_commit(d, {"draft-1.md": b"ours"}, [])
    assert check_replaceable(d, ["draft-1.md", "drafts.json"]) == {"draft-1.md": outdir._sha256(d / "draft-1.md")}
    (d / "drafts.json").write_text("mine")
    with pytest.raises(OutputError, match=re.escape(f"{shown(d / 'drafts.json')} is not a file hybrid wrote there")):
        check_replaceable(d, ["draft-1.md", "drafts.json"])


def test_a_replay_checks_the_hashes_again(tmp_path):
    """Killed mid-commit, then the user edits an old file still waiting to be replaced: the replay stops
    naming it instead of overwriting the edit."""
    d = tmp_path / "out"
    d.mkdir()
    _owned_commit(d, {"a.md": b"old a", "b.md": b"old b"}, [])
    with pytest.raises(_Killed), _killed_after(d, 1):
        _owned_commit(d, {"a.md": b"new a", "b.md": b"new b"}, list(recorded(d)))
    (d / "b.md").write_bytes(b"the user's edit")
    with pytest.raises(OutputError, match=re.escape(f"{shown(d / 'b.md')} is not a file hybrid wrote there")):
        recover(d)
    assert (d / "b.md").read_bytes() == b"the user's edit" and (d / "a.md").read_bytes() == b"new a"
