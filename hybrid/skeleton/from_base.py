"""Drafting from one coherent base: a variant's skeleton is its base document's sections, in the base's order.

Owns: `BaseVariant` (one variant's skeleton, what each of its spans edits, the clauses inserted into it and why)
and `base_variants` (the n variants of a draft: variant v starts from the v-th base of the kind, or, where the
library holds fewer good bases than variants, from an earlier base with another same-kind alternative for one of
its clauses). Knows nothing of models: the drafter fills each variant's holes (hybrid.draft.stages).

What stays as the base has it: its sections, their order and headings, its defined terms and cross-references
(renumbered by the revise step), and each section's whole text (no clause is cut to a token budget: a span's
budget is its start's length). What changes: the template's title, preamble and signature block with the deal's
facts; each framed clause type's frame sentence (the deal's term, price, law ...) opens the base's first section of
that type, or a section of its own where the base has none; the clauses real contracts of the kind hold and the base
lacks (hybrid.precedents.checklist) are inserted from a same-kind precedent, a standard form first, before the
closing provisions; the base's own facts are adapted to the deal (hybrid.precedents.start.settled_start) and what
cannot be adapted becomes a hole the filler writes.
"""

import functools
import re
from dataclasses import dataclass, field, replace

from hybrid.common.sentences import HEADING_BEFORE_TEXT, PART_LINE
from hybrid.data.document import SECTION_SEPARATOR, Segment, heading_line
from hybrid.data.facts import adapt
from hybrid.data.form_defaults import proposals_for
from hybrid.data.roles import ROLE_WORDS
from hybrid.fidelity.foreign_facts import allowed_text
from hybrid.precedents.base import between_companies, choose_bases, documents, kinds_of, person_document
from hybrid.precedents.checklist import checklist, market_check
from hybrid.precedents.fit import BOILERPLATE_CLAUSES, STANDARD_SOURCES
from hybrid.skeleton.clause_choice import chooser, clause_text, insert_query, ranked
from hybrid.skeleton.deal import deal_from_template
from hybrid.skeleton.key_terms import SMALL_WORDS, cover_variables, key_terms, on_key_terms, term_words, variable_value
from hybrid.skeleton.positions import own_definitions, own_positions
from hybrid.skeleton.vocabulary import base_fits
from hybrid.templates.rendered import Skeleton, Span, substitute
from hybrid.templates.rules import PLACEHOLDER

__all__ = ["BaseVariant", "base_variants", "FRAME_ALIASES", "CLOSING", "base_heading", "cover_variables"]

# where a base writes a framed clause type under another type: the term often sits in "Term and Termination"
FRAME_ALIASES = {
    "termination": ("termination", "term"),
    "term": ("term", "termination"),
    "products": ("products", "obligations", "services"),
    "services": ("services", "obligations", "products"),
    "payment": ("payment", "taxes"),
    "confidentiality": ("confidentiality",),
}
# the closing provisions an inserted clause goes before (contracts end with them)
CLOSING = frozenset({"general", "notices", "governing_law", "dispute_resolution", "entire_agreement", "amendment",
                     "severability", "counterparts", "assignment", "relationship", "force_majeure", "survival"})
# clause types a standard form of another kind may supply: their words do not depend on the deal
GENERIC_CLAUSES = BOILERPLATE_CLAUSES | {"confidentiality", "limitation_of_liability"}
INSERT_WORDS = 1500  # an inserted clause longer than this is a whole article of another contract
FOREIGN_INSERT = 1  # another deal's subject phrases an inserted clause may hold (one reads as a slip, two as a deal)
GOOD_BASE_MARGIN = 0.75  # a contract base whose fit is this far below the best one's is not offered as a variant


