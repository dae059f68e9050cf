"""The revise and whole phases' text passes (hybrid.text.pipeline.PIPELINE["revise"] and ["whole"]), registered:
each wraps one repair of a finished draft under the pass contract, with the changes its report lists.

Owns the report's change records of these repairs (`removals`: each removal with its reason, and the spans the
protection guard kept; REASONS) and the registrations. The repairs themselves stay beside the rules they share
(hybrid.text.references, doubled_words, paragraphs, wording, repeated_clauses, defined_terms,
undefined_terms; hybrid.precedents.generic_uses, whose pattern the Definitions' composition counts uses with). A
revise pass reads a hybrid.text.context.ReviseContext, a whole pass a WholeContext. hybrid.draft.consistency runs
both phases.
"""

import re

from hybrid.common.protections import Guard
from hybrid.common.topics import TERM_CLAUSES, absent_mentions
from hybrid.precedents.generic_uses import capitalize_uses
from hybrid.text.context import ReviseContext, WholeContext
from hybrid.text.defined_terms import definition_entries, inline_definitions, prune_definitions
from hybrid.text.doubled_words import remove_doubled_words
from hybrid.text.paragraphs import repair_paragraphs
from hybrid.text.passes import Pass, change, register
from hybrid.text.references import fix_references
from hybrid.text.repeated_clauses import drop_repeated, drop_restated_law
from hybrid.text.term import states_term
from hybrid.text.undefined_terms import as_lowered, deal_capitals, lower_undefined, term_forms
from hybrid.text.wording import (
    capitalize_defined_party,
    drop_conflicting,
    drop_presupposing,
    drop_renewal,
    drop_restated,
    drop_second_fee,
    drop_second_term,
    frame_apart,
    term_in_place,
)

__all__ = ["REASONS", "removals", "listed", "deal_texts"]

# why a removal of each kind went, where its change names no more ("restated_sentence": hybrid.text.wording)
REASONS = {
    "reference": "refers to a section the draft does not have",
    "doubled_word": "the word written twice",
    "paragraph": "a list marker or heading with nothing under it, or a sentence cut mid-way",
    "restated_sentence": "restates the section's frame",
    "absent_clause": "leans on a clause the draft lacks",
    "conflicting_term": "names an Incoterm other than the deal's",
    "repeated_clause": "another section of the draft is this clause",
}
_FEE_FRAME = "The Customer shall pay the Provider subscription fees of USD 24,000 per year."
_TERM_FRAME = "This Agreement continues for 6 months from the Effective Date unless terminated earlier."
_REPORTS = "\n\n".join(f"({c}) the Distributor reports its sales and stock to the Supplier within [___] months of the "
                        "Effective Date unless terminated earlier; and" for c in "abcd")  # 4 items: one "sentence"
_FRAME_GOES = "the section's frame, which the next sentence states in full"
_LAW_AGAIN = "restates the governing law, which the Governing Law section states"
_AT_WILL = "a right to end the agreement at will outside the term section, which sets the term"
_SECOND_FEE = "points the fees at a document the deal does not have, where the section's frame states them"
_SECOND_TERM = "states how long the agreement runs, which the section's frame states as the deal's term"
_IN_PLACE = "states how long the agreement runs: the section's frame, stating the deal's term, takes its place"
_FEE_IN_PLACE = "points the fees at a document the deal does not have: the section's frame, stating them, takes it over"
_TERM_ELSEWHERE = "states how long the agreement runs, which another section's frame states as the deal's term"
_PERPETUAL_RENEWAL = "renews a term that a frame states as perpetual"


def listed(words) -> str:
    """ "a", "a and b", "a, b and c" (each once, in order)."""
    words = list(dict.fromkeys(words))
    return " and ".join([", ".join(words[:-1]), words[-1]]) if len(words) > 1 else "".join(words)


