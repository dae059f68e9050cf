"""Doubled words of a draft's section bodies: `doubled_words` finds an immediate repeat of a word ("with
with", "Product Products"), `remove_doubled_words` deletes it (hybrid.draft.consistency runs it over every section).

Pure string functions, no model; text without a repeat comes back unchanged, byte for byte.
"""

import re

__all__ = ["doubled_words", "remove_doubled_words"]

# a word of letters repeated right after itself, across spaces or one line break (not a blank line,
# not punctuation); numbers and [MARKER] tokens are not words here
_DOUBLED = re.compile(r"(?<![\w'’\[-])([A-Za-z]+)((?:(?:[ \t]+|[ \t]*\n[ \t]*)\1(?![\w\]-]))+)", re.IGNORECASE)


# a noun followed by its own plural, where a rewritten hole met the kept word ("the Product Products")
_DOUBLED_PLURAL = re.compile(r"(?<![\w'’\[-])([A-Za-z]{3,})([ \t]+\1(?:s|es))(?![\w\]'’-])", re.IGNORECASE)


# a possessive written twice where a deal's name that ends in one met the precedent's ("Sponsor's's")
_DOUBLED_POSSESSIVE = re.compile(r"(?<=\w)(['’][sS])((?:['’][sS])+)(?!\w)")


def doubled_words(text: str) -> list[tuple[int, int, str]]:
    """(start, end, word) of every immediate repeat of a word (case-insensitive: "Service service") or of a
    possessive ("Sponsor's's"): text[start:end] is the repeat with the space before it, so deleting it keeps
    the first occurrence's casing; a triple repeat is one span. A noun before its own plural ("Product
    Products") is one too: there text[start:end] is the singular, so deleting it keeps the plural. "that, that"
    (punctuation between) is no repeat."""
    found = [(m.start(2), m.end(2), m.group(1)) for m in _DOUBLED.finditer(text)]
    found += [(m.start(2), m.end(2), m.group(1)) for m in _DOUBLED_POSSESSIVE.finditer(text)]
    found += [
        (m.start(1), m.end(2) - len(m.group(2).lstrip()), m.group(1)) for m in _DOUBLED_PLURAL.finditer(text)
    ]
    kept: list[tuple[int, int, str]] = []
    for span in sorted(found):  # spans of two patterns over one run of words do not overlap
        if not kept or span[0] >= kept[-1][1]:
            kept.append(span)
    return kept


def remove_doubled_words(text: str) -> tuple[str, list[tuple[int, int, str]]]:
    """(text with every repeat of `doubled_words` deleted, the spans deleted, in offsets of the input)."""
    found = doubled_words(text)
    out, at = [], 0
    for start, end, _ in found:
        out.append(text[at:start])
        at = end
    out.append(text[at:])
    return ("".join(out) if found else text), found
