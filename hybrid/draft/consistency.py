"""A draft-level consistency pass over finished section bodies: pure string functions, no model.

Owns:
- whole sentences: `cut_to_sentence` (the longest prefix ending at a sentence boundary that fits a
  budget the caller measures) and `ends_mid_sentence` (the reading check);
- doubled words: `doubled_words`, `remove_doubled_words` ("with with" -> "with");
- cross-references: `find_references`, `fix_references` (a precedent's "Section 8" meant its source
  contract's section 8: renumbered to the draft's section where the caller can resolve it, rewritten
  so the sentence still reads where it cannot) and `dangling_references` (the reading check);
- defined terms: `definition_entries`, `inline_definitions`, `prune_definitions` (a Definitions
  body keeps only the entries the draft uses and does not define elsewhere);
- `consistency_pass` (all of the above over one draft, in a fixed order, with a JSON-able report whose every
  removal says why, and which never removes a right, remedy or protection the draft states nowhere else:
  hybrid.common.protections) and `reading_checks` (the counts a benchmark reports).
This module owns the pass and the checks; the pieces live in hybrid.draft.doubled_words,
hybrid.draft.references and hybrid.draft.defined_terms (the sentence functions in
hybrid.common.sentences), and every name above is importable from here.

Every function is pure and deterministic and returns text that needs no change unchanged, byte for
byte. Must not import models, tokenizers or torch: a budget is a caller's `fits` callable, and which
draft section a source document's section became is a caller's `resolve` callable (the precedent
library knows it; this module does not).
"""

import re

from hybrid.common.protections import Guard
from hybrid.common.sentences import cut_to_sentence, ends_mid_sentence, sentence_boundaries
from hybrid.common.topics import TERM_CLAUSES, absent_mentions, absent_types
from hybrid.data.facts import BLANK
from hybrid.draft.defined_terms import definition_entries, inline_definitions, prune_definitions
from hybrid.draft.doubled_words import doubled_words, remove_doubled_words
from hybrid.draft.paragraphs import paragraph_faults, repair_paragraphs
from hybrid.draft.references import MAX_RANGE as MAX_RANGE  # re-exported: it was defined here
from hybrid.draft.references import Ref, dangling_references, find_references, fix_references
from hybrid.draft.repeated_clauses import drop_repeated, drop_restated_law
from hybrid.draft.wording import (
    capitalize_defined_party,
    defines_party,
    drop_conflicting,
    drop_presupposing,
    drop_restated,
    trade_terms,
)
from hybrid.precedents.generic_uses import capitalize_uses
from hybrid.precedents.undefined_terms import deal_capitals, lower_undefined, term_forms

__all__ = [
    "Ref",
    "cut_to_sentence",
    "sentence_boundaries",
    "ends_mid_sentence",
    "doubled_words",
    "remove_doubled_words",
    "find_references",
    "fix_references",
    "dangling_references",
    "definition_entries",
    "inline_definitions",
    "prune_definitions",
    "paragraph_faults",
    "repair_paragraphs",
    "consistency_pass",
    "reading_checks",
]


def _words(text: str) -> int:
    return len(text.split())


# ---------------------------------------------------------------------------------------------
# The pass


def _doubled_change(text: str, start: int, end: int, word: str) -> dict:
    """The report's change for one span of remove_doubled_words over text."""
    if word[:1].isalpha() and text[start:end].startswith(word):  # a noun before its own plural: the singular went
        plural = re.match(r"[A-Za-z]+", text[end:]).group(0)
        return {"kind": "doubled_word", "old": text[start:end] + plural, "new": plural, "action": "removed"}
    return {"kind": "doubled_word", "old": text[start - len(word) : end], "new": text[start - len(word) : start],
            "action": "removed"}


# why a removal of each kind went, where its change names no more ("restated_sentence": hybrid.draft.wording)
REASONS = {
    "reference": "refers to a section the draft does not have",
    "doubled_word": "the word written twice",
    "paragraph": "a list marker or heading with nothing under it, or a sentence cut mid-way",
    "restated_sentence": "restates the section's frame",
    "absent_clause": "leans on a clause the draft lacks",
    "conflicting_term": "names an Incoterm other than the deal's",
    "repeated_clause": "another section of the draft is this clause",
}
_FRAME_GOES = "the section's frame, which the next sentence states in full"
_LAW_AGAIN = "restates the governing law, which the Governing Law section states"
_AT_WILL = "a right to end the agreement at will outside the term section, which sets the term"


