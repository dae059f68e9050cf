"""A standard form's cover page, and the run-in headed paragraphs its terms are written in.

Owns: `drop_cover_page` (a Common Paper form's text without its cover page: the label / `{placeholder}` lines and the
signature block before the standard terms) and `run_in_parts` (a text whose paragraphs each open with a run-in
heading, "Exceptions. The Recipient's obligations ...", as (heading, body) parts). Knows nothing of documents or
manifests: hybrid.data.corpus applies them while building a Document.

Why: a cover page's labels ("Pilot", "Increased Cap Amount", "Insurance Minimums") read as sections, and the terms
after it were lumped into its last label ("List specific changes to the Standard Terms", 991 words of the one-way
NDA's terms), which the clause library then left out as a form; a base drafted from such a form began with the
cover page and lacked its terms.
"""

import re

__all__ = ["drop_cover_page", "run_in_parts", "MIN_TERMS_WORDS", "MIN_RUN_IN_PARTS"]

PLACEHOLDER = re.compile(r"\{[a-z_][a-z0-9_]*\}")  # a cover page's fill-in field
MIN_TERMS_WORDS = 300  # what follows the cover page must be terms, not a signature line
MIN_RUN_IN_PARTS = 4  # fewer run-in headed paragraphs than this are emphasis inside a clause, not its sections
# a paragraph opening with a short title-case heading and a full stop, then a sentence: "Exceptions. The ..."
_RUN_IN = re.compile(r"(?m)^[ \t]*([A-Z][A-Za-z&,'’/ -]{1,60}?)\.[ \t]+(?=[A-Z“\"(])")


def drop_cover_page(text: str) -> str:
    """text after the line of its last `{placeholder}` where at least MIN_TERMS_WORDS words follow (a cover page
    and its signature block come first); text itself where it has no placeholder or nothing of length follows."""
    last = next(reversed(list(PLACEHOLDER.finditer(text))), None)
    if last is None:
        return text
    end = text.find("\n", last.end())
    rest = text[end + 1 :] if end >= 0 else ""
    return rest if len(rest.split()) >= MIN_TERMS_WORDS else text


def run_in_parts(text: str) -> tuple[str, list[tuple[str, str]]]:
    """(what comes before the first run-in heading, [(heading, body)] per run-in headed paragraph) where the text
    holds at least MIN_RUN_IN_PARTS of them, each heading title-case (every word of four letters or more
    capitalized); ("", []) otherwise."""
    found = [m for m in _RUN_IN.finditer(text) if _title_case(m.group(1))]
    if len(found) < MIN_RUN_IN_PARTS:
        return "", []
    parts = []
    for m, nxt in zip(found, [*found[1:], None]):
        body = text[m.end() : nxt.start() if nxt else len(text)].strip()
        parts.append((m.group(1).strip(), body))
    return text[: found[0].start()].strip(), parts


def _title_case(heading: str) -> bool:
    words = re.findall(r"[A-Za-z]+", heading)
    return bool(words) and len(words) <= 8 and all(w[0].isupper() for w in words if len(w) >= 4)
