"""Output directories that lose nothing: checked before the work, one writer at a time, file sets
committed as a whole, interrupted commits completed.

Owns: the writability check of an output location, the per-directory lock, and the staged,
journaled commit of a set of files into a directory (drafts + drafts.json, a checkpoint, a report).
Knows nothing about drafts, checkpoints or models: callers name the files.

How a set is committed (`FileSet`): files are written into `DIR/.stage-PID/` (inside the target,
so always on the target's filesystem, mount points included); then a journal `DIR/.commit.json`
naming the new files and the old ones to remove is written atomically; then each file is moved
into place with os.replace and the old set's leftovers are unlinked; then the journal goes. A kill
before the journal leaves the old set untouched (the stage is swept by the next run); a kill after
it is rolled forward by `recover(DIR)`, which every writer and reader of such a directory calls
first, so a reader never sees a mix of two sets. Nothing outside the named files is ever removed.

The lock (`OutputLock`) is an flock on `DIR/.hybrid.lock` holding the owner's pid and command:
released by the kernel when its holder dies, so a killed run never blocks the next one.
"""

import errno
import fcntl
import json
import os
import shutil
import sys
import time
from pathlib import Path

from hybrid.common.errors import OutputError

__all__ = [
    "check_writable",
    "OutputLock",
    "FileSet",
    "recover",
    "pending_commit",
    "is_bookkeeping",
    "LOCK_NAME",
    "JOURNAL_NAME",
]

LOCK_NAME = ".hybrid.lock"
JOURNAL_NAME = ".commit.json"
STAGE_PREFIX = ".stage-"


def is_bookkeeping(name: str) -> bool:
    """True for this module's own bookkeeping entries (never user files, ignored by emptiness checks)."""
    return name in (LOCK_NAME, JOURNAL_NAME) or name.startswith(STAGE_PREFIX) or name.startswith(f"{JOURNAL_NAME}.tmp-")


def _probe(directory: Path) -> str | None:
    """None when a file can be created in `directory`, else the reason (os.access is wrong for root and
    for read-only mounts, so really try)."""
    probe = directory / f".hybrid-probe-{os.getpid()}"
    try:
        fd = os.open(probe, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except OSError as e:
        return e.strerror or str(e)
    os.close(fd)
    probe.unlink(missing_ok=True)
    return None


def check_writable(out, option: str = "--out") -> None:
    """OutputError (naming `option`, the path and why) unless `out` is, or can be created as, a writable
    directory. Creates nothing that stays."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise OutputError(f"{option} {out} is an existing file; pass a directory (it is created when missing).")
    if out.is_dir():
        why = _probe(out)
        if why:
            raise OutputError(f"{option} {out} is not writable ({why}); choose a writable directory.")
        return
    parent = out.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise OutputError(f"{option} {out}: {parent} is a file, not a directory; choose another path.")
    why = _probe(parent)
    if why:
        raise OutputError(
            f"{option} {out} cannot be created: {parent} is not writable ({why}); choose a writable directory."
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


def _apply(out: Path, journal: dict) -> None:
    """Move the staged files into place and drop the old set's leftovers; idempotent."""
    stage = out / journal["stage"]
    for name in journal["files"]:
        if (stage / name).exists():
            os.replace(stage / name, out / name)
        elif not (out / name).exists():
            raise OutputError(f"interrupted commit in {out} cannot be completed: {stage / name} is gone; "
                              f"remove {out / JOURNAL_NAME} and rerun the command that wrote {out}.")
    for name in journal["remove"]:
        if name not in journal["files"]:
            (out / name).unlink(missing_ok=True)
    _fsync_dir(out)
    (out / JOURNAL_NAME).unlink(missing_ok=True)
    shutil.rmtree(stage, ignore_errors=True)


def pending_commit(out) -> bool:
    """True when `out` holds a commit that was interrupted after its journal was written."""
    return (Path(out) / JOURNAL_NAME).is_file()


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
            ok = (
                isinstance(journal, dict)
                and isinstance(journal.get("stage"), str)
                and journal["stage"].startswith(STAGE_PREFIX)
                and all(
                    isinstance(journal.get(k), list) and all(isinstance(n, str) and "/" not in n for n in journal[k])
                    for k in ("files", "remove")
                )
            )
        except (OSError, ValueError):
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
    """

    def __init__(self, out):
        self.out = Path(out)
        self.stage = self.out / f"{STAGE_PREFIX}{os.getpid()}"
        shutil.rmtree(self.stage, ignore_errors=True)
        self.stage.mkdir(parents=True)
        self.names: list[str] = []

    def path(self, name: str) -> Path:
        assert "/" not in name and not is_bookkeeping(name), f"file set names are plain file names, got {name!r}"
        if name not in self.names:
            self.names.append(name)
        return self.stage / name

    def commit(self, remove=()) -> list[Path]:
        missing = [n for n in self.names if not (self.stage / n).is_file()]
        assert not missing, f"file set names never written: {missing}"
        for n in self.names:
            with open(self.stage / n, "rb") as f:
                os.fsync(f.fileno())
        journal = {"stage": self.stage.name, "files": self.names, "remove": [str(r) for r in remove]}
        _write_json_atomic(self.out / JOURNAL_NAME, journal)
        _apply(self.out, journal)
        return [self.out / n for n in self.names]

    def discard(self) -> None:
        shutil.rmtree(self.stage, ignore_errors=True)

    def __enter__(self) -> "FileSet":
        return self

    def __exit__(self, *exc) -> None:
        self.discard()
