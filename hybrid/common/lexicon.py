"""One lexicon for the text passes: each notion the passes share defined once, here.

Owns the sentence that leans on the one before it: `CONNECTIVES` (words that only link it, which go with their comma
without loss of sense: "In addition, Licensor may ..." -> "Licensor may ..."), `BACK_REFERENCES` (words that point
back at what came before and cannot stand first: "Such", "Notwithstanding the foregoing", "For avoidance of
doubt"), `LEANING` (a sentence opening on either, in any case: ALL-CAPS clauses too) and `CONNECTIVE_OPENING` (the
connective and its comma a pass may take off), and a run-in heading a text ends on with nothing under it: on a line
of its own (`TRAILING_HEADING_LINE`: the draft's revise step) or after a sentence's stop in one paragraph
(`TRAILING_HEADING_AFTER_SENTENCE`: the paragraph repair); the start's `trailing_headings` pass asks the settling's
heading test sentence by sentence. The fit's penalty (hybrid.precedents.fit), the settling's fragment
after a cut (hybrid.text.settle) and the start's strip (hybrid.text.start_passes) read these, and ingestion
(hybrid.data.flatten) reads `TITLED_LIST_ITEM`; so it sits in hybrid.common, below all of them. A test finds any
rival definition in hybrid/.
"""

import re

from hybrid.common.sentences import RUN_IN_HEADING

__all__ = ["CONNECTIVES", "BACK_REFERENCES", "LEANING", "CONNECTIVE_OPENING", "TRAILING_HEADING_LINE",
           "TRAILING_HEADING_AFTER_SENTENCE"]

CONNECTIVES = (r"In addition|Additionally|Furthermore|Moreover|Further|Also|However|Likewise|Similarly|Accordingly"
               r"|Therefore")
"""Words that open a sentence by linking it to the one before, as a pattern."""

BACK_REFERENCES = (r"For (?:the )?avoidance of doubt|Notwithstanding the foregoing|The foregoing|Such"
                   r"|In such (?:case|event)|In that (?:case|event)|Thereafter|Otherwise|Nor"
                   r"|The (?:provisions of the )?(?:preceding|previous) (?:sentence|paragraph)s?")
"""Words that open a sentence by pointing back at what came before it, as a pattern."""

LEANING = re.compile(rf"^\W*(?:{CONNECTIVES}|{BACK_REFERENCES})\b", re.I)
"""A text that opens leaning on something before it: no clause or section can start with it."""

CONNECTIVE_OPENING = re.compile(rf"^(?:{CONNECTIVES}),\s+(?=[A-Za-z])", re.I)
"""A connective and its comma opening a text: what may go, the text after it standing on its own."""

TRAILING_HEADING_LINE = re.compile(rf"\n\s*{RUN_IN_HEADING}\s*$")
"""A run-in heading on a line of its own at a text's end: the source's next clause's heading, with nothing after it."""

TRAILING_HEADING_AFTER_SENTENCE = re.compile(rf"(?<=[.!?])[ \t]+{RUN_IN_HEADING}[ \t]*$")
"""A run-in heading after a sentence's stop at the end of a paragraph ("... in writing. Notices.")."""

TITLED_LIST_ITEM = r"\([A-Z][^()\n]{0,60}\)[ \t]*[,;]"
"""What follows a number that is an item of a list of titled references, not a paragraph's own number: "5.4" in
"will survive: 5.4 (Usage Data), 8.4 (Disclaimers), ...". Ingestion (hybrid.data.flatten) does not start a
paragraph there, and the start's number cleanup (inner_number) does not remove it."""
