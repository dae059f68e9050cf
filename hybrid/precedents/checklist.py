"""The kind's clause checklist and a draft's market check: which common clauses it holds, which it lacks.

Owns: the checklist items (ChecklistItem: a clause a lawyer expects in a contract of the template's kind,
with the phrases that find it in text), `checklist` (the items of one template: CUAD practice rates of
the kind's train contracts, the kind's standard forms' sections, the core risk clauses of every
commercial contract, the standard protections of an NDA), `market_check` (which items a draft's
sections hold, and where) and `real_coverage` (the same check over the kind's real train contracts:
the bar a draft's coverage is read against). Knows nothing of drafting, filling or ranking: imports
only hybrid.common, hybrid.data and hybrid.templates.

A CUAD category joins the checklist when PRACTICE_SHARE of the kind's train CUAD contracts are labelled
with it; a form's clause when that share of the kind's standard forms have a section of the clause's
type whose text holds it; the core and NDA lists always. An item's share is the largest the corpus knows.
Whether a text holds an item is its text's business, not its heading's: a cap inside "General" is a cap.

Held-out data stays held out: statistics come only from contracts whose manifest entry is in the train
split (an assert guards every count); documents come from load_documents(splits=("train",)). CUAD's
master_clauses.csv is one file holding every split, so it is read whole, but a row counts only
through a train entry joined to it by hybrid.data.cuad.file_key (the CSV names "<stem>.pdf", the
manifest "cuad/contracts/<stem>.txt").
"""

import csv
import re
import statistics
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from hybrid.data.corpus import CUAD_CSV, STANDARD_SOURCES, corpus_root, load_documents, load_manifest
from hybrid.data.cuad import file_key
from hybrid.templates.template import Template, load_template

__all__ = ["ChecklistItem", "checklist", "market_check", "real_coverage", "cuad_practice", "PRACTICE_SHARE", "ORIGINS",
           "CORE", "NDA"]

PRACTICE_SHARE = 0.5  # a CUAD category or a form's clause is on the checklist when this share of the kind holds it
MIN_CONTRACTS = 3  # fewer CUAD contracts of a kind say what those contracts hold, not what the market does
MIN_CONTRACT_WORDS = 400  # NDA cover pages and filing fragments hold too few clauses to set a contract's bar
MIN_BODY_WORDS = 5  # a body shorter than this ("[Reserved]") holds no clause whatever its heading says
ORIGINS = ("cuad", "form", "core", "nda")  # also the order in which an equal share keeps its origin


@dataclass(frozen=True)
class ChecklistItem:
    key: str  # stable id, e.g. "cap_on_liability"
    label: str  # the lawyer's name, e.g. "Limitation of liability"
    clause: str  # the hybrid.data.clauses.CLAUSE_TYPES type such a clause normally sits in (where to insert it)
    share: float | None  # share of the kind's real train contracts holding it; None where the corpus cannot say
    origin: str  # one of ORIGINS: what put it on the checklist
    patterns: tuple[str, ...]  # regexes over lower-cased text, any of which finds the clause in a section


_G = r"[^.;]{0,120}?"  # a gap inside one sentence: "in no event shall X be liable" but not across sentences
_FREE = r"(?![^.;]{0,100}(?:breach|default|fail|insolv|bankrupt|\bif\b|in the event))"  # no cause follows

