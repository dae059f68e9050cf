"""What an edit keeps of a precedent before any hole opens: the precedent's own words, settled to the deal.

Owns the rules of the start phase's settling passes (hybrid.text.pipeline; registered and run in order by
hybrid.text.start_passes, whose `settle_facts` is this part of the phase): `lower_common_names` (another
deal's capitalized terms of common words in lower case), `drop_fact_sentences` (the sentences still holding
another deal's facts taken out, within limits), `blank_values` (another deal's figures left standing written as
blanks to complete), `drop_restated` (sentences restating the clause's frame sentence out) and `trim_headings` (no
run-in heading left dangling at a clause's end). Knows nothing about models or tokenizers.

Every fact of another deal that stays in a precedent is a hole the 5M-parameter filler rewrites, and its
rewrites read as damage ("including but not limited information"). A lawyer editing a precedent deletes
the sentence about the other deal, or writes its defined term as plain words; this module does the same.
"""

import re
from dataclasses import dataclass, replace

from hybrid.common.lexicon import LEANING, TITLED_LIST_ITEM
from hybrid.common.protections import protection_kind
from hybrid.common.sentences import RUN_IN_HEADING, sentence_boundaries
from hybrid.data.clean import REDACTION_RE
from hybrid.data.facts import BLANK, DealFacts
from hybrid.data.roles import PARTY_ROLE_WORDS
from hybrid.precedents.fact_spans import fact_spans, found_facts, overlaps
from hybrid.precedents.library import letter_words
from hybrid.text.blanks import VALUE_KINDS, blank_holes, blank_values  # re-exported
from hybrid.text.holes import beyond_mending, on_subject, outside, worded_holes

__all__ = ["SentenceCut", "lower_common_names", "drop_fact_sentences", "blank_values", "blank_holes", "drop_restated",
           "trim_headings", "dash_lists", "KEEP_SHARE", "VALUE_KINDS"]

KEEP_SHARE = 0.5  # drop_fact_sentences keeps at least this share of a precedent's words ...
DENSE_HOLES, DENSE_WORDS = 3, 8  # ... except of sentences with this many holes, or one hole per this many words
# ... or of a sentence holding another deal's name or term (a figure becomes a blank): the filler's rewrite of each read
# as damage in 29 of 40 (2026-12-05, seed 7: "save harmless the claims" for "the Company"); the last sentence stays
NAME_HOLES_GO = True


_DOCUMENT = r"(?:Agreements?|Addend(?:um|a)|Amendments?|Plan|Policy|Protocol)"  # what names a document
_NAMED_DOCUMENT = re.compile(
    rf"\b(?:the|such|any|each|that)\s+((?:[A-Z][\w-]*\s+(?:and\s+|of\s+)?){{1,5}}{_DOCUMENT})\b"
)
_OTHER_DOCUMENT = re.compile(rf"\b{_DOCUMENT}\s*$")
# a redaction (adapted: a blank) that ends the sentence after a stop of its clause, or stands alone under a marker
_REDACTED_CLAUSE = re.compile(
    rf"(?:[,;:]|^\s*(?:\(?[a-z0-9]{{1,3}}[.)])?)\s*(?:{REDACTION_RE.pattern}|{re.escape(BLANK)})\s*[.;)]*\s*$"
)
# a sentence whose source lost what it ends on, unmarked: "receive the ISO13488 standard by no later than ."
_LOST_END = re.compile(r"\b(?:than|by|at|before|until|the|our)[ \t]*\.(?=[\"')\]]*(?:\s|$))")
# a page's confidentiality legend the source's text kept: "CONFIDENTIAL Page 12 of", "CONFIDENTIAL 13.2 Supplier's"
# a bilingual contract's other-language text in an English draft: Chinese, Japanese or Korean letters out
# ("MARKETING REGIONS 销售区域 Buyer and Supplier agree", seed-283 and 313 readers), their full-width
# punctuation as English writes it
_CJK_PUNCTUATION = {"。": ". ", "，": ", ", "；": "; ", "：": ": ", "（": " (", "）": ") ", "、": ", "}
_CJK_PUNCT = re.compile(r"[ \t]*([。，；：（）、])[ \t]*")
_CJK = r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef]+"
_CJK_RUN = re.compile(rf"(^[ \t]*)?{_CJK}(?:[ \t]+{_CJK})*[ \t]*", re.M)


