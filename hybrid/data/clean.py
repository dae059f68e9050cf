"""Text cleaning for the corpus: PDF/EDGAR extraction dirt -> plain paragraphs.

Owns: clean_text() (a pure str -> str function, no I/O), the small inline-Markdown stripper
used for policies and standard agreements, and strip_numbering() (line-leading section numbers
out of a clause body: used on training bodies by hybrid.data.sections and on drafted bodies by
hybrid.drafter). Knows nothing about sections, files or models.

What clean_text() does, in order:
  1. characters: CRLF, NBSP and other spaces, zero-width and soft hyphens, quotes -> ASCII,
     dashes, ellipses, bullets;
  2. EDGAR dirt: "Source: COMPANY, 10-K, 1/2/2020" stamps, "Page 3 of 10", confidential-treatment
     banners and legends (whole lines, or sentences inside long lines), underline rules;
  3. redaction marks ([***], [*****], [* * *], {*****}, [...***...], bare *****) -> exactly "[***]";
  4. flattened text: the ~190 CUAD files that hold whole pages on one line are split back into
     paragraphs (runs of spaces that stood for line breaks, then breaks before section numbers,
     ARTICLE / Section headings, (a) items, WHEREAS, definitions when they follow a sentence end);
  5. noise lines: page numbers ("3", "-3-", "A-3", "Page 3"), running headers and footers (short
     lines repeated many times), table-of-contents blocks;
  6. re-wrap: a paragraph cut by a page break (ends mid-sentence, next starts lower-case) is joined;
  7. whitespace: single spaces, no trailing spaces, at most one blank line between paragraphs.
Single newlines are kept (Markdown lists, cover-page forms); paragraphs are separated by one blank line.
"""

import re
import unicodedata
from collections import Counter

__all__ = ["clean_text", "clean_markdown", "strip_markdown_inline", "to_ascii", "strip_numbering", "NUMBERED_LINE", "REDACTION"]

REDACTION = "[***]"

# ---------------------------------------------------------------------------------------------
# 1. characters

_CHAR_MAP = {
    "\r\n": "\n", "\r": "\n", "\f": "\n\n", "\u2028": "\n", "\u2029": "\n\n", "\t": " ",
    "\u00a0": " ", "\u2002": " ", "\u2003": " ", "\u2004": " ", "\u2005": " ", "\u2006": " ",
    "\u2007": " ", "\u2008": " ", "\u2009": " ", "\u200a": " ", "\u202f": " ", "\u205f": " ",
    "\u3000": " ", "\u200b": "", "\u200c": "", "\u200d": "", "\u2060": "", "\ufeff": "", "\u00ad": "",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"', "\u00ab": '"', "\u00bb": '"',
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'", "\u00b4": "'",
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2212": "-", "\ufe63": "-", "\uff0d": "-",
    "\u2014": " - ", "\u2015": " - ",
    "\u2026": "...", "\u2217": "*", "\u2215": "/", "\uff5e": "~",
    "\u2022": "-", "\u00b7": "-", "\u25cf": "-", "\u25cb": "-", "\u25e6": "-", "\u25aa": "-", "\u25a0": "-",
    "\u2023": "-", "\u2043": "-", "\u2219": "-",
}
_CHAR_RE = re.compile("|".join(re.escape(k) for k in sorted(_CHAR_MAP, key=len, reverse=True)))
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")


def _normalize_chars(text: str) -> str:
    text = _CHAR_RE.sub(lambda m: _CHAR_MAP[m.group()], text)
    return _CONTROL_RE.sub("", text)


def to_ascii(text: str) -> str:
    """Printable-ASCII transliteration (accents dropped, other non-ASCII removed, spaces collapsed)."""
    text = unicodedata.normalize("NFKD", re.sub("[\u2122\u00ae\u00a9\u2120]", "", _normalize_chars(text)))
    text = "".join(ch for ch in text if " " <= ch <= "~")
    return " ".join(text.split())


# ---------------------------------------------------------------------------------------------
# 2. EDGAR dirt

