"""The fee a section's frame states, written as that fee where the base states it again with its amount blank.

Owns `frames_fee` and its revise pass ("frames_fee", hybrid.text.pipeline.PIPELINE["revise"]). A frame states the
deal's fee ("The Sponsor shall pay the Rights Holder a sponsorship fee of USD 250,000 per season."); the base's own
payment sentence, its amount another deal's and so a blank, followed it: "Sponsor shall pay to Rights Holder a
sponsorship fee in the amount of [___] for the term of this Agreement, payable in an initial installment ..." (the
seed-313 reader: two fee provisions). The base's sentence keeps what it adds (when and how the fee is paid) and names
the frame's fee instead of a second amount: "... pay to Rights Holder the sponsorship fee, payable in ...".
"""

import re

from hybrid.data.facts import BLANK
from hybrid.text.passes import Pass, change, register
from hybrid.text.revise_passes import example

__all__ = ["frames_fee"]

# the fee a frame names with its amount: "a sponsorship fee of USD 250,000", "subscription fees of USD 24,000"
_FRAME_FEE = re.compile(r"\b((?:[a-z][a-z-]* ){0,2}fees?)\s+(?:of|in the (?:amount|sum) of|equal to)\s+(?!\[___\])")


def frames_fee(text: str, frame: str) -> tuple[str, list[str]]:
    """(text with each "a <fee> in the amount of [___]" naming the fee the frame states, written "the <fee>", [the
    phrases replaced]); "for the term of this Agreement" after the blank goes with it. Unchanged where the frame
    states no fee with its amount, or text names that fee with no blank amount."""
    m = _FRAME_FEE.search(frame or "")
    if not m:
        return text, []
    fee = m.group(1).strip()
    fee = re.sub(r"^(?:a|an|the)\s+", "", fee, flags=re.I)
    # one word may stand before the fee and stays: "a nonrefundable Initial Franchise Fee of [___]" (seed 1223)
    blank_fee = re.compile(rf"\b(?:a|an|the)\s+((?:[a-z][a-z-]+\s+)?{re.escape(fee)})\s+(?:in the (?:amount|sum) of|of|"
                           rf"equal to)\s+{re.escape(BLANK)}(?:\s+for the term of this Agreement)?", re.I)
    start = len(frame) if text.startswith(frame) else 0
    found = [x.group(0) for x in blank_fee.finditer(text, start)]
    if not found:
        return text, []
    return text[:start] + blank_fee.sub(lambda x: f"the {x.group(1)}", text[start:]), found


def _pass(body, ctx):
    body, old = frames_fee(body, ctx.section.get("frame", ""))
    return body, [change("frames_fee", o, "the fee the section's frame states", "replaced",
                         "a second amount of the fee the section's frame states") for o in old]


_FEE_FRAME = "The Sponsor shall pay the Rights Holder a sponsorship fee of USD 250,000 per season."
register(Pass(
    "frames_fee", "revise", "a blank amount of the fee the section's frame states written as that fee", _pass, (
        (f"{_FEE_FRAME} Sponsor shall pay to Rights Holder a sponsorship fee in the amount of {BLANK} for the term "
         f"of this Agreement, payable in two installments.",
         f"{_FEE_FRAME} Sponsor shall pay to Rights Holder the sponsorship fee, payable in two installments.",
         {"frame": _FEE_FRAME}),
        (f"{_FEE_FRAME} Sponsor shall pay a sponsorship fee in the amount of {BLANK}.",
         f"{_FEE_FRAME} Sponsor shall pay a sponsorship fee in the amount of {BLANK}.", {"frame": ""}),  # no frame
        (f"{_FEE_FRAME} Late fees of {BLANK} apply.", f"{_FEE_FRAME} Late fees of {BLANK} apply.",
         {"frame": _FEE_FRAME}),  # another fee
        (f"{_FEE_FRAME} You pay a nonrefundable Sponsorship Fee of {BLANK}, payable at once.",
         f"{_FEE_FRAME} You pay the nonrefundable Sponsorship Fee, payable at once.", {"frame": _FEE_FRAME}),
    ), example))
