"""Output directories that lose nothing: checked before the work, one writer at a time, file sets
committed as a whole, interrupted commits completed.

Owns: the per-directory lock and the staged, journaled commit of a set of files into a directory
(drafts + drafts.json, a checkpoint, a report); the writability check before them is
hybrid.common.outcheck's (`check_writable`, importable from here).
Knows nothing about drafts, checkpoints or models: callers name the files.

How a set is committed (`FileSet`): files are written into `DIR/.stage-PID/` (inside the target,
so always on the target's filesystem, mount points included); then a journal `DIR/.commit.json`
naming the new files and the old ones to remove is written atomically; then each file is moved
into place with os.replace and the old set's leftovers are unlinked; then the journal goes. A kill
before the journal leaves the old set untouched (the stage is swept by the next run); a kill after
it is rolled forward by `recover(DIR)`, which every writer and reader of such a directory calls
first, so a reader never sees a mix of two sets. Nothing outside the named files is ever removed.

Owned sets (`FileSet(out, owned=True)`, the drafts of `hybrid draft`): each commit also records the
sha256 of every file it wrote in `DIR/.hybrid-files.json` (moved in last, with the set), and a later
commit replaces or removes a file only when it is a regular file whose content still has the
sha256 recorded there. A name that collides with any other file (the user's own, an edited draft,
a name added to a list by hand) is an OutputError naming it, raised before anything moves; the
journal carries those hashes, so a replay checks them again.

The lock (`OutputLock`) is an flock on `DIR/.hybrid.lock` holding the owner's pid and command:
released by the kernel when its holder dies, so a killed run never blocks the next one.
"""

import errno
import fcntl
import hashlib
import json
import os
import re
import shutil
import stat
import sys
import time
from pathlib import Path

from hybrid.common.errors import OutputError
from hybrid.common.outcheck import check_writable, shown, unusable

__all__ = [
    "check_writable",
    "OutputLock",
    "FileSet",
    "recover",
    "pending_commit",
    "is_bookkeeping",
    "recorded",
    "check_replaceable",
    "LOCK_NAME",
    "JOURNAL_NAME",
    "MANIFEST_NAME",
]

LOCK_NAME = ".hybrid.lock"
JOURNAL_NAME = ".commit.json"
MANIFEST_NAME = ".hybrid-files.json"  # an owned set's files and their sha256, as committed
STAGE_PREFIX = ".stage-"


def is_bookkeeping(name: str) -> bool:
    """True for this module's own bookkeeping entries (never user files, ignored by emptiness checks)."""
    return (
        name in (LOCK_NAME, JOURNAL_NAME, MANIFEST_NAME)
        or name.startswith(STAGE_PREFIX)
        or name.startswith(f"{JOURNAL_NAME}.tmp-")
    )