@dataclass
class BaseVariant:
    """One variant drafted from a base: its skeleton (spans in the base's order) and what each span edits."""

    base: object  # hybrid.precedents.base.Base
    skeleton: Skeleton
    draws: list  # per span: the Precedent its edit starts from, or "" (its frame alone)
    inserted: list = field(default_factory=list)  # {"section", "clause", "for", "source"} per inserted clause
    alternatives: list = field(default_factory=list)  # {"section", "source"} where a repeated base varies
    repeats: int | None = None  # the earlier variant whose base and clauses this one repeats (no alternative fits)
    proposed: list = field(default_factory=list)  # {"term", "value", "from"}: a proposed Key Term

    def summary(self) -> dict:
        out = {**self.base.summary(), "inserted": self.inserted, "alternatives": self.alternatives,
               "proposed_terms": self.proposed}
        return {**out, "repeats": self.repeats} if self.repeats is not None else out


def base_heading(heading: str) -> str:
    """A base's heading as a draft writes it: capitals become title case ("LIMITATION OF LIABILITY" ->
    "Limitation of Liability"); a heading in mixed case stays as the base writes it."""
    heading = " ".join(heading.split()).strip(" .:")
    if heading.isupper():
        words = heading.lower().split()
        heading = " ".join(w if i and w in SMALL_WORDS else w.capitalize() for i, w in enumerate(words))
    return heading


# a cover page named with a determiner, or as an item of a list ("the Bonterms Cloud Terms, Cover Page and any Orders")
_COVER_REF = re.compile(r"\b(?:a|an|each|any|the|this|such)\s+(?:cover page|Cover Page)s?\b|(?<=, )Cover Page\b(?!s)")
# the instruction to complete a cover page: Common Paper's "complete and sign", Bonterms' "complete and execute"
_COVER_USE = re.compile(r"[^.\n]*\b(?:complete and (?:sign|execute)|must complete)\b[^.\n]*\bcover page\b[^.\n]*\.\s*",
                        re.I)
# a form's words about itself as a form, which no signed agreement keeps (the seed-283 readers' "leftover form
# introduction"): Bonterms' "The Bonterms Cloud Terms are standardized terms for use of cloud services.", "This Mutual
# Non-Disclosure Agreement ("NDA") is designed to allow each party ("Discloser") to disclose ...". The roles it names
# are the template's preamble's, which every draft opens with.
_ABOUT_ITSELF = re.compile(r"(?:(?<=^)|(?<=\n)|(?<=[.:] ))(?:The|This)\s+(?:[A-Z][\w-]*\s+){1,5}(?:\([^()\n]*\)\s+)?"
                           r"(?:is|are)\s+(?:standardized terms|designed to)\b[^.\n]*\.\s*")
_ANY_CLAUSE = frozenset({"party", "partie", "agreement"})  # words of any clause's heading ("THIRD PARTIES.")
_OPENING_PART = re.compile(rf"\s*({HEADING_BEFORE_TEXT})\s")  # "License. During the ..."


def _between(m: re.Match) -> str:
    """What stands for a sentence taken out of a paragraph: one space between the sentences on either side of it
    ("know-how. Discloser", not "know-how.Discloser"), nothing at a paragraph's start or end."""
    text, a, b = m.string, m.start(), m.end()
    return " " if a and not text[a - 1].isspace() and b < len(text) and text[b] != "\n" else ""


def _on_key_terms(p, values: dict, stated: set):
    """A form's section pointing at its cover page, pointed at the draft's Key Terms section instead (its governing
    law the deal's, a forum it leaves open a blank, a term the Key Terms state (`stated`: their labels' term_words)
    defined by them or an Order); the instruction to complete a cover page out."""
    body = _COVER_USE.sub(_between, p.body)
    body = _COVER_REF.sub("the Key Terms", body)
    body = on_key_terms(body, values, stated)
    return p if body == p.body else replace(p, body=body)


def _on_deal_subject(sections, base, template) -> list:
    """A contract base's sections with its own name for the goods written as the template's (hybrid.precedents.
    subject_term: "supply API to Buyer" -> "supply Products to Buyer"); a standard form's generic terms stay."""
    from hybrid.precedents.subject_term import base_subject, on_subject, subject_term

    subject = subject_term(template.preamble) if base.kind != "form" else None
    found = subject and base_subject([p.body for p in sections], subject[0], subject[1], ROLE_WORDS)
    if not found:
        return sections
    return [q if q.body == (b := on_subject(q.body, found, subject[0])) else replace(q, body=b) for q in sections]


