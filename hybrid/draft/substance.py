"""Consistency of substance over a finished draft: one term, exclusivity stated one way, roles as the
template defines them. Pure string checks, no model.

Owns: `substance_checks` (every check of `CHECKS` over a draft's numbered sections, with a JSON-able
report: each finding names its check, section, heading, the quoted sentence and why it is one) and
the checks themselves, each a small function over the draft's sentences:
- term: the statements of the agreement's initial term ("continues for 24 months", "terminate on the
  third anniversary") name one duration, the deal's own where the deal gives one; a renewal term, a
  notice period or a survival period is no statement of the term (what a duration and a statement of the
  term are: hybrid.text.term);
- exclusivity: an appointment or grant is not stated both exclusive and non-exclusive, nor the appointment
  otherwise than the deal says (by hybrid.text.appointment: `exclusivity_statement`, which appointment or grant a
  sentence states, and which way; `deal_exclusivity`, which way the deal says; hybrid.text.exclusivity mends by these
  same two);
- roles (from the template's optional `roles`): the paid party is not given a cure period for
  nonpayment nor told to pay the paying party, the IP owner's counterpart does not retain the IP in an
  assignment section, the appointed party does not appoint, the promoting party is not promoted,
  the delivering party's counterpart does not deliver; and a deal with a term holds no one-off sale
  clause ("terminate at any time prior to delivery").
Reports only: never edits a section (the consistency pass and the reviser do), never reads files,
models or the precedent library. Sentences are split by hybrid.common.sentences.
"""

import re

from hybrid.common.sentences import sentence_boundaries
from hybrid.data.roles import FAMILIES, family_of
from hybrid.text.appointment import APPOINTMENT, deal_exclusivity, exclusivity_statement, parties
from hybrid.text.term import DURATION, NOT_TERM, TERM_SUBJECT, canonical_duration, parse_duration

__all__ = ["CHECKS", "TERM_FIELDS", "substance_checks"]

TERM_FIELDS = ("term_length", "nda_term", "subscription_term", "sponsorship_term")
"""Fields that state the agreement's initial term (a licence term is the licence's, not the agreement's)."""

_SPLIT = re.compile(r";|:\s|,\s+(?:and|but|or|provided)\b")  # the clauses of a sentence, each read alone
_TERM_LEAD = re.compile(  # the words just before the duration: "for a period of", "on the", "is"
    r"\b(?:for|of|is|be|on|upon|until|through|expires?|terminates?|ends?)\s+(?:an?\s+|the\s+)?"
    r"(?:(?:initial|fixed|original)\s+)?(?:(?:period|term)\s+of\s+)?$", re.I)
_NOT_TERM_AFTER = re.compile(  # "90 days' notice", "3 years after it expires" ("after the Effective Date" is a term)
    r"^\W*(?:'s|’s)?\s*(?:prior |advance )?(?:written )?notice|^\s*thereafter\b"
    r"|^\s*(?:after|following)\b(?!\s+the\s+(?:Effective Date|date (?:hereof|of this Agreement)))", re.I)
_ASSIGNMENT_HEADING = re.compile(r"assign|work product|ownership", re.I)
_ASSIGNS = re.compile(r"\bhereby assigns?\b|\bshall assign\b|\bwork made for hire\b", re.I)
_OWN_MATERIAL = re.compile(r"pre-?existing|background|prior|independently|\bContent\b|\bdata\b", re.I)
_ONE_OFF = re.compile(r"\bterminat\w*\b[^.;]{0,100}?\bat any time (?:prior to|before) (?:the )?(?:delivery|shipment)",
                      re.I)
_DELIVERABLE = r"(?:Products?|Services?|goods|Deliverables|Software|Application|Cloud Service)"
_MODAL = r"(?:shall|will|must|agrees? to|undertakes? to)"


def _shown(duration: tuple[int, str]) -> str:
    qty, unit = duration
    return f"{qty // 12} years" if unit == "months" and qty % 12 == 0 else f"{qty} {unit}"


def _finding(check: str, sent: tuple, why: str, other: "tuple | None" = None) -> dict:
    out = {"check": check, "section": sent[0], "heading": sent[1], "quote": sent[2], "why": why}
    if other is not None:
        out["other"] = {"section": other[0], "heading": other[1], "quote": other[2]}
    return out


def _sentences(sections: list[dict]) -> list[tuple[int, str, str]]:
    """(section index, heading, sentence) of every sentence of every section body, in order."""
    out = []
    for i, sec in enumerate(sections):
        body, start = sec.get("body", ""), 0
        for end in [*sentence_boundaries(body), len(body)]:
            if body[start:end].strip():
                out.append((i, sec.get("heading", ""), " ".join(body[start:end].split())))
            start = end
    return out


