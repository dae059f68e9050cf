"""The deal's facts as a template states them: what a precedent's markers and role words become.

Owns: `deal_from_template` (parties by their defined role, date, law, the first amount, percent and term
fields whose values read as one, the deal's role words and its word for its subject) and `clause_deal` (the
facts one clause type adapts to). Knows nothing of models or of the library; hybrid.skeleton.from_precedents
re-exports both.
"""

import re
from dataclasses import replace

from hybrid.data.facts import DealFacts
from hybrid.data.offering import deal_offering
from hybrid.data.roles import deal_roles, family_of

__all__ = ["deal_from_template", "clause_deal"]

_AMOUNT_FIELD = re.compile(r"fee|price|pricing|amount|contribution|payment")
_TERM_FIELD = re.compile(r"term(?!inat)|duration|period")


def _role(preamble: str, key: str) -> str | None:
    """The defined name a template preamble gives a party: '{party_a} (the "Supplier")' -> 'Supplier'."""
    m = re.search(r"\{" + key + r"\}[^({}]{0,80}\(\s*(?:the\s+)?\"([^\"]{1,40})\"\s*\)", preamble)
    return m.group(1) if m else None


_DURATION_VALUE = re.compile(
    r"\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|thirty|sixty|ninety)\b"
    r"(?:\s*\(\d+\))?[\s-]+(?:calendar\s+|business\s+)?(?:day|week|month|quarter|year)s?\b",
    re.I,
)
_AMOUNT_VALUE = re.compile(r"[$€£]|\b(?:USD|EUR|GBP)\b|\d[\d,.]*\s*(?:dollars|euros)\b", re.I)
_PERCENT_VALUE = re.compile(r"\d\s*(?:%|percent\b|per cent\b)", re.I)


def deal_from_template(template, values: dict) -> DealFacts:
    """The deal's facts: parties by their defined role (else their names), date, law, and the first field
    named like an amount / percent / term whose value reads as one ("delivery_terms" is not a term:
    "FCA Supplier's facility" would stand in for every period of a precedent)."""

    def first(pattern, value=None) -> str | None:
        for k, v in values.items():
            if pattern.search(k) and isinstance(v, str) and v.strip() and (value is None or value.search(v)):
                return v
        return None

    role_a, role_b = _role(template.preamble, "party_a"), _role(template.preamble, "party_b")
    return DealFacts(
        party_a=role_a or values.get("party_a"),
        party_b=role_b or values.get("party_b"),
        date=values.get("effective_date"),
        amount=first(_AMOUNT_FIELD, _AMOUNT_VALUE),
        percent=first(re.compile(r"percent"), _PERCENT_VALUE),
        duration=first(_TERM_FIELD, _DURATION_VALUE),
        law=values.get("governing_law"),
        roles=deal_roles(role_a, role_b, getattr(template, "defined_terms", ())),
        offering=deal_offering(getattr(template, "defined_terms", ())),
        sides=(family_of(role_a), family_of(role_b)) if family_of(role_a) or family_of(role_b) else (),
    )


def clause_deal(deal: DealFacts, clause: str) -> DealFacts:
    """The facts a clause of type `clause` adapts to: the deal's, less its duration and its amount. A precedent's
    periods are cure, notice and payment periods as often as its term ("cure a breach within 2 years" when the term
    was put there), and its sums are instalments, caps and penalties as often as its fee (a sponsorship fee "payable
    in an initial installment ... in the amount of USD 250,000 per season and ten installments of USD 250,000 per
    season" when the fee was put in every one), so its [DURATION] and [AMOUNT] markers read as blanks to complete
    (hybrid.data.facts.BLANK); the template's frame states the term and the fee where the template has them."""
    return replace(deal, duration=None, amount=None)