def removals(kind: str, removed: list[str], guard, reason=None) -> list[dict]:
    """The report's changes for the spans one removal took (`removed`, with `reason(old)` or REASONS[kind]) and for
    those the guard kept (a right, remedy or protection the draft states nowhere else); a removed span that granted
    one carries "where" the draft states it (hybrid.common.protections.Guard)."""
    decisions = guard.take() if guard is not None else []
    out = []
    for r in removed:
        out.append(change(kind, r, "", "removed", reason(r) if reason else REASONS[kind]))
        hit = next((d for d in decisions if not d["kept"] and (d["old"] in r or r in d["old"])), None)
        if hit:
            out[-1]["where"] = hit["where"]
    out += [change(kind, d["old"], d["old"], "kept", f"protection: {listed(d['kinds'])}, stated nowhere else")
            for d in decisions if d["kept"]]
    return out


def deal_texts(preamble: str, sections: list[dict]) -> list[str]:
    """What the deal itself writes: the preamble, each section's frame, locked strings and required terms."""
    out = [preamble, *(sec.get("frame", "") for sec in sections)]
    return out + [x for sec in sections for x in (*sec.get("locked", ()), *sec.get("terms", ()))]


def _doubled_change(text: str, start: int, end: int, word: str) -> dict:
    """The report's change for one span of remove_doubled_words over text."""
    if word[:1].isalpha() and text[start:end].startswith(word):  # a noun before its own plural: the singular went
        plural = re.match(r"[A-Za-z]+", text[end:]).group(0)
        return change("doubled_word", text[start:end] + plural, plural, "removed")
    return change("doubled_word", text[start - len(word) : end], text[start - len(word) : start], "removed")


# ---- revise: one section body, its context a ReviseContext


def _references(body, ctx):
    fixed, made = fix_references(body, ctx.resolve, own=str(ctx.index + 1), resolve_title=ctx.by_title)
    return fixed, [{"kind": "reference", **c} for c in made]


def _doubled(body, ctx):
    new, doubled = remove_doubled_words(body)
    return new, [_doubled_change(body, s, e, w) for s, e, w in doubled]


def _paragraphs(body, ctx):
    body, repaired = repair_paragraphs(body)
    return body, [{"kind": "paragraph", **c} for c in repaired]


def _relist(body, ctx):
    if not ctx.relist:
        return body, []
    ctx.relist = False
    return _paragraphs(body, ctx)


def _restated(body, ctx):
    sec, guard = ctx.section, ctx.draft["guard"]
    frame = sec.get("frame", "")
    body, restated = drop_restated(body, frame, sec.get("locked", ()), sec.get("terms", ()), guard=guard)
    ctx.relist |= bool(restated)
    return body, removals("restated_sentence", restated, guard,
                          lambda r: _FRAME_GOES if r == frame.strip() else REASONS["restated_sentence"])


def _absent_reason(sentence: str, lacks) -> str:
    """Why drop_presupposing took a sentence: the clause types it leans on, or a right to end the agreement at will."""
    types = sorted({t for _, _, t in absent_mentions(sentence, lacks)})
    return f"{REASONS['absent_clause']} ({', '.join(types)})" if types else _AT_WILL


def _absent(body, ctx):
    draft, guard = ctx.draft, ctx.draft["guard"]
    convenience = draft["has_term"] and ctx.section.get("clause") not in TERM_CLAUSES
    body, leaning = drop_presupposing(body, draft["lacks"], convenience, ctx.section.get("frame", ""), guard=guard)
    ctx.relist |= bool(leaning)
    return body, removals("absent_clause", leaning, guard, lambda r: _absent_reason(r, draft["lacks"]))


def _frame_in_place(body, ctx):
    guard = ctx.draft["guard"]
    frame = ctx.section.get("frame", "").strip()
    body, moved = term_in_place(body, frame, guard=guard)
    out = removals("conflicting_term", moved, guard, lambda r: _IN_PLACE if states_term(frame) else _FEE_IN_PLACE)
    apart = frame_apart(body, frame)
    return apart, [{**c, "new": frame, "action": "replaced"} if c["action"] == "removed" else c for c in out] + (
        [change("paragraph", frame, frame + "\n", "repaired", "the frame on its own line above the headed parts")]
        if apart != body else [])