def _side_words(role: str) -> str:
    """A pattern for a role and the words of its family ("Consultant" also reads "Contractor")."""
    words = {role, *FAMILIES.get(family_of(role) or "", ())} - {"Agreement"}
    return r"(?:the\s+)?(?:" + "|".join(sorted(map(re.escape, words), key=len, reverse=True)) + r")\b"


def _other(template, role: str) -> "str | None":
    rest = [p for p in parties(template) if p != role]
    return rest[0] if len(rest) == 1 else None


def _role_pair(template, key: str) -> "tuple[str | None, str | None]":
    """(the role the template declares under `key`, its counterpart); None for what is not declared."""
    role = template.roles.get(key) if template else None
    return role, (_other(template, role) if role else None)


def _term_statements(sents, template, values):
    """The agreement's initial term is stated once: every statement names the deal's term field's
    duration (else the first statement's); renewal, notice and survival periods are not the term."""
    stated = []
    for sent in sents:
        for clause in _SPLIT.split(sent[2]):
            for m in DURATION.finditer(clause):
                before, after = clause[: m.start()], clause[m.end():]
                if (TERM_SUBJECT.search(before) and _TERM_LEAD.search(before) and not NOT_TERM.search(before)
                        and not _NOT_TERM_AFTER.search(after)):
                    stated.append((sent, canonical_duration(m)))
    name = next((f for f in TERM_FIELDS if values.get(f)), None)
    deal = parse_duration(str(values[name])) if name else None
    ref = deal or (stated[0][1] if stated else None)
    out = []
    for sent, duration in stated:
        if duration != ref:
            if deal:
                why = f"states the term as {_shown(duration)}; the deal's {name} is {values[name]}"
                out.append(_finding("term", sent, why))
            else:
                first = stated[0][0]
                out.append(_finding("term", sent, f"states the term as {_shown(duration)}; section {first[0] + 1} "
                                    f"states {_shown(ref)}", first))
    return out


def _exclusivity(sents, template, values):
    """One appointment or grant (exclusivity_statement's key: kind, licence noun and parties) is not stated both
    exclusive and non-exclusive, nor the appointment otherwise than the deal's exclusivity (deal_exclusivity) says."""
    seen: dict = {}
    deal = deal_exclusivity(values)
    out = []
    for sent in sents:
        stated = exclusivity_statement(sent[2], template)
        if stated is None:
            continue
        kind, key = stated[:2]
        seen.setdefault(key, {}).setdefault(kind, sent)
        opposite = seen[key].get("exclusive" if kind == "non-exclusive" else "non-exclusive")
        if opposite is not None and seen[key][kind] is sent:
            what = "appointment" if key == APPOINTMENT else "grant"
            out.append(_finding("exclusivity", sent, f"states a {kind} {what}; section {opposite[0] + 1} states the "
                                f"same {what} the other way", opposite))
        elif key == APPOINTMENT and deal and kind != deal[1]:
            out.append(_finding("exclusivity", sent, f"states a {kind} appointment; the deal's {deal[0]} is "
                                f"{values[deal[0]]}"))
    return out


def _paid_party_cures_nonpayment(sents, template, values):
    """The paid party is given no cure period for nonpayment and is not the one failing to pay."""
    paid, pays = (template.roles.get("paid"), template.roles.get("pays") or "") if template else (None, "")
    if not paid:
        return []
    not_payer = rf"(?:(?!\b{re.escape(pays)}\b)[^.;])" if pays else "[^.;]"  # "Host shall give Customer time to cure"
    pat = re.compile(rf"\b{re.escape(paid)}\b{not_payer}{{0,80}}?\bcure\b[^.;]{{0,40}}?\b(?:non-?payment|failure "
                     rf"to pay|late payment|unpaid)|\b{re.escape(paid)}\s+(?:fails|failure)\s+to\s+pay\b")
    return [_finding("cure_for_nonpayment", s, f"the {paid} is the party paid, yet is the one that fails to pay "
                     "or cures nonpayment") for s in sents if pat.search(s[2])]


def _paid_party_pays(sents, template, values):
    """The paid party is not told to pay the paying party for the products, services or fees."""
    paid, pays = (template.roles.get("paid"), template.roles.get("pays")) if template else (None, None)
    if not (paid and pays):
        return []
    pat = re.compile(rf"\b{re.escape(paid)}\s+{_MODAL}\s+pay\s+(?:to\s+)?(?:the\s+)?{re.escape(pays)}\b(?![^.;]*"
                     rf"(?:refund|credit|reimburs|damages|indemn))[^.;]*?(?:\bfor\s+(?:the\s+|all\s+|any\s+)?"
                     rf"{_DELIVERABLE}|\b(?:fees|price|compensation|consideration|royalt(?:y|ies))\b)")
    return [_finding("paid_party_pays", s, f"the {paid} is paid by the {pays}, not the other way")
            for s in sents if pat.search(s[2])]