# "Source: ACME INC, 10-K, 3/1/2020", optionally preceded by the page number printed before it.
_SOURCE_RE = re.compile(r"Source: [^\n]{1,160}?, \d{1,2}/\d{1,2}/\d{4}")
_SOURCE_PAGE_RE = re.compile(r"(?:(?<=\s)\d{1,3}\s+)?\x00")
_PAGE_OF_RE = re.compile(r"\bPage\s+\d{1,4}\s+of\s+\d{1,4}\b", re.I)
_RULE_RE = re.compile(r"(?<!\S)(?:-{4,}|={4,}|~{4,}|(?:- ){2,}-)(?!\S)")  # underlines of headings in the PDF
_GRAPHIC_RE = re.compile(r"\[\s*(?:GRAPHIC|LOGO|PICTURE|IMAGE)\s+OMITTED\s*\]", re.I)
_CTR_PHRASE_RE = re.compile(
    r"\**\s*Confidential\s+Treatment\s+Requested(?:\s+by\s+[A-Z][\w.,&' -]{0,60}?(?=\s{2}|$|\.|\n))?\s*\**",
    re.I,
)

_BANNER_PATTERNS = [
    r"confidential treatment (?:has been |have been |was |is being |is )?requested",
    r"(?:seeking|requested|request for) confidential treatment (?:(?:filed|submitted) )?(?:with|from|to) the (?:securities|sec|commission)",
    r"\b(?:omitted|redacted|excluded)\b.{0,200}\b(?:commission|sec|rule 24b|regulation s-k|"
    r"filed separately|competitive(?:ly)? harm|not material|confidential treatment)",
    r"\bdeleted\b.{0,200}\b(?:filed separately|confidential treatment)",
    r"\b(?:commission|sec|confidential treatment)\b.{0,80}\b(?:omitted|redacted)\b",
    r"(?:asterisks?|brackets?|\[\*+\]|\*\*\*)\"?\s+(?:denote|indicate|mark|represent)",
    r"(?:marked|denoted|indicated|designated|replaced)\s+(?:by|with|as)\s+(?:brackets|an? asterisk|asterisks|x's|\"?[\[{(]?\*)",
    r"^\W*(?:[\[{(]\s*\*[* ]*[\]})]|\*+)\s*(?:=|indicates|represents)",
    r"unredacted version of (?:this|the) (?:exhibit|document)",
    r"filed separately with the (?:securities|sec\b|commission)",
    r"(?:identified|certain) (?:confidential )?information (?:in this [a-z]+ )?(?:has been|is|was) (?:excluded|omitted)",
]
_BANNER_RE = re.compile("|".join(_BANNER_PATTERNS), re.I)
_BANNER_HINTS = ("confidential treatment", "omitted", "redact", "asterisk", "excluded", "bracket", "deleted")
# Sentences end at . ! ? ; in flattened text a wide run of spaces also ends one (a legend runs
# straight into the title: "... WITH THE COMMISSION     ACCURAY INCORPORATED ...").
_SENTENCE_SPLIT_RE = re.compile(r"((?<=[.!?])\s+(?=[A-Z\[*{(\"_]))")
_SENTENCE_OR_GAP_SPLIT_RE = re.compile(r"((?<=[.!?])\s+(?=[A-Z\[*{(\"_])| {3,})")
# Where a legend glued to the end of a clause may start ("... due May 1 *** Portions of this page ...").
_BANNER_START_RE = re.compile(r"[\[{(]\s*\*[* ]*[\]})]|\*+\s*(?=[A-Z])|(?<=\s)(?=(?:Portions|PORTIONS|Confidential|CONFIDENTIAL|Certain|CERTAIN)\b)")


def _is_banner(text: str) -> bool:
    return bool(_BANNER_RE.search(" ".join(text.split())))


def _drop_banners(line: str) -> str:
    """Remove confidential-treatment legends, sentence by sentence (a legend glued to a clause is cut off).

    Two passes: sentences split at punctuation (a legend that the PDF wrapped with wide spaces
    stays whole), then also at wide runs of spaces (a legend glued to the title that follows)."""
    low = line.lower()
    if not any(h in low for h in _BANNER_HINTS):
        return line
    line = _CTR_PHRASE_RE.sub(" ", line)
    for splitter, may_cut in ((_SENTENCE_SPLIT_RE, False), (_SENTENCE_OR_GAP_SPLIT_RE, True)):
        parts = splitter.split(line)  # sentence, separator, sentence, ...
        for i in range(0, len(parts), 2):
            sentence = parts[i]
            if not _is_banner(sentence):
                continue
            cut = 0 if len(sentence) <= 400 else None
            if cut is None and may_cut:
                for m in _BANNER_START_RE.finditer(sentence):
                    if m.start() > 0 and _is_banner(sentence[m.start():]):
                        cut = m.start()
                        break
            if cut is not None:
                parts[i] = sentence[:cut].rstrip()
        line = "".join(parts)
    return line


