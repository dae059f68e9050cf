"""What another document supplies to a base: the clause for a checklist item the base lacks, and a repeated
base's alternative for one of its sections.

Owns: where an inserted section goes (before the closing provisions the base ends with, or after the base's last
section of its type), which precedents may supply it (a standard form of the kind, then the kind's contracts, then,
for a clause whose words do not depend on the deal, a standard form of any kind; none naming another deal's subject
matter), and which of them does (`hybrid rank`'s scorer, hybrid.skeleton.clause_choice). Knows nothing of frames,
Key Terms or skeletons (hybrid.skeleton.from_base).
"""

import re
from dataclasses import replace

from hybrid.common.stems import content_stems
from hybrid.precedents.base import kinds_of
from hybrid.precedents.checklist import checklist, market_check
from hybrid.precedents.fit import BOILERPLATE_CLAUSES, STANDARD_SOURCES
from hybrid.skeleton.clause_choice import clause_text, insert_query, ranked
from hybrid.skeleton.key_terms import SMALL_WORDS

__all__ = ["base_heading", "FRAME_ALIASES", "CLOSING", "GENERIC_CLAUSES", "INSERT_WORDS", "FOREIGN_INSERT",
           "closing_index", "insert_lacking", "holding_part", "alternative", "plain"]


# where a base writes a framed clause type under another type: the term often sits in "Term and Termination"
FRAME_ALIASES = {
    "termination": ("termination", "term"),
    "term": ("term", "termination"),
    "products": ("products", "obligations", "services"),
    "services": ("services", "obligations", "products"),
    "payment": ("payment", "taxes"),
    "confidentiality": ("confidentiality",),
}


def base_heading(heading: str) -> str:
    """A base's heading as a draft writes it: capitals become title case ("LIMITATION OF LIABILITY" ->
    "Limitation of Liability"); a heading in mixed case stays as the base writes it."""
    heading = " ".join(heading.split()).strip(" .:")
    if heading.isupper():
        words = heading.lower().split()
        heading = " ".join(w if i and w in SMALL_WORDS else w.capitalize() for i, w in enumerate(words))
    return heading


# the closing provisions an inserted clause goes before (contracts end with them)
CLOSING = frozenset({"general", "notices", "governing_law", "dispute_resolution", "entire_agreement", "amendment",
                     "severability", "counterparts", "assignment", "relationship", "force_majeure", "survival"})
# clause types a standard form of another kind may supply: their words do not depend on the deal
GENERIC_CLAUSES = BOILERPLATE_CLAUSES | {"confidentiality", "limitation_of_liability"}
INSERT_WORDS = 1500  # an inserted clause longer than this is a whole article of another contract
# an alternative this much shorter than the section it replaces does not do its work: a sponsor's 467-word list of
# benefits had given way to a one-sentence successors clause headed "Benefits", and the reranker preferred it
ALT_MIN_SHARE = 0.4
FOREIGN_INSERT = 1  # another deal's subject phrases an inserted clause may hold (one reads as a slip, two as a deal)


def closing_index(rows) -> int:
    """Where an inserted section goes: before the run of closing provisions the base ends with."""
    i = len(rows)
    while i > 0 and rows[i - 1]["clause"] in CLOSING:
        i -= 1
    return i


def _candidates(library, template, clause: str, forms_only: bool, is_plain) -> list[list]:
    """Precedents an inserted clause may come from, in tiers in the order a lawyer would take them: standard forms of
    the kind, contracts of the kind, then, for a clause whose words do not depend on the deal (GENERIC_CLAUSES),
    standard forms of any kind. One that names another deal's subject matter is no candidate (is_plain: `plain` of the
    deal; hybrid.fidelity.foreign_subject: a software licence's "the software will substantially conform" in a supply
    agreement). forms_only: standard forms alone (a standard form's base takes nothing from a filed contract, whose
    deal would come with it: a research-funding clause in a software licence)."""
    wanted = kinds_of(template)
    pool = [p for p in library.of_type(clause) if len(p.body.split()) <= INSERT_WORDS]
    same_form = [p for p in pool if p.doc_type.upper() in wanted and p.source in STANDARD_SOURCES]
    same = [p for p in pool if p.doc_type.upper() in wanted and p.source not in STANDARD_SOURCES]
    forms = [p for p in pool if p.doc_type.upper() not in wanted and p.source in STANDARD_SOURCES
             and clause in GENERIC_CLAUSES]
    tiers = [same_form, forms] if forms_only else [same_form, same, forms]
    return [[p for p in tier if is_plain(p)] for tier in tiers]


def plain(p, deal_text: str, index, kind: frozenset = frozenset()) -> bool:
    """Whether p names at most FOREIGN_INSERT of another deal's subject phrases (hybrid.fidelity.foreign_subject;
    kind: the phrases of the deal's kind's own language, hybrid.precedents.base.kind_phrases)."""
    from hybrid.fidelity.foreign_subject import foreign_subjects

    return len(foreign_subjects(p.body, deal_text, index=index(), kind=kind)) <= FOREIGN_INSERT


def _held(template, clause: str, heading: str, body: str) -> set[str]:
    """The checklist items one section holds (hybrid.precedents.checklist.market_check)."""
    return {it["key"] for it in market_check(template, [{"heading": heading, "clause": clause, "body": body}])[
        "items"] if it["held"]}