def _removals(kind: str, removed: list[str], guard, reason=None) -> list[dict]:
    """The report's changes for the spans one removal took (`removed`, with `reason(old)` or REASONS[kind]) and for
    those the guard kept (a right, remedy or protection the draft states nowhere else); a removed span that granted
    one carries "where" the draft states it (hybrid.common.protections.Guard)."""
    decisions = guard.take() if guard is not None else []
    out = []
    for r in removed:
        out.append({"kind": kind, "old": r, "new": "", "action": "removed",
                    "reason": reason(r) if reason else REASONS[kind]})
        hit = next((d for d in decisions if not d["kept"] and (d["old"] in r or r in d["old"])), None)
        if hit:
            out[-1]["where"] = hit["where"]
    out += [{"kind": kind, "old": d["old"], "new": d["old"], "action": "kept",
             "reason": f"protection: {_listed(d['kinds'])}, stated nowhere else"} for d in decisions if d["kept"]]
    return out


def _listed(words) -> str:
    """ "a", "a and b", "a, b and c" (each once, in order)."""
    words = list(dict.fromkeys(words))
    return " and ".join([", ".join(words[:-1]), words[-1]]) if len(words) > 1 else "".join(words)


def _wording(
    body: str, sec: dict, party_defined: bool, lacks=(), convenience: bool = False, trade=frozenset(), guard=None
) -> tuple[str, list[dict]]:
    """hybrid.draft.wording's four repairs of one section body, with their changes as the report lists them."""
    frame = sec.get("frame", "")
    body, restated = drop_restated(body, frame, sec.get("locked", ()), sec.get("terms", ()), guard=guard)
    changes = _removals("restated_sentence", restated, guard,
                        lambda r: _FRAME_GOES if r == frame.strip() else REASONS["restated_sentence"])
    body, leaning = drop_presupposing(body, lacks, convenience, frame, guard=guard)
    changes += _removals("absent_clause", leaning, guard, lambda r: _absent_reason(r, lacks))
    body, conflicting = drop_conflicting(body, trade, frame, guard=guard)
    changes += _removals("conflicting_term", conflicting, guard,
                         lambda r: f"{REASONS['conflicting_term']} ({', '.join(sorted(trade))})")
    if restated or leaning or conflicting:  # a list may now open on its second item ("A. Term." went with its sentence)
        body, renumbered = repair_paragraphs(body)
        changes += [{"kind": "paragraph", **c} for c in renumbered]
    if party_defined:
        body, cased = capitalize_defined_party(body)
        changes += [
            {"kind": "defined_term_case", "old": w, "new": w[0].upper() + w[1:], "action": "capitalized"} for w in cased
        ]
    return body, changes


def _absent_reason(sentence: str, lacks) -> str:
    """Why drop_presupposing took a sentence: the clause types it leans on, or a right to end the agreement at will."""
    types = sorted({t for _, _, t in absent_mentions(sentence, lacks)})
    return f"{REASONS['absent_clause']} ({', '.join(types)})" if types else _AT_WILL