class OutputLock:
    """Exclusive use of one output directory for the life of a run (a context manager).

    Creates the directory when missing; on exit, removes it again when this run created it and
    left nothing in it (a failed run leaves no empty folder behind). A second run exits 2 naming
    the holder's pid and command.
    """

    def __init__(self, out, option: str = "--out"):
        self.out, self.option = Path(out), option
        self.created, self.fd = False, None

    def __enter__(self) -> "OutputLock":
        check_writable(self.out, self.option)
        try:
            return self._take()
        except OSError as e:  # a race with another process, a full disk: still one line, never a traceback
            self._cleanup()
            raise unusable(self.option, self.out, getattr(e, "filename", None) or self.out, e) from None

    def _take(self) -> "OutputLock":
        if not self.out.exists():
            self.out.mkdir(parents=True, exist_ok=True)
            self.created = True
        path = self.out / LOCK_NAME
        while True:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as e:
                os.close(fd)
                if e.errno not in (errno.EWOULDBLOCK, errno.EACCES):
                    raise
                self._cleanup()
                raise OutputError(f"{self.option} {self.out} is in use by another run ({_holder(path)}); "
                                  "wait for it to finish or choose another directory.") from None
            try:  # the holder before us may have unlinked the file between our open and our flock
                same = os.stat(path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.write(
            fd,
            json.dumps(
                {"pid": os.getpid(), "command": " ".join(sys.argv), "since": time.strftime("%Y-%m-%d %H:%M:%S")}
            ).encode(),
        )
        self.fd = fd
        return self

    def __exit__(self, *exc) -> None:
        if self.fd is not None:
            (self.out / LOCK_NAME).unlink(missing_ok=True)
            os.close(self.fd)
            self.fd = None
        self._cleanup()

    def _cleanup(self) -> None:
        if self.created and self.out.is_dir() and not any(not is_bookkeeping(p.name) for p in self.out.iterdir()):
            shutil.rmtree(self.out, ignore_errors=True)


def _holder(path: Path) -> str:
    try:
        info = json.loads(path.read_text())
        return f"pid {info['pid']}, since {info['since']}: {info['command'][:120]}"
    except (OSError, ValueError, KeyError, TypeError):
        return "holder unknown"


def _write_json_atomic(path: Path, obj) -> None:
    tmp = path.with_name(f"{path.name}.tmp-{os.getpid()}")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(obj, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _plain(name) -> bool:
    """A file name this module may create or remove inside its directory: no path, no `.`/`..`."""
    return isinstance(name, str) and name not in ("", ".", "..") and "/" not in name and "\0" not in name


_HEX64 = re.compile(r"[0-9a-f]{64}")


def _sha256(path: Path) -> str | None:
    """sha256 of a regular file, never read through a symlink; None for anything else (or nothing)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        h = hashlib.sha256()
        while chunk := os.read(fd, 1 << 20):
            h.update(chunk)
        return h.hexdigest()
    finally:
        os.close(fd)


def recorded(out) -> dict[str, str]:
    """name -> sha256 of the files the last owned commit in `out` wrote (MANIFEST_NAME); {} when there is
    none or it cannot be read, so that nothing is taken for hybrid's own without proof."""
    try:
        data = json.loads((Path(out) / MANIFEST_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, dict):
        return {}
    return {
        n: h
        for n, h in files.items()
        if _plain(n) and not is_bookkeeping(n) and isinstance(h, str) and _HEX64.fullmatch(h)
    }


def _not_ours(path: Path) -> OutputError:
    return OutputError(
        f"{shown(path)} is not a file hybrid wrote there, or it was changed since (its sha256 is not the one "
        f"recorded in {MANIFEST_NAME} when hybrid wrote it); it is left as it is: "
        "move it away or choose another directory."
    )


def check_replaceable(out, names, remove=()) -> dict[str, str]:
    """name -> sha256 of each file in `out` that an owned commit of `names` (dropping `remove`) would
    replace or unlink, each proven hybrid's own: a regular file whose content has the sha256 the last
    owned commit recorded for that name. OutputError naming the first file that is not."""
    out = Path(out)
    record = recorded(out)
    check = {}
    for name in dict.fromkeys([*names, *remove]):
        path = out / name
        if not _plain(name) or not os.path.lexists(path):
            continue
        h = _sha256(path)
        if h is None or record.get(name) != h:
            raise _not_ours(path)
        check[name] = h
    return check


def _verify(out: Path, name: str, check: dict | None) -> None:
    """Before an owned commit overwrites or unlinks out/name: it is still the file that was checked."""
    if check is None or name == MANIFEST_NAME or not os.path.lexists(out / name):
        return
    if name not in check or _sha256(out / name) != check[name]:
        raise _not_ours(out / name)


def _apply(out: Path, journal: dict) -> None:
    """Move the staged files into place and drop the old set's leftovers; idempotent. An owned commit's
    journal holds the sha256 of each file it may overwrite or unlink, checked again right before."""
    stage = out / journal["stage"]
    check = journal.get("check")
    for name in journal["files"]:
        if (stage / name).exists():
            _verify(out, name, check)
            os.replace(stage / name, out / name)
        elif not (out / name).exists():
            raise OutputError(f"interrupted commit in {out} cannot be completed: {stage / name} is gone; "
                              f"remove {out / JOURNAL_NAME} and rerun the command that wrote {out}.")
    for name in journal["remove"]:
        if name not in journal["files"]:
            _verify(out, name, check)
            if check is None or os.path.lexists(out / name):
                (out / name).unlink(missing_ok=True)
    _fsync_dir(out)
    (out / JOURNAL_NAME).unlink(missing_ok=True)
    shutil.rmtree(stage, ignore_errors=True)


def pending_commit(out) -> bool:
    """True when `out` holds a commit that was interrupted after its journal was written."""
    try:
        return (Path(out) / JOURNAL_NAME).is_file()
    except OSError:
        return False


def _journal_ok(journal) -> bool:
    if not (
        isinstance(journal, dict)
        and isinstance(journal.get("stage"), str)
        and journal["stage"].startswith(STAGE_PREFIX)
        and _plain(journal["stage"])
    ):
        return False
    if not all(isinstance(journal.get(k), list) and all(_plain(n) for n in journal[k]) for k in ("files", "remove")):
        return False
    check = journal.get("check")
    return check is None or (
        isinstance(check, dict)
        and all(_plain(n) and isinstance(h, str) and _HEX64.fullmatch(h) for n, h in check.items())
    )


def recover(out) -> bool:
    """Complete an interrupted commit in `out` (roll forward) and sweep stale stages. Call it with the
    directory's lock held, or before reading a directory nobody writes. Returns True when a commit
    was completed."""
    out = Path(out)
    if not out.is_dir():
        return False
    done = False
    jpath = out / JOURNAL_NAME
    if jpath.is_file():
        try:
            journal = json.loads(jpath.read_text())
            ok = _journal_ok(journal)
        except (OSError, ValueError, RecursionError):
            ok = False
        if not ok:
            raise OutputError(
                f"{jpath} is damaged; the files of {out} may be from two runs: rerun the command that wrote them."
            )
        _apply(out, journal)
        done = True
    for p in out.iterdir():
        if p.name.startswith(STAGE_PREFIX) and p.is_dir():
            shutil.rmtree(p, ignore_errors=True)
    return done


class FileSet:
    """A set of files written into a stage and committed into `out` as a whole.

    ```
    with OutputLock(out):
        fs = FileSet(out)
        fs.path("draft-1.md").write_text(...)
        fs.commit(remove=old_names)   # old names not rewritten are unlinked; nothing else is touched
    ```
    Dropped without `commit()` (an exception), the stage is removed and `out` is unchanged.

    owned=True: the set's sha256 are recorded in MANIFEST_NAME, and the commit overwrites or unlinks
    only files proven to be an earlier owned commit's, unchanged (check_replaceable); any other
    file in the way is an OutputError before anything moves.
    """

    def __init__(self, out, *, owned: bool = False):
        self.out, self.owned = Path(out), owned
        self.stage = self.out / f"{STAGE_PREFIX}{os.getpid()}"
        shutil.rmtree(self.stage, ignore_errors=True)
        self.stage.mkdir(parents=True)
        self.names: list[str] = []
        self.journaled = False  # once the journal names the stage, only recover() may remove it

    def path(self, name: str) -> Path:
        assert _plain(name) and not is_bookkeeping(name), f"file set names are plain file names, got {name!r}"
        if name not in self.names:
            self.names.append(name)
        return self.stage / name

    def commit(self, remove=()) -> list[Path]:
        missing = [n for n in self.names if not (self.stage / n).is_file()]
        assert not missing, f"file set names never written: {missing}"
        remove = [str(r) for r in remove if _plain(str(r)) and not is_bookkeeping(str(r))]
        for n in self.names:
            with open(self.stage / n, "rb") as f:
                os.fsync(f.fileno())
        journal = {"stage": self.stage.name, "files": list(self.names), "remove": remove}
        if self.owned:
            journal["check"] = check_replaceable(self.out, self.names, remove)
            kept = {n: h for n, h in recorded(self.out).items()
                    if n not in self.names and n not in remove and _sha256(self.out / n) == h}
            files = {**kept, **{n: _sha256(self.stage / n) for n in self.names}}
            _write_json_atomic(self.stage / MANIFEST_NAME, {"files": files})
            journal["files"].append(MANIFEST_NAME)
        _write_json_atomic(self.out / JOURNAL_NAME, journal)
        self.journaled = True
        _apply(self.out, journal)
        return [self.out / n for n in self.names]

    def discard(self) -> None:
        if self.journaled and (self.out / JOURNAL_NAME).exists():
            return  # a commit stopped half-way (an error while moving): the next recover() completes it
        shutil.rmtree(self.stage, ignore_errors=True)

    def __enter__(self) -> "FileSet":
        return self

    def __exit__(self, *exc) -> None:
        self.discard()
