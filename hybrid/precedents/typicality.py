"""How much of a document reads as contracts written for any deal read ("typicality"): a part of a base's fit.

Owns: `typicality` (of one library document: over its sentences of MIN_SENTENCE_WORDS words or more, weighted by
their words, the MiniLM cosine of each to its nearest sentence of the library's standard forms) and `typical_part`
(that figure scaled to [0, 1] for hybrid.precedents.base's fit).

A standard form is written for every deal of its kind, so a sentence near one of its sentences is no one deal's: a
warranty, an indemnity, a purchase-order mechanic. A sentence far from all of them is its own deal's: a vehicle
maker's "Homologation fees for vehicle and spare parts", a nutraceutical plant's fermenters. Two cold readers at
seed 401 (session 35) preferred the base of the two with the higher figure for supply: a master supply agreement
(0.666, read B) over a vehicle manufacturing agreement (0.620, read C); for a joint venture they preferred the lower
(a small-business template, 0.554, read C, over a nutraceutical joint venture, 0.577, read D), so it is one part of
the fit, not the choice. Earlier readings agree in direction for the distributor: a reseller agreement (0.639) read
B at seed 331, an energy distributor's (0.603) C at seed 347. The embeddings are the library's relevance scorer's,
cached on disk per text (hybrid.precedents.embeddings.EmbeddingCache): a document costs one embedding of each of its
sentences once per machine.
"""

import weakref

import numpy as np

from hybrid.common.sentences import sentences
from hybrid.precedents.fit import STANDARD_SOURCES

__all__ = ["typicality", "typical_part", "TYPICAL_LO", "TYPICAL_SPAN", "MIN_SENTENCE_WORDS", "MAX_SENTENCES"]

MIN_SENTENCE_WORDS = 6  # shorter ones are headings, list items and signature lines, near anything or nothing
# the figure at which a document counts as not typical at all, and the span over which it becomes wholly typical:
# the train split's supply, distributor, sponsorship, franchise and joint-venture candidates run 0.51-0.67
TYPICAL_LO, TYPICAL_SPAN = 0.5, 0.2
MAX_SENTENCES = 96  # a document's sentences weighed, evenly spaced through it: the figure moves by about 0.01 past it


def _sentences(sections, most: int | None = None) -> list[str]:
    """The sentences of MIN_SENTENCE_WORDS words or more, in order; at most `most`, evenly spaced (None: all)."""
    spaced = (" ".join(s.split()) for p in sections for s in sentences(p.body))
    out = [s for s in spaced if len(s.split()) >= MIN_SENTENCE_WORDS]
    if most is not None and len(out) > most:
        out = [out[i * len(out) // most] for i in range(most)]
    return out


_FORMS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # library -> unit rows of its forms' sentences
_MEMO: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # library -> {doc id: typicality}


def _form_rows(library, embed, documents) -> np.ndarray | None:
    rows = _FORMS.get(library)
    if rows is None:
        from hybrid.precedents.embeddings import unit_rows

        texts = [s for ps in documents.values() if ps and ps[0].source in STANDARD_SOURCES for s in _sentences(ps)]
        rows = unit_rows(embed(texts)) if texts else np.zeros((0, 1), dtype=np.float32)
        _FORMS[library] = rows
    return rows if len(rows) else None


def typicality(library, doc_id: str, sections, embed, documents) -> float | None:
    """The word-weighted mean, over doc_id's sentences (sections: its Precedents), of each one's cosine to its
    nearest standard-form sentence of the library (documents: hybrid.precedents.base.documents(library)); None where
    the library holds no standard form or the document no sentence to weigh. Memoized per library and document."""
    memo = _MEMO.setdefault(library, {})
    if doc_id not in memo:
        from hybrid.precedents.embeddings import unit_rows

        forms, texts = _form_rows(library, embed, documents), _sentences(sections, MAX_SENTENCES)
        if forms is None or not texts:
            memo[doc_id] = None
        else:
            nearest = (unit_rows(embed(texts)) @ forms.T).max(axis=1)
            memo[doc_id] = float(np.average(nearest, weights=[len(t.split()) for t in texts]))
    return memo[doc_id]


def typical_part(value: float | None) -> float:
    """typicality scaled to [0, 1] over TYPICAL_LO .. TYPICAL_LO + TYPICAL_SPAN (0 where unknown)."""
    if value is None:
        return 0.0
    return min(1.0, max(0.0, (value - TYPICAL_LO) / TYPICAL_SPAN))
