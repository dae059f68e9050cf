"""PIPELINE: every text pass of a draft, by phase, in the order it runs. This list is the one place that says what
runs and when; the steps that run a phase loop over it (hybrid.text.passes.run), and `hybrid passes` prints it.

A pass is defined and registered beside the code it applies (hybrid.text.passes.register); its name here places it.
A name may stand twice where the same pass runs again ("relist": a list lettered again after a removal).
"""

__all__ = ["PIPELINE", "phase", "pass_names", "FIT"]

PIPELINE = {
    # hybrid.text.start.settled_start (memoized up to FIT) and starts_from_draws (from FIT on): one precedent
    # adapted to the deal (hybrid.precedents.library.Precedent.adapted) -> the text the filler edits
    "start": (
        "inline_heading",  # its run-in heading out; an unframed span keeps one on another subject
        "repeated_parts",  # its parts headed as another section's clause type out, while run-in headings stand
        "page_legend",  # a page's running legend glued into the text out
        "other_script",  # another script's letters out (a bilingual contract's Chinese), its punctuation as English's
        "glued_number",  # a section number glued to a word out ("4.1Product" -> "Product")
        "number_line",  # a line holding only the source's article number out
        "lost_stop_number",  # a sub-clause number where the source lost its stop -> a stop
        "sub_numbers",  # sub-clause numbers opening a sentence written as list markers
        "inner_number",  # a section number opening a sentence out ("6.2 Warranty of Title." -> "Warranty ...")
        "glued_comma",  # a space after a comma glued to a word ("STATUTORY,INCLUDING")
        "glued_stop",  # a space after a full stop glued to the next word ("Definitions.The")
        "dash_lists",  # a flattened dash list written as a run-in list
        "framed_heading",  # in a framed span, a run-in heading the number cleanup bared out
        "exhibit_pointers",  # pointers into another contract's exhibits out
        "fill_in_lines",  # a form's own underscores to fill in -> one blank
        "foreign_statutes",  # a statute of another country the deal does not name -> "applicable law"
        "common_names",  # another deal's common-word terms in lower case
        "fact_sentences",  # sentences still holding another deal's facts out (a whole base's mended)
        "blank_values",  # another deal's figures that stay written as blanks
        "blank_holes",  # in a whole base, another deal's terms as blanks to complete
        "restated_frame",  # sentences restating the span's frame out
        "fit",  # cut after the last whole sentence that fits the span's room
        "trailing_headings",  # a heading left with nothing under it out
        "leaning_opening",  # a connective opening the span ("In addition, ...") out
    ),
    # hybrid.draft.consistency.consistency_pass, section by section in the draft's order
    "revise": (
        "frame_in_place",  # the term's frame in the place of the base's headed statement of it; before parts, apart
        "references",  # cross-references renumbered to the draft's sections, or rewritten to read without them
        "same_section",  # "Section 17 (General Cap) and Section 17 (Damages Waiver)" -> "Section 17 (General Cap; ...)"
        "doubled_words",  # "with with" -> "with"
        "paragraphs",  # a list marker or heading with nothing under it, a sentence cut mid-way, repaired
        "restated",  # a sentence restating the section's frame out
        "absent_clause",  # a sentence leaning on a clause the draft lacks out
        "conflicting_term",  # an Incoterm the deal does not state, a second term, fees pointed at an Order, out
        "frames_fee",  # "a sponsorship fee in the amount of [___]" after the frame's fee -> "the sponsorship fee"
        "relist",  # a list lettered again where a removal broke it
        "party_case",  # "party" -> "Party" where the preamble defines it
        "repeated_clause",  # a part headed as another section's clause type out
        "restated_law",  # a governing-law sentence outside the Governing Law section out
        "notice_addresses",  # another deal's notice address block as one blank address per party
        "relist",
    ),
    # hybrid.draft.consistency.consistency_pass, then over the whole draft, each pass over every section
    "whole": (
        "generic_terms",  # lower-case uses of a boilerplate term the Definitions defines capitalized
        "definition_pointers",  # '"X" is defined in Section 17.' pointed where a section defines X, or out
        "definitions",  # the Definitions index pruned to the entries the draft uses
        "framed_pointers",  # "the initial franchise fee described in [___]" -> "the initial franchise fee"
        "price_to_agree",  # "The price ... will be determined by both parties" out where a frame states the price
        "framed_contributions",  # "X shall contribute ... [___]" out where a frame states X's contribution
        "key_terms",  # a Key Terms blank whose term the draft no longer uses out ("End Date: [___].")
        "undefined_terms",  # capitalized terms the draft never defines in lower case
    ),
}

FIT = "fit"
"""Where the start phase's memoized part ends: everything before it depends on the precedent and the deal only."""


def phase(name: str, start: str | None = None, stop: str | None = None) -> tuple[str, ...]:
    """The pass names of phase `name` in order, from `start` (included) up to `stop` (excluded)."""
    if name not in PIPELINE:
        raise ValueError(f"unknown text phase {name!r}; the phases are: {', '.join(PIPELINE)}")
    names = PIPELINE[name]
    lo = names.index(start) if start else 0
    hi = names.index(stop) if stop else len(names)
    return names[lo:hi]


def pass_names() -> list[str]:
    """Every pass name of the pipeline, once each, in order of first appearance."""
    return list(dict.fromkeys(n for names in PIPELINE.values() for n in names))
