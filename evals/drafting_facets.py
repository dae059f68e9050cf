"""The positions a lawyer asks for inside a clause type: data for evals.drafting_relevance.

Owns: per CUAD category (master_clauses.csv column name), how a drafter names the clause (HEADS)
and the facets a request may add (FACETS): a specific position, carve-out, cap, trigger or
period, each as (facet id, the words of a request, a detector). A detector is a regular
expression over the clause text (lower-cased, whitespace collapsed): it says whether the clause
states that facet, by its usual surface forms in contracts ("12 months", "twelve (12) months",
"the preceding year"). The request words are written as a lawyer asks, on purpose not a copy of
the detector ("fees paid in the prior year" against "twelve (12) months ... paid"), so that a
scorer cannot earn the grade by matching the detector's tokens alone.

What a detector cannot see: negation and scope ("excluding confidentiality" and "including
confidentiality" both mention it), which party a position favours, and whether the facet sits in
the operative sentence. Knows nothing about scorers, pools or grades.
"""

import re

__all__ = ["HEADS", "FACETS", "facets_of", "number"]

_NUM = {
    "10": "ten", "15": "fifteen", "30": "thirty", "45": "forty-five", "60": "sixty", "90": "ninety",
    "180": "one hundred (?:and )?eighty", "1": "one", "2": "two", "3": "three", "5": "five", "12": "twelve",
}


def number(n: str) -> str:
    """A pattern for the number n as contracts write it: "90", "ninety", "ninety (90)"."""
    return rf"\b(?:{_NUM[n]}|{n})\b(?: \({n}\))?"


def _days(n: str) -> str:
    return number(n) + r"[ -]?(?:calendar |business )?days?\b"


_EXCEPT = r"(?:except|exclud|other than|not apply|shall not limit|does not limit|carve|no limitation)"
_MUTUAL = r"\b(?:either party|neither party|each party|both parties|neither of the parties|any party)\b"

HEADS = {
    "Cap On Liability": ("a limitation of liability clause", "a cap on damages"),
    "Uncapped Liability": ("a carve-out from the liability cap", "unlimited liability for certain claims"),
    "Termination For Convenience": ("a termination for convenience right", "a right to end the agreement at will"),
    "Change Of Control": ("a change of control provision", "a clause dealing with an acquisition of a party"),
    "Anti-Assignment": ("an anti-assignment clause", "a restriction on transferring the agreement"),
    "Audit Rights": ("an audit clause", "a right to inspect the other side's accounts"),
    "Insurance": ("an insurance covenant", "a requirement to carry insurance"),
    "Governing Law": ("a governing law clause", "a choice of law provision"),
    "Renewal Term": ("a renewal clause", "an evergreen term"),
    "Exclusivity": ("an exclusivity clause", "an exclusive dealing commitment"),
    "Non-Compete": ("a non-compete", "a covenant restricting competition"),
    "License Grant": ("a license grant", "a grant of rights to use the technology or marks"),
    "Ip Ownership Assignment": ("an IP ownership clause", "an assignment of developed intellectual property"),
    "Revenue/Profit Sharing": ("a revenue sharing clause", "a royalty or profit split"),
    "Minimum Commitment": ("a minimum purchase commitment", "a minimum volume obligation"),
    "Rofr/Rofo/Rofn": ("a right of first refusal", "a preemptive right before dealing with others"),
    "Post-Termination Services": ("post-termination obligations", "a wind-down clause"),
    "Warranty Duration": ("a product warranty", "a warranty period"),
    "Liquidated Damages": ("a liquidated damages clause", "a pre-agreed payment on breach or early exit"),
    "Non-Transferable License": ("a restriction on the license", "a personal, limited license"),
    "No-Solicit Of Employees": ("an employee non-solicit", "a no-poach clause"),
    "Notice Period To Terminate Renewal": ("a non-renewal notice clause", "a notice period to stop the renewal"),
}

