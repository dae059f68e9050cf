"""A pointer to a blank place for a term the draft's own frames state, written as the frames' term.

Owns `framed_pointers` and its whole-phase pass ("framed_pointers", hybrid.text.pipeline.PIPELINE["whole"]). A
contract base states its fees and rates in another deal's schedule, so what stays of the pointer is a blank: "the
Franchisee shall pay to Franchisor the initial franchise fee described in [___]", "a royalty ... calculated by applying
the percentage set forth in [___] against the Gross Sales" (the seed-331 reader: "a royalty at 'the percentage set
forth in' a blank"), while the draft's frame states both: "an initial franchise fee of USD 45,000 and a continuing
royalty of 6 percent of gross sales". The pointer to a blank goes where a frame names its term ("the initial franchise
fee"), and a blank percentage of a term a frame states with its percentage becomes that percentage ("applying 6
percent"). A pointer whose term no frame names stays a blank to complete.
"""

import re

from hybrid.common.protections import protection_kinds
from hybrid.common.sentences import RUN_IN_HEADING, sentences
from hybrid.data.facts import BLANK
from hybrid.text.passes import Pass, change, register
from hybrid.text.revise_passes import whole_example

__all__ = ["framed_pointers", "price_to_agree", "framed_contributions"]

_B = re.escape(BLANK)
_POINTS = r"(?:described|set\s+forth|specified|stated|referred\s+to|provided\s+for|identified)\s+in"
# "the initial franchise fee described in [___]": the term (2-5 words after "the") and its pointer to a blank
_POINTER = re.compile(rf"\b(the\s+((?:[A-Za-z][\w-]*\s+){{0,3}}?[A-Za-z][\w-]*))\s+{_POINTS}\s+{_B}")
# "applying the percentage set forth in [___]", "at the rate specified in [___]"
_BLANK_RATE = re.compile(rf"\bthe\s+(?:percentage|rate)\s+{_POINTS}\s+{_B}")
# a frame's term with its percentage: "a continuing royalty of 6 percent", "a commission of 5%"
_FRAME_RATE = re.compile(r"\b([a-z][a-z-]*)\s+(?:of|at|equal\s+to)\s+(\d+(?:\.\d+)?\s*(?:percent\b|per\s+cent\b|%))",
                         re.I)
_SENTENCE = re.compile(r"[^.;]*")
# a frame's term of years or months: "continues for an initial term of 3 years", "for a term of 24 months"
_FRAME_TERM = re.compile(r"\bterm\s+of\s+(\d+\s+(?:years?|months?))\b", re.I)
# a blank right after a rate's own name is its rate, within this many words ("royalty fee on a monthly basis of"),
# unless a word of time or of another charge stands between
_RATE_GAP = 8
_NOT_RATE = frozenset("within period after before by following than under days months interest late".split())
_NOT_TERM = frozenset("fee fees price prices amount amounts payment payments rate charge charges".split())


def _named(term: str, frames: str) -> bool:
    """A frame of the draft names the term ("initial franchise fee"; an article or plural aside)."""
    words = term.split()
    if len(words) < 2 and not re.search(r"(?:fee|royalt|price|payment|commission)", term, re.I):
        return False  # one word ("the amount described in") names nothing a frame states
    return bool(re.search(rf"\b{re.escape(term)}s?\b", frames, re.I))


def framed_pointers(body: str, frames: str) -> tuple[str, list[str]]:
    """(body with each pointer to a blank for a term `frames` names dropped, and each blank percentage of a term the
    frames state with its percentage written as it, [the phrases changed]). frames: the draft's frame sentences.
    A blank percentage is "the percentage set forth in [___]" in a sentence naming the term, or a blank within
    _RATE_GAP words after the term's own name: "royalty fee on a monthly basis of [___] of your total monthly gross
    sales" under "a continuing royalty of 6 percent" (the seed-619 reader quoted the two as a conflict). A blank
    initial term reads the frames' term of years or months: a distributor's inserted Term clause, "the initial term of
    this Agreement shall be [___]", beside the frame's "an initial term of 3 years" (seed 811)."""
    if BLANK not in body or not frames.strip():
        return body, []
    done: list[str] = []

    def pointer(m: re.Match) -> str:
        if not _named(m.group(2), frames):
            return m.group(0)
        done.append(m.group(0))
        return m.group(1)

    body = _POINTER.sub(pointer, body)
    rates = {w.lower(): r for w, r in _FRAME_RATE.findall(frames)}
    if term := _FRAME_TERM.search(frames):  # "the initial term of this Agreement shall be [___]": the frames' term
        rates.update({"initial term": term.group(1), "term of this agreement": term.group(1)})
    if rates:
        out, last = [], 0
        for m in _BLANK_RATE.finditer(body):
            start = body.rfind(".", 0, m.start()) + 1
            sentence = body[start : m.end()].lower()
            held = [r for w, r in rates.items() if re.search(rf"\b{re.escape(w.rstrip('y'))}", sentence)]
            if len(set(held)) == 1:
                out += [body[last : m.start()], held[0]]
                done.append(m.group(0))
                last = m.end()
        body = "".join(out) + body[last:]
    for word, rate in rates.items():  # "a continuing royalty fee on a monthly basis of [___] of your gross sales"
        named = re.compile(rf"(\b{re.escape(word)}\b(?:\s+[^\s.;\[]+){{0,{_RATE_GAP}}}?\s+(?:of|at|be|is)\s+){_B}",
                           re.I)

        def fill(m: re.Match, rate=rate, term="term" in word) -> str:
            words = set(m.group(1).lower().split())  # "royalty reports within a period of [___]"; for a term, "during
            if _NOT_RATE & words or term and _NOT_TERM & words:  # the term of this Agreement the fees shall be [___]"
                return m.group(0)
            done.append(m.group(0))
            return m.group(1) + rate
        body = named.sub(fill, body)
    return body, done


