"""The named user libraries on disk: $HYBRID_CACHE/precedents/user/<name>.json, one per `hybrid library add --name`.

Owns: what a library may be named (RESERVED names refused, each with its reason), where each lives, loading one with
every stored field checked, the state of each (`statuses`: what `hybrid library list` shows) and removing one. A
library whose file is cut short, overwritten or holds a field of the wrong kind is a DamagedLibrary naming that
library and the commands that repair it: never a TypeError later while drafting, never a reason to rebuild the
shipped library, and never another library's problem (`statuses` reports it beside the others). Beside each library,
<name>.originals.json keeps its clauses' own words as their files had them (`save_originals`, `load_originals`: what a
redline strikes from, hybrid.precedents.originals). What a library holds and how a folder of contracts becomes one:
hybrid.precedents.user.
"""

import json
import os
import re
import stat
from pathlib import Path

from hybrid.common.atomic import write_text_atomic
from hybrid.common.textsafe import printable, shown
from hybrid.precedents.library import FORMAT, Library, Precedent, PrecedentError, default_library_path

__all__ = ["SHIPPED", "RESERVED", "DamagedLibrary", "check_name", "user_library_path", "user_libraries",
           "load_user_library", "statuses", "remove_library", "repair", "save_originals", "load_originals",
           "SOURCE_PREFIX", "library_of", "readd_hint"]

SHIPPED = "shipped"
SOURCE_PREFIX = "library:"  # a user library's precedents' source: "library:<name>"


def library_of(citation: dict) -> "str | None":
    """The user library a cited precedent came from (its source "library:<name>"), or None for a shipped one."""
    source = str(citation.get("source", ""))
    return source[len(SOURCE_PREFIX):] if source.startswith(SOURCE_PREFIX) else None


def readd_hint(name: str) -> str:
    """What brings a user library's clauses' own words back: adding its folder again."""
    return f"add its folder again (`hybrid library add DIR --name {name}`)"
RESERVED = {  # a user library may not take these names: each already means something where a library is chosen
    SHIPPED: "it names the shipped library, which the workbench lists as 'shipped' and `hybrid draft --library "
             "shipped` drafts from",
}
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
_TEXT = ("id", "doc_id", "source", "license", "doc_type", "clause_type", "heading", "body")  # Precedent's str fields
_LISTS = {"facts": (str,), "numbers": (str,), "sides": (str, type(None))}  # its list fields, and what they hold
_KIND = {bool: "true or false", int: "a number", float: "a number", type(None): "null", list: "a list",
         dict: "an object", str: "text"}


class DamagedLibrary(PrecedentError):
    """A user library whose file cannot be read as one; `why` says what is wrong, the message how to repair it."""

    def __init__(self, name: str, why: str):
        self.name, self.why = name, why
        super().__init__(f"library {name!r} is damaged ({why}); {repair(name)}.")


def repair(name: str) -> str:
    """What repairs user library `name`: its folder added afresh, or the library removed."""
    return (f"add its contracts again with `hybrid library add DIR --name {name} --replace`, or remove it with "
            f"`hybrid library remove {name}`")


def check_name(name) -> str:
    """`name` when a user library may take it; PrecedentError saying why not (its form, or the name is reserved)."""
    if not isinstance(name, str) or not _NAME.match(name):
        raise PrecedentError(
            f"a library name is 1-40 lower-case letters, digits, '-' or '_' (starting with a letter or digit), "
            f"got {shown(name)}."
        )
    if name in RESERVED:
        raise PrecedentError(f"the library name {name!r} is reserved: {RESERVED[name]}; choose another name.")
    return name


def _folder() -> Path:
    return default_library_path().parent / "user"


def user_library_path(name: str) -> Path:
    return _folder() / f"{check_name(name)}.json"


def _stored() -> list[str]:
    """The names of every library file there is, reserved ones (written before names were reserved) included."""
    folder = _folder()
    return sorted(p.stem for p in folder.glob("*.json") if _NAME.match(p.stem)) if folder.is_dir() else []


def user_libraries() -> list[str]:
    """The names of the user libraries added so far (damaged ones included: loading one says what is wrong)."""
    return [n for n in _stored() if n not in RESERVED]


def _unknown(name: str) -> PrecedentError:
    have = ", ".join(user_libraries()) or "none yet"
    return PrecedentError(f"unknown library {shown(name)} (added: {have}); add one with `hybrid library add DIR "
                          f"--name {name}`.")


