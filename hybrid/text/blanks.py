"""Blanks to complete: what of another deal stays in a precedent, written as "[___]" for the lawyer to fill.

Owns: `blank_values` (another deal's figures: amounts, periods, years, numbers) and `blank_holes` (everything an edit
would mask: another deal's names, terms, acronyms, redactions), and VALUE_KINDS. Knows nothing of models: it works on
the fact spans of hybrid.text.start. hybrid.text.settle applies them while settling a precedent.
"""

import re

from hybrid.data.facts import BLANK, DealFacts
from hybrid.precedents.fact_spans import fact_spans, found_facts
from hybrid.text.holes import outside

__all__ = ["VALUE_KINDS", "blank_values", "blank_holes", "fill_in_lines"]

VALUE_KINDS = frozenset({"amount", "duration", "year", "number"})  # facts a blank stands for (hybrid.fidelity KINDS)


def blank_values(text: str, allowed: str, own_facts=()) -> str:
    """text with each figure of another deal that stays in it (an amount, a period, a year, a number: VALUE_KINDS)
    written as a blank to complete ("within [___] after written notice" for "within sixty days after ..."): a hole
    there is a number the filler makes up ("for a period of its thirty after written notice")."""
    found = [f for f in found_facts(text, allowed, own_facts) if f.kind in VALUE_KINDS]
    for f in sorted(found, key=lambda f: -f.start):
        whole = _WHOLE_PART.search(text[: f.start]) if text[f.start : f.start + 1].isdigit() else _TENS_PART.search(
            text[: f.start])
        start = whole.start() if whole else f.start  # "2.5 days" whole, not "2.[___]"; "twenty-one day", not "twenty-"
        text = text[:start] + BLANK + text[f.end :]
    return text


# a form's own line to fill in: "________", "$____ ____" (runs of underscores, spaces between)
_FILL_IN = re.compile(r"(?<!\[)_{3,}(?:[ \t]*_{3,})*(?!\])")
# an amount in words and in figures, both left to fill: "[___] Dollars ($[___])"
_WORDS_AND_FIGURES = re.compile(rf"{re.escape(BLANK)}[ \t]+(?i:dollars)[ \t]+\(\$?[ \t]*{re.escape(BLANK)}\)")


def fill_in_lines(text: str) -> str:
    """text with a form's own lines to fill in written as the draft's blanks: "an Initial Franchise Fee of
    ________________ ______ Dollars ($________)" -> "an Initial Franchise Fee of [___]" (a seed-1223 reader read the
    underscores beside the frame's USD 45,000 as a second, open fee; one blank, the frame's fee can take its place)."""
    return _WORDS_AND_FIGURES.sub(BLANK, _FILL_IN.sub(BLANK, text))


def blank_holes(text: str, deal: DealFacts, allowed: str, own_facts=()) -> str:
    """text with every run the edit would mask (another deal's names, terms, acronyms, redactions: the drop spans of
    fact_spans.fact_spans, less the deal's own facts) written as a blank to complete: a whole base's hole is a term for
    the lawyer to fill ("not more than the [___]"), where the 5M filler's rewrite read as damage in a cold reading
    ("will not be more than the party from any court" for "the General Cap Amount")."""
    keep, drop = fact_spans(text, deal, allowed, own_facts)
    runs: list[list[int]] = []
    for a, b in sorted(outside(drop, keep, text)):
        if runs and a <= runs[-1][1] or runs and text[runs[-1][1] : a].strip() in ("", "&"):
            runs[-1][1] = max(runs[-1][1], b)
        else:
            runs.append([a, b])
    for run in runs:  # "Tate & Lyle Industries Ltd.": the company's designation goes with its name, one blank
        tail = _DESIGNATION.match(text, run[1])
        run[1] = tail.end() if tail else run[1]
        stop = _ABBREVIATION_STOP.match(text, run[1]) if _LEGAL_FORM_END.search(text, 0, run[1]) else None
        run[1] = stop.end() if stop else run[1]
    for a, b in reversed(runs):
        tens = _TENS_PART.search(text[:a])  # "twenty-one day" whole, not "twenty-[___]"
        text = text[: tens.start() if tens else a] + BLANK + text[b:]
    return re.sub(rf"(?:{re.escape(BLANK)}\s*)+{re.escape(BLANK)}", BLANK, _blank_business(text, allowed))


# "the indoor air purification business", "THE AIR PURIFICATION SERVICE BUSINESS": what a base names its line of
# business by (1-3 words before the noun)
_BUSINESS = re.compile(r"\b(?:the|THE|its|ITS)\s+((?:[A-Za-z][\w-]*\s+){1,3}?)(?=(?:business|industry|BUSINESS|"
                       r"INDUSTRY)\b)")


def _blank_business(text: str, allowed: str) -> str:
    """text with another deal's line of business, where a base names it as such, a blank to complete: "remain in the
    [___] business" for an air-purifier franchisor's "remain in the indoor air purification business" in a bakery-cafe
    franchise (seed-619 reader). Only words that are another deal's subject matter (hybrid.fidelity.foreign_subject,
    against the deal's text `allowed`) go: "the same business", "the Franchised Business" stay."""
    from hybrid.fidelity.foreign_subject import foreign_subjects

    def line(m: re.Match) -> str:
        return f"{m.group(0).split()[0]} {BLANK} " if foreign_subjects(m.group(1), allowed) else m.group(0)
    return _BUSINESS.sub(line, text)


# capitalized words ending in a company's legal form, right after a name: "Industries Ltd.", "North America, Inc."
_DESIGNATION = re.compile(
    r"(?:[ \t]+[A-Z][A-Za-z]+){0,3},?[ \t]+(?:Inc|Incorporated|Corp|Corporation|Co|LLC|Ltd|Limited|LLP|PLC|plc|GmbH|AG)"
    r"\b")
_LEGAL_FORM_END = re.compile(r"\b(?:Inc|Corp|Co|Ltd|LLC|LLP|PLC|plc)$")
# the abbreviation's stop where the sentence goes on ("Ltd. shall pay"); where it ends there, it is the sentence's
_ABBREVIATION_STOP = re.compile(r"\.(?=[ \t]*[,;:)a-z0-9])")
_WHOLE_PART = re.compile(r"(?<![\w.,])\d+[.,]$")  # the digits and point before a fact that is a number's decimals
# the tens of a number word whose units the fact finder read alone ("twenty-one day period": "one day")
_TENS_PART = re.compile(r"\b(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)-$", re.I)
