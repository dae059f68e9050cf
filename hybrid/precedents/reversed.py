"""Which way round a precedent's parties stand: `reversed_roles`.

A precedent adapted to the deal can have its parties the wrong way round: its normalization took the source's
first party for the deal's first, or the source's roles read the other way ("Buyer shall invoice Supplier"). What
each side does tells: the provider supplies, bills, serves and is paid; the customer pays and receives; each side is
appointed as what its own role word says. hybrid.skeleton.from_precedents flips such a precedent's parties, and
hybrid.precedents.fit (which re-exports reversed_roles) lowers the quality of one that stays reversed. Pure string
functions.
"""

import re

__all__ = ["reversed_roles"]

_PAYS = r"(?:shall|will|must|agrees? to|is to)\s+(?:promptly\s+|also\s+)?(?:pay|remit)\b"
_BILLS = r"(?:shall|will|may)\s+(?:promptly\s+)?invoice\b"
_DUTY = r"(?:shall|will|must|agrees? to)\s+(?:\([a-z0-9]{1,3}\)\s+)?(?:[a-z]+ly\s+)?"  # "shall (a) promptly"
_GOODS = r"\s+(?:the\s+|all\s+|any\s+|each\s+|such\s+)?(?:Products?|goods|shipments?)\b"
_SUPPLIES = _DUTY + r"(?:deliver|ship|manufacture|supply|package)" + _GOODS
_RECEIVES = _DUTY + r"(?:examine|inspect)" + _GOODS
# goods go to the customer: "shipped to Supplier's address", "title and risk of loss shall pass to Supplier"
_SENT_TO = r"\b(?:shipped|delivered|pass(?:es)?|sent)\s+to\s+(?:the\s+)?"
# one side appointed as the other's role: "appoints {who} as an independent, exclusive {role}"
_APPOINTS = r"\bappoints?\s+(?:the\s+)?{}\s+as\s+(?:its\s+|an?\s+|the\s+)?(?:[\w-]+,?\s+){{0,3}}?{}\b"
# the provider performs the services: "Customer shall provide, directly or through a vendor, the Hosting Services"
_SERVES = _DUTY + r"(?:provide|perform|render)(?:,[^,.]{0,100},)?\s+(?:the\s+|all\s+|any\s+|such\s+)?" \
    r"(?:[A-Z][a-z]+\s+){0,2}Services\b"


def reversed_roles(text: str, provider: str, customer: str) -> int:
    """How much more often `text` has the provider pay, bill's receiver or goods' receiver and the customer bill or
    ship than the other way round (0 when not): a precedent whose parties the adaptation set the wrong way
    ("Buyer shall invoice Supplier ... Supplier shall pay each invoice"; "Lessor agrees to pay Lessee the rent";
    "Buyer shall package the Product ... Supplier shall diligently examine all Product delivered"; "shipped to
    Supplier's address ... title and risk of loss shall pass to Supplier"; "Customer shall provide ... the Hosting
    Services"; "Distributor hereby appoints Supplier as an independent, exclusive distributor").
    provider, customer: the deal's role words."""
    if not provider or not customer:
        return 0
    count = lambda who, what: len(re.findall(rf"\b(?:the\s+)?{re.escape(who)}\s+{what}", text))  # noqa: E731
    sent = lambda who: len(re.findall(rf"{_SENT_TO}{re.escape(who)}\b", text))  # noqa: E731
    wrong = count(provider, _PAYS) + count(customer, _BILLS) + count(customer, _SUPPLIES) + count(provider, _RECEIVES)
    right = count(customer, _PAYS) + count(provider, _BILLS) + count(provider, _SUPPLIES) + count(customer, _RECEIVES)
    wrong, right = wrong + sent(provider), right + sent(customer)
    wrong, right = wrong + count(customer, _SERVES), right + count(provider, _SERVES)
    # each side is appointed as what its own role word says: "appoints Supplier as an exclusive distributor" is the
    # Distributor's appointment written the wrong way round
    named = lambda who, role: len(re.findall(_APPOINTS.format(re.escape(who), re.escape(role.lower())), text))  # noqa
    wrong += named(provider, customer) + named(customer, provider)
    right += named(provider, provider) + named(customer, customer)
    return max(0, wrong - right)