def consistency_pass(
    sections: list[dict], *, preamble: str, resolve_ref=None, keep_definitions=(), resolve_title=None
) -> tuple[list[str], dict]:
    """(the sections' new bodies, a JSON-able report) for one draft. `sections` are dicts with at least
    "heading", "clause" and "body", in the draft's order (section i+1 is sections[i]).
    `resolve_ref(section_index, number) -> str | None`: for sections[section_index], the draft section
    number of its precedent's source section `number` (None: not in the draft); resolve_ref=None
    treats every reference as unresolved. `resolve_title(section_index, heading) -> str | None`: the same for the
    source's heading written after a reference's number ("Section 10 (Confidentiality)"), asked first (None: by
    number alone). `keep_definitions`: terms the Definitions keeps even unused
    (`prune_definitions`' keep).

    In this order: references fixed per section (`fix_references`), doubled words removed
    (`remove_doubled_words`), paragraphs that stop without a full stop and list markers out of sequence repaired
    (`repair_paragraphs`), a sentence that restates the section's frame removed (hybrid.draft.wording's
    `drop_restated`; a section dict's optional "frame", "locked" and "terms": its span's frame, locked strings and
    required terms), a sentence leaning on a clause the draft lacks removed (hybrid.draft.wording's
    `drop_presupposing`: a phrase of hybrid.common.topics.absent_types of the sections' clauses, or a right to end
    the agreement at will outside the term section where the draft has one), a sentence naming an Incoterm other than
    the one the deal states removed (`drop_conflicting`: "FOB Supplier's office" where the frame says "FCA"),
    "party"/"parties" written "Party"/"Parties" where the preamble defines the term (`capitalize_defined_party`), a
    paragraph headed as another section's clause type removed (hybrid.draft.repeated_clauses: "Entire Agreement;
    Modification. ..." in General Provisions beside an Entire Agreement section); then, over the whole draft, the
    lower-case uses of a boilerplate term the Definitions section defines capitalized (hybrid.precedents.generic_uses:
    "any third party" -> "any Third Party"), the Definitions section (clause "definitions") pruned against the
    preamble and the other sections' new bodies (`prune_definitions`), and the capitalized terms the draft never
    defines written in lower case (hybrid.precedents.undefined_terms). The report:
    {"sections": [{"index", "heading", "changes": [...], "emptied", "blanks"}], "totals": {"references_renumbered",
    "references_removed", "references_left", "doubled_words_removed", "definitions_dropped",
    "restated_sentences_removed", "absent_clause_sentences_removed", "conflicting_sentences_removed",
    "repeated_clauses_removed", "defined_terms_capitalized", "paragraphs_repaired", "undefined_terms_lowered",
    "protections_kept", "blanks_to_complete"}}; each change carries its "kind" ("reference", "doubled_word",
    "paragraph", "restated_sentence", "absent_clause", "conflicting_term", "repeated_clause", "defined_term_case",
    "definition", "undefined_term"), "old", "new" and "action"; every removal ("removed", "dropped") its "reason".
    No sentence or part removal (restated, absent clause, conflicting term, repeated part, restated law) takes a right,
    remedy or protection (hybrid.common.protections: termination for breach, a cure period, a limit of liability, an
    indemnity, ...) that the draft states nowhere else: such a span stays, reported as a change of its kind with
    action "kept" and the reason "protection: <kinds>, stated nowhere else" (counted in "protections_kept", in no
    removal count); a removal that took one says in its reason where the draft states it and carries "where":
    [{"kind", "index", "section", "heading", "sentence"}]. The paragraph repairs' cuts (a sentence cut mid-way,
    hybrid.draft.paragraphs) are not guarded: a fragment grants nothing whole.
    "emptied" is true for a section whose body the pass left empty (a Definitions section none of whose
    entries the draft needs: the caller drops or refills it, and renumbers). A body that needs no
    change comes back byte-identical."""
    bodies, reports = [], []
    clauses = [sec.get("clause", "") for sec in sections]
    draft = {
        "party_defined": defines_party(preamble),
        "lacks": absent_types(clauses, "\n".join([preamble, *(sec.get("frame", "") for sec in sections)])),
        "has_term": bool(TERM_CLAUSES & set(clauses)),
        "trade": trade_terms("\n".join(_deal_texts(preamble, sections))),  # the Incoterm the deal states, if any
        "guard": Guard([(sec["heading"], sec["body"]) for sec in sections]),
    }
    for i, sec in enumerate(sections):
        resolve = (lambda n, i=i: resolve_ref(i, n)) if resolve_ref else None
        by_title = (lambda t, i=i: resolve_title(i, t)) if resolve_title else None
        body, changes = _revise_section(i, sec, clauses, draft, resolve, by_title)
        bodies.append(body)
        reports.append({"index": i, "heading": sec["heading"], "changes": changes})
    for i, sec in enumerate(sections):
        if sec.get("clause") != "definitions":
            continue
        _capitalize_generic(i, bodies, reports)
        # headings are no use of a term: "Governing Law" keeps no definition of "Law"
        rest = "\n\n".join([preamble] + [b for j, b in enumerate(bodies) if j != i])
        bodies[i], dropped = prune_definitions(bodies[i], rest, keep=keep_definitions)
        reports[i]["changes"] += [
            {"kind": "definition", "old": d["term"], "new": None, "action": "dropped", "reason": d["reason"]}
            for d in dropped
        ]
    _lower_undefined(sections, bodies, reports, preamble, keep_definitions)
    _reasons(reports, draft["guard"])
    totals = _totals(reports, sections, bodies)
    return bodies, {"sections": reports, "totals": totals}


