"""Step 4 of hybrid.data.clean: flattened text back into paragraphs.

Owns: splitting the ~190 CUAD files that hold whole pages on one line (runs of spaces that stood
for line breaks, then breaks before section numbers, ARTICLE / Section headings, (a) items,
WHEREAS, definitions when they follow a sentence end). A pure str -> [str] step; knows nothing
about the other cleaning steps, sections or files.
"""

import re
from collections import Counter

from hybrid.common.lexicon import TITLED_LIST_ITEM

__all__ = ["LONG_LINE", "SPLIT_RE", "STARTS_PARA_RE", "split_at", "split_flattened"]

LONG_LINE = 700  # characters: below this a line is an ordinary paragraph and is left alone
_END_RE = re.compile(r"[.:;!?][\"')\]]*$")
_SENT_END = r"(?:(?<=[.:;!?])|(?<=[.:;!?][\"')]))"
# Markers that start a paragraph when they follow a sentence end inside a flattened line.
_PARA_MARKERS = [
    r"(?:ARTICLE|Article)\s+(?:[IVXLC]+|\d{1,2})\b",
    # not a titled reference in a list: "survive: 5.4 (Usage Data), 8.4 (Disclaimers), ...", "survive ...
    # Agreement: Section 2.1 (Deliverables), Section 2.3 (Pre-Existing Materials), ..."
    rf"(?:SECTION|Section)\s+\d{{1,2}}(?:\.\d{{1,3}})*\.?\s+(?=[A-Z\"(])(?!{TITLED_LIST_ITEM})",
    rf"\d{{1,2}}\.(?:\d{{1,3}}\.?)*\s+(?=[A-Z\"(])(?!{TITLED_LIST_ITEM})",
    r"\d{1,2}\s+(?=[A-Z]{4,}\b)",
    r"(?P<secn>\d{1,2})\s+(?=[A-Z][^.\n]{2,80}?\s(?P=secn)\.1\s)",
    r"\d{1,2}\)\s+(?=[A-Z])",
    r"(?:WHEREAS|NOW,? THEREFORE|IN WITNESS WHEREOF|W\s?I\s?T\s?N\s?E\s?S\s?S\s?E\s?T\s?H)\b",
    r"\"[A-Z][^\"\n]{0,80}\"\s+(?:means|shall mean|has the meaning|shall have the meaning|refers to)\b",
]
SPLIT_RE = re.compile(
    _SENT_END
    + r" +(?="
    + "|".join(_PARA_MARKERS)
    + r")|(?<=[A-Z]{2}) +(?=(?:Section|SECTION) \d{1,2}(?:\.\d{1,3})*\.? +[A-Z])"
)
# (a) / (iv) / (A) / (1) items start a paragraph only after a full stop or colon, not after ";".
_ITEM_SPLIT_RE = re.compile(
    r"(?:(?<=[.:])|(?<=[.:][\"')]))\s+(?=\((?:[a-z]{1,2}|[ivxl]{1,5}|[A-Z]|\d{1,2})\)\s+[A-Z\"])"
)
STARTS_PARA_RE = re.compile(
    r"(?:" + "|".join(_PARA_MARKERS) + r"|\((?:[a-z]{1,2}|[ivxl]{1,5}|[A-Z]|\d{1,2})\)\s|[A-Za-z]\.\s+[A-Z])"
)
_CAPS_LINE_RE = re.compile(r"^[^a-z]*[A-Z]{2}[^a-z]*$")


def split_at(rx: re.Pattern, text: str) -> list[str]:
    """re.split without the captured groups (the marker patterns use a back-reference group)."""
    out, pos = [], 0
    for m in rx.finditer(text):
        out.append(text[pos:m.start()])
        pos = m.end()
    out.append(text[pos:])
    return out


def split_flattened(line: str) -> list[str]:
    """Break one over-long line into paragraphs (see module docstring, step 4)."""
    pieces = re.split(r"( {2,})", line.strip())
    texts, gaps = pieces[0::2], [len(g) for g in pieces[1::2]]
    paragraphs: list[str] = []
    if len(gaps) >= 3 and sum(bool(_END_RE.search(t)) for t in texts[:-1]) < 0.5 * len(gaps):
        # The runs of spaces stand for the PDF's line breaks: re-wrap those physical lines.
        usual_gap = Counter(gaps).most_common(1)[0][0]
        widths = sorted(len(t) for t in texts)
        median = widths[len(widths) // 2]
        current = texts[0]
        for gap, prev, nxt in zip(gaps, texts, texts[1:]):
            ends = bool(_END_RE.search(prev))
            brk = (
                (ends and gap > usual_gap + 1)
                or (ends and STARTS_PARA_RE.match(nxt) is not None)
                or (ends and len(prev) < 0.5 * median)
                or (len(prev) <= 80 and _CAPS_LINE_RE.match(prev) is not None and gap > usual_gap)
            )
            if brk:
                paragraphs.append(current)
                current = nxt
            elif re.search(r"[A-Za-z]-$", current) and nxt[:1].isalpha():
                current = current + nxt  # a compound word wrapped at its hyphen
            else:
                current = f"{current} {nxt}"
        paragraphs.append(current)
    else:
        # Spaces are sloppy typing; wide runs after a sentence end are paragraph breaks.
        paragraphs = re.split(r"(?:(?<=[.:;!?])|(?<=[.:;!?][\"')])) {3,}(?=[A-Z\[(\"\d])", line.strip())
    out: list[str] = []
    for p in paragraphs:
        if len(p) > LONG_LINE:
            for q in split_at(SPLIT_RE, p):
                out.extend(_ITEM_SPLIT_RE.split(q))
        else:
            out.append(p)
    return out
