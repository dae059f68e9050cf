"""The normalized clause-type vocabulary and the heading -> clause type rule table.

Owns: CLAUSE_TYPES (the closed set every outline, template and planner uses),
classify_heading(), own_clause() (a body cut where a line of capitals heads another clause type, which the
precedent library applies), stop_run_in_headings() (a paragraph's run-in heading that lost its full stop gets it
back, on normalized text) and join_page_breaks() (a sentence a page break split joined again). Knows nothing
about files, tokenizers or models.

Rules are ordered: the first pattern that matches the lower-cased heading wins, so specific
phrases ("limitation of liability") come before the generic words they contain ("liability").
"""

import re

__all__ = ["CLAUSE_TYPES", "classify_heading", "own_clause", "stop_run_in_headings", "join_page_breaks"]

# (clause type, regex over the lower-cased heading). Order matters: first match wins.
_RULES: list[tuple[str, str]] = [
    (
        "definitions",
        r"\bdefinition|\binterpretation\b|\bdefined terms|\bundefined terms|\bcertain terms|\bmeanings?\b|"
        r"\bcross.references|\bsingular|\bplural|\bgender\b|\bpronouns",
    ),
    ("recitals", r"\brecital|\bbackground\b|\bwhereas|\bpreamble\b"),
    (
        "limitation_of_liability",
        r"limitation(s)? (of|on) (liabilit|damages)|\bliabilit|consequential damages|\bexclusion of damages|"
        r"\bcap amount|\bliability caps?|\bunlimited claims|\bincreased claims|\bno uptime guarantee",
    ),
    ("indemnification", r"\bindemn|\bcovered claims|\bdefen[cs]e of third.party claims"),
    (
        "confidentiality",
        r"confidential|non-?disclosure|\bproprietary information|\bnon disclosure|\bsecrecy|"
        r"\bmaterial non-public|\brequired disclosures?|\bcompelled disclosure|\bpermitted disclosures?|"
        r"^exceptions?$",  # a section headed only "Exceptions" excepts information from confidentiality (NDAs)
    ),
    (
        "governing_law",
        r"governing law|applicable law|choice of law|\bjurisdiction|\bvenue\b|^(applicable |the )?laws?$|"
        r"law and jurisdiction|\bproper law|\blaw of (the|this) (agreement|contract)",
    ),
    (
        "dispute_resolution",
        r"dispute|arbitration|\bmediation|\bjury\b|litigation|\bset.off\b|\bescalation|\bappeals?\b",
    ),
    ("termination", r"terminat|\bdefault\b|\bbreach\b|\bbankruptcy|\binsolvency|\bsuspension\b"),
    (
        "term",
        r"^term\b|\bterm of\b|\bduration\b|\brenewal|\bexpiration|\bextension of term|\bagreement term|"
        r"\bclosing\b|\bconditions precedent|\bconditions to closing|\beffective date|\beffectiveness|"
        r"\bcommencement|\bvalidity (of|period)|\bend date|\bstart date",
    ),
    (
        "payment",
        r"\bpayment|(?<!attorneys )(?<!attorneys' )(?<!attorney's "
        r")\bfee|\bprice|\bpricing|\bcompensation|\bremuneration|\broyalt|\bconsideration\b|\binvoic|"
        r"\bcommission|\bexpenses?\b|\bcosts?\b|\bcharges?\b|\brates?\b|\bfinancial (terms|provisions|decisions)|"
        r"\bbilling|\bcredit\b|\bbenefits?\b|\bsalary|\bbonus|\bstock options|\bpension|\bcontributions?\b|"
        r"\bcapital\b|\bincome|\bprofits?\b|\bminimum guarantee|\badvance\b|\bpremium|\breimburse|"
        r"\bmost favou?red|\bsettlement\b",
    ),
    ("taxes", r"\btax"),
    (
        "audit",
        r"\baudit|\brecords?\b|\breports?\b|\breporting\b|\bbooks\b|\baccounting|\bfinancial statements|"
        r"\brecordkeeping|\bverification",
    ),
    (
        "intellectual_property",
        r"intellectual property|\bownership|\bproprietary rights|\btrademark|\bpatent|\bcopyright|"
        r"\bmarks?\b|\blogo|\bwork product|\binventions?|\binfringement|\bmoral rights|"
        r"\bwork for hire|\bproperty rights|\bimprovements|\btitle to\b|\bretention of rights|"
        r"\breservation of rights|\bfeedback",
    ),
    (
        "license",
        r"\blicen[cs]e|grant of rights|\bgrant\b|\brights granted|\bsource code|\bescrow|\buse rights|\bacceptable use|"
        r"\busage rules|\buse (limitations|requirements|restrictions)|(?<!transfer )\brestrictions?\b|\bpermitted use",
    ),
    ("warranties", r"\bwarrant|\brepresentation|\bdisclaim|\bauthority\b|\bdue organization|\bno conflicts?\b"),
    (
        "exclusivity",
        r"exclusiv|non-?compet|non-?solicit|\brestrictive covenant|\bstandstill|\bcircumvent|"
        r"\bright of first (refusal|offer|negotiation)|\bpre-emptive|\bno restrictions",
    ),
    ("insurance", r"\binsurance|\bcoverage"),
    (
        "force_majeure",
        r"force.majeure|\bexcused performance|\bacts of god|\bexcusable delay|\bexcuse for non-?performance|"
        r"\boutside events|\bunavoidable",
    ),
    ("notices", r"\bnotices?\b|\bnotification"),
    (
        "assignment",
        r"\bassign|\bsuccessors?\b|\bbinding effect|\bchange of control|(?<!technology )\btransfer(s|ability)?\b|"
        r"\bsubcontract|\bdelegation",
    ),
    (
        "publicity",
        r"\bpublicity|\bpublic announcement|\bpress release|\bannouncement|\bpublic (statements?|disclosure)|"
        r"\bpublications?\b|\bdisparag",
    ),
    (
        "relationship",
        r"relationship|independent contractor|no (joint venture|partnership|agency)|\bagency\b|\bindependen|"
        r"\bgovernance|\bcommittee|\bboard\b|\bsteering|\bmanagement (of|and control)|\bjoint venture|"
        r"\bpartnership|\bcooperation|\bco-operation|\bcollaboration|\balliance|\bsecondment",
    ),
    (
        "compliance",
        r"\bcomplian|\bexport|\banti-?corruption|\bprivacy|\bdata protection|\bsecurity\b|\bpersonal data|"
        r"\bregulat|\bconflicts? of interest|\bgifts\b|\bconduct\b|\bethic|\bbribery|\bsanction|"
        r"\blabou?r practices|\benvironment|\bsafety|\btransparency|\bdata\b|\blegislation|\bpermits?\b|"
        r"\blicenses and approvals|\bapprovals?\b|\bcookies|\bsubprocessors?|\blaw "
        r"enforcement|\bsecurity|\bvulnerabilit",
    ),
    (
        "entire_agreement",
        r"entire agreement|\bintegration\b|\bentire understanding|\bcomplete agreement|\bmerger\b|"
        r"\bintegrated agreement|\bsole agreement|\bwhole agreement",
    ),
    ("amendment", r"\bamendment|\bmodification|\bwaiver|\bvariation|\bchanges?\b|\bnon-?waiver|\bmodify"),
    ("severability", r"severab|\bpartial invalidity|\binvalidity|\bvalidity of (provisions|agreement)"),
    ("counterparts", r"counterpart|\bexecution\b|electronic signature"),
    ("survival", r"\bsurvival|\bsurvive"),
    ("remedies", r"\bremed|\binjunct|\bequitable relief|\bspecific performance|\breleases?\b"),
    (
        "obligations",
        r"\bobligation|\bresponsibilit|\bduties|\bcovenant|\bundertakings|\bdiligence|\bstandard of care|"
        r"\bagreements of|\bactivities of|\bcommitments?\b",
    ),
    (
        "services",
        r"\bservices?\b|\bsupport\b|\bmaintenance\b|\bservice levels?|\bperformance\b|\bdeliver|\bdevelopment|"
        r"\bresearch|\btraining|\bprojects?\b|\bimplementation|\btechnical|\bassistance|\bconsult|\bwork\b|"
        r"\bhosting|\bprograms?\b|\bcommerciali[sz]ation|\boperations?\b|\bsites?\b|\bdisaster recovery|"
        r"\bsystems?\b|\bsoftware|\bwebsite|\bstaff|\bpersonnel|\bemploy|\bhours\b|\bholidays?|\bsickness|"
        r"\bleave\b|\bjob title|\bspecifications?|\busers?\b|\baccounts?\b|\bpilot|\btrials?\b|\bbetas?\b|"
        r"\bpreviews?\b|\bevaluation|\bplatforms?\b|\bfeatures|\bapi\b|\bupdates\b|\buptime|\bcontent\b|"
        r"\brepositor",
    ),
    (
        "products",
        r"\bproducts?\b|\bsupply|\border(?!\s+form)|\bpurchase|\bmanufactur|\bforecast|\bshipment|\binventory|\bquality|"
        r"\bmaterials?\b|\bmerchandise|\bequipment|\blabel|\bpackag|\binspection|\brecalls?\b|\breturns?\b|"
        r"\bacceptance|\bcapacity|\btitle and (risk|custody)|\brisk of loss|\bshipping|\bwarehous|\bsourcing|"
        r"\bprocurement|\bsales?\b|\bdistribution|\bresale|\bmeasurement|\btesting|\bfreight|\bgoods\b|"
        r"\bcrude|\btransport",
    ),
    (
        "marketing",
        r"\bmarketing|\bpromotion|\badvertis|\bsponsor|\bendorse|\bappearance|\bbranding|\bbrand\b|\bco-brand|"
        r"\bimpressions|\bpage views|\blinks\b|\be-commerce|\bevents?\b|\bcelebrit|\bprogramming|\bairtime",
    ),
    (
        "appointment",
        r"\bappointment|\bterritor|\bscope\b|\bpurpose\b|\bengagement|\bdistributorship|\bfranchise\b|"
        r"\bsubject(-| )matter|\bsubject of the|\bprinciples of|\blocation\b|\bestablishment|\bformation|"
        r"\bcreation of",
    ),
    (
        "general",
        r"\bmiscellaneous|\bgeneral\b|\bheadings?\b|\bcaptions?\b|\bconstruction\b|\bnotice\b|"
        r"\bthird.party (benefic|rights)|\bfurther (assurance|actions?)|\bcumulative|\btime (is )?of the essence|"
        r"^time$|\bcounsel\b|\blegal advice|\bother (provisions|agreements|instruments|matters|terms)|"
        r"\badditional (provisions|terms|agreements)|\bspecial (terms|conditions)|\bterms and conditions|"
        r"\bconditions\b|\bprovisions\b|\bno presumption|\bdrafter|\bdomicile|\blegal effect|\bancillary|"
        r"\bappendices|\bschedules|\bexhibits|\bbusiness days?\b|\bcommercial terms|\bstandard terms|"
        r"\blanguage\b|\backnowledge?ments?\b|\bmutual\b|\bexceptions\b|^(the )?agreement$|\bframework terms|"
        r"\bkey terms|\border forms?\b|\bsow\b|\bstatement of work|\boverview|\bsummary|\bmiscellanea|"
        r"\bcommunications?\b|\bcontact|\bquestions?\b|\btranslations|\baffiliates\b|\bterms\b",
    ),
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


# a line of capitals that heads a new block inside a body: after a sentence's end, before a line in lower case
# (or, numbered, anywhere a line ends with it: "(b) [***] 19. ATTORNEY FEES\n")
_INNER_HEADING = re.compile(
    r"(?:(?<=[.:;)\]])[ \t]*\n\s*|\s\d{1,2}\.[ \t]+)([A-Z][A-Z&',/ -]{3,40}[A-Z])\s*\.?[ \t]*\n"
    r"(?=\s*\S[^\n]{0,40}[a-z])"
)
_NO_CLAUSE = re.compile(r"^(?:ARTICLE\b|INTENTIONALLY LEFT BLANK$)")
_SUB_TOPICS = frozenset({"general", "definitions", "other"})  # bodies whose capital lines are their own parts


def own_clause(body: str, clause_type: str) -> str:
    """body up to a line of capitals inside it that heads another clause type ("... all such quantities.\n\nATTORNEY
    FEES\n\nShould either party be required ..." in an exclusivity section: the source's segmentation missed that
    heading) or no clause ("ARTICLE XI", "INTENTIONALLY LEFT BLANK"); a General or Definitions section keeps its
    parts ("NOTICES", "AGENT")."""
    if clause_type in _SUB_TOPICS:
        return body
    for m in _INNER_HEADING.finditer(body):
        heading = " ".join(m.group(1).split())
        if len(heading.split()) <= 6 and (
            _NO_CLAUSE.match(heading) or classify_heading(heading) not in (clause_type, "other")
        ):
            return body[: m.start()].rstrip()
    return body


_TITLE = r"(?:[A-Z][a-z]+|[A-Z]{2,})"
# words that open a sentence, not a heading ("Upon Customer's request", "By [PARTY_A].", "To [PARTY_A]'s knowledge")
_NOT_HEADING = (
    r"(?:This|The|Each|Either|Neither|In|If|Any|All|Such|No|Upon|By|Should|Both|At|To|Once|Where|When|For|From|With|"
    r"As|After|Before|Unless|Until|Whether|Except|Subject|Notwithstanding|During|Within|On|Under|Following|Prior|"
    r"Facsimile|Telephone|Attention|Attn|Email|Contract|[IVX]+)\b"
)
# what opens the sentence after a heading: a party marker and its verb, or a sentence's usual first word
_SENTENCE = (
    r"(?:\[PARTY_[AB]\](?:'s)? (?:shall|will|may|must|agrees|hereby|acknowledges|represents|warrants)\b"
    r"|(?:This|The|Each|Either|Neither|In|If|Any|All|Such|No|Subject|Notwithstanding|Except|Unless)\s(?![A-Z][a-z]+\.))"
)
_STOPLESS_HEADING = re.compile(
    rf"(?:^|(?<=\n\n))((?!{_NOT_HEADING}){_TITLE}(?:(?:[ ,;]+|[ ](?:of|and|for|to|the|or)[ ]){_TITLE}){{0,5}})"
    rf"[ ](?={_SENTENCE})"
)


def stop_run_in_headings(text: str) -> str:
    """text (normalized: parties as [PARTY_A]/[PARTY_B]) with a full stop after each paragraph's run-in heading that
    lost it when the source's numbering and line breaks went ("4.1 Delivery Terms   BII shall (a) deliver" ->
    "Delivery Terms. [PARTY_B] shall (a) deliver", "Assignment Neither party may" -> "Assignment. Neither party
    may"): a paragraph opening with up to six title-case words, then a sentence's opening (a party marker and its
    verb, or "This", "The", "Each", "Neither", ...). A phrase that opens a sentence itself ("Upon Customer's request",
    "By [PARTY_A].") is left as written."""
    return _STOPLESS_HEADING.sub(lambda m: m.group(1) + ". ", text)


# a sentence the source's page break cut, a hyphen left at its foot: "grants a license to resell the -\n\n[PARTY_A]
# Products to ..."; not a page number ("Confidential - 2 -") nor a sentence that ended
_PAGE_BREAK = re.compile(r"(?<=[A-Za-z,]) -\n\n(?=[\[A-Za-z])")


# a page's footer between two paragraphs ("16 17 CONFIDENTIAL", "Page 4 of 12"), a signature block ("By: /s/ ...
# Name: ... Title: ..."), an address or telephone block with no sentence in it ("55 Broad Street, 26th Floor ...
# 10004 Redwood City ... 415.568.6000 (voice)")
_FOOTER = re.compile(r"(?:\d{1,3}\s+){1,2}(?:CONFIDENTIAL|Confidential)|(?:Page|PAGE)\s+\d{1,3}(?:\s+of\s+\d{1,3})?")
_SIGNATURE = re.compile(r"\bBy:\s.*\b(?:Name|Title):", re.S)
# the signature page's lead-in: "[SIGNATURE PAGE FOLLOWS]", "IN WITNESS WHEREOF, the parties have ..."
_SIGNING = re.compile(
    r"\[?\s*(?:signature pages? follows?|remainder of (?:this )?page)|in witness (?:whereof|of)", re.I
)
_NUMBER_GROUP = re.compile(r"\b\d{3,}\b")
_SENTENCE_STOP = re.compile(r"[.;:!?](?:\s|$)")
_SPLIT = re.compile(r"(?<=[a-z,])\n\n(?=[a-z])")  # a sentence a removed footer had split: "including,\n\nbut not"


def _furniture(paragraph: str) -> bool:
    p = paragraph.strip()
    signed = _SIGNATURE.search(p)
    if _FOOTER.fullmatch(p) or _SIGNING.match(p) or signed and len(p[: signed.start()].split()) < 8:
        return True
    return not _SENTENCE_STOP.search(p) and len(_NUMBER_GROUP.findall(p)) >= 2


def join_page_breaks(text: str) -> str:
    """text with each sentence its source's page break split into two paragraphs (a hyphen at the foot of the first)
    joined again: "only a license to resell the -\n\n[PARTY_A] Products to ..." -> "... resell the [PARTY_A]
    Products to ...". Left split, the first half read as a sentence cut mid-way and went, and the second stood as a
    paragraph opening mid-sentence. A page's furniture goes too, and the sentence it split is joined again: a footer
    ("including,\n\n16 17 CONFIDENTIAL\n\nbut not limited to"), a signature block or its lead-in ("[SIGNATURE PAGE
    FOLLOWS]", "IN WITNESS WHEREOF, ..."), an address block with no sentence in it (a General clause's last part once
    its other parts went in a sponsorship draft)."""
    paragraphs = text.split("\n\n")
    kept = [p for p in paragraphs if not _furniture(p)]
    if len(kept) != len(paragraphs) and kept:
        text = _SPLIT.sub(" ", "\n\n".join(kept))
    return _PAGE_BREAK.sub(" ", text)
