"""Capitalized words and acronyms that name no deal ("ordinary words"): what the contracts of many companies write.

Owns: `OrdinaryWords` (the index and `ordinary`, the test of one foreign fact), `build_ordinary_words` and
`load_ordinary_words` (built once from the train split, cached in memory and on disk).

Why: the foreign-fact check (hybrid.fidelity.foreign_facts) calls a capitalized word or an isolated acronym
foreign when the deal's text never writes it. That is right for another deal's names ("FarmaCiencia", "LBIO",
"Menlo Park") and wrong for the words of contracts in general, which an edit of a precedent then blanked or had
the filler rewrite: "acts of [___]" (God), "Supplier shall [___] provide a warranty" (NOT), "include the [___]"
(the FCPA), "'OFAC' means the [___]" (Office of Foreign Assets Control), "Titles and [___]." (Headings). A name
belongs to one deal: its companies, people, products and addresses are written by the contracts of one issuer or
a few. So a word is ordinary when the train contracts of many different issuers (distinct manifest groups) write
it in the same form: title case by MIN_GROUPS of them, all capitals by MIN_GROUPS_CAPS (the most widespread names
of the train split stay under those: "Microsoft" 18 groups, "IBM" 4, "LBIO" 1; "God" 136, "FCPA" 10, "NOT" 130).

Exclusions, another deal's whatever their spread:
- places: the words of hybrid.fidelity.fact_vocab.PLACES, and words that at least PLACE_SHARE of the groups
  capitalizing them write in an address (before a state and a ZIP code, "located in ...": "San", "Street",
  "Chicago", "CA");
- people: words that at least PERSON_SHARE of those groups write as a person's name (after "Name:", "/s/",
  "Mr.": "Michael", "John");
- party roles the deal does not use: the role names of hybrid.data.roles.FAMILIES ("Licensee", "Disclosing
  Party") and words that at least ROLE_SHARE of those groups' preambles define a party by ("Company", "Agent").
Applied where an edit decides what to mask and a base what to blank (hybrid.precedents.fact_spans.fact_spans), not in
the foreign-facts count itself (drafts.json, the ranker, the benchmarks count as before). Pure functions of strings
and the corpus's train files; knows nothing of models or drafts.
"""

import hashlib
import inspect
import json
import re
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from hybrid.common.errors import CorpusError
from hybrid.data.corpus import _write_atomic, cache_dir, corpus_root, load_manifest
from hybrid.data.roles import FAMILIES
from hybrid.fidelity.fact_vocab import _CONNECTORS, _WORD_RE, PLACES, _base, name_vocabulary

__all__ = ["OrdinaryWords", "build_ordinary_words", "load_ordinary_words", "MIN_GROUPS", "MIN_GROUPS_CAPS"]

MIN_GROUPS = 20  # a title-case word written by the contracts of this many groups (of 442) is no deal's name
MIN_GROUPS_CAPS = 10  # an all-caps word: a deal's short name is written by few ("LBIO" 1, "IBM" 4, "AOL" 6)
PLACE_SHARE = 0.2  # of the groups capitalizing a word, this share writing it in an address: a place's word
PERSON_SHARE = 0.2  # ... writing it as a person's name: a person's
ROLE_SHARE = 0.1  # ... defining a party by it in the preamble: a party's role
PREAMBLE_CHARS = 5000  # where a contract defines its parties