# key: (label, clause type, CUAD category or None, patterns). One row per item; CUAD's purely descriptive
# categories (Document Name, Parties, Agreement/Effective/Expiration Date) describe a deal, not a clause.
_ITEMS: dict[str, tuple[str, str, str | None, tuple[str, ...]]] = {
    "renewal_term": ("Renewal term", "term", "Renewal Term", (
        r"automatic(?:ally)? renew", r"renewal (?:term|period)", rf"(?:automatically|thereafter){_G}continue",
        rf"\brenew(?:ed|al)?{_G}(?:successive|additional|further|subsequent|consecutive)",
        rf"extend{_G}(?:term|additional|further)")),
    "renewal_notice": ("Notice to prevent renewal", "term", "Notice Period To Terminate Renewal", (
        r"not to renew", r"non-?\s?renewal", rf"notice{_G}(?:prior to|before){_G}(?:expiration|end|renewal)")),
    "governing_law": ("Governing law", "governing_law", "Governing Law", (
        rf"governed{_G}laws?\b", rf"construed{_G}(?:accordance with|under){_G}laws?\b", r"governing law")),
    "most_favored_nation": ("Most-favoured pricing", "payment", "Most Favored Nation", (
        r"most favou?red", rf"(?:price|terms){_G}(?:no less|more) favou?rable", r"(?:lowest|best) price")),
    "competitive_restriction_exception": (
        "Exceptions to the competition restrictions", "exclusivity", "Competitive Restriction Exception", (
        rf"nothing{_G}(?:prevent|restrict|prohibit|limit){_G}(?:engag|develop|market|sell|compet|licens)",
        rf"notwithstanding{_G}(?:exclusiv|non-?compet)", rf"except{_G}exclusiv")),
    "non_compete": ("Non-compete", "exclusivity", "Non-Compete", (
        r"non-?compet", rf"shall not{_G}(?:compete|engage in{_G}compet)",
        r"compet(?:ing|itive) (?:product|business|service)")),
    "exclusivity": ("Exclusivity", "exclusivity", "Exclusivity", (
        r"(?<!non-)(?<!non)\bexclusive (?:distribut|licen[cs]e|basis|supplier|provider|reseller|agent|sponsor|territ"
        r"|right to (?:sell|distribut|market|promot|provide|supply|purchas|manufactur|represent))",
        r"exclusively (?:from|to|through|with|for)\b", r"sole (?:and exclusive )?(?:distributor|supplier|source)")),
    "no_solicit_customers": ("No solicitation of customers", "exclusivity", "No-Solicit Of Customers", (
        rf"solicit{_G}(?:customers?|clients?)",)),
    "no_solicit_employees": ("No solicitation of employees", "exclusivity", "No-Solicit Of Employees", (
        rf"solicit{_G}(?:employ|hire|personnel|staff)", rf"(?:hire|employ){_G}employees of")),
    "non_disparagement": ("Non-disparagement", "publicity", "Non-Disparagement", (r"disparag",)),
    "termination_for_convenience": ("Termination for convenience", "termination", "Termination For Convenience", (
        rf"terminat{_G}(?:for convenience|without cause|for any reason or no reason|for no reason)",
        rf"may terminate{_G}(?:at any time|(?:days|weeks|months)\W{{0,3}}(?:prior )?(?:written )?notice){_FREE}")),
    "first_refusal": ("Right of first refusal, offer or negotiation", "exclusivity", "Rofr/Rofo/Rofn", (
        r"first refusal", r"first (?:right|option) to (?:negotiate|purchase|acquire)",
        r"right of first (?:offer|negot)")),
    "change_of_control": ("Change of control", "assignment", "Change Of Control", (
        r"change (?:of|in) control", r"(?:sale|transfer) of (?:all or )?substantially all",
        r"merger or consolidation")),
    "anti_assignment": ("Assignment (consent required)", "assignment", "Anti-Assignment", (
        rf"(?:not|no){_G}assign", rf"assign{_G}without{_G}consent", r"may not be (?:assigned|transferred)")),
    "revenue_sharing": ("Revenue or profit sharing", "payment", "Revenue/Profit Sharing", (
        r"royalt(?:y|ies)", rf"(?:percent|%){_G}(?:revenue|sales|profits?|receipts)\b",
        r"(?:revenue|profit)s?[- ]shar")),
    "price_restrictions": ("Price restrictions", "payment", "Price Restrictions", (
        rf"(?:not|no){_G}(?:increase|raise){_G}price", r"prices? (?:shall|will) (?:remain )?(?:fixed|firm)")),
    "minimum_commitment": ("Minimum commitment", "products", "Minimum Commitment", (
        r"minimum (?:\w+ ){0,2}(?:purchase|order|quantit|commitment|volume|sales|fee|guarantee|royalt|payment|units)",
        r"(?:not less than|at least) (?:\w+ ){0,3}(?:\(\d+\) )?(?:units|impressions|orders)")),
    "volume_restriction": ("Volume restriction", "products", "Volume Restriction", (
        rf"(?:maximum|not exceed|in excess of){_G}(?:units|volume|quantit|users|copies)",)),
    "ip_ownership_assignment": ("Assignment of IP ownership", "intellectual_property", "Ip Ownership Assignment", (
        r"hereby (?:irrevocably )?assigns?", r"works? made for hire", rf"(?:shall|will) (?:vest|belong){_G}(?:to|in)",
        r"(?:shall|will) be the (?:sole )?(?:and )?(?:exclusive )?property of",
        # Common Paper's professional services form: "Provider assigns all right, title, and interest in the
        # Deliverables ... to Customer" (the contractor form's IP section had been inserted beside it)
        r"\bassigns? (?:to \w+ )?all (?:of its )?right, title,? and interest")),
    "joint_ip_ownership": ("Joint IP ownership", "intellectual_property", "Joint Ip Ownership", (
        r"joint(?:ly)? own", r"co-?own")),
    "license_grant": ("Licence grant", "license", "License Grant", (
        rf"grants?{_G}licen[cs]e", r"licen[cs]e to (?:use|reproduce|distribute|display|make|sell|market)")),
    "non_transferable_license": ("Non-transferable licence", "license", "Non-Transferable License", (
        r"non-?transferable", r"non-?sub-?licens")),
    "affiliate_license_licensor": ("Licence from the licensor's affiliates", "license", "Affiliate License-Licensor", (
        rf"affiliates{_G}(?:hereby )?grants?{_G}licen",)),
    "affiliate_license_licensee": ("Licence to the licensee's affiliates", "license", "Affiliate License-Licensee", (
        rf"licen[cs]e{_G}(?:its|their) affiliates", rf"affiliates{_G}(?:may|to) use")),
    "unlimited_license": ("Unlimited-use licence", "license", "Unlimited/All-You-Can-Eat-License", (
        r"unlimited (?:number|use|copies|users|licen)", r"enterprise[- ]wide")),
    "perpetual_license": ("Irrevocable or perpetual licence", "license", "Irrevocable Or Perpetual License", (
        rf"(?:irrevocable|perpetual){_G}licen[cs]e", rf"licen[cs]e{_G}(?:irrevocable|perpetual)")),
    "use_restrictions": ("Restrictions on use", "license", None, (
        r"reverse engineer", r"decompil",
        rf"(?:not|no){_G}(?:sublicens|resell|rent|lease){_G}(?:product|servic|softw)")),
    "source_code_escrow": ("Source code escrow", "license", "Source Code Escrow", (r"escrow",)),
    "post_termination": ("Post-termination obligations", "termination", "Post-Termination Services", (
        r"sell-?off", r"wind-?down", r"transition (?:services|period|assistance)", r"effect of termination",
        rf"(?:upon|after|following) (?:the )?(?:termination|expiration|expiry){_G}"
        r"(?:continue|sell|inventory|stock|purchase|deliver|provide|support|cease)")),
    "audit_rights": ("Audit rights", "audit", "Audit Rights", (
        r"\baudit", rf"inspect{_G}(?:books|records|accounts)", rf"(?:books|records){_G}(?:inspect|examin)")),
    "uncapped_liability": ("Carve-outs from the liability cap", "limitation_of_liability", "Uncapped Liability", (
        rf"(?:limitation|exclusion)s?{_G}(?:shall|will|do) not apply{_G}(?:indemn|breach|gross negligence|willful)",
        rf"(?:except|excluding|other than){_G}(?:indemnif|gross negligence|willful misconduct|fraud)")),
    "cap_on_liability": ("Limitation of liability", "limitation_of_liability", "Cap On Liability", (
        rf"in no event{_G}liable", r"aggregate liability", rf"liability{_G}(?:shall|will) not exceed",
        rf"(?:not|neither party){_G}(?:liable|responsible){_G}(?:indirect|incidental|consequential|special|punitive)",
        rf"(?:waive|recover){_G}(?:indirect|incidental|consequential|special|punitive){_G}(?:damages|loss)",
        r"(?:total|maximum|cumulative) liability", r"consequential damages")),
    "liquidated_damages": ("Liquidated damages", "remedies", "Liquidated Damages", (
        r"liquidated damages", r"(?:termination|break-?up|cancell?ation) fee")),
    "warranty_duration": ("Warranty period", "warranties", "Warranty Duration", (
        r"warranty period", rf"(?:warrant|defect){_G}(?:days|months|years?){_G}(?:after|from|following)\b",
        rf"(?:reject|claims?){_G}within{_G}(?:days|hours)")),
    "insurance": ("Insurance", "insurance", "Insurance", (
        rf"(?:maintain|carry|procure|obtain|keep){_G}insurance", r"insurance (?:polic|coverage|certificate)",
        r"certificates? of insurance", r"additional(?:ly)? insured")),
    "covenant_not_to_sue": (
        "No challenge to IP (covenant not to sue)", "intellectual_property", "Covenant Not To Sue", (
        rf"(?:not|never){_G}(?:contest|challenge|attack|oppose){_G}(?:validity|ownership|rights?|title)",
        r"covenant not to sue", rf"not to (?:sue|commence|initiate|bring){_G}(?:infring|intellectual|patent|mark)")),
    "third_party_beneficiaries": ("Third-party beneficiaries", "general", "Third Party Beneficiary", (
        r"third[- ]party beneficiar",)),
    # core risk clauses and the standard forms' clauses that no CUAD category names
    "warranties": ("Warranties", "warranties", None, (r"represents? and warrants?", r"warrants? (?:that|to)")),
    "warranty_disclaimer": ("Warranty disclaimer", "warranties", None, (
        r"\bas is\b", r"merchantability", r"fitness for a particular purpose", rf"disclaims?{_G}warrant")),
    "indemnity": ("Indemnification", "indemnification", None, (r"indemnif", rf"hold{_G}harmless")),
    "confidentiality": ("Confidentiality", "confidentiality", None, (
        r"confidential information", rf"(?:keep|hold|maintain|treat){_G}confiden", r"non-?disclosure")),
    "termination_for_breach": ("Termination for breach", "termination", None, (
        r"material(?:ly)? breach", rf"terminat{_G}breach", r"fail(?:s|ure)? to cure", rf"breach{_G}un\s?cured")),
    "notices": ("Notices", "notices", None, (
        rf"notices?{_G}(?:shall|must|will) be (?:in writing|given|sent|delivered|deemed)", r"(?:all|any) notices?\b")),
    "term": ("Term", "term", None, (
        rf"(?:initial )?term of{_G}agreement", r"(?:remain|continue) in (?:full )?(?:force|effect)", r"commenc")),
    "payment": ("Payment", "payment", None, (r"\binvoice", rf"\bfees?\b{_G}(?:payable|due|paid)", r"payment terms")),
    "taxes": ("Taxes", "taxes", None, (r"\btax(?:es)?\b",)),
    "intellectual_property": ("Intellectual property ownership", "intellectual_property", None, (
        rf"(?:retains?|owns?){_G}(?:right, title|rights?|title)", r"intellectual property rights")),
    "force_majeure": ("Force majeure", "force_majeure", None, (
        r"force majeure", r"acts? of god", rf"beyond{_G}(?:reasonable )?control")),
    "publicity": ("Publicity", "publicity", None, (r"publicity", r"press release", r"public announcement")),
    "relationship": ("Relationship of the parties", "relationship", None, (
        r"independent contractors?", rf"(?:no|not){_G}(?:partnership|joint venture|agency|employment)")),
    "compliance_with_laws": ("Compliance with laws", "compliance", None, (
        rf"compl(?:y|iance){_G}(?:applicable )?laws", r"export (?:control|law)", r"anti-?(?:bribery|corruption)")),
    "dispute_resolution": ("Dispute resolution", "dispute_resolution", None, (
        r"arbitrat", r"mediat", r"exclusive jurisdiction", rf"submits?{_G}jurisdiction", r"\bvenue\b")),
    "entire_agreement": ("Entire agreement", "entire_agreement", None, (
        r"entire agreement", rf"supersedes?{_G}(?:prior|previous)", r"complete and exclusive (?:statement|agreement)")),
    "amendment": ("Amendment", "amendment", None, (
        rf"(?:amend|modif)\w*{_G}(?:in writing|signed|written)", r"no (?:amendment|modification)")),
    "severability": ("Severability", "severability", None, (
        r"severab", rf"(?:invalid|illegal|unenforceable){_G}(?:remaining|remainder|other) provisions")),
    "counterparts": ("Counterparts", "counterparts", None, (r"counterparts",)),
    "survival": ("Survival", "survival", None, (r"surviv",)),
    "remedies": ("Remedies", "remedies", None, (r"remed(?:y|ies)", r"injunct", r"equitable relief")),
    "definitions": ("Definitions", "definitions", None, (
        r"[\"\u201c][^\"\u201d]{1,60}[\"\u201d]\s*(?:means|shall mean|has the meaning|refers to)",)),
    # an NDA's standard protections
    "ci_exclusions": ("Exclusions from confidential information", "confidentiality", None, (
        r"public(?:ly)? (?:available|known)", r"public domain", r"independently developed",
        r"rightfully (?:received|obtained|knew|known)", r"(?:already|previously) known")),
    "compelled_disclosure": ("Compelled disclosure", "confidentiality", None, (
        rf"required{_G}(?:by|under) (?:applicable )?(?:law|court|regulation|statute)", r"court order", r"subpoena",
        r"compelled", rf"order of{_G}court")),
    "return_or_destruction": ("Return or destruction", "confidentiality", None, (
        rf"return{_G}(?:or|and/or){_G}destr", rf"destr\w*{_G}(?:or|and/or){_G}return")),
    "no_license": ("No licence granted", "intellectual_property", None, (
        rf"no (?:licen[cs]e|rights?){_G}(?:granted|conveyed|implied)", rf"(?:grants?|conveys?) no{_G}(?:licen|right)",
        rf"(?:not|nothing){_G}(?:grant|construed{_G}grant|confer){_G}(?:licen[cs]e|rights?)")),
    "nda_no_warranty": ("No warranty (information as is)", "warranties", None, (
        r"\bas is\b", r"no (?:representations? or )?warrant", rf"makes? no{_G}(?:representation|warrant)",
        r"without (?:any )?warrant")),
    "equitable_relief": ("Remedies and equitable relief", "remedies", None, (
        r"irreparabl", r"injunct", r"equitable relief", r"specific performance")),
    "term_and_survival": ("Term and survival", "termination", None, (
        r"surviv", rf"(?:remain in effect|in effect|continue){_G}(?:years?|months?)\b")),
}
_CUAD_KEYS = {category: key for key, (_, _, category, _) in _ITEMS.items() if category}
CORE = ("warranties", "warranty_disclaimer", "indemnity", "cap_on_liability", "confidentiality",
        "termination_for_breach", "anti_assignment", "notices", "governing_law")
