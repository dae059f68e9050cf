"""Segmentation of one cleaned document into title, preamble, top-level sections and tail.

Owns: split_document() and the heading rules (what counts as a section marker, which numbering
level is the top level, where the short heading ends and the body begins). Input is the output
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

from hybrid.data.clean import strip_markdown_inline, strip_numbering, to_ascii

__all__ = ["MAX_HEADING_CHARS", "MAX_TITLE_CHARS", "split_document", "tidy_heading", "looks_markdown"]

MAX_HEADING_CHARS = 80  # the planner's bounded heading strings (^[ -~]{1,80}$)
MAX_TITLE_CHARS = 100

Split = tuple[str, str, list[tuple[str, str]], str]


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


def _join(units: list[_Unit]) -> str:
    parts: list[str] = []
    for i, u in enumerate(units):
        if i:
            parts.append("\n\n" if u.blank_before else "\n")
        parts.append(u.text)
    return "".join(parts)


# ---------------------------------------------------------------------------------------------
# headings

_SMALL_WORDS = frozenset("a an and as at by for from in into nor of on or per the to upon under via vs with".split())
_NOT_A_HEADING_RE = re.compile(r"\b\d{1,2}\.\d|\b\d{1,3} \d{1,3}\b|^(?:In the event|If|Upon|Notwithstanding|Subject to|Except)\b")
# A heading never ends on these ("The Parties agree" must not yield the heading "The").
_DANGLING_WORDS = frozenset("both each this these such any all either neither no section sections mr mrs ms dr new".split())
_ACRONYMS = frozenset("IP US USA U.S. SLA API FDA EU UK VAT GST NDA DPA AI HIPAA GDPR CCPA LLC CEO TV OEM MFN R&D "
                      "EEA HIV SEC ERISA OFAC FCPA DMCA SaaS PHI CD DVD PC UCC".split())
_SENTENCE_WORDS_RE = re.compile(
    r"\b(?:shall|will|may|must|agrees?|means|is|are|was|were|has|have|hereby|be|should|would|can|"
    r"does|do|acknowledges?|represents|warrants|provides?)\b",
    re.I,
)
_PARTY_RE = re.compile(r"\b(?:INC|LLC|L\.L\.C|CORP|CORPORATION|LTD|LIMITED|L\.P|LP|GMBH|S\.A|N\.V|PLC|CO)\b\.?")


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
    h = re.sub(r"\s+\d{1,2}(?:\.\d{1,3})*\.?$", "", h)  # "Entire agreement 30.1" / "Confidentiality 3": a number after it
    h = h.strip(" .:;,-_*#\"'")
    if not re.search(r"[A-Za-z]", h) or len(h) > MAX_HEADING_CHARS:
        return ""
    if not re.search(r"[a-z]", h):
        h = _title_case(h)
    return h


def _is_heading_text(h: str, *, sentence_case: bool = False) -> bool:
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


def _split_heading(rest: str) -> tuple[str, str]:
    """'Confidentiality. Each party ...' -> ('Confidentiality', 'Each party ...'); ('', rest) when none."""
    rest = rest.strip().lstrip("-: ").strip()
    if not rest:
        return "", ""
    bare = rest.rstrip(".: ")
    if (len(rest) <= MAX_HEADING_CHARS and _is_heading_text(bare) and bare.count(". ") == 0
            and not re.search(r"\s\d{1,2}\.\d", bare)):
        return bare, ""
    found = []  # (heading, body start); the shortest wins ("Orders 5.1 Forecasts." -> "Orders")
    for rx in (_INLINE_HEADING_RE, _HEADING_BEFORE_SUB_RE):
        m = rx.match(rest)
        if m and _is_heading_text(m.group(1)) and not m.group(1).startswith('"') and not _ABBREV_END_RE.search(m.group(1)):
            found.append((m.group(1), m.end()))
    m = _CAPS_RUN_RE.match(rest)
    if m and len(re.sub(r"[^A-Z]", "", m.group(1))) >= 4 and not _PARTY_RE.search(m.group(1)):
        found.append((m.group(1), m.end()))
    if found:
        heading, end = min(found, key=lambda f: len(f[0]))
        item = _TRAILING_ITEM_RE.search(heading)  # "Insurance a. Subcontractor shall": "a." opens the body
        if item:
            heading, end = heading[:item.start()], item.start() + 1
        return heading, rest[end:]
    m = _CAPS_SUBJECT_RE.match(rest)  # "RIGHT OF REPLACEMENT EDGE may ...": the last capital word is the subject
    if m and len(re.sub(r"[^A-Z]", "", m.group(1))) >= 4 and not _PARTY_RE.search(m.group(1)):
        return m.group(1), rest[m.end():]
    m = _SENTENCE_START_RE.match(rest)
    if m and _is_heading_text(m.group(1), sentence_case=True) and len(rest) - m.end() >= 20:
        return m.group(1), rest[m.end():]
    return "", rest


# ---------------------------------------------------------------------------------------------
# section markers and the top-level numbering chain

_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


def _roman(s: str) -> int:
    total, prev = 0, 0
    for ch in reversed(s.upper()):
        v = _ROMAN_VALUES[ch]
        total = total - v if v < prev else total + v
        prev = max(prev, v)
    return total


_MARKER_RES = {
    "chapter": re.compile(r"^(?:CHAPTER|Chapter|PART|Part)\s+(?P<num>[IVXLC]+|\d{1,2})\b(?!\.\d)\.?(?:\s*[-:.]\s*|\s+|$)(?P<rest>.*)$"),
    "article": re.compile(r"^(?:ARTICLE|Article)\s+(?P<num>[IVXLC]+|\d{1,2})\b(?!\.\d)\.?(?:\s*[-:.]\s*|\s+|$)(?P<rest>.*)$"),
    "section": re.compile(r"^(?:SECTION|Section)\s+(?P<num>\d{1,2})(?![.\d]\d)\.?(?:\s*[-:.]\s*|\s+|$)(?P<rest>.*)$"),
    "num": re.compile(r"^(?P<num>\d{1,2})(?:\.0(?![.\d])\.?|\.(?!\d)|(?=\s+[A-Z\"(]))\s*(?P<rest>.*)$"),
    "paren": re.compile(r"^\(?(?P<num>\d{1,2})\)\s*(?P<rest>.*)$"),
    "subnum": re.compile(r"^(?:(?:SECTION|Section)\s+)?(?P<num>\d{1,2})\.(?P<sub>[1-9]\d{0,2})(?![.\d]\d)\.?\s*(?P<rest>.*)$"),
    "roman": re.compile(r"^(?P<num>[IVX]{1,6})(?:\.|\s+-)\s+(?P<rest>.*)$"),
    "letter": re.compile(r"^(?P<num>[A-Z])\.\s+(?P<rest>.*)$"),
}
# A marker with a heading outweighs several without: a chain of headed "1. Term." sections beats
# a longer chain of numbered recitals or headless articles.
HEADED_WEIGHT, HEADLESS_WEIGHT = 1.0, 0.15
SHORT_SECTION_CHARS = 150  # less text than this before the next marker of its kind: a TOC line or list item
# (tier, score factor): a lower tier wins whenever it has a chain of >= 3; within a tier, the best score.
_KINDS = {
    "chapter": (0, 1.3), "article": (0, 1.3), "section": (0, 1.2), "num": (0, 1.0), "roman": (0, 1.0), "paren": (0, 0.8),
    "subnum": (1, 1.0), "caps": (2, 1.0), "titleline": (2, 0.9), "letter": (3, 1.0),
}
_WITNESS_RE = re.compile(r"^(?:IN WITNESS (?:WHEREOF|THEREOF|HEREOF)|In [Ww]itness [Ww]hereof|IN TESTIMONY WHEREOF)")
_SIGNATURE_RE = re.compile(r"^(?:By|BY|Name|NAME|Signature|SIGNATURE|Signed|SIGNED)\s*:|^/s/|^(?:[A-Z][A-Z&.,' -]+\s+)?By:\s*(?:/s/|_{3,})")
_EXHIBIT_RE = re.compile(r"^(?:EXHIBIT|Exhibit|SCHEDULE|Schedule|ANNEX|Annex|APPENDIX|Appendix|ATTACHMENT|Attachment)\b")
_NOT_CAPS_HEADING_RE = re.compile(r"^(?:WITNESSETH|W I T N E S S|RECITALS|BACKGROUND|PREAMBLE|AND|BETWEEN|BY AND BETWEEN|"
                                  r"BY|NAME|TITLE|DATE|AGREED|ACCEPTED|TABLE OF CONTENTS)\b")


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


def _raw_candidates(units: list[_Unit], lo: int, hi: int) -> dict[str, list[_Cand]]:
    out: dict[str, list[_Cand]] = {k: [] for k in _KINDS}
    for i in range(lo, hi):
        t = units[i].text
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
            heading = _split_heading(rest)[0] or (not rest.strip() and i + 1 < hi and _next_heading(units[i + 1].text))
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
        and not _PARTY_RE.search(t)
        and not _NOT_CAPS_HEADING_RE.match(t)
        and not _WITNESS_RE.match(t)
        and not t.startswith("[")
        and i + 1 < hi
        and re.search(r"[a-z]", units[i + 1].text) is not None
    )


def _is_title_line(units: list[_Unit], i: int, hi: int) -> bool:
    t = units[i].text.strip()
    if (not _is_heading_text(t) or re.search(r"[.;,:!?)\]\d{}]$|\d|^(?:By|Name|Title|Date|Attn|Attention)\b", t)
            or not re.search(r"[a-z]", t) or i + 2 >= hi):
        return False
    nxt = units[i + 1].text
    if len(nxt) <= 60 and _is_heading_text(nxt) and not re.search(r"[.;:]$", nxt):
        return False
    return len(nxt) >= 80 or len(units[i + 2].text) >= 80


def _next_heading(text: str) -> str:
    """A following unit that is only a heading ("ARTICLE I" / "DEFINITIONS")."""
    t = text.strip()
    if (len(t) <= 60 and _is_heading_text(t.rstrip(".:"), sentence_case=True) and not _MARKER_RES["num"].match(t)
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


# ---------------------------------------------------------------------------------------------
# title

_TITLE_WORDS = (r"AGREEMENT|CONTRACT|AMENDMENT|ADDENDUM|LICENSE|TERMS|MEMORANDUM|NDA|LETTER|ORDER|STATEMENT OF WORK|"
                r"PLAN|LEASE|UNDERSTANDING|ARRANGEMENT|PROTOCOL|DEED|COVENANT|POLICY|TERM SHEET|MOU|JOINDER")
_CAPS_TITLE_RE = re.compile(r"^[^a-z]*\b(?:" + _TITLE_WORDS + r")S?\b[^a-z]*$")
_CAPS_TITLE_RUN_RE = re.compile(r"^((?:[A-Z0-9][A-Z0-9&,'/.()-]*\s+){0,10}(?:" + _TITLE_WORDS + r")S?)\s+(?=\(?[A-Z\"][a-z]|THIS\b|This\b)")
_MIXED_TITLE_RE = re.compile(r"\b(?:Agreement|Contract|Terms|Addendum|Amendment|NDA|Order Form|Statement of Work|"
                             r"Term Sheet|Letter of Intent|Policy|License|Memorandum)\b")
_BAD_TITLE_RE = re.compile(r"^(?:THIS|THE|PURSUANT|WHEREAS|NOW|IN WITNESS)\b|OMITTED|CONFIDENTIAL TREATMENT|SECURITIES AND EXCHANGE")


def _tidy_title(title: str) -> str:
    t = to_ascii(title)
    t = re.sub(r"^(?:EXHIBIT|Exhibit)\s+[\w.()-]{1,8}\s+", "", t)
    t = t.strip(" .:;,-_*#\"'")
    return t.upper() if len(t) <= MAX_TITLE_CHARS else ""


def _find_title(units: list[_Unit], doc_type: str) -> tuple[str, int, str]:
    """(title, index of the unit it came from or -1, text left over from that unit)."""
    for i, u in enumerate(units[:15]):
        t = u.text
        if len(t) <= 150 and _CAPS_TITLE_RE.match(t) and not _BAD_TITLE_RE.search(t) and _tidy_title(t):
            return _tidy_title(t), i, ""
        m = _CAPS_TITLE_RUN_RE.match(t)
        if m and not _BAD_TITLE_RE.search(m.group(1)) and _tidy_title(m.group(1)):
            return _tidy_title(m.group(1)), i, t[m.end():]
        if (len(t) <= 100 and _MIXED_TITLE_RE.search(t) and not re.search(r"[.;:,]$", t)
                and _is_heading_text(t) and _tidy_title(t)):
            return _tidy_title(t), i, ""
    return _tidy_title(doc_type) or "AGREEMENT", -1, ""


# ---------------------------------------------------------------------------------------------
# plain text


def _merge_empty(sections: list[tuple[str, str]]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    carry = ""
    for heading, body in sections:
        if carry:
            body = f"{carry}\n\n{body}".strip()
            carry = ""
        if not body.strip():
            carry = heading
            continue
        out.append((heading, body))
    if carry and out:
        h, b = out[-1]
        out[-1] = (h, f"{b}\n\n{carry}")
    return out


def _split_plain(text: str, doc_type: str) -> Split:
    units = _units(text)
    if not units:
        return _tidy_title(doc_type) or "AGREEMENT", "", [], ""
    title, t_idx, t_rest = _find_title(units, doc_type)
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
                while i - 1 > chain[-1].unit and len(units[i - 1].text) <= 100 and not re.search(r"[a-z]", units[i - 1].text):
                    i -= 1
                hi = i
                break
    preamble_units = lead + units[start:chain[0].unit]
    sections: list[tuple[str, list[_Unit]]] = []
    for k, c in enumerate(chain):
        end = chain[k + 1].unit if k + 1 < len(chain) else hi
        body_start = c.unit + 1
        if c.kind in ("caps", "titleline"):
            heading, rest = c.rest, ""
        else:
            heading, rest = _split_heading(c.rest)
            if not heading and not rest.strip() and body_start < end and _next_heading(units[body_start].text):
                heading = _next_heading(units[body_start].text)
                body_start += 1
        heading = tidy_heading(heading)
        if not heading:
            # A numbered paragraph without a heading is not a clause the planner can name: keep its
            # text verbatim (number included) as a continuation of the previous section.
            (sections[-1][1] if sections else preamble_units).extend(units[c.unit:end])
            continue
        body_units = ([_Unit(rest.strip(), False)] if rest.strip() else []) + units[body_start:end]
        sections.append((heading, body_units))
    merged = _merge_empty([(h, _join(b)) for h, b in sections])
    return title, _join(preamble_units), merged, _join(units[hi:])


# ---------------------------------------------------------------------------------------------
# Markdown

_MD_HEADING_RE = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
# "**1. Heading**. text" (Bonterms) and "1. **Heading**. text" (numbered lists of bold headings)
_MD_BOLD_SECTION_RE = re.compile(r"^(?:\*\*\d{1,2}\.(?!\d)\s*(.+?)\*\*|\d{1,2}\.\s+\*\*([^*]+?)\*\*)\.?\s*(.*)$")
_FRONT_MATTER_RE = re.compile(r"^---\n(.*?)\n---\n", re.S)
_NUMBER_PREFIX_RE = re.compile(r"^(?:[A-Z]|\d{1,2}[A-Z]?|[IVX]{1,5})(?:\.\d{1,2})*[.)]\s+")


def looks_markdown(text: str) -> bool:
    """Front matter, or at least two Markdown headings / bold-numbered sections."""
    return text.startswith("---\n") or len(re.findall(r"^(?:#{1,6} [A-Za-z]|\*\*\d{1,2}\.)", text, re.M)) >= 2


def _md_clean(text: str) -> str:
    text = strip_markdown_inline(text)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(ln.rstrip() for ln in text.split("\n"))).strip()


def _split_markdown(text: str, doc_type: str) -> Split:
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
            marks.append((i, 7, b.group(1) or b.group(2), b.group(3)))
    title = ""
    first_content = next((i for i, ln in enumerate(lines) if ln.strip()), 0)
    if marks and marks[0][1] == 1 and marks[0][0] <= first_content + 2:
        title = marks[0][2]
        lines[marks[0][0]] = ""
        marks = marks[1:]
    title = _tidy_title(title) or _tidy_title(front_title) or _tidy_title(doc_type) or "POLICY"
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
            (sections[-1][1] if sections else preamble_lines).extend([re.sub(r"^#+\s*", "", lines[i])] + lines[i + 1:end])
            continue
        sections.append((heading, ([same_line] if same_line else []) + lines[i + 1:end]))
    merged = _merge_empty([(h, _md_clean("\n".join(b))) for h, b in sections])
    return title, _md_clean("\n".join(preamble_lines)), merged, ""


def split_document(text: str, *, doc_type: str = "", markdown: bool | None = None) -> Split:
    """Cleaned text -> (title, preamble, [(heading, body), ...], tail); see the module docstring.

    doc_type is the fallback title; markdown=None detects Markdown from the text.
    """
    if markdown is None:
        markdown = looks_markdown(text)
    title, preamble, parts, tail = _split_markdown(text, doc_type) if markdown else _split_plain(text, doc_type)
    return title, preamble, _merge_empty([(h, strip_numbering(b).strip()) for h, b in parts]), tail