# a sentence about the other language's text, which an English draft does not have: "This Agreement is made out in
# Chinese and English ...", "Where any inconsistency occurs in ... these two texts, the English text shall be deemed
# superior." (seed-331 supply reader: "a second text that does not exist")
_LANGUAGES = r"(?:Chinese|Mandarin|Japanese|Korean|Spanish|French|German|Portuguese|Italian|Russian|Arabic|Hebrew)"
_TWO_TEXTS = re.compile(rf"(?:(?<=^)|(?<=[.:]\s)|(?<=\n))[^.\n]*\b(?:(?:these|the|both) two (?:texts|versions"
                        rf"|languages)|{_LANGUAGES} and English|English and {_LANGUAGES})\b[^.\n]*\.[ \t]*")


def other_script(text: str) -> str:
    """text without another script's letters (a bilingual contract's Chinese), its full-width punctuation written
    as English writes it ("[___]。" -> "[___].", "including，without" -> "including, without"), and without its
    sentences about the other language's text (_TWO_TEXTS)."""
    text = _TWO_TEXTS.sub("", text)
    if not _CJK_RUN.search(text) and not _CJK_PUNCT.search(text):
        return text
    text = _CJK_PUNCT.sub(lambda m: _CJK_PUNCTUATION[m.group(1)], text)
    text = _CJK_RUN.sub(lambda m: "" if m.group(1) is not None else " ", text)
    return re.sub(r"[ \t]+(?=[.,;:)]|$)|(?<=\()[ \t]+", "", re.sub(r"(?<=\S)[ \t]{2,}", " ", text), flags=re.M)


_PAGE_LEGEND = re.compile(
    r"(^|[ \t]+)CONFIDENTIAL(?:\s+Page\s+\d+(?:\s+of(?:\s+\d+)?)?|(?=\s+\d{1,2}\.\d))[ \t]*", re.M
)


@dataclass(frozen=True)
class SentenceCut:
    """How far drop_fact_sentences may cut a text (its keywords update it: `keep_share=0.9`)."""

    keep_share: float = KEEP_SHARE  # at least this share of the words stays (dense, named, redacted ones aside)
    may_empty: bool = False  # the last sentence may go too (a frame sentence stands before the clause)
    names: bool | None = None  # a sentence naming another deal's name or term goes (None: NAME_HOLES_GO)
    heading: str | None = None  # the clause's heading: its own sentence on that subject stays, named or not
    whole: bool = False  # a section of the base the whole draft stands on: only what is beyond mending goes




