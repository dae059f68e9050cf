"""Two wording repairs of a finished section body, where an edited precedent and the template meet:
`drop_restated` (a precedent's sentence that states again what the section's frame already states: "This
Agreement is governed by the laws of the State of Delaware. ... All matters relating to this Agreement shall be
governed by the laws of the State of Delaware, without regard to ..."; where that sentence follows the frame at
once and says more, the frame goes instead: "The law of the State of Delaware governs this Agreement and any
action arising out of it, without reference to conflict of law rules." keeps its reach; a frame stating no value of
the deal goes where a later sentence says all it says and more: Bonterms' "Receiving Party will: (a) use Confidential
Information only for the Purpose, ... (c) protect ..." after "Each Party shall use ... only for the Purpose and shall
protect it with at least reasonable care") and
`capitalize_defined_party` (the preamble defines "Party", a precedent writes "each party": "each Party").

Every removal (`drop_restated`, `drop_presupposing`, `drop_conflicting`, `drop_sentences`) takes an optional `guard`
that may veto a span: hybrid.draft.consistency passes a hybrid.common.protections.Guard, which keeps a right, remedy
or protection the draft states nowhere else.

Pure string functions, no model; text that needs no change comes back unchanged, byte for byte.
hybrid.draft.consistency runs both over every section.
"""

import re

from hybrid.common.sentences import PART_LINE, RUN_IN_HEADING, sentence_boundaries, sentences
from hybrid.common.stems import content_stems
from hybrid.common.topics import absent_mentions, convenience_termination
from hybrid.data.facts import BLANK
from hybrid.text.term import states_term

__all__ = ["RESTATED_SHARE", "restated_sentences", "drop_restated", "drop_presupposing", "drop_conflicting",
           "drop_second_term", "term_in_place", "frame_apart", "drop_second_fee", "perpetual", "drop_renewal",
           "trade_terms", "defines_party", "capitalize_defined_party", "drop_sentences"]

# a sentence renewing or extending a term: Bonterms' "Each Subscription Term will renew for successive periods unless
# ... [___] prior to the end of the current Subscription Term" had gone as a blanked restatement of the deal's term
_RENEWAL = re.compile(r"\brenew|\bsuccessive\b|\bextend|\bextension\b", re.I)
RESTATED_SHARE = 0.6  # a later sentence holding this share of the frame's content stems and every value restates it
PREDICATE_SHARE = 0.5  # ... and this share of what the frame says of its values (its stems other than the values)
BLANK_SHARE = 0.3  # ... or this share, where it leaves blank the number the frame states ("a period of [___] months")
RESTATED_TIMES = 4  # a "sentence" this many times the frame's words (a list of triggers ending "; or") restates none
FULLER = 5  # a restatement right after the frame with this many content stems the frame lacks replaces the frame
_WORD = re.compile(r"[A-Za-z]+|\d+")
_STOP = frozenset(
    "a an and any as at be by for from in into is it its of on or shall such that the their this to under upon "
    "with will all each other hereby hereof hereunder".split()
)
_GENERAL = frozenset("agreement this the section".split())  # capitalized in any frame, no fact of the deal


def _content(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text) if w.lower() not in _STOP}


def _values(frame: str, locked) -> set[str]:
    """What the frame states of the deal, as words: its numbers and the capitalized words after its first, less the
    words of the locked strings (party names and defined terms, which any sentence of the draft may name)."""
    common = {w.lower() for s in locked for w in _WORD.findall(s)} | _GENERAL
    words = _WORD.findall(frame)
    return {w.lower() for w in words[1:] if (w[0].isupper() or w.isdigit()) and w.lower() not in common}