def _conflicting(body, ctx):
    trade, guard = ctx.draft["trade"], ctx.draft["guard"]
    frame = ctx.section.get("frame", "")
    body, conflicting = drop_conflicting(body, trade, frame, guard=guard)
    # the deal's term as this section's frame states it, or as another section's does: a second statement anywhere
    # is a second term ("continues for 5 years" in Term, "an initial term of [___] year" in Products, seed 211)
    term = frame if states_term(frame) else ctx.draft.get("term_frame", "")
    body, second = drop_second_term(body, term, guard=guard)
    body, fee = drop_second_fee(body, frame, guard=guard)
    body, renewal = drop_renewal(body, guard=guard) if ctx.draft.get("perpetual") else (body, [])
    second += fee + renewal
    ctx.relist |= bool(conflicting or second)
    return body, removals("conflicting_term", conflicting, guard,
                          lambda r: f"{REASONS['conflicting_term']} ({', '.join(sorted(trade))})") + removals(
        "conflicting_term", second, guard,
        lambda r: _SECOND_FEE if r in fee else _PERPETUAL_RENEWAL if r in renewal else _SECOND_TERM if term == frame
        else _TERM_ELSEWHERE)


def _party_case(body, ctx):
    if not ctx.draft["party_defined"]:
        return body, []
    body, cased = capitalize_defined_party(body)
    return body, [change("defined_term_case", w, w[0].upper() + w[1:], "capitalized") for w in cased]


def _others(ctx) -> set:
    return set(ctx.clauses[: ctx.index] + ctx.clauses[ctx.index + 1 :])


def _other_sources(ctx) -> set:
    """The clause types of the draft's other sections drafted from another document than this one: within one
    contract, a part and a section of the same type are its author's own structure ("Export." in a form's General
    Terms beside its Compliance with Laws section), not two deals' copies of one clause."""
    own = ctx.section.get("source") or ""
    sections = ctx.draft.get("sections") or [{}] * len(ctx.clauses)
    return {c for j, (c, sec) in enumerate(zip(ctx.clauses, sections))
            if j != ctx.index and not (own and sec.get("source") == own)}


def _repeated(body, ctx):
    guard = ctx.draft["guard"]
    body, repeated = drop_repeated(body, ctx.section.get("clause", ""), _other_sources(ctx), guard)
    ctx.relist |= bool(repeated)  # "a) Assignment. ... c) Severability." where b) went: the list is lettered again
    return body, removals("repeated_clause", repeated, guard)


def _restated_law(body, ctx):
    guard = ctx.draft["guard"]
    body, law = drop_restated_law(body, ctx.section.get("clause", ""), _others(ctx), guard)
    return body, removals("repeated_clause", law, guard, lambda r: _LAW_AGAIN)


# ---- whole: every section in turn, its context a WholeContext (bodies live, a memo per pass)


def _definitions_terms(ctx) -> set:
    return {t for i, sec in enumerate(ctx.sections) if sec.get("clause") == "definitions"
            for t, _ in definition_entries(ctx.bodies[i])}


def _generic_terms(body, ctx):
    if "generic_terms" not in ctx.memo:  # the Definitions as it stood before this pass
        ctx.memo["generic_terms"] = _definitions_terms(ctx)
    terms = ctx.memo["generic_terms"]
    if not terms:
        return body, []
    body, changed = capitalize_uses(body, terms)  # its own entries too: '"Third Party" means ... its affiliates'
    return body, [change("defined_term_case", w, w.title(), "capitalized") for w in changed]


def _definitions(body, ctx):
    if ctx.sections[ctx.index].get("clause") != "definitions":
        return body, []
    # headings are no use of a term: "Governing Law" keeps no definition of "Law"
    rest = "\n\n".join([ctx.preamble] + [b for j, b in enumerate(ctx.bodies) if j != ctx.index])
    body, dropped = prune_definitions(body, rest, keep=ctx.keep)
    return body, [change("definition", d["term"], None, "dropped", d["reason"]) for d in dropped]


