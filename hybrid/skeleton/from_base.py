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
closing provisions; the base's own facts are adapted to the deal (hybrid.text.start.settled_start) and what
cannot be adapted becomes a hole the filler writes.
"""

import functools
import re
from dataclasses import dataclass, field, replace

from hybrid.common.errors import ConfigError, CorpusError
from hybrid.common.sentences import HEADING_BEFORE_TEXT, PART_LINE
from hybrid.data.corpus import load_document
from hybrid.data.document import SECTION_SEPARATOR, Segment, heading_line
from hybrid.data.facts import adapt, normalize
from hybrid.data.form_defaults import proposals_for
from hybrid.data.roles import ROLE_WORDS
from hybrid.fidelity.fact_vocab import PLACES
from hybrid.fidelity.foreign_facts import allowed_text
from hybrid.precedents.base import between_companies, choose_bases, documents, kind_phrases, person_document
from hybrid.skeleton.clause_choice import chooser
from hybrid.skeleton.deal import deal_from_template
from hybrid.skeleton.insertions import (
    CLOSING,
    FRAME_ALIASES,
    alternative,
    base_heading,
    closing_index,
    insert_lacking,
    plain,
)
from hybrid.skeleton.key_terms import cover_variables, key_terms, on_key_terms, term_words, variable_value
from hybrid.skeleton.positions import default_position, own_definitions, own_positions
from hybrid.skeleton.vocabulary import base_fits
from hybrid.templates.rendered import Skeleton, Span, substitute
from hybrid.templates.rules import PLACEHOLDER

__all__ = ["BaseVariant", "base_variants", "named_base", "UnnamedBase", "FRAME_ALIASES", "CLOSING",
           "base_heading", "cover_variables"]

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
    named: bool = False  # the lawyer named the base (base_doc), not the engine

    def summary(self) -> dict:
        out = {**self.base.summary(), "inserted": self.inserted, "alternatives": self.alternatives,
               "proposed_terms": self.proposed, **({"named": True} if self.named else {})}
        return {**out, "repeats": self.repeats} if self.repeats is not None else out


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
# a form's sentence sending the reader to its cover page for who the parties are and what its terms mean ("Each party
# is identified on the Cover Page and capitalized terms have the meanings given on the Cover Page or below.", which
# the library reads "identified in this Agreement" (hybrid.data.facts): the draft's preamble names the parties, and
# the sentence says nothing (the seed-619 and 733 readers: a cover-page leftover)
_IDENTIFIED = re.compile(r"[^.\n]*\b(?:is|are)\s+(?:each\s+)?identified\s+(?:on\s+(?:the|a|each)\s+cover\s+page"
                         r"|in\s+this\s+Agreement)\b[^.\n]*\bmeanings\s+given\b[^.\n]*\.\s*", re.I)
_ANY_CLAUSE = frozenset({"party", "partie", "agreement"})  # words of any clause's heading ("THIRD PARTIES.")
_OPENING_PART = re.compile(rf"\s*({HEADING_BEFORE_TEXT})\s")  # "License. During the ..."


def _between(m: re.Match) -> str:
    """What stands for a sentence taken out of a paragraph: one space between the sentences on either side of it
    ("know-how. Discloser", not "know-how.Discloser"), nothing at a paragraph's start or end."""
    text, a, b = m.string, m.start(), m.end()
    return " " if a and not text[a - 1].isspace() and b < len(text) and text[b] != "\n" else ""


def form_leftovers_out(body: str, cover_use: bool = True) -> str:
    """A standard form section's body as a signed agreement keeps it: without the form's words about itself as a form
    (_ABOUT_ITSELF), its sentence on where the parties are identified (_IDENTIFIED) and, with cover_use, its
    instruction to complete a cover page (_COVER_USE). An empty result: the section said nothing else."""
    body = _IDENTIFIED.sub(_between, _ABOUT_ITSELF.sub(_between, body))
    return _COVER_USE.sub(_between, body) if cover_use else body


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