def restated_sentences(text: str, frame: str, locked=()) -> list[tuple[int, int]]:
    """(start, end) of every sentence of text after its opening frame that restates the frame: it holds every value
    the frame states (_values: "Delaware", "5") and at least RESTATED_SHARE of the frame's content stems ("governs"
    restates "governed", "law" "laws"), or, where it leaves blank ("[___]") what the frame states in numbers,
    BLANK_SHARE of them ("The Term shall be for a period of [___] years" after "The lease term is 36 months": the
    precedent's own term left blank). A frame that states no value ("The Supplier shall supply the Products") has
    no restatement. text[start:end] is the sentence with the space before it."""
    frame = frame.strip()
    if not frame or not text.lstrip().startswith(frame):
        return []
    values, want = _values(frame, locked), content_stems(frame)
    if not values or len(want) < 4:
        return []
    # what the frame says of its values ("governed", "laws"): a sentence naming the same values for another purpose
    # ("submit to the courts of the State of Oregon" after "governed by the laws of the State of Oregon") says else
    said = want - content_stems(" ".join(values)) - content_stems("this agreement")
    out = []
    for start, end in _after_frame(text, frame):
        piece = text[start:end]
        stems = content_stems(piece)
        share = len(want & stems) / len(want)
        says = not said or len(said & stems) >= PREDICATE_SHARE * len(said)
        words = _content(piece)
        blank = BLANK in piece and any(v.isdigit() for v in values) and {v for v in values if not v.isdigit()} <= words
        if _RENEWAL.search(piece) and not _RENEWAL.search(frame):  # a renewal is a term of its own, not the frame's
            continue
        if len(piece.split()) > RESTATED_TIMES * len(frame.split()):  # the seed-811 distributor's triggers
            continue
        if piece.strip() and (values <= words and share >= RESTATED_SHARE and says or blank and share >= BLANK_SHARE):
            out.append((start, end))
    return out


