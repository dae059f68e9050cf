"""Whether a clause from another document fits a base's vocabulary: the terms it brings, the terms it keeps.

Owns: `Vocabulary` (the capitalized terms one variant's base and deal already use, and its headings) with `imports`
(the terms a clause would bring that the base never uses: a cloud agreement's "General Cap Amount" in a franchise),
`unheaded` (the titles a clause cites that no heading of the base has: "Section 2.1 (Restrictions on Customer)" in
a hosting agreement) and `keeps` (whether a clause taking a base section's place still uses the base's terms that
section works with, and cites every section it cites by title: an SLA's remedies section speaks of "Uptime Credit"
and "Target Uptime", an NDA's equitable-relief clause of the same clause type does not and would leave the credits
in the Key Terms with no clause to apply them; a sister form's damages-waiver exceptions without "Customer's breach
of Section 1.1 (License)" take the licensor's protection away). Pure functions of text: a term is a mid-sentence
capitalized run of common words (hybrid.text.undefined_terms.undefined_runs), compared in any case and number.
Also `base_fits`, the check hybrid.skeleton.from_base applies to a candidate clause (this vocabulary, built from one
variant's rows).

A clause another document supplies reads as part of the base only when it speaks the base's language: standard
forms of one family (Common Paper's, Bonterms') share one vocabulary by design, so their clauses are checked for
what they keep, not for what they bring (the Key Terms block names a family's Variables).
"""

import re

from hybrid.fidelity.foreign_facts import allowed_text
from hybrid.templates.rendered import substitute
from hybrid.text.undefined_terms import deal_capitals, term_forms, undefined_runs

__all__ = ["Vocabulary", "KEEP_SHARE", "base_fits"]

KEEP_SHARE = 0.5  # a replacing clause keeps at least this share of the base terms the replaced section uses
# a titled cross-reference: "Section 1.1 (License)", "Sections 7.1 (Liability Caps) and 7.2 (Damages Waiver)"
_TITLED = re.compile(r"\b\d+(?:\.\d+)*(?:\([a-z0-9]+\))? \(([A-Z][^()]{1,60})\)")
# an acronym: "DPA", "BAA", "SOW" (a name a clause may call its own document by: "arising out of this DPA")
_ACRONYM = re.compile(r"\b[A-Z]{2,6}s?\b")
# a run-in heading at a line's start: "Damages Waiver. Except as provided ..."
_RUN_IN = re.compile(r"(?:^|\n)[ \t]*([A-Z][\w'’&,-]*(?: [\w'’&,-]+){0,5})\.(?=\s|$)")


class Vocabulary:
    """The terms of one base (all its section bodies and frames) and of the deal (its own capitalized words)."""

    def __init__(self, base_texts, deal_text: str, defined=(), headings=()):
        self.texts = [t for t in base_texts if t]
        self.capitals = deal_capitals([deal_text])
        self.runs = {t: term_forms(undefined_runs([t], ())) for t in self.texts}  # each text's terms, found once
        self.terms = set().union(term_forms(defined), *self.runs.values())
        self.titles = {*headings, *(m for t in self.texts for m in _RUN_IN.findall(t))}
        self.acronyms = {a.rstrip("s") for t in (*self.texts, deal_text) for a in _ACRONYM.findall(t)}

    def imports(self, text: str) -> list[str]:
        """The terms text uses that neither the base nor the deal uses, as written: capitalized runs, and acronyms
        ("this DPA" in a franchise's liability clause: a data processing agreement's own name for itself)."""
        runs = undefined_runs([text], self.terms, self.capitals)
        acronyms = [a for a in dict.fromkeys(_ACRONYM.findall(text)) if a.rstrip("s") not in self.acronyms]
        return runs + [a for a in acronyms if a not in runs]

    def unheaded(self, text: str) -> list[str]:
        """The titles text cites that no heading of the base has ("Section 2.1 (Restrictions on Customer)" in a
        base without that section), as written."""
        own = set(_RUN_IN.findall(text))  # its own parts: a cap clause's "Section 8.4 (Exceptions)"
        return [t for t in dict.fromkeys(_TITLED.findall(text)) if t not in self.titles and t not in own]

    def keeps(self, replaced: str, text: str) -> bool:
        """Whether text, taking the place of the base's section `replaced`, uses KEEP_SHARE of the terms that
        section shares with the rest of the base (none shared: nothing to keep), and every title it cites."""
        if not set(_TITLED.findall(replaced)) <= set(_TITLED.findall(text)):
            return False
        own = {t.lower() for t in undefined_runs([replaced], ())}
        rest = set().union(*(runs for t, runs in self.runs.items() if t != replaced))
        shared = {t for t in own if t in rest}
        if not shared:
            return True
        used = term_forms(undefined_runs([text], ()))
        return len(shared & used) >= KEEP_SHARE * len(shared)


def base_fits(base, rows, template, values):
    """fits(precedent, replaced=None): whether a precedent's clause reads as part of this base: it brings no term
    the base and deal never use (unless it comes from the base's own family of standard forms, which share one
    vocabulary) and cites no section by a title the base has no heading for, and, taking the place of the base's
    section `replaced`, it keeps that section's terms and titled references (hybrid.skeleton.vocabulary)."""
    vocab = Vocabulary([getattr(r["draw"], "body", "") or r["frame"] for r in rows], allowed_text(template, values),
                       [substitute(t, values) for t in template.defined_terms], [r["heading"] for r in rows])

    def fits(precedent, replaced=None) -> bool:
        family = base.kind == "form" and precedent.source == base.source
        return (family or not vocab.imports(precedent.body)) and not vocab.unheaded(precedent.body) and (
            replaced is None or vocab.keeps(replaced.body, precedent.body))
    return fits
