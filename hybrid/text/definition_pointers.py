"""An index entry saying where a term is defined, made true of the draft: pointed at the section that defines it, or
out where no section does.

Owns `definition_pointers` and its whole-phase pass ("definition_pointers", hybrid.text.pipeline.PIPELINE["whole"]).
A contract base's Definitions often index terms its other articles define ('"GENERAL MANAGER" is defined in Section
17.', '"Gross Sales" has the meaning ascribed to it in Section 9.'). Once the draft keeps some articles, renumbers
them and blanks another deal's terms, the index points wrong: the seed-347 joint venture read '"[___]" is defined in
Section 10.', '"TECHNOLOGY" is defined in [___].' and sent "GENERAL MANAGER" to section 17 where section 10 defines
it; the franchise sent "Franchisor Marks" to "Paragraph A of the introduction", which the draft does not have (cold
readers: broken definitions). An entry goes where its term is a blank or no section of the draft defines it (quotes
it: '(the "General Manager")', '"Gross Sales" means'); it points at the defining section where that is another one.
"""

import re

from hybrid.data.facts import BLANK
from hybrid.text.passes import Pass, change, register
from hybrid.text.revise_passes import whole_example

__all__ = ["definition_pointers"]

_Q, _EQ = "[\"“]", "[\"”]"
# '"TERM" is defined in Section 10.', '"TERM" has the meaning ascribed to it in Paragraph A of the introduction.'
_ENTRY = re.compile(
    rf"^{_Q}(?P<term>[^\"“”\n]{{1,80}}){_EQ}\s+(?P<verb>(?:is|are|shall be)\s+defined|(?:has|have|shall have)\s+the\s+"
    rf"meanings?\s+(?:ascribed|given|assigned|set\s+forth)(?:\s+to\s+(?:it|them|such\s+terms?))?)\s+(?:in|on|under)\s+"
    rf"(?P<where>[^\n]{{1,120}}?)\.\s*$", re.M)
_SECTION = re.compile(r"^Section\s+(\d+)$")


def _defining(term: str, bodies: list[str], numbers: list[str], skip: int) -> list[str]:
    """The numbers of the sections (other than `skip`) whose body quotes the term: where the draft defines it."""
    quoted = re.compile(rf"{_Q}{re.escape(term)}{_EQ}", re.I)
    return [n for i, (b, n) in enumerate(zip(bodies, numbers)) if i != skip and quoted.search(b)]


def definition_pointers(body: str, bodies: list[str], numbers: list[str], index: int) -> tuple[str, list[tuple]]:
    """(body with each definition-index entry true of the draft, [(entry, new entry or None)]). bodies, numbers:
    every section's body and number, this one (`index`) among them."""
    changed: list[tuple] = []

    def entry(m: re.Match) -> str:
        term = m.group("term").strip()
        found = [] if BLANK in term else _defining(term, bodies, numbers, index)
        if not found:
            changed.append((m.group(0), None))
            return ""
        at = _SECTION.match(m.group("where").strip())
        if at and at.group(1) in found:
            return m.group(0)
        new = f"{m.group(0)[: m.start('where') - m.start()]}Section {found[0]}."
        changed.append((m.group(0), new))
        return new

    out = _ENTRY.sub(entry, body)
    if not changed:
        return body, []
    return re.sub(r"\n{3,}", "\n\n", out).strip("\n"), changed


def _pass(body, ctx):
    numbers = [str(s.get("number") or i + 1) for i, s in enumerate(ctx.sections)]
    body, changed = definition_pointers(body, ctx.bodies, numbers, ctx.index)
    return body, [change("definition_pointer", old, new, "dropped" if new is None else "renumbered",
                         "points to a definition the draft does not hold" if new is None else "the section that "
                         "defines the term") for old, new in changed]


_GENERAL = 'Either party may appoint a manager (the "General Manager") on notice.'
register(Pass(
    "definition_pointers", "whole", "a definition-index entry pointed at the section defining its term, or out",
    _pass, (
        ('"GENERAL MANAGER" is defined in Section 7.\n\n"OFFEREE" is defined in Section 2.',
         '"GENERAL MANAGER" is defined in Section 2.', {"general": _GENERAL, "at": "definitions"}),
        (f'"{BLANK}" is defined in Section 2.\n\n"GENERAL MANAGER" is defined in Section 2.',
         '"GENERAL MANAGER" is defined in Section 2.', {"general": _GENERAL, "at": "definitions"}),
        ('"Franchisor Marks" has the meaning ascribed to it in Paragraph A of the introduction.\n\n"Affiliate" means '
         'a controlled entity.', '"Affiliate" means a controlled entity.', {"general": _GENERAL, "at": "definitions"}),
        ('"GENERAL MANAGER" is defined in Section 2.', '"GENERAL MANAGER" is defined in Section 2.',
         {"general": _GENERAL, "at": "definitions"}),  # already true
    ), whole_example))
