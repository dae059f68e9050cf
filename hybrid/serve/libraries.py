"""The clause libraries the workbench offers, live: the shipped one and every user library on disk now, added and
removed from the page (or with `hybrid library add/remove` beside a running server) without a restart.

Owns: `Libraries` (names(): what a draft may name, read from disk on each ask, a damaged library left out with a
warning naming its repair, once per state of its file; listing(): each with its state, as `hybrid library list`;
add(body): a page's upload {"name", "doc_type", "files": [{"name", "data": base64}]} written into a private
temporary folder, added with hybrid.precedents.user.add_folder, the folder removed; remove(name)), `FixedLibraries`
(names fixed when the app was made, which the page cannot change: an embedder's or a test's) and `drafters`
(drafter_for(name): a Drafter per user library sharing the base Drafter's model, made again when its file changes).
Anyone who can reach the page may add and remove libraries: `hybrid serve` answers this machine only unless --host
says otherwise (hybrid.cli.serve).
"""

import base64
import binascii
import sys
import tempfile
import threading
from pathlib import Path, PurePosixPath

from hybrid.common.errors import HybridError
from hybrid.common.textsafe import printable, shown
from hybrid.serve.forms import RequestError, unknown_keys

__all__ = ["Libraries", "FixedLibraries", "drafters", "MAX_UPLOAD", "MAX_FILES"]

MAX_UPLOAD = 16 << 20  # bytes of one library upload request (base64 adds a third: some 12 MiB of contracts)
MAX_FILES = 200  # contracts in one upload
_FIXED = "this server's libraries are fixed when it starts; the page cannot add or remove one."


class FixedLibraries:
    """The libraries a page offers, fixed when the app was made; adding or removing one is refused."""

    manage = False

    def __init__(self, names=("shipped",)):
        self._names = tuple(names)

    def names(self) -> tuple[str, ...]:
        return self._names

    def listing(self) -> list[dict]:
        return [{"name": n, "status": "ok"} for n in self._names]

    def add(self, body) -> dict:
        raise RequestError(_FIXED, "library-name")

    def remove(self, name: str) -> dict:
        raise RequestError(_FIXED, "library-name")


def _stamp(path: Path):
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


class Libraries:
    """The shipped library and the user libraries on disk (hybrid.precedents.user_store), read on each ask."""

    manage = True

    def __init__(self, warn=None):
        self._lock = threading.Lock()  # one add or remove at a time: each reads, then rewrites, a library's file
        self._checked: dict[str, tuple] = {}  # name -> (its file's stamp, loads)
        self._warn = warn if warn is not None else (lambda msg: print(f"warning: {msg}", file=sys.stderr))

    def _loads(self, name: str) -> bool:
        from hybrid.precedents.user_store import DamagedLibrary, load_user_library, user_library_path

        stamp = _stamp(user_library_path(name))
        seen = self._checked.get(name)
        if seen is None or seen[0] != stamp:
            try:
                load_user_library(name)
                seen = (stamp, True)
            except DamagedLibrary as e:
                self._warn(f"{e} The workbench does not offer it.")
                seen = (stamp, False)
            except HybridError:  # removed since it was listed
                seen = (stamp, False)
            self._checked[name] = seen
        return seen[1]

    def names(self) -> tuple[str, ...]:
        """"shipped" and every user library that loads now."""
        from hybrid.precedents.user_store import SHIPPED, user_libraries

        return (SHIPPED, *(n for n in user_libraries() if self._loads(n)))

    def listing(self) -> list[dict]:
        """[{"name", "status", ...}]: the shipped library first, then hybrid.precedents.user_store.statuses()."""
        from hybrid.precedents.user_store import SHIPPED, statuses

        return [{"name": SHIPPED, "status": "ok", "shipped": True}, *statuses()]

    def add(self, body) -> dict:
        """A page's upload added to a user library (created, or extended: a file added again replaces its clauses):
        {"library", "precedents", "added", "skipped"}; RequestError naming the field that is wrong."""
        from hybrid.precedents.user import add_folder
        from hybrid.precedents.user_store import check_name

        if not isinstance(body, dict):
            raise RequestError('a library upload is a JSON object {"name", "doc_type", "files"}.', "library-files")
        unknown_keys(body, ("name", "doc_type", "files"), "a library upload")
        name, doc_type = body.get("name"), body.get("doc_type") or ""
        try:
            check_name(name)
        except HybridError as e:
            raise RequestError(str(e), "library-name") from None
        if not isinstance(doc_type, str) or len(doc_type) > 80:
            raise RequestError(f"doc_type must be text of at most 80 characters, got {shown(doc_type)}.",
                               "library-doc-type")
        files = _files(body.get("files"))
        with self._lock, tempfile.TemporaryDirectory(prefix="hybrid-library-") as tmp:
            for file_name, data in files:
                (Path(tmp) / file_name).write_bytes(data)
            try:
                _, library, added, skipped = add_folder(tmp, name, doc_type.upper())
            except HybridError as e:
                raise RequestError(str(e).replace(str(tmp), "the upload"), "library-files") from None
        return {"library": name, "precedents": len(library), "added": added, "skipped": skipped}

    def remove(self, name) -> dict:
        """User library `name` deleted (its file and its clauses' own words); RequestError for an unknown name."""
        from hybrid.precedents.user_store import remove_library

        with self._lock:
            try:
                remove_library(name)
            except HybridError as e:
                raise RequestError(str(e), "library-name") from None
        return {"removed": name}


