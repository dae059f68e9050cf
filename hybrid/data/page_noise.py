"""Steps 5 and 6 of hybrid.data.clean: page-level noise lines out, paragraphs cut by a page
break joined again.

Owns: what a page number, running header or footer, drafting note and table-of-contents block
look like (`drop_noise_lines`), and when a paragraph continues across a page break (`rewrap`).
Pure list-of-lines -> list-of-lines steps; knows nothing about characters, banners or sections.
"""

import re
from collections import Counter

from hybrid.data.flatten import STARTS_PARA_RE

__all__ = ["drop_noise_lines", "rewrap", "LEADING_NOISE_RE"]

# EDGAR's exhibit number and draft stamps in front of the title ("Exhibit 10.2 EXECUTION VERSION ...").
LEADING_NOISE_RE = re.compile(
    r"^\s*(?:(?:EXHIBITS?|Exhibits?|EX-)\s*\d{1,3}(?:\.[\dA-Za-z]{1,4})*[A-Za-z]?\b\.?(?:\s{2,}|\n|(?= [A-Z]))\s*)?"
    r"(?:(?:Confidential\s+)?(?:EXECUTION|Execution|FINAL|Final|CONFORMED|Conformed)\s+(?:VERSION|Version|COPY|Copy)\b\s*)?"
)

# 5. noise lines

_PAGE_NUMBER_RE = re.compile(  # "Page -2-" as LimeEnergy's distributor agreement numbers its pages
    r"^(?:[-\u2013(\[]?\s*\d{1,3}\s*[-\u2013)\]]?|[A-Z]{1,2}\s?-\s?\d{1,3}|[ivxlc]{1,6}"
    r"|(?:Page|page|PAGE)\s+(?:\d{1,4}|[-\u2013]\s*\d{1,4}\s*[-\u2013])"
    r"|\d{1,3}\s*\|\s*Page|Page\s*\|\s*\d{1,3}|\d{1,3}\s+of\s+\d{1,3}"
    r"|\d{1,3}\s+\d{1,3}|\d{1,3}\s*-\s*\d{1,3}\s*-?)$"
)
_DRAFTING_NOTE_RE = re.compile(r"^\[Drafting [Nn]ote:[^\]]*\]$")
_HEADER_RE = re.compile(
    r"^(?:(?:Confidential\s+)?(?:Execution|Final|Conformed)\s+(?:Version|Copy)|EXECUTION\s+(?:VERSION|COPY)"
    r"|(?:Confidential\s+)?EXECUTION\s+VERSION|Confidential|CONFIDENTIAL|Strictly Confidential"
    r"|[A-Z]{2,}[-_]?[A-Z]*\\\d+(?:\.\d+)?|\d{6,}(?:\.\d+)?(?:\s+v\d+)?|\[?Signature [Pp]age [Ff]ollows\]?"
    r"|\[Remainder of (?:this )?[Pp]age [Ii]ntentionally [Ll]eft [Bb]lank\.?\]?)$"
)
_LABEL_RE = re.compile(r"(?::$|^(?:and|AND|or|OR|By|BY|Name|Title|Date|Signature|\[\*\*\*\])\b)")
_TOC_RE = re.compile(
    r"^(?:[A-Z][\w ]{0,40}\s)?(?:TABLE OF CONTENTS|Table [Oo]f Contents|CONTENTS|INDEX)(?:\s+(?:Page|PAGE))?\.?$"
)
_TOC_ENTRY_RE = re.compile(r"(?:\s(?:\d{1,3}|[ivx]{1,4})|[a-z]\d{1,3}|\.{3,}\s*\d*)$")
_TITLE_LINE_RE = re.compile(r"^[^a-z]*\b(?:AGREEMENT|CONTRACT)\b[^a-z\d]*$")


def drop_noise_lines(lines: list[str]) -> list[str]:
    stripped = [ln.strip() for ln in lines]
    counts = Counter(s for s in stripped if 3 <= len(s) <= 100)
    out: list[str] = []
    i = 0
    while i < len(stripped):
        s = stripped[i]
        if _TOC_RE.match(s):
            j = i + 1
            while j < len(stripped):
                entry = stripped[j]
                if (_TITLE_LINE_RE.match(entry) or _TITLE_LINE_RE.match(LEADING_NOISE_RE.sub("", entry))
                        or (len(entry) >= 100 and not _TOC_ENTRY_RE.search(entry))):
                    break
                j += 1
            i = j
            continue
        if s and (
            _PAGE_NUMBER_RE.match(s)
            or _HEADER_RE.match(s)
            or _DRAFTING_NOTE_RE.match(s)
            or (
                counts[s] >= 3
                and re.search(r"[A-Za-z]{2}", s)
                and not _LABEL_RE.search(s)
                and not STARTS_PARA_RE.match(s)
            )
        ):
            out.append("")
        else:
            out.append(lines[i])
        i += 1
    return out


# 6. re-wrap across page breaks

# A paragraph that ends on one of these words continues after the page break.
_CONT_WORDS = frozenset(
    "to the of and or by for with in on at a an as from that such any this its their his her shall will be "
    "is are under upon which other each all no not per than if hereunder including".split()
)
_LOWER_START = re.compile(r"^[a-z]")
_LIST_START = re.compile(r"^(?:[a-z]{1,4}[.)]\s|and$|or$)")


def _last_word(text: str) -> str:
    """text's last word, in lower case when it is a word of capitals ("FOR" -> "for"; "For" stays, and so does a
    letter: "Exhibit A" ends on a name, not on the article "a")."""
    word = text.rsplit(" ", 1)[-1]
    return word.lower() if word.isupper() and len(word) > 1 else word


def rewrap(lines: list[str]) -> list[str]:
    """Join a paragraph with the next one when a page break cut it mid-sentence."""
    out: list[str] = []
    pending_blank = False
    for ln in lines:
        if not ln.strip():
            pending_blank = True
            continue
        if out and pending_blank:
            prev = out[-1]
            if (
                (_LOWER_START.match(ln) and not _LIST_START.match(ln) and re.search(r"[a-z,]$", prev))
                # a conspicuous clause cut the same way: "... IN NO EVENT WILL EITHER PARTY BE LIABLE FOR" | page
                # break | "CONSEQUENTIAL, INCIDENTAL ..." (its last word in capitals)
                or (len(prev) > 60 and _last_word(prev) in _CONT_WORDS and not STARTS_PARA_RE.match(ln))
            ):
                out[-1] = f"{prev} {ln}"
                pending_blank = False
                continue
            if re.search(r"[a-z]-$", prev) and _LOWER_START.match(ln):
                out[-1] = prev + ln
                pending_blank = False
                continue
        if pending_blank and out:
            out.append("")
        out.append(ln)
        pending_blank = False
    return out