def _after_frame(text: str, frame: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of text after its opening frame, the space before it included."""
    start = text.index(frame) + len(frame)
    ends = [b for b in sentence_boundaries(text) if b > start] + [len(text)]
    return list(zip([start, *ends[:-1]], ends))


def drop_restated(text: str, frame: str, locked=(), terms=(), guard=None) -> tuple[str, list[str]]:
    """(text without the sentences restated_sentences finds, those sentences stripped). Where the first of them
    follows the frame at once, holds FULLER content stems the frame lacks (it says what the frame says and more)
    and writes each of the required `terms` the frame writes ("the State of Delaware", word for word), that
    sentence stays and the frame is what goes (the frame among the removed). `guard(text, spans) -> spans`: of the
    spans about to go, those that may (hybrid.common.protections.Guard); None: all."""
    found = restated_sentences(text, frame, locked)
    if not found:
        cover = _covering(text, frame, locked, terms)
        if cover is None:
            return text, []
        begin = text.index(frame.strip())
        end = begin + len(frame.strip())
        end += len(text[end:]) - len(text[end:].lstrip(" "))
        if guard is not None and not guard(text, [(begin, end)]):
            return text, []
        return text[:begin] + text[end:], [frame.strip()]
    frame = frame.strip()
    begin = text.index(frame)
    after_frame = begin + len(frame)
    s, e = found[0]
    first = text[s:e]
    fuller = (  # a sentence that leaves the frame's number blank never stands in for it
        len(content_stems(first) - content_stems(frame)) >= FULLER and _values(frame, locked) <= _content(first)
    )
    if s == after_frame and fuller and all(t in first for t in terms if t and t in frame):
        cuts = [(begin, s + len(first) - len(first.lstrip())), *found[1:]]
    else:
        cuts = found
    if guard is not None:
        cuts = guard(text, cuts)
        if not cuts:
            return text, []
    # "A. Term." whose sentence goes goes with it (never a word of the frame)
    cuts = [(max(a - len(_headed(text[:a])), after_frame) if a >= after_frame else a, b) for a, b in cuts]
    out, at = [], 0
    for a, b in cuts:
        out.append(text[at:a])
        at = b
    out.append(text[at:])
    return "".join(out), [text[a:b].strip() for a, b in cuts]


def _covering(text: str, frame: str, locked=(), terms=()) -> "tuple[int, int] | None":
    """(start, end) of the first sentence after the opening frame that says everything a frame stating no value of
    the deal says, and FULLER stems more, writing each required term the frame writes: Bonterms' "Receiving Party
    will: (a) use Confidential Information only for the Purpose, ... (c) protect Confidential Information using at
    least the same precautions ..." after the frame "Each Party shall use the Confidential Information of the other
    Party only for the Purpose and shall protect it with at least reasonable care". None where there is none, or
    the frame states a value (restated_sentences keeps the frame's values then)."""
    frame = frame.strip()
    if not frame or not text.lstrip().startswith(frame) or _values(frame, locked):
        return None
    want = content_stems(frame)
    if len(want) < 4:
        return None
    for start, end in _after_frame(text, frame):
        piece = text[start:end]
        stems = content_stems(piece)
        if want <= stems and len(stems - want) >= FULLER and all(t in piece for t in terms if t and t in frame):
            return start, end
    return None


def drop_presupposing(
    text: str, lacks=(), convenience: bool = False, frame: str = "", guard=None
) -> tuple[str, list[str]]:
    """(text without the sentences that lean on a clause the draft does not have, those sentences stripped): a
    phrase of a type in `lacks` (hybrid.common.topics.absent_mentions: "obligations respecting confidentiality and
    indemnification" in an NDA without an indemnity, "does not require either party to disclose or to receive
    Information" in an equipment lease) or, where `convenience`, a right to end the agreement on notice alone
    (the draft's term section sets the term: hybrid.common.topics.convenience_termination). A run-in heading of a
    sentence that goes goes with it; the frame sentence and the body's last sentence always stay (the fit has
    already preferred precedents without such phrases, hybrid.precedents.fit). `guard` as in drop_sentences."""
    if not lacks and not convenience:
        return text, []
    return drop_sentences(
        text,
        lambda piece: bool(absent_mentions(piece, lacks) or convenience and convenience_termination(piece)),
        frame,
        guard,
    )


# Incoterms (2020, 2010 and older): the delivery term a supply deal states once
_TRADE_TERM = re.compile(r"\b(?:EXW|FCA|CPT|CIP|DAP|DPU|DDP|FAS|FOB|CFR|CIF|DAT|DDU|DAF|DES|DEQ)\b|\bF\.O\.B\.")


def trade_terms(text: str) -> set[str]:
    """The Incoterms text names ("FCA", "FOB"; "F.O.B." as "FOB")."""
    return {m.group(0).replace(".", "") for m in _TRADE_TERM.finditer(text)}


def drop_conflicting(text: str, deal_terms: set[str], frame: str = "", guard=None) -> tuple[str, list[str]]:
    """(text without the sentences that name an Incoterm other than the deal's, those sentences stripped): where the
    deal states "FCA Supplier's facility", a kept "All shipments of Products shall be made FOB Supplier's office"
    contradicts it. Nothing goes where the deal names none (`deal_terms` empty). The frame sentence and the body's
    last sentence always stay, as in drop_presupposing; `guard` as in drop_sentences."""
    if not deal_terms:
        return text, []
    return drop_sentences(text, lambda piece: bool(trade_terms(piece) - deal_terms), frame, guard)


def drop_second_term(text: str, frame: str, guard=None) -> tuple[str, list[str]]:
    """(text without the sentences stating how long the agreement runs, those sentences stripped) where the frame
    states the deal's term: the contractor form's "This Agreement will remain in full force and effect for as long as
    Consultant is performing Services pursuant to the SOW" after "This Agreement continues for 6 months" made two
    terms (seed-83 reading). Nothing goes where the frame states no term; `guard` as in drop_sentences."""
    if not frame or not states_term(frame):
        return text, []
    about = _term_of(frame)
    text, dropped = drop_sentences(text, _term_statement(about), frame, guard)
    # "This Agreement shall have a term of [___] from the effective date and shall automatically renew ...": its
    # renewal stays, its own term goes (seed 223: supply's "continues for 5 years" beside it)
    if about == "agreement":
        dropped += [m[2].strip() for m in _TERM_THEN_RENEWAL.finditer(text)]
        text = _TERM_THEN_RENEWAL.sub(r"\1 \3", text)
    return text, dropped


_BARE_TERM = re.compile(r"(\s+)([ \t]*(?:\(?[A-Za-z0-9]{1,3}[.)][ \t]+)?(?:Initial )?Term\.)[ \t]*(?=\n|$)")


def term_in_place(text: str, frame: str, guard=None) -> tuple[str, list[str]]:
    """(text, [the statement replaced]) with a frame stating the deal's term (or its fees) that opens `text`
    moved into the place of the base's own statement of it (drop_second_term's, drop_second_fee's) where that stands
    under a run-in heading: "<frame> Term. This Agreement will start on the Effective Date and continue until 12
    months ..." becomes "Term. <frame>" (the professional services form's "Term." had stood empty and gone, and with
    it the first of the parts its "Section 5.2(a)" counts); Bonterms' "Payment. Customer will pay the fees described
    in the Order." becomes "Payment. <frame>" (its survival list's "13 (Payment)" had named a heading gone, seed
    283); a "Term." left alone on the line after the frame (its statement gone as a restatement of the frame) takes
    the frame (the partnership form's, seed 283); unchanged where the frame does not open the text, where no such
    statement stands under a heading, or where `guard` (as in drop_sentences) keeps it."""
    frame = (frame or "").strip()
    if not frame or not text.startswith(frame):
        return text, []
    if states_term(frame):
        # the statement already gone (restating the frame), its heading alone on the line after the frame: "Term."
        bare = _BARE_TERM.match(text, len(frame))
        if bare:
            return text[bare.end(1):bare.end(2)] + " " + frame + text[bare.end():], []
        about = _term_of(frame)
        goes = _term_statement(about)
    elif _STATES_FEE.search(frame):  # "Payment. Customer will pay the fees described in the Order." (Bonterms)
        goes = lambda piece: bool(_FEES_ELSEWHERE.match(piece))  # noqa: E731
    else:
        return text, []
    bounds = [0, *[b for b in sentence_boundaries(text) if 0 < b < len(text)], len(text)]
    for a, b in zip(bounds, bounds[1:]):
        piece = text[a:b]
        if a < len(frame) or not piece.strip() or not goes(piece) or not _headed(text[:a]):
            continue
        if guard is not None and not guard(text, [(a, b)]):
            return text, []
        lead = len(piece) - len(piece.lstrip())
        # of a frame of several sentences, the ones stating the term move; the rest (a grant) opens the text still
        parts = sentences(frame) if states_term(frame) else [frame]
        stay = " ".join(x for x in parts if not states_term(x)) if len(parts) > 1 else ""
        moving = " ".join(x for x in parts if states_term(x)) if stay else frame
        rest = (text[:a + lead] + moving + text[a + lead + len(piece.strip()):])[len(frame):]
        if stay:  # the rest of the frame opens the text, on its own line above headed parts as a frame does
            return frame_apart(stay + rest, stay), [piece.strip()]
        return rest.lstrip(), [piece.strip()]
    return text, []


def frame_apart(text: str, frame: str) -> str:
    """text with the frame that opens it on a line of its own where a run-in heading follows it on its line and the
    body is made of headed parts (two or more): "<frame> Providing Services. Client or its Affiliates may ..." ->
    "<frame>\nProviding Services. Client ..." (the first part's heading kept, hybrid.text.start_passes, had read
    as words inside the frame's paragraph); unchanged otherwise."""
    frame = (frame or "").strip()
    if not frame or not text.startswith(frame):
        return text
    rest = text[len(frame):]
    if not rest[:1] == " " or not PART_LINE.match(rest.lstrip(" ")) or len(PART_LINE.findall(rest)) < 2:
        return text
    return f"{frame}\n{rest.lstrip(' ')}"


# a term stated as perpetual ("The term of the license is perpetual."), not a perpetual licence within a term
_PERPETUAL = re.compile(r"\b(?:term|period)\b[^.]{0,40}\bis perpetual\b|\bperpetual term\b", re.I)
# a renewal tied onto a sentence about the term: "..., continue through the Subscription Period, and automatically
# renew for additional Subscription Periods unless ... before the Non-Renewal Notice Date"
_RENEWAL_TAIL = re.compile(r"(?:, (\w[^,.;]*?),)? and (?:will |shall )?(?:automatically )?renew\b[^.;]*")
_RENEWS = re.compile(r"^\W*(?:[A-Z]\w*\s){1,4}(?:will|shall) (?:automatically )?(?:be )?renew(?:ed)?\b")


def perpetual(frame: str) -> bool:
    """The frame states a perpetual term: "The term of the license is perpetual."."""
    return bool(_PERPETUAL.search(frame or ""))


def drop_renewal(text: str, guard=None) -> tuple[str, list[str]]:
    """(text without its renewals, what went) for a draft whose term is perpetual, which does not renew: a renewal
    tied onto a sentence goes with its conditions ("will start on the Order Date, continue through the Subscription
    Period, and automatically renew ... before the Non-Renewal Notice Date" -> "will start on the Order Date and
    continue through the Subscription Period"; the seed-223 and 257 readers' first software-licence fault), a
    sentence that only renews goes whole; `guard` as in drop_sentences."""
    text, dropped = drop_sentences(text, lambda s: bool(_RENEWS.search(s)), "", guard)
    tails = [m[0][m[0].index(" and ") + 1:] if m[1] else m[0].strip(" ,") for m in _RENEWAL_TAIL.finditer(text)]
    text = _RENEWAL_TAIL.sub(lambda m: f" and {m[1]}" if m[1] else "", text)
    return text, dropped + tails


# "Customer will pay the fees described in the Order." where the frame states the fees: a second, emptier statement
_FEES_ELSEWHERE = re.compile(
    r"^\W*(?:the )?[A-Z]\w+ (?:will|shall) pay (?:(?:the )?[A-Z]\w+ )?(?:the |all )?(?:applicable )?fees "
    r"(?:described|set forth|specified|stated|identified) in (?:the|each|any|an|such) "
    r"(?:Order(?: Form)?s?|SOWs?|Statements? of Work)\.\s*$")
_STATES_FEE = re.compile(r"\bpay\b.*(?:\d|\bUSD\b|\$|€|£)")


def drop_second_fee(text: str, frame: str, guard=None) -> tuple[str, list[str]]:
    """(text without a sentence pointing the fees at an Order or SOW, those sentences stripped) where the frame
    states what is paid: Bonterms' "Customer will pay the fees described in the Order." after "The Customer shall pay
    the Provider subscription fees of USD 24,000 per year" stated the fee twice from two sources, one of them a
    document the deal does not have (seed-83 and seed-131 readings). `guard` as in drop_sentences."""
    if not frame or not _STATES_FEE.search(frame):
        return text, []
    return drop_sentences(text, lambda piece: bool(_FEES_ELSEWHERE.match(piece)), frame, guard)


# a sentence stating the agreement's own term, then its renewal: group 2 is the term and its "and"
_TERM_THEN_RENEWAL = re.compile(
    r"\b((?:[Tt]his|[Tt]he) Agreement)( (?:shall|will) (?:have an? (?:initial )?term of|be in effect for"
    r"|continue(?: in effect)? for|remain in (?:full force and )?effect for) [^.;]{1,80}? and) "
    r"((?:shall|will) (?:automatically )?(?:be )?renew)")


def _term_statement(about: str):
    """A predicate: the sentence states how long `about` ("agreement" or "subscription", _term_of) runs."""
    return lambda piece: states_term(piece) and _term_of(piece) == about


def _term_of(sentence: str) -> str:
    """Whose duration a term statement states: a subscription's ("The subscription term is 12 months") or the
    agreement's ("This Agreement starts ... and continues until the end of all Subscription Terms", which a
    subscription's term does not replace)."""
    return "subscription" if re.match(r"\W*(?:the |each )?subscription terms?\b", sentence, re.I) else "agreement"


def drop_sentences(text: str, goes, frame: str = "", guard=None) -> tuple[str, list[str]]:
    """(text without the sentences for which goes(sentence) is true, those sentences stripped), a run-in heading of
    a sentence that goes with it; never the frame sentence nor the body's last sentence. `guard(text, spans) ->
    spans`: of the sentences about to go, those that may (hybrid.common.protections.Guard); None: all."""
    bounds = [0, *[b for b in sentence_boundaries(text) if 0 < b < len(text)], len(text)]
    spans = [(a, b) for a, b in zip(bounds, bounds[1:]) if text[a:b].strip()]
    frame = frame.strip()
    # never the frame nor, of a frame of several sentences (a grant, then the term), one of its own
    cuts = [(a, b) for a, b in spans
            if not (frame and (frame in text[a:b] or text[a:b].strip() in frame)) and goes(text[a:b])]
    if len(cuts) == len(spans):  # never the whole body: its last sentence stays
        cuts = cuts[:-1]
    if guard is not None and cuts:
        cuts = guard(text, cuts)
    if not cuts:
        return text, []
    cuts = [(a - len(_headed(text[:a])), b) for a, b in cuts]
    body, at = "", 0
    for a, b in [*cuts, (len(text), len(text))]:  # a cut opening a paragraph keeps the break before it
        lead = len(text[a:b]) - len(text[a:b].lstrip())
        kept = text[at:a + lead * ("\n" in text[a:a + lead])]
        body += kept.lstrip() if body.endswith("\n") else kept  # "Ohio.\n\nPartial invalidity", not "Ohio. Partial"
        at = max(at, b)
    body = re.sub(r"\n{3,}", "\n\n", body).strip()
    return body, [text[a:b].strip() for a, b in cuts]


_HEADING_BEFORE = re.compile(rf"(?<=[.;:])\s+(?:\(?[A-Za-z0-9]{{1,3}}[.)]\s+)?{RUN_IN_HEADING}\s*$")


def _headed(before: str) -> str:
    """The run-in heading (with its list marker) that `before` ends with, its space before it; "" where none."""
    m = _HEADING_BEFORE.search(before)
    return m.group(0) if m else ""


_DEFINES_PARTY = re.compile(r"[\"“](?:Party|Parties)[\"”]")
# a lower-case "party"/"parties" that means one of this Agreement's parties: not "third party", "non-party", "party to
# any action" (a litigant of any dispute), nor inside a word
_PARTY = re.compile(
    r"(?<![\w-])(?<!third )(?<!third-)(?<!Third )(?<!third- )(?<!Third- )(?<!non-)(?<!any other )"
    r"(party|parties)(?![\w-])"
    r"(?!\s+to\s+(?:any|an?|such)\s+(?:action|suit|proceeding|litigation|arbitration|claim))"
)


def defines_party(preamble: str) -> bool:
    """Whether the preamble defines "Party" (or "Parties") as a term."""
    return bool(_DEFINES_PARTY.search(preamble))


def capitalize_defined_party(text: str) -> tuple[str, list[str]]:
    """(text with "party"/"parties" that name this Agreement's parties written "Party"/"Parties", the words changed):
    for a draft whose preamble defines the term (defines_party). "third party" and "non-party" stay."""
    found = [m.group(1) for m in _PARTY.finditer(text)]
    if not found:
        return text, []
    return _PARTY.sub(lambda m: m.group(1)[0].upper() + m.group(1)[1:], text), found
