"""Which of the clauses that may fill a place in a base answers what the place asks: drafting's clause choice.

Owns: the query each place asks (an inserted clause's, in a lawyer's words: `insert_query`, "Limitation of liability
in a supply agreement"; an alternative to a base's section asks for what that section says: its own text,
`clause_text`), the scorer that answers it (`chooser`: `hybrid rank`'s own, hybrid.precedents.relevance.
DEFAULT_WEIGHTS, the configuration chosen on ACORD's expert ratings) and the candidates ranked by it (`ranked`). Knows
nothing of where a clause goes, which clauses may go there or whether one fits the base (hybrid.skeleton.from_base
asks those first).

Why an alternative asks with its section's text and not with its heading: asked "Exceptions in a non-disclosure
agreement: confidentiality, exclusions from confidential information", the scorer put four whole Confidentiality
articles of other forms (230-266 words, 0.743-0.763) above the sister NDA form's own 61-word "Exceptions" (0.649);
asked with the section's text, that "Exceptions" came first (0.971) (docs/MEASUREMENTS.md, issue 53).
"""

from hybrid.precedents.library import MARKER_RE

__all__ = ["chooser", "insert_query", "ranked", "clause_text", "NEAR"]

# answers the scorer puts this close to the best are alike to it (its scores are MiniLM cosines): of those, the one
# nearest the wanted length goes first; for an inserted clause the shortest, as it carries the least of another deal
# (a 261-word default clause with a lease statute's notice and its parties' roles collapsed came first by 0.005 over a
# 183-word mutual one)
NEAR = 0.05


def chooser(library):
    """The default relevance scorer (the one `hybrid rank` builds), reading the library's embedding cache where
    the library has a scorer of its own (Library.use_relevance): a precedent's vectors are computed once."""
    from hybrid.precedents.relevance import RelevanceScorer

    own = getattr(library, "relevance", None)
    return RelevanceScorer(embed=own.embed if own is not None else None)


def insert_query(template, label: str) -> str:
    """What an inserted clause answers: the checklist item it is inserted for, in the template's kind of contract
    ("Termination for breach in a distributor agreement")."""
    title = " ".join(template.title.split()).lower()
    return f"{label} in {'an' if title[:1] in 'aeiou' else 'a'} {title}"


def clause_text(p) -> str:
    """What the scorer reads of a precedent: its heading and whole body, the source deal's markers out (the scorer
    reads a long body in windows)."""
    return " ".join(MARKER_RE.sub(" ", f"{p.heading}. {p.body}" if p.heading else p.body).split())


def ranked(scorer, query: str, candidates: list, words: int = 0, near: float = NEAR) -> list[tuple[float, object]]:
    """(score, precedent) of each candidate, best answer to the query first: of those the scorer puts within `near`
    of the best left, the one whose length is nearest `words` (0: the shortest; then the first given)."""
    scores = [float(s) for s in scorer.score(query, [clause_text(p) for p in candidates])] if candidates else []
    off = [abs(len(p.body.split()) - words) for p in candidates]
    left, out = list(range(len(candidates))), []
    while left:
        best = max(scores[i] for i in left)
        i = min((i for i in left if scores[i] >= best - near), key=lambda i: (off[i], i))
        out.append((scores[i], candidates[i]))
        left.remove(i)
    return out