NDA = ("ci_exclusions", "compelled_disclosure", "return_or_destruction", "no_license", "nda_no_warranty",
       "equitable_relief", "term_and_survival", "governing_law")
# what an NDA form's sections may put on an NDA's checklist besides its protections: its boilerplate, not the
# commercial items ("Disclaimer" there is the information's "as is", not a warranty disclaimer)
_NDA_FORM_KEYS = (*NDA, "confidentiality", "definitions", "notices", "anti_assignment", "dispute_resolution",
                  "entire_agreement", "amendment", "severability", "counterparts")
# patterns are matched against lower-cased text without re.I, which is ~4x faster on long contracts
_COMPILED = {key: [re.compile(p) for p in row[3]] for key, row in _ITEMS.items()}


def _kind(template: Template | str) -> tuple[str, str, tuple[str, ...]]:
    """(corpus root, doc type, the kinds of corpus documents it stands on): the cache key of everything below
    (a Template is unhashable, and two templates of one kind share their checklist)."""
    t = load_template(template)
    kinds = tuple(sorted({k.upper() for k in [t.doc_type, *t.grounding.get("doc_types", [])]}))
    return str(corpus_root()), t.doc_type, kinds


def _train_entries(root: str, kinds: tuple[str, ...], sources: tuple[str, ...]) -> list[dict]:
    return [e for e in load_manifest(root)
            if e["split"] == "train" and e["source"] in sources and e["doc_type"].upper() in kinds]


