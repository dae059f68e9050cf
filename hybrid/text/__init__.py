"""Text passes: the pass contract (hybrid.text.passes), the ordered registry (hybrid.text.pipeline.PIPELINE), the
contexts a pass reads (hybrid.text.context), and the passes' own code with the patterns it repairs by.

The start phase (a precedent adapted to the deal, before any hole opens): its runs and the edit's masks
(`start`), its passes (`start_passes`), the settling of another deal's facts (`settle`, `holes`, `blanks`) and a
precedent's parts headed as another section's clause (`repeated_parts`). The revise and whole phases (a finished
draft, section by section, then at once): their passes (`revise_passes`, `fees`, `notices`, `key_term_lines`) and
the repairs they wrap (`references` with `reference_lists` and `reference_resolve`, `doubled_words`, `paragraphs`,
`wording`, `repeated_clauses`, `defined_terms`, `undefined_terms`); what a statement of the agreement's term is
(`term`). After the consistency pass, not yet a registered pass: the appointment stated the deal's way
(`exclusivity`, by `appointment`'s reading, which the substance check shares). The lexicon the passes share with
ingestion and the fit is hybrid.common.lexicon, below them all.

Sits above hybrid.precedents (the passes read a precedent's fact spans and its library's words) and below
hybrid.skeleton and hybrid.draft, which run the phases (tests/test_layering.py)."""
