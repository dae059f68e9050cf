"""The normalized clause-type vocabulary and the heading -> clause type rule table.

Owns: CLAUSE_TYPES (the closed set every outline, template and planner uses) and
classify_heading(). Knows nothing about files, tokenizers or models.

Rules are ordered: the first pattern that matches the lower-cased heading wins, so specific
phrases ("limitation of liability") come before the generic words they contain ("liability").
"""

import re

__all__ = ["CLAUSE_TYPES", "classify_heading"]

# (clause type, regex over the lower-cased heading). Order matters: first match wins.
_RULES: list[tuple[str, str]] = [
    ("definitions", r"\bdefinition|\binterpretation\b|\bdefined terms"),
    ("recitals", r"\brecital|\bbackground\b|\bwhereas"),
    ("limitation_of_liability", r"limitation(s)? (of|on) liabilit|\bliability\b|consequential damages"),
    ("indemnification", r"\bindemn"),
    ("confidentiality", r"confidential|non-?disclosure|\bproprietary information"),
    ("governing_law", r"governing law|applicable law|choice of law|\bjurisdiction|\bvenue\b"),
    ("dispute_resolution", r"dispute|arbitration|\bmediation|jury trial|litigation"),
    ("termination", r"terminat|\bdefault\b|\bbreach\b"),
    ("term", r"^term\b|\bterm of\b|\bduration\b|\brenewal|\bexpiration"),
    ("payment", r"\bpayment|\bfee|\bprice|\bpricing|\bcompensation|\bremuneration|\broyalt|\bconsideration\b|\binvoic|\bcommission|\bexpenses?\b|\bcosts?\b"),
    ("taxes", r"\btax"),
    ("audit", r"\baudit|\brecords?\b|\breports?\b|\breporting\b|\bbooks\b"),
    ("intellectual_property", r"intellectual property|\bownership|\bproprietary rights|\btrademark|\bpatent|\bcopyright|\bmarks?\b|\blogo|\bwork product|\binventions?"),
    ("license", r"\blicen[cs]e|grant of rights|\bgrant\b|\brights granted"),
    ("warranties", r"\bwarrant|\brepresentation|\bdisclaim"),
    ("exclusivity", r"exclusiv|non-?compet|non-?solicit|\brestrictive covenant"),
    ("insurance", r"\binsurance"),
    ("force_majeure", r"force majeure|\bexcused performance|\bacts of god"),
    ("notices", r"\bnotices?\b"),
    ("assignment", r"\bassign|\bsuccessors?\b|\bbinding effect|\bchange of control"),
    ("publicity", r"\bpublicity|\bpublic announcement|\bpress release|\bannouncement"),
    ("relationship", r"relationship|independent contractor|no (joint venture|partnership|agency)|\bagency\b"),
    ("compliance", r"\bcomplian|\bexport|\banti-?corruption|\bprivacy|\bdata protection|\bsecurity\b|\bpersonal data"),
    ("entire_agreement", r"entire agreement|\bintegration\b|\bentire understanding"),
    ("amendment", r"\bamendment|\bmodification|\bwaiver"),
    ("severability", r"severab|\bpartial invalidity"),
    ("counterparts", r"counterpart|\bexecution\b|electronic signature"),
    ("survival", r"\bsurvival|\bsurvive"),
    ("remedies", r"\bremed|\binjunct|\bequitable relief|\bspecific performance"),
    ("obligations", r"\bobligation|\bresponsibilit|\bduties|\bcovenant"),
    ("services", r"\bservices?\b|\bsupport\b|\bmaintenance\b|\bservice levels?|\bperformance\b|\bdeliver"),
    ("products", r"\bproducts?\b|\bsupply|\border|\bpurchase|\bmanufactur|\bforecast|\bshipment|\binventory|\bquality"),
    ("marketing", r"\bmarketing|\bpromotion|\badvertis|\bsponsor|\bendorse|\bappearance"),
    ("appointment", r"\bappointment|\bterritory|\bscope\b|\bpurpose\b|\bengagement"),
    ("general", r"\bmiscellaneous|\bgeneral\b|\bheadings?\b|\bcaptions?\b|\bconstruction\b|\bnotice\b|\bthird.party benefic|\bfurther assurance|\bcumulative"),
]
_COMPILED = [(name, re.compile(pattern)) for name, pattern in _RULES]

CLAUSE_TYPES: tuple[str, ...] = tuple(dict.fromkeys(name for name, _ in _RULES)) + ("other",)


def classify_heading(heading: str) -> str:
    """Map a section heading to one of CLAUSE_TYPES ("other" when no rule matches)."""
    h = " ".join(heading.lower().split())
    for name, pattern in _COMPILED:
        if pattern.search(h):
            return name
    return "other"
