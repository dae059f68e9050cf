"""Text cleaning for the corpus: PDF/EDGAR extraction dirt -> plain paragraphs.

Owns: clean_text() (a pure str -> str function, no I/O), the small inline-Markdown stripper
used for policies and standard agreements, and strip_numbering() (line-leading section numbers
out of a clause body: used on training bodies by hybrid.data.sections and on drafted bodies by
hybrid.draft.drafter). Knows nothing about sections, files or models.

What clean_text() does, in order (steps 4 to 6 live in hybrid.data.flatten and hybrid.data.page_noise):
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

from hybrid.data.flatten import LONG_LINE, SPLIT_RE, split_at, split_flattened
from hybrid.data.page_noise import LEADING_NOISE_RE, drop_noise_lines, rewrap

__all__ = [
    "clean_text",
    "space_glued_words",
    "clean_markdown",
    "strip_markdown_inline",
    "to_ascii",
    "strip_numbering",
    "NUMBERED_LINE",
    "REDACTION",
    "REDACTION_RE",
]

REDACTION = "[***]"
REDACTION_RE = re.compile(r"\[\s*\*+\s*\]|\*{3,}")  # a redaction mark in a clause body: REDACTION, or stars

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
    r"(?:seeking|requested|request for) confidential treatment (?:(?:filed|submitted) )?(?:with|from|to) the "
    r"(?:securities|sec|commission)",
    r"\b(?:omitted|redacted|excluded)\b.{0,200}\b(?:commission|sec|rule 24b|regulation s-k|"
    r"filed separately|competitive(?:ly)? harm|not material|confidential treatment)",
    r"\bdeleted\b.{0,200}\b(?:filed separately|confidential treatment)",
    r"\b(?:commission|sec|confidential treatment)\b.{0,80}\b(?:omitted|redacted)\b",
    r"(?:asterisks?|brackets?|\[\*+\]|\*\*\*)\"?\s+(?:denote|indicate|mark|represent)",
    r"(?:marked|denoted|indicated|designated|replaced)\s+(?:by|with|as)\s+(?:brackets|an? "
    r"asterisk|asterisks|x's|\"?[\[{(]?\*)",
    r"^\W*(?:[\[{(]\s*\*[* ]*[\]})]|\*+)\s*(?:=|indicates|represents)",
    r"unredacted version of (?:this|the) (?:exhibit|document)",
    r"filed separately with the (?:securities|sec\b|commission)",
    r"(?:identified|certain) (?:confidential )?information (?:in this [a-z]+ )?"
    r"(?:has been|is|was) (?:excluded|omitted)",
]
_BANNER_RE = re.compile("|".join(_BANNER_PATTERNS), re.I)
_BANNER_HINTS = ("confidential treatment", "omitted", "redact", "asterisk", "excluded", "bracket", "deleted")
# Sentences end at . ! ? ; in flattened text a wide run of spaces also ends one (a legend runs
# straight into the title: "... WITH THE COMMISSION     ACCURAY INCORPORATED ...").
_SENTENCE_SPLIT_RE = re.compile(r"((?<=[.!?])\s+(?=[A-Z\[*{(\"_]))")
_SENTENCE_OR_GAP_SPLIT_RE = re.compile(r"((?<=[.!?])\s+(?=[A-Z\[*{(\"_])| {3,})")
# Where a legend glued to the end of a clause may start ("... due May 1 *** Portions of this page ...").
_BANNER_START_RE = re.compile(
    r"[\[{(]\s*\*[* "
    r"]*[\]})]|\*+\s*(?=[A-Z])|(?<=\s)(?=(?:Portions|PORTIONS|Confidential|CONFIDENTIAL|Certain|CERTAIN)\b)"
)


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
# the pipeline

# Common Paper's template conditionals ("{IF has_sla}...{END-IF}"); the {placeholders} themselves stay.
_TEMPLATE_TAG_RE = re.compile(r"\{(?:IF [^{}\n]{1,80}|END-?IF|ELSE)\}")


# an ordinal's suffix a PDF extraction split ("(4t h)", "the 1s t day"): one word again
_SPLIT_ORDINAL = re.compile(r"\b(\d{1,4})(s|n|r|t) (t|d|h)\b")


def clean_text(raw: str) -> str:
    """Clean one extracted document (see module docstring). Pure: no I/O, deterministic."""
    text = _normalize_chars(raw)
    if "Source: " in text:
        text = _SOURCE_PAGE_RE.sub(" ", _SOURCE_RE.sub("\x00", text))
    text = _PAGE_OF_RE.sub(" ", text)
    text = _GRAPHIC_RE.sub(" ", text)
    text = LEADING_NOISE_RE.sub("", text, count=1)
    text = _TEMPLATE_TAG_RE.sub("", text)
    text = _SPLIT_ORDINAL.sub(r"\1\2\3", text)
    lines: list[str] = []
    for line in text.split("\n"):
        line = _drop_banners(line)
        if "----" in line or "====" in line or "~~~~" in line or "- - -" in line:
            line = _RULE_RE.sub(" ", line)
        line = _normalize_redactions(line)
        if len(line) > LONG_LINE:
            for p in split_flattened(line):
                lines.extend((p, ""))
        elif len(line) > 120 and SPLIT_RE.search(line):
            for p in split_at(SPLIT_RE, line):
                lines.extend((p, ""))
        else:
            lines.append(line)
    lines = [" ".join(ln.split()) for ln in lines]
    lines = drop_noise_lines(lines)
    lines = rewrap(lines)
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


# a small word its source glued to the capitalized word after it ("suppliers ofCustomer Materials"): a lost space
_GLUED_WORD = re.compile(r"(?<![A-Za-z])(of|to|the|and|or|by|for|in|with|from|any|all|such|each)(?=[A-Z][a-z])")


def space_glued_words(text: str) -> str:
    """text with a small word its source glued to the next capitalized word spaced: "ofCustomer" -> "of Customer"."""
    return _GLUED_WORD.sub(r"\1 ", text)
