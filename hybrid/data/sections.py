"""Segmentation of one cleaned document into title, preamble, top-level sections and tail.

Owns: split_document() and the plain-text section rules (what counts as a section marker,
which numbering level is the top level); what a heading or title reads like is
hybrid.data.headings, Markdown sources hybrid.data.sections_markdown. Input is the output
of hybrid.data.clean (plain text, paragraphs separated by blank lines, Markdown kept for .md
sources). Knows nothing about files, manifests or the canonical layout (hybrid.data.document).

Plain text:
  title     the first ALL-CAPS line naming the agreement ("DISTRIBUTOR AGREEMENT"), or such a
            run at the start of a flattened paragraph, or a short Title Case line with
            "Agreement"; else the manifest doc_type.
  sections  one numbering scheme is the top level: CHAPTER 1 / ARTICLE I / Section 1 / 1. / I. /
            1) (the best-scoring chain of consecutive numbers; a marker with a heading outweighs
            several without, one followed by little text is discounted as a TOC line), else
            1.1 items, else unnumbered ALL-CAPS or Title Case heading lines, else A. items.
            Lower levels (1.1, (a), (i)) stay inside the body. A numbered paragraph without a
            heading is not a section: its text stays, verbatim, in the previous section's body.
  tail      "IN WITNESS WHEREOF ..." onward, or the first EXHIBIT/SCHEDULE/ANNEX heading after
            the last section.
Markdown: "# Title", the shallowest heading level used at least twice (or "**1. Heading**."
paragraphs) gives the sections; deeper headings become plain lines of the body.
Headings are short (<= MAX_HEADING_CHARS), printable ASCII, without number or final punctuation;
ALL-CAPS headings are title-cased. Bodies lose the section numbers their lines open with
(hybrid.data.clean.strip_numbering: "8.1 Term. ..." -> "Term. ...", a "1.1.1" line is dropped),
since the document layout numbers sections itself. A section whose body is empty is merged into
the next one.
"""

import re
from dataclasses import dataclass

from hybrid.data.clean import strip_numbering
from hybrid.data.headings import (
    MAX_HEADING_CHARS,
    MAX_TITLE_CHARS,
    PARTY_RE,
    NumberedSplit,
    Split,
    find_title,
    is_heading_text,
    line_heading,
    merge_empty,
    split_heading,
    tidy_heading,
    tidy_title,
)
from hybrid.data.sections_markdown import looks_markdown, split_markdown

__all__ = ["MAX_HEADING_CHARS", "MAX_TITLE_CHARS", "split_document", "split_numbered", "tidy_heading", "looks_markdown"]


@dataclass
class _Unit:
    text: str
    blank_before: bool  # separated from the previous unit by a blank line (else a single newline)


def _units(text: str) -> list[_Unit]:
    out: list[_Unit] = []
    blank = False
    for line in text.split("\n"):
        if line.strip():
            out.append(_Unit(line.strip(), blank))
            blank = False
        else:
            blank = True
    return out


# a line after a blank that goes on with the sentence before it (a page break in the source): not a list item,
# a numbered line, a heading word, a recital or a bullet, unless it is "SECTION 8 OF ..." inside a sentence
_NEW_PARAGRAPH = re.compile(
    r"^(?:\(?[0-9]{1,3}(?:\.[0-9]{1,3})*[.)]?\s|\(?[ivxlcIVXLC]{1,5}[.)]\s|\([a-zA-Z]{1,2}\)|[A-Za-z][.)]\s"
    r"|(?:ARTICLE|SECTION|Section|Article|EXHIBIT|Exhibit|SCHEDULE|Schedule|ANNEX|Annex|APPENDIX|Appendix"
    r"|WHEREAS|NOW|IN WITNESS)\b|[*#•\-–—_=])"
)
_REFERENCE_GOES_ON = re.compile(r"^(?:SECTION|Section|ARTICLE|Article)\s+\d+(?:\.\d+)*\s+(?:of|OF)\b")


