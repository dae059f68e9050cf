"""The draft-level consistency pass on the drafting path: each variant's bodies revised before ranking.

Owns: `revise` (every variant of one draft through hybrid.draft.consistency.consistency_pass, with a
resolver that renumbers a precedent's cross-reference to the draft's own section of the same clause
type) and `source_sections` (which clause type each numbered section of a source document has, from
the clause library). Knows nothing of models; the Drafter calls it between the fill and the rank.
"""

import re

from hybrid.common.lexicon import TRAILING_HEADING_LINE
from hybrid.common.sentences import cut_to_clause, cut_to_sentence, ends_mid_sentence
from hybrid.draft.consistency import consistency_pass
from hybrid.text.defined_terms import definitions_index
from hybrid.text.reference_resolve import Exact, Headed

__all__ = ["revise", "source_sections", "source_ids", "EMPTY_DEFINITIONS"]

EMPTY_DEFINITIONS = (
    "Capitalized terms used in this Agreement have the meanings given to them where they are first "
    "defined in this Agreement."
)
"""A Definitions section none of whose entries the draft uses, in a draft that defines no term it uses elsewhere
(hybrid.text.defined_terms.definitions_index), keeps this sentence (the outline keeps the section)."""
_TOP = re.compile(r"^(\d+)")


def source_sections(library) -> dict[str, dict[str, str]]:
    """{source doc id: {top-level section number: clause type}} over the library's precedents: by the numbers the
    source wrote (Precedent.numbers: its "Section 12" is the section that holds 12, where a heading it skipped or
    a headless numbered paragraph puts it at another place in the layout), else, for a source that numbers no
    section, by its place in the layout (the number in the precedent's id)."""
    return {doc: {n: p.clause_type for n, p in numbers.items()} for doc, numbers in _numbered(library).items()}


def source_ids(library) -> dict[str, dict[str, str]]:
    """{source doc id: {top-level section number: precedent id}}, numbered as source_sections numbers them: which
    precedent a source's "Section 8" is, so that a draft holding that very precedent points there."""
    return {doc: {n: p.id for n, p in numbers.items()} for doc, numbers in _numbered(library).items()}


def _numbered(library) -> dict:
    out: dict = {}
    written = {p.doc_id for p in library.precedents if getattr(p, "numbers", None)}
    for p in library.precedents:
        doc, _, number = p.id.rpartition("#")
        if doc in written:
            numbers = list(getattr(p, "numbers", None) or ())
        else:
            m = _TOP.match(number)
            numbers = [m.group(1)] if m else []
        for n in numbers:
            out.setdefault(doc, {}).setdefault(n, p)
    return out


def _source(cites) -> str:
    """The one document a section was drafted from ("" where it cites none, or several: a composed section)."""
    docs = {c.get("doc_id") for c in cites}
    return docs.pop() or "" if len(docs) == 1 else ""


def _resolver(spans, provenance_v, sources, ids=None):
    """resolve_ref(section index, number) for one variant: the draft's section drafted from that very source section
    (an Exact answer: a base draft holds its base's sections, renumbered), else the source section's clause type,
    then the draft's first section of that type (its 1-based number), else None."""
    by_type, by_id = {}, {}
    for i, s in enumerate(spans):
        by_type.setdefault(s.clause, str(i + 1))
    for i, cites in enumerate(provenance_v or []):
        if len(cites) == 1 and cites[0].get("id"):
            by_id.setdefault(cites[0]["id"], str(i + 1))

    def resolve(i: int, number: str):
        cites = provenance_v[i] if provenance_v and i < len(provenance_v) else []
        if len(cites) != 1:  # a composed section cites several sources: its references are not one document's
            return None
        top = _TOP.match(number).group(1) if _TOP.match(number) else ""
        exact = by_id.get((ids or {}).get(cites[0]["doc_id"], {}).get(top))
        if exact:
            return Exact(exact)
        clause = sources.get(cites[0]["doc_id"], {}).get(top)
        return by_type.get(clause) if clause else None

    return resolve


