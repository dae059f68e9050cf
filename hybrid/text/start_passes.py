"""The start phase's text passes (hybrid.text.pipeline.PIPELINE["start"]), registered: each wraps one step of
hybrid.text.settle and hybrid.text.start under the pass contract, with worked examples.

Owns nothing but the registrations: each step's code stays beside the rules it shares. A pass reads its
hybrid.text.context.StartContext: the deal, the words it allows, the precedent's own facts, the span's frame,
heading and room. Imported by hybrid.text.start where the phase runs.
"""

import re
from dataclasses import replace

from hybrid.common.lexicon import CONNECTIVE_OPENING
from hybrid.common.sentences import (
    HEADING_BEFORE_TEXT,
    PART_LINE,
    cut_to_clause,
    cut_to_sentence,
    sentence_boundaries,
)
from hybrid.common.stems import content_stems
from hybrid.data.facts import DealFacts
from hybrid.text import settle as _settle
from hybrid.text.blanks import fill_in_lines
from hybrid.text.context import StartContext
from hybrid.text.holes import unpointed
from hybrid.text.passes import Pass, register, run
from hybrid.text.pipeline import FIT, phase
from hybrid.text.repeated_parts import drop_repeated_parts
from hybrid.text.statutes import foreign_statutes

__all__ = ["settle_facts", "strip_inline_heading", "strip_leaning_opening", "fit_text", "example"]


_INLINE_HEADING = re.compile(
    rf"^\s*(?P<number>(?:(?:Section|SECTION|Article|ARTICLE|Clause)\s+)?(?:\d+(?:\.\d+)*\.?\s+)?)"
    rf"{HEADING_BEFORE_TEXT}\s+(?=\S)"
)


def strip_inline_heading(text: str, heading: str | None = None) -> str:
    """text without the run-in heading it opens with ("Delivery; Shipment. (a) Each ..." -> "(a) Each ...";
    numbered too: "Section 1.1 Defined Terms. ..."): the draft's own heading stands above the clause, and a frame
    sentence may open it. Given the section's `heading`, an unnumbered run-in heading on another subject stays: it
    heads a part of the clause ("Entire Agreement. This Agreement ..." under "General"), as contracts write it. With
    or without it, the unnumbered heading of the first of its headed parts stays where another headed part follows."""
    m = _INLINE_HEADING.match(text)
    if m and not m.group("number"):
        if heading is not None and not content_stems(m.group(0)) & content_stems(heading):
            return text  # an unnumbered one on another subject stays
        # the first of its parts, each headed so ("Liability Caps." before "Damages Waiver." and "Exceptions." under
        # Limitation of Liability): its heading stays, which the others' references name ("Section 8 (Liability
        # Caps)" had pointed at a heading the draft no longer had, seed-263 reading); "Term." before "Termination." and
        # "Survival." standing alone above their paragraphs too (seed 281)
        if sum(1 for line in text[m.end() :].splitlines()[1:] if PART_LINE.match(line)) >= 1:
            return text
    return text[m.end() :] if m else text




def strip_leaning_opening(text: "str | None") -> "str | None":
    """text without the connective it opens with where the sentences before it were taken out ("In addition,
    Licensor may ..." -> "Licensor may ..."): a section's first sentence leans on nothing."""
    if not text:
        return text
    m = CONNECTIVE_OPENING.match(text)
    return text[m.end()].upper() + text[m.end() + 1 :] if m else text


