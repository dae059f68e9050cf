"""Another deal's subject matter in a text ("foreign subjects"): "card shuffling machine" in a data
processing agreement, "clinical trial material" in a supply of plastic containers.

Owns: the subject phrases of contract text and which of them a deal does not speak of. A phrase is
1-3 content words of one run (the words between function words, punctuation and digits; the verb
after a modal is left out: "shall deliver"), as lemmas ("boards" -> "board"). A phrase is another
deal's subject when (`SubjectIndex.subject`):
- few train contracts hold it (document frequency <= max_df): a deal's products, industry and
  formulas recur in a handful of contracts, boilerplate ("written notice", "products") in many;
- no standard form of the train split holds it: a standard form is written for every deal of its
  kind, so its words ("Order Form", "Subprocessor") are no one deal's;
- and it is a term rather than a chance combination of words ("longer considered"): the contracts
  that hold it tend to write it twice or more, or it holds a word that is such a term of a topic
  ("clinical"), or a word that at most RARE_DOCS contracts use at all ("Gerber").
It is foreign when none of its words, nor their Porter stems, occur in the deal's own text (its
fields and its template's text, which the caller passes as deal_text).

The index is built from the train split only, cached in memory and on disk
(<cache>/subjects/<fingerprint>.json beside hybrid.data.corpus's cache, keyed by the manifest, the
train files and the code that counts phrases). The thresholds are calibrated by
tests/fidelity/test_foreign_subject.py (lawyers' examples caught, standard forms clean). Knows
nothing about models, templates, precedents or drafts; names, numbers and places are
hybrid.fidelity.foreign_facts's.
"""

import hashlib
import inspect
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from nltk.stem import PorterStemmer

from hybrid.data.corpus import STANDARD_SOURCES, _write_atomic, cache_dir, corpus_root, load_manifest

__all__ = [
    "SubjectIndex",
    "load_subject_index",
    "build_subject_index",
    "phrases",
    "foreign_subjects",
    "foreign_subject_rate",
    "kind_vocabulary",
    "MAX_DF",
    "STANDARD_SOURCES",
]

MAX_PHRASE = 3  # words per phrase; longer subjects are found as their overlapping parts, merged
MAX_DF = 0.015  # a subject phrase sits in at most this share of train contracts (a fund's "net asset value")
TOPICAL_DF = 0.10  # a topic's word may be more common than its phrases ("clinical" of every pharma deal)
RARE_DOCS = 2  # a word that this few contracts use is theirs alone, whatever else it does
MIN_REPEATED = 2  # a term: at least this many contracts (and half of those holding it) write it twice
# a phrase that KIND_GROUPS filers of the deal's kind write, and KIND_SHARE of them, is the kind's, no one deal's:
# "capital account" of 4 of 9 joint ventures' filers; "race car" of 2 of 52 sponsorships' is two racing deals'
KIND_GROUPS, KIND_SHARE = 2, 0.1

# Word tokens and punctuation tokens; hyphens and spaces glue words into one run ("injection-moulded").
_TOKEN = re.compile(r"[A-Za-z]+|[^A-Za-z\s-]+")
_MODALS = frozenset("shall will may must should would can could might cannot".split())
# Function words, the legal ones ("hereunder", "pursuant") and generic qualifiers ("applicable"): they
# end a phrase. Content words that are boilerplate need no list; their document frequency says so.
_STOP = _MODALS | frozenset(
    """
a an the and or nor but if then else than that this these those such same other another any all each every
some no not only own both either neither of in on at to for from by with within without into onto upon over
under between among through during before after above below about against along across per via as so too very
be is are was were been being am has have had having do does did done it its they them their theirs he him his
she her hers we us our ours you your yours me my who whom whose which what when where why how whether while
until unless because since although though also hereby herein hereof hereto hereunder thereof therein thereto
thereunder thereby whereas whereby wherein hereinafter hereinabove thereafter therefor pursuant including
include includes included means mean respectively otherwise provided further more most less least following
foregoing certain particular specific applicable relevant respective one two three four five six seven eight
nine ten eleven twelve thirty sixty ninety hundred thousand first second third fourth fifth sixth seventh
eighth ninth tenth january february march april june july august september october november december
ii iii iv vi vii viii ix xi xii xiii xiv xv
""".split()
)


def _lemma(word: str) -> str:
    """The singular of a lower-case English plural ("boards" -> "board", "parties" -> "party"), else word."""
    if len(word) <= 3 or not word.endswith("s") or word.endswith(("ss", "us", "is")):
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes", "zes")):
        return word[:-2]
    return word[:-1]


_PORTER = PorterStemmer()


@lru_cache(maxsize=200_000)
def _forms(word: str) -> tuple[str, str]:
    """(lemma, Porter stem) of a lower-case word: a deal that says "moulded" speaks of "mould" too."""
    return _lemma(word), _PORTER.stem(word)