def _rows(base, template, values) -> list[dict]:
    """The base's sections as draft rows ({"clause", "heading", "draw", "frame"}), each framed clause type's frame
    on the base's first section of that type (FRAME_ALIASES), or on a section of its own where the base has none. A
    standard form written around a cover page (Common Paper: "the information on each cover page") gets a first
    section, Key Terms, stating the deal's terms (key_terms), which its references to a cover page point at."""
    sections = base.sections
    if base.kind == "form":
        sections = [q if q.body == (b := _ABOUT_ITSELF.sub(_between, q.body)) else replace(q, body=b) for q in sections]
    covered = base.kind == "form" and any(_COVER_REF.search(p.body) for p in sections)
    if covered:
        stated = {term_words(k) for k in re.findall(r"^([^:\n]+):", key_terms(template, values), re.M)}
        sections = [_on_key_terms(p, values, stated) for p in sections]
    elif base.kind == "form":  # the instruction to complete a cover page the draft does not have: out
        sections = [q if q.body == (b := _COVER_USE.sub(_between, q.body)) else replace(q, body=b) for q in sections]
    sections = own_definitions(_on_deal_subject(sections, base, template), template, values)
    rows = [{"clause": p.clause_type, "heading": base_heading(p.heading) or template.clauses.get(
        p.clause_type, {}).get("heading", "General"), "draw": p, "frame": ""} for p in sections]
    if covered:
        renamed, variables = cover_variables(sections, template, values)
        deal = deal_from_template(template, values)  # a Variable named for a party, in the deal's words for it
        # what the forms' cover pages propose for a Variable the deal leaves open
        proposals = {term_words(k): v for k, v in proposals_for(
            base.doc_id, [p.body for p in base.sections], headings={p.heading for p in base.sections}).items()}
        own = own_positions(template, values, term_words)  # the template's own positions first
        text, lines, proposed = "\n".join(p.body for p in sections), [key_terms(template, values, renamed)], []
        for v in variables:
            name = adapt(v, deal)
            found = own.get(term_words(name)) or own.get(term_words(v)) or proposals.get(term_words(v))
            if found:
                proposed.append({"term": name, "value": adapt(found[0], deal), "from": found[1]})
            lines.append(f"{name}: {variable_value(v, proposed[-1]['value'] if found else None, text)}.")
        rows.insert(0, {"clause": "other", "heading": "Key Terms", "draw": "", "frame": "\n".join(filter(None, lines)),
                        "insert": "key_terms", "proposed": proposed})
    for clause, spec in template.clauses.items():
        frame = spec.get("frame")
        names = PLACEHOLDER.findall(frame or "")
        # a frame states the deal's facts; one that states none (an NDA's "shall protect it with at least reasonable
        # care") would only restate the base's own words, less well
        if not frame or not names or not all(values.get(n) not in (None, "") for n in names):
            continue
        text = substitute(frame, values)
        at = _frame_row(rows, clause, spec["heading"])
        if at is None and covered and clause in CLOSING:  # a closing provision's facts (the governing law) the Key
            continue  # Terms state: a section of its own at the end would state them twice
        if at is None:
            at = _frame_index(rows, template, clause)
            rows.insert(at, {"clause": clause, "heading": spec["heading"], "draw": "", "frame": text,
                             "insert": "frame"})
        else:  # two frames of one section (the term and its termination) open it together, not in two sections
            rows[at]["frame"] = f"{rows[at]['frame']} {text}".strip()
    return rows


def _names_part(part_heading: str, want: frozenset) -> bool:
    """Whether a part's heading names the clause headed `want`'s words ("TERM." of "Term and Renewal")."""
    words = term_words(part_heading.strip().rstrip(".")) - _ANY_CLAUSE
    return bool(words) and words <= want