def fit_text(tokenizer, text: str, room: int | None) -> str:
    """text cut after its last whole sentence that fits `room` tokens (as it stands after a space: the
    filler's "spaced" start); where not even the first sentence fits, closed before its last coordinated
    clause that does (cut_to_clause: "..., AND EVEN IF ..." -> "...."), the same where only its opening run-in
    heading fits; unchanged when it fits, when room is None, or when neither fits (the filler's budget then cuts
    it)."""
    if room is None:
        return text
    fits = lambda x: len(tokenizer.hf.encode(" " + x, add_special_tokens=False).ids) <= room  # noqa: E731
    whole = cut_to_sentence(text, fits)
    head = _INLINE_HEADING.match(text)
    if whole is not None and head and len(whole.strip()) <= len(text[: head.end()].strip()):
        # only its run-in heading fits ("Distributor REPRESENTATION, WARRANTY AND UNDERTAKING." as a whole General):
        # the sentence it heads overruns the room, so it is closed before a coordinated clause as a first one is
        rest = text[head.end() :]
        ends = sentence_boundaries(rest)
        clause = cut_to_clause(rest[: ends[0]] if ends else rest, fits=lambda x: fits(text[: head.end()] + x))
        return text[: head.end()] + clause if clause else text
    if whole is None:  # the first sentence alone overruns the room
        ends = sentence_boundaries(text)
        whole = cut_to_clause(text[: ends[0]] if ends else text, fits=fits)
    return whole or text




def _text(fn):
    """A pass of a function of the text alone, which reports no change of its own."""
    return lambda text, ctx: (fn(text), [])


def _sub(pattern, repl):
    return _text(lambda t: pattern.sub(repl, t))


def _framed_heading(text, ctx):
    return (strip_inline_heading(text.lstrip()) if ctx.frame else text), []


def _fact_sentences(text, ctx):
    return _settle.drop_fact_sentences(text, ctx.deal, ctx.allowed, ctx.own, may_empty=bool(ctx.frame),
                                       heading=ctx.heading, whole=ctx.whole), []


def _blank_holes(text, ctx):
    return (_settle.blank_holes(text, ctx.deal, ctx.allowed, ctx.own) if ctx.whole else text), []


def _restated_frame(text, ctx):
    return (_settle.drop_restated(text, ctx.frame) if text else ""), []


class _Words:
    """A tokenizer whose tokens are words: the examples' "fit" counts words."""

    class hf:
        @staticmethod
        def encode(text, add_special_tokens=False):
            return type("Encoding", (), {"ids": text.split()})


_EXAMPLE = StartContext(
    DealFacts(party_a="Acme Robotics, Inc.", party_b="Borealis LLC", law="Delaware"),
    "Acme Robotics, Inc. and Borealis LLC, governed by the laws of Delaware. Supplier. Buyer. Products. Exhibit A.",
    lower=frozenset("the documentation facility addendum each supplier will comply with in using service".split()),
    tokenizer=_Words,
)


def example(text: str = "", **overrides) -> StartContext:
    """The start phase's example context: a supply deal between Acme Robotics, Inc. and Borealis LLC under Delaware
    law, whose text names Exhibit A; `overrides` set its other fields (frame, heading, others, whole, room)."""
    return replace(_EXAMPLE, **overrides)


def _pass(name, contract, apply, *examples):
    return Pass(name, "start", contract, apply, examples, example)