def _capitals(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 8 and sum(c.isupper() for c in letters) >= 0.8 * len(letters)


def _goes_on(prev: str, line: str) -> bool:
    """Whether `line`, after a blank line, continues `prev`'s sentence: prev is a paragraph (12 words or more)
    that stops on a word or a comma (not "; and", a list's end), and line opens with a lower-case word, or
    both are capitals ("... IN THIS AGREEMENT" + "FAIL OF THEIR ESSENTIAL PURPOSE."), and is no new item."""
    words = prev.split()
    if len(words) < 12 or not (prev[-1:].isalpha() or prev.endswith(",")) or re.search(r";\s+(?:and|or)$", prev):
        return False
    if _NEW_PARAGRAPH.match(line) and not _REFERENCE_GOES_ON.match(line):
        return False
    return line[:1].islower() or (_capitals(prev) and _capitals(line.split(".")[0]) and line[:1].isalpha())


def _join(units: list[_Unit]) -> str:
    parts: list[str] = []
    for i, u in enumerate(units):
        if i:
            parts.append((" " if _goes_on(units[i - 1].text, u.text) else "\n\n") if u.blank_before else "\n")
        parts.append(u.text)
    return "".join(parts)


_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


def _roman(s: str) -> int:
    total, prev = 0, 0
    for ch in reversed(s.upper()):
        v = _ROMAN_VALUES[ch]
        total = total - v if v < prev else total + v
        prev = max(prev, v)
    return total


_MARKER_RES = {
    "chapter": re.compile(
        r"^(?:CHAPTER|Chapter|PART|Part)\s+(?P<num>[IVXLC]+|\d{1,2})\b(?!\.\d)\.?(?:\s*[-:.]\s*|\s+|$)(?P<rest>.*)$"
    ),
    "article": re.compile(
        r"^(?:ARTICLE|Article)\s+(?P<num>[IVXLC]+|\d{1,2})\b(?!\.\d)\.?(?:\s*[-:.]\s*|\s+|$)(?P<rest>.*)$"
    ),
    "section": re.compile(r"^(?:SECTION|Section)\s+(?P<num>\d{1,2})(?![.\d]\d)\.?(?:\s*[-:.]\s*|\s+|$)(?P<rest>.*)$"),
    "num": re.compile(r"^(?P<num>\d{1,2})(?:\.0(?![.\d])\.?|\.(?!\d)|(?=\s+[A-Z\"(]))\s*(?P<rest>.*)$"),
    "paren": re.compile(r"^\(?(?P<num>\d{1,2})\)\s*(?P<rest>.*)$"),
    "subnum": re.compile(
        r"^(?:(?:SECTION|Section)\s+)?(?P<num>\d{1,2})\.(?P<sub>[1-9]\d{0,2})(?![.\d]\d)\.?\s*(?P<rest>.*)$"
    ),
    "roman": re.compile(r"^(?P<num>[IVX]{1,6})(?:\.|\s+-)\s+(?P<rest>.*)$"),
    "letter": re.compile(r"^(?P<num>[A-Z])\.\s+(?P<rest>.*)$"),
}
_WRITTEN_KINDS = frozenset({"chapter", "article", "section", "num", "paren", "subnum", "roman"})  # their numbers
# A marker with a heading outweighs several without: a chain of headed "1. Term." sections beats
# a longer chain of numbered recitals or headless articles.
HEADED_WEIGHT, HEADLESS_WEIGHT = 1.0, 0.15
SHORT_SECTION_CHARS = 150  # less text than this before the next marker of its kind: a TOC line or list item
# (tier, score factor): a lower tier wins whenever it has a chain of >= 3; within a tier, the best score.
_KINDS = {
    "chapter": (0, 1.3),
    "article": (0, 1.3),
    "section": (0, 1.2),
    "num": (0, 1.0),
    "roman": (0, 1.0),
    "paren": (0, 0.8),
    "subnum": (1, 1.0),
    "caps": (2, 1.0),
    "titleline": (2, 0.9),
    "letter": (3, 1.0),
}
_WITNESS_RE = re.compile(r"^(?:IN WITNESS (?:WHEREOF|THEREOF|HEREOF)|In [Ww]itness [Ww]hereof|IN TESTIMONY WHEREOF)")
_SIGNATURE_RE = re.compile(
    r"^(?:By|BY|Name|NAME|Signature|SIGNATURE|Signed|SIGNED)\s*:|^/s/|^(?:[A-Z][A-Z&.,' -]+\s+)?By:\s*(?:/s/|_{3,})"
)
_EXHIBIT_RE = re.compile(
    r"^(?:EXHIBIT|Exhibit|SCHEDULE|Schedule|ANNEX|Annex|APPENDIX|Appendix|ATTACHMENT|Attachment)\b"
)
_NOT_CAPS_HEADING_RE = re.compile(
    r"^(?:WITNESSETH|W I T N E S S|RECITALS|BACKGROUND|PREAMBLE|AND|BETWEEN|BY AND BETWEEN|"
    r"BY|NAME|TITLE|DATE|AGREED|ACCEPTED|TABLE OF CONTENTS)\b"
)


@dataclass
class _Cand:
    unit: int
    kind: str
    value: tuple[int, int]  # (number, sub-number or 0)
    rest: str
    weight: float


def _candidates(units: list[_Unit], lo: int, hi: int) -> dict[str, list[_Cand]]:
    out = _raw_candidates(units, lo, hi)
    # A marker followed by little text before the next marker of its kind is a table-of-contents
    # line or a list item, not a section: it counts a third.
    offsets = [0]
    for u in units:
        offsets.append(offsets[-1] + len(u.text))
    for cands in out.values():
        for c, nxt in zip(cands, cands[1:] + [None]):
            end = nxt.unit if nxt else hi
            if offsets[end] - offsets[c.unit] < SHORT_SECTION_CHARS:
                c.weight /= 3
    return out


# a marker alone on its line ("7.", "B.", "(iv)"): where two stand together, a column of numbers a PDF extraction put
# apart from the headings and text they number (a joint venture form's "2.\n3.\n4." between its headed sections)
_BARE_MARKER = re.compile(r"^\(?(?:\d{1,2}(?:\.\d{1,2})*|[A-Za-z]|[ivxIVX]{1,5})[.)]$")


def _raw_candidates(units: list[_Unit], lo: int, hi: int) -> dict[str, list[_Cand]]:
    out: dict[str, list[_Cand]] = {k: [] for k in _KINDS}
    for i in range(lo, hi):
        t = units[i].text
        if _BARE_MARKER.match(t) and any(lo <= j < hi and _BARE_MARKER.match(units[j].text) for j in (i - 1, i + 1)):
            continue  # numbers without their text: no section's start
        for kind, rx in _MARKER_RES.items():
            m = rx.match(t)
            if not m:
                continue
            num = m.group("num")
            if kind == "letter" and num in "IVX":
                continue
            value = (_roman(num) if kind == "roman" or (kind in ("article", "chapter") and not num.isdigit())
                     else ord(num) - 64 if kind == "letter" else int(num),
                     int(m.group("sub")) if kind == "subnum" else 0)
            rest = m.group("rest")
            heading = (split_heading(rest)[0] or i + 1 < hi and line_heading(rest)
                       or (not rest.strip() and i + 1 < hi and _next_heading(units[i + 1].text)))
            out[kind].append(_Cand(i, kind, value, rest, HEADED_WEIGHT if heading else HEADLESS_WEIGHT))
        if len(t) <= 60 and not re.search(r"[a-z\d]", t) and _is_caps_heading(units, i, hi):
            out["caps"].append(_Cand(i, "caps", (0, 0), t, HEADED_WEIGHT))
        elif len(t) <= 60 and _is_title_line(units, i, hi):
            out["titleline"].append(_Cand(i, "titleline", (0, 0), t, HEADED_WEIGHT))
    return out


def _is_caps_heading(units: list[_Unit], i: int, hi: int) -> bool:
    t = units[i].text
    words = t.split()
    return (
        1 <= len(words) <= 8
        and re.search(r"[A-Z]{4}", t) is not None
        and not PARTY_RE.search(t)
        and not _NOT_CAPS_HEADING_RE.match(t)
        and not _WITNESS_RE.match(t)
        and not t.startswith("[")
        and i + 1 < hi
        and re.search(r"[a-z]", units[i + 1].text) is not None
    )


def _is_title_line(units: list[_Unit], i: int, hi: int) -> bool:
    t = units[i].text.strip()
    if (not is_heading_text(t) or re.search(r"[.;,:!?)\]\d{}]$|\d|^(?:By|Name|Title|Date|Attn|Attention)\b", t)
            or not re.search(r"[a-z]", t) or i + 2 >= hi):
        return False
    nxt = units[i + 1].text
    if len(nxt) <= 60 and is_heading_text(nxt) and not re.search(r"[.;:]$", nxt):
        return False
    return len(nxt) >= 80 or len(units[i + 2].text) >= 80


def _next_heading(text: str) -> str:
    """A following unit that is only a heading ("ARTICLE I" / "DEFINITIONS")."""
    t = text.strip()
    if (len(t) <= 60 and is_heading_text(t.rstrip(".:"), sentence_case=True) and not _MARKER_RES["num"].match(t)
            and not re.search(r"[;,]$", t)):
        return t.rstrip(".:")
    return ""


def _best_chain(cands: list[_Cand], kind: str) -> tuple[float, list[_Cand]]:
    """Heaviest subsequence (in document order) whose numbers step by +1 (a skip of one tolerated)."""
    if not cands:
        return 0.0, []
    if kind in ("caps", "titleline"):
        return sum(c.weight for c in cands), list(cands)
    best: list[float] = []
    parent: list[int] = []
    best_at: dict[tuple[int, int], int] = {}  # value -> index of the best chain ending on that value
    best_major: dict[int, int] = {}  # number -> index of the best chain ending on any sub-number of it
    for i, c in enumerate(cands):
        n, s = c.value
        preds = []
        if kind == "subnum":
            preds += [best_at.get((n, s - 1)), best_at.get((n, s - 2))]
            if s <= 2:
                preds += [best_major.get(n - 1), best_major.get(n - 2)]
        else:
            preds += [best_at.get((n - 1, 0)), best_at.get((n - 2, 0))]
        preds = [p for p in preds if p is not None]
        p = max(preds, key=lambda j: best[j]) if preds else -1
        best.append(c.weight + (best[p] if p >= 0 else 0.0))
        parent.append(p)
        if best_at.get(c.value) is None or best[i] > best[best_at[c.value]]:
            best_at[c.value] = i
        if best_major.get(n) is None or best[i] > best[best_major[n]]:
            best_major[n] = i
    end = max(range(len(cands)), key=lambda j: best[j])
    score = best[end]
    chain = []
    while end >= 0:
        chain.append(cands[end])
        end = parent[end]
    chain.reverse()
    return score, chain


def _choose_chain(cands: dict[str, list[_Cand]]) -> list[_Cand]:
    scored = []
    for kind, (tier, factor) in _KINDS.items():
        score, chain = _best_chain(cands[kind], kind)
        if chain:
            scored.append((tier, -score * factor, len(chain), kind, chain))
    for min_len in (3, 2, 1):
        ok = [s for s in scored if s[2] >= min_len]
        if ok:
            return min(ok, key=lambda s: (s[0], s[1]))[4]
    return []


def _split_plain(text: str, doc_type: str) -> NumberedSplit:
    units = _units(text)
    if not units:
        return tidy_title(doc_type) or "AGREEMENT", "", [], ""
    title, t_idx, t_rest = find_title(units, doc_type)
    lead: list[_Unit] = []
    if t_idx > 0 and (sum(len(u.text) for u in units[:t_idx]) > 400 or any(len(u.text) > 150 for u in units[:t_idx])):
        lead = units[:t_idx]
    if t_rest.strip():
        units[t_idx] = _Unit(t_rest.strip(), True)
        start = t_idx
    else:
        start = t_idx + 1
    # The tail starts at "IN WITNESS WHEREOF"; a signed cover page before the terms and conditions
    # also has one, so take the first that closes a body with >= 3 sections (else the best).
    # A later one wins only with at least twice the sections (the terms and conditions after a
    # signed cover page), not an exhibit's numbered list after the real signature block.
    ends = [i for i in range(start, len(units)) if _WITNESS_RE.match(units[i].text)] + [len(units)]
    hi, chain = ends[0], []
    for end in ends:
        found = _choose_chain(_candidates(units, start, end))
        if len(found) > (2 * len(chain) if len(chain) >= 3 else len(chain)):
            hi, chain = end, found
    if not chain:
        return title, _join(lead + units[start:hi]), [], _join(units[hi:])
    if hi == len(units):
        # No "IN WITNESS WHEREOF": the tail starts at the first exhibit heading or signature line
        # ("By: ...", "/s/ ...") after the last section, with the party-name lines right above it.
        for i in range(chain[-1].unit + 1, hi):
            t = units[i].text
            if _EXHIBIT_RE.match(t) and len(t) <= 100:
                hi = i
                break
            if _SIGNATURE_RE.match(t):
                while (
                    i - 1 > chain[-1].unit
                    and len(units[i - 1].text) <= 100
                    and not re.search(r"[a-z]", units[i - 1].text)
                ):
                    i -= 1
                hi = i
                break
    preamble_units = lead + units[start:chain[0].unit]
    sections: list[tuple[str, list[_Unit], list[str]]] = []
    for k, c in enumerate(chain):
        written = [str(c.value[0])] if c.kind in _WRITTEN_KINDS else []
        end = chain[k + 1].unit if k + 1 < len(chain) else hi
        body_start = c.unit + 1
        if c.kind in ("caps", "titleline"):
            heading, rest = c.rest, ""
        else:
            heading, rest = split_heading(c.rest)
            if not heading and body_start < end and line_heading(c.rest):  # "3. Distributor's undertakings"
                heading, rest = line_heading(c.rest), ""
            if not heading and not rest.strip() and body_start < end and _next_heading(units[body_start].text):
                heading = _next_heading(units[body_start].text)
                body_start += 1
        heading = tidy_heading(heading)
        if not heading:
            # A numbered paragraph without a heading is not a clause the planner can name: keep its
            # text verbatim (number included) as a continuation of the previous section.
            (sections[-1][1] if sections else preamble_units).extend(units[c.unit:end])
            if sections and written and written[0] not in sections[-1][2]:
                sections[-1][2].extend(written)  # "Section 10" of the source is in this section's text
            continue
        body_units = ([_Unit(rest.strip(), False)] if rest.strip() else []) + units[body_start:end]
        sections.append((heading, body_units, written))
    merged = merge_empty([(h, _join(b), tuple(w)) for h, b, w in sections])
    return title, _join(preamble_units), merged, _join(units[hi:])


def split_numbered(text: str, *, doc_type: str = "", markdown: bool | None = None) -> NumberedSplit:
    """Cleaned text -> (title, preamble, [(heading, body, numbers), ...], tail); see the module docstring.
    numbers: the top-level section numbers the source wrote for the section's text, in arabic digits ("12",
    "ARTICLE IV" -> "4"): its own first, then those of headless numbered paragraphs kept in its body or of an
    empty section merged into it; () where the source numbers none (capital or Markdown headings, A. items).
    A source's "Section 12" is the section holding "12", whatever place the layout renumbers it to.

    doc_type is the fallback title; markdown=None detects Markdown from the text.
    """
    if markdown is None:
        markdown = looks_markdown(text)
    if markdown:
        title, preamble, parts, tail = split_markdown(text, doc_type)
        parts = [(h, b, ()) for h, b in parts]
    else:
        title, preamble, parts, tail = _split_plain(text, doc_type)
    return title, preamble, merge_empty([(h, strip_numbering(b).strip(), w) for h, b, w in parts]), tail


def split_document(text: str, *, doc_type: str = "", markdown: bool | None = None) -> Split:
    """Cleaned text -> (title, preamble, [(heading, body), ...], tail): split_numbered without the numbers."""
    title, preamble, parts, tail = split_numbered(text, doc_type=doc_type, markdown=markdown)
    return title, preamble, [(h, b) for h, b, _ in parts], tail