# "The price of Products will be determined by both parties at the beginning of each calendar year."
_TO_AGREE = re.compile(r"\b(?:price|pricing|prices)\b[^.;]{0,80}?\b(?:will|shall|is\s+to|are\s+to)\s+be\s+"
                       r"(?:mutually\s+)?(?:determined|agreed|negotiated|established|set)\s+(?:upon\s+)?"
                       r"(?:by|between|among|in\s+good\s+faith)\b", re.I)
_RUN_IN = re.compile(rf"{RUN_IN_HEADING}\s*$")
_FRAME_PRICE = re.compile(r"\bprices?\b", re.I)


def _drop_unprotected(body: str, pattern: re.Pattern, heading_too: bool = False) -> tuple[str, list[str]]:
    """(body without the sentences `pattern` finds that grant no protection (hybrid.common.protections), [those
    sentences]); heading_too: a run-in heading left before such a sentence goes with it ("Pricing."). A paragraph
    keeps its text where none of its sentences goes; one a removal empties goes with its blank line."""
    gone: list[str] = []
    paragraphs = body.split("\n")
    for k, para in enumerate(paragraphs):
        if not pattern.search(para):
            continue
        kept, dropped = [], False
        for s in sentences(para):
            if pattern.search(s) and not protection_kinds(s):
                gone.append(s)
                dropped = True
                if heading_too and kept and _RUN_IN.fullmatch(kept[-1]):
                    kept.pop()
            else:
                kept.append(s)
        if dropped:
            paragraphs[k] = " ".join(kept)
    if not gone:
        return body, []
    text = "\n".join(paragraphs)
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n") if text.strip() else text, gone


def _frames(ctx) -> str:
    """The frame sentences of every section of the draft, joined."""
    return " ".join(sec.get("frame") or "" for sec in ctx.sections)


def price_to_agree(body: str, frames: str) -> tuple[str, list[str]]:
    """(body without its sentences leaving the price to the parties to agree, where `frames` state the deal's
    price, [the sentences removed]). A run-in heading left with nothing after it in its paragraph goes with its
    sentence ("Pricing."). The seed-331 supply draft read "per the price list in Exhibit A, fixed for 12 months" and,
    two paragraphs on, "The price of Products will be determined by both parties at the beginning of each calendar
    year." (a reader: two prices)."""
    if not _FRAME_PRICE.search(frames) or not _TO_AGREE.search(body):
        return body, []
    return _drop_unprotected(body, _TO_AGREE, heading_too=True)


def _price_pass(body, ctx):
    body, gone = price_to_agree(body, _frames(ctx))
    return body, [change("price_to_agree", g, None, "dropped", "leaves to the parties a price the draft's frames "
                         "state") for g in gone]


# "Granite Peak Mining Corp. shall contribute a 30-year lease ...": who a frame says contributes
_FRAME_CONTRIBUTES = re.compile(r"((?:[A-Z][\w.&'-]*\s+){1,6}?)(?:shall|will)\s+contribute\b")


def framed_contributions(body: str, frames: str) -> tuple[str, list[str]]:
    """(body without its sentences in which a party whose contribution `frames` state contributes a blank amount,
    [the sentences removed]). The seed-331 joint venture's frame stated "Granite Peak Mining Corp. shall contribute a
    30-year lease of the site and USD 2,000,000 in cash", and the base's next section "Granite Peak Mining Corp. shall
    contribute ... to the Operating Company cash in the amount of [___]" (a reader: contributions stated twice, the
    second blank). A sentence that also grants a protection stays."""
    parties = {m.strip() for m in _FRAME_CONTRIBUTES.findall(frames)}
    parties = {p for p in parties if p.split()[0] not in ("The", "Each", "Either", "Neither")}
    if not parties or BLANK not in body:
        return body, []
    who = "|".join(re.escape(p) for p in sorted(parties, key=len, reverse=True))
    restates = re.compile(rf"(?:{who})(?:'s)?[^.;]{{0,60}}?\bcontribut\w*\b[^.]*?{_B}")
    return _drop_unprotected(body, restates)