# "Definitions.The": a lost space; not "www.Company.com" nor an address
_GLUED_STOP = re.compile(r"(?<=[a-z]{2})\.(?=[A-Z][a-z]+\b(?![.@]))")
_FRAME = "Supplier shall sell the Products to Buyer."
_FOREIGN = "Zanzibar Quux Holdings shall deliver the goods to the Quux Plant."
_PASSES = (
    _pass("inline_heading", "the run-in heading it opens with out (an unframed span keeps one on another subject)",
          lambda t, c: (strip_inline_heading(t, None if c.frame else c.heading), []),
          ("Delivery; Shipment. (a) Each shipment is insured.", "(a) Each shipment is insured."),
          ("Section 1.1 Defined Terms. Terms have their meaning.", "Terms have their meaning."),
          ("Entire Agreement. This Agreement is all of it.", "Entire Agreement. This Agreement is all of it.",
           {"heading": "General"}),
          ("Liability Caps.\nEach cap applies.\nDamages Waiver. No lost profits.\nExceptions. None apply.",
           "Liability Caps.\nEach cap applies.\nDamages Waiver. No lost profits.\nExceptions. None apply.",
           {"heading": "Limitation of Liability"})),
    _pass("repeated_parts", "its parts headed as one of the draft's other clause types out",
          lambda t, c: (drop_repeated_parts(t, "", c.others)[0] if c.others else t, []),
          ("Payment. Buyer pays in 30 days.\n\nGoverning Law. New York law governs.", "Payment. Buyer pays in 30 days.",
           {"others": frozenset({"governing_law"})}),
          ("Payment. Buyer pays in 30 days.\n\nGoverning Law. New York law governs.",
           "Payment. Buyer pays in 30 days.\n\nGoverning Law. New York law governs.")),
    _pass("page_legend", "a page's confidentiality legend kept in the text out", _sub(_settle._PAGE_LEGEND, r"\1"),
          ("the goods. CONFIDENTIAL Page 12 of 20 Buyer shall", "the goods. Buyer shall"),
          ("the goods CONFIDENTIAL 13.2 Supplier's", "the goods 13.2 Supplier's")),
    _pass("other_script", "another script's letters and words about the other language's text out, its punctuation "
          "as English's", _text(_settle.other_script),
          ("MARKETING REGIONS 销售区域 Buyer and Supplier agree.", "MARKETING REGIONS Buyer and Supplier agree."),
          ("This Agreement is made out in Chinese and English. Where any inconsistency occurs in these two texts, the "
           "English text shall be deemed superior. Buyer pays.", "Buyer pays."),
          ("Notices shall be written in English.", "Notices shall be written in English."),
          ('"Territory" means Ohio。 Buyer shall (including，without limitation) pay.',
           '"Territory" means Ohio. Buyer shall (including, without limitation) pay.')),
    _pass("glued_number", "a section number glued to the word after it out", _sub(_settle._GLUED_NUMBER, ""),
          ("4.1Product Prices. Prices are fixed.", "Product Prices. Prices are fixed."),
          ("see 12.3Notices below", "see Notices below")),
    _pass("number_line", "a line holding only the source's article number out", _sub(_settle._NUMBER_LINE, ""),
          ("Buyer pays.\nArticle 27\nSupplier ships.", "Buyer pays.\nSupplier ships."),
          ("Buyer pays.\nARTICLE 3\nSupplier ships.", "Buyer pays.\nSupplier ships.")),
    _pass("lost_stop_number", "a sub-clause number where the source lost its stop becomes a stop",
          _sub(_settle._LOST_STOP_NUMBER, ". "),
          ("ready for delivery 12.2 Buyer will inspect", "ready for delivery. Buyer will inspect"),
          ("the Products 3.4 Supplier shall", "the Products. Supplier shall")),
    _pass("sub_numbers", "a list numbered by its own sub-clauses written with letters",
          _text(_settle.sub_numbers_as_markers),
          ("can show: 5.3.1 that it is public; 5.3.2 it is known", "can show: (a) that it is public; (b) it is known"),
          ("as follows: 2.1.1 first; 2.1.2 second; 2.1.3 third", "as follows: (a) first; (b) second; (c) third")),
    _pass("inner_number", "a section number opening a sentence out", _sub(_settle._INNER_NUMBER, ""),
          ("Buyer pays. 6.2 Warranty of Title. Supplier warrants.",
           "Buyer pays. Warranty of Title. Supplier warrants."),
          ("7.1 Supplier ships.", "Supplier ships."),
          ("survive: 5.4 (Usage Data), 8.4 (Disclaimers) and 9 (Usage Rules).",  # a list's items stay
           "survive: 5.4 (Usage Data), 8.4 (Disclaimers) and 9 (Usage Rules).")),
    _pass("glued_comma", "a space after a comma glued to a word", _sub(_settle._GLUED_COMMA, ", "),
          ("EXPRESS OR STATUTORY,INCLUDING ANY", "EXPRESS OR STATUTORY, INCLUDING ANY"),
          ("goods,services and", "goods, services and")),
    _pass("glued_stop", "a space after a full stop glued to the next sentence's first word",
          _sub(_GLUED_STOP, ". "),
          ("Liability Definitions.The following definitions apply.", "Liability Definitions. The following "
           "definitions apply."),
          ("ii.The Supplier ships.", "ii. The Supplier ships."),
          ("write to victoria.Scott@example.com or www.Company.com", "write to victoria.Scott@example.com or "
           "www.Company.com")),
    _pass("dash_lists", "a flattened dash list of three items or more written as a run-in list",
          _text(_settle.dash_lists),
          ("the following: - Drawings - Specifications - Samples.",
           "the following: (a) Drawings; (b) Specifications; and (c) Samples."),
          ("the following: - Drawings - Samples.", "the following: - Drawings - Samples.")),
    _pass("framed_heading", "in a framed span, a run-in heading the number cleanup bared out", _framed_heading,
          ("Product Prices. Prices are fixed for one year.", "Prices are fixed for one year.", {"frame": _FRAME}),
          ("Product Prices. Prices are fixed for one year.", "Product Prices. Prices are fixed for one year.")),
    _pass("exhibit_pointers", "pointers into an attachment the deal does not name out",
          lambda t, c: (unpointed(t, c.allowed), []),
          ("the Products identified in Exhibit B at the prices", "the Products at the prices"),
          ("the Products identified in Exhibit A at the prices", "the Products identified in Exhibit A at the prices"),
          ("Buyer ships. As set forth in Schedule 2, the price is fixed.", "Buyer ships. The price is fixed."),
          ("The price shall be as set forth on Exhibit C hereto.", "The price shall be [___]."),
          ("The prices are to be the Price, as set out in Schedule 4.", "The prices are to be the Price, as set out in "
           "[___].")),
    _pass("fill_in_lines", "a form's own line of underscores to fill in written as one blank",
          lambda t, c: (fill_in_lines(t), []),
          ("a Fee of ________________ ______ Dollars ($________) payable", "a Fee of [___] payable"),
          ("signed on ________, 20__ by", "signed on [___], 20__ by")),
    _pass("foreign_statutes", "a statute of a jurisdiction the deal does not name written as applicable law",
          lambda t, c: (foreign_statutes(t, c.allowed), []),
          ("insolvent within the meaning of the Corporations Act 2001 (Cth) or", "insolvent within the meaning of "
           "applicable law or", {"allowed": "Canada"}),
          ("under the Bankruptcy and Insolvency Act (Canada) or", "under the Bankruptcy and Insolvency Act (Canada) or",
           {"allowed": "the Vireo line; Canada"})),
    _pass("common_names", "another deal's terms of common words written in lower case",
          lambda t, c: (_settle.lower_common_names(t, c.deal, c.allowed, c.own, c.lower), []),
          ("Each Facility Addendum signed by the parties shall govern.",
           "Each facility addendum signed by the parties shall govern."),
          ("The Documentation Service is provided by Supplier.", "The Documentation Service is provided by Supplier.",
           {"lower": None})),
    _pass("fact_sentences", "sentences still holding another deal's facts out, within limits", _fact_sentences,
          (f"Supplier will supply the Products to Buyer. {_FOREIGN} Each party shall act in good faith.",
           "Supplier will supply the Products to Buyer. Each party shall act in good faith."),
          (_FOREIGN, _FOREIGN)),  # the clause's last sentence stays
    _pass("blank_values", "another deal's figures that stay written as blanks to complete",
          lambda t, c: (_settle.blank_values(t, c.allowed, c.own), []),
          ("Buyer shall pay $45,000 within 30 days after delivery.",
           "Buyer shall pay [___] within [___] after delivery."),
          ("Buyer shall pay a fee of 12% of the price.", "Buyer shall pay a fee of [___] of the price.")),
    _pass("blank_holes", "in a whole base, another deal's terms as blanks to complete", _blank_holes,
          ("Buyer shall deliver to Zanzibar Quux Holdings the goods.", "Buyer shall deliver to [___] the goods.",
           {"whole": True}),
          ("Buyer shall deliver to Zanzibar Quux Holdings the goods.",
           "Buyer shall deliver to Zanzibar Quux Holdings the goods."),
          ("BUYER SUBMITS TO THE COURTS OF DALLAS COUNTY, Delaware, AND OF ANY COUNTY.",  # a county in capitals
           "BUYER SUBMITS TO THE COURTS OF [___], Delaware, AND OF ANY COUNTY.", {"whole": True}),
          ("MEDIATION AT BUYER'S HEADQUARTERS IN DALLAS, Delaware.", "MEDIATION AT BUYER'S HEADQUARTERS IN [___], "
           "Delaware.", {"whole": True}),
          ("Buyer need not remain in the indoor air purification business, nor in the robotics industry.",  # its line
           "Buyer need not remain in the [___] business, nor in the robotics industry.", {"whole": True})),
    _pass("restated_frame", "sentences restating the span's frame out", _restated_frame,
          (f"{_FRAME} Buyer pays on receipt.", "Buyer pays on receipt.", {"frame": _FRAME}),
          ("Supplier agrees to sell the Products to Buyer. Buyer pays.", "Buyer pays.", {"frame": _FRAME}),
          ("License. Licensor grants rights in the Software.\nUser Accounts. Users keep their accounts.",
           "License. Licensor grants rights in the Software.\nUser Accounts. Users keep their accounts.",
           {"frame": "The Licensee's license to use the Software is perpetual."})),  # a heading restates nothing
    _pass("fit", "cut after its last whole sentence that fits the span's room",
          lambda t, c: (fit_text(c.tokenizer, t, c.room), []),
          ("Buyer pays on receipt. Supplier ships within ten days of the order.", "Buyer pays on receipt.",
           {"room": 5}),
          ("Buyer pays on receipt. Supplier ships.", "Buyer pays on receipt. Supplier ships.", {"room": 6})),
    _pass("trailing_headings", "run-in headings it ends with out", _text(_settle.trim_headings),
          ("Buyer pays in writing. (c) Confidential Information.", "Buyer pays in writing."),
          ("Buyer pays. Fixtures and tooling.", "Buyer pays.")),
    _pass("leaning_opening", "the connective it opens with out", _text(strip_leaning_opening),
          ("In addition, Licensor may audit.", "Licensor may audit."),
          ("Furthermore, the fee is due.", "The fee is due.")),
)

