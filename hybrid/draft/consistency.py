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
This module owns the pass and the checks; the pieces live in hybrid.text.doubled_words,
hybrid.text.references and hybrid.text.defined_terms (the sentence functions in
hybrid.common.sentences), and every name above is importable from here.

Every function is pure and deterministic and returns text that needs no change unchanged, byte for
byte. Must not import models, tokenizers or torch: a budget is a caller's `fits` callable, and which
draft section a source document's section became is a caller's `resolve` callable (the precedent
library knows it; this module does not).
"""

import hybrid.text.definition_pointers  # noqa: F401  (registers the definition_pointers pass)
import hybrid.text.fees  # noqa: F401  (registers the frames_fee pass)
import hybrid.text.frame_pointers  # noqa: F401  (registers framed_pointers, price_to_agree, framed_contributions)
import hybrid.text.key_term_lines  # noqa: F401  (registers the key_terms pass; revise_passes registers the rest)
import hybrid.text.notices  # noqa: F401  (registers the notice_addresses pass)
import hybrid.text.same_section  # noqa: F401  (registers the same_section pass)
from hybrid.common.protections import Guard, protection_kinds
from hybrid.common.sentences import cut_to_sentence, ends_mid_sentence, sentence_boundaries, sentences
from hybrid.common.topics import TERM_CLAUSES, absent_agreements, absent_types
from hybrid.data.facts import BLANK, defined_names
from hybrid.text.context import ReviseContext, WholeContext
from hybrid.text.defined_terms import definition_entries, inline_definitions, prune_definitions
from hybrid.text.doubled_words import doubled_words, remove_doubled_words
from hybrid.text.paragraphs import paragraph_faults, repair_paragraphs
from hybrid.text.passes import run
from hybrid.text.pipeline import phase
from hybrid.text.references import MAX_RANGE as MAX_RANGE  # re-exported: it was defined here
from hybrid.text.references import Ref, dangling_references, find_references, fix_references
from hybrid.text.revise_passes import REASONS as REASONS  # re-exported: it was defined here
from hybrid.text.revise_passes import deal_texts, listed
from hybrid.text.term import states_term
from hybrid.text.wording import defines_party, perpetual, trade_terms

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
    (`repair_paragraphs`), a sentence that restates the section's frame removed (hybrid.text.wording's
    `drop_restated`; a section dict's optional "frame", "locked" and "terms": its span's frame, locked strings and
    required terms), a sentence leaning on a clause the draft lacks removed (hybrid.text.wording's
    `drop_presupposing`: a phrase of hybrid.common.topics.absent_types of the sections' clauses, or a right to end
    the agreement at will outside the term section where the draft has one), a sentence naming an Incoterm other than
    the one the deal states removed (`drop_conflicting`: "FOB Supplier's office" where the frame says "FCA"),
    "party"/"parties" written "Party"/"Parties" where the preamble defines the term (`capitalize_defined_party`), a
    paragraph headed as another section's clause type removed (hybrid.text.repeated_clauses: "Entire Agreement;
    Modification. ..." in General Provisions beside an Entire Agreement section drafted from another document: a
    section dict's optional "source"); then, over the whole draft, the
    lower-case uses of a boilerplate term the Definitions section defines capitalized (hybrid.precedents.generic_uses:
    "any third party" -> "any Third Party"), the Definitions section (clause "definitions") pruned against the
    preamble and the other sections' new bodies (`prune_definitions`), and the capitalized terms the draft never
    defines written in lower case (hybrid.text.undefined_terms). The report:
    {"sections": [{"index", "heading", "changes": [...], "emptied", "blanks"}], "totals": {"references_renumbered",
    "references_removed", "references_left", "doubled_words_removed", "definitions_dropped",
    "restated_sentences_removed", "absent_clause_sentences_removed", "conflicting_sentences_removed",
    "repeated_clauses_removed", "defined_terms_capitalized", "paragraphs_repaired", "undefined_terms_lowered",
    "protections_kept", "notice_blocks_blanked", "blank_fees_named", "key_terms_dropped", "blanks_to_complete"}};
    each change carries its "kind" ("reference", "doubled_word", "paragraph", "restated_sentence", "absent_clause",
    "conflicting_term", "repeated_clause", "defined_term_case", "definition", "undefined_term", "notice_addresses",
    "frames_fee", "key_term"), "old", "new" and "action"; every removal ("removed", "dropped") its "reason".
    No sentence or part removal (restated, absent clause, conflicting term, repeated part, restated law) takes a right,
    remedy or protection (hybrid.common.protections: termination for breach, a cure period, a limit of liability, an
    indemnity, ...) that the draft states nowhere else: such a span stays, reported as a change of its kind with
    action "kept" and the reason "protection: <kinds>, stated nowhere else" (counted in "protections_kept", in no
    removal count); a removal that took one says in its reason where the draft states it and carries "where":
    [{"kind", "index", "section", "heading", "sentence"}]. The paragraph repairs' cuts (a sentence cut mid-way,
    hybrid.text.paragraphs) are not guarded: a fragment grants nothing whole.
    "emptied" is true for a section whose body the pass left empty (a Definitions section none of whose
    entries the draft needs: the caller drops or refills it, and renumbers). A body that needs no
    change comes back byte-identical."""
    bodies, reports = [], []
    clauses = [sec.get("clause", "") for sec in sections]
    draft = {
        "party_defined": defines_party(preamble),
        "roles": tuple(defined_names(preamble)),  # the parties' defined names, in the preamble's order
        "lacks": absent_types(clauses, "\n".join([preamble, *(sec.get("frame", "") for sec in sections)]))
        - held_in_substance(sections) | absent_agreements("\n".join(sec["body"] for sec in sections)),
        "has_term": bool(TERM_CLAUSES & set(clauses)),
        # the frame that states the deal's term, if one does: a statement of the term elsewhere is a second one
        "term_frame": next((f for sec in sections if states_term(f := sec.get("frame", "") or "")), ""),
        "perpetual": any(perpetual(sec.get("frame", "")) for sec in sections),  # a term that does not renew
        "trade": trade_terms("\n".join(deal_texts(preamble, sections))),  # the Incoterm the deal states, if any
        "guard": Guard([(sec["heading"], sec["body"]) for sec in sections]),
        "sections": sections,  # each with its optional "source": the document it was drafted from
    }
    for i, sec in enumerate(sections):
        resolve = (lambda n, i=i: resolve_ref(i, n)) if resolve_ref else None
        by_title = (lambda t, i=i: resolve_title(i, t)) if resolve_title else None
        body, changes = _revise_section(ReviseContext(i, sec, clauses, draft, resolve, by_title))
        bodies.append(body)
        reports.append({"index": i, "heading": sec["heading"], "changes": changes})
    whole = WholeContext(sections, bodies, preamble, tuple(keep_definitions))
    for name in phase("whole"):  # each pass over every section before the next pass
        for i in range(len(sections)):
            whole.index = i
            bodies[i], made = run([name], bodies[i], whole)
            reports[i]["changes"] += made
    _reasons(reports, draft["guard"])
    totals = _totals(reports, sections, bodies)
    return bodies, {"sections": reports, "totals": totals}