def _title_resolver(spans):
    """resolve_title(section index, heading) for one draft: the draft's section of that very heading (a base draft
    keeps its base's headings: "Section 5 (Permitted Disclosures)" is its Permitted Disclosures, not its first
    confidentiality section, which a cold reading found it pointing at), else the draft's first section of the clause
    type the source's heading names ("Section 10 (Confidentiality)" -> the draft's confidentiality section), "" where
    the draft has no section of that type, None where the heading names no clause type."""
    from hybrid.data.clauses import classify_heading

    by_type, by_heading = {}, {}
    for i, s in enumerate(spans):
        by_type.setdefault(s.clause, str(i + 1))
        by_heading.setdefault(_heading_key(s.heading), str(i + 1))

    def resolve(i: int, heading: str):
        if _heading_key(heading) in by_heading:
            return Headed(by_heading[_heading_key(heading)])
        clause = classify_heading(heading)
        return by_type.get(clause, "") if clause != "other" else None

    return resolve


def _heading_key(heading: str) -> str:
    """A heading as two writings of it compare: its letters, lower case ("Permitted Disclosures." = "PERMITTED
    DISCLOSURES")."""
    return " ".join(re.findall(r"[a-z]+", heading.lower()))


def _shorter_than(n: int):
    return lambda x: len(x) < n


def revise(
    variants: list[list[str]], spans, preamble: str, provenance=None, sources=None, keep=(), ids=None
) -> tuple[list, list]:
    """(revised bodies per variant, a report per variant): cross-references renumbered to the draft's own
    sections or rewritten, doubled words removed, Definitions pruned to the terms the draft uses (an
    emptied one indexes where the draft defines the terms it uses, '"Initial Term" and "Renewal Term" have the
    meanings given in Section 5.', or else reads EMPTY_DEFINITIONS; its report section lists the indexed terms),
    each body cut after its last whole sentence (hybrid.common.sentences; a body with no sentence end is closed
    before its last coordinated clause, or else kept as written).
    provenance[v][i]: the citations of variant v's section i; sources and ids: source_sections and source_ids."""
    out, reports = [], []
    for v, bodies in enumerate(variants):
        sections = [
            {"heading": s.heading, "clause": s.clause, "body": b, "frame": getattr(s, "frame", ""),
             "locked": getattr(s, "locked", ()), "terms": getattr(s, "required_terms", ()),
             "source": _source(provenance[v][i] if provenance and i < len(provenance[v]) else [])}
            for i, (s, b) in enumerate(zip(spans, bodies))
        ]
        resolve = _resolver(spans, provenance[v] if provenance else None, sources or {}, ids)
        by_title = _title_resolver(spans)
        new, report = consistency_pass(
            sections, preamble=preamble, resolve_ref=resolve, keep_definitions=keep, resolve_title=by_title
        )
        cut, indexed = 0, 0
        for i, sec in enumerate(report["sections"]):
            if sec.get("emptied"):  # every entry went: an index of where the draft defines its terms, else the stub
                index, terms = definitions_index(preamble, new, i)
                new[i] = index or EMPTY_DEFINITIONS
                sec["indexed"] = terms
                indexed += len(terms)
        report["totals"]["definitions_indexed"] = indexed
        for i, b in enumerate(new):
            b = new[i] = TRAILING_HEADING_LINE.sub("", b)  # the source's next run-in heading, with nothing after it
            if ends_mid_sentence(b):  # the fill ran to the budget: end at the last whole sentence
                body = b.rstrip()
                # no sentence end: close it before its last coordinated clause ("..., AND EVEN IF ANY OF")
                whole = cut_to_sentence(body, _shorter_than(len(body))) or cut_to_clause(body)
                if whole:  # the cut may leave a run-in heading last ("...\n\nRenewal."): it goes too
                    new[i], cut = TRAILING_HEADING_LINE.sub("", whole), cut + 1
        report["totals"]["sentences_cut"] = cut
        out.append(new)
        reports.append(report)
    return out, reports
