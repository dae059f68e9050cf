"""The deal's own meaning of a term its base document defines: a template's `definitions` ("Cloud Service": "the
Host's hosting and operation of the Application ...") written after the base's "means" in place of the base's own
meaning ("the product described in the Order Form").

Why: a hosting deal drafted from a cloud service form kept the form's "Cloud Service" (the vendor's product) and its
"Customer Content" (what the customer uploads), so the Customer's own platform read as the Host's product ("Host
retains all right, title, and interest in and to the Product", seed-263 and 269 readers). A lawyer adapting the form
rewrites those two definitions; the template says how. Pure string work on the base's section bodies.
"""

import re
from dataclasses import replace

from hybrid.templates.rendered import substitute

__all__ = ["own_definitions", "same_unit", "redefine", "preamble_meanings", "own_positions", "default_position",
           "DEFAULT_SOURCE"]


def redefine(body: str, term: str, meaning: str) -> str:
    """body with the rest of each line that defines `term` in any case ('"Cloud Service" means the product described
    in the Order Form.', '"EFFECTIVE DATE" means ...'), or of the sentence that defines it with a colon
    ("Territory: means the territory set out in Schedule 2."), reading `meaning` instead, closed by a full stop;
    unchanged where the body does not define it so."""
    pattern = re.compile(rf'(^[ \t]*(?:\([a-z0-9]{{1,3}}\)[ \t]+)?["“]{re.escape(term)}["”][ \t]+'
                         rf'(?:means|shall mean)[ \t]+)[^\n]*', re.M | re.I)
    body = pattern.sub(lambda m: m.group(1) + meaning.rstrip(". ") + ".", body)
    # the English and Australian style, a term and a colon: "Territory: means the territory set out in Schedule 2."
    colon = re.compile(rf'((?:^[ \t]*|(?<=\. )){re.escape(term)}:[ \t]+(?:means[ \t]+)?)[^\n]*?(?:\.(?=[ \t]+[A-Z])|$)',
                       re.M)
    return colon.sub(lambda m: m.group(1) + meaning.rstrip(". ") + ".", body)


# a term the template's preamble defines as a field's value: '{effective_date} (the "Effective Date")'
_PREAMBLE_TERM = re.compile(r'\{([a-z_][a-z0-9_]*)\}\s*\((?:the |each an? )?["“]([^"”]+)["”]\)')


def preamble_meanings(template, values: dict) -> dict:
    """{term: the deal's value} of each term the template's preamble defines as a field other than a party's
    ("Effective Date": "2025-10-01", "Products": "the Vireo line of ..."). A filed contract's own definition of such
    a term is its deal's: Igene's joint venture defined "EFFECTIVE DATE" as "[___] a.m. Eastern standard time on
    [___]" against the deal's 2025-10-01 (a cold reader at seed 619)."""
    return {term: str(values[field]) for field, term in _PREAMBLE_TERM.findall(template.preamble)
            if not field.startswith("party_") and str(values.get(field, "")).strip()}


def own_definitions(sections: list, template, values: dict, contract: bool = False) -> list:
    """The base's sections (Precedents) with each term the template's `definitions` gives a meaning of redefined so
    (its {field} placeholders substituted from `values`); contract: the base is a filed contract, whose definitions
    of the terms the template's preamble defines (preamble_meanings) read the deal's values too. A standard form's
    definitions are written for any deal and stay."""
    own = getattr(template, "definitions", None) or {}
    meanings = {**(preamble_meanings(template, values) if contract else {}),
                **{term: substitute(text, values) for term, text in own.items()}}
    if not meanings:
        return sections
    units = [term for term in preamble_meanings(template, values) if _UNIT_TERM.fullmatch(term)] if contract else []
    out = []
    for p in sections:
        body = p.body
        for term in units:
            body = same_unit(body, term)
        for term, meaning in meanings.items():
            body = redefine(body, term, meaning)
        out.append(p if body == p.body else replace(p, body=body))
    return out


# what a franchise or a licence is granted for, named by its premises: "Franchised Restaurant", "Licensed Store"
_UNITS = r"Restaurant|Store|Center|Centre|Unit|Outlet|Shop|Cafe|Hotel|Location|Business|Facility|Studio|Salon|Clinic"
_UNIT_TERM = re.compile(rf"([A-Z][a-z]+) (?:{_UNITS})")


def same_unit(body: str, term: str) -> str:
    """body with the base's name for the unit the deal's preamble term names (`term`, a word and a premises noun:
    "Franchised Business") written as the deal's: "the Franchised Restaurant" -> "the Franchised Business". A
    restaurant franchisor's agreement for a bakery cafe had read "operate the [___]" some 150 times, its own
    capitalized term being another deal's (session 38). Only a term of the same first word and a premises noun
    ("Franchised Marks" stays)."""
    lead = term.split()[0]
    plural = term + ("es" if term.endswith("s") else "s")

    def name(m: re.Match) -> str:
        return plural if m.group(1) else term

    def upper(m: re.Match) -> str:  # a clause in capitals writes the term so: "THE FRANCHISED RESTAURANT IS LOCATED"
        return (plural if m.group(1) else term).upper()
    body = re.sub(rf"\b{lead} (?:{_UNITS})(e?s)?\b", name, body)
    return re.sub(rf"\b{lead.upper()} (?:{_UNITS.upper()})(E?S)?\b", upper, body)


def own_positions(template, values: dict, key) -> dict:
    """{key(Variable): (the template's value for it, "template <id>")} of the template's `positions`: what its Key
    Terms state for a cover-page Variable the deal leaves open, ahead of other forms' proposals (a software licence's
    "Permitted Uses", which no corpus cover page proposes, had read "[___]" under the form's "none" default: a licence
    for no use, seed-283 and 287 readers). `key` is how the caller names a Variable (hybrid.skeleton.key_terms'
    term_words)."""
    return {key(name): (substitute(text, values), f"template {template.id}")
            for name, text in (getattr(template, "positions", None) or {}).items()}


DEFAULT_SOURCE = "hybrid default: third-party intellectual property claims"


def default_position(name: str, template) -> "tuple[str, str] | None":
    """(value, source) for a form's "<Role> Covered Claims" that neither the template's positions nor any corpus
    cover page states: the claims each side's indemnity covers, third parties' intellectual property claims against
    what that side supplies (the party the template's `roles` say delivers: what it delivers; the other: the
    materials it provides). A blank there reads as none under the form's own rule, so no IP indemnity stood under an
    indemnity clause exempt from the cap (a user's contractor template, 2026-12-07). None for any other Variable or
    a template without roles; drafts.json lists the value among the proposed terms to confirm."""
    roles = getattr(template, "roles", None) or {}
    m = re.fullmatch(r"(.+?) Covered Claims", name.strip())
    if not m or not roles:
        return None
    role = m[1]
    what, verbs = ((f"what {role} delivers under this Agreement", "infringes or misappropriates")
                   if role == roles.get("delivers") else
                   (f"materials {role} provides under this Agreement", "infringe or misappropriate"))
    return (f"Any claim by a third party that {what}, used as this Agreement permits, {verbs} that third party's "
            f"intellectual property rights", DEFAULT_SOURCE)