def _undefined_forms(ctx) -> tuple:
    defined = set(inline_definitions("\n\n".join([ctx.preamble, *ctx.bodies]))) | set(ctx.keep)
    for i, sec in enumerate(ctx.sections):
        if sec.get("clause") == "definitions":
            defined |= {t for t, _ in definition_entries(ctx.bodies[i])}
        defined |= {t for t in sec.get("terms", ()) if t[:1].isupper()}  # "purchase order" defines nothing
    return term_forms(defined), deal_capitals(deal_texts(ctx.preamble, ctx.sections))


def _undefined_terms(body, ctx):
    if ctx.sections[ctx.index].get("clause") == "definitions":
        return body, []
    if "undefined_terms" not in ctx.memo:
        ctx.memo["undefined_terms"] = _undefined_forms(ctx)
    forms, capitals = ctx.memo["undefined_terms"]
    body, lowered = lower_undefined(body, forms, capitals)
    return body, [change("undefined_term", w, as_lowered(w), "lowered") for w in lowered]


# ---- the examples' draft: General, Term and Governing Law sections (each pass's examples revise General)

_TERM = "This Agreement lasts one year. Either Party may terminate it for a material breach not cured in 30 days."
_CLAUSES = ("general", "term", "governing_law")


def example(text: str = "", *, frame: str = "", lacks=frozenset(), trade=(), relist: bool = False, resolve=None,
            sources=("", "", ""), **draft) -> ReviseContext:
    """The revise phase's example context: `text` as the General section of a three-section draft (General, Term,
    Governing Law) whose preamble defines "Party"; `frame`, `lacks` (clause types the draft lacks), `trade` (the
    deal's Incoterms), `relist`, `resolve` (number -> the draft's section number) and `sources` (the document each
    section was drafted from) as a draft would set them; `draft`: the draft's other facts (party_defined: True,
    term_frame: another section's frame stating the deal's term, "")."""
    guard = Guard([("General", text), ("Term", _TERM), ("Governing Law", "Delaware law governs this Agreement.")])
    guard.at = 0
    sections = [{"heading": h, "clause": c, "source": src}
                for h, c, src in zip(("General", "Term", "Governing Law"), _CLAUSES, sources)]
    draft = {"party_defined": True, "term_frame": "", **draft, "lacks": frozenset(lacks), "has_term": True,
             "trade": set(trade), "guard": guard, "sections": sections}
    ctx = ReviseContext(0, {**sections[0], "body": text, "frame": frame}, list(_CLAUSES), draft, resolve)
    ctx.relist = relist
    return ctx


_DEFINITIONS = '"Third Party" means any person other than a Party. "Affiliate" means a person that controls a Party.'


def whole_example(text: str = "", *, definitions: str = _DEFINITIONS, general: str = "No Affiliate may assign.",
                  at: str = "general") -> WholeContext:
    """The whole phase's example context: a Definitions section and a General section after it; `text` is the
    body of the one the pass is `at` ("general" or "definitions"), the other body is `definitions` or `general`."""
    sections = [{"heading": "Definitions", "clause": "definitions"}, {"heading": "General", "clause": "general"}]
    if at == "definitions":
        return WholeContext(sections, [text, general], index=0)
    return WholeContext(sections, [definitions, text], index=1)


def _revise(name, contract, apply, *examples):
    return Pass(name, "revise", contract, apply, examples, example)


def _whole(name, contract, apply, *examples):
    return Pass(name, "whole", contract, apply, examples, whole_example)


_FRAME = "Supplier shall sell the Products to Buyer."
_LIST = "Buyer shall pay.\n\n(b) Supplier ships.\n\n(c) Buyer inspects."
_COMMA_LIST = ("Customer:\n\n(a) will not use the Service for High Risk Activities,\n\n(b) will not submit Sensitive "
               "Data, and\n\n(c) accepts this.")  # items ending on a comma are a list, not sentences cut mid-way
