"""A firm's own precedents: its contracts (Markdown, text, DOCX) segmented into clauses beside the shipped library.

Owns: reading one contract file (a regular file inside the folder added: a symbolic link out of it, a FIFO or a
device is skipped unread, as is a file whose name holds a line break or another control character; at most
MAX_FILE_BYTES are read; text must be UTF-8 with no NUL byte and at most MAX_TEXT_CHARS long; a DOCX whose parts
would inflate past MAX_INFLATED_BYTES, or one of them more than MAX_RATIO-fold, is skipped before it is parsed, any
other is parsed with python-docx, never executed, and read a paragraph at a time up to MAX_PARAGRAPHS), segmenting
it with the corpus pipeline (hybrid.data.corpus.build_document: cleaning, sections, clause types), normalizing each
clause's facts (hybrid.data.facts.normalize, as the shipped library does), adding a folder to a named library
(hybrid.precedents.user_store keeps them on disk: names, loading, listing) and `preferring` (the library a draft
with --library NAME draws from: the user's clauses for every clause type they cover, the shipped library's for the
rest). A user clause cites the user's file (its path inside the folder added) and section number.
"""

import hashlib
import io
import os
import re
import stat
import zipfile
from pathlib import Path

from hybrid.common.errors import HybridError
from hybrid.common.textsafe import printable
from hybrid.precedents.library import MIN_WORDS, Library, Precedent, PrecedentError, _is_form
from hybrid.precedents.user_store import (
    SHIPPED,
    SOURCE_PREFIX,
    check_name,
    load_originals,
    load_user_library,
    save_originals,
    user_libraries,
    user_library_path,
)

__all__ = ["SUFFIXES", "add_folder", "read_contract", "user_library_path", "user_libraries", "load_user_library",
           "preferring", "check_name", "drafting_library", "USER_LICENSE", "is_own", "SHIPPED"]

SUFFIXES = (".md", ".txt", ".docx")
USER_LICENSE = "user's own"
MAX_FILE_BYTES = 20 << 20  # read from a file at most (one byte more tells it is larger), whatever its size says
# what one contract may hold: segmenting takes time in proportion to its text (benchmarks/bad_inputs_r3_lib.py times
# a file at each bound), so a bound on the text bounds how long `library add` takes a file
MAX_TEXT_CHARS = 1_000_000  # characters: three times the corpus's longest contract (47,733 words)
MAX_PARAGRAPHS = 100_000  # of a DOCX: a contract of MAX_TEXT_CHARS has some ten thousand
MAX_INFLATED_BYTES = MAX_FILE_BYTES  # a DOCX's parts once unzipped, checked before python-docx parses them
MAX_RATIO = 100  # a DOCX part of over RATIO_FLOOR bytes inflating more than this is a zip bomb's (Word's XML: ~10)
RATIO_FLOOR = 1 << 20
COVER_PLACEHOLDERS = 3  # a standard form's cover page holds this many fill-in fields at least (_without_cover_page)


def is_own(precedent) -> bool:
    """A clause of a user's own library: its wording is the firm's, trusted; only its deal's facts are replaced."""
    return getattr(precedent, "license", None) == USER_LICENSE


def read_contract(path: Path, folder: Path | None = None) -> str:
    """The text of one contract file; ValueError saying why it cannot be one (binary, empty, unreadable, a link
    out of `folder`, not a regular file, too large, too long)."""
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise ValueError(f"not a Markdown, text or DOCX file (suffix {path.suffix or 'none'!r})")
    try:
        data = _read_regular(path, folder)
    except (OSError, RuntimeError) as e:  # RuntimeError: a symbolic link loop (Path.resolve before 3.13)
        raise ValueError(f"unreadable ({getattr(e, 'strerror', None) or e})") from None
    if suffix == ".docx":
        text = _docx_text(data)
    else:
        if b"\x00" in data:
            raise ValueError("binary, not text (it holds NUL bytes)")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise ValueError(f"not UTF-8 text ({e.reason} at byte {e.start})") from None
    if not text.strip():
        raise ValueError("empty")
    if len(text) > MAX_TEXT_CHARS:
        raise ValueError(_too_long(f"{len(text)} characters, at most {MAX_TEXT_CHARS}"))
    return text


def _too_long(size: str) -> str:
    return f"too long for one contract: {size} characters (add its parts as files of their own)"


def _read_regular(path: Path, folder: Path | None) -> bytes:
    """The bytes of a regular file, at most MAX_FILE_BYTES of them. A symbolic link is followed only to a file
    inside `folder` (None: anywhere); a FIFO, a device or a socket is never opened (a FIFO would block the read,
    a device never end it)."""
    real = path.resolve(strict=True)
    if folder is not None and not real.is_relative_to(folder.resolve(strict=True)):
        raise ValueError("a symbolic link to a file outside the folder added (only files inside it are read)")
    if not stat.S_ISREG(real.stat().st_mode):
        raise ValueError("not a regular file (a FIFO, device or socket is never read)")
    fd = os.open(real, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):  # replaced since it was looked at
            raise ValueError("not a regular file (a FIFO, device or socket is never read)")
        data = f.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise ValueError(f"too large: more than {MAX_FILE_BYTES} bytes")
    return data


