"""A list of the source's section numbers after a colon, each with its heading and no keyword of its own: "The
following Sections will survive ...: 5.4 (Usage Data), 8.4 (Disclaimers), 12.1 (Payment) (for amounts then due)
and 23 (Definitions)". hybrid.draft.references finds a reference by its keyword ("Section 8"), which such a list
names once, before the colon; `fix_listed` renumbers its items one by one to the draft's sections (by heading
first, as the caller's resolver does), keeps each item's heading and its lower-case qualifier, and drops the items
the draft lacks. Pure string functions; the caller resolves numbers.
"""

import re

__all__ = ["fix_listed"]

# an item's qualifier: "(for amounts then due)", "for the time period specified"
_EXTRA = r"(?:[ \t]+\([a-z][^()\n]{0,40}\)|[ \t]+(?:for|to|as|with)\b[a-z ]{0,40}?(?=,|[ \t]+and\b))?"
_KW = r"(?:(?i:sections?|articles?)[ \t]+)?"  # "Section 2 (Non-Solicitation) ..., 3 (Intellectual Property)"
_NUM = r"\d{1,3}(?:\.\d{1,3})*(?:\([a-z0-9]{1,4}\))*"
_TITLE_TEXT = r"[A-Z][^()\n]{0,60}"  # a heading written after its number, in brackets
_TITLE = rf"\({_TITLE_TEXT}\)"
_ITEM = rf"{_KW}{_NUM}[ \t]+{_TITLE}{_EXTRA}"
_JOIN = r"(?:,[ \t]*(?:and[ \t]+)?|[ \t]+and[ \t]+)"
LISTED = re.compile(
    rf"\b(?i:sections|articles)\b[^.:;\n]{{0,100}}:[ \t]*\n*[ \t]*(?P<items>{_ITEM}(?:{_JOIN}{_ITEM})+)"
)
_PARTS = re.compile(rf"{_KW}(?P<num>{_NUM})[ \t]+\((?P<title>{_TITLE_TEXT})\)(?P<extra>{_EXTRA})")


def fix_listed(text: str, resolve_one) -> tuple[str, list[dict]]:
    """(text with each such list renumbered, the changes): resolve_one(number, heading) -> the draft's section
    number or None. A list none of whose items the draft holds is left as it is (and reported "left")."""
    changes, pieces, at = [], [], 0
    for m in LISTED.finditer(text):
        old = m.group("items")
        kept = []
        for p in _PARTS.finditer(old):
            d = resolve_one(p.group("num"), p.group("title"))
            if d is not None:
                kept.append(f"{d} ({p.group('title')}){p.group('extra')}")
        if not kept:
            changes.append({"old": old, "new": old, "action": "left", "rule": "listed", "numbers": []})
            continue
        new = kept[0] if len(kept) == 1 else ", ".join(kept[:-1]) + " and " + kept[-1]
        if new == old:
            continue
        pieces += [text[at : m.start("items")], new]
        at = m.end("items")
        changes.append({"old": old, "new": new, "action": "renumbered", "rule": "listed", "numbers": []})
    pieces.append(text[at:])
    return "".join(pieces), changes

