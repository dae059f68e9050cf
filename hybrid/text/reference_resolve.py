"""Which draft section one source reference means: by the very heading it names, by the exact source section, by
its heading's clause type, by its number (in that order of trust).

Owns `Exact` (a number resolver's answer known from the reference's own source document), `Headed` (a title
resolver's answer for a title the draft has a section of) and `resolve_one`. Pure: the resolvers come from the
revise step (hybrid.draft.revise)."""

import re

from hybrid.common.sentences import HEADING_BEFORE_TEXT

__all__ = ["Exact", "Headed", "resolve_one", "part_by_order"]


class Exact(str):
    """A resolver's answer known from the reference's own source document: the draft section drafted from the very
    source section the number names. It is asked before the heading, which for a part ("Section 8.4 (Exceptions)" of
    a Limitation of Liability) names no clause type of its own (read as one, it had pointed at Confidentiality)."""


class Headed(str):
    """A title resolver's answer for a title the draft has a section of that very heading: that section, whatever
    number the source gave it."""


def resolve_one(number: str, title: str, resolve, resolve_title) -> "str | None":
    """The draft section of one source number: the section of the very heading the reference names (Headed: the
    CSA with SLA's "Section 14 (Definitions)" where its parse numbers Definitions 16), else the exact one where the
    resolver knows it (Exact), else by its heading's clause type (resolve_title: a section number, "" for a heading
    that names a clause the draft lacks, None for one it cannot place), else by the number."""
    by_title = resolve_title(title) if resolve_title and title else None
    if isinstance(by_title, Headed):
        return by_title
    exact = resolve(number) if resolve else None
    if isinstance(exact, Exact):
        return exact
    if by_title is not None:
        return by_title or None
    return exact


_PART = re.compile(rf"^\s*(?P<h>{HEADING_BEFORE_TEXT})(?P<rest>.*)$")
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


def part_by_order(number: str, text: str, section: str) -> str:
    """A reference to a part of its own section ("7.1(a)" in section 7, drafted as `section`) by the part's run-in
    heading, where the section is made of headed parts (its first line opens with one) and holds as many as the
    number's second level counts: "Section 8 (Liability Caps)"; for a lettered item, 'clause (c) under "From
    Consultant" in Section 7' where the part letters its items in one paragraph, 'the first paragraph under "Liability
    Caps" in Section 8' where it has that many paragraphs ("the second item under ..." after a lead-in's colon); ""
    otherwise. A section that opens with a line of its own (a frame) is not counted: the frame may stand for its first
    part. Written "this Section", the form's "The liability cap in Section 7.1(a) does not apply to any Increased
    Claims" had undone the increased cap (seed 263: three of six readers)."""
    m = re.fullmatch(r"\d+\.(\d+)(?:\(([a-f])\))?", number)
    lines = [line for line in text.splitlines() if line.strip()]
    if not m or not lines or not _PART.match(lines[0]):
        return ""
    parts: list[list[str]] = []
    for line in lines:
        head = _PART.match(line)
        if head:
            parts.append([head["h"].rstrip(".").strip()] + ([head["rest"]] if head["rest"].strip() else []))
        elif parts:
            parts[-1].append(line)
    k = int(m[1])
    if not 1 <= k <= len(parts):
        return ""
    named = f"Section {section} ({parts[k - 1][0]})"
    item = ord(m[2]) - ord("a") if m[2] else None
    if item is None:
        return named
    under = f'under "{parts[k - 1][0]}" in Section {section}'  # "the first paragraph of Section 6 (Termination)" had
    # read as the section's own first paragraph (seed-283 reader)
    items = parts[k - 1][1:]
    letters = [chr(ord("a") + i) for i in range(item + 1)]
    joined = " ".join(items)  # "(a) it will perform ...; (b) ...; (c) the Deliverables ...", not "Section 5.2(a)"
    if all(re.search(rf"(?<![\w.)])\({x}\)\s", joined) for x in letters):
        return f"clause ({letters[-1]}) {under}"
    kind = "paragraph"
    if items[1:] and items[0].rstrip().endswith(":"):  # "Upon any expiration or termination:" then its items
        items, kind = items[1:], "item"
    return f"the {_ORDINALS[item]} {kind} {under}" if item < len(items) and items[1:] else ""