def drop_fact_sentences(text: str, deal: DealFacts, allowed: str, own_facts=(), rule: SentenceCut | None = None,
                        **kw) -> str:
    """text without the sentences that hold a fact the deal does not state (the runs start_tokens would mask:
    another deal's names, figures, redactions, acronyms), most holes per word first, as long as at least
    `keep_share` of its words and one sentence remain; the holes left are rewritten by the filler. A sentence
    taken out reads as a lawyer's deletion; a hole the small model rewrites reads as damage ("(each a. ...
    Business).)." where the precedent said "Facility Addendum"). A sentence dense with holes (DENSE_HOLES of
    them, or one per DENSE_WORDS words: a payment schedule of another deal's sums and dates), one naming a document
    the deal does not have ("the License Agreement", "the Facility Addendum"), or one ending in a redaction after a
    comma, semicolon or colon (the source redacted what it says: "if Buyer otherwise reasonably requests, [***]."),
    goes whatever share
    is left, the last one too where may_empty (the clause's frame sentence stands before it); "" is then returned.
    Paragraph breaks are kept. whole: the text is a section of the base the whole draft stands on
    (hybrid.skeleton.from_base), where a deletion costs the contract a term: only the dense, redacted and
    other-document sentences go, never one that grants a right, remedy or protection
    (hybrid.common.protections); a figure or name left in the others is a blank or hole to complete. rule:
    SentenceCut, or its fields as keywords."""
    rule = replace(rule or SentenceCut(), **kw)
    keep_share, may_empty, names, heading, whole = rule.keep_share, rule.may_empty, rule.names, rule.heading, rule.whole
    keep, drop = fact_spans(text, deal, allowed, own_facts)
    drop = outside(drop, keep, text)
    # "the License Agreement" where every word of it is the deal's: still a document the deal does not have
    drop += [m.span(1) for m in _NAMED_DOCUMENT.finditer(text) if m.group(1) not in allowed]
    if not drop and BLANK not in text and not REDACTION_RE.search(text) and not _LOST_END.search(text):
        return text
    bounds = [0, *[e for e in sentence_boundaries(text) if 0 < e < len(text)], len(text)]
    sentences = [(a, b) for a, b in zip(bounds, bounds[1:]) if text[a:b].strip()]
    total = len(text.split())
    runs = []  # the holes: drop spans with only spaces between them are one ("Zanzibar Quux Holdings")
    for x, y in sorted(drop):
        if runs and not text[runs[-1][1] : x].strip():
            runs[-1] = (runs[-1][0], max(runs[-1][1], y))
        else:
            runs.append((x, y))
    holes = {(a, b): sum(1 for x, y in runs if x < b and a < y) for a, b in sentences}
    names = NAME_HOLES_GO if names is None else names
    worded = worded_holes(text, runs, allowed, own_facts, VALUE_KINDS) if names else []
    named = {s for s in sentences if any(x < s[1] and s[0] < y for x, y in worded)}
    named -= {s for s in named if heading and on_subject(text[s[0] : s[1]], heading)}  # the clause's own sentence
    # "in case the License Agreement is terminated": a document the deal does not have, which no rewrite mends
    other = {s for s in sentences if any(x < s[1] and s[0] < y and _OTHER_DOCUMENT.search(text[x:y]) for x, y in runs)}
    # "if Buyer otherwise reasonably requests, [***].": the source redacted what the sentence says, not a figure
    other |= {s for s in sentences if _REDACTED_CLAUSE.search(text[s[0] : s[1]]) or _LOST_END.search(text[s[0] : s[1]])}
    bad = sorted(
        (s for s in sentences if holes[s] or s in other),
        key=lambda s: (s not in other, -holes[s] / max(len(text[s[0] : s[1]].split()), 1)),
    )
    if whole:  # a base's section: keep what is not beyond mending, and every protection
        bad = beyond_mending(text, bad, other, runs, found_facts(text, allowed, own_facts), DENSE_HOLES)
        keep_share, names = 0.0, False
    cut, left, n_left = set(), total, len(sentences)
    for a, b in bad:
        words = len(text[a:b].split())
        dense = holes[(a, b)] >= DENSE_HOLES or holes[(a, b)] * DENSE_WORDS >= words or (a, b) in other
        named_ = (a, b) in named
        if whole and (a, b) in other and protection_kind(text[a:b]):  # a protection outlives its document's name
            continue
        if n_left <= 1 and not (dense and may_empty) or left - words < keep_share * total and not (dense or named_):
            continue
        cut.add((a, b))
        left, n_left = left - words, n_left - 1
    _orphans(text, sentences, cut)
    for i, (a, b) in enumerate(sentences):  # a run-in heading goes with the sentence it heads
        heads_a_cut = i + 1 == len(sentences) or sentences[i + 1] in cut
        if (a, b) not in cut and heads_a_cut and _heading_like(text[a:b]):
            cut.add((a, b))
    if not cut:
        return text
    out = "".join(text[a:b] if (a, b) not in cut else _layout(text[a:b]) for a, b in sentences)
    out = re.sub(r"\n{3,}", "\n\n", re.sub(r"[ \t]+\n", "\n", out))  # spaces off first: "\n\n \n\n" is one break
    out = re.sub(r"[ \t]{2,}", " ", out).strip()
    if not may_empty and (not out or out.endswith(":")):  # nothing left but a lead-in: the clause stays, with holes
        # (an empty start had the filler write the whole clause from scratch); names kept: the share alone decides
        again = SentenceCut(keep_share, names=False)
        return drop_fact_sentences(text, deal, allowed, own_facts, again) if names else text
    return out


