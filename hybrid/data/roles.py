"""Party role words -> the deal's own roles.

Owns: the families of role words contracts call their parties by (`FAMILIES`: the side that supplies,
the side that buys, the side that discloses, the side that receives), `deal_roles` (which word of each
family a template's deal uses, from its preamble's defined roles and its defined terms) and
`apply_roles` (a precedent's role words rewritten as the deal's). Knows nothing of files or models.

A precedent's own parties are replaced by markers when its preamble defines them (hybrid.data.facts);
role words it uses without defining them ("Recipient will ..." in a standard form whose cover page
names the parties, "Contractor" in a clause cut from a contract whose preamble is elsewhere) stay.
Left as they are they are foreign to the deal, so the precedent start masks them and the filler writes
something else in their place; a role word of the same side is the deal's word for it, so it is written
in instead: "Discloser retains all of its rights ... its disclosure to Recipient grants no license"
reads "Disclosing Party retains ... to Receiving Party" in a mutual NDA that defines both.

Only capitalized role words change (as written, or in capitals in a conspicuous clause); the common
noun ("a supplier of components") is no party.
"""

import re

__all__ = ["FAMILIES", "ROLE_WORDS", "PARTY_ROLE_WORDS", "TURN_ROLES", "family_of", "deal_roles", "apply_roles",
           "company_as_marker", "PARTY_MARKER"]

FAMILIES = {
    "provider": (
        "Service Provider",
        "Supplier",
        "Vendor",
        "Seller",
        "Manufacturer",
        "Provider",
        "Licensor",
        "Contractor",
        "Consultant",
        "Franchisor",
        "Host",
        "Rights Holder",
        "Lessor",
        "Landlord",
    ),
    "customer": (
        "Buyer",
        "Purchaser",
        "Customer",
        "Client",
        "Licensee",
        "Distributor",
        "Reseller",
        "Franchisee",
        "Sponsor",
        "Lessee",
        "Tenant",
    ),
    "discloser": ("Disclosing Party", "Discloser"),
    "recipient": ("Receiving Party", "Recipient"),
    "agreement": ("Agreement", "MNDA", "NDA"),  # what a standard form calls itself ("this NDA")
}
# the families a clause gives either party by turns ("each party may be the Disclosing Party"): never a party's
# identity, so never another deal's name, whatever the deal calls its parties
TURN_ROLES = ("discloser", "recipient")
# the single words of the role names, lower-cased ("service", "provider", "rights", "holder", ...): with what a
# contract calls itself (ROLE_WORDS) and without it (PARTY_ROLE_WORDS: the parties' roles only)
PARTY_ROLE_WORDS = frozenset(
    w.lower() for f, words in FAMILIES.items() if f != "agreement" for r in words for w in r.split()
)
ROLE_WORDS = PARTY_ROLE_WORDS | frozenset(w.lower() for r in FAMILIES["agreement"] for w in r.split())


def family_of(role: str | None) -> str | None:
    """The family a role word belongs to ("Licensee" -> "customer"), None when it is in none."""
    for family, words in FAMILIES.items():
        if role in words:
            return family
    return None


def deal_roles(role_a: str | None, role_b: str | None, defined_terms=()) -> tuple[tuple[str, str], ...]:
    """((precedent word, the deal's word), ...), longest word first: every word of a family the deal
    names a party of (role_a, role_b: the roles its preamble defines; defined_terms: the template's,
    where a mutual agreement defines "Disclosing Party" and "Receiving Party") becomes the deal's word
    for that family; families the deal has no word for are left alone (a mutual agreement's parties
    are each a "Party": a precedent's "Supplier" has no side there)."""
    target: dict[str, str] = {}
    for role in (role_a, role_b, *[t for t in defined_terms if family_of(t) != "agreement"]):
        family = family_of(role)
        if family and family not in target:
            target[family] = role
    if "Agreement" in defined_terms:  # every template calls itself (the "Agreement")
        target["agreement"] = "Agreement"
    pairs = [(w, target[f]) for f, words in FAMILIES.items() if f in target for w in words if w != target[f]]
    return tuple(sorted(pairs, key=lambda p: -len(p[0])))


def _pattern(pairs) -> re.Pattern:
    words = sorted({w for p in pairs for w in (p[0], p[0].upper())}, key=len, reverse=True)
    alts = "|".join(map(re.escape, words))
    return re.compile(rf"(?<![\w-])(?:{alts})(?![\w-])")


def apply_roles(text: str, pairs) -> str:
    """text with each role word of `pairs` (deal_roles) replaced by the deal's, as written ("Recipient's"
    -> "Receiving Party's") or in capitals ("RECIPIENT" -> "RECEIVING PARTY"); lower case untouched."""
    if not pairs:
        return text
    pairs = tuple(pairs) + _company(text, pairs)
    to = {w.upper(): d.upper() for w, d in pairs if w.upper() != w} | {w: d for w, d in pairs}  # "NDA" stays a word
    return _pattern(pairs).sub(lambda m: to[m.group(0)], text)


def _company(text: str, pairs) -> tuple[tuple[str, str], ...]:
    """(("Company", the deal's word), ) where a precedent's "Company" can only be one side: its counterpart
    in the text is a role of the other side only ("Company" beside "Distributor" is the supplier, beside
    "Consultant" the client); () where both or neither side is named, or the deal names no such sides."""
    if not re.search(r"(?<![\w-])Company(?![\w-])", text):
        return ()
    targets = {family_of(w): d for w, d in pairs if family_of(w) in ("provider", "customer")}
    if len(targets) < 2:
        return ()
    present = {
        f
        for f in ("provider", "customer")
        if any(re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text) for w in (*FAMILIES[f], targets[f]))
    }
    if len(present) != 1:
        return ()
    other = "customer" if present == {"provider"} else "provider"
    return (("Company", targets[other]),)


_COMPANY = re.compile(r"(?<![\w-])(?:(?P<the>[Tt]he|THE)\s+)?(?:Company|COMPANY)(?![\w-])")
_SIDE_WORDS = re.compile(
    r"(?<![\w-])(?:" + "|".join(re.escape(w) for f in ("provider", "customer") for w in FAMILIES[f]) + r")(?![\w-])"
)
PARTY_MARKER = re.compile(r"\[PARTY_[AB]\]")  # a normalized text's party marker (hybrid.data.facts)


def company_as_marker(text: str, named=lambda marker: False) -> str:
    """A normalized text with its "Company" written as the party marker it must be, where the clause names one party
    by its marker and calls the other "the Company" with no role word of either side beside them ("[PARTY_B] shall
    indemnify and save harmless the Company"): the source's normalization replaced its defined party, so the
    Company is the other one. Left as it was, the filler rewrote it ("save harmless the claims"). named(marker):
    the deal calls that party by its name, not a role, so "the Company" loses its article."""
    markers = set(PARTY_MARKER.findall(text))
    if len(markers) != 1 or _SIDE_WORDS.search(text) or not any(map(_alone, _COMPANY.finditer(text))):
        return text
    other = "[PARTY_A]" if markers.pop() == "[PARTY_B]" else "[PARTY_B]"
    article = not named(other)
    return _COMPANY.sub(lambda m: m.group(0) if not _alone(m) else (
        f"{m.group('the')} " if m.group("the") and article else "") + other, text)


def _alone(m: re.Match) -> bool:
    """Whether a "Company" match is a party's name, not the last word of another name: a joint venture's "the
    Operating Company" had read "the Operating SolarReach Energy Ltd." (seed-331 reader)."""
    return bool(m.group("the")) or not re.search(r"\b[A-Z][\w&-]*[ \t]+$", m.string[:m.start()])
