"""A Key Terms section's blank lines that the draft no longer uses, out.

Owns `unused_blank_terms` and its whole-phase pass ("key_terms", hybrid.text.pipeline.PIPELINE["whole"]). A
cover-page form's Key Terms list its Variables the deal does not state as blanks ("End Date: [___].",
hybrid.skeleton.key_terms.cover_variables), read off the base's sections before the deal's frames replace some of
them: the partnership form's "continues until the End Date" gave way to the deal's "3 years", and the Key Terms kept
"End Date: [___]." beside "Term Length: 3 years." (seed-331 reader: two term items). A blank line whose term no
other part of the draft uses is a blank to complete for nothing: it goes, as does a line whose value still holds a
blank. A line with a whole value stays, as does a blank the draft still uses.
"""

import re

from hybrid.data.facts import BLANK
from hybrid.text.passes import Pass, change, register
from hybrid.text.revise_passes import whole_example

__all__ = ["unused_blank_terms", "KEY_TERMS"]

KEY_TERMS = "Key Terms"  # the heading hybrid.skeleton.from_base gives the section
# a line whose value is a blank, or still holds one ("Non-Renewal Notice Date: At least [___] days before ...": a
# cover page's proposal, kept in a perpetual licence whose renewal clause went, seed-1291 reader)
_BLANK_LINE = re.compile(rf"^([^:\n]{{2,80}}): (?=[^\n]*{re.escape(BLANK)})[^\n]*$", re.M)


def unused_blank_terms(body: str, rest: str) -> tuple[str, list[str]]:
    """(body without its "Label: [___]." lines (or lines whose value holds a blank) whose label `rest`, the rest of
    the draft, never uses, [labels dropped]). Never every line: a Key Terms section keeps at least one."""
    lines = body.split("\n")
    drop = [i for i, line in enumerate(lines) if (m := _BLANK_LINE.match(line.strip()))
            and not re.search(rf"\b{re.escape(m[1].strip())}\b", rest)]
    if not drop or len(drop) == len([x for x in lines if x.strip()]):
        return body, []
    gone = [_BLANK_LINE.match(lines[i].strip())[1].strip() for i in drop]
    kept = [line for i, line in enumerate(lines) if i not in set(drop)]
    if kept and not body.endswith("\n"):
        kept[-1] = kept[-1].rstrip()
    return "\n".join(kept), gone


def _pass(body, ctx):
    if ctx.sections[ctx.index].get("heading") != KEY_TERMS:
        return body, []
    rest = "\n\n".join([ctx.preamble] + [b for j, b in enumerate(ctx.bodies) if j != ctx.index])
    body, gone = unused_blank_terms(body, rest)
    return body, [change("key_term", term, None, "dropped", "a blank no other part of the draft uses") for term in gone]


def _example(text: str = "", **overrides):
    ctx = whole_example(text, **overrides)
    ctx.sections[ctx.index] = {**ctx.sections[ctx.index], "heading": KEY_TERMS}
    return ctx


_KEY = f"Term Length: 3 years.\nEnd Date: {BLANK}.\nGeneral Cap Amount: {BLANK}."
register(Pass(
    "key_terms", "whole", "a Key Terms section's blank lines whose term the draft no longer uses out", _pass, (
        (_KEY, f"Term Length: 3 years.\nGeneral Cap Amount: {BLANK}.",
         {"definitions": "Liability is capped at the General Cap Amount."}),
        (_KEY, _KEY, {"definitions": "The End Date and the General Cap Amount apply."}),
        (f"Subscription Period: perpetual.\nNon-Renewal Notice Date: At least {BLANK} days before the end.",
         "Subscription Period: perpetual.", {"definitions": "The Subscription Period starts on the Effective Date."}),
    ), _example))