# a heading that confines its section to one place, a capitalized word: "GST and taxes (Only Applicable to Australian
# companies)"; "(applicable to products sold ...)" names none
_ONLY_FOR = re.compile(r"\((?:[Oo]nly\s+)?[Aa]pplicable\s+(?:only\s+)?(?:to|for|in)\s+([A-Z][a-z]{3,})")


def _applies_elsewhere(heading: str, deal_words: str) -> bool:
    """A base section whose heading confines it to a place the deal's facts (`deal_words`, lower case) never name:
    by its own terms it does not apply to this deal (the seed-619 and 733 distributor readers: "GST and taxes (Only
    Applicable to Australian companies)" in a Minnesota deal of a Canadian distributor)."""
    m = _ONLY_FOR.search(heading)
    stem = m.group(1)[:5].lower() if m else ""  # "Canadian" of "Canada"
    return bool(m) and any(p.lower().startswith(stem) for p in PLACES) and stem not in deal_words


def _heading_for_deal(p, values: dict, template) -> str:
    """A base section's heading with the base's own parties and role words as the deal's ("Duties of Todos" ->
    "Duties of Supplier", "Duties of the Reseller" -> "Duties of the Distributor"): the library normalizes bodies,
    not headings, and the seed-347 distributor kept its base's company name in a heading. Normalized against the
    base document's own fields, then adapted as its body is (hybrid.data.facts.adapt); unchanged where the heading
    holds none of the section's own facts in any case (the facts "AIRSOPURE", the title-cased heading "Duties of
    Airsopure"), or the document cannot be read."""
    heading = p.heading.lower()
    if not any(f.lower() in heading for f in p.facts if len(f) >= 3):
        return p.heading
    try:
        doc = load_document(p.doc_id)
    except CorpusError:
        return p.heading
    marked = normalize(p.heading, doc.fields, doc.preamble).text
    return adapt(marked, deal_from_template(template, values), tuple(p.sides))