def _contribution_pass(body, ctx):
    body, gone = framed_contributions(body, _frames(ctx))
    return body, [change("framed_contribution", g, None, "dropped", "a second, blank statement of a contribution "
                         "the draft's frames state") for g in gone]


def _pass(body, ctx):
    body, changed = framed_pointers(body, _frames(ctx))
    return body, [change("framed_pointer", c, None, "replaced", "points to a blank for a term the draft's frames state")
                  for c in changed]


def _example(text: str = "", frame: str = ""):
    ctx = whole_example(text)
    ctx.sections[0] = {**ctx.sections[0], "frame": frame}
    return ctx


_TERM = "This Agreement begins on the Effective Date and continues for an initial term of 3 years."
_FEES = "The Franchisee shall pay the Franchisor an initial franchise fee of USD 45,000 and a royalty of 6 percent."
register(Pass(
    "framed_pointers", "whole", "a pointer to a blank for a term the frames state written as that term", _pass, (
        (f"Franchisee shall pay the initial franchise fee described in {BLANK}, which is non-refundable.",
         "Franchisee shall pay the initial franchise fee, which is non-refundable.", {"frame": _FEES}),
        (f"Franchisee shall pay a royalty calculated by applying the percentage set forth in {BLANK} against Gross "
         "Sales.", "Franchisee shall pay a royalty calculated by applying 6 percent against Gross Sales.",
         {"frame": _FEES}),
        (f"Franchisee shall pay the advertising fee described in {BLANK}.",
         f"Franchisee shall pay the advertising fee described in {BLANK}.", {"frame": _FEES}),  # no frame names it
        (f"Unless terminated, the initial term of this Agreement shall be {BLANK} from the Effective Date and shall "
         f"renew for subsequent {BLANK} periods.", "Unless terminated, the initial term of this Agreement shall be 3 "
         f"years from the Effective Date and shall renew for subsequent {BLANK} periods.", {"frame": _TERM}),
        (f"During the initial term of this Agreement the fees shall be {BLANK} per month.",
         f"During the initial term of this Agreement the fees shall be {BLANK} per month.", {"frame": _TERM}),
        (f"You shall pay a royalty fee on a monthly basis of {BLANK} of gross sales, and an advertising fee of "
         f"{BLANK} of gross sales. Royalty reports are due within a period of {BLANK}.",
         f"You shall pay a royalty fee on a monthly basis of 6 percent of gross sales, and an advertising fee of "
         f"{BLANK} of gross sales. Royalty reports are due within a period of {BLANK}.", {"frame": _FEES}),
        (f"Franchisee shall pay the initial franchise fee described in {BLANK}.",
         f"Franchisee shall pay the initial franchise fee described in {BLANK}.", {"frame": ""}),  # no frames
    ), _example))


_PRICE = "The Buyer shall pay for the Products at the prices in the price list in Exhibit A, fixed for 12 months."
register(Pass(
    "price_to_agree", "whole", "a sentence leaving to the parties a price the draft's frames state out", _price_pass, (
        ("Taxes are Buyer's.\n\nPricing. The price of Products will be determined by both parties at the beginning "
         "of each calendar year.\n\nSupplier ships FCA.", "Taxes are Buyer's.\n\nSupplier ships FCA.",
         {"frame": _PRICE}),
        ("Pricing. The price of Products will be determined by both parties each year. Buyer pays in USD.",
         "Buyer pays in USD.", {"frame": _PRICE}),
        ("Pricing. The price of Products will be determined by both parties each year.",
         "Pricing. The price of Products will be determined by both parties each year.", {"frame": ""}),  # no price
    ), _example))


_CONTRIBUTE = "Granite Peak Mining Corp. shall contribute USD 2,000,000, and SolarReach Ltd. shall contribute services."
register(Pass(
    "framed_contributions", "whole", "a second, blank statement of a contribution the frames state out",
    _contribution_pass, (
        (f"Granite Peak Mining Corp. shall contribute to the Operating Company cash in the amount of {BLANK}. The "
         "Board manages the Company.", "The Board manages the Company.", {"frame": _CONTRIBUTE}),
        (f"Profits are shared equally.\n\nSolarReach Ltd. further agrees to pay as a contribution to capital {BLANK}."
         "\n\nThe Board meets quarterly.", "Profits are shared equally.\n\nThe Board meets quarterly.",
         {"frame": _CONTRIBUTE}),
        (f"Granite Peak Mining Corp. shall contribute cash in the amount of {BLANK}.",
         f"Granite Peak Mining Corp. shall contribute cash in the amount of {BLANK}.", {"frame": ""}),  # no frame
    ), _example))
