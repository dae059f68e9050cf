"""References to parts of one section, written once: "Section 17 (General Cap) and Section 17 (Consequential Damages
Waiver)" -> "Section 17 (General Cap; Consequential Damages Waiver)".

Owns `merge_same_section` and its revise pass ("same_section", hybrid.text.pipeline.PIPELINE["revise"], after
"references"). A standard form cites its sub-sections by number and title ("Section 9.1 (General Cap) and Section
9.2 (Consequential Damages Waiver)"); the draft numbers sections only, so the references pass renumbers each to the
section holding it, and a list of them named one number again and again. Four readers of seed 733 quoted it as
ambiguous ("Section 2 (Feedback and Usage Data), Section 2 (Machine Learning), 2 (Reservation of Rights)"). A run of
such references to one number, joined by commas, "and" or "or", is written as one reference whose titles are
separated by semicolons ("or" kept before the last: "Section 10 (Compliance or High-Risk Activities)", a seed-947
reader having read "(Compliance; or High-Risk ...)" as garbled). References to
different numbers, and a lone reference, stay as written.
"""

import re

from hybrid.text.passes import Pass, change, register
from hybrid.text.revise_passes import example

__all__ = ["merge_same_section"]

# one titled reference: "Section 17 (General Cap)", or, inside a list, "2 (Reservation of Rights)"
_ITEM = r"(?:(?P<kw{k}>Sections?|SECTIONS?)[ \t]+)?(?P<n{k}>\d{{1,3}})[ \t]+\((?P<t{k}>[A-Z][^()\n]{{0,60}})\)"
_JOIN = r"(?P<j{k}>,[ \t]*(?:and[ \t]+|or[ \t]+)?|[ \t]+(?:and|or)[ \t]+)"
_PAIR = re.compile(_ITEM.format(k=0) + _JOIN.format(k=0) + _ITEM.format(k=1))
_NEXT = re.compile(_JOIN.format(k=0) + _ITEM.format(k=1))


def merge_same_section(text: str) -> tuple[str, list[str]]:
    """(text with each run of titled references to one section number written once, [the runs merged])."""
    merged: list[str] = []
    out, at, pos = [], 0, 0
    while True:
        m = _PAIR.search(text, pos)
        if not m:
            break
        if m.group("n0") != m.group("n1") or not m.group("kw0"):
            pos = m.end("j0")  # the second reference may open a run of its own
            continue
        number, titles, end, joins = m.group("n0"), [m.group("t0"), m.group("t1")], m.end(), [m.group("j0")]
        while nxt := _NEXT.match(text, end):
            if nxt.group("n1") != number:
                break
            titles.append(nxt.group("t1"))
            joins.append(nxt.group("j0"))
            end = nxt.end()
        either = "or" in joins[-1].split()
        last = (" or " if len(titles) == 2 else "; or ") if either else "; "  # "(Compliance or High-Risk ...)"
        joined = "; ".join(titles[:-1]) + last + titles[-1]
        out += [text[at : m.start()], f"{m.group('kw0')} {number} ({joined})"]
        merged.append(text[m.start() : end])
        at = pos = end
    if not merged:
        return text, []
    out.append(text[at:])
    return "".join(out), merged


def _pass(body, ctx):
    body, runs = merge_same_section(body)
    return body, [change("same_section", r, None, "merged", "references to parts of one section, written once")
                  for r in runs]


register(Pass(
    "same_section", "revise", "references to parts of one section written once", _pass, (
        ("Neither party's liability is limited under Section 17 (General Cap) and Section 17 (Consequential Damages "
         "Waiver) for fraud.", "Neither party's liability is limited under Section 17 (General Cap; Consequential "
         "Damages Waiver) for fraud."),
        ("These survive: Section 2 (Feedback and Usage Data), Section 2 (Machine Learning), 2 (Reservation of "
         "Rights), Section 3 (Restrictions) and Section 5 (Payment).", "These survive: Section 2 (Feedback and Usage "
         "Data; Machine Learning; Reservation of Rights), Section 3 (Restrictions) and Section 5 (Payment)."),
        ("A breach of Section 10 (Compliance) or Section 10 (High-Risk Activities) is material.",
         "A breach of Section 10 (Compliance or High-Risk Activities) is material."),
        ("Section 6 (Security) and Section 19 (Confidentiality) apply.",
         "Section 6 (Security) and Section 19 (Confidentiality) apply."),  # two sections: as written
    ), example))
