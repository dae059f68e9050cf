"""What a precedent calls the thing its deal is about -> the deal's own word for it.

Owns: `OFFERINGS` (for each word a template's deal names its subject by, the capitalized words precedents name
the same kind of subject by), `deal_offering` (the pairs a template's defined terms call for) and `apply_offering`
(a precedent's words rewritten as the deal's). Knows nothing of files or models.

Common Paper's Cloud Service Agreement calls the service "the Product"; a SaaS deal defines it as the "Cloud
Service". Left as it was, "Product" is a term of another deal: the precedent start masked it and the filler wrote
what it could ("submit prohibited data to the foregoing", "Customer's use of the term"). The deal's word is
written in instead: "submit Prohibited Data to the Cloud Service". Only the capitalized word standing as a name
of its own changes: "Work Product" and "Product Specifications" are other names, "a product" is no name.
"""

import re

__all__ = ["OFFERINGS", "deal_offering", "apply_offering"]

# the deal's word for its subject -> the words precedents call the same subject by (a word of the same number)
OFFERINGS = {
    "Cloud Service": (
        "Subscription Service",
        "Hosted Service",
        "Online Service",
        "SaaS Service",
        "Platform",
        "Service",
        "Product",
    ),
    "Software": ("Licensed Software", "Licensed Product", "Licensed Program", "Software Product", "Program", "Product"),
    "Application": ("Customer Application", "Hosted Application", "Software Application"),
    "Services": ("Consulting Services", "Professional Services"),
    "Products": ("Contract Products", "Supplied Products", "Goods"),
    "Equipment": ("Leased Equipment", "Rental Equipment"),
}
# words before a name that do not make it part of a longer one ("The Product", "Such Platform")
_DETERMINERS = frozenset("the this that each any such no all a an its every which other either neither whose".split())
_WORD_BEFORE = re.compile(r"([A-Za-z]+)\s+$")
_NAME_AFTER = re.compile(r"\s+[A-Z][a-z]")


def deal_offering(defined_terms=()) -> tuple[tuple[str, str], ...]:
    """((precedent word, the deal's word), ...), longest word first, for each of the template's defined terms that
    names its subject (OFFERINGS); a word the template defines itself is left alone."""
    terms = set(defined_terms)
    pairs = [(w, t) for t in defined_terms if t in OFFERINGS for w in OFFERINGS[t] if w not in terms]
    return tuple(sorted(pairs, key=lambda p: -len(p[0])))


def _stands_alone(text: str, start: int, end: int) -> bool:
    """Whether the word at text[start:end] is a name of its own: no capitalized word other than a determiner
    before it ("Work Product"), no title-case word after it ("Product Specifications")."""
    before = _WORD_BEFORE.search(text, max(0, start - 40), start)
    if before and before.group(1)[:1].isupper() and before.group(1).lower() not in _DETERMINERS:
        return False
    word = text[start:end]
    return not (word.upper() != word and _NAME_AFTER.match(text, end))


def apply_offering(text: str, pairs) -> str:
    """text with each subject word of `pairs` (deal_offering) that stands as a name of its own replaced by the
    deal's, as written ("Product's" -> "Cloud Service's") or in capitals ("THE PRODUCT" -> "THE CLOUD SERVICE")."""
    if not pairs:
        return text
    to = {w: d for w, d in pairs} | {w.upper(): d.upper() for w, d in pairs}
    alts = "|".join(map(re.escape, sorted(to, key=len, reverse=True)))
    pattern = re.compile(rf"(?<![\w-])(?:{alts})(?![\w-])")
    return pattern.sub(lambda m: to[m.group(0)] if _stands_alone(text, m.start(), m.end()) else m.group(0), text)