def _frame_row(rows, clause: str, heading: str) -> "int | None":
    """The base's section a framed clause's frame opens: of the clause's type or an alias's (FRAME_ALIASES, in that
    order), the first whose heading shares a word with the template's heading for it, else the first section of any
    type whose opening part's run-in heading does, else the first of the type (Bonterms' "Suspension", typed
    termination, comes before its "Term and Termination": the deal's term had opened Suspension)."""
    rows_of = [i for c in FRAME_ALIASES.get(clause, (clause,)) for i, r in enumerate(rows) if r["clause"] == c]
    want = term_words(heading)
    headed = next((i for i in rows_of if term_words(rows[i]["heading"]) & want), None)
    # a section of another type that opens with a part headed as the clause: Common Paper's "Software" section opens
    # "License. During the Subscription Period ... Licensor grants" (the grant had opened "Restrictions")
    opens = next((i for i, r in enumerate(rows) if (m := _OPENING_PART.match(getattr(r.get("draw"), "body", "") or ""))
                  and term_words(m[1].rstrip(".")) & want - _ANY_CLAUSE), None)
    # else one holding such a part anywhere: IFFC's "TERM." after "GRANT." (the term had opened its section 18)
    part = next((i for i, r in enumerate(rows) if any(
        _names_part(m[0], want) for m in PART_LINE.finditer(getattr(r.get("draw"), "body", "") or ""))), None)
    return next((i for i in (headed, opens, part) if i is not None), rows_of[0] if rows_of else None)


def _frame_index(rows, template, clause: str) -> int:
    """Where a framed clause the base lacks goes: before the base's first section of a clause the template puts
    after it (a deal's scope opens an alliance, not after the form's Definitions at its end), else before the
    closing provisions (_closing_index)."""
    order = list(template.clauses)
    pos = order.index(clause) if clause in order else len(order)
    later = (i for i, r in enumerate(rows) if r["clause"] in order[pos + 1:] and r["clause"] not in CLOSING)
    return min(next(later, len(rows)), _closing_index(rows))


def _closing_index(rows) -> int:
    """Where an inserted section goes: before the run of closing provisions the base ends with."""
    i = len(rows)
    while i > 0 and rows[i - 1]["clause"] in CLOSING:
        i -= 1
    return i


def _candidates(library, template, clause: str, deal_text: str, forms_only: bool, index) -> list[list]:
    """Precedents an inserted clause may come from, in tiers in the order a lawyer would take them: standard forms of
    the kind, contracts of the kind, then, for a clause whose words do not depend on the deal (GENERIC_CLAUSES),
    standard forms of any kind. One that names another deal's subject matter is no candidate
    (hybrid.fidelity.foreign_subject: a software licence's "the software will substantially conform" in a supply
    agreement). forms_only: standard forms alone (a standard form's base takes nothing from a filed contract, whose
    deal would come with it: a research-funding clause in a software licence). index(): the subject index."""
    wanted = kinds_of(template)
    pool = [p for p in library.of_type(clause) if len(p.body.split()) <= INSERT_WORDS]
    same_form = [p for p in pool if p.doc_type.upper() in wanted and p.source in STANDARD_SOURCES]
    same = [p for p in pool if p.doc_type.upper() in wanted and p.source not in STANDARD_SOURCES]
    forms = [p for p in pool if p.doc_type.upper() not in wanted and p.source in STANDARD_SOURCES
             and clause in GENERIC_CLAUSES]
    tiers = [same_form, forms] if forms_only else [same_form, same, forms]
    return [[p for p in tier if _plain(p, deal_text, index)] for tier in tiers]


def _plain(p, deal_text: str, index) -> bool:
    """Whether p names at most FOREIGN_INSERT of another deal's subject phrases (hybrid.fidelity.foreign_subject)."""
    from hybrid.fidelity.foreign_subject import foreign_subjects

    return len(foreign_subjects(p.body, deal_text, index=index())) <= FOREIGN_INSERT


