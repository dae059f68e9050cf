"""A part of one section that is another section's clause: `drop_repeated_parts` (hybrid.text.repeated_parts's,
re-exported), `drop_repeated` (the same under a guard) and `drop_restated_law`.

A "General Provisions" precedent opens with "Entire Agreement; Modification. This Agreement ... supersedes all prior
agreements"; where the draft has its own Entire Agreement section, the draft says it twice, in two wordings a
lawyer must reconcile. A paragraph of a section body that opens with a run-in heading of a clause type another
section of the draft holds (hybrid.data.clauses.classify_heading) goes, with the unheaded paragraphs after it up to
the next run-in heading (the part's own); a section's own type, "other" and "general" parts stay, and so does a body
whose every paragraph would go. The edit's start drops such parts before the budget cut (hybrid.text.start
.settled_start), so the budget goes to the parts that stay; hybrid.draft.consistency runs it over every section
again. Pure string functions; a body with nothing to drop comes back unchanged, byte for byte.

`drop_restated_law`: a sentence outside the Governing Law section that states the governing law again ("This
Agreement shall be construed and enforced in accordance with and governed by the laws of the State of Illinois" in
Miscellaneous, under the draft's own Governing Law section) goes; one that also names the forum stays unless the
draft has a dispute resolution section too.

Both take an optional `guard(text, spans) -> spans` (hybrid.common.protections.Guard): a part or sentence it does not
hand back stays (a right, remedy or protection the draft states nowhere else).
"""

import re

from hybrid.text.repeated_parts import drop_repeated_parts
from hybrid.text.wording import drop_sentences

__all__ = ["drop_repeated_parts", "drop_repeated", "drop_restated_law"]

_STATES_LAW = re.compile(r"\b(?:governed|construed|interpreted|enforced)\b[^.;]{0,160}?\blaws?\s+of\b", re.I)
_MARKER = r"\s*(?:\(?[A-Za-z0-9]{1,3}[.)]\s+)?"  # a part's list marker before its heading ("b) Governing Law.")
_FORUM = re.compile(r"\b(?:courts?|venue|jurisdiction|arbitrat\w*|litigat\w*|tribunal)\b", re.I)


def drop_repeated(body: str, own: str, others, guard=None) -> tuple[str, list[str]]:
    """drop_repeated_parts, where each part that would go (its headed paragraph and the unheaded ones after it) goes
    only if `guard` hands its span back; None: as drop_repeated_parts."""
    new, dropped = drop_repeated_parts(body, own, others)
    if guard is None or not dropped:
        return new, dropped
    paragraphs = body.split("\n\n")
    parts = _parts(paragraphs, new.split("\n\n"), dropped)
    if len(parts) != len(dropped):  # the parts cannot be told apart (no case met yet): nothing goes unguarded
        return body, []
    starts = [sum(len(p) + 2 for p in paragraphs[:i]) for i in range(len(paragraphs) + 1)]
    spans = {(starts[part[0]], starts[part[-1]] + len(paragraphs[part[-1]])): (part, h) for part, h in parts}
    going = [spans[s] for s in guard(body, list(spans))]
    if not going:
        return body, []
    gone = {i for part, _ in going for i in part}
    return "\n\n".join(p for i, p in enumerate(paragraphs) if i not in gone).strip(), [h for _, h in going]


def _parts(paragraphs: list[str], kept: list[str], headings: list[str]) -> list[tuple[list[int], str]]:
    """([paragraph indices], heading) of each part drop_repeated_parts took: the paragraphs not among `kept` (in
    order), a part opening at each paragraph that opens with the next of `headings` and running up to the next."""
    gone, k = [], 0
    for i, p in enumerate(paragraphs):
        if k < len(kept) and p.strip() == kept[k].strip():
            k += 1
        else:
            gone.append(i)
    parts, h = [], 0
    for i in gone:
        if h < len(headings) and re.match(_MARKER + re.escape(headings[h]), paragraphs[i]):
            parts.append(([i], headings[h]))
            h += 1
        elif parts:  # the part's own paragraphs after its heading's
            parts[-1][0].append(i)
    return parts


def drop_restated_law(body: str, own: str, others, guard=None) -> tuple[str, list[str]]:
    """(body without the sentences that state the governing law again where another section of the draft is its
    Governing Law (`others`: the other sections' clause types), those sentences); a sentence naming the forum too
    goes only where the draft has a dispute resolution section. Never the whole body."""
    if own == "governing_law" or "governing_law" not in others:
        return body, []
    forum_elsewhere = "dispute_resolution" in others and own != "dispute_resolution"
    return drop_sentences(
        body, lambda s: bool(_STATES_LAW.search(s)) and (forum_elsewhere or not _FORUM.search(s)), guard=guard
    )