def _files(files) -> list[tuple[str, bytes]]:
    """[(file name, bytes)] of an upload's "files": each {"name": a .md, .txt or .docx file name, "data": base64}; a
    folder's path is cut to its last part. RequestError naming the file that is wrong."""
    from hybrid.precedents.user import SUFFIXES

    if not isinstance(files, list) or not files:
        raise RequestError(f"files must be a list of 1 to {MAX_FILES} contracts, each {{\"name\", \"data\"}}, got "
                           f"{shown(files)}.", "library-files")
    if len(files) > MAX_FILES:
        raise RequestError(f"at most {MAX_FILES} files in one upload, got {len(files)}.", "library-files")
    out, seen = [], set()
    for i, f in enumerate(files):
        if not isinstance(f, dict) or not isinstance(f.get("name"), str) or not isinstance(f.get("data"), str):
            raise RequestError(f"files[{i}] must be {{\"name\": text, \"data\": base64 text}}, got {shown(f)}.",
                               "library-files")
        name = PurePosixPath(f["name"].replace("\\", "/")).name
        if (not name or name.startswith(".") or printable(name) != name or len(name) > 200
                or not name.lower().endswith(SUFFIXES)):
            raise RequestError(f"files[{i}]: a contract is a .md, .txt or .docx file with a plain name, got "
                               f"{shown(f['name'])}.", "library-files")
        if name in seen:
            raise RequestError(f"files[{i}]: {name!r} is given twice (one file of each name).", "library-files")
        try:
            data = base64.b64decode(f["data"], validate=True)
        except (binascii.Error, ValueError):
            raise RequestError(f"files[{i}] ({name}): data must be the file's bytes in base64.", "library-files") \
                from None
        seen.add(name)
        out.append((name, data))
    return out


def drafters(base, library_for=None):
    """drafter_for(library name): `base` for the shipped library (None or "shipped"), else a Drafter sharing its
    model over library_for(name) (default: hybrid.precedents.user.drafting_library), made on first use and again
    whenever the library's file has changed since (a library added to while the server runs drafts from its new
    clauses)."""
    from hybrid.draft.drafter import Drafter
    from hybrid.precedents.user import drafting_library
    from hybrid.precedents.user_store import SHIPPED, user_library_path

    library_for = library_for or drafting_library
    made: dict[str, tuple] = {}  # name -> (its file's stamp, Drafter)
    lock = threading.Lock()

    def drafter_for(name):
        if name in (None, SHIPPED):
            return base
        stamp = _stamp(user_library_path(name))
        with lock:
            if name not in made or made[name][0] != stamp:
                made[name] = (stamp, Drafter(base.model, base.tokenizer, filler=base.filler, record=base.record,
                                             path=base.path, library=library_for(name)))
            return made[name][1]

    return drafter_for