def _orphans(text: str, sentences, cut: set) -> None:
    """In place: add to `cut` what a cut leaves without its sense, as long as one sentence stays: a lead-in whose
    list went ("Supplier represents and warrants to Buyer that:" before its dropped items; "The following definitions
    apply." before its dropped definitions) and, after a cut sentence,
    a fragment that opens in lower case (" as set forth under Section 2.1 and 2.1." after "(b) That it will
    purchase the API ... agreement.") or a sentence that leans on the one cut ("For avoidance of doubt, ...")."""
    grew = True
    while grew:
        grew = False
        for i, (a, b) in enumerate(sentences):
            if (a, b) in cut or len(cut) + 1 >= len(sentences):
                continue
            piece = text[a:b].strip()
            after_cut = i + 1 == len(sentences) or sentences[i + 1] in cut
            lead_in = (piece.endswith(":") or _ANNOUNCES.search(piece)) and after_cut
            opens_on_cut = i > 0 and sentences[i - 1] in cut
            fragment = opens_on_cut and (piece[:1].islower() and not _LIST_OPENING.match(piece) or LEANING.match(piece))
            if lead_in or fragment:
                cut.add((a, b))
                grew = True


# a sentence that reads only after the one before it ("For avoidance of doubt, any increase ...", "Such signature ...",
# "The provisions of the preceding sentence shall be severable ...")
_LIST_OPENING = re.compile(r"^\(?(?:[a-z]|[ivx]{1,4})[.)]\s")  # "(a) ", "b) ", "iv. "
_ANNOUNCES = re.compile(r"\bthe following\b[^.:;]*\.$", re.I)  # "The following definitions apply ... Agreement."


_ROLE_WORDS = PARTY_ROLE_WORDS
_TERM_JOINS = frozenset(("of", "and", "for"))  # small words inside a term: "Statement of Work", "Terms and Conditions"
_LIST_MARK = re.compile(r"(?:^|\s)\(?(?:[a-z]|[ivx]{1,4}|\d{1,3})[.)]$")


def _quoted(text: str, end: int, last: str) -> bool:
    """A quote closes right after the term ending at `end`: it is being defined ('("Facility Addendum")'), unless
    the quote is a plural's apostrophe ("for its Users' actions")."""
    after = text[end : end + 1]
    return bool(after) and (after in "\"”" or after in "'’" and not last.endswith("s"))


def _opens_sentence(text: str, at: int) -> bool:
    before = text[:at].rstrip()
    return not before or before[-1] in '.!?:;"“(' or "\n" in text[len(before) : at] or bool(_LIST_MARK.search(before))


def lower_common_names(text: str, deal: DealFacts, allowed: str, own_facts=(), words=None) -> str:
    """text with another deal's capitalized terms made of common words written in lower case ("comply with the
    Documentation" -> "comply with the documentation", "each Facility Addendum" -> "each facility addendum"): a
    term the draft does not define reads as plain words, where masking it had the small model rewrite it
    ("comply with the Documentation" -> "and its agents"). Only title-case runs whose every word is one the
    library writes in lower case (`words`); not at a sentence's or list item's start, not a name of the source's
    own parties (own_facts), not the deal's facts or the terms definitions define."""
    if not words:
        return text
    keep, _ = fact_spans(text, deal, allowed, own_facts)
    # a deal whose parties are their roles keeps "Buyer" as a fact: inside "Buyer Materials" the role word's own rule
    # below applies (it stays; the rest of the term is lowered), where the fact's span had kept the term whole
    keep = [(a, b) for a, b in keep if text[a:b].lower() not in _ROLE_WORDS]
    own = {f.lower() for f in own_facts}
    low = set(letter_words(allowed))
    out, last = [], 0
    for f in found_facts(text, allowed, own_facts):
        ws = f.text.split()
        roles = [w.lower() in _ROLE_WORDS and w.lower() in low for w in ws]  # the deal's own role words stay
        if (
            f.kind != "name"
            or f.start < last
            or f.text.lower() in own
            or all(roles)
            or any(w.lower() in _ROLE_WORDS and not r for w, r in zip(ws, roles))  # another side's role: a hole
            or not all(
                r or w in _TERM_JOINS or (w.isalpha() and w[:1].isupper() and w[1:].islower() and w.lower() in words)
                for w, r in zip(ws, roles)
            )
            or overlaps(f.start, f.end, keep)
            or _opens_sentence(text, f.start)
            or _quoted(text, f.end, ws[-1])  # a quoted term is defined: its capitals stay
        ):
            continue
        out += [text[last : f.start], " ".join(w if r else w.lower() for w, r in zip(ws, roles))]
        last = f.end
    return "".join(out) + text[last:] if out else text