def _ip_retained_by_counterpart(sents, template, values):
    """In an assignment section, the IP owner's counterpart does not retain the IP (its own
    pre-existing or background material aside)."""
    owner, other = _role_pair(template, "owns_ip")
    if not other:
        return []
    pat = re.compile(rf"\b{_side_words(other)}[^.;]{{0,60}}?\bretains?\b[^.;]{{0,60}}?(?:intellectual property|right, "
                     r"title and interest|ownership)", re.I)
    assignment = {s[0] for s in sents if _ASSIGNMENT_HEADING.search(s[1]) or _ASSIGNS.search(s[2])}
    return [_finding("ip_retained_by_counterpart", s, f"the {owner} owns or receives the IP; its counterpart "
                     "retains it in an assignment section") for s in sents
            if s[0] in assignment and pat.search(s[2]) and not _OWN_MATERIAL.search(s[2])]


def _appointment_reversed(sents, template, values):
    """The appointed party does not appoint the other."""
    appointed = template.roles.get("appointed") if template else None
    if not appointed:
        return []
    pat = re.compile(rf"\b{re.escape(appointed)}\s+(?:hereby\s+)?appoints\b")
    return [_finding("appointment_reversed", s, f"the {appointed} is the party appointed, not the one appointing")
            for s in sents if pat.search(s[2])]


def _promotion_reversed(sents, template, values):
    """The party that promotes is not the one promoted: its counterpart promotes nothing but itself."""
    promotes, other = _role_pair(template, "promotes")
    if not other:
        return []
    pat = re.compile(rf"\b{re.escape(other)}\s+{_MODAL}\s+(?:actively\s+)?(?:promote|advertise|market|feature|"
                     rf"publicize)\s+(?!its\b|their\b|itself\b|(?:the\s+)?{re.escape(other)}\b)")
    return [_finding("promotion_reversed", s, f"the {promotes} promotes the {other}, not the other way")
            for s in sents if pat.search(s[2])]


def _delivery_reversed(sents, template, values):
    """The delivering party's counterpart does not supply or deliver the products or services."""
    delivers, other = _role_pair(template, "delivers")
    if not other:
        return []
    pat = re.compile(rf"\b{re.escape(other)}\s+{_MODAL}\s+(?:manufacture|supply|deliver|provide|perform)\s+(?:the\s+)?"
                     rf"{_DELIVERABLE}\b(?!\s+(?:[Ff]ees|[Pp]ayment))")
    return [_finding("delivery_reversed", s, f"the {delivers} delivers to the {other}, not the other way")
            for s in sents if pat.search(s[2])]


def _one_off_sale_clause(sents, template, values):
    """A supply or services deal with a term holds no one-off sale clause (a party may terminate at
    any time prior to delivery): the relationship runs for its term, not until one delivery."""
    if not (template and template.roles.get("delivers") and any(values.get(f) for f in TERM_FIELDS)):
        return []
    return [_finding("one_off_sale_clause", s, "a one-off sale clause in a deal that runs for a term")
            for s in sents if _ONE_OFF.search(s[2])]


CHECKS = {
    "term": ("term", _term_statements),
    "exclusivity": ("exclusivity", _exclusivity),
    "cure_for_nonpayment": ("roles", _paid_party_cures_nonpayment),
    "paid_party_pays": ("roles", _paid_party_pays),
    "ip_retained_by_counterpart": ("roles", _ip_retained_by_counterpart),
    "appointment_reversed": ("roles", _appointment_reversed),
    "promotion_reversed": ("roles", _promotion_reversed),
    "delivery_reversed": ("roles", _delivery_reversed),
    "one_off_sale_clause": ("roles", _one_off_sale_clause),
}
"""check name -> (report group, function(sentences, template, values) -> findings)."""


def substance_checks(sections: list[dict], template, values: dict) -> dict:
    """Every check of CHECKS over a draft's sections (dicts with "heading", "clause", "body"):
    {"term": [...], "exclusivity": [...], "roles": [...], "contradictions": n}, each finding
    {"check", "section" (index into sections), "heading", "quote", "why"} and, for a pair, "other"."""
    sents = _sentences(sections)
    out: dict = {"term": [], "exclusivity": [], "roles": []}
    for group, check in CHECKS.values():
        out[group] += check(sents, template, values or {})
    out["contradictions"] = sum(len(v) for v in out.values())
    return out
