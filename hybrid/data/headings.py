"""What a section heading and a document title look like in a cleaned contract.

Owns: the heading rules (title-casing ALL-CAPS headings, which short text reads as a heading,
where an inline heading ends and its body begins), the title rules (which early line names the
agreement) and `merge_empty` (a heading without a body joins the next section). Used by
hybrid.data.sections (plain text) and hybrid.data.sections_markdown; knows nothing about
numbering schemes, files or the canonical layout.
"""

import re

from hybrid.data.clean import strip_markdown_inline, to_ascii

__all__ = ["MAX_HEADING_CHARS", "MAX_TITLE_CHARS", "tidy_heading", "is_heading_text", "split_heading", "tidy_title",
           "find_title", "merge_empty", "Split", "NumberedSplit", "PARTY_RE", "line_heading"]

MAX_HEADING_CHARS = 80  # the planner's bounded heading strings (^[ -~]{1,80}$)
MAX_TITLE_CHARS = 100

# (title, preamble, [(heading, body), ...], tail): what a splitter returns
Split = tuple[str, str, list[tuple[str, str]], str]
# the same with each section's own numbers in its source: (title, preamble, [(heading, body, numbers), ...], tail)
NumberedSplit = tuple[str, str, list[tuple[str, str, tuple[str, ...]]], str]


_SMALL_WORDS = frozenset("a an and as at by for from in into nor of on or per the to upon under via vs with".split())
_NOT_A_HEADING_RE = re.compile(
    r"\b\d{1,2}\.\d|\b\d{1,3} \d{1,3}\b|^(?:In the event|If|Upon|Notwithstanding|Subject to|Except)\b"
)
# A heading never ends on these ("The Parties agree" must not yield the heading "The").
_DANGLING_WORDS = frozenset(
    "both each this these such any all either neither no section sections mr mrs ms dr new".split()
)
_ACRONYMS = frozenset("IP US USA U.S. SLA API FDA EU UK VAT GST NDA DPA AI HIPAA GDPR CCPA LLC CEO TV OEM MFN R&D "
                      "EEA HIV SEC ERISA OFAC FCPA DMCA SaaS PHI CD DVD PC UCC".split())
_SENTENCE_WORDS_RE = re.compile(
    r"\b(?:shall|will|may|must|agrees?|means|is|are|was|were|has|have|hereby|be|should|would|can|"
    r"does|do|acknowledges?|represents|warrants|provides?)\b",
    re.I,
)
PARTY_RE = re.compile(r"\b(?:INC|LLC|L\.L\.C|CORP|CORPORATION|LTD|LIMITED|L\.P|LP|GMBH|S\.A|N\.V|PLC|CO)\b\.?")


def _title_case(text: str) -> str:
    words = text.split(" ")
    out = []
    for i, w in enumerate(words):
        if w.upper() in _ACRONYMS:
            out.append(w.upper())
        elif i and w.lower() in _SMALL_WORDS and len(w) > 1:
            out.append(w.lower())
        else:
            out.append("-".join(p[:1].upper() + p[1:].lower() for p in w.split("-")))
    return " ".join(out)


def tidy_heading(heading: str) -> str:
    """Printable ASCII, no surrounding punctuation/quotes/Markdown, ALL CAPS title-cased; "" if too long."""
    h = to_ascii(strip_markdown_inline(heading))
    h = re.sub(r"\s*\((?:continued|cont'd)\)\s*$", "", h, flags=re.I)
    h = re.sub(r"(?<=[a-z])\d{1,3}$", "", h)  # a footnote or page number glued to the last word
    # "Entire agreement 30.1" / "Confidentiality 3": a number after it
    h = re.sub(r"\s+\d{1,2}(?:\.\d{1,3})*\.?$", "", h)
    h = h.strip(" .:;,-_*#\"'")
    if not re.search(r"[A-Za-z]", h) or len(h) > MAX_HEADING_CHARS:
        return ""
    if not re.search(r"[a-z]", h):
        h = _title_case(h)
    return h


def is_heading_text(h: str, *, sentence_case: bool = False) -> bool:
    """Short, capitalized, no verb of a sentence; Title Case (or, with sentence_case, up to 6 words)."""
    h = h.strip()
    if not h or len(h) > MAX_HEADING_CHARS or not h[0].isupper():
        return False
    words = h.split()
    if len(words) > 12 or _SENTENCE_WORDS_RE.search(h) or re.search(r"[$%\[\]]|(?<!\b(?:19|20)\d)\d{3,}", h):
        return False
    if (words[-1].lower().rstrip(".:;,") in _SMALL_WORDS | _DANGLING_WORDS
            or words[0].lower() in ("a", "an", "section", "sections") or ". " in h.rstrip(". ")
            or _NOT_A_HEADING_RE.search(h)):
        return False
    if not re.search(r"[a-z]", h):
        return True
    if sentence_case and len(words) <= 6:
        return True
    long_words = [w for w in re.findall(r"[A-Za-z][A-Za-z'-]*", h) if len(w) > 3]
    return not long_words or sum(w[0].isupper() for w in long_words) >= 0.6 * len(long_words)


