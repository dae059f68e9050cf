"""A part of one section that is another section's clause: `drop_repeated_parts`.

A "General Provisions" precedent opens with "Entire Agreement; Modification. This Agreement ... supersedes all prior
agreements"; where the draft has its own Entire Agreement section, the draft says it twice, in two wordings a
lawyer must reconcile. A paragraph of a section body that opens with a run-in heading of a clause type another
section of the draft holds (hybrid.data.clauses.classify_heading) goes, with the unheaded paragraphs after it up to
the next run-in heading (the part's own); a section's own type, "other" and "general" parts stay, and so does a body
whose every paragraph would go. hybrid.draft.consistency runs it over every section. Pure string
functions; a body with nothing to drop comes back unchanged, byte for byte.

`drop_restated_law`: a sentence outside the Governing Law section that states the governing law again ("This
Agreement shall be construed and enforced in accordance with and governed by the laws of the State of Illinois" in
Miscellaneous, under the draft's own Governing Law section) goes; one that also names the forum stays unless the
draft has a dispute resolution section too.
"""

import re

from hybrid.common.sentences import HEADING_BEFORE_TEXT
from hybrid.data.clauses import classify_heading
from hybrid.draft.wording import drop_sentences

__all__ = ["drop_repeated_parts", "drop_restated_law"]

_HEADED = re.compile(rf"^\s*(?:\(?[A-Za-z0-9]{{1,3}}[.)]\s+)?({HEADING_BEFORE_TEXT})(?=\s|$)")
_KEEP = frozenset({"other", "general"})


def drop_repeated_parts(body: str, own: str, others) -> tuple[str, list[str]]:
    """(body without the paragraphs headed as a clause type in `others` (the draft's other sections' clause types)
    other than `own`, the run-in headings of those dropped)."""
    paragraphs = body.split("\n\n")
    gone, dropped, dropping = set(), [], False
    for i, para in enumerate(paragraphs):
        m = _HEADED.match(para)
        if m:  # a part opens: it goes where another section holds its clause type
            kind = classify_heading(m.group(1).rstrip("."))
            dropping = kind in others and kind != own and kind not in _KEEP
            if dropping:
                dropped.append(m.group(1))
        if dropping:  # the part's paragraphs after its heading's go with it ("Any notice given by airmail ...")
            gone.add(i)
    if not gone or len(gone) == sum(1 for p in paragraphs if p.strip()):  # never the whole body
        return body, []
    return "\n\n".join(p for i, p in enumerate(paragraphs) if i not in gone).strip(), dropped


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