def _held(template, clause: str, heading: str, body: str) -> set[str]:
    """The checklist items one section holds (hybrid.precedents.checklist.market_check)."""
    return {it["key"] for it in market_check(template, [{"heading": heading, "clause": clause, "body": body}])[
        "items"] if it["held"]}


def _insert_lacking(rows, library, template, deal_text: str, forms_only: bool, index, fits, scorer) -> list[dict]:
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
        tiers = _candidates(library, template, item.clause, deal_text, forms_only, index)
        found = next((p for tier in tiers for _, p in ranked(scorer, query, [
            p for p in tier if key in _held(template, p.clause_type, p.heading, p.body)]) if fits(p)), None)
        if found is None:
            continue
        same = [i for i, r in enumerate(rows) if r["clause"] == item.clause]
        at = same[-1] + 1 if same else _closing_index(rows)
        heading = base_heading(found.heading) or template.clauses.get(item.clause, {}).get("heading") or item.label
        if same and (part := _holding_part(template, key, found)) is not found:  # beside the base's own section
            found, heading = part, " ".join(w if w in SMALL_WORDS else w[0].upper() + w[1:] for w in item.label.split())
        rows.insert(at, {"clause": item.clause, "heading": heading, "draw": found, "frame": "", "insert": key})
        held_now |= _held(template, item.clause, heading, found.body)
        inserted.append({"clause": item.clause, "for": key, "label": item.label, "source": found.id, "query": query})
    return inserted


def _holding_part(template, key: str, p):
    """p with only its paragraphs that hold checklist item `key` on their own (p where none or all do): a whole
    section had brought its own term and a termination for convenience into a distributor draft lacking only what
    happens after termination."""
    paragraphs = [x for x in re.split(r"\n\s*\n", p.body) if x.strip()]
    keep = [x for x in paragraphs if key in _held(template, p.clause_type, "", x)]
    return replace(p, body="\n\n".join(keep)) if keep and len(keep) < len(paragraphs) else p


def _alternative(rows, library, template, base, v: int, fits, scorer, plain) -> list[dict]:
    """In place, for the v-th repeat of a base: one unframed section takes a same-kind alternative of its clause
    type from another document (a standard form's from another standard form only, of the kind, or of any kind for a
    clause whose words do not depend on the deal: GENERIC_CLAUSES), so that repeated bases still give different
    drafts. It does the replaced section's work: it holds every checklist item that section holds and fits(precedent,
    section) the base's vocabulary (base_fits: an NDA's equitable relief is no alternative to an SLA's credits), and
    is plain(precedent) of another deal's subject matter. A section's alternatives come best first by the scorer's
    answer to its own text (clause_choice), the query named in the record."""
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
                and mine <= _held(template, r["clause"], p.heading, p.body) and fits(p, r["draw"]) and plain(p)]
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


def _skeleton(template, values, rows) -> Skeleton:
    """The variant's Skeleton: the template's title, preamble and signature block around one span per row."""
    locked = list(dict.fromkeys([str(values["party_a"]), str(values["party_b"])]
                                + [substitute(t, values) for t in template.defined_terms]))
    segs = [Segment(f"{template.title}\n\n", "text"), Segment(f"{substitute(template.preamble, values)}\n\n", "text")]
    spans = []
    for i, r in enumerate(rows):
        spec = template.clauses.get(r["clause"], {})
        segs += [Segment(heading_line(str(i + 1), r["heading"]), "heading", i), Segment("", "body", i),
                 Segment(SECTION_SEPARATOR, "text")]
        framed = bool(r["frame"])
        spans.append(Span(
            section=i, clause=r["clause"], heading=r["heading"], budget=spec.get("budget", 256),
            required_terms=[substitute(t, values) for t in spec.get("required_terms", [])] if framed else [],
            locked=locked, frame=r["frame"],
            frame_fields=list(dict.fromkeys(PLACEHOLDER.findall(spec.get("frame", "")))) if framed else [],
        ))
    segs.append(Segment(substitute(template.signature_block, values), "text"))
    outline = {"title": template.title, "sections": [{"heading": r["heading"], "clause": r["clause"]} for r in rows]}
    return Skeleton(template.id, outline, values, segs, spans, allowed_text(template, values))


