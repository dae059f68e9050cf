"""Paragraphs inside a section body that a reader sees as broken: `paragraph_faults` (the reading check) and
`repair_paragraphs` (the repair hybrid.draft.consistency runs over every section).

A precedent's clause is kept whole by default, but its source text (CUAD's filings) and the start's edits leave
two faults between paragraphs that the end-of-body check (hybrid.common.sentences.ends_mid_sentence) does not see:
- **unterminated**: a paragraph that is not the body's last stops without a full stop: a sentence the source
  wrote without one ("... unless Supplier otherwise indicates in writing" + a new paragraph), a sentence cut
  where a page broke ("... the Buyer shall pay the"), or a sub-heading left at the end of a sentence's
  paragraph ("... under this Agreement. Manufacturing services"). A paragraph that is only a short heading
  ("Shipment", "a) Materials") heads the next and is whole; so is a list item ending "; and".
- **heading_alone**: a body whose last paragraph is only a heading ("Renewal."): the sentence cut took its text;
- **heads_nothing**: a paragraph that is only a list marker ("A.."), or a heading (alone, or closing a paragraph
  after its sentences) right above another heading ("Invoices and Payment." above "Taxes."): what it numbered or
  headed went with the start's edits;
- **enumeration**: paragraph-opening list markers out of sequence, because the start dropped the items
  before them ("Supplier shall:" followed by "B. Update ..." and "C. At Buyer's option ...", or a body
  opening on "ii.").

The repair: a trailing sub-heading goes to its own paragraph, a heading alone at the body's end goes; a sentence
without its stop gets one, unless it ends on a word that cannot end a sentence ("the", "of", "shall"), when it
goes; markers are renumbered in sequence per style ("B.", "C." -> "A.", "B."; a roman list restarts under each
letter). Pure string functions, no model; a body without a fault comes back unchanged, byte for byte.
"""

import re

from hybrid.common.lexicon import TRAILING_HEADING_AFTER_SENTENCE
from hybrid.common.sentences import CLOSERS, HEADING_WORD, RUN_IN_HEADING, sentence_boundaries

__all__ = ["paragraph_faults", "repair_paragraphs"]

_SPLIT = re.compile(r"(\n[ \t]*\n\s*)")  # a paragraph break, kept so that a repaired body keeps its spacing
_TERMINAL = ".!?:;"
# a list item that goes on in the next paragraph: "...; and" / "..., or" / "...: or" (a source's typo for "; or")
_LIST_CONTINUES = re.compile(r"[;,:]\s+(?:and|or|and/or|AND|OR)$")
# words a sentence does not end on: what is left where a sentence was cut ("... shall pay the")
_NO_END = frozenset(
    "the a an of to and or in for with by on at from that which any such its their his her shall will may must "
    "is are be been under upon into as than nor if this these those each every all no not".split()
)
HEADING_WORDS = 8  # a paragraph (or a trailing fragment) of at most this many words and no stop reads as a heading
_HEADING_START = re.compile(r"^(?:\(?[A-Za-z0-9]{1,4}[.)]\s+)?[A-Z]")

# a paragraph-opening list marker: "(a) ", "a) ", "a. ", "(ii) ", "B. ", "3. " (not "1.1", not "No.")
_MARKER = re.compile(r"^(?P<open>\(?)(?P<value>[a-z]|[A-Z]|[ivx]{1,4}|[IVX]{1,4}|\d{1,2})(?P<close>[.)])(?=\s+\S)")
_ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9, "x": 10,
          "xi": 11, "xii": 12}
_ROMAN_OF = {v: k for k, v in _ROMAN.items()}
# how deep each kind of marker conventionally nests: "1." holds "(A)"/"A.", which holds "(a)", which holds "(i)"
_LEVEL = {("digit",): 0, ("roman", False): 1, ("letter", False): 2, ("letter", True): 3, ("roman", True): 4}