def _cuad_shares(entries: list[dict], labels: dict[str, dict[str, bool]]) -> tuple[dict[str, float], int]:
    """Per CUAD category, the share of the joined contracts labelled with it; and how many joined."""
    rows = []
    for e in entries:
        assert e["split"] == "train", f"statistics read only train contracts, got {e['split']} {e['path']}"
        if file_key(e["path"]) in labels:
            rows.append(labels[file_key(e["path"])])
    return {c: sum(r[c] for r in rows) / len(rows) for c in _CUAD_KEYS} if rows else {}, len(rows)


@lru_cache(maxsize=2)
def _cuad_labels(root: str) -> dict[str, dict[str, bool]]:
    """{file_key: {category: labelled}} for every row of master_clauses.csv (any split: _cuad_shares filters)."""
    path = Path(root) / CUAD_CSV
    if not path.is_file():
        return {}
    with open(path, encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        answer = {c: next(h for h in reader.fieldnames if h.startswith(c) and h.endswith("Answer")) for c in _CUAD_KEYS}
        # yes/no categories answer "Yes"/"No"; the others (Renewal Term, Governing Law, ...) answer a text
        # when present, and their span column is "[]" when absent
        return {file_key(row["Filename"]): {
            c: row[a].strip() == "Yes" if row[a].strip() in ("Yes", "No")
            else bool(row[a].strip()) or row[c].strip() not in ("", "[]") for c, a in answer.items()}
            for row in reader}


def cuad_practice(template: Template | str) -> dict:
    """{"n": train CUAD contracts of the template's kinds joined to the CSV, "shares": {category: share}}."""
    root, _, kinds = _kind(template)
    shares, n = _cuad_shares(_train_entries(root, kinds, ("cuad",)), _cuad_labels(root))
    return {"n": n, "shares": shares}


def _documents(root: str, kinds: tuple[str, ...], sources: tuple[str, ...]) -> list:
    """The train documents of the kinds from the given sources (none opened when the manifest has none)."""
    wanted = _train_entries(root, kinds, sources)
    if not wanted:
        return []
    docs = load_documents(root, splits=("train",), sources=tuple(sorted({e["source"] for e in wanted})))
    # a cover page that incorporates standard terms by reference (166-221 words) holds none of their clauses
    docs = [d for d in docs if d.doc_type.upper() in kinds and len(d.text.split()) >= MIN_CONTRACT_WORDS]
    assert all(d.split == "train" for d in docs), "statistics read only train documents"
    return docs


def _prepared(sections: list[dict]) -> list[tuple[int, str, str, str]]:
    """(index, heading, clause, lower-cased heading + body) of each section with a non-trivial body."""
    return [(i, s.get("heading") or "", s.get("clause") or "", f"{s.get('heading') or ''}\n{s['body']}".lower())
            for i, s in enumerate(sections) if len((s.get("body") or "").split()) >= MIN_BODY_WORDS]


def _where(key: str, prepared: list[tuple[int, str, str, str]], clause: str | None = None) -> list[dict]:
    return [{"index": i, "heading": heading} for i, heading, c, text in prepared
            if (clause is None or c == clause) and any(p.search(text) for p in _COMPILED[key])]


def _form_shares(forms: list, nda: bool) -> tuple[dict[str, float], dict[str, float]]:
    """Per item, the share of the standard forms holding it anywhere (as market_check reads a draft), and the
    share with a section of the item's own clause type that holds it (what puts it on the checklist)."""
    if not forms:
        return {}, {}
    keys = _NDA_FORM_KEYS if nda else [k for k in _ITEMS if k not in NDA or k in CORE]
    prepared = [_prepared(_sections(d)) for d in forms]
    anywhere = {k: sum(bool(_where(k, p)) for p in prepared) / len(forms) for k in keys}
    return anywhere, {k: sum(bool(_where(k, p, _ITEMS[k][1])) for p in prepared) / len(forms) for k in keys}


def _sections(d) -> list[dict]:
    # a contract whose numbering the splitter missed (or that puts terms in its exhibits) still holds
    # those clauses: its preamble and tail count as two more unnamed sections
    return ([{"heading": s.heading, "clause": s.clause_type, "body": s.body} for s in d.sections]
            + [{"heading": "", "body": t} for t in (d.preamble, d.tail)])


@lru_cache(maxsize=64)
def _items(root: str, doc_type: str, kinds: tuple[str, ...]) -> tuple[ChecklistItem, ...]:
    nda = "NDA" in doc_type.upper() or "NON-DISCLOSURE" in doc_type.upper()
    cuad, n_cuad = _cuad_shares(_train_entries(root, kinds, ("cuad",)), _cuad_labels(root))
    share = {_CUAD_KEYS[c]: s for c, s in cuad.items()} if n_cuad >= MIN_CONTRACTS else {}
    # one standard form is itself the market's statement of the kind, so forms need no minimum count
    form_share, typed = _form_shares(_documents(root, kinds, STANDARD_SOURCES), nda)
    candidates = [(k, s, "cuad") for k, s in share.items() if s >= PRACTICE_SHARE]
    candidates += [(k, form_share[k], "form") for k, s in typed.items() if s >= PRACTICE_SHARE]
    # a fixed item still carries the corpus's share where the corpus knows one
    candidates += [(k, share.get(k, form_share.get(k)), "nda" if nda else "core") for k in (NDA if nda else CORE)]
    best: dict[str, tuple[float | None, str]] = {}
    for key, s, origin in candidates:
        if key not in best or (s is not None and (best[key][0] is None or s > best[key][0])):
            best[key] = (s, origin)
    order = {k: i for i, k in enumerate(_ITEMS)}
    return tuple(ChecklistItem(k, _ITEMS[k][0], _ITEMS[k][1], None if s is None else round(s, 3), o, _ITEMS[k][3])
                 for k, (s, o) in sorted(best.items(), key=lambda kv: (-(kv[1][0] or 0.0), order[kv[0]])))


def checklist(template: Template | str) -> list[ChecklistItem]:
    """The clauses a contract of the template's kind is expected to hold, most common first (see module doc)."""
    return list(_items(*_kind(template)))


def _check(items: tuple[ChecklistItem, ...], sections: list[dict]) -> dict:
    assert items, "every checklist holds the core or NDA items"
    prepared = _prepared(sections)
    rows = [{"key": it.key, "label": it.label, "clause": it.clause, "share": it.share, "origin": it.origin,
             "held": bool(where), "where": where} for it in items for where in [_where(it.key, prepared)]]
    held = sum(r["held"] for r in rows)
    return {"items": rows, "held": held, "total": len(rows), "coverage": round(held / len(rows), 3),
            "lacking": [r["label"] for r in rows if not r["held"]]}


def market_check(template: Template | str, sections: list[dict]) -> dict:
    """Which checklist items a draft's sections ({"heading", "clause", "body"} each) hold and where:
    {"items": [{"key", "label", "clause", "share", "origin", "held", "where": [{"index", "heading"}]}],
     "held": k, "total": m, "coverage": k / m, "lacking": [labels]}."""
    return _check(_items(*_kind(template)), sections)


@lru_cache(maxsize=64)
def _coverage(root: str, doc_type: str, kinds: tuple[str, ...]) -> dict:
    items = _items(root, doc_type, kinds)
    checks = [_check(items, _sections(d)) for d in _documents(root, kinds, ("cuad", *STANDARD_SOURCES))]
    cov = [c["coverage"] for c in checks]
    return {"n": len(checks), "mean": round(statistics.fmean(cov), 3) if cov else None,
            "median": round(statistics.median(cov), 3) if cov else None,
            "held_share": {it.key: round(sum(c["items"][i]["held"] for c in checks) / len(checks), 3)
                           for i, it in enumerate(items)} if checks else {}}


def real_coverage(template: Template | str) -> dict:
    """market_check over the real train contracts of the template's kinds (CUAD and standard forms):
    {"n": documents, "mean", "median": coverage (None when n is 0), "held_share": {key: share holding it}}."""
    c = _coverage(*_kind(template))
    return {**c, "held_share": dict(c["held_share"])}  # the cached copy stays unchanged
