"""A notice clause's address block in the deal's parties, as blanks to complete.

Owns `notice_addresses` and its revise pass ("notice_addresses", hybrid.text.pipeline.PIPELINE["revise"]). A notice
clause that ends "addressed as follows:" lists each party's address after it; a base's block is its own deal's
("If to Racing: Stallings Capital Group ..., Frisco, Texas 75034"), which the adaptation could only mangle: the
seed-313 sponsorship draft read "addressed as follows: If to Rights Holder: Rights Holder, dba." with no address for
the Sponsor, the distributor draft "If to Distributor to: Supplier of [___] L.L.C. [___], IL [___] facsimile no.".
A lawyer completes these lines for every deal, so the block becomes one line per party the preamble defines, in its
order, each address a blank: "If to Sponsor: [___]".
"""

import re

from hybrid.data.facts import BLANK
from hybrid.text.passes import Pass, change, register
from hybrid.text.revise_passes import example

__all__ = ["notice_addresses"]

# a paragraph that ends by announcing the addresses below it
_LEAD = re.compile(r"(?:as follows|following (?:respective )?address(?:es)?|address(?:es)? (?:set forth|stated|"
                   r"indicated|shown) below|to the parties at)\s*:\s*$", re.I)
# a paragraph that reads as a sentence: a verb a contract's provision has, ending the address block
_SENTENCE = re.compile(r"\b(?:shall|will|may|must|agrees?|is|are|be|has|have)\b")
MAX_ADDRESS_WORDS = 60  # a paragraph longer than this is no address line, whatever it holds


def _is_address(paragraph: str) -> bool:
    """Whether a paragraph after the lead-in is part of the address block: an "If to X:" line, a copy-to line, or a
    line that is no provision and holds what addresses do, a number, a comma or an e-mail ("Stallings Capital Group,
    Ltd.", "4 Windsor Ridge"; "Time of the essence." is the next provision)."""
    words = paragraph.split()
    if not words or len(words) > MAX_ADDRESS_WORDS:
        return False
    if re.match(r"\W*(?:if |when )?(?:to|for)\s+(?:the\s+)?[A-Z][^:\n]{0,60}:", paragraph, re.I):
        return True
    if re.match(r"\W*(?:with a copy|copy to|attention|attn|facsimile|fax|telephone|tel|e-?mail)\b", paragraph, re.I):
        return True
    return bool(re.search(r"[\d,@]", paragraph)) and not _SENTENCE.search(paragraph)


def notice_addresses(body: str, roles) -> tuple[str, list[str]]:
    """(body with its notice address block as one blank line per role, [the block replaced]): the block is the
    paragraphs after one that mentions notice and ends announcing addresses ("... addressed as follows:") that are
    address lines (_is_address), up to the next provision. Unchanged where the body has no such lead-in, where fewer
    than two roles are known, or where the block already reads one blank per role."""
    roles = [r for r in dict.fromkeys(roles or ()) if r]
    if len(roles) < 2:
        return body, []
    paragraphs = body.split("\n\n")
    for i, lead in enumerate(paragraphs):
        if not (_LEAD.search(lead.rstrip()) and re.search(r"\bnotice", lead, re.I)):
            continue
        j = i + 1
        while j < len(paragraphs) and _is_address(paragraphs[j].strip()):
            j += 1
        lines = [f"If to {role}: {BLANK}" for role in roles]
        old = [p.strip() for p in paragraphs[i + 1:j]]
        if old == lines:
            return body, []
        return "\n\n".join(paragraphs[:i + 1] + lines + paragraphs[j:]), ["\n\n".join(old)]
    return body, []


def _pass(body, ctx):
    body, old = notice_addresses(body, ctx.draft.get("roles", ()))
    return body, [change("notice_addresses", o, "one blank address per party", "replaced",
                         "another deal's notice addresses: each party's address is the deal's to complete")
                  for o in old]


_LEAD_IN = "All notices shall be in writing and addressed as follows:"
_ROLES = {"roles": ("Sponsor", "Rights Holder")}
register(Pass(
    "notice_addresses", "revise", "a notice clause's address block as one blank address per party", _pass, (
        (f"{_LEAD_IN}\n\nIf to Rights Holder: Rights Holder, dba.\n\nEither party may change its address by notice.",
         f"{_LEAD_IN}\n\nIf to Sponsor: {BLANK}\n\nIf to Rights Holder: {BLANK}\n\nEither party may change its "
         "address by notice.", _ROLES),
        (f"{_LEAD_IN}\n\nIf to Racing: Stallings Capital Group, Ltd.\n\nAttention: Robert Stallings\n\n4 Windsor "
         f"Ridge, Frisco, Texas 75034", f"{_LEAD_IN}\n\nIf to Sponsor: {BLANK}\n\nIf to Rights Holder: {BLANK}",
         _ROLES),
        (f"{_LEAD_IN}\n\nIf to Sponsor: {BLANK}\n\nIf to Rights Holder: {BLANK}",
         f"{_LEAD_IN}\n\nIf to Sponsor: {BLANK}\n\nIf to Rights Holder: {BLANK}", _ROLES),
        (f"{_LEAD_IN}\n\nIf to Racing: Frisco, Texas\n\nTime of the essence.",
         f"{_LEAD_IN}\n\nIf to Sponsor: {BLANK}\n\nIf to Rights Holder: {BLANK}\n\nTime of the essence.", _ROLES),
        ("Each party pays its costs as follows:\n\nSupplier pays shipping.",
         "Each party pays its costs as follows:\n\nSupplier pays shipping.", _ROLES),  # no notice: unchanged
        (f"{_LEAD_IN}\n\nIf to Racing: Frisco, Texas", f"{_LEAD_IN}\n\nIf to Racing: Frisco, Texas", {"roles": ()}),
    ), example))
