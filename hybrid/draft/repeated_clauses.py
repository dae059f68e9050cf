"""A part of one section that is another section's clause: `drop_repeated_parts` (hybrid.precedents.parts's,
re-exported) and `drop_restated_law`.

A "General Provisions" precedent opens with "Entire Agreement; Modification. This Agreement ... supersedes all prior
agreements"; where the draft has its own Entire Agreement section, the draft says it twice, in two wordings a
lawyer must reconcile. A paragraph of a section body that opens with a run-in heading of a clause type another
section of the draft holds (hybrid.data.clauses.classify_heading) goes, with the unheaded paragraphs after it up to
the next run-in heading (the part's own); a section's own type, "other" and "general" parts stay, and so does a body
whose every paragraph would go. The edit's start drops such parts before the budget cut (hybrid.precedents.start
.settled_start), so the budget goes to the parts that stay; hybrid.draft.consistency runs it over every section
again. Pure string functions; a body with nothing to drop comes back unchanged, byte for byte.

`drop_restated_law`: a sentence outside the Governing Law section that states the governing law again ("This
Agreement shall be construed and enforced in accordance with and governed by the laws of the State of Illinois" in
Miscellaneous, under the draft's own Governing Law section) goes; one that also names the forum stays unless the
draft has a dispute resolution section too.
"""

import re

from hybrid.draft.wording import drop_sentences
from hybrid.precedents.parts import drop_repeated_parts

__all__ = ["drop_repeated_parts", "drop_restated_law"]

_STATES_LAW = re.compile(r"\b(?:governed|construed|interpreted|enforced)\b[^.;]{0,160}?\blaws?\s+of\b", re.I)
_FORUM = re.compile(r"\b(?:courts?|venue|jurisdiction|arbitrat\w*|litigat\w*|tribunal)\b", re.I)


def drop_restated_law(body: str, own: str, others) -> tuple[str, list[str]]:
    """(body without the sentences that state the governing law again where another section of the draft is its
    Governing Law (`others`: the other sections' clause types), those sentences); a sentence naming the forum too
    goes only where the draft has a dispute resolution section. Never the whole body."""
    if own == "governing_law" or "governing_law" not in others:
        return body, []
    forum_elsewhere = "dispute_resolution" in others and own != "dispute_resolution"
    return drop_sentences(body, lambda s: bool(_STATES_LAW.search(s)) and (forum_elsewhere or not _FORUM.search(s)))
