"""A part of a precedent that is another section's clause: `drop_repeated_parts`.

A "General" precedent reads "a) Assignment. ... b) Governing Law. ... c) Notice. ..."; where the draft has its own
Assignment and Governing Law sections, those parts say again what the draft says, and, kept in the edit's start,
they take the section's budget: the General of a sponsorship draft at 677867e was "a) Notice." alone once the
consistency pass had dropped the parts before it. A paragraph that opens with a run-in heading of a clause type
another section of the draft holds (hybrid.data.clauses.classify_heading) goes, with the unheaded paragraphs after it
up to the next run-in heading (the part's own); a section's own type, "other", "general" and "definitions" parts
stay (a part defining its section's terms is no second Definitions section), and so does a body whose every
paragraph would go. Pure string functions; hybrid.text.start.settled_start and
hybrid.draft.consistency (through hybrid.text.repeated_clauses) run it.
"""

import re

from hybrid.common.sentences import HEADING_BEFORE_TEXT
from hybrid.data.clauses import classify_heading

__all__ = ["drop_repeated_parts"]

_HEADED = re.compile(rf"^\s*(?:\(?[A-Za-z0-9]{{1,3}}[.)]\s+)?({HEADING_BEFORE_TEXT})(?=\s|$)")
# a part defining the terms its own section uses ("Indemnification Definitions. ... "Provider-Covered Claim" means
# ...") stays beside a Definitions section: that section is pruned of what the draft defines elsewhere instead
_KEEP = frozenset({"other", "general", "definitions"})


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