def base_variants(library, template, values: dict, n: int, check=None, pageable=None,
                  scorer=None) -> list[BaseVariant]:
    """The n variants' bases and skeletons: variant v starts from the v-th good base of choose_bases (every whole
    standard form of the kind, else the contracts within GOOD_BASE_MARGIN of the best fit); past the last good base,
    from the good bases again in order, each repeat with one clause from another same-kind document. check(): called
    before each base document is scored and each variant is made (a stream's cancel point); pageable: choose_bases';
    scorer: what ranks the candidates of an inserted clause and of an alternative (None: `hybrid rank`'s,
    hybrid.skeleton.clause_choice)."""
    from hybrid.fidelity.foreign_subject import load_subject_index

    check = check or (lambda: None)
    bases = choose_bases(library, template, values, check, pageable)
    if not bases:
        return []
    # a base well below the best is no alternative a lawyer would take (a municipal gas franchise of 577 words for a
    # bakery franchise): repeat the good ones, varied by alternative clauses, instead
    good = [b for b in bases if b.kind == "form"] or [b for b in bases if b.score >= bases[0].score - GOOD_BASE_MARGIN]
    good = good[:n]
    out, index = [], functools.cache(load_subject_index)  # loaded once, when an inserted clause is first checked
    scorer = scorer or chooser(library)
    for v in range(n):
        check()
        base = good[v % len(good)]
        rows = _rows(base, template, values)
        fits = base_fits(base, rows, template, values)
        if between_companies(values):  # no clause of a document written for a person ("her own honest opinions")
            fits = functools.partial(_not_for_a_person, library, fits)
        deal_text = allowed_text(template, values)
        inserted = _insert_lacking(rows, library, template, deal_text, base.kind == "form", index, fits, scorer)
        plain = functools.partial(_plain, deal_text=deal_text, index=index)
        alternatives = _alternative(rows, library, template, base, v // len(good), fits, scorer, plain) if v >= len(
            good) else []
        for i, r in enumerate(rows):
            for rec in inserted:
                if r.get("insert") == rec["for"]:
                    rec["section"] = i
        # a repeat no alternative clause fits (every other document's clause brings its own deal's terms) says so,
        # rather than pass for a different draft
        repeats = v % len(good) if v >= len(good) and not alternatives else None
        proposed = [p for r in rows for p in r.get("proposed", [])]
        out.append(BaseVariant(base, _skeleton(template, values, rows), [r["draw"] for r in rows], inserted,
                               alternatives, repeats, proposed))
    return out


def _not_for_a_person(library, fits, p, *args) -> bool:
    """fits(p, ...) and p's document is not written for a person (hybrid.precedents.base.for_a_person): between
    companies, an endorsement agreement's "Rights Holder represents that she is a bona fide user of Sponsor products"
    had been inserted as the sponsorship's warranty."""
    return not person_document(library, p.doc_id) and fits(p, *args)


def doc_sections(library, doc_id: str) -> list:
    """The library's sections of one document, in order (hybrid.precedents.base.documents)."""
    return documents(library).get(doc_id, [])


def form_sections(base, template, values: dict) -> list[dict]:
    """The baseline a lawyer fills in by hand: the base's sections as they stand, each with the deal's facts in its
    markers' place (hybrid.precedents.library.Precedent.adapted), nothing inserted, settled or written."""
    deal = deal_from_template(template, values)
    return [{"number": str(i + 1), "heading": base_heading(p.heading) or p.clause_type, "clause": p.clause_type,
             "body": p.adapted(deal), "precedents": p.citations()} for i, p in enumerate(base.sections)]
