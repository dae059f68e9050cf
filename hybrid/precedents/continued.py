"""A precedent continued by the sections that follow it in its source on the same subject.

Owns: `continued`, which joins to a chosen precedent the sections right after it in its source contract while
they hold the same clause type and fit the section's room ("Confidential Information", then "Use and Protection
of Confidential Information", then "Exceptions" of the Bonterms Mutual NDA: the exclusions an NDA cannot do
without, which the source puts in sections of their own). The result is a
hybrid.precedents.definitions.ComposedPrecedent that cites each section it took. Pure data: knows nothing of
models or tokenizers.
"""

import weakref
from dataclasses import fields

from hybrid.data.facts import flip_parties
from hybrid.precedents.definitions import ComposedPrecedent

__all__ = ["continued", "room_words", "WORDS_PER_TOKEN"]

WORDS_PER_TOKEN = 0.7  # words a span's token budget holds, a little under what contract text averages
_INDEX: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # library -> {doc id: {number: precedent}}


def room_words(budget: int, frame: str = "") -> int:
    """The words a span of `budget` tokens leaves for its precedent after its frame sentence."""
    return max(int(budget * WORDS_PER_TOKEN) - len(frame.split()), 0)


def _number(precedent) -> int | None:
    tail = precedent.id.rsplit("#", 1)[-1]
    return int(tail) if tail.isdigit() else None


def _sections(library) -> dict:
    index = _INDEX.get(library)
    if index is None:
        index = {}
        for p in library.precedents:
            n = _number(p)
            if n is not None:
                index.setdefault(p.doc_id, {})[n] = p
        _INDEX[library] = index
    return index


def continued(library, precedent, clause: str, room: int):
    """`precedent` joined by the sections right after it in its source (its section number + 1, + 2, ...) while
    each is of `clause` (the span's clause type, which the precedent's must be too) and the bodies together stay
    within `room` words; precedent itself where none follows so (or it is None, composed, or not numbered). A
    precedent whose parties were flipped to the deal's roles has the sections after it flipped alike."""
    if precedent is None or getattr(precedent, "sources", None) or precedent.clause_type != clause:
        return precedent
    n = _number(precedent)
    own = _sections(library).get(precedent.doc_id, {})
    if n is None or n not in own:
        return precedent
    flipped = own[n].body != precedent.body
    parts, bodies = [precedent], [precedent.body]
    words = len(precedent.body.split())
    while (nxt := own.get(n + len(parts))) is not None and nxt.clause_type == clause:
        body = flip_parties(nxt.body) if flipped else nxt.body
        if words + len(body.split()) > room:
            break
        parts.append(nxt)
        bodies.append(body)
        words += len(body.split())
    if len(parts) == 1:
        return precedent
    base = {f.name: getattr(precedent, f.name) for f in fields(precedent) if f.name != "sources"}
    base.update(
        body="\n\n".join(bodies),
        facts=list(dict.fromkeys(f for p in parts for f in p.facts)),
        numbers=[x for p in parts for x in p.numbers],
    )
    return ComposedPrecedent(**base, sources=parts)