def load_user_library(name: str) -> Library:
    """A user library by name; PrecedentError naming the ones there are when it is not, DamagedLibrary when its file
    is not a whole library of this version."""
    path = user_library_path(name)
    if not path.is_file():
        raise _unknown(name)
    return _read(path, name)


def _read(path: Path, name: str) -> Library:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO put in its place must not hang every command
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise DamagedLibrary(name, "not a regular file")
            data = json.loads(f.read())
    except OSError as e:
        raise DamagedLibrary(name, f"unreadable: {e.strerror or type(e).__name__}") from None
    except (ValueError, RecursionError):  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise DamagedLibrary(name, "not a whole JSON file: cut short or overwritten") from None
    why = _problem(data)
    if why is not None:
        raise DamagedLibrary(name, why)
    return Library([Precedent(**p) for p in data["precedents"]], data["corpus_fingerprint"], data.get("corpus", ""))


def _problem(data) -> str | None:
    """Why `data` (a library file's JSON) is not a library this version reads, or None. Names fields and kinds,
    never echoes what the file holds."""
    if not isinstance(data, dict) or not isinstance(data.get("precedents"), list):
        return "not a library file: no list of clauses"
    if data.get("format") != FORMAT:
        return f"its format is {shown(data.get('format'), 20)}, this version reads {FORMAT}"
    if not isinstance(data.get("corpus_fingerprint"), str) or not isinstance(data.get("corpus", ""), str):
        return "its fingerprint is not text"
    clauses = data["precedents"]
    for i, p in enumerate(clauses, 1):
        why = _clause_problem(p)
        if why is not None:
            return f"clause {i} of {len(clauses)}: {why}"
    return None


def _clause_problem(p) -> str | None:
    if not isinstance(p, dict):
        return f"{_KIND.get(type(p), 'something else')}, not a clause"
    if set(p) - set(_TEXT) - set(_LISTS):
        return "a field this version does not know"
    for k in _TEXT:
        if not isinstance(p.get(k), str):
            return f"its {k!r} is {_KIND.get(type(p.get(k)), 'something else')}, not text" if k in p else f"no {k!r}"
    for k, kinds in _LISTS.items():
        v = p.get(k, [])
        if not isinstance(v, list) or not all(isinstance(x, kinds) for x in v):
            return f"its {k!r} is not a list of text"
    if printable(p["id"]) != p["id"]:
        return "its file name holds a line break or another control character"
    return None


def statuses() -> list[dict]:
    """Every library stored, each {"name", "status": "ok", "precedents", "files"} or {"name", "status": "damaged" or
    "reserved name", "why", "repair"}: one damaged library is reported here, never raised (the others are listed)."""
    rows = []
    for name in _stored():
        if name in RESERVED:  # added before the name was reserved: listed so that it can be moved and removed
            rows.append({"name": name, "status": "reserved name", "why": RESERVED[name],
                         "repair": f"add its contracts again under another name, then `hybrid library remove {name}`"})
            continue
        try:
            lib = _read(_folder() / f"{name}.json", name)
        except DamagedLibrary as e:
            rows.append({"name": name, "status": "damaged", "why": e.why, "repair": repair(name)})
            continue
        rows.append({"name": name, "status": "ok", "precedents": len(lib),
                     "files": len({p.doc_id for p in lib.precedents})})
    return rows


def remove_library(name: str) -> Path:
    """Delete user library `name` (damaged, or under a name reserved since it was added, alike): its file only."""
    if name not in RESERVED:
        check_name(name)
    path = _folder() / f"{name}.json"
    if not (path.is_file() or path.is_symlink()):
        raise _unknown(name)
    path.unlink()
    _originals_path(name).unlink(missing_ok=True)
    return path


def _originals_path(name: str) -> Path:
    return _folder() / f"{name}.originals.json"


def save_originals(name: str, originals: dict[str, str]) -> Path:
    """Keep {clause id: its words as its file had them} beside user library `name` (written whole, then renamed)."""
    return write_text_atomic(_originals_path(check_name(name)), json.dumps(originals, ensure_ascii=False))


def load_originals(name: str) -> dict[str, str]:
    """{clause id: its own words} of user library `name`; {} where none were kept (a library added before they were,
    a name that is no library's) or the file is not one (a redline is then left out, never drawn against other
    words)."""
    if not _NAME.match(str(name)):
        return {}
    try:
        data = json.loads(_originals_path(name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}