def _revise_section(ctx: ReviseContext) -> tuple[str, list[dict]]:
    """(the section's body after the revise phase's passes, their changes, in order): hybrid.text.pipeline's
    "revise" list, with the protection guard placed at the section and settled on its new body."""
    guard = ctx.draft["guard"]
    guard.at = ctx.index
    body = ctx.section["body"]
    for name in phase("revise"):
        body, made = run([name], body, ctx)
        ctx.changes += made
    guard.settle(ctx.index, body)
    return body, ctx.changes


def _reasons(reports: list[dict], guard) -> None:
    """In place: every removal's "reason" (REASONS where its change has none); a removal that took a right, remedy
    or protection names where the draft states it ("where", after Guard.follow: the sentence it names still stands)."""
    for r in reports:
        for c in r["changes"]:
            if c["action"] == "removed" and not c.get("reason"):
                c["reason"] = REASONS[c["kind"]]
            if c.get("where"):
                guard.follow(c["where"])
                kinds = listed(w["kind"] for w in c["where"])
                places = listed(f"section {w['section']} ({w['heading']})" for w in c["where"])
                c["reason"] = f"{c['reason']}; protection: {kinds}, stated in {places}"


# a clause type a draft holds in substance where one of its sentences grants the protection that type grants
_GRANTED_BY = {"indemnification": "indemnity", "confidentiality": "confidentiality"}


def held_in_substance(sections) -> frozenset[str]:
    """The clause types of _GRANTED_BY that a sentence of the sections grants whatever its section is headed: a
    joint venture's indemnity under "Liabilities" and its confidentiality duty under "Miscellaneous" had left the
    draft 'lacking' both, and the absent_clause pass removed the sentences leaning on them (the seed-347 draft's
    '"INDEMNIFYING PARTY" is defined in Section 12.', its parties' duty to bind the venture to confidentiality)."""
    granted = {k for sec in sections for s in sentences(sec.get("body", "")) for k in protection_kinds(s)}
    return frozenset(t for t, kind in _GRANTED_BY.items() if kind in granted)


TOTAL_OF = {
    ("reference", "renumbered"): "references_renumbered",
    ("reference", "removed"): "references_removed",
    ("reference", "left"): "references_left",
    ("same_section", "merged"): "references_merged",
    ("definition", "dropped"): "definitions_dropped",
    ("restated_sentence", "removed"): "restated_sentences_removed",
    ("absent_clause", "removed"): "absent_clause_sentences_removed",
    ("conflicting_term", "removed"): "conflicting_sentences_removed",
    ("conflicting_term", "replaced"): "conflicting_sentences_removed",  # by the frame, in its place
    ("repeated_clause", "removed"): "repeated_clauses_removed",
    ("defined_term_case", "capitalized"): "defined_terms_capitalized",
    ("undefined_term", "lowered"): "undefined_terms_lowered",
    ("notice_addresses", "replaced"): "notice_blocks_blanked",
    ("frames_fee", "replaced"): "blank_fees_named",
    ("key_term", "dropped"): "key_terms_dropped",
    ("framed_pointer", "replaced"): "blank_pointers_named",
    ("price_to_agree", "dropped"): "prices_to_agree_removed",
    ("framed_contribution", "dropped"): "contributions_restated_removed",
    ("definition_pointer", "dropped"): "definition_pointers_fixed",
    ("definition_pointer", "renumbered"): "definition_pointers_fixed",
}
"""(change kind, action) -> the report total that counts it; doubled words, repaired paragraphs and kept protections
are counted by kind or action alone (`_totals`). A pass whose changes name a pair missing here fails its examples'
test (tests/text/test_pipeline.py)."""
COUNTED_BY_KIND = {"doubled_word": "doubled_words_removed", "paragraph": "paragraphs_repaired"}


def _totals(reports: list[dict], sections: list[dict], bodies: list[str]) -> dict:
    """consistency_pass's report totals, counted from its sections' changes; sets each report's "emptied" and
    "blanks"."""
    totals = dict.fromkeys([*TOTAL_OF.values(), *COUNTED_BY_KIND.values(), "protections_kept"], 0)
    for r in reports:
        for c in r["changes"]:
            name = COUNTED_BY_KIND.get(c["kind"])
            name = "protections_kept" if c["action"] == "kept" else name or TOTAL_OF[(c["kind"], c["action"])]
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