_CAPW = r"[A-Z][A-Za-z.'-]*"
_ZIP = r"\d{5}(?:-\d{4})?(?!\d)"
_PLACE_CONTEXTS = (  # group 1: the capitalized words of a place
    # "1 Main Street, Menlo Park, California 94025": the words of a street and a city before a state and a ZIP code
    re.compile(
        rf"((?:{_CAPW},?[ \t]+){{0,5}}{_CAPW}),?[ \t]+(?:{_CAPW}[ \t]+)?(?:[A-Z]{{2}}|{_CAPW})\.?,?[ \t]+{_ZIP}"
    ),
    re.compile(rf"\b([A-Z]{{2}})\.?,?[ \t]+{_ZIP}"),  # a state's postal code: "CA 94025"
    re.compile(
        rf"\b(?:located (?:in|at)|[Cc]ity of|[Cc]ounty of|offices? in|[Cc]ourts? (?:located )?in)[ \t]+"
        rf"((?:{_CAPW}[ \t]+){{0,2}}{_CAPW})"
    ),
)
# a person's name: after a signature block's "Name:", a signature's "/s/", a title; not a label ("Name: Title:")
_PERSON = re.compile(rf"(?:Name:|NAME:|/s/|Mr\.|Ms\.|Mrs\.|Dr\.)[ \t]*((?:{_CAPW}[ \t]+){{0,2}}{_CAPW})(?![:\w])")
_ENTITY = (
    r"(?:Inc|Corp|Corporation|LLC|L\.L\.C|Ltd|Limited|Company|company|corporation|partnership|L\.P|LP|GmbH|AG|S\.A"
    r"|B\.V|N\.V|plc|PLC|N\.A|organization|association|individual)\.?"
)
# a party defined in a preamble: 'Acme, Inc., a Delaware corporation ("Licensor")'
_PARTY_ROLE = re.compile(
    rf"{_ENTITY}[^()\n]{{0,120}}\(\s*(?:the|each|hereinafter|hereinafter referred to as|referred to as|individually"
    rf"|together with its Affiliates,)?[\s,]*[\"“]([A-Z][A-Za-z]+)[\"”]\s*\)"
)
_PLACE_WORDS = frozenset(w.lower() for p in PLACES for w in p.split()) - _CONNECTORS
_ROLE_NAMES = tuple(r for f, names in FAMILIES.items() if f != "agreement" for r in names)


@dataclass(frozen=True)
class OrdinaryWords:
    """The forms (as written, possessive off) that the train split's contracts of many groups write, less the words
    of places, people and party roles."""

    forms: frozenset[str]

    def ordinary(self, text: str, allowed: str) -> bool:
        """text (a foreign fact: a run of capitalized words, a statute, an acronym) names no deal: each capitalized
        word of it that the deal's text (`allowed`) does not write (an all-caps one: not as written) is an ordinary
        form, or the plural of one ("Acts" of "Act"), and it holds no party role name the deal does not use
        ("Disclosing Party" in a supply deal stays another deal's)."""
        vocab, written, low = _vocabulary(allowed)
        words = [_strip(w) for w in _WORD_RE.findall(text) if w[:1].isupper() and len(w) > 1]
        foreign = [w for w in words if w not in written and (w.isupper() or not _in_vocab(w.lower(), vocab))]
        if not all(self._form(w) for w in foreign):
            return False
        return not any(_has(r.lower(), text.lower()) and not _has(r.lower(), low) for r in _ROLE_NAMES)

    def _form(self, word: str) -> bool:
        return word in self.forms or word[-1:] in "sS" and (word[:-1] in self.forms or word[-2:] in ("es", "ES")
                                                               and word[:-2] in self.forms)


EMPTY = OrdinaryWords(frozenset())  # no corpus: nothing is ordinary (every foreign fact stays one)


def _strip(word: str) -> str:
    """word without a possessive ("Distributor's" -> "Distributor")."""
    return word[:-2] if word.endswith(("'s", "’s")) else word


