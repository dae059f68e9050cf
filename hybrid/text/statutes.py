"""Another country's statutes: an act a base cites by its jurisdiction, where the deal names none of it.

Owns `foreign_statutes` and the abbreviations statutes are cited by (JURISDICTIONS). Registered as the start pass
"foreign_statutes" (hybrid.text.start_passes).
"""

import re

__all__ = ["foreign_statutes", "JURISDICTIONS", "APPLICABLE"]

# how a statute's jurisdiction is abbreviated in its citation: "the Corporations Act 2001 (Cth)"
JURISDICTIONS = {"Cth": "Australia", "NSW": "New South Wales", "Vic": "Victoria", "Qld": "Queensland",
                 "UK": "United Kingdom", "NZ": "New Zealand", "Ont": "Ontario", "BC": "British Columbia"}
APPLICABLE = "applicable law"
# "the Corporations Act 2001 (Cth)", "the Bankruptcy and Insolvency Act (Canada)": a title-case act, its year, and
# its jurisdiction in parentheses
_STATUTE = re.compile(r"\bthe[ \t]+(?:[A-Z][A-Za-z&]*[ \t]+(?:(?:and|of)[ \t]+)?){1,6}Act(?:[ \t]+\d{4})?[ \t]+"
                      r"\((?P<where>[A-Z][A-Za-z. ]{0,24}?)\.?\)")


def foreign_statutes(text: str, allowed: str) -> str:
    """text with each statute cited by a jurisdiction the deal's text `allowed` does not name written as
    "applicable law": an Australian distributor's insolvency trigger "within the meaning of the Corporations Act
    2001 (Cth)" had read "the corporations act [___] (Cth)" in a deal for Canada (seed-1013 reader). A statute of the
    deal's own place stays."""
    def local(m: re.Match) -> str:
        where = JURISDICTIONS.get(m.group("where"), m.group("where"))
        return m.group(0) if re.search(rf"\b{re.escape(where)}\b", allowed, re.I) else APPLICABLE
    return _STATUTE.sub(local, text)
