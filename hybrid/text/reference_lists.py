"""A list of the source's section numbers after a colon, each with its heading and no keyword of its own: "The
following Sections will survive ...: 5.4 (Usage Data), 8.4 (Disclaimers), 12.1 (Payment) (for amounts then due)
and 23 (Definitions)". hybrid.text.references finds a reference by its keyword ("Section 8"), which such a list
names once, before the colon; `fix_listed` renumbers its items one by one to the draft's sections (by heading
first, as the caller's resolver does), keeps each item's heading and its lower-case qualifier, and drops the items
the draft lacks. Pure string functions; the caller resolves numbers.
"""

import re

__all__ = ["fix_listed"]

# an item's qualifier: "(for amounts then due)", "for the time period specified", "for fees accrued or payable before
# expiration or termination"
_EXTRA = r"(?:[ \t]+\([a-z][^()\n]{0,40}\)|[ \t]+(?:for|to|as|with)\b[a-z ]{0,70}?(?=,|[ \t]+and\b))?"
_KW = r"(?:(?i:sections?|articles?)[ \t]+)?"  # "Section 2 (Non-Solicitation) ..., 3 (Intellectual Property)"
_NUM = r"\d{1,3}(?:\.\d{1,3})*(?:\([a-z0-9]{1,4}\))*"
_TITLE_TEXT = r"[A-Z][^()\n]{0,60}"  # a heading written after its number, in brackets
_TITLE = rf"\({_TITLE_TEXT}\)"
_ITEM = rf"{_KW}{_NUM}[ \t]+{_TITLE}{_EXTRA}"
_JOIN = r"(?:,[ \t]*(?:and[ \t]+)?|[ \t]+and[ \t]+)"
LISTED = re.compile(
    rf"\b(?i:sections|articles)\b[^.:;\n]{{0,100}}:[ \t]*\n*[ \t]*(?P<items>{_ITEM}(?:{_JOIN}{_ITEM})+)"
)
_PARTS = re.compile(
    rf"(?P<kw>{_KW})(?P<num>{_NUM})[ \t]+\((?P<title>{_TITLE_TEXT})\)(?P<extra>{_EXTRA})(?P<join>{_JOIN})?"
)


def fix_listed(text: str, resolve_one) -> tuple[str, list[dict], list[tuple[int, int]]]:
    """(text with each such list renumbered, the changes, the spans of the lists renumbered in the new text, which
    the caller must not renumber again): resolve_one(number, heading) -> the draft's section number or None. Each
    item keeps its own keyword ("Section 2.1 (Deliverables)" -> "Section 3 (Deliverables)"), heading and qualifier;
    the list keeps its own joins where it keeps every item, else its items are joined by commas and its own last
    join. A list none of whose items the draft holds is left as it is (and reported "left")."""
    changes, pieces, spans, at, size = [], [], [], 0, 0
    for m in LISTED.finditer(text):
        old = m.group("items")
        items = list(_PARTS.finditer(old))
        kept = []
        for p in items:
            d = resolve_one(p.group("num"), p.group("title"))
            if d is not None:
                kept.append((f"{p.group('kw')}{d} ({p.group('title')}){p.group('extra')}", p.group("join") or ""))
        if not kept:
            changes.append({"old": old, "new": old, "action": "left", "rule": "listed", "numbers": []})
            continue
        if len(kept) == len(items):
            new = "".join(item + join for item, join in kept)
        else:
            last = items[-2].group("join") if len(items) > 1 else " and "
            last = last if re.search(r"\band\b", last) else " and "
            new = kept[0][0] if len(kept) == 1 else ", ".join(i for i, _ in kept[:-1]) + last + kept[-1][0]
        if new == old:
            continue
        pieces += [text[at : m.start("items")], new]
        size += m.start("items") - at
        spans.append((size, size + len(new)))
        size += len(new)
        at = m.end("items")
        changes.append({"old": old, "new": new, "action": "renumbered", "rule": "listed", "numbers": []})
    pieces.append(text[at:])
    return "".join(pieces), changes, spans
