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

__all__ = ["own_definitions", "redefine", "own_positions", "default_position", "DEFAULT_SOURCE"]


def redefine(body: str, term: str, meaning: str) -> str:
    """body with the rest of each line that defines `term` ('"Cloud Service" means the product described in the Order
    Form.') reading `meaning` instead, closed by a full stop; unchanged where the body does not define it so."""
    pattern = re.compile(rf'(^[ \t]*(?:\([a-z0-9]{{1,3}}\)[ \t]+)?["“]{re.escape(term)}["”][ \t]+'
                         rf'(?:means|shall mean)[ \t]+)[^\n]*', re.M)
    return pattern.sub(lambda m: m.group(1) + meaning.rstrip(". ") + ".", body)


def own_definitions(sections: list, template, values: dict) -> list:
    """The base's sections (Precedents) with each term the template's `definitions` gives a meaning of redefined so
    (its {field} placeholders substituted from `values`)."""
    meanings = {term: substitute(text, values) for term, text in (getattr(template, "definitions", None) or {}).items()}
    if not meanings:
        return sections
    out = []
    for p in sections:
        body = p.body
        for term, meaning in meanings.items():
            body = redefine(body, term, meaning)
        out.append(p if body == p.body else replace(p, body=body))
    return out


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

