"""Corpus loading: manifest -> cleaned, segmented Documents for the requested splits.

Owns: where the corpus lives (corpus_root), reading manifest.jsonl, and load_documents(), which
turns each requested file into a hybrid.data.document.Document (clean -> split -> classify ->
renumber) with its planner fields. Knows nothing about tokenizers or models.

Held-out data stays held out: load_documents() filters the manifest first and opens only the
files of the requested splits (every file read goes through _read_text()). The per-document
disk cache is keyed by the file's path, size and mtime and by a hash of the ingestion code, so
an edit to the cleaning rules or to a file invalidates exactly what it changes.
"""

import functools
import hashlib
import json
import os
from dataclasses import asdict
from pathlib import Path

from hybrid.common.atomic import write_text_atomic
from hybrid.common.errors import CorpusError
from hybrid.common.jsonl import json_lines
from hybrid.data import (
    clauses,
    clean,
    cover,
    cuad,
    document,
    flatten,
    headings,
    page_noise,
    sections,
    sections_markdown,
)
from hybrid.data.clauses import classify_heading
from hybrid.data.clean import clean_markdown, clean_text
from hybrid.data.cover import drop_cover_page, run_in_parts
from hybrid.data.cuad import file_key, load_cuad_fields
from hybrid.data.document import Document, Section
from hybrid.data.sections import split_numbered

__all__ = ["SPLITS", "STANDARD_SOURCES", "corpus_root", "load_manifest", "load_documents", "load_document",
           "build_document", "cache_dir"]

SPLITS = ("train", "val", "test")
_REPO_ROOT = Path(__file__).resolve().parents[2]
_MANIFEST_KEYS = ("path", "source", "doc_type", "group", "split")
CUAD_CSV = Path("cuad") / "master_clauses.csv"
STANDARD_SOURCES = ("commonpaper", "bonterms")  # the manifest's publishers of standard forms written to be reused


def corpus_root(path: str | os.PathLike | None = None) -> Path:
    """The corpus directory: path, else $HYBRID_CORPUS, else <repo>/../shared/corpus; must hold manifest.jsonl."""
    if path is not None:
        root, origin = Path(path), "argument"
    elif os.environ.get("HYBRID_CORPUS"):
        root, origin = Path(os.environ["HYBRID_CORPUS"]), "$HYBRID_CORPUS"
    else:
        root, origin = _REPO_ROOT.parent / "shared" / "corpus", "default"
    root = root.expanduser()
    if not root.is_dir():
        raise CorpusError(f"corpus directory not found: {root} ({origin}); pass a path or set HYBRID_CORPUS")
    if not (root / "manifest.jsonl").is_file():
        raise CorpusError(f"corpus directory {root} has no manifest.jsonl")
    return root


def load_manifest(root: str | os.PathLike) -> list[dict]:
    """The manifest entries in file order; each has at least path, source, doc_type, group, split."""
    manifest = Path(root) / "manifest.jsonl"
    entries = []
    for n, entry, _ in json_lines(
        _read_text(manifest), lambda n, msg: CorpusError(f"{manifest}:{n}: not JSON ({msg})")
    ):
        missing = [k for k in _MANIFEST_KEYS if not isinstance(entry.get(k), str)]
        if missing:
            raise CorpusError(f"{manifest}:{n}: missing {missing}; every entry needs {list(_MANIFEST_KEYS)}")
        if entry["split"] not in SPLITS:
            raise CorpusError(f"{manifest}:{n}: split must be one of {list(SPLITS)}, got {entry['split']!r}")
        entries.append(entry)
    return entries


def _read_text(path: Path) -> str:
    """The one place corpus files are read (tests watch it to prove held-out files stay closed)."""
    return path.read_text(encoding="utf-8", errors="replace")


COVER_PAGE_SOURCES = frozenset({"commonpaper"})  # standard forms whose terms follow a cover page (hybrid.data.cover)


def build_document(entry: dict, raw: str, fields: dict | None = None) -> Document:
    """One manifest entry + its raw text -> Document (sections renumbered "1", "2", ...)."""
    markdown = entry["path"].endswith(".md")
    if entry.get("source") in COVER_PAGE_SOURCES:  # its terms follow a cover page of labels and blanks
        raw = drop_cover_page(raw)
    text = clean_markdown(raw) if markdown else clean_text(raw)
    title, preamble, parts, tail = split_numbered(text, doc_type=entry["doc_type"], markdown=markdown)
    if not parts and entry.get("source") in COVER_PAGE_SOURCES:  # terms as run-in headed paragraphs only
        lead, run_in = run_in_parts(text)
        if run_in:
            preamble, parts, tail = lead, [(h, b, []) for h, b in run_in], ""
    return Document(
        path=entry["path"],
        source=entry["source"],
        doc_type=entry["doc_type"],
        split=entry["split"],
        group=entry["group"],
        title=title,
        preamble=preamble.strip(),
        sections=[
            Section(str(i), h, classify_heading(h), body.strip(), list(written))
            for i, (h, body, written) in enumerate(parts, 1)
        ],
        tail=tail.strip(),
        fields=dict(fields or {}),
    )