_INLINE_HEADING_RE = re.compile(r"^(.{2,80}?)(?:\.|:|\s-)\s+(?=\S)")
_ABBREV_END_RE = re.compile(r"(?:\b[A-Z]|\bMr|\bMrs|\bMs|\bDr|\bNo|\bInc|\bCo|\bLtd|\bSt|\bU\.S|\bvs)$")
_TRAILING_ITEM_RE = re.compile(r"\s(?:[a-zA-Z]|[ivx]{1,4}|\d{1,2}(?:\.\d{1,3})*)$")
_HEADING_BEFORE_SUB_RE = re.compile(r"^(.{2,80}?)\s+(?=\(?\d{1,2}\.\d{1,3}\b|\([a-z1-9]\)\s)")
# "Term This Agreement shall ...": a heading without punctuation, cut before a word that starts sentences.
_SENTENCE_START_RE = re.compile(
    r"^((?:\S+\s+){0,6}?\S+)\s+(?=(?:(?:The|This|These|Each|Either|Neither|All|Any|No|In|If|Upon|Unless|Except|"
    r"Subject|Notwithstanding|During|Within|Both|Nothing|Such|It|You|We|Our|Your|When|Where|Whenever|Following|"
    r"After|Before|Prior|For|As|At|On|By|Under|From|Until|Without|To)\s+\S"
    r"|(?:Licensee|Licensor|Company|Customer|Supplier|Distributor|Provider|Consultant|Contractor|Client|Seller|"
    r"Buyer|Purchaser|Vendor|Franchisee|Franchisor|Manufacturer|Reseller|Party|Parties)\s+(?:shall|will|may|must|"
    r"agrees?|hereby|acknowledges?|represents|warrants|is|are|has|have|should|can|covenants)\b))"
)
_CAPS_RUN_RE = re.compile(r"^((?:[A-Z][A-Z&/,'-]*\s+){0,7}[A-Z][A-Z&/'-]{2,}[.:]?)\s+(?=[A-Z][a-z]|\(|\"|[A-Za-z]\.\s)")
_CAPS_SUBJECT_RE = re.compile(r"^((?:[A-Z][A-Z&/,'-]*\s+){0,6}[A-Z][A-Z&/'-]{2,})\s+(?=[A-Z][A-Za-z&.-]*\s+[a-z])")


def split_heading(rest: str) -> tuple[str, str]:
    """'Confidentiality. Each party ...' -> ('Confidentiality', 'Each party ...'); ('', rest) when none."""
    rest = rest.strip().lstrip("-: ").strip()
    if not rest:
        return "", ""
    bare = rest.rstrip(".: ")
    if (len(rest) <= MAX_HEADING_CHARS and is_heading_text(bare) and bare.count(". ") == 0
            and not re.search(r"\s\d{1,2}\.\d", bare)):
        return bare, ""
    found = []  # (heading, body start); the shortest wins ("Orders 5.1 Forecasts." -> "Orders")
    for rx in (_INLINE_HEADING_RE, _HEADING_BEFORE_SUB_RE):
        m = rx.match(rest)
        if (
            m
            and is_heading_text(m.group(1))
            and not m.group(1).startswith('"')
            and not _ABBREV_END_RE.search(m.group(1))
        ):
            found.append((m.group(1), m.end()))
    m = _CAPS_RUN_RE.match(rest)
    if m and len(re.sub(r"[^A-Z]", "", m.group(1))) >= 4 and not PARTY_RE.search(m.group(1)):
        found.append((m.group(1), m.end()))
    if found:
        heading, end = min(found, key=lambda f: len(f[0]))
        item = _TRAILING_ITEM_RE.search(heading)  # "Insurance a. Subcontractor shall": "a." opens the body
        if item:
            heading, end = heading[:item.start()], item.start() + 1
        return heading, rest[end:]
    m = _CAPS_SUBJECT_RE.match(rest)  # "RIGHT OF REPLACEMENT EDGE may ...": the last capital word is the subject
    if m and len(re.sub(r"[^A-Z]", "", m.group(1))) >= 4 and not PARTY_RE.search(m.group(1)):
        return m.group(1), rest[m.end():]
    m = _SENTENCE_START_RE.match(rest)
    if m and is_heading_text(m.group(1), sentence_case=True) and len(rest) - m.end() >= 20:
        return m.group(1), rest[m.end():]
    return "", rest


