"""The clause library (train split only) and retrieval of precedents from it.

Owns: Precedent (one clause body of a train document, its facts normalized to typed markers by
hybrid.data.facts, with document id, source, license, doc type, clause type and heading; cut at a line of
capitals inside it that heads another clause: hybrid.data.clauses.own_clause),
Library (build from the corpus, save/load with a corpus fingerprint, BM25 retrieval per clause
type), the default cache location and PrecedentError. Knows nothing of models or tokenizers.

Held-out data stays held out: the library is built from load_documents(splits=("train",)), so
val and test files are never opened (and a test checks that no val/test doc id is in it).

Cache: <repo>/.cache/precedents/library-<code version>.json ($HYBRID_CACHE moves it). Built on
first use; it records the fingerprint of the corpus it came from (manifest, CUAD fields file,
train file sizes), and a library whose fingerprint differs from the corpus in use is refused
with a PrecedentError (exit 2) telling how to rebuild, never silently mixed.

Retrieval: BM25 (rank_bm25's Okapi BM25) over heading + body words of the clauses of one type,
restricted to the requested doc type when it has at least k clauses of that type, else all doc
types; with `use_relevance()` (what drafting does), BM25's best SHORTLIST are re-ordered by
hybrid.precedents.relevance (BM25 + MiniLM, the scorer of `hybrid rank`), whose precedent embeddings persist
in its cache. How much of the real clause's word n-grams the top precedent then holds, against BM25
alone, MiniLM alone and a random pick: benchmarks/results/precedent-retrieval-cpu.json
(benchmarks/precedent_retrieval.py, val clauses). Variant 0 takes the top k; variant v > 0 draws k
from the top 4k, weighted by score, with a generator seeded by (seed, variant, clause type):
deterministic, and variants may differ.
"""

import hashlib
import json
import os
import random
import re
import sys
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

from hybrid.common.atomic import write_text_atomic
from hybrid.common.errors import HybridError
from hybrid.common.options import int_range
from hybrid.data import facts as facts_module
from hybrid.data.clauses import join_page_breaks, own_clause, stop_run_in_headings
from hybrid.data.clean import REDACTION_RE, space_glued_words
from hybrid.data.facts import BLANK, DealFacts, adapt, normalize

__all__ = ["Precedent", "Library", "PrecedentError", "build_library", "load_library", "default_library_path",
           "corpus_fingerprint", "embedding_text", "MIN_WORDS", "FORMAT", "SHORTLIST", "MARKER_RE"]

FORMAT = 1
MIN_WORDS = 12  # shorter bodies are list fragments or cross-references, not precedents
_POOL = 4  # variants v > 0 draw from the top _POOL * k
SHORTLIST = 32  # BM25's best that a relevance scorer re-orders (each costs one embedding, cached per text)
EMBED_WORDS = 64
_WORD_RE = re.compile(r"[a-z][a-z0-9]+")
MARKER_RE = re.compile(r"\[[A-Z_]+\]")  # a normalized fact of the source deal (hybrid.data.facts.MARKERS)
_LETTERS_RE = re.compile(r"[^\W\d_]+")  # a word of Library.words: a run of letters


def letter_words(text: str) -> list[str]:
    """The runs of letters of text, lower-cased: the words Library.words holds and a rewritten hole is checked by."""
    return [w.lower() for w in _LETTERS_RE.findall(text)]
_STOP = frozenset(
    "the and of to or in any by for this be shall such with as on that is at an its are not all from which "
    "has have other under will may".split()
)


# a line that is only a redaction, perhaps behind a list marker: "(a) [***]." (the consistency pass renumbers the rest)
_REDACTED_LINE = re.compile(r"(?m)^[ \t]*(?:\(?[a-zA-Z0-9]{1,4}[.)][ \t]*)?(?:\[\*\*\*\][ \t]*)+[.;]?[ \t]*(?:\n|$)")


class PrecedentError(HybridError):
    """The precedent library is missing, stale (built from another corpus version) or asked for badly."""