# ---------------------------------------------------------------------------------------------
# per-document disk cache


def _code_version() -> str:
    h = hashlib.sha1()
    for module in (clean, cover, cuad, flatten, page_noise, headings, sections, sections_markdown, clauses, document):
        h.update(Path(module.__file__).read_bytes())
    h.update(Path(__file__).read_bytes())
    return h.hexdigest()[:16]


_CODE_VERSION = _code_version()


def cache_dir() -> Path | None:
    """$HYBRID_CACHE/corpus, else <repo>/.cache/corpus; None when caching is off ($HYBRID_CACHE=off)."""
    base = os.environ.get("HYBRID_CACHE", "")
    if base.lower() in ("0", "off", "none", "false"):
        return None
    return (Path(base) if base else _REPO_ROOT / ".cache") / "corpus"


def _cache_file(directory: Path, path: Path) -> Path:
    st = path.stat()
    key = f"{path.resolve()}|{st.st_size}|{st.st_mtime_ns}|{_CODE_VERSION}"
    return directory / f"{hashlib.sha1(key.encode()).hexdigest()}.json"


def _write_atomic(target: Path, payload: str) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    ignore = target.parent.parent / ".gitignore"
    if not ignore.exists():
        ignore.write_text("*\n")  # the cache ignores itself, like .pytest_cache
    write_text_atomic(target, payload)


def _load_one(root: Path, entry: dict, fields: dict, directory: Path | None) -> Document:
    path = root / entry["path"]
    if not path.is_file():
        raise CorpusError(f"manifest entry {entry['path']!r} ({entry['split']}): file not found under {root}")
    target = _cache_file(directory, path) if directory else None
    if target is not None and target.is_file():
        try:
            data = json.loads(target.read_text(encoding="utf-8"))
            data["sections"] = [Section(**s) for s in data["sections"]]
            return Document(**{**data, **{k: entry[k] for k in ("path", "source", "doc_type", "split", "group")},
                               "fields": dict(fields)})
        except (ValueError, TypeError, KeyError):
            pass  # a stale or damaged cache entry is rebuilt below
    doc = build_document(entry, _read_text(path), fields)
    if target is not None:
        try:
            _write_atomic(target, json.dumps({**asdict(doc), "fields": {}}, ensure_ascii=False))
        except OSError:
            pass  # a read-only checkout still loads, only slower
    return doc


# ---------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def load_document(path: str, root: str | None = None) -> Document:
    """One document of the train split by its manifest path, with its CUAD fields (what its parties are called):
    what a base's section heading is normalized against (hybrid.skeleton.from_base). Raises CorpusError where the
    path is not a train document."""
    root_ = corpus_root(root)
    entry = next((e for e in load_manifest(root_) if e["path"] == path), None)
    if entry is None or entry["split"] != "train":
        raise CorpusError(f"{path!r} is not a train document of {root_}")
    fields = {}
    if entry["source"] == "cuad" and (root_ / CUAD_CSV).is_file():
        fields = _cuad_fields(str(root_ / CUAD_CSV)).get(file_key(entry["path"]), {})
    return _load_one(root_, entry, fields, cache_dir())


@functools.lru_cache(maxsize=2)
def _cuad_fields(csv_path: str) -> dict:
    return load_cuad_fields(csv_path)


def load_documents(
    root: str | os.PathLike | None = None,
    splits: str | tuple[str, ...] | list[str] = ("train",),
    sources: str | tuple[str, ...] | list[str] | None = None,
) -> list[Document]:
    """Documents of the given splits (and sources, None = all) in manifest order.

    Raises CorpusError on an unknown split or source, a missing file, or an empty selection.
    Files of other splits are never opened.
    """
    root = corpus_root(root)
    splits = (splits,) if isinstance(splits, str) else tuple(splits)
    unknown = [s for s in splits if s not in SPLITS]
    if unknown or not splits:
        raise CorpusError(f"split must be one of {list(SPLITS)}, got {list(splits)}")
    entries = load_manifest(root)
    if sources is not None:
        sources = (sources,) if isinstance(sources, str) else tuple(sources)
        known = sorted({e["source"] for e in entries})
        bad = [s for s in sources if s not in known]
        if bad:
            raise CorpusError(f"source must be among {known}, got {bad}")
    chosen = [e for e in entries if e["split"] in splits and (sources is None or e["source"] in sources)]
    if not chosen:
        raise CorpusError(f"no documents in {root} for splits={list(splits)} sources={sources}")
    cuad_fields: dict[str, dict] = {}
    if any(e["source"] == "cuad" for e in chosen) and (root / CUAD_CSV).is_file():
        cuad_fields = load_cuad_fields(root / CUAD_CSV)
    directory = cache_dir()
    return [
        _load_one(root, e, cuad_fields.get(file_key(e["path"]), {}) if e["source"] == "cuad" else {}, directory)
        for e in chosen
    ]
