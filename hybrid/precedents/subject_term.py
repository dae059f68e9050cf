"""The base's name for what the deal is about, replaced by the template's: "API" -> "Products".

Owns: `subject_term` (the template's subject term and the verbs that introduce it, read from its preamble: "for the
manufacture and supply of {products} (the "Products")" -> ("Products", ("manufactur", "suppl"))), `base_subject`
(the term a base document writes most often after those verbs: an active pharmaceutical ingredient supply
agreement's "API") and `on_subject` (one section's text with the base's term written as the template's, and the base's
definition of it out). A whole contract of another deal, taken as a draft's base, names its own goods throughout
("Supplier shall manufacture and supply API to Buyer"); blanking every use ("[___]") broke the sentences a cold reading
quoted, keeping it put a drug ingredient in a plastics deal. Pure string functions; a text that needs no change comes
back unchanged.
"""

import re
from collections import Counter

__all__ = ["MIN_USES", "subject_term", "base_subject", "on_subject"]

MIN_USES = 3  # uses after the template's verbs that make a term the base's subject (one or two read as a mention)
_INTRO = re.compile(r"(\w+)(?:\s+and\s+(\w+))?\s+of\s+(?:the\s+)?\{\w+\}(?:\s+\w+)?\s+\(the\s+\"([A-Z][\w ]+)\"\)")
_NOUN_STEMS = {"distributor": "distribut", "licence": "licens", "license": "licens"}
_TERM = r"([A-Z][A-Za-z0-9-]*(?:\s+[A-Z][A-Za-z0-9-]*){0,2})"
_FILLER = r"(?:(?:the|any|all|such|of|and|to|its)\s+){0,3}"
_NOT_VERBS = frozenset({"as", "date", "into"})  # "as of {effective_date}"
_NOT_SUBJECTS = frozenset({"Effective Date", "Agreement", "Territory"})
_PLURAL_VERBS = {"is": "are", "was": "were", "has": "have", "does": "do"}


def subject_term(preamble: str) -> "tuple[str, tuple[str, ...]] | None":
    """(the template's subject term, the word stems that introduce it) from its preamble, or None where the preamble
    names the subject after no verb of supply, distribution or licence ("who agree to form {venture_name}")."""
    m = next((m for m in _INTRO.finditer(preamble) if m.group(1).lower() not in _NOT_VERBS
              and m.group(3) not in _NOT_SUBJECTS), None)
    if not m:
        return None
    words = [w.lower() for w in (m.group(1), m.group(2)) if w]
    stems = tuple(_NOUN_STEMS.get(w, w[: max(5, len(w) - 3)]) for w in words)
    return m.group(3), stems


def base_subject(texts, term: str, stems, roles=()) -> "str | None":
    """The term the base writes most often (at least MIN_USES times) right after one of `stems` ("supply API to
    Buyer"), other than the template's own `term` and its parties' role words; None where there is none."""
    verbs = "|".join(re.escape(s) for s in stems)
    pattern = re.compile(rf"\b(?:{verbs})\w*\s+{_FILLER}{_TERM}")
    skip = {term.lower(), *(r.lower() for r in roles)}
    counts = Counter()
    for text in texts:
        for m in pattern.finditer(text):
            words = m.group(1).split()
            first = words[0]  # "API DDP Menlo" counts as "API": the first word names the goods
            if first.lower() not in skip and not any(w.lower() in skip for w in words[:1]):
                counts[first] += 1
    if not counts:
        return None
    found, n = counts.most_common(1)[0]
    same = any(w.startswith(found.lower().rstrip("s")) for w in term.lower().split())  # "Product", "Franchise"
    return found if n >= MIN_USES and not same else None


def on_subject(text: str, base_term: str, term: str) -> str:
    """text with the base's subject term written as the template's ("API" -> "Products"; "the API is" -> "the Products
    are" for a plural term), and the base's own definition of it out ('"API" shall mean the active pharmaceutical
    ingredient ...' would define the deal's goods as another deal's)."""
    q = re.escape(base_term)
    definition = re.compile(
        rf"[^.\n]*[\"“]{q}[\"”]\s+(?:shall\s+mean|means|shall\s+have\s+the\s+meaning)[^\n]*?\.(?=\s|$)\s*"
    )
    out = definition.sub("", text)
    out = re.sub(rf"(?<![\w\"“-]){q}(?![\w\"”-])", term, out)
    if term.endswith("s"):  # "the Products is" -> "the Products are"
        t = re.escape(term)
        out = re.sub(rf"\b({t})\s+(is|was|has|does)\b", lambda m: f"{m.group(1)} {_PLURAL_VERBS[m.group(2)]}", out)
    return out