_RELETTERED = "Buyer shall pay.\n\n(a) Supplier ships.\n\n(b) Buyer inspects."
_PASSES = (
    _revise("frame_in_place", "the frame stating the deal's term in the place of the base's own headed statement of "
            "it; a frame before headed parts on its own line", _frame_in_place,
            (f"{_TERM_FRAME} Term. This Agreement will start on the Effective Date and continue for 12 months.\n"
             "Termination. Either party may terminate on notice.",
             f"Term. {_TERM_FRAME}\nTermination. Either party may terminate on notice.", {"frame": _TERM_FRAME}),
            (f"{_TERM_FRAME} This Agreement will start on the Effective Date and continue for 12 months.",
             f"{_TERM_FRAME} This Agreement will start on the Effective Date and continue for 12 months.",
             {"frame": _TERM_FRAME}),  # no heading: the frame stays on top, conflicting_term takes the sentence
            (f"{_FEE_FRAME} Payment. Customer will pay the fees described in the Order. Amounts are due on "
             "invoice.\nTaxes. Customer pays taxes.", f"Payment. {_FEE_FRAME} Amounts are due on invoice.\nTaxes. "
             "Customer pays taxes.", {"frame": _FEE_FRAME}),  # the fees pointed at an Order: the frame in its place
            (f"{_TERM_FRAME} Renewal. It renews yearly.\nNotice. Either party may give notice.",
             f"{_TERM_FRAME}\nRenewal. It renews yearly.\nNotice. Either party may give notice.",
             {"frame": _TERM_FRAME})),
    _revise("references", "cross-references renumbered to the draft's sections, or rewritten to read without one",
            _references,
            ("Notices under Section 14.2 are sent.", "Notices under Section 3 are sent.", {"resolve": lambda n: "3"}),
            ("Notices under Section 14.2 are in writing.", "Notices under Section 14.2 are in writing."),
            ("In no event shall this Section apply to any claim covered by Section 8.",  # two parts of one section
             "In no event shall this Section apply to any claim covered by Section [___].",
             {"resolve": lambda n: "1"}),
            ("Sites in Paragraph I.C., no fee.", "Sites in Section 2, no fee.", {"resolve": lambda n: "2"})),
    _revise("doubled_words", "a word written twice once", _doubled,
            ("Buyer shall pay the the price.", "Buyer shall pay the price."),
            ("the Product Products are delivered.", "the Products are delivered.")),
    _revise("paragraphs", "a paragraph that stops without a full stop, or a list out of sequence, repaired",
            _paragraphs,
            ("Buyer shall pay the price\n\nSupplier ships.", "Buyer shall pay the price.\n\nSupplier ships."),
            (_LIST, _RELETTERED), (_COMMA_LIST, _COMMA_LIST),
            ("Samples. Supplier sends samples.\n\nTime of the essence.\n\nForce Majeure. No party is liable.",
             "Samples. Supplier sends samples.\n\nForce Majeure. No party is liable."),  # a heading whose text went
            ("Miscellaneous.\n\nNotices. Notices are written.", "Miscellaneous.\n\nNotices. Notices are written.")),
    _revise("restated", "a sentence restating the section's frame out", _restated,
            (f"{_FRAME} Supplier agrees to sell the Products to Buyer. Buyer pays.", f"{_FRAME} Buyer pays.",
             {"frame": _FRAME}),
            (f"{_FRAME} Buyer pays.", f"{_FRAME} Buyer pays.", {"frame": _FRAME}),
            (f"{_TERM_FRAME} Then:\n\n{_REPORTS}", f"{_TERM_FRAME} Then:\n\n{_REPORTS}", {"frame": _TERM_FRAME})),
    _revise("absent_clause", "a sentence leaning on a clause the draft lacks out", _absent,
            ("Each party keeps its obligations respecting confidentiality and indemnification. Buyer pays.",
             "Buyer pays.", {"lacks": {"indemnification"}}),
            ("Either party may terminate this Agreement at any time on thirty days written notice. Buyer pays.",
             "Buyer pays.")),
    _revise("conflicting_term", "a sentence naming an Incoterm the deal does not state, or stating the term or "
            "pointing the fees at an Order again after the frame, out", _conflicting,
            ("All shipments shall be made FOB Supplier's office. Buyer pays on receipt.", "Buyer pays on receipt.",
             {"trade": {"FCA"}}),
            (f"{_TERM_FRAME} This Agreement will remain in full force and effect for as long as Consultant is "
             "performing Services. Either party may terminate on notice.",
             f"{_TERM_FRAME} Either party may terminate on notice.", {"frame": _TERM_FRAME}),
            ("This Agreement will be in effect for [___] from the Effective Date. Buyer orders monthly.",
             "Buyer orders monthly.", {"term_frame": _TERM_FRAME}),
            (f"{_FEE_FRAME} Customer will pay the fees described in the Order. Amounts are due on invoice.",
             f"{_FEE_FRAME} Amounts are due on invoice.", {"frame": _FEE_FRAME}),
            ("The Agreement will start on the Order Date, continue through the Subscription Period, and automatically "
             "renew for additional Subscription Periods unless either party gives notice. Buyer orders monthly.",
             "The Agreement will start on the Order Date and continue through the Subscription Period. Buyer orders "
             "monthly.", {"perpetual": True}),
            ("All shipments shall be made FOB Supplier's office. Buyer pays on receipt.",
             "All shipments shall be made FOB Supplier's office. Buyer pays on receipt.")),
    _revise("relist", "a list lettered again where a removal before it broke the sequence", _relist,
            (_LIST, _RELETTERED, {"relist": True}), (_LIST, _LIST)),
    _revise("party_case", "\"party\" written \"Party\" where the preamble defines it", _party_case,
            ("Each party shall perform. The parties agree.", "Each Party shall perform. The Parties agree."),
            ("Each party shall perform.", "Each party shall perform.", {"party_defined": False})),
    _revise("repeated_clause", "a part headed as another section's clause type out", _repeated,
            ("Assignment. Neither Party may assign.\n\nGoverning Law. Delaware law governs this Agreement.",
             "Assignment. Neither Party may assign."),
            ("Assignment. Neither Party may assign.", "Assignment. Neither Party may assign."),
            ("Assignment. Neither Party may assign.\n\nGoverning Law. Delaware law governs this Agreement.",
             "Assignment. Neither Party may assign.\n\nGoverning Law. Delaware law governs this Agreement.",
             {"sources": ("form.md", "form.md", "form.md")})),  # one contract's own structure
    _revise("restated_law", "a governing-law sentence outside the Governing Law section out", _restated_law,
            ("Neither Party may assign. This Agreement is governed by the laws of Delaware.",
             "Neither Party may assign."),
            ("Neither Party may assign.", "Neither Party may assign.")),
    _whole("generic_terms", "lower-case uses of a boilerplate term the Definitions defines capitalized",
           _generic_terms,
           ("No third party may rely on this Agreement.", "No Third Party may rely on this Agreement."),
           ("No third party may rely on this Agreement.", "No third party may rely on this Agreement.",
            {"definitions": ""})),
    _whole("definitions", "the Definitions keeps only the entries the draft uses", _definitions,
           (_DEFINITIONS, '"Affiliate" means a person that controls a Party.', {"at": "definitions"}),
           (_DEFINITIONS, _DEFINITIONS, {"at": "definitions", "general": "No Third Party or Affiliate may rely."})),
    _whole("undefined_terms", "capitalized terms the draft never defines in lower case", _undefined_terms,
           ("Each Affiliate and each Licensed Product is bound.", "Each Affiliate and each licensed product is bound."),
           ("Each Affiliate is bound.", "Each Affiliate is bound."),
           ("Sponsor may use Rights Holder Marks.", "Sponsor may use Rights Holder marks.")),  # the role stays
)

for _p in _PASSES:
    register(_p)
