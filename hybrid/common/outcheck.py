"""Is an output location usable: the check every writer runs before any work.

Owns: `check_writable` (an existing writable directory, or one that can be created: no dangling
or looping symlinks, no file in the way, no name too long, a parent that really takes a file) and
the one-line messages it raises, each naming the option and the path. Creates nothing that stays.
The lock and the staged commit that follow it are hybrid.common.outdir's.
"""

import errno
import os
from pathlib import Path

from hybrid.common.errors import OutputError

__all__ = ["check_writable", "shown", "unusable"]

_SHOWN = 80  # characters of a path echoed in a message (as hybrid.common.textsafe.SHOWN_CHARS) ...
_HEAD = 24  # ... of which its start; the rest are its end, where the file's own name is


def shown(path) -> str:
    """`path` as a message echoes it: a longer one than _SHOWN characters keeps its start and its end (the name
    of the file in question, "/tmp/pytest-of-root/pyt...ames_added0/o/drafts.json (91 characters)"), saying how
    long it was."""
    text = str(path)
    if len(text) <= _SHOWN:
        return text
    return f"{text[:_HEAD]}...{text[len(text) - (_SHOWN - _HEAD):]} ({len(text)} characters)"


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


def unusable(option: str, out, path, e: OSError) -> OutputError:
    """The OutputError for an OSError met at `path` while checking or creating `out`."""
    what = "" if Path(path) == Path(out) else f": {shown(path)}"
    hint = {errno.ELOOP: " (a symlink loop)", errno.ENAMETOOLONG: " (a path component over 255 bytes)"}.get(e.errno, "")
    return OutputError(f"{option} {shown(out)} cannot be used{what}: {e.strerror or e}{hint}; choose another path.")


def _dangling(option: str, out, link: Path) -> OutputError:
    try:
        target = os.readlink(link)
    except OSError:
        target = "?"
    what = "" if link == Path(out) else f": {shown(link)}"
    return OutputError(f"{option} {shown(out)}{what} is a symlink to {shown(target)}, which does not exist; "
                       "remove the link or choose another path.")


def check_writable(out, option: str = "--out") -> None:
    """OutputError (naming `option`, the path and why) unless `out` is, or can be created as, a writable
    directory. Creates nothing that stays. Symlinks that point nowhere or loop, names too long and
    parents that are files are refused here, before any work."""
    if isinstance(out, str) and not out.strip():
        raise OutputError(f"{option} must name a directory, got {out!r}.")
    out = Path(out)
    try:
        st = os.stat(out)
    except (FileNotFoundError, NotADirectoryError):
        st = None
    except OSError as e:
        raise unusable(option, out, out, e) from None
    if st is not None:
        if not os.path.isdir(out):
            raise OutputError(
                f"{option} {shown(out)} is an existing file; pass a directory (it is created when missing)."
            )
        why = _probe(out)
        if why:
            raise OutputError(f"{option} {shown(out)} is not writable ({why}); choose a writable directory.")
        return
    if os.path.islink(out):
        raise _dangling(option, out, out)
    parent = out.parent
    while True:
        try:
            os.stat(parent)
            break
        except (FileNotFoundError, NotADirectoryError):
            if os.path.islink(parent):
                raise _dangling(option, out, parent) from None
            if parent == parent.parent:
                break
            parent = parent.parent
        except OSError as e:
            raise unusable(option, out, parent, e) from None
    if not parent.is_dir():
        raise OutputError(f"{option} {shown(out)}: {shown(parent)} is a file, not a directory; choose another path.")
    why = _probe(parent)
    if why:
        raise OutputError(
            f"{option} {shown(out)} cannot be created: {shown(parent)} is not writable ({why}); "
            "choose a writable directory."
        )
    name_max = _name_max(parent)
    below = out.parts[len(parent.parts):] if out.parts[:len(parent.parts)] == parent.parts else out.parts
    for part in below:
        if len(os.fsencode(part)) > name_max:
            raise OutputError(
                f"{option} {shown(out)} cannot be created: the name {shown(part)} is {len(os.fsencode(part))} bytes, "
                f"over the {name_max} a name may have here; choose a shorter one."
            )


def _name_max(directory: Path) -> int:
    try:
        return os.pathconf(directory, "PC_NAME_MAX")
    except (OSError, ValueError):
        return 255