def _revise_section(i: int, sec: dict, clauses: list[str], draft: dict, resolve, by_title) -> tuple[str, list[dict]]:
    """(sections[i]'s body after the per-section repairs of consistency_pass, their changes); `draft`: what the pass
    knows of the whole draft (party_defined, lacks, has_term, trade, guard)."""
    guard = draft["guard"]
    guard.at = i
    fixed, ref_changes = fix_references(sec["body"], resolve, own=str(i + 1), resolve_title=by_title)
    body, doubled = remove_doubled_words(fixed)
    changes = [{"kind": "reference", **c} for c in ref_changes]
    changes += [_doubled_change(fixed, s, e, w) for s, e, w in doubled]
    body, repaired = repair_paragraphs(body)
    changes += [{"kind": "paragraph", **c} for c in repaired]
    convenience = draft["has_term"] and sec.get("clause") not in TERM_CLAUSES
    body, worded = _wording(body, sec, draft["party_defined"], draft["lacks"], convenience, draft["trade"], guard)
    changes += worded
    others = set(clauses[:i] + clauses[i + 1 :])
    body, repeated = drop_repeated(body, sec.get("clause", ""), others, guard)
    changes += _removals("repeated_clause", repeated, guard)
    body, law = drop_restated_law(body, sec.get("clause", ""), others, guard)
    changes += _removals("repeated_clause", law, guard, lambda r: _LAW_AGAIN)
    if repeated:  # "a) Assignment. ... c) Severability." where b) went: the list is lettered again
        body, renumbered = repair_paragraphs(body)
        changes += [{"kind": "paragraph", **c} for c in renumbered]
    guard.settle(i, body)
    return body, changes


def _reasons(reports: list[dict], guard) -> None:
    """In place: every removal's "reason" (REASONS where its change has none); a removal that took a right, remedy
    or protection names where the draft states it ("where", after Guard.follow: the sentence it names still stands)."""
    for r in reports:
        for c in r["changes"]:
            if c["action"] == "removed" and not c.get("reason"):
                c["reason"] = REASONS[c["kind"]]
            if c.get("where"):
                guard.follow(c["where"])
                kinds = _listed(w["kind"] for w in c["where"])
                places = _listed(f"section {w['section']} ({w['heading']})" for w in c["where"])
                c["reason"] = f"{c['reason']}; protection: {kinds}, stated in {places}"


def _deal_texts(preamble: str, sections: list[dict]) -> list[str]:
    """What the deal itself writes: the preamble, each section's frame, locked strings and required terms."""
    out = [preamble, *(sec.get("frame", "") for sec in sections)]
    return out + [x for sec in sections for x in (*sec.get("locked", ()), *sec.get("terms", ()))]


def _capitalize_generic(own: int, bodies, reports) -> None:
    """In place: where the Definitions body bodies[own] defines a boilerplate term that other sections write in lower
    case ("any third party"), those uses written as the term ("any Third Party"; hybrid.precedents.generic_uses),
    each reported as a "defined_term_case" change; the entry is then used and stays."""
    terms = {t for t, _ in definition_entries(bodies[own])}
    for j, body in enumerate(bodies):  # its own entries too: '"Third Party" means ... other than its affiliates'
        bodies[j], changed = capitalize_uses(body, terms)
        reports[j]["changes"] += [
            {"kind": "defined_term_case", "old": w, "new": w.title(), "action": "capitalized"} for w in changed
        ]