def _docx_text(data: bytes) -> str:
    """The paragraphs of a DOCX file's bytes; ValueError for no Word document, or one that would inflate too far
    (_inflation_problem)."""
    import docx
    from docx.oxml.ns import qn

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            parts = z.infolist()
    except Exception as e:  # no zip at all
        raise ValueError(f"not a readable DOCX file ({type(e).__name__})") from None
    why = _inflation_problem(parts)
    if why is not None:
        raise ValueError(why)
    try:
        document = docx.Document(io.BytesIO(data))
    except Exception as e:  # a zip that is not a Word document
        raise ValueError(f"not a readable DOCX file ({type(e).__name__})") from None
    marks, default = _heading_marks(document)
    out, size = [], 0
    for i, p in enumerate(document.element.body.iterchildren(qn("w:p"))):  # Document.paragraphs, one at a time
        if i == MAX_PARAGRAPHS:
            raise ValueError(f"too many paragraphs for one contract: more than {MAX_PARAGRAPHS} (add its parts as "
                             f"files of their own)")
        out.append(_paragraph(p, marks, default))
        size += len(out[-1]) + 2
        if size > MAX_TEXT_CHARS:  # said before the rest is read
            raise ValueError(_too_long(f"more than {MAX_TEXT_CHARS}"))
    return "\n\n".join(out)


def _inflation_problem(parts: list[zipfile.ZipInfo]) -> str | None:
    """Why a DOCX's zip entries would inflate too far to parse, from their declared sizes (which also bound what
    zipfile inflates: a part that holds more fails its CRC instead), or None."""
    inflated = sum(i.file_size for i in parts)
    if inflated > MAX_INFLATED_BYTES:
        return f"too large once unzipped: {inflated} bytes, at most {MAX_INFLATED_BYTES}"
    for i in parts:
        if i.file_size > RATIO_FLOOR and i.file_size > MAX_RATIO * max(i.compress_size, 1):
            return (f"a part inflates {i.file_size // max(i.compress_size, 1)}-fold, more than {MAX_RATIO}: a zip "
                    f"bomb's ratio, not a Word document's")
    return None


_HEADING_STYLE = re.compile(r"(?i)^(?:heading\s*\d|title)$")


def _heading_marks(document) -> tuple[dict, str | None]:
    """({paragraph style id: "#", "##" or None}, the default paragraph style's mark): "#" for "Title", "##" for
    "Heading 1".."Heading 9", looked up once per document (Paragraph.style resolves the style through the styles
    part on every call, which held a long document minutes: benchmarks/bad_inputs_r3_lib.py)."""
    from docx.enum.style import WD_STYLE_TYPE

    marks = {}
    for style in document.styles:
        if style.type == WD_STYLE_TYPE.PARAGRAPH:
            name = style.name or ""
            marks[style.style_id] = ("#" if name.lower() == "title" else "##") if _HEADING_STYLE.match(name) else None
    default = document.styles.default(WD_STYLE_TYPE.PARAGRAPH)
    return marks, marks.get(default.style_id) if default is not None else None


def _paragraph(p, marks: dict, default: str | None) -> str:
    """A DOCX paragraph's text (p: its w:p element, as Paragraph._p), a Markdown heading where its Word style is a
    heading's (_heading_marks; no style, or one the document lacks: its default style's): each is a section break,
    whatever the numbering Word adds (which its text lacks). Every level is one level down ("## "): a Heading 1
    with no text under it before a Heading 2 joins the section after it."""
    mark = marks[p.style] if p.style in marks else default  # p.style: the style's id, as written
    text = p.text
    return f"{mark} {text.strip()}" if mark and text.strip() else text


def _precedents(rel: str, text: str, name: str, doc_type: str, originals: dict) -> list[Precedent]:
    """The clauses of one contract file; each clause's own words go into originals (by clause id)."""
    from hybrid.data.corpus import build_document
    from hybrid.data.facts import normalize
    from hybrid.data.run_in import split_run_in
    from hybrid.data.sections_markdown import looks_markdown

    path = rel
    if rel.endswith(".docx"):  # its heading styles were written as Markdown headings (_paragraph)
        path = rel[: -len(".docx")] + (".md" if looks_markdown(text) else ".txt")
    entry = {"path": path, "source": f"{SOURCE_PREFIX}{name}", "doc_type": doc_type, "split": "user", "group": name}
    doc = split_run_in(build_document(entry, _without_cover_page(text)))
    out = []
    for s in doc.sections:
        if len(s.body.split()) < MIN_WORDS or _is_form(s.body):
            continue
        n = normalize(s.body, doc.fields, doc.preamble)
        originals[f"{rel}#{s.number}"] = s.body
        out.append(Precedent(f"{rel}#{s.number}", rel, f"{SOURCE_PREFIX}{name}", USER_LICENSE, doc_type, s.clause_type,
                             s.heading, n.text, n.facts, list(n.sides), list(s.numbers)))
    return out


