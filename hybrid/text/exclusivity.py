"""The mend of exclusivity: a draft states the deal's appointment (or grant) the way the deal says.

A base draft is a real contract adapted to the deal, and a real distributor contract may well be non-exclusive
where the deal is exclusive: the template's frame writes "The Supplier appoints the Distributor as its exclusive
distributor", and the base goes on "Supplier appoints Distributor ... as Supplier's non-exclusive authorized
distributor". hybrid.draft.substance reports such a contradiction; this module mends it before the substance checks
and the ranking.

Owns: `mend_exclusivity` (one draft's bodies: each sentence that states the deal's appointment or grant the other
way rewritten to the deal's way, the exclusivity words of that appointment flipped ("non-exclusive" <-> "exclusive",
"not to the exclusion of" <-> "to the exclusion of") and the rest of the sentence kept, with a change per sentence)
and `record_changes` (those changes into the draft's consistency report, as hybrid.draft.consistency reports its
own). "The same appointment" is hybrid.text.appointment.exclusivity_statement's
key (kind, licence noun, parties), so that an exclusive licence of one thing beside a non-exclusive licence of
another stays; which way the deal says is appointment.deal_exclusivity. A deal silent on exclusivity changes nothing,
nor does a sentence that appoints another, or appoints no one ("shall not appoint any other exclusive
distributor"): the check reports what is left. Pure string functions, no model.
"""

import re

from hybrid.common.sentences import sentence_spans
from hybrid.text.appointment import APPOINTMENT, deal_exclusivity, exclusivity_statement

__all__ = ["mend_exclusivity", "record_changes", "KIND"]

KIND = "exclusivity"
"""The consistency report's change kind (and totals key "exclusivity_rewritten") of a rewritten sentence."""

_ELSEWHERE = re.compile(r"\b(?:not|never|nor|no|other|another|additional|further|if|unless)\b", re.I)
"""Words that make an appointment someone else's, nobody's or a condition's ("shall not appoint any other exclusive
distributor", "if Distributor fails ..., Supplier may appoint it as a non-exclusive distributor"): flipping such a
sentence would not state the deal's appointment the deal's way."""
_LOOKBEHIND = 40  # characters before the grant word read for _ELSEWHERE ("Supplier shall not appoint")
_ARTICLE = re.compile(r"\b(an?)(\s+)$", re.I)


def _deal_keys(deal_texts, template, kind: str) -> set:
    """The keys of the appointments and grants the deal itself states its way (the preamble and the frames), and
    the appointment, which the deal's exclusivity is about."""
    keys = {APPOINTMENT}
    for text in deal_texts:
        for a, b in sentence_spans(text or ""):
            stated = exclusivity_statement(text[a:b], template)
            if stated and stated[0] == kind:
                keys.add(stated[1])
    return keys


def _flipped(mark: str, kind: str) -> str:
    """The exclusivity word `mark` written as `kind`, in its case ("Non-Exclusive" -> "Exclusive", "EXCLUSIVE" ->
    "NON-EXCLUSIVE", "not to the exclusion of" -> "to the exclusion of")."""
    if mark.lower().endswith(" of"):  # "(not) to the exclusion of"
        if kind == "exclusive":
            rest = mark[3:].lstrip()
            return rest[0].upper() + rest[1:] if mark[0].isupper() else rest
        return ("NOT " if mark.isupper() else "Not " if mark[0].isupper() else "not ") + mark[0].lower() + mark[1:]
    if kind == "exclusive":
        word = mark[-9:]  # "exclusive", in mark's own case
        return word[0].upper() + word[1:] if mark[0].isupper() else word
    if mark.isupper():
        return "NON-" + mark
    return ("Non-" if mark[0].isupper() else "non-") + mark[0].lower() + mark[1:]


def _rewrite(sentence: str, spans, kind: str) -> str:
    """sentence with the exclusivity words at spans written as `kind`, an "a"/"an" just before each agreeing."""
    out, last = [], 0
    for start, end in spans:
        before = sentence[last:start]
        new = _flipped(sentence[start:end], kind)
        art = _ARTICLE.search(before)
        if art:
            want = "an" if new[0].lower() in "aeiou" else "a"
            want = want.capitalize() if art.group(1)[0].isupper() else want
            before = before[: art.start(1)] + want + art.group(2)
        out += [before, new]
        last = end
    return "".join(out) + sentence[last:]


def _elsewhere(sentence: str, grant: int, spans) -> bool:
    """Whether the appointment is someone else's or nobody's: a negation or "other" from just before the grant word
    to its last exclusivity word (the exclusivity words themselves aside: "not to the exclusion of" is one)."""
    lo, hi = max(0, min(grant, spans[0][0]) - _LOOKBEHIND), max(spans[-1][1], grant)
    read = list(sentence[lo:hi])
    for start, end in spans:
        read[max(start - lo, 0): end - lo] = " " * (end - max(start, lo))
    return bool(_ELSEWHERE.search("".join(read)))


def mend_exclusivity(bodies: list[str], deal_texts, template, values: dict) -> tuple[list[str], list[tuple]]:
    """(new bodies, [(section index, change)]) for one draft's section bodies. Where the deal states exclusivity
    (deal_exclusivity: its `exclusivity` field, or the one deal value that is "exclusive" / "non-exclusive"), each
    sentence stating, the other way, an appointment or grant the deal states (the appointment, and any whose key
    a sentence of `deal_texts`, the preamble and frames, states the deal's way) is rewritten: the exclusivity words
    of that appointment flipped ("a non-exclusive" -> "an exclusive"), the rest kept byte for byte. A change is
    {"kind": "exclusivity", "old", "new", "action": "rewritten", "reason"}. Bodies needing no change come back
    as they were; a silent deal changes nothing."""
    deal = deal_exclusivity(values or {})
    if deal is None:
        return list(bodies), []
    field, kind = deal
    keys = _deal_keys(deal_texts, template, kind)
    out, changes = [], []
    for i, body in enumerate(bodies):
        parts, last = [], 0
        for offset, end in sentence_spans(body):
            sentence = body[offset:end]
            stated = exclusivity_statement(sentence, template)
            if not stated or stated[0] == kind or stated[1] not in keys or _elsewhere(sentence, *stated[2:]):
                continue
            new = _rewrite(sentence, stated[3], kind)
            parts += [body[last:offset], new]
            last = offset + len(sentence)
            what = "appointment" if stated[1] == APPOINTMENT else "grant"
            changes.append((i, {"kind": KIND, "old": sentence.strip(), "new": new.strip(), "action": "rewritten",
                                "reason": f"states the {what} {stated[0]}; the deal's {field} is {kind}"}))
        out.append("".join(parts) + body[last:] if parts else body)
    return out, changes


def record_changes(report: dict, changes: list[tuple]) -> None:
    """In place: each (section index, change) into a consistency report (hybrid.draft.consistency.consistency_pass's
    {"sections": [{"index", "changes", ...}], "totals"}) and its count into totals["exclusivity_rewritten"]."""
    by_index = {sec["index"]: sec for sec in report["sections"]}
    for i, change in changes:
        by_index[i]["changes"].append(change)
    report["totals"]["exclusivity_rewritten"] = len(changes)