def _runs(text: str) -> list[list[tuple[str, int, int]]]:
    """The content-word runs of text: [(lemma, start, end)] per run."""
    out, run, after_modal = [], [], False
    for m in _TOKEN.finditer(text):
        word = m.group().lower()
        content = word[0].isalpha() and len(word) > 1 and word not in _STOP and not after_modal
        # "shall deliver clinical trial material": the verb after a modal starts no noun phrase
        after_modal = word in _MODALS or (after_modal and word in ("not", "also", "then"))
        if content:
            run.append((_forms(word)[0], m.start(), m.end()))
        elif run:
            out.append(run)
            run = []
    if run:
        out.append(run)
    return out


def phrases(text: str) -> dict[str, int]:
    """Every phrase of text (1-3 content words of one run, lemmas joined by a space) -> occurrences."""
    out: dict[str, int] = {}
    for run in _runs(text):
        words = [w for w, _, _ in run]
        for n in range(1, MAX_PHRASE + 1):
            for i in range(len(words) - n + 1):
                key = " ".join(words[i : i + n])
                out[key] = out.get(key, 0) + 1
    return out


@dataclass(frozen=True)
class SubjectIndex:
    """Document frequencies of phrases over the train split."""

    df: dict[str, int]  # phrase -> train contracts holding it (absent: none)
    repeated: dict[str, int]  # phrase -> train contracts writing it twice or more (absent: none)
    standard: frozenset[str]  # the phrases of the train split's standard forms
    n_docs: int  # train contracts counted

    def __post_init__(self):
        assert self.n_docs > 0, "a SubjectIndex needs at least one document"

    def _term(self, phrase: str) -> bool:
        """Contracts that hold the phrase tend to repeat it: it names what they are about."""
        rep = self.repeated.get(phrase, 0)
        return rep >= MIN_REPEATED and 2 * rep >= self.df.get(phrase, 0)

    def subject(self, words: list[str], max_df: float = MAX_DF) -> bool:
        """The phrase of these lemmas is one deal's subject matter (the module docstring's three rules).
        An unseen phrase is no one's: a new combination of words, not something copied."""
        phrase = " ".join(words)
        if not 0 < self.df.get(phrase, 0) <= max_df * self.n_docs or phrase in self.standard:
            return False
        if self._term(phrase):
            return True
        return any(
            0 < self.df.get(w, 0) <= RARE_DOCS or (self.df.get(w, 0) <= TOPICAL_DF * self.n_docs and self._term(w))
            for w in words
        )


def build_subject_index(root: Path, entries: list[dict]) -> SubjectIndex:
    """Count, for every phrase, the contracts of entries (manifest entries, all of split "train") that hold it."""
    assert entries and all(e["split"] == "train" for e in entries), "the subject index reads the train split only"
    df: dict[str, int] = {}
    repeated: dict[str, int] = {}
    standard: set[str] = set()
    for e in entries:
        counts = phrases((root / e["path"]).read_text(encoding="utf-8", errors="replace"))
        for p, n in counts.items():
            df[p] = df.get(p, 0) + 1
            if n > 1:
                repeated[p] = repeated.get(p, 0) + 1
        if e["source"] in STANDARD_SOURCES:
            standard.update(counts)
    return SubjectIndex(df, repeated, frozenset(standard), len(entries))


def _code_key() -> str:
    """A hash of the code that counts phrases: an edit to it, not to a comment elsewhere in this file,
    rebuilds the index (a rebuild costs seconds of every session's first call)."""
    h = hashlib.sha1(repr((sorted(_STOP), MAX_PHRASE, STANDARD_SOURCES, _TOKEN.pattern)).encode())
    for f in (_lemma, _runs, phrases, build_subject_index):
        h.update(inspect.getsource(f).encode())
    return h.hexdigest()


_CODE_KEY = _code_key()


def _fingerprint(root: Path, entries: list[dict]) -> str:
    """Changes when the manifest, a train file or the code that counts phrases changes."""
    h = hashlib.sha1((root / "manifest.jsonl").read_bytes())
    for e in entries:
        st = (root / e["path"]).stat()
        h.update(f"{e['path']}|{st.st_size}|{st.st_mtime_ns}".encode())
    h.update(_CODE_KEY.encode())
    return h.hexdigest()[:16]


_LOADED: dict[str, SubjectIndex] = {}