for _p in _PASSES:
    register(_p)


def settle_facts(
    text: str, deal: DealFacts, allowed: str, own_facts=(), words=None, frame: str = "", heading: str | None = None,
    whole: bool = False,
) -> str:
    """What an edit keeps of an adapted precedent before any hole opens: a flattened dash list written as a run-in
    list (dash_lists), a line holding only the source's article number ("Article 27") out, a sub-clause number
    where the source lost its stop ("ready for delivery 12.2 Buyer will") a stop, section numbers glued to words out
    ("4.1Product" -> "Product") or opening a sentence ("6.2 Warranty of Title." -> "Warranty of Title."), a
    space after a comma glued to a word ("STATUTORY,INCLUDING"), another deal's common-word terms in lower case
    (lower_common_names), pointers into another contract's exhibits ("identified in Exhibit A": holes.unpointed) out,
    the sentences that still hold its facts taken out (drop_fact_sentences), the figures that
    stay written as blanks (blank_values), and the sentences that restate the clause's frame sentence
    (drop_restated). whole: a section of a whole base (drop_fact_sentences keeps all it can mend)."""
    ctx = StartContext(deal, allowed, tuple(own_facts), words, frame or "", heading, whole=whole)
    return run(phase("start", start="page_legend", stop=FIT), text, ctx)[0]