def _rows(base, template, values) -> list[dict]:
    """The base's sections as draft rows ({"clause", "heading", "draw", "frame"}), each framed clause type's frame
    on the base's first section of that type (FRAME_ALIASES), or on a section of its own where the base has none. A
    standard form written around a cover page (Common Paper: "the information on each cover page") gets a first
    section, Key Terms, stating the deal's terms (key_terms), which its references to a cover page point at."""
    sections = base.sections
    if base.kind == "form":
        sections = [q if q.body == (b := form_leftovers_out(q.body, cover_use=False)) else replace(q, body=b)
                    for q in sections]
    covered = base.kind == "form" and any(_COVER_REF.search(p.body) for p in sections)
    if covered:
        stated = {term_words(k) for k in re.findall(r"^([^:\n]+):", key_terms(template, values), re.M)}
        sections = [_on_key_terms(p, values, stated) for p in sections]
    elif base.kind == "form":  # the instruction to complete a cover page the draft does not have: out
        sections = [q if q.body == (b := _COVER_USE.sub(_between, q.body)) else replace(q, body=b) for q in sections]
    sections = [q for q in sections if q.body.strip()]  # a form's section these leave with nothing goes
    sections = own_definitions(_on_deal_subject(sections, base, template), template, values, base.kind != "form")
    deal_words = " ".join(str(v) for v in values.values()).lower()
    sections = [p for p in sections if not _applies_elsewhere(p.heading, deal_words)]
    rows = [{"clause": p.clause_type, "heading": base_heading(_heading_for_deal(p, values, template)) or
             template.clauses.get(p.clause_type, {}).get("heading", "General"), "draw": p, "frame": ""}
            for p in sections]
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
            found = (own.get(term_words(name)) or own.get(term_words(v)) or proposals.get(term_words(v))
                     or default_position(name, template))
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
    closing provisions (closing_index)."""
    order = list(template.clauses)
    pos = order.index(clause) if clause in order else len(order)
    later = (i for i, r in enumerate(rows) if r["clause"] in order[pos + 1:] and r["clause"] not in CLOSING)
    return min(next(later, len(rows)), closing_index(rows))


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


class UnnamedBase(ConfigError):
    """A base_doc that names no one base of the kind; `detail`: what it got and the candidates, after the field's
    name (the request words the field as its caller spells it: hybrid.draft.request.RequestValueError)."""

    def __init__(self, detail: str):
        self.detail = detail
        super().__init__(f"base_doc {detail}")


def named_base(bases: list, name: str) -> list:
    """[the one base of `bases` (choose_bases, best first) that `name` names: its doc id, or a part of exactly one
    id, in any case ("Reynolds", "common-paper-csa")]. A name that fits none or several raises UnnamedBase naming
    what it got and the candidates, best first: a lawyer picks the document to start from among those of the kind."""
    low = name.strip().lower()
    exact = [b for b in bases if b.doc_id.lower() == low]
    found = exact or [b for b in bases if low in b.doc_id.lower()]
    if len(found) == 1:
        return found
    shown = found or bases
    listed = "; ".join(b.doc_id.rsplit("/", 1)[-1] for b in shown[:12])
    more = f" (and {len(shown) - 12} more)" if len(shown) > 12 else ""
    why = f"names {len(found)} base documents" if found else "names no base document of this kind"
    raise UnnamedBase(f"{name!r} {why}; one of: {listed}{more}.")


def base_variants(library, template, values: dict, n: int, check=None, pageable=None,
                  scorer=None, base_doc: str | None = None) -> list[BaseVariant]:
    """The n variants' bases and skeletons: variant v starts from the v-th good base of choose_bases (every whole
    standard form of the kind, else the contracts within GOOD_BASE_MARGIN of the best fit); past the last good base,
    from the good bases again in order, each repeat with one clause from another same-kind document. check(): called
    before each base document is scored and each variant is made (a stream's cancel point); pageable: choose_bases';
    scorer: what ranks the candidates of an inserted clause and of an alternative (None: `hybrid rank`'s,
    hybrid.skeleton.clause_choice); base_doc: the document every variant starts from (named_base), the variants
    varied by alternative clauses; None: the engine's choice."""
    from hybrid.fidelity.foreign_subject import load_subject_index

    check = check or (lambda: None)
    bases = choose_bases(library, template, values, check, pageable)
    if not bases:
        return []
    if base_doc is not None:
        bases = named_base(bases, base_doc)
    # a base well below the best is no alternative a lawyer would take (a municipal gas franchise of 577 words for a
    # bakery franchise): repeat the good ones, varied by alternative clauses, instead
    good = [b for b in bases if b.kind == "form"] or [b for b in bases if b.score >= bases[0].score - GOOD_BASE_MARGIN]
    good = good[:n]
    out, index = [], functools.cache(load_subject_index)  # loaded once, when an inserted clause is first checked
    scorer = scorer or chooser(library)
    # whether a clause another document supplies names another deal's subject matter: an insertion's, an alternative's
    is_plain = functools.partial(plain, deal_text=allowed_text(template, values), index=index,
                                 kind=kind_phrases(template))
    for v in range(n):
        check()
        base = good[v % len(good)]
        rows = _rows(base, template, values)
        fits = base_fits(base, rows, template, values)
        if between_companies(values):  # no clause of a document written for a person ("her own honest opinions")
            fits = functools.partial(_not_for_a_person, library, fits)
        inserted = insert_lacking(rows, library, template, base.kind == "form", is_plain, fits, scorer)
        alternatives = alternative(rows, library, template, base, v // len(good), fits, scorer, is_plain) if v >= len(
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
                               alternatives, repeats, proposed, base_doc is not None))
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