# ---------------------------------------------------------------------------------------------
# 3. redaction marks

_REDACTION_RES = [
    # bracketed/braced asterisks with optional dots/ellipses and spaces: [***] [ * ] [...***...] {*****}
    re.compile(r"\[?[\[{]\s*(?:\.{2,}\s*)?(?:\*\s*)+(?:\.{2,}\s*)?[\]}]"),
    re.compile(r"\(\s*\*{3,}\s*\)"),
    re.compile(r"\[\s*(?:REDACTED|Redacted|redacted|OMITTED|Omitted)\s*\]"),
    re.compile(r"\[\*{1,5}\s*[\d.]+\s*(?:pages?|paragraphs?|lines?|sections?)\s+omitted\.?\]", re.I),
    # bare runs of 3+ asterisks standing alone (not Markdown emphasis around a word)
    re.compile(r"(?<![\w*\[])\*{3,}(?![\w*\]])"),
]
_REDACTION_RUN_RE = re.compile(r"\[\*\*\*\](?:\[\*\*\*\])+")


def _normalize_redactions(text: str) -> str:
    if "*" not in text and "]" not in text:
        return text
    for pattern in _REDACTION_RES:
        text = pattern.sub(REDACTION, text)
    return _REDACTION_RUN_RE.sub(REDACTION, text)


# ---------------------------------------------------------------------------------------------
# 4. flattened text -> paragraphs

LONG_LINE = 700  # characters: below this a line is an ordinary paragraph and is left alone
_END_RE = re.compile(r"[.:;!?][\"')\]]*$")
_SENT_END = r"(?:(?<=[.:;!?])|(?<=[.:;!?][\"')]))"
# Markers that start a paragraph when they follow a sentence end inside a flattened line.
_PARA_MARKERS = [
    r"(?:ARTICLE|Article)\s+(?:[IVXLC]+|\d{1,2})\b",
    r"(?:SECTION|Section)\s+\d{1,2}(?:\.\d{1,3})*\.?\s+(?=[A-Z\"(])",
    r"\d{1,2}\.(?:\d{1,3}\.?)*\s+(?=[A-Z\"(])",
    r"\d{1,2}\s+(?=[A-Z]{4,}\b)",
    r"(?P<secn>\d{1,2})\s+(?=[A-Z][^.\n]{2,80}?\s(?P=secn)\.1\s)",
    r"\d{1,2}\)\s+(?=[A-Z])",
    r"(?:WHEREAS|NOW,? THEREFORE|IN WITNESS WHEREOF|W\s?I\s?T\s?N\s?E\s?S\s?S\s?E\s?T\s?H)\b",
    r"\"[A-Z][^\"\n]{0,80}\"\s+(?:means|shall mean|has the meaning|shall have the meaning|refers to)\b",
]
_SPLIT_RE = re.compile(
    _SENT_END + r" +(?=" + "|".join(_PARA_MARKERS) + r")|(?<=[A-Z]{2}) +(?=(?:Section|SECTION) \d{1,2}(?:\.\d{1,3})*\.? +[A-Z])"
)
# (a) / (iv) / (A) / (1) items start a paragraph only after a full stop or colon, not after ";".
_ITEM_SPLIT_RE = re.compile(r"(?:(?<=[.:])|(?<=[.:][\"')]))\s+(?=\((?:[a-z]{1,2}|[ivxl]{1,5}|[A-Z]|\d{1,2})\)\s+[A-Z\"])")
_STARTS_PARA_RE = re.compile(
    r"(?:" + "|".join(_PARA_MARKERS) + r"|\((?:[a-z]{1,2}|[ivxl]{1,5}|[A-Z]|\d{1,2})\)\s|[A-Za-z]\.\s+[A-Z])"
)
_CAPS_LINE_RE = re.compile(r"^[^a-z]*[A-Z]{2}[^a-z]*$")


def _split_at(rx: re.Pattern, text: str) -> list[str]:
    """re.split without the captured groups (the marker patterns use a back-reference group)."""
    out, pos = [], 0
    for m in rx.finditer(text):
        out.append(text[pos:m.start()])
        pos = m.end()
    out.append(text[pos:])
    return out