# a list that opens after a sentence inside a paragraph ("... under this Agreement. (a) Affiliates ..."): its first
# item starts a paragraph of its own, where the items after it are
_INLINE_LIST = re.compile(r"(?<=[.!?])[ \t]+(?=(?:\((?:a|A|i|1)\)|(?:a|A|1)[.)])[ \t]+[A-Z])")


def _paragraphs(body: str) -> list[str]:
    """body split into paragraphs and the breaks between them (odd indices): "".join(result) == body."""
    return _SPLIT.split(body)


def _split_inline_lists(parts: list[str]) -> list[str]:
    """parts (as _paragraphs) with a list's first item that opens mid-paragraph moved to a paragraph of its own."""
    out = []
    for i, p in enumerate(parts):
        pieces = _INLINE_LIST.split(p) if i % 2 == 0 else [p]
        for j, piece in enumerate(pieces):
            if j:
                out.append("\n\n")
            out.append(piece)
    return out


def _stripped_end(text: str) -> str:
    return text.rstrip().rstrip(CLOSERS + "*_")


_VERB = re.compile(r"\b(?:shall|will|may|must|agrees?|is|are)\b", re.I)


def _is_heading(text: str) -> bool:
    """A short line with no sentence in it: "Shipment", "a) Materials", "Manufacturing services" (not "Buyer shall
    pay the", not "Shipment. Buyer shall pay")."""
    t = text.strip()
    words = t.split()
    if not 0 < len(words) <= HEADING_WORDS or "\n" in t or not _HEADING_START.match(t):
        return False
    inner = [e for e in sentence_boundaries(t) if e < len(_stripped_end(t))]
    titled = len(words) <= 4 or all(HEADING_WORD.match(w) for w in _MARKER.sub("", t).split())
    return titled and not inner and not _VERB.search(t) and words[-1].lower() not in _NO_END


def _trailing(text: str) -> tuple[int, str]:
    """(offset, text) of what follows a paragraph's last sentence end ("" where it ends on one)."""
    t = text.rstrip()
    ends = [e for e in sentence_boundaries(t) if e < len(t)]
    at = ends[-1] if ends else 0
    return at, t[at:]


# a notice clause's address line ("If to Sponsor: [___]", hybrid.text.notices) is a label, as a signature block's is
_ADDRESS_LINE = re.compile(r"(?:If|When)\s+to\s+[^:\n]{1,60}:\s")


def _address_line(text: str) -> bool:
    """Whether a paragraph is a notice clause's address line: no sentence, no heading."""
    return bool(_ADDRESS_LINE.match(text.strip()))


def _unterminated(text: str, following: str = "") -> bool:
    """Whether a paragraph that another (`following`) follows stops without a full stop (see the module doc); a list
    item ending on a comma before the next item is none ("(a) will not use the Cloud Service for High Risk
    Activities," above "(b) will not submit ...")."""
    t = _stripped_end(text)
    if not t or t[-1] in _TERMINAL or _LIST_CONTINUES.search(t) or _address_line(t):
        return False
    if t[-1] == "," and _MARKER.match(text.lstrip()) and _MARKER.match(following.lstrip()):
        return False
    return not _is_heading(text)


# ---------------------------------------------------------------------------------------------
# List markers


def _style(m: re.Match, previous: dict) -> tuple[tuple, int]:
    """(style key, value) of a marker match: the style is its brackets and its kind (lower or upper letters,
    lower or upper roman, digits). "i", "v", "x" (and capitals) are roman unless they continue a letter list
    ("h." then "i.")."""
    v, form = m.group("value"), (m.group("open"), m.group("close"))
    if v.isdigit():
        return (form, "digit"), int(v)
    lower = v.islower()
    letter_key, roman_key = (form, "letter", lower), (form, "roman", lower)
    roman = v.lower() in _ROMAN and all(c in "ivx" for c in v.lower())
    letter = len(v) == 1
    if roman and letter and previous.get(letter_key) == ord(v.lower()) - ord("a"):
        roman = False  # "i." after "h.": the ninth letter
    if roman:
        return roman_key, _ROMAN[v.lower()]
    if letter:
        return letter_key, ord(v.lower()) - ord("a") + 1
    return None, 0


