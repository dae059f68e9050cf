"""A firm's own contract as clauses: each section split where a paragraph opens with a run-in heading.

Owns: `split_run_in` (a Document whose sections, or whose preamble where it has none, hold run-in headed paragraphs,
"Exceptions. The Recipient's obligations ...", with each such paragraph a section of its own) and `run_in_heads`
(where those headings stand in a text). Knows nothing of files or libraries: hybrid.precedents.user applies it to
the contracts a user adds.

Why: a form written in run-in headed paragraphs only (Common Paper's one-way NDA) had no section at all to the
numbered split, and one whose run-in paragraphs sit under unnumbered line headings (its independent contractor
agreement: "Non-Solicitation." under "Services & Restrictions") gave a clause per line heading holding several
clause types. The shipped corpus keeps its sections as built (hybrid.data.corpus): its library, and the caches keyed
by that module's code, do not change.
"""

import re
from dataclasses import replace

from hybrid.common.sentences import HEADING_BEFORE_TEXT
from hybrid.data.clauses import classify_heading
from hybrid.data.cover import MIN_RUN_IN_PARTS
from hybrid.data.document import Document, Section

__all__ = ["split_run_in", "run_in_heads"]

# a paragraph opening with up to seven title-case words and a full stop, then its first sentence
_HEAD = re.compile(rf"(?m)^[ \t]*({HEADING_BEFORE_TEXT})[ \t]+(?=[A-Z\"“(])")
_VAGUE = frozenset({"other", "general"})  # a sub-heading typed so ("Mutual.", "Applicability.") takes its section's


def run_in_heads(text: str) -> list[re.Match]:
    """The run-in headings opening a paragraph of text (group 1: the heading with its stop)."""
    return list(_HEAD.finditer(text))


def split_run_in(doc: Document) -> Document:
    """doc with each section split at the run-in headed paragraphs it holds: the text before the first stays the
    section (its heading, number and type), each paragraph from a run-in heading to the next is a section numbered
    "<section>.<k>", headed by its run-in heading and typed by it, or by its section's type where the heading alone
    says little ("Mutual." under "Representations & Warranties") and that section's heading heads nothing but its
    parts. A document with no section splits its preamble the same way. Unchanged where the whole document holds
    fewer than MIN_RUN_IN_PARTS run-in headings (a few are emphasis inside a clause, not its sections)."""
    bodies = [doc.preamble] if not doc.sections else [s.body for s in doc.sections]
    if sum(len(run_in_heads(b)) for b in bodies) < MIN_RUN_IN_PARTS:
        return doc
    if not doc.sections:
        lead, parts = _parts(doc.preamble)
        sections = [Section(str(k), h, classify_heading(h), b) for k, (h, b) in enumerate(parts, 1)]
        return replace(doc, preamble=lead, sections=sections)
    out = []
    for s in doc.sections:
        lead, parts = _parts(s.body)
        if lead or not parts:
            out.append(replace(s, body=lead or s.body))
        for k, (heading, body) in enumerate(parts, 1):
            kind = classify_heading(heading)
            if kind in _VAGUE and not lead and s.clause_type != "other":  # its section's heading heads its parts
                kind = s.clause_type
            out.append(Section(f"{s.number}.{k}", heading, kind, body, list(s.numbers)))
    return replace(doc, sections=out)


def _parts(text: str) -> tuple[str, list[tuple[str, str]]]:
    """(text before the first run-in heading, [(heading without its stop, paragraph body)])."""
    heads = run_in_heads(text)
    parts = []
    for m, nxt in zip(heads, [*heads[1:], None]):
        parts.append((m.group(1)[:-1].strip(), text[m.end() : nxt.start() if nxt else len(text)].strip()))
    return (text[: heads[0].start()].strip() if heads else text), parts