@dataclass
class Precedent:
    id: str  # "<doc id>#<section number>"
    doc_id: str  # manifest path of the source document
    source: str
    license: str
    doc_type: str
    clause_type: str
    heading: str
    body: str  # facts replaced by markers (hybrid.data.facts.MARKERS)
    facts: list[str] = field(default_factory=list)  # the source document's own facts that were replaced
    sides: list = field(default_factory=list)  # role families of its [PARTY_A] and [PARTY_B] (Normalized.sides)
    numbers: list = field(default_factory=list)  # its source's own numbers for its text (Section.numbers): "12"

    def adapted(self, deal: DealFacts, max_words: int = 0) -> str:
        """The body with the deal's facts in the markers' place (a small word glued to a role spaced first:
        "ofCustomer" -> "of Buyer") and CUAD's redaction marks as blanks to complete ("within [***] after receiving
        written notice" -> "within [___] after ...": the filler had written a number of its own there, "within
        thirty after"); a line that held only a redaction ("(a) [***].") goes. Cut to max_words words (0 = whole)."""
        body = adapt(space_glued_words(self.body), deal, tuple(self.sides))
        text = REDACTION_RE.sub(BLANK, _REDACTED_LINE.sub("", body))
        if max_words:
            words = text.split()
            if len(words) > max_words:
                text = " ".join(words[:max_words]) + " ..."
        return text

    def provenance(self) -> dict:
        return {
            "id": self.id,
            "doc_id": self.doc_id,
            "heading": self.heading,
            "source": self.source,
            "license": self.license,
        }

    def citations(self) -> list[dict]:
        """What a section drafted from this precedent cites: its provenance (a composed one cites each source)."""
        return [self.provenance()]


KIND_MIN = 3  # clauses of a type the template's doc types need for Library.deal_kind's centroid of that type ...
KIND_SAMPLE = 64  # ... else it takes up to this many of their clauses of any type


def embedding_text(p: Precedent) -> str:
    """What the dense encoder sees of a precedent: its heading and first EMBED_WORDS words, markers out."""
    return f"{p.heading}. " + " ".join(MARKER_RE.sub(" ", p.body).split()[:EMBED_WORDS])


def _words(text: str) -> list[str]:
    """BM25 terms: lower-cased words without stop words; markers are not words (every clause has them)."""
    return [w for w in _WORD_RE.findall(MARKER_RE.sub(" ", text).lower()) if w not in _STOP]


def corpus_fingerprint(root) -> str:
    """sha256 over the manifest, the CUAD fields file and the size of every train file."""
    from hybrid.data.corpus import CUAD_CSV, load_manifest

    root = Path(root)
    h = hashlib.sha256((root / "manifest.jsonl").read_bytes())
    if (root / CUAD_CSV).is_file():
        h.update((root / CUAD_CSV).read_bytes())
    for e in load_manifest(root):
        if e["split"] == "train":
            p = root / e["path"]
            h.update(f"{e['path']}|{p.stat().st_size if p.is_file() else -1}".encode())
    return h.hexdigest()[:20]


def _code_version() -> str:
    from hybrid.data import corpus

    h = hashlib.sha1(corpus._CODE_VERSION.encode())
    for f in (Path(facts_module.__file__), Path(__file__), Path(own_clause.__code__.co_filename)):
        h.update(f.read_bytes())
    return h.hexdigest()[:12]


def default_library_path() -> Path:
    """$HYBRID_CACHE/precedents/library-<code version>.json, else <repo>/.cache/precedents/..."""
    base = os.environ.get("HYBRID_CACHE", "")
    if base.lower() in ("0", "off", "none", "false"):
        base = ""
    root = Path(base) if base else Path(__file__).resolve().parents[2] / ".cache"
    return root / "precedents" / f"library-{_code_version()}.json"