def _render(key: tuple, value: int, like: str) -> str:
    kind = key[1]
    if kind == "digit":
        return str(value)
    if kind == "roman":
        text = _ROMAN_OF.get(value, like.lower())
    else:
        text = chr(ord("a") + value - 1) if value <= 26 else like.lower()
    return text if like.islower() else text.upper()


def _renumber(paragraphs: list[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """Paragraph-opening markers renumbered in sequence per style: a marker continues the last one of its
    style; a style nested below another (_LEVEL) restarts when the one above moves on, and every style restarts
    after a paragraph that opens a list (ends with ':') or heads a part ("Effect of Termination.": Bonterms' (a) had
    read "(d)" after the Data Export part's (c), seed 331); a first marker ("A.", "(a)") after a paragraph of prose
    starts its style again."""
    last: dict = {}  # style -> last value written
    out, changes = list(paragraphs), []
    for i in range(0, len(paragraphs), 2):
        m = _MARKER.match(paragraphs[i].lstrip())
        if not m:
            text = paragraphs[i].strip()
            if _stripped_end(paragraphs[i]).endswith(":") or re.fullmatch(RUN_IN_HEADING, text) or _is_heading(text):
                last.clear()  # "Supplier shall:" opens a list of its own; so does a part's heading above it
            continue
        key, value = _style(m, last)
        if key is None:
            continue
        if value == 1 and i >= 2 and not _MARKER.match(paragraphs[i - 2].lstrip()):
            last.pop(key, None)  # "A." after a paragraph of prose opens a list of its own (a franchise's curable
            # defaults after the sentence granting a cure had read "K." to "P.", among the incurable ones: seed 457)
        for inner in [k for k in last if _LEVEL[k[1:]] > _LEVEL[key[1:]]]:
            del last[inner]  # "b)" after "a) ... i. ii.": the roman list under b) starts again
        want = last[key] + 1 if key in last else 1  # a second "(a)" in one list is its "(b)"
        if want != value and value > 1 and i >= 2:
            before = m.group("open") + _render(key, value - 1, m.group("value")) + m.group("close")
            if re.search(rf"(?<=\s){re.escape(before)}\s", paragraphs[i - 2].strip()):  # inline, not opening it
                want = value  # its item before stands inside the paragraph above ("caused by: (a) ...; and")
        last[key] = want
        if want != value:
            lead = paragraphs[i][: len(paragraphs[i]) - len(paragraphs[i].lstrip())]
            old = m.group(0)
            new = m.group("open") + _render(key, want, m.group("value")) + m.group("close")
            out[i] = lead + new + paragraphs[i].lstrip()[len(old) :]
            changes.append((old, new))
    return out, changes


def _enumeration_faults(paragraphs: list[str]) -> list[str]:
    _, changes = _renumber(paragraphs)
    return [old for old, _ in changes]


# ---------------------------------------------------------------------------------------------
# The check and the repair


def paragraph_faults(body: str) -> list[dict]:
    """[{"kind": "unterminated" | "stray_opening" | "heads_nothing" | "heading_alone" | "enumeration", "text": ...}]
    for one section
    body: each paragraph that is not the last and stops without a full stop (the text: its last 80 characters), each
    that opens with stray punctuation (". For avoidance ..."), a last
    paragraph that is only a heading (the body's only one too), and each list marker out of sequence (the text:
    the marker)."""
    parts = _paragraphs(body.strip())
    texts = parts[0::2]
    parts = _split_inline_lists(parts)
    faults = [
        {"kind": "unterminated", "text": t.rstrip()[-80:]}
        for t, nxt in zip(texts[:-1], texts[1:])
        if t.strip() and _unterminated(t, nxt)
    ]
    faults += [{"kind": "stray_opening", "text": t.strip()[:40]} for t in texts if _STRAY_OPENING.match(t)]
    shown = [t for t in texts if t.strip()]
    faults += [{"kind": "heads_nothing", "text": shown[k].strip()[-60:]} for k in _heads_nothing(shown)]
    if _heading_alone(texts[-1]):  # a body that is nothing but a heading too (the repair keeps that one)
        faults.append({"kind": "heading_alone", "text": texts[-1].strip()})
    faults += [{"kind": "enumeration", "text": m} for m in _enumeration_faults(parts)]
    return faults


_BLANK_LINE = re.compile(r"\n[^A-Za-z\n]*$")  # a last line with no letters: a form's row of blanks ("____ ____")


def _heading_alone(text: str) -> bool:
    """Whether a body's last paragraph is only a heading ("Renewal."): what it headed was cut."""
    if _address_line(text):
        return False  # "If to Distributor: [___]" closing a notice clause
    t = text.strip()
    return bool(t) and (bool(re.fullmatch(RUN_IN_HEADING, t)) or (_is_heading(t) and t[-1] not in _TERMINAL))


def _repair_one(text: str) -> tuple[str, dict | None]:
    """One unterminated paragraph repaired: (new text, its change)."""
    if _BLANK_LINE.search(text.rstrip()) and text.strip():
        kept = _BLANK_LINE.sub("", text.rstrip())
        if not _unterminated(kept):
            return kept, {"old": text.rstrip()[len(kept):].strip(), "new": "", "action": "removed"}
        text = kept
    at, tail = _trailing(text)
    words = tail.split()
    if at > 0 and _is_heading(tail):  # a sub-heading after the paragraph's last sentence: a paragraph of its own
        head = text[:at].rstrip()
        tail = tail.strip()
        return f"{head}\n\n{tail[0].upper()}{tail[1:]}", {"old": tail, "new": tail, "action": "split"}
    alpha = re.findall(r"[A-Za-z]+", tail)
    end = _stripped_end(text)
    if end[-1:] in ",;" and _MARKER.match(text.lstrip()) and len(alpha) > HEADING_WORDS:  # a list item whose next
        # item went: a stop in place of its comma, never the item (an insolvency trigger of a termination right)
        return end[:-1] + "." + text[len(end):].rstrip(), {"old": " ".join(words[-4:]), "new": end[-20:-1] + ".",
                                                            "action": "terminated"}
    ends_on_word = bool(re.search(r"[A-Za-z0-9]$", end))  # not on "-", "," or a "____" blank
    if alpha and ends_on_word and alpha[-1].lower() not in _NO_END:
        return end + "." + text[len(end):].rstrip(), {"old": " ".join(words[-4:]), "new": " ".join(words[-4:]) + ".",
                                                      "action": "terminated"}
    kept = text[:at].rstrip()  # a sentence cut mid-way: it goes, the sentences before it stay ...
    if re.fullmatch(RUN_IN_HEADING, kept.strip()) or _is_heading(kept):
        kept, tail = "", text  # ... unless they are only its run-in heading ("Shipment.")
    return kept, {"old": tail.strip(), "new": "", "action": "removed"}


# a paragraph that is only a list marker ("A..", "(b).", "2.", "2A.", "4.1."): the item it numbered went
_MARKER_ALONE = re.compile(r"\s*\(?(?:[A-Za-z]|[ivxIVX]{1,4}|\d{1,2}(?:\.\d{1,2}){0,3}[A-Za-z]?)[.)][.;,\s]*")
# a run-in heading closing a paragraph after a sentence ("... fixed for 12 months. Invoices and Payment.")


# "Time of the essence." above "Force Majeure. Neither party ...": a run-in heading in sentence case whose text went,
# among siblings that open with theirs (a distributor's General section, seed-347 reader: an empty heading); a part
# heading above run-in parts is title case ("Miscellaneous.", "Payment Terms.") and stays
_RUN_IN_OPENS = re.compile(rf"{RUN_IN_HEADING}\s+\S")
_SMALL = frozenset("a an and as at by for in of on or the to with".split())


def _bare_run_in(text: str, following: str) -> bool:
    """Whether a paragraph is a sentence-case heading alone ("Time of the essence.") and the next opens with a run-in
    heading of its own: what it headed went."""
    t = text.strip()
    words = t.rstrip(".").split()
    sentence_case = any(w.islower() and w not in _SMALL for w in words[1:])
    return (t.endswith(".") and 0 < len(words) <= 5 and sentence_case and _is_heading(t.rstrip("."))
            and bool(_RUN_IN_OPENS.match(following.strip())))


def _heads_nothing(texts: list[str]) -> list[int]:
    """Indices of the paragraphs (content only, in order) that are only a list marker, or a heading whose next
    paragraph is a heading too ("Invoices and Payment." above "Taxes."), or that end in a run-in heading with a
    heading after them: what they numbered or headed went."""
    out = []
    for k, t in enumerate(texts):
        nxt = texts[k + 1] if k + 1 < len(texts) else ""
        heading_next = bool(nxt) and (_heading_alone(nxt) or bool(_MARKER_ALONE.fullmatch(nxt)))
        trailing = TRAILING_HEADING_AFTER_SENTENCE.search(t)
        if _address_line(t):
            continue  # "If to Supplier: [___]" above "If to Distributor: [___]"
        if _MARKER_ALONE.fullmatch(t) or heading_next and (_heading_alone(t) or trailing) or _bare_run_in(t, nxt):
            out.append(k)
    return out


_STRAY_OPENING = re.compile(r"\s*([.,;:]+\s+)(?=[A-Za-z(\"])")


def repair_paragraphs(body: str) -> tuple[str, list[dict]]:
    """(body with its paragraph faults repaired, the changes: {"old", "new", "action"} with action "split",
    "terminated", "removed" or "renumbered"). The last paragraph is left to the sentence cut (its end is the
    body's end); a paragraph a repair empties goes with its break."""
    parts = _paragraphs(body)
    changes = []
    content = [i for i in range(0, len(parts), 2) if parts[i].strip()]
    for i in content:  # stray punctuation opening a paragraph (". For avoidance of doubt, ..." after a hole's end)
        m = _STRAY_OPENING.match(parts[i])
        if m:
            changes.append({"old": parts[i][: m.end() + 12].strip(), "new": parts[i][m.end() : m.end() + 12].strip(),
                            "action": "removed"})
            parts[i] = parts[i][: m.start(1)] + parts[i][m.end() :]
    for k in _heads_nothing([parts[i] for i in content]):  # a marker or a heading whose item or text went
        i = content[k]
        trailing = None if _MARKER_ALONE.fullmatch(parts[i]) else TRAILING_HEADING_AFTER_SENTENCE.search(parts[i])
        new = parts[i][: trailing.start()] if trailing and not _heading_alone(parts[i]) else ""
        changes.append({"old": parts[i].strip()[-60:], "new": new.strip()[-60:], "action": "removed"})
        parts[i] = new
    every, content = content, [i for i in content if parts[i].strip()]
    for i, j in zip(content[:-1], content[1:]):
        if _unterminated(parts[i], parts[j]):
            parts[i], change = _repair_one(parts[i])
            changes.append(change)
    if len(content) > 1 and _heading_alone(parts[content[-1]]):  # a heading whose text the cut took
        changes.append({"old": parts[content[-1]].strip(), "new": "", "action": "removed"})
        parts[content[-1]] = ""
    if any(not parts[i].strip() for i in every):
        kept = [parts[i] for i in range(0, len(parts), 2) if parts[i].strip()]
        breaks = [parts[i] for i in range(1, len(parts), 2)] or ["\n\n"]
        rebuilt = [kept[0]] if kept else [""]
        for j, p in enumerate(kept[1:]):
            rebuilt += [breaks[min(j, len(breaks) - 1)], p]
        parts = rebuilt
    renumbered_parts, renumbered = _renumber(_split_inline_lists(parts))
    if renumbered:  # an inline list's first item gets its own paragraph only where its list needed renumbering
        parts = renumbered_parts
    changes += [{"old": o, "new": n, "action": "renumbered"} for o, n in renumbered]
    return ("".join(parts) if changes else body), changes