# {category: [(facet id, request words, detector)]}; the request words complete "<head>, <words>".
FACETS = {
    "Cap On Liability": [
        ("mutual", "that applies to both sides", _MUTUAL),
        ("fees_12m", "capped at what was paid in the prior year",
         r"(?:\b(?:twelve|12)\b(?: \(12\))?[ -]months?|preceding (?:year|calendar year)|prior year).{0,120}"
         r"\b(?:paid|payable|fees)\b|\b(?:paid|payable|fees)\b.{0,160}(?:\b(?:twelve|12)\b(?: \(12\))?[ -]months?"
         r"|preceding (?:year|calendar year))"),
        ("fees", "limited to the amounts paid under the contract",
         r"\b(?:fees|amounts?|sums?|price|charges)\b.{0,60}\b(?:paid|payable|received)\b"),
        ("dollar", "with a fixed dollar ceiling", r"\$ ?\d"),
        ("consequential", "with no recovery of lost profits or indirect loss",
         r"\b(?:consequential|indirect|incidental|punitive|lost profits|loss of profits)\b"),
        ("carve_conf", "excluding confidentiality breaches", _EXCEPT + r".{0,250}\bconfidential"),
        ("carve_indem", "with indemnities outside the cap", _EXCEPT + r".{0,250}\bindemnif"),
        ("carve_gross", "uncapped for gross negligence, fraud or willful misconduct",
         r"gross(?:ly)? negligen|wil(?:l)?ful misconduct|\bfraud"),
    ],
    "Uncapped Liability": [
        ("conf", "for breaches of confidentiality", r"\bconfidential"),
        ("indem", "for indemnified third-party claims", r"\bindemnif"),
        ("gross", "for gross negligence or intentional wrongdoing",
         r"gross(?:ly)? negligen|wil(?:l)?ful misconduct|\bfraud|intentional"),
        ("ip", "for infringement or misuse of intellectual property",
         r"infring|misappropriat|intellectual property"),
        ("injury", "for death, bodily injury or property damage", r"\bdeath\b|bodily injury|personal injury"),
    ],
    "Termination For Convenience": [
        ("mutual", "available to either side", _MUTUAL),
        ("no_cause", "for any reason or no reason",
         r"without cause|for any reason|for convenience|with or without cause|at any time|sole discretion"),
        ("d30", "on a month's notice", _days("30") + r"|\bone \(1\) month|\bone month"),
        ("d60", "on two months' notice", _days("60") + r"|\btwo \(2\) months"),
        ("d90", "on a quarter's notice", _days("90") + r"|\bthree \(3\) months|\bthree months"),
        ("written", "by notice in writing", r"written notice|notice in writing|notify .{0,40}in writing"),
        ("payment", "with payment for what was done up to termination",
         r"\b(?:pay|payment|paid|fees?|refund|reimburs|compensat)"),
    ],
    "Change Of Control": [
        ("terminate", "letting the other party walk away", r"\bterminat"),
        ("consent", "that needs the counterparty's approval", r"\bconsent|\bapprov"),
        ("merger", "triggered by a merger or consolidation", r"\bmerge[rds]?\b|\bmerging\b|consolidat|reorgani[sz]"),
        ("majority", "when more than half of the voting shares change hands",
         r"(?:50|fifty) ?(?:%|percent|per cent)|majority of the (?:voting|outstanding)|voting (?:securities|stock|"
         r"power|shares)|controlling interest"),
        ("assets", "or a sale of the business", r"substantially all"),
        ("competitor", "where the buyer is a competitor", r"\bcompetitor|\bcompet(?:e|ing|itive)"),
        ("deemed", "treated as an assignment", r"deemed .{0,40}assign|assignment .{0,60}(?:include|deemed)"),
    ],
    "Anti-Assignment": [
        ("consent", "requiring the other side's written approval", r"\bconsent"),
        ("reasonable", "with approval not to be unreasonably refused", r"unreasonabl[ey]"),
        ("affiliate", "except to group companies", r"\baffiliat"),
        ("successor", "allowing transfer to a buyer of the business",
         r"\bmerge[rds]?\b|acquisition|\bsuccessor|substantially all|sale of (?:all|the business)"),
        ("void", "where any transfer in breach has no effect", r"\bvoid\b|no (?:force or )?effect|\binvalid\b"),
        ("coc", "that treats a change of control as a transfer", r"change (?:of|in) (?:control|ownership)"),
        ("delegate", "covering delegation of duties too", r"\bdelegat"),
    ],
    "Audit Rights": [
        ("records", "over the books and records", r"\bbooks\b|\brecords\b"),
        ("independent", "carried out by an independent accountant",
         r"independent (?:certified )?(?:public )?(?:accountant|auditor|accounting)|certified public accountant"),
        ("yearly", "no more than once a year",
         r"once (?:in any|per|each|every|a|during any) (?:calendar )?(?:year|twelve|12)|(?:not|no) more (?:often )?than"
         r" once"),
        ("notice", "on reasonable advance notice",
         r"(?:reasonable|prior|advance) (?:prior |advance )?(?:written )?notice"
         r"|days?'? (?:prior )?(?:written )?notice"),
        ("cost_shift", "with the audited party paying if an underpayment over 5% is found",
         r"(?:\b5|five) ?(?:%|percent|per cent)|(?:bear|pay|reimburse)[^.]{0,60}(?:cost|expense)s? of (?:the|such|any)"
         r" (?:audit|inspection|examination)"),
        ("hours", "during normal working hours", r"business hours|working hours"),
        ("retain", "with records kept for several years",
         r"(?:retain|maintain|keep|preserve).{0,120}(?:\b\d+\b|two|three|five|seven|six) (?:\(\d+\) )?years"),
    ],
    "Insurance": [
        ("cgl", "including commercial general liability cover", r"general liability"),
        ("amount", "with minimum limits of at least a million dollars", r"\$ ?\d|million"),
        ("additional", "naming the other party as additional insured", r"additional(?:ly)? insured"),
        ("certificate", "with certificates of insurance on request", r"certificate"),
        ("product", "covering product liability", r"products?(?:/completed operations)? liability"),
        ("cancel", "with advance notice before the policy is cancelled", r"cancel|non-?renew|material change"),
        ("workers", "covering workers' compensation", r"workers'? ?compensation|workmen"),
    ],
    "Governing Law": [
        ("new_york", "choosing New York law", r"new york"),
        ("california", "choosing California law", r"california"),
        ("delaware", "choosing Delaware law", r"delaware"),
        ("texas", "choosing Texas law", r"texas"),
        ("england", "choosing English law", r"england|english law|united kingdom"),
        ("conflicts", "without regard to conflict-of-laws rules", r"conflicts? of laws?|choice of laws?|conflict"
         r"(?:s)? principles"),
        ("courts", "with disputes in the courts of that place", r"\bcourts?\b|jurisdiction|\bvenue\b"),
        ("cisg", "excluding the UN sales convention", r"united nations|international sale of goods|cisg"),
    ],
    "Renewal Term": [
        ("automatic", "that renews by itself", r"automatic"),
        ("one_year", "for successive one-year periods",
         r"(?:\bone|\b1)\b(?: \(1\))?[ -]year|\bannual|(?:twelve|12)(?: \(12\))?[ -]month|year to year|year-to-year"),
        ("multi_year", "for renewal periods of several years",
         r"\b(?:two|three|five|2|3|5)\b(?: \(\d\))?[ -](?:additional )?years?"),
        ("unless_notice", "unless a party says it will not renew",
         r"unless .{0,160}notice|notice .{0,80}(?:not to renew|non-?renewal|intent|terminat)"),
        ("agreement", "only if both parties agree", r"mutual(?:ly)?|\bagree(?:d|ment)? (?:in writing|to renew)"),
    ],
    "Exclusivity": [
        ("territory", "within a defined territory", r"\bterritor"),
        ("requirements", "buying all requirements from one source",
         r"(?:all|exclusively|solely) (?:of )?(?:its|their|the) (?:requirements|needs)|(?:purchase|buy|obtain)"
         r"[^.]{0,60}(?:exclusively|solely|only) from"),
        ("no_other", "with no other distributor or licensee appointed",
         r"(?:not|no)[^.]{0,40}(?:appoint|grant|authori[sz]e|engage|license)[^.]{0,80}(?:other|third|any)"),
        ("competing", "with no dealing in competing products", r"\bcompet"),
        ("minimum", "conditional on meeting sales targets", r"\bminimum|\btarget|\bquota|performance"),
        ("affiliates", "binding group companies as well", r"\baffiliat"),
    ],
    "Non-Compete": [
        ("territory", "limited to a geographic area", r"\bterritor|\bworldwide|anywhere|\bmiles\b|geographic"),
        ("post_term", "lasting for a period after the contract ends",
         r"(?:after|following|post)[- ].{0,40}(?:termination|expiration|expiry)|thereafter"),
        ("indirect", "directly or through others", r"directly or indirectly|indirectly"),
        ("affiliates", "binding affiliates as well", r"\baffiliat"),
        ("invest", "with an exception for passive shareholdings",
         r"(?:\b\d+|five|two|one) ?(?:%|percent|per cent)|passive|publicly traded"),
    ],
    "License Grant": [
        ("exclusive", "on an exclusive basis", r"(?<!non-)(?<!non)\bexclusive"),
        ("non_exclusive", "on a non-exclusive basis", r"non-?exclusive"),
        ("royalty_free", "free of royalties", r"royalty[- ]free|fully[- ]paid|paid[- ]up"),
        ("worldwide", "with global reach", r"world-?wide|throughout the world"),
        ("sublicense", "with a right to grant sublicenses", r"sub-?licen[cs]"),
        ("marks", "to use the brand and logos", r"trademark|trade name|\bmarks\b|\blogos?\b"),
        ("software", "covering the software", r"\bsoftware|source code|object code"),
    ],
    "Ip Ownership Assignment": [
        ("hire", "as work made for hire", r"works? (?:made )?for hire"),
        ("assign", "with a present assignment of all rights", r"assigns?|assignment|hereby transfers?"),
        ("improve", "including improvements and derivative works",
         r"improvement|derivative|modification|enhancement"),
        ("assist", "with a duty to sign the papers needed to perfect it",
         r"execute|further assurance|attorney-in-fact|power of attorney|perfect"),
        ("moral", "waiving moral rights", r"moral rights"),
    ],
    "Revenue/Profit Sharing": [
        ("percent", "as a percentage", r"\d ?(?:%|percent|per cent)|percent(?:age)?"),
        ("net", "calculated on net revenues", r"net (?:revenue|sales|receipts|profits?|income|selling)"),
        ("gross", "calculated on gross revenues", r"gross (?:revenue|sales|receipts|income|margin)"),
        ("royalty", "in the form of royalties", r"royalt"),
        ("periodic", "paid each quarter or month", r"quarter|month"),
        ("profit", "splitting profits", r"\bprofits?\b"),
    ],
    "Minimum Commitment": [
        ("units", "of a number of units", r"\bunits?\b"),
        ("dollar", "of a dollar amount", r"\$ ?\d"),
        ("yearly", "measured each year", r"(?:per|each|every|any) (?:calendar |contract )?(?:year|annum)|annual"),
        ("quarterly", "measured each quarter or month", r"quarter|month"),
        ("shortfall", "with a payment for any shortfall", r"shortfall|short-fall|difference|make[- ]up|deficien"),
        ("remedy", "with loss of rights if it is missed",
         r"(?:fail|failure)[^.]{0,160}(?:terminat|non-?exclusive|convert)"),
    ],
    "Rofr/Rofo/Rofn": [
        ("refusal", "as a right to match a third-party offer", r"first refusal|\bmatch"),
        ("offer", "as a right to be offered first", r"first offer|first negotiat|negotiat"),
        ("terms", "on the same terms a third party offers",
         r"(?:same|equal|identical|no less favou?rable|substantially similar) (?:terms|price|conditions)"),
        ("days", "with a short window to respond", r"\bdays?\b|\bweeks?\b"),
    ],
    "Post-Termination Services": [
        ("transition", "with transition help", r"transition"),
        ("selloff", "allowing the sell-off of remaining inventory",
         r"(?:sell|dispose)[^.]{0,60}(?:inventory|stock|products)|sell-?off"),
        ("return", "with return or destruction of materials", r"\breturn|\bdestr"),
        ("accrued", "with payment of accrued amounts", r"(?:accrued|outstanding|unpaid|due)[^.]{0,60}(?:fees|amounts|"
         r"payments?|sums|royalt)"),
        ("survive", "listing what survives", r"surviv"),
        ("support", "with continued support of existing customers", r"\bsupport|maintenance|existing (?:customers|"
         r"end users)"),
    ],
    "Warranty Duration": [
        ("year", "lasting a year", r"(?:\bone|\b1)\b(?: \(1\))?[ -]year|(?:twelve|12)(?: \(12\))?[ -]months?"),
        ("d90", "lasting ninety days", _days("90")),
        ("start", "running from delivery or acceptance", r"deliver|shipment|acceptance|installation"),
        ("remedy", "with repair, replacement or refund as the remedy", r"repair|replac|refund|re-?perform"),
        ("defects", "against defects in materials and workmanship", r"defect|workmanship"),
    ],
    "Liquidated Damages": [
        ("fee", "as a termination fee", r"termination fee|break-?up fee|early termination"),
        ("liquidated", "expressly as liquidated damages", r"liquidated"),
        ("amount", "of a stated amount", r"\$ ?\d|\d ?(?:%|percent)"),
        ("penalty", "stated to be a genuine pre-estimate and not a penalty", r"penalt|reasonable (?:pre-)?estimate"),
    ],
    "Non-Transferable License": [
        ("non_transfer", "that cannot be transferred", r"non-?transferable|not (?:be )?transferable|not transfer"),
        ("no_sub", "with no right to sublicense", r"(?:not|no|without)[^.]{0,40}sub-?licen|non-?sublicens"),
        ("non_exclusive", "on a non-exclusive basis", r"non-?exclusive"),
        ("affiliates", "except to group companies", r"\baffiliat"),
    ],
    "No-Solicit Of Employees": [
        ("period", "for a period after the contract ends", r"(?:after|following).{0,40}(?:termination|expiration)"
         r"|\bmonths?\b|\byears?\b"),
        ("general", "except through general job advertisements",
         r"general (?:solicitation|advertis)|newspaper|job posting|not (?:specifically )?(?:directed|targeted)"),
        ("hire", "covering hiring as well as solicitation", r"\bhir(?:e|ed|ing)\b|\bemploy(?!ee)"),
        ("contractors", "covering consultants and contractors too", r"contractor|consultant"),
    ],
    "Notice Period To Terminate Renewal": [
        ("d30", "at least a month before the term ends", _days("30") + r"|\bone \(1\) month|\bone month"),
        ("d60", "at least two months before the term ends", _days("60") + r"|\btwo \(2\) months"),
        ("d90", "at least three months before the term ends", _days("90") + r"|\bthree \(3\) months"),
        ("written", "by notice in writing", r"written notice|notice in writing|in writing"),
    ],
}

_COMPILED = {c: [(f, re.compile(p)) for f, _, p in fs] for c, fs in FACETS.items()}


def facets_of(category: str, text: str) -> set[str]:
    """The facet ids of `category` whose detector fires on the clause text."""
    t = " ".join(text.lower().split())
    return {f for f, rx in _COMPILED.get(category, ()) if rx.search(t)}