def load_subject_index(corpus=None) -> SubjectIndex:
    """The index of the corpus's train split (corpus: a path, None = hybrid.data.corpus.corpus_root()):
    built once, then read from memory or from the disk cache."""
    root = corpus_root(corpus)
    entries = [e for e in load_manifest(root) if e["split"] == "train"]
    key = _fingerprint(root, entries)
    if key in _LOADED:
        return _LOADED[key]
    directory = cache_dir()
    target = directory.parent / "subjects" / f"{key}.json" if directory else None
    index = None
    if target is not None and target.is_file():
        try:
            data = json.loads(target.read_text(encoding="utf-8"))
            index = SubjectIndex(data["df"], data["repeated"], frozenset(data["standard"]), data["n_docs"])
        except (ValueError, KeyError, TypeError, AssertionError):
            index = None  # a damaged cache file is rebuilt below
    if index is None:
        index = build_subject_index(root, entries)
        if target is not None:
            payload = {
                "n_docs": index.n_docs,
                "df": index.df,
                "repeated": index.repeated,
                "standard": sorted(index.standard),
            }
            try:
                _write_atomic(target, json.dumps(payload))
            except OSError:
                pass  # a read-only checkout still works, only slower
    _LOADED[key] = index
    return index


@lru_cache(maxsize=64)
def _kind_vocabulary(root: Path, doc_types: frozenset, fingerprint: str) -> frozenset:
    counts: dict[str, set] = {}
    filers = set()
    for e in load_manifest(root):
        if e["split"] == "train" and e["doc_type"].upper() in doc_types and e["source"] not in STANDARD_SOURCES:
            filers.add(e["group"])
            for p in phrases((root / e["path"]).read_text(encoding="utf-8", errors="replace")):
                counts.setdefault(p, set()).add(e["group"])
    least = max(KIND_GROUPS, KIND_SHARE * len(filers))
    return frozenset(p for p, groups in counts.items() if len(groups) >= least)


def kind_vocabulary(doc_types, corpus=None) -> frozenset[str]:
    """The phrases (as `phrases` keys) that the train contracts of doc_types (a deal's kind: its doc type and
    grounding doc types, upper case) write for KIND_GROUPS or more filers and KIND_SHARE of them: the kind's own
    language ("capital
    account" of joint ventures, "royalty fee" of franchises), which no one deal's subject is. "Astaxanthin" is one
    joint venture's. Memoized per corpus state and kind."""
    root = corpus_root(corpus)
    entries = [e for e in load_manifest(root) if e["split"] == "train"]
    return _kind_vocabulary(root, frozenset(t.upper() for t in doc_types), _fingerprint(root, entries))


def _deal_forms(deal_text: str) -> frozenset[str]:
    """Every lemma and stem of the deal's words."""
    return frozenset(f for w in re.findall(r"[A-Za-z]+", deal_text.lower()) for f in _forms(w))


def _foreign_spans(text: str, deal_text: str, index: SubjectIndex | None, max_df: float,
                   kind: frozenset = frozenset()) -> list[tuple[str, str]]:
    """(lemma key, words as text writes them) of each occurrence of a foreign subject, in order; a phrase of
    `kind` (kind_vocabulary) is none. Overlapping foreign phrases of one run merge ("printed circuit" + "circuit
    board"): one subject."""
    if not 0 < max_df <= 1:
        raise ValueError(f"max_df must be in (0, 1], got {max_df}")
    index = index or load_subject_index()
    deal = _deal_forms(deal_text)
    out = []
    for run in _runs(text):
        words = [w for w, _, _ in run]
        # a word the deal uses makes every phrase holding it the deal's own
        own = [w in deal or _forms(text[s:e].lower())[1] in deal for w, s, e in run]
        spans = [
            (i, i + n)
            for n in range(1, MAX_PHRASE + 1)
            for i in range(len(words) - n + 1)
            if not any(own[i : i + n]) and index.subject(words[i : i + n], max_df)
            and " ".join(words[i : i + n]) not in kind
        ]
        merged: list[list[int]] = []
        for i, j in sorted(spans):
            if merged and i < merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], j)
            else:
                merged.append([i, j])
        out += [(" ".join(words[i:j]), " ".join(text[run[i][1] : run[j - 1][2]].split())) for i, j in merged]
    return out


def foreign_subjects(
    text: str, deal_text: str, *, index: SubjectIndex | None = None, max_df: float = MAX_DF,
    kind: frozenset = frozenset(),
) -> list[str]:
    """The subject phrases of text foreign to the deal (deal_text: its fields and its template's text),
    as text writes them, once each, in order of appearance. index: None = load_subject_index(); kind: the deal's
    kind's own phrases (kind_vocabulary), no other deal's subject."""
    seen, out = set(), []
    for key, words in _foreign_spans(text, deal_text, index, max_df, kind):
        if key not in seen:
            seen.add(key)
            out.append(words)
    return out


def foreign_subject_rate(
    text: str, deal_text: str, index: SubjectIndex | None = None, *, max_df: float = MAX_DF,
    kind: frozenset = frozenset(),
) -> float:
    """Occurrences of foreign subjects per 1,000 words of text (0.0 for a text without words)."""
    n_words = len(re.findall(r"[A-Za-z]+", text))
    if not n_words:
        return 0.0
    return 1000.0 * len(_foreign_spans(text, deal_text, index, max_df, kind)) / n_words