_HEADING_ONLY = re.compile(rf"^\s*(?:\(?(?:[a-z]|[ivx]{{1,4}}|\d{{1,3}}(?:\.\d{{1,3}})*)[.)]\s*)*{RUN_IN_HEADING}\s*$")
_GLUED_NUMBER = re.compile(r"(?<![\w.])\d{1,2}(?:\.\d{1,2})+(?=[A-Z][a-z])")  # "4.1Product Prices." (a lost space)
# a section number opening a sentence inside the clause ("... REPRESENTATION. 6.2 Warranty of Title.")
_INNER_NUMBER = re.compile(
    rf"(?:(?<=[.;:]\s)|(?<=[.;:]\n)|^)\d{{1,2}}(?:\.\d{{1,2}})+\.?[ \t]+(?=[A-Z(])(?!{TITLED_LIST_ITEM})", re.M
)
_GLUED_COMMA = re.compile(r"(?<=[A-Za-z]),(?=[A-Za-z])")  # "STATUTORY,INCLUDING": a lost space
# a line holding only its source's article or section number: "Article 27" above the paragraph it numbered
_NUMBER_LINE = re.compile(
    r"^[ \t]*(?:Article|ARTICLE|Section|SECTION|Clause|CLAUSE)[ \t]+(?:\d+(?:\.\d+)*|[IVXLC]+)\.?[ \t]*(?:\n+|\Z)", re.M
)
# a sub-clause number where its source lost the stop before it: "ready for delivery 12.2 Buyer will notify ..."
_LOST_STOP_NUMBER = re.compile(
    r"(?<![Ss]ection)(?<![Aa]rticle)(?<![Cc]lause)(?<![Pp]aragraph)(?<=[a-z])[ \t]+\d{1,2}\.\d{1,2}[ \t]+(?=[A-Z][a-z])"
)
# a bulleted list its source flattened into one line: "the following: - Technical specifications - Drawings - ..."
_DASH_LIST = re.compile(r":[ \t]+-[ \t]+([^\n]*?)(?=\.\s|\.$|\n|$)")
_DASH = re.compile(r"[ \t]+-[ \t]+")


_SUB_NUMBER = re.compile(
    r"(^|[:;]\s+|[;,]\s+(?:and|or),?\s+)(\d{1,2}\.\d{1,2})\.(\d{1,2})[ \t]+(?=[a-z])", re.M
)


def sub_numbers_as_markers(text: str) -> str:
    """text with a list its source numbered by its own sub-clauses written with letters ("can show: 5.3.1 that such
    information ...; 5.3.2 it is rightfully known ..." -> "can show: (a) that such information ...; (b) it is
    ..."): two or more items of one parent, numbered 1, 2, ... in order; otherwise unchanged."""
    found = list(_SUB_NUMBER.finditer(text))
    parents = {m.group(2) for m in found}
    if len(found) < 2 or len(parents) != 1 or [int(m.group(3)) for m in found] != list(range(1, len(found) + 1)):
        return text
    for k, m in reversed(list(enumerate(found))):
        text = text[: m.start()] + m.group(1) + f"({chr(ord('a') + k)}) " + text[m.end() :]
    return text


def dash_lists(text: str) -> str:
    """text with each list its source flattened into a line after a colon (three items or more, none over 15 words)
    written as contracts write a run-in list: "the following: (a) Technical specifications; (b) Drawings; and (c)
    Any additional information ..."."""

    def listed(m: re.Match) -> str:
        items = [i.strip(" ;,") for i in _DASH.split(m.group(1))]
        if len(items) < 3 or any(not i or len(i.split()) > 15 for i in items):
            return m.group(0)
        marks = [f"({chr(ord('a') + k)}) {item}" for k, item in enumerate(items)]
        return ": " + "; ".join(marks[:-1]) + "; and " + marks[-1]

    return _DASH_LIST.sub(listed, text)
_CONTENT = re.compile(r"[a-z]{3,}")
_ENUMERATOR = re.compile(r"^\s*(?:\d{1,3}(?:\.\d{1,3})+\s+|\(?(?:[a-z]|[ivx]{1,4}|\d{1,3}(?:\.\d{1,3})*)[.)]\s*)+")


