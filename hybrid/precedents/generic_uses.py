"""Boilerplate terms a draft writes in lower case where its Definitions section can define them.

Owns: `CAPITALIZABLE` (the terms), `lower_uses` (how often texts write each in lower case: "any third party",
"its affiliates") and `capitalize_uses` (those uses written as the defined term: "any Third Party").

Why: a precedent says "its affiliates" where its own contract never defined the word, and another says "Affiliate"
where its contract did. A draft of both reads as careless, and its Definitions section, pruned to the terms the draft
uses with a capital, is left an index of the preamble's terms. A lawyer defines the boilerplate term once and writes
it with a capital wherever it stands. Only terms whose lower-case words mean nothing else in a contract are here:
not "person" ("a natural person"), "law" ("governing law") or "control" ("beyond its control").
Pure string functions; hybrid.precedents.definitions.used_terms counts these uses, and hybrid.draft.consistency
capitalizes them where the draft's Definitions keep the term.
"""

import re

__all__ = ["CAPITALIZABLE", "lower_uses", "capitalize_uses"]

CAPITALIZABLE = ("Affiliate", "Third Party", "Business Day", "Intellectual Property Rights", "Governmental Authority")


def _plural(term: str) -> str:
    head, _, last = term.rpartition(" ")
    last = last[:-1] + "ies" if last.endswith("y") and last[-2:-1] not in "aeiou" else last + "s"
    return f"{head} {last}".strip()


def _pattern(term: str) -> re.Pattern:
    forms = {term.lower(), _plural(term).lower()} if not term.endswith("s") else {term.lower()}
    alternatives = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
    # not inside a hyphenated word ("third-party", "non-affiliate") nor a quoted term
    return re.compile(rf"(?<![\w\"“'-])({alternatives})(?![\w\"”-])")


_PATTERNS = {t: _pattern(t) for t in CAPITALIZABLE}


def lower_uses(texts) -> dict[str, int]:
    """{term: uses} of the CAPITALIZABLE terms texts write in lower case (singular or plural)."""
    out: dict[str, int] = {}
    for term, pattern in _PATTERNS.items():
        n = sum(len(pattern.findall(t)) for t in texts)
        if n:
            out[term] = n
    return out


def capitalize_uses(text: str, terms) -> tuple[str, list[str]]:
    """(text with the lower-case uses of `terms` (CAPITALIZABLE ones; others are ignored) written with capitals,
    "third parties" -> "Third Parties", the uses changed as written)."""
    changed: list[str] = []

    def up(m: re.Match) -> str:
        changed.append(m.group(1))
        return " ".join(w[:1].upper() + w[1:] for w in m.group(1).split(" "))

    for term in terms:
        if term in _PATTERNS:
            text = _PATTERNS[term].sub(up, text)
    return text, changed