def _has(phrase: str, text: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", text) is not None


def _in_vocab(word: str, vocab) -> bool:
    """As hybrid.fidelity.foreign_facts decides: word, or the singular of a plural, is the deal's or generic."""
    word = _base(word)
    return word in vocab or (word.endswith("s") and (word[:-1] in vocab or word.endswith("es") and word[:-2] in vocab))


@lru_cache(maxsize=16)
def _vocabulary(allowed: str) -> tuple[frozenset[str], frozenset[str], str]:
    """(the words a capitalized word may be, the words as the deal writes them, the deal's text in lower case)."""
    return frozenset(name_vocabulary(allowed)), frozenset(map(_strip, _WORD_RE.findall(allowed))), allowed.lower()


def _count(root: Path, entries: list[dict]) -> dict[str, dict[str, set[str]]]:
    """Groups per word: "title" and "caps" (forms), "any" (capitalized, lower case), "place", "person", "role"."""
    seen: dict[str, dict[str, set[str]]] = {k: defaultdict(set) for k in ("title", "caps", "any", "place", "person",
                                                                            "role")}
    for e in entries:
        text, group = (root / e["path"]).read_text(encoding="utf-8", errors="replace"), e["group"]
        for w in {_strip(w) for w in _WORD_RE.findall(text) if w[:1].isupper()}:
            seen["caps" if w.isupper() else "title"][w].add(group)
            seen["any"][w.lower()].add(group)
        contexts = [("place", m) for rx in _PLACE_CONTEXTS for m in rx.finditer(text)]
        contexts += [("person", m) for m in _PERSON.finditer(text)]
        contexts += [("role", m) for m in _PARTY_ROLE.finditer(text[:PREAMBLE_CHARS])]
        for kind, m in contexts:
            for w in _WORD_RE.findall(m.group(1)):
                if w[:1].isupper():
                    seen[kind][_strip(w).lower()].add(group)
    return seen


def build_ordinary_words(root: Path, entries: list[dict]) -> OrdinaryWords:
    """The index of entries (manifest entries, all of split "train"): the module docstring's rule."""
    assert entries and all(e["split"] == "train" for e in entries), "ordinary words are read from the train split only"
    seen = _count(root, entries)

    def share(kind: str, key: str) -> float:
        return len(seen[kind].get(key, ())) / max(len(seen["any"].get(key, ())), 1)

    roles = {k for k in seen["role"] if share("role", k) >= ROLE_SHARE}
    # FAMILIES' one-word roles ("Licensee"); one of two words ("Disclosing Party") is OrdinaryWords.ordinary's
    roles |= {r.lower() for r in _ROLE_NAMES if " " not in r}
    forms = [w for w, g in seen["title"].items() if len(g) >= MIN_GROUPS]
    forms += [w for w, g in seen["caps"].items() if len(g) >= MIN_GROUPS_CAPS]
    kept = frozenset(
        w
        for w in forms
        if w.lower() not in _PLACE_WORDS
        and share("place", w.lower()) < PLACE_SHARE
        and share("person", w.lower()) < PERSON_SHARE
        and w.lower() not in roles
    )
    return OrdinaryWords(kept)


def _code_key() -> str:
    """A hash of the rule: an edit to its constants or to the code that counts rebuilds the index."""
    constants = (MIN_GROUPS, MIN_GROUPS_CAPS, PLACE_SHARE, PERSON_SHARE, ROLE_SHARE, PREAMBLE_CHARS, _PERSON.pattern,
                 _PARTY_ROLE.pattern, [p.pattern for p in _PLACE_CONTEXTS], sorted(_PLACE_WORDS), _ROLE_NAMES,
                 _WORD_RE.pattern)
    h = hashlib.sha1(repr(constants).encode())
    for f in (_strip, _count, build_ordinary_words):
        h.update(inspect.getsource(f).encode())
    return h.hexdigest()


_CODE_KEY = _code_key()


def _fingerprint(root: Path, entries: list[dict]) -> str:
    """Changes when the manifest, a train file or the rule changes."""
    h = hashlib.sha1((root / "manifest.jsonl").read_bytes())
    for e in entries:
        st = (root / e["path"]).stat()
        h.update(f"{e['path']}|{st.st_size}|{st.st_mtime_ns}".encode())
    h.update(_CODE_KEY.encode())
    return h.hexdigest()[:16]


_LOADED: dict[tuple, OrdinaryWords] = {}  # (corpus root, its manifest's size and time) -> index, in one process


def load_ordinary_words(corpus=None) -> OrdinaryWords:
    """The index of the corpus's train split (corpus: a path, None = hybrid.data.corpus.corpus_root()), built once,
    then read from memory while the manifest stands unchanged (hybrid.precedents.fact_spans.fact_spans asks it of every
    text it settles) or from <cache>/ordinary/<fingerprint>.json; EMPTY where there is no corpus."""
    try:
        root = corpus_root(corpus)
        st = (root / "manifest.jsonl").stat()
        memo = (str(root), st.st_size, st.st_mtime_ns)
        if memo not in _LOADED:
            _LOADED[memo] = _load(root)
    except (CorpusError, OSError):
        return EMPTY
    return _LOADED[memo]


def _load(root: Path) -> OrdinaryWords:
    """The index of root's train split from the disk cache, else built and written there."""
    entries = [e for e in load_manifest(root) if e["split"] == "train"]
    if not entries:
        return EMPTY
    key = _fingerprint(root, entries)
    directory = cache_dir()
    target = directory.parent / "ordinary" / f"{key}.json" if directory else None
    if target is not None and target.is_file():
        try:
            return OrdinaryWords(frozenset(json.loads(target.read_text(encoding="utf-8"))["forms"]))
        except (ValueError, KeyError, TypeError):
            pass  # a damaged cache file is rebuilt below
    index = build_ordinary_words(root, entries)
    if target is not None:
        try:
            _write_atomic(target, json.dumps({"forms": sorted(index.forms)}))
        except OSError:
            pass  # a read-only checkout still works, only slower
    return index