def _split_flattened(line: str) -> list[str]:
    """Break one over-long line into paragraphs (see module docstring, step 4)."""
    pieces = re.split(r"( {2,})", line.strip())
    texts, gaps = pieces[0::2], [len(g) for g in pieces[1::2]]
    paragraphs: list[str] = []
    if len(gaps) >= 3 and sum(bool(_END_RE.search(t)) for t in texts[:-1]) < 0.5 * len(gaps):
        # The runs of spaces stand for the PDF's line breaks: re-wrap those physical lines.
        usual_gap = Counter(gaps).most_common(1)[0][0]
        widths = sorted(len(t) for t in texts)
        median = widths[len(widths) // 2]
        current = texts[0]
        for gap, prev, nxt in zip(gaps, texts, texts[1:]):
            ends = bool(_END_RE.search(prev))
            brk = (
                (ends and gap > usual_gap + 1)
                or (ends and _STARTS_PARA_RE.match(nxt) is not None)
                or (ends and len(prev) < 0.5 * median)
                or (len(prev) <= 80 and _CAPS_LINE_RE.match(prev) is not None and gap > usual_gap)
            )
            if brk:
                paragraphs.append(current)
                current = nxt
            elif re.search(r"[A-Za-z]-$", current) and nxt[:1].isalpha():
                current = current + nxt  # a compound word wrapped at its hyphen
            else:
                current = f"{current} {nxt}"
        paragraphs.append(current)
    else:
        # Spaces are sloppy typing; wide runs after a sentence end are paragraph breaks.
        paragraphs = re.split(r"(?:(?<=[.:;!?])|(?<=[.:;!?][\"')])) {3,}(?=[A-Z\[(\"\d])", line.strip())
    out: list[str] = []
    for p in paragraphs:
        if len(p) > LONG_LINE:
            for q in _split_at(_SPLIT_RE, p):
                out.extend(_ITEM_SPLIT_RE.split(q))
        else:
            out.append(p)
    return out


# ---------------------------------------------------------------------------------------------
# 5. noise lines

_PAGE_NUMBER_RE = re.compile(
    r"^(?:[-\u2013(\[]?\s*\d{1,3}\s*[-\u2013)\]]?|[A-Z]{1,2}\s?-\s?\d{1,3}|[ivxlc]{1,6}|Page\s+\d{1,4}"
    r"|page\s+\d{1,4}|PAGE\s+\d{1,4}|\d{1,3}\s*\|\s*Page|Page\s*\|\s*\d{1,3}|\d{1,3}\s+of\s+\d{1,3}"
    r"|\d{1,3}\s+\d{1,3}|\d{1,3}\s*-\s*\d{1,3}\s*-?)$"
)
_DRAFTING_NOTE_RE = re.compile(r"^\[Drafting [Nn]ote:[^\]]*\]$")
_HEADER_RE = re.compile(
    r"^(?:(?:Confidential\s+)?(?:Execution|Final|Conformed)\s+(?:Version|Copy)|EXECUTION\s+(?:VERSION|COPY)"
    r"|(?:Confidential\s+)?EXECUTION\s+VERSION|Confidential|CONFIDENTIAL|Strictly Confidential"
    r"|[A-Z]{2,}[-_]?[A-Z]*\\\d+(?:\.\d+)?|\d{6,}(?:\.\d+)?(?:\s+v\d+)?|\[?Signature [Pp]age [Ff]ollows\]?"
    r"|\[Remainder of (?:this )?[Pp]age [Ii]ntentionally [Ll]eft [Bb]lank\.?\]?)$"
)
_LABEL_RE = re.compile(r"(?::$|^(?:and|AND|or|OR|By|BY|Name|Title|Date|Signature|\[\*\*\*\])\b)")
_TOC_RE = re.compile(r"^(?:[A-Z][\w ]{0,40}\s)?(?:TABLE OF CONTENTS|Table [Oo]f Contents|CONTENTS|INDEX)(?:\s+(?:Page|PAGE))?\.?$")
_TOC_ENTRY_RE = re.compile(r"(?:\s(?:\d{1,3}|[ivx]{1,4})|[a-z]\d{1,3}|\.{3,}\s*\d*)$")
_TITLE_LINE_RE = re.compile(r"^[^a-z]*\b(?:AGREEMENT|CONTRACT)\b[^a-z\d]*$")


def _drop_noise_lines(lines: list[str]) -> list[str]:
    stripped = [ln.strip() for ln in lines]
    counts = Counter(s for s in stripped if 3 <= len(s) <= 100)
    out: list[str] = []
    i = 0
    while i < len(stripped):
        s = stripped[i]
        if _TOC_RE.match(s):
            j = i + 1
            while j < len(stripped):
                entry = stripped[j]
                if (_TITLE_LINE_RE.match(entry) or _TITLE_LINE_RE.match(_LEADING_NOISE_RE.sub("", entry))
                        or (len(entry) >= 100 and not _TOC_ENTRY_RE.search(entry))):
                    break
                j += 1
            i = j
            continue
        if s and (
            _PAGE_NUMBER_RE.match(s)
            or _HEADER_RE.match(s)
            or _DRAFTING_NOTE_RE.match(s)
            or (counts[s] >= 3 and re.search(r"[A-Za-z]{2}", s) and not _LABEL_RE.search(s) and not _STARTS_PARA_RE.match(s))
        ):
            out.append("")
        else:
            out.append(lines[i])
        i += 1
    return out


# ---------------------------------------------------------------------------------------------
# 6. re-wrap across page breaks

# A paragraph that ends on one of these words continues after the page break.
_CONT_WORDS = frozenset(
    "to the of and or by for with in on at a an as from that such any this its their his her shall will be "
    "is are under upon which other each all no not per than if hereunder including".split()
)
_LOWER_START = re.compile(r"^[a-z]")
_LIST_START = re.compile(r"^(?:[a-z]{1,4}[.)]\s|and$|or$)")


def _rewrap(lines: list[str]) -> list[str]:
    """Join a paragraph with the next one when a page break cut it mid-sentence."""
    out: list[str] = []
    pending_blank = False
    for ln in lines:
        if not ln.strip():
            pending_blank = True
            continue
        if out and pending_blank:
            prev = out[-1]
            if (
                (_LOWER_START.match(ln) and not _LIST_START.match(ln) and re.search(r"[a-z,]$", prev))
                or (len(prev) > 60 and prev.rsplit(" ", 1)[-1] in _CONT_WORDS and not _STARTS_PARA_RE.match(ln))
            ):
                out[-1] = f"{prev} {ln}"
                pending_blank = False
                continue
            if re.search(r"[a-z]-$", prev) and _LOWER_START.match(ln):
                out[-1] = prev + ln
                pending_blank = False
                continue
        if pending_blank and out:
            out.append("")
        out.append(ln)
        pending_blank = False
    return out


# ---------------------------------------------------------------------------------------------
# the pipeline

# EDGAR's exhibit number and draft stamps in front of the title ("Exhibit 10.2 EXECUTION VERSION ...").
_LEADING_NOISE_RE = re.compile(
    r"^\s*(?:(?:EXHIBITS?|Exhibits?|EX-)\s*\d{1,3}(?:\.[\dA-Za-z]{1,4})*[A-Za-z]?\b\.?(?:\s{2,}|\n|(?= [A-Z]))\s*)?"
    r"(?:(?:Confidential\s+)?(?:EXECUTION|Execution|FINAL|Final|CONFORMED|Conformed)\s+(?:VERSION|Version|COPY|Copy)\b\s*)?"
)


# Common Paper's template conditionals ("{IF has_sla}...{END-IF}"); the {placeholders} themselves stay.
_TEMPLATE_TAG_RE = re.compile(r"\{(?:IF [^{}\n]{1,80}|END-?IF|ELSE)\}")


def clean_text(raw: str) -> str:
    """Clean one extracted document (see module docstring). Pure: no I/O, deterministic."""
    text = _normalize_chars(raw)
    if "Source: " in text:
        text = _SOURCE_PAGE_RE.sub(" ", _SOURCE_RE.sub("\x00", text))
    text = _PAGE_OF_RE.sub(" ", text)
    text = _GRAPHIC_RE.sub(" ", text)
    text = _LEADING_NOISE_RE.sub("", text, count=1)
    text = _TEMPLATE_TAG_RE.sub("", text)
    lines: list[str] = []
    for line in text.split("\n"):
        line = _drop_banners(line)
        if "----" in line or "====" in line or "~~~~" in line or "- - -" in line:
            line = _RULE_RE.sub(" ", line)
        line = _normalize_redactions(line)
        if len(line) > LONG_LINE:
            for p in _split_flattened(line):
                lines.extend((p, ""))
        elif len(line) > 120 and _SPLIT_RE.search(line):
            for p in _split_at(_SPLIT_RE, line):
                lines.extend((p, ""))
        else:
            lines.append(line)
    lines = [" ".join(ln.split()) for ln in lines]
    lines = _drop_noise_lines(lines)
    lines = _rewrap(lines)
    return "\n".join(lines).strip() + "\n" if any(lines) else ""


_MD_BLOCK_NOISE_RE = re.compile(r"<!--.*?-->|\{%.*?%\}|^\s*(?:[*_-]\s*){3,}$", re.S | re.M)


def clean_markdown(raw: str) -> str:
    """clean_text() for a Markdown source: comments, template tags and horizontal rules go first
    (a "***" rule is not a redaction); headings, lists and inline markup are kept for splitting."""
    text = _normalize_chars(raw)
    front = ""
    if text.startswith("---\n") and "\n---\n" in text[4:]:
        end = text.index("\n---\n", 4) + 5
        front, text = text[:end], text[end:]
    return front + clean_text(_MD_BLOCK_NOISE_RE.sub("", text))


# ---------------------------------------------------------------------------------------------
# inline Markdown (policies, Bonterms .md): keep the words, drop the markup

_MD_RULES = [
    (re.compile(r"<!--.*?-->", re.S), ""),
    (re.compile(r"\{%.*?%\}|\{\{.*?\}\}(?=\s|$)", re.S), ""),
    (re.compile(r"!\[[^\]]*\]\([^)]*\)"), ""),
    (re.compile(r"\[([^\]]+)\]\((?:[^()]|\([^)]*\))*\)"), r"\1"),
    (re.compile(r"\[([^\]]+)\]\[[^\]]*\]"), r"\1"),
    (re.compile(r"<(https?://[^>]+)>"), r"\1"),
    (re.compile(r"</?(?:a|span|div|br|sup|sub|em|strong|b|i|u|p|small|details|summary)\b[^>]*>", re.I), ""),
    (re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1"), r"\2"),
    (re.compile(r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])"), r"\1"),
    (re.compile(r"(?<![\w_])_(?=\S)([^_\n]+?)(?<=\S)_(?![\w_])"), r"\1"),
    (re.compile(r"`([^`\n]+)`"), r"\1"),
    (re.compile(r"^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)*\|?[ \t]*$", re.M), ""),
    (re.compile(r"^[ \t]*\|[ \t]*(.*?)[ \t]*\|[ \t]*$", re.M), r"\1"),
    (re.compile(r"^[ \t]*[*+][ \t]+", re.M), "- "),
    (re.compile(r"^[ \t]*>[ \t]?", re.M), ""),
    (re.compile(r"\\([\\`*_{}\[\]()#+\-.!|])"), r"\1"),
]


def strip_markdown_inline(text: str) -> str:
    """Remove inline Markdown (links -> their text, emphasis, code ticks, table pipes, HTML tags)."""
    for pattern, repl in _MD_RULES:
        text = pattern.sub(repl, text)
    return text


# ---------------------------------------------------------------------------------------------
# numbering inside clause bodies

NUMBERED_LINE = re.compile(r"^[ \t]*(?:\d{1,3}(?:\.\d{1,3})+\.?|\d{1,3}\.)(?=[ \t]+[A-Z\"(\[]|[ \t]*$)[ \t]*")
"""A line that opens with a section number before a capitalized word or nothing: "8.1 Term",
"1.1.1", "15.3. (a)", "3. Fees" (not "(a)", "3M", "2025", "1.5 million")."""


def strip_numbering(body: str) -> str:
    """A clause body without the section numbers its lines open with; a line that held only a
    number is dropped. In a document laid out as skeleton + bodies the skeleton numbers the
    sections, so a body's own "8.1" / "1.1.1" (copied sub-numbering, exhibit items) is noise:
    the model learns to emit numbers that contradict the heading's."""
    out = []
    for line in body.split("\n"):
        m = NUMBERED_LINE.match(line)
        if m:
            line = line[m.end() :]
            if not line.strip():
                continue
        out.append(line)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out))  # a dropped line between paragraphs