def _without_cover_page(text: str) -> str:
    """text without the cover page a standard form opens with (hybrid.data.cover.drop_cover_page), where what goes
    is one: at least COVER_PLACEHOLDERS `{placeholders}` and fewer words than the terms after it. Its defined
    names ('the "NDA"') had been read as the parties' (hybrid.data.facts.party_names takes the first two a
    preamble defines where no party is named), and "This NDA allows ..." became "This [PARTY_A] allows ..."; a
    firm's template with a placeholder in a late clause keeps its clauses before it."""
    from hybrid.data.cover import PLACEHOLDER, drop_cover_page

    rest = drop_cover_page(text)
    cover = text[: len(text) - len(rest)]
    if len(PLACEHOLDER.findall(cover)) >= COVER_PLACEHOLDERS and len(cover.split()) < len(rest.split()):
        return rest
    return text


def add_folder(folder, name: str, doc_type: str = "", *, replace: bool = False) -> tuple[Path, Library, list, list]:
    """Add every contract under `folder` to the user library `name` (created, or extended: a file added again
    replaces its clauses; replace: the library is made afresh from `folder` alone, what it held dropped, which
    repairs a damaged one). Returns (path, library, added [{"file", "clauses"}], skipped [{"file", "reason"}]);
    nothing is written when no file gives a clause (PrecedentError), nor when the library is damaged and not
    replaced (DamagedLibrary, before any file is read)."""
    path = user_library_path(name)
    root = Path(folder)
    if not root.is_dir():
        raise PrecedentError(f"library add: {printable(str(root))} is not a directory.")
    old = load_user_library(name).precedents if path.is_file() and not replace else []
    added, skipped, new, originals = [], [], [], {}
    for file in sorted(p for p in root.rglob("*") if not p.is_dir() or p.is_symlink()):
        rel = file.relative_to(root).as_posix()
        try:
            _check_citable(rel)
            clauses = _precedents(rel, read_contract(file, root), name, doc_type, originals)
        except ValueError as e:
            skipped.append({"file": printable(rel), "reason": str(e)})
            continue
        if not clauses:
            skipped.append({"file": rel, "reason": f"no clause of {MIN_WORDS} words or more was found"})
            continue
        added.append({"file": rel, "clauses": len(clauses)})
        new.extend(clauses)
    if not new:
        raise PrecedentError(f"library add: no contract under {printable(str(root))} gave a clause; skipped: "
                             + "; ".join(f"{s['file']} ({s['reason']})" for s in skipped[:10]))
    files = {p.doc_id for p in new}
    precedents = [p for p in old if p.doc_id not in files] + new
    digest = hashlib.sha256("\n".join(f"{p.id}\t{p.body}" for p in precedents).encode()).hexdigest()[:16]
    library = Library(precedents, f"user:{name}:{digest}", f"user:{name}")
    kept = load_originals(name) if old else {}
    save_originals(name, {p.id: (originals.get(p.id) or kept.get(p.id, "")) for p in precedents})
    library.save(path)
    return path, library, added, skipped


def _check_citable(rel: str) -> None:
    """ValueError unless a draft can cite file `rel` as named: each line the CLI prints and each footnote is one
    line, so a name with a line break (or a control, invisible or direction-changing character: it would read as
    another name) is refused."""
    if printable(rel) != rel:
        raise ValueError("its name holds a line break or another control or invisible character, which would break "
                         "the lines and footnotes that cite it; rename the file")


def preferring(user: Library, shipped: Library) -> Library:
    """The library a draft with the user's library draws from: every user clause, and the shipped clauses of
    the clause types the user has none of."""
    covered = {p.clause_type for p in user.precedents}
    precedents = user.precedents + [p for p in shipped.precedents if p.clause_type not in covered]
    return Library(precedents, f"{shipped.fingerprint}+{user.fingerprint}", shipped.corpus)


def drafting_library(name: str) -> Library:
    """The library `--library NAME` drafts from: the user's clauses preferred over the shipped library's
    (preferring), with the relevance scorer drafting uses; the user's alone when the shipped one cannot be
    had (no corpus). PrecedentError for an unknown name."""
    from hybrid.precedents.library import load_library

    user = load_user_library(name)
    try:
        shipped = load_library()
    except HybridError:  # no corpus to build it from (CorpusError), or a stale cache (PrecedentError)
        return user.use_relevance()
    return preferring(user, shipped).use_relevance()