PARAGRAPH_HEADING_WORDS = 8  # a verbless phrase this long standing as its own paragraph is a heading
_ARTICLES = frozenset("the a an its their each all any such this that".split())
_VERBS = frozenset("shall will may must is are be has have means includes agrees".split())


def _heading_like(sentence: str) -> bool:
    """A run-in heading standing as a sentence: title case ("(c) Quality Plans.") or a short phrase without a
    verb ("Fixtures and tooling."; one standing as its own paragraph may be longer: "Use of Facility, equipment,
    molds and tooling.")."""
    words = _ENUMERATOR.sub("", sentence).split()  # "(c) Confidential information." is a heading too
    alone = sentence.lstrip(" \t").startswith("\n")  # its own paragraph: longer, but no article ("The Buyer pays")
    longest = PARAGRAPH_HEADING_WORDS if alone and not _ARTICLES & {w.lower() for w in words} else 4
    return bool(_HEADING_ONLY.match(sentence)) or (
        0 < len(words) <= longest and sentence.rstrip().endswith(".") and words[0][:1].isupper()
        and not any(w.strip(".,;:").lower() in _VERBS for w in words)
    )


def trim_headings(text: str) -> str:
    """text without the run-in headings it ends with ("... in writing. (c) Confidential Information."): a heading
    whose clause the cut left out."""
    while True:
        ends = [0, *[e for e in sentence_boundaries(text) if 0 < e < len(text.rstrip())]]
        last = text[ends[-1] :]
        if len(ends) < 2 or not _heading_like(last):
            return text
        text = text[: ends[-1]].rstrip()


MIN_RESTATING_WORDS = 3  # a piece with fewer content words is a run-in heading ("License."), no restatement


def drop_restated(text: str, frame: str, overlap: float = 0.6) -> str:
    """text without the sentences that restate `frame` (the template's sentence with the deal's facts, which
    opens the clause): "This Agreement shall be governed by the laws of Ohio." after the frame "This Agreement is
    governed by ... the laws of the State of Ohio." Where every sentence restates it, nothing stays ("": the
    frame is the whole clause)."""
    if not frame:
        return text
    mine = set(_CONTENT.findall(frame.lower()))
    bounds = [0, *[e for e in sentence_boundaries(text) if 0 < e < len(text)], len(text)]
    sentences = [(a, b) for a, b in zip(bounds, bounds[1:]) if text[a:b].strip()]

    def same(x: str) -> float:  # the share of x's content words the frame writes; a heading restates nothing
        theirs = set(_CONTENT.findall(x.lower()))  # ("License." had gone after the licence frame, seed 283)
        return len(mine & theirs) / len(theirs) if len(theirs) >= MIN_RESTATING_WORDS else 0.0

    def covers(x: str) -> float:  # the share of the frame's content words x writes
        return len(mine & set(_CONTENT.findall(x.lower()))) / len(mine) if mine else 0.0

    keep = [same(text[a:b]) < overlap for a, b in sentences]
    if not any(keep):
        return ""
    out = "".join(
        _rest(text[a:b], same, covers, overlap) if k else _layout(text[a:b]) for (a, b), k in zip(sentences, keep)
    )
    if out == text:
        return text
    return re.sub(r"[ \t]{2,}", " ", re.sub(r"\n{3,}", "\n\n", out)).strip()


_AND = re.compile(r"[,;]\s+and\s+")


COVER = 0.8  # a first part holding this share of the frame's content words restates it


def _rest(sentence: str, same, covers, overlap: float) -> str:
    """sentence without a first part that restates the frame before ", and" ("This Agreement shall be governed
    by the laws of Ohio, and the parties submit to ..." -> "The parties submit to ...")."""
    m = _AND.search(sentence)
    if not m or len(sentence[m.end() :].split()) < 4:
        return sentence
    head = sentence[: m.start()]
    if same(head) < overlap and covers(head) < COVER:
        return sentence
    lead = sentence[: len(sentence) - len(sentence.lstrip())]
    rest = sentence[m.end() :]
    return lead + rest[:1].upper() + rest[1:]


def _layout(sentence: str) -> str:
    """What stays of a sentence taken out: the line breaks around it (a paragraph's end), else one space."""
    breaks = sentence.count("\n")
    return "\n" * min(breaks, 2) if breaks else " "

