"""Segmentation of a Markdown source (Common Paper, Bonterms, site policies) into title,
preamble and top-level sections.

Owns: recognising Markdown (`looks_markdown`), front matter, the heading level that is the top
level ("# Title", the shallowest level used at least twice, or "**1. Heading**." paragraphs) and
turning deeper headings into body lines. Heading and title text rules are hybrid.data.headings;
plain-text segmentation is hybrid.data.sections, which calls this for Markdown.
"""

import re

from hybrid.common.sentences import RUN_IN_HEADING
from hybrid.data.clean import strip_markdown_inline
from hybrid.data.headings import Split, merge_empty, tidy_heading, tidy_title

__all__ = ["looks_markdown", "split_markdown"]

_MD_HEADING_RE = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
# "**1. Heading**. text" (Bonterms) and "1. **Heading**. text" (numbered lists of bold headings)
_MD_BOLD_SECTION_RE = re.compile(r"^(?:\*\*\d{1,2}\.(?!\d)\s*(.+?)\*\*|\d{1,2}\.\s+\*\*([^*]+?)\*\*)\.?\s*(.*)$")
_FRONT_MATTER_RE = re.compile(r"^---\n(.*?)\n---\n", re.S)
_NUMBER_PREFIX_RE = re.compile(r"^(?:[A-Z]|\d{1,2}[A-Z]?|[IVX]{1,5})(?:\.\d{1,2})*[.)]\s+")


_RUN_IN_RE = re.compile(rf"^({RUN_IN_HEADING})\s+(\S.*)$")  # hybrid.common.sentences' run-in heading


def _bold_heading(bold: str, rest: str) -> tuple[str, str]:
    """(heading, text on the same line) of a bold-numbered section whose bold also holds its first sentence:
    "9. **Disclaimer. Confidential Information is provided ... faults.**" is the section "Disclaimer", not a
    heading too long to be one (which joined the section before it)."""
    m = _RUN_IN_RE.match(bold.strip())
    if not m:
        return bold, rest
    return m.group(1)[:-1], f"{m.group(2)} {rest}".strip()


def looks_markdown(text: str) -> bool:
    """Front matter, or at least two Markdown headings / bold-numbered sections."""
    return text.startswith("---\n") or len(re.findall(r"^(?:#{1,6} [A-Za-z]|\*\*\d{1,2}\.)", text, re.M)) >= 2


_FORM_FOOTER = re.compile(r"^\s*[A-Z][^“”\"\n]{0,80}\(Version \d[\d.]*\)\.?\s*(?:<br\s*/?>)?\s*$|^\s*©|^\s*Learn more:")
_BULLETED_ITEM = re.compile(r"(?m)^[ \t]*[-*+][ \t]+(?=\(?[a-z0-9]{1,3}[.)][ \t])")  # "- (a) Representatives."


def _md_clean(text: str) -> str:
    text = _BULLETED_ITEM.sub("", strip_markdown_inline(text))  # a bullet before a list marker: the marker is enough
    return re.sub(r"\n{3,}", "\n\n", "\n".join(ln.rstrip() for ln in text.split("\n"))).strip()


def split_markdown(text: str, doc_type: str) -> Split:
    front_title = ""
    m = _FRONT_MATTER_RE.match(text)
    if m:
        t = re.search(r"^title:\s*['\"]?(.*?)['\"]?\s*$", m.group(1), re.M)
        front_title = t.group(1) if t else ""
        text = text[m.end():]
    lines = text.split("\n")
    marks: list[tuple[int, int, str, str]] = []  # (line, level, heading, body text on the same line)
    for i, ln in enumerate(lines):
        h = _MD_HEADING_RE.match(ln)
        if h:
            marks.append((i, len(h.group(1)), h.group(2), ""))
            continue
        b = _MD_BOLD_SECTION_RE.match(ln)
        if b:
            marks.append((i, 7, *_bold_heading(b.group(1) or b.group(2), b.group(3))))
    title = ""
    first_content = next((i for i, ln in enumerate(lines) if ln.strip()), 0)
    if marks and marks[0][1] == 1 and marks[0][0] <= first_content + 2:
        title = marks[0][2]
        lines[marks[0][0]] = ""
        marks = marks[1:]
    title = tidy_title(title) or tidy_title(front_title) or tidy_title(doc_type) or "POLICY"
    levels = sorted({lvl for _, lvl, _, _ in marks})
    top = next((lvl for lvl in levels if sum(1 for m in marks if m[1] == lvl) >= 2), levels[0] if levels else None)
    tops = [m for m in marks if m[1] == top]
    if not tops:
        return title, _md_clean("\n".join(lines)), [], ""
    for i, lvl, heading, _ in marks:
        if lvl != top and lvl <= 6:
            lines[i] = heading  # deeper headings become plain lines of the body
    preamble_lines = lines[:tops[0][0]]
    sections: list[tuple[str, list[str]]] = []
    for k, (i, _, heading, same_line) in enumerate(tops):
        end = tops[k + 1][0] if k + 1 < len(tops) else len(lines)
        heading = tidy_heading(_NUMBER_PREFIX_RE.sub("", heading.strip()))
        if not heading:  # too long for a heading: its line stays as text of the previous section
            (sections[-1][1] if sections else preamble_lines).extend(
                [re.sub(r"^#+\s*", "", lines[i])] + lines[i + 1 : end]
            )
            continue
        sections.append((heading, ([same_line] if same_line else []) + lines[i + 1:end]))
    if sections:  # the form's footer (its name and version, copyright, "Learn more: ...") is no text of its last clause
        heading, body = sections[-1]
        cut = next((k for k, ln in enumerate(body) if _FORM_FOOTER.search(ln)), len(body))
        sections[-1] = (heading, body[:cut])
    merged = merge_empty([(h, _md_clean("\n".join(b))) for h, b in sections])
    return title, _md_clean("\n".join(preamble_lines)), merged, ""