def line_heading(rest: str) -> str:
    """A marker's whole line as its heading in sentence case ("3. Distributor's undertakings", "5. Prices and
    payment", alone on their lines): the style of many English and Australian contracts, which split_heading's Title
    Case test reads as no heading, so their sections had gone into the one before ("" where rest is no such line)."""
    bare = rest.strip()
    if len(bare) > 60 or re.search(r"[.;:,]$", bare) or not is_heading_text(bare, sentence_case=True):
        return ""
    return bare


# ---------------------------------------------------------------------------------------------
# section markers and the top-level numbering chain


_TITLE_WORDS = (r"AGREEMENT|CONTRACT|AMENDMENT|ADDENDUM|LICENSE|TERMS|MEMORANDUM|NDA|LETTER|ORDER|STATEMENT OF WORK|"
                r"PLAN|LEASE|UNDERSTANDING|ARRANGEMENT|PROTOCOL|DEED|COVENANT|POLICY|TERM SHEET|MOU|JOINDER")
_CAPS_TITLE_RE = re.compile(r"^[^a-z]*\b(?:" + _TITLE_WORDS + r")S?\b[^a-z]*$")
_CAPS_TITLE_RUN_RE = re.compile(
    r"^((?:[A-Z0-9][A-Z0-9&,'/.()-]*\s+){0,10}(?:" + _TITLE_WORDS + r")S?)\s+(?=\(?[A-Z\"][a-z]|THIS\b|This\b)"
)
TITLE_BEFORE_WORDS = 25  # a unit longer than this is body text: no mixed-case title comes after it
_MIXED_TITLE_RE = re.compile(r"\b(?:Agreement|Contract|Terms|Addendum|Amendment|NDA|Order Form|Statement of Work|"
                             r"Term Sheet|Letter of Intent|Policy|License|Memorandum)\b")
_BAD_TITLE_RE = re.compile(
    r"^(?:THIS|THE|PURSUANT|WHEREAS|NOW|IN WITNESS)\b|OMITTED|CONFIDENTIAL TREATMENT|SECURITIES AND EXCHANGE"
)


def tidy_title(title: str) -> str:
    t = to_ascii(title)
    t = re.sub(r"^(?:EXHIBIT|Exhibit)\s+[\w.()-]{1,8}\s+", "", t)
    t = t.strip(" .:;,-_*#\"'")
    return t.upper() if len(t) <= MAX_TITLE_CHARS else ""


def find_title(units: list, doc_type: str) -> tuple[str, int, str]:
    """(title, index of the unit it came from or -1, text left over from that unit). A title in mixed case
    ("Partnership Agreement") is looked for only before the first paragraph of body text (over TITLE_BEFORE_WORDS
    words): after one, "Trademark License" is a section's heading (a Common Paper form without its cover page
    had lost its first three sections to the preamble that way)."""
    body = False
    for i, u in enumerate(units[:15]):
        t = u.text
        body = body or len(t.split()) > TITLE_BEFORE_WORDS
        if len(t) <= 150 and _CAPS_TITLE_RE.match(t) and not _BAD_TITLE_RE.search(t) and tidy_title(t):
            return tidy_title(t), i, ""
        m = _CAPS_TITLE_RUN_RE.match(t)
        if m and not _BAD_TITLE_RE.search(m.group(1)) and tidy_title(m.group(1)):
            return tidy_title(m.group(1)), i, t[m.end():]
        if (not body and len(t) <= 100 and _MIXED_TITLE_RE.search(t) and not re.search(r"[.;:,]$", t)
                and is_heading_text(t) and tidy_title(t)):
            return tidy_title(t), i, ""
    return tidy_title(doc_type) or "AGREEMENT", -1, ""


def merge_empty(sections: list[tuple]) -> list[tuple]:
    """A section whose body is empty joins the next one (the last one's heading ends the previous body).
    Items are (heading, body) or (heading, body, numbers): a joined section's numbers (the source's own
    section numbers it holds, hybrid.data.sections) go with its heading."""
    out: list[tuple] = []
    carry: tuple | None = None
    for heading, body, *numbers in sections:
        if carry:
            body = f"{carry[0]}\n\n{body}".strip()
            numbers = [(*carry[1][0], *numbers[0])] if numbers else numbers
            carry = None
        if not body.strip():
            carry = (heading, numbers)
            continue
        out.append((heading, body, *numbers))
    if carry and out:
        h, b, *numbers = out[-1]
        out[-1] = (h, f"{b}\n\n{carry[0]}", *([(*numbers[0], *carry[1][0])] if numbers else ()))
    return out