def _lower_undefined(sections, bodies, reports, preamble: str, keep=()) -> None:
    """In place: every section body's capitalized terms the draft does not define written in lower case
    (hybrid.precedents.undefined_terms), each reported as an "undefined_term" change."""
    defined = set(inline_definitions("\n\n".join([preamble, *bodies]))) | set(keep)
    for i, sec in enumerate(sections):
        if sec.get("clause") == "definitions":
            defined |= {t for t, _ in definition_entries(bodies[i])}
        defined |= {t for t in sec.get("terms", ()) if t[:1].isupper()}  # "purchase order" defines nothing
    forms, capitals = term_forms(defined), deal_capitals(_deal_texts(preamble, sections))
    for i, sec in enumerate(sections):
        if sec.get("clause") == "definitions":
            continue
        bodies[i], lowered = lower_undefined(bodies[i], forms, capitals)
        reports[i]["changes"] += [
            {"kind": "undefined_term", "old": w, "new": w.lower(), "action": "lowered"} for w in lowered
        ]


def _totals(reports: list[dict], sections: list[dict], bodies: list[str]) -> dict:
    """consistency_pass's report totals, counted from its sections' changes; sets each report's "emptied" and
    "blanks"."""
    totals = {
        "references_renumbered": 0,
        "references_removed": 0,
        "references_left": 0,
        "doubled_words_removed": 0,
        "definitions_dropped": 0,
        "restated_sentences_removed": 0,
        "absent_clause_sentences_removed": 0,
        "conflicting_sentences_removed": 0,
        "repeated_clauses_removed": 0,
        "defined_terms_capitalized": 0,
        "paragraphs_repaired": 0,
        "undefined_terms_lowered": 0,
        "protections_kept": 0,
    }
    key = {
        ("reference", "renumbered"): "references_renumbered",
        ("reference", "removed"): "references_removed",
        ("reference", "left"): "references_left",
        ("definition", "dropped"): "definitions_dropped",
        ("restated_sentence", "removed"): "restated_sentences_removed",
        ("absent_clause", "removed"): "absent_clause_sentences_removed",
        ("conflicting_term", "removed"): "conflicting_sentences_removed",
        ("repeated_clause", "removed"): "repeated_clauses_removed",
        ("defined_term_case", "capitalized"): "defined_terms_capitalized",
        ("undefined_term", "lowered"): "undefined_terms_lowered",
    }
    for r in reports:
        for c in r["changes"]:
            name = {"doubled_word": "doubled_words_removed", "paragraph": "paragraphs_repaired"}.get(c["kind"])
            name = "protections_kept" if c["action"] == "kept" else name or key[(c["kind"], c["action"])]
            totals[name] += 1
        r["emptied"] = bool(sections[r["index"]]["body"].strip()) and not bodies[r["index"]].strip()
        r["blanks"] = bodies[r["index"]].count(BLANK)
    totals["blanks_to_complete"] = sum(r["blanks"] for r in reports)  # terms the deal did not state
    return totals


def reading_checks(sections_bodies: list[str], n_sections: int) -> dict:
    """The reading checks of a finished draft's section bodies: {"mid_sentence_endings" (bodies that
    `ends_mid_sentence`), "broken_paragraphs" (`paragraph_faults`: a paragraph inside a body that stops without
    a full stop, a list marker out of sequence, a marker or heading that numbers or heads nothing),
    "dangling_references" (`dangling_references`), "doubled_words",
    "doubled_words_per_1000_words", "words"}."""
    words = sum(_words(b) for b in sections_bodies)
    doubled = sum(len(doubled_words(b)) for b in sections_bodies)
    return {
        "mid_sentence_endings": sum(ends_mid_sentence(b) for b in sections_bodies),
        "broken_paragraphs": sum(len(paragraph_faults(b)) for b in sections_bodies),
        "dangling_references": len(dangling_references(sections_bodies, n_sections)),
        "doubled_words": doubled,
        "doubled_words_per_1000_words": round(1000 * doubled / words, 3) if words else 0.0,
        "words": words,
    }