def insert_lacking(rows, library, template, forms_only: bool, is_plain, fits, scorer) -> list[dict]:
    """In place: a section for each checklist item the rows lack, from the candidates holding it (_candidates, tier
    by tier) the scorer's best answer to the item's query (hybrid.skeleton.clause_choice.ranked) that fits(precedent)
    the base's vocabulary (hybrid.skeleton.vocabulary.base_fits), right after the base's last section of its clause
    type, or else before the closing provisions; returns what was inserted, each with the query it answered. An
    item no candidate holds stays lacking (the market check says so)."""
    inserted = []
    items = {it.key: it for it in checklist(template)}
    check = market_check(template, [{"heading": r["heading"], "clause": r["clause"],
                                     "body": getattr(r["draw"], "body", "") + " " + r["frame"]} for r in rows])
    held_now: set[str] = set()
    for key in [it["key"] for it in check["items"] if not it["held"]]:
        if key in held_now:
            continue
        item, query = items[key], insert_query(template, items[key].label)
        tiers = _candidates(library, template, item.clause, forms_only, is_plain)
        found = next((p for tier in tiers for _, p in ranked(scorer, query, [
            p for p in tier if key in _held(template, p.clause_type, p.heading, p.body)]) if fits(p)), None)
        if found is None:
            continue
        same = [i for i, r in enumerate(rows) if r["clause"] == item.clause] or _framed_alias(rows, item.clause)
        at = same[-1] + 1 if same else closing_index(rows)
        heading = base_heading(found.heading) or template.clauses.get(item.clause, {}).get("heading") or item.label
        part = holding_part(template, key, found) if same else found
        beside_alias = bool(same) and rows[same[-1]]["clause"] != item.clause
        if part is not found or beside_alias:  # beside the base's own section, headed as what it adds
            found, heading = part, " ".join(w if w in SMALL_WORDS else w[0].upper() + w[1:] for w in item.label.split())
        rows.insert(at, {"clause": item.clause, "heading": heading, "draw": found, "frame": "", "insert": key})
        held_now |= _held(template, item.clause, heading, found.body)
        inserted.append({"clause": item.clause, "for": key, "label": item.label, "source": found.id, "query": query})
    return inserted


def _framed_alias(rows, clause: str) -> list[int]:
    """The sections of a clause type standing for `clause` (FRAME_ALIASES) that open with the deal's frame: where an
    item of the deal's term goes in a base whose term sits in its "Duration and termination" (a distributor's
    inserted renewal clause had come as a second "Term" section before the closing provisions, session 38)."""
    return [i for i, r in enumerate(rows) if r["clause"] != clause and r["clause"] in FRAME_ALIASES.get(clause, ())
            and r["frame"]]


def holding_part(template, key: str, p):
    """p with only its paragraphs that hold checklist item `key` on their own (p where none or all do): a whole
    section had brought its own term and a termination for convenience into a distributor draft lacking only what
    happens after termination."""
    paragraphs = [x for x in re.split(r"\n\s*\n", p.body) if x.strip()]
    keep = [x for x in paragraphs if key in _held(template, p.clause_type, "", x)]
    return replace(p, body="\n\n".join(keep)) if keep and len(keep) < len(paragraphs) else p


def same_subject(heading: str, replaced: str) -> bool:
    """Whether a clause headed `heading` may stand in for a section headed `replaced`: their headings share a content
    word's stem, or the replaced heading has none. A clause type is coarse ("payment" holds a sponsor's list of
    benefits and a fee refund alike): the seed-347 sponsorship's "Advertising and Other Benefits" took another
    contract's "Refund or Reduction of Sponsorship Fee" as its alternative, and the top draft listed no benefits."""
    own = content_stems(replaced)
    return not own or bool(own & content_stems(heading))


def alternative(rows, library, template, base, v: int, fits, scorer, plain) -> list[dict]:
    """In place, for the v-th repeat of a base: one unframed section takes a same-kind alternative of its clause
    type from another document (a standard form's from another standard form only, of the kind, or of any kind for a
    clause whose words do not depend on the deal: GENERIC_CLAUSES), so that repeated bases still give different
    drafts. It does the replaced section's work: it holds every checklist item that section holds and fits(precedent,
    section) the base's vocabulary (base_fits: an NDA's equitable relief is no alternative to an SLA's credits), is
    plain(precedent) of another deal's subject matter, and is headed on the same subject (same_subject). A section's
    alternatives come best first by the scorer's answer to its own text (clause_choice), the query named in the
    record."""
    wanted = kinds_of(template)
    options = []
    for i, r in enumerate(rows):
        if r["frame"] or not r["draw"] or r["clause"] in ("definitions", "other", "general"):
            continue
        own = {" ".join(r["draw"].body.split())}  # a sister form's copy of the very clause is no alternative
        mine = _held(template, r["clause"], r["heading"], r["draw"].body)
        alts = [p for p in library.of_type(r["clause"]) if p.doc_id != base.doc_id and len(p.body.split()) <= 600
                and (p.source in STANDARD_SOURCES and (p.doc_type.upper() in wanted or r["clause"] in GENERIC_CLAUSES)
                     or p.doc_type.upper() in wanted and base.kind != "form")
                and " ".join(p.body.split()) not in own and not own.add(" ".join(p.body.split()))
                and mine <= _held(template, r["clause"], p.heading, p.body) and fits(p, r["draw"]) and plain(p)
                and same_subject(p.heading, r["heading"])
                and len(p.body.split()) >= ALT_MIN_SHARE * len(r["draw"].body.split())]
        if alts:
            query = clause_text(r["draw"])
            options.append((i, [p for _, p in ranked(scorer, query, alts, near=0.0)], query))
    # every (section, alternative) pair once, the sections in turn, before any repeats
    pairs = [(i, a[k], q) for k in range(max((len(a) for _, a, _ in options), default=0)) for i, a, q in options
             if k < len(a)]
    if v > len(pairs):  # every alternative taken: a repeat says which variant it repeats, not pass for another draft
        return []
    i, p, query = pairs[v - 1]
    rows[i]["draw"] = p
    return [{"section": i, "source": p.id, "query": query}]