class Library:
    """Precedents of the train split, indexed per clause type for BM25 retrieval."""

    def __init__(self, precedents: list[Precedent], fingerprint: str, corpus: str = ""):
        self.precedents, self.fingerprint, self.corpus = precedents, fingerprint, corpus
        self._by_type: dict[str, list[Precedent]] = {}
        for p in precedents:
            self._by_type.setdefault(p.clause_type, []).append(p)
        self._index: dict[tuple, object] = {}
        self.relevance = None  # a hybrid.precedents.relevance.RelevanceScorer for retrieve(); None = BM25 alone
        self._words: dict[int, frozenset[str]] = {}
        self._kinds: dict[tuple, object] = {}  # (clause type, doc types) -> deal_kind's centroid (None: none)

    def __len__(self) -> int:
        return len(self.precedents)

    def words(self, min_count: int = 2) -> frozenset[str]:
        """The lower-case words (runs of letters) that the library's clause bodies write at least
        min_count times, markers aside: what a rewritten hole of an edited precedent may write
        (hybrid.text.start). Cached per min_count."""
        if min_count not in self._words:
            counts = Counter(w for p in self.precedents for w in letter_words(MARKER_RE.sub(" ", p.body)))
            self._words[min_count] = frozenset(w for w, c in counts.items() if c >= min_count)
        return self._words[min_count]

    def use_relevance(self, scorer=None) -> "Library":
        """Retrieve with hybrid.precedents.relevance from now on (scorer None: a RelevanceScorer with its
        PRECEDENT_WEIGHTS): BM25's best SHORTLIST re-ordered by BM25 + MiniLM, then its re-ranking stage.
        Drafting, `hybrid precedents` and the evaluation's systems do this; training pairs keep BM25 alone.
        Returns self."""
        if scorer is None:
            from hybrid.precedents.relevance import PRECEDENT_WEIGHTS, RelevanceScorer

            scorer = RelevanceScorer(PRECEDENT_WEIGHTS)
        self.relevance = scorer
        return self

    def deal_kind(self, clause_type: str, doc_types, pool) -> dict[str, float]:
        """{precedent id: MiniLM cosine of its embedding_text to the centroid of the clauses of clause_type that
        `doc_types` write} over `pool` (hybrid.precedents.fit's kind: how much a clause reads as the template's
        kind of deal). Fewer than KIND_MIN such clauses: the centroid of up to KIND_SAMPLE clauses of any type of
        those doc types; none, or no relevance scorer set (use_relevance): {}. Centroids are cached."""
        import numpy as np

        from hybrid.precedents.relevance import unit_rows

        if self.relevance is None or not pool:
            return {}
        wanted = frozenset(d.upper() for d in doc_types)
        key = (clause_type, wanted)
        if key not in self._kinds:
            own = self.of_type(clause_type, lambda p: p.doc_type.upper() in wanted)
            if len(own) < KIND_MIN:
                every = [p for p in self.precedents if p.doc_type.upper() in wanted]
                own = every[:: max(1, len(every) // KIND_SAMPLE)][:KIND_SAMPLE]
            vecs = unit_rows(self.relevance.embed([embedding_text(p) for p in own])) if own else None
            self._kinds[key] = unit_rows(vecs.mean(0)) if own else None
        centroid = self._kinds[key]
        if centroid is None:
            return {}
        sims = unit_rows(self.relevance.embed([embedding_text(p) for p in pool])) @ centroid
        return {p.id: float(v) for p, v in zip(pool, np.asarray(sims, dtype=np.float64))}

    def of_type(self, clause_type: str, keep=None) -> list[Precedent]:
        """Every precedent of clause_type (those `keep(p)` is true of, when given), in library order."""
        return [p for p in self._by_type.get(clause_type, []) if keep is None or keep(p)]

    @property
    def clause_types(self) -> list[str]:
        return sorted(self._by_type)

    def _bm25(self, key: tuple, pool: list[Precedent]):
        if key not in self._index:
            from rank_bm25 import BM25Okapi

            self._index[key] = BM25Okapi([_words(p.heading + " " + p.body) or ["_"] for p in pool])
        return self._index[key]

    def retrieve(self, clause_type: str, query: str = "", *, doc_type: str | None = None, k: int = 1, seed: int = 0,
                 variant: int = 0, exclude_doc: str | None = None, relevance="library") -> list[Precedent]:
        """Up to k precedents of clause_type for the query text (heading + clause spec + deal fields), best first.

        relevance: a hybrid.precedents.relevance.RelevanceScorer that re-orders BM25's best SHORTLIST (None: BM25
        alone; "library": this library's `relevance` attribute, None unless a caller set one)."""
        from hybrid.data.clauses import CLAUSE_TYPES

        if clause_type not in CLAUSE_TYPES:
            raise PrecedentError(f"clause type must be one of {', '.join(CLAUSE_TYPES)}, got {clause_type!r}.")
        int_range(1).check("k", k, error=PrecedentError)
        everyone = self._by_type.get(clause_type, [])
        same = [p for p in everyone if doc_type and p.doc_type == doc_type.upper()]
        if sum(p.doc_id != exclude_doc for p in same) >= k:
            pool, key = same, (clause_type, doc_type.upper())
        else:
            pool, key = everyone, (clause_type, None)
        q = _words(query)
        scores = list(self._bm25(key, pool).get_scores(q)) if q and pool else [0.0] * len(pool)
        order = sorted(
            (i for i in range(len(pool)) if pool[i].doc_id != exclude_doc), key=lambda i: (-scores[i], pool[i].id)
        )
        relevance = self.relevance if relevance == "library" else relevance
        if relevance is not None and q and len(order) > 1:
            short = order[:SHORTLIST]
            rel = relevance.score(query, [embedding_text(pool[i]) for i in short])
            scores = [0.0] * len(pool)
            for i, v in zip(short, rel):
                scores[i] = v
            order = sorted(short, key=lambda i: (-scores[i], pool[i].id)) + order[SHORTLIST:]
        if variant == 0:
            return [pool[i] for i in order[:k]]
        top = order[: _POOL * k]
        rng = random.Random(f"{seed}:{variant}:{clause_type}")
        chosen: list[int] = []
        while top and len(chosen) < k:
            weights = [max(scores[i], 0.0) + 1e-3 for i in top]
            pick = rng.choices(range(len(top)), weights=weights)[0]
            chosen.append(top.pop(pick))
        return [pool[i] for i in chosen]

    def for_document(self, doc, *, variant: int = 0, seed: int = 0) -> list["Precedent | None"]:
        """Per section of a corpus document (hybrid.data.document.Document): its best precedent of the
        section's clause type for the section's heading and the document's fields (variant > 0: a
        seeded draw, as retrieve), None where the library holds none. The layout the precedent
        benchmark and the evaluation's systems draft real skeletons with."""
        query = " ".join(str(v) for v in doc.fields.values())
        return [
            (
                self.retrieve(
                    s.clause_type, f"{s.heading} {query}", doc_type=doc.doc_type, k=1, seed=seed, variant=variant
                )
                or [None]
            )[0]
            for s in doc.sections
        ]

    def save(self, path) -> Path:
        payload = {"format": FORMAT, "corpus_fingerprint": self.fingerprint, "corpus": self.corpus,
                   "precedents": [asdict(p) for p in self.precedents]}
        return write_text_atomic(path, json.dumps(payload, ensure_ascii=False))


_FORM_RE = re.compile(r"\{[a-z][a-z0-9_]*\}|\[ ?x? ?\]")


def _is_form(body: str) -> bool:
    """A cover page or order form (placeholders, checkboxes), not a clause: three or more of them."""
    return len(_FORM_RE.findall(body)) >= 3


def _license(entry: dict) -> str:
    return entry.get("license") or {"cuad": "CC-BY-4.0", "commonpaper": "CC-BY-4.0", "bonterms": "CC-BY-4.0"}.get(
        entry["source"], ""
    )


def build_library(corpus=None, *, progress: bool = True, on_doc=None) -> Library:
    """Every clause body (>= MIN_WORDS words) of the train split, facts normalized to markers. on_doc(i, total):
    called before document i (a server's progress; an exception it raises stops the build)."""
    from tqdm import tqdm

    from hybrid.data.corpus import STANDARD_SOURCES, corpus_root, load_documents, load_manifest

    root = corpus_root(corpus)
    licenses = {e["path"]: _license(e) for e in load_manifest(root) if e["split"] == "train"}
    docs = load_documents(root, splits=("train",))
    out = []
    for i, doc in enumerate(tqdm(docs, desc="precedents", file=sys.stderr, disable=not progress, unit="doc")):
        assert doc.split == "train", f"held-out document {doc.path} reached the library"
        if on_doc is not None:
            on_doc(i, len(docs))
        for s in doc.sections:
            body = join_page_breaks(own_clause(s.body, s.clause_type))
            if len(body.split()) < MIN_WORDS or _is_form(body):
                continue
            n = normalize(body, doc.fields, doc.preamble, own_terms=doc.source in STANDARD_SOURCES)
            out.append(Precedent(f"{doc.path}#{s.number}", doc.path, doc.source, licenses.get(doc.path, ""),
                                 doc.doc_type, s.clause_type, s.heading, stop_run_in_headings(n.text), n.facts,
                                 list(n.sides), list(s.numbers)))
    return Library(out, corpus_fingerprint(root), str(root))


def load_library(path=None, *, corpus=None, build: bool = True, progress: bool = True,
                 check_corpus: bool = True, on_doc=None) -> Library:
    """The library at `path` (None = the default cache, built there on first use when `build`).

    PrecedentError: an explicit path that does not exist, a missing default cache with
    build=False, an unreadable file, or a library built from another corpus version (check_corpus False:
    a library of the user's own contracts, hybrid.precedents.user, which no corpus made).
    """
    from hybrid.data.corpus import corpus_root

    explicit = path is not None
    path = Path(path) if explicit else default_library_path()
    root = corpus_root(corpus) if check_corpus else None
    if not path.is_file():
        if explicit or not build:
            raise PrecedentError(f"precedent library not found: {path}; build it with `hybrid precedents --build"
                                 f"{' --library ' + str(path) if explicit else ''}`.")
        lib = build_library(root, progress=progress, on_doc=on_doc)
        lib.save(path)
        return lib
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        precedents = [Precedent(**p) for p in data["precedents"]]
        fingerprint, fmt = data["corpus_fingerprint"], data["format"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise PrecedentError(f"precedent library {path} is unreadable ({type(e).__name__}: {e}); rebuild it with "
                             "`hybrid precedents --build`.") from None
    if fmt != FORMAT:
        raise PrecedentError(f"precedent library {path} has format {fmt}, this version reads {FORMAT}; rebuild it with "
                             "`hybrid precedents --build`.")
    current = corpus_fingerprint(root) if check_corpus else fingerprint
    if fingerprint != current:
        raise PrecedentError(
            f"precedent library {path} was built from another corpus version (fingerprint {fingerprint}, "
            f"corpus {root} has {current}); rebuild it with `hybrid precedents --build`."
        )
    return Library(precedents, fingerprint, data.get("corpus", ""))
