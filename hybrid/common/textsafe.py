"""Contract-text safety and the facts a value states: what a field value (or a template's own
text) may hold, what a value of a declared kind must mean, and Markdown escaping.

Owns: the contract-text rules a string must meet beyond its JSON Schema (finite numbers;
strings that are not blank and hold no control characters, ANSI escapes, invisible or
direction-changing characters, or line/paragraph separators; newlines only where allowed), the
field kinds a template may declare (`"x-kind"`: date, duration, money, percent, jurisdiction,
text) and what each must parse as, `shown` (a value echoed in a message, cut to a readable
length) and the escaping of plain contract text for Markdown. Knows nothing about templates,
models or files: it takes a name, a value and a rule, and raises FieldError (or the caller's
error) naming them.

Why these rules: a value is pasted verbatim into the preamble, frames and signature block. A
newline in a party name can open a fake "## 99." section; an ANSI escape rewrites a terminal; a
zero-width space or a bidi mark makes two names that look alike differ (or reorders what a
reader sees); NaN reaches drafts.json, which strict JSON parsers reject; a blank name makes a
contract between nobody; "2025-13-45" or "-3 years" states a fact that cannot be.
"""

import calendar
import datetime
import math
import re
import sys
import unicodedata

from hybrid.common.errors import FieldError

__all__ = [
    "check_field_value",
    "check_text",
    "check_kind",
    "kind_problem",
    "shown",
    "printable",
    "escape_markdown",
    "KINDS",
    "SHOWN_CHARS",
]

SHOWN_CHARS = 80
"""Characters of a value echoed in a message (the rest is counted, not printed)."""

# Unicode's default-ignorable characters outside the format (Cf) category: fillers and selectors
# that render as nothing (Cf itself, the bidi controls and zero-width characters, is refused whole)
_IGNORABLE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180e\u180f\u3164\uffa0"
                       + "".join(chr(c) for c in range(0xFE00, 0xFE10)))
_REFUSED_CATEGORIES = (
    "Cc",
    "Cf",
    "Cs",
    "Zl",
    "Zp",
)  # control, format (invisible, bidi), surrogates, line/paragraph separators
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~!{}&])")
_MD_BULLET = re.compile(r"^(\s*)([-+=])(?=\s|$)", re.M)
_MD_ORDERED = re.compile(r"^(\s*\d+)([.)])(?=\s|$)", re.M)


def shown(value, limit: int = SHOWN_CHARS) -> str:
    """repr(value), cut to `limit` characters with the length said: a 5 MB value is not a 5 MB message."""
    try:
        text = repr(value)
    except RecursionError:
        return f"<a {type(value).__name__} nested too deep to show>"
    except ValueError:  # an int past sys.get_int_max_str_digits() (4,300 digits) has no repr
        return f"<an integer of more than {sys.get_int_max_str_digits()} digits>"
    if len(text) <= limit:
        return text
    size = f"{len(value)} characters" if isinstance(value, str) else f"{len(text)} characters as written"
    return f"{text[:limit]}... ({size})"


def printable(text: str) -> str:
    """`text` with every character check_text refuses (a newline, a control, invisible or direction-changing one)
    written as its escape ("a\\nb.md", "\\u202egpj.md"): a name echoed in a one-line message or a footnote stays
    one line and reads as what it is. Equal to `text` exactly when check_text would accept every character."""
    return "".join(_escape(ch) if _refused(ch) else ch for ch in text)


def _escape(ch: str) -> str:
    o = ord(ch)
    named = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(ch)
    return named or (f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}" if o < 0x10000 else f"\\U{o:08x}")


def _describe(ch: str) -> str:
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X}" + (f" {name}" if name else "")


def _refused(ch: str) -> bool:
    return unicodedata.category(ch) in _REFUSED_CATEGORIES or ch in _IGNORABLE or 0xE0100 <= ord(ch) <= 0xE01EF


def check_text(label: str, value: str, *, multiline: bool = False, error: type[Exception] = FieldError) -> None:
    """`error` naming `label` (e.g. "field 'party_a'", "t.json: /preamble") when the string cannot appear
    in contract text: blank, a newline where not allowed, an ANSI escape, a control, invisible or
    direction-changing character (Unicode categories Cc, Cf, Cs, Zl, Zp and the other
    default-ignorable code points). multiline: "\\n" (and "\\r\\n") allowed; tabs never are."""
    if not value.strip():
        raise error(f"{label} must not be blank, got {shown(value)}.")
    for i, ch in enumerate(value):
        if ch == "\n" or (ch == "\r" and value[i + 1 : i + 2] == "\n"):
            if multiline:
                continue
            raise error(
                f"{label} must be one line (this field does not allow newlines), got a newline at character {i}: "
                f"{shown(value)}."
            )
        if ch == "\x1b":
            raise error(f"{label} must not hold terminal (ANSI) escape sequences, got {shown(value)}.")
        if _refused(ch):
            kind = "control" if unicodedata.category(ch) == "Cc" else "invisible or direction-changing"
            raise error(
                f"{label} must hold printable text only, got {kind} character {_describe(ch)} at character {i}: "
                f"{shown(value)}."
            )


def check_field_value(name: str, value, *, multiline: bool = False) -> None:
    """Raise FieldError when `value` cannot appear in contract text; numbers and strings only.

    multiline: the field allows "\\n" (and "\\r\\n"); tabs and every other control character
    are refused everywhere.
    """
    if isinstance(value, bool):
        return  # JSON Schema already decided whether a boolean belongs here
    if isinstance(value, float) and not math.isfinite(value):
        raise FieldError(f"field {name!r} must be a finite number, got {value!r}.")
    if isinstance(value, str):
        check_text(f"field {name!r}", value, multiline=multiline)


# --- field kinds -----------------------------------------------------------------------------

KINDS = ("text", "date", "duration", "money", "percent", "jurisdiction")
"""What a template may declare a field to be (`"x-kind"`); "text" (the default) adds no rule."""

_MONTHS = {
    m: i for i, m in enumerate(calendar.month_name) if m
}  # English names, whatever the locale: calendar's are fixed
_ISO_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_LONG_DATE = re.compile(r"([A-Z][a-z]+) ([0-9]{1,2}), ([0-9]{4})")
_NUMBER_WORDS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen "
    "eighteen nineteen twenty".split())}
_NUMBER_WORDS.update({w: 10 * i for i, w in enumerate("thirty forty fifty sixty seventy eighty ninety".split(), 3)})
_NUMBER_WORDS.update({"a": 1, "an": 1})
_UNIT = r"(?:business |calendar )?(?:day|week|month|quarter|year|season)s?"
_DURATION = re.compile(rf"(?P<qty>\S+?)(?: \((?P<digits>[^)]*)\))? (?P<unit>{_UNIT})(?![A-Za-z])(?P<rest>.*)", re.S)
_PLAIN_NUMBER = re.compile(r"[0-9]+(?:,[0-9]{3})*(?:\.[0-9]+)?")
_CURRENCY = r"(?:[A-Z]{3}|[$\u20ac\u00a3\u00a5])"
_AMOUNT = re.compile(
    rf"(?P<sign1>[-\u2212]\s*)?{_CURRENCY}\s?(?P<sign2>[-\u2212]\s*)?(?P<num>[0-9][0-9,]*(?:\.[0-9]+)?)"
)
_JURISDICTION_CHARS = set(" .,'\u2019()&-")


def _quantity(word: str) -> float | None:
    if _PLAIN_NUMBER.fullmatch(word.lstrip("-\u2212+")) and len(word) - len(word.lstrip("-\u2212+")) <= 1:
        return float(word.replace(",", "").replace("\u2212", "-"))
    w = word.lower()
    if w in _NUMBER_WORDS:
        return float(_NUMBER_WORDS[w])
    tens, _, ones = w.partition("-")
    if tens in _NUMBER_WORDS and ones in _NUMBER_WORDS and _NUMBER_WORDS[tens] >= 20 and 0 < _NUMBER_WORDS[ones] < 10:
        return float(_NUMBER_WORDS[tens] + _NUMBER_WORDS[ones])
    return None


def _date_problem(v: str) -> str | None:
    m = _ISO_DATE.fullmatch(v)
    if m:
        y, mo, d = (int(g) for g in m.groups())
    else:
        m = _LONG_DATE.fullmatch(v)
        if not m:
            return "a date such as 2025-03-01 or March 1, 2025"
        if m.group(1) not in _MONTHS:
            return f"{m.group(1)!r} is not a month"
        y, mo, d = int(m.group(3)), _MONTHS[m.group(1)], int(m.group(2))
    if y < 1:
        return "there is no year 0"
    if not 1 <= mo <= 12:
        return f"there is no month {mo}"
    days = calendar.monthrange(y, mo)[1]
    if not 1 <= d <= days:
        return f"{calendar.month_name[mo]} {y} has {days} days"
    datetime.date(y, mo, d)  # a real date now, by construction
    return None


def _duration_problem(v: str) -> str | None:
    m = _DURATION.fullmatch(v.strip())
    if not m:
        return "a length of time such as 2 years, 6 months or three (3) years"
    qty = _quantity(m.group("qty"))
    if qty is None:
        return f"{m.group('qty')!r} is not a number"
    if m.group("digits") is not None:
        digits = _quantity(m.group("digits"))
        if digits != qty:
            return f"{m.group('qty')} ({m.group('digits')}) says two different numbers"
    if not qty > 0:
        return f"{m.group('qty')} {m.group('unit')} is not a positive length of time"
    return None


def _money_problem(v: str) -> str | None:
    amounts = list(_AMOUNT.finditer(v))
    if not amounts:
        return "an amount with its currency, such as USD 45,000"
    for a in amounts:
        if a.group("sign1") or a.group("sign2") or re.search(r"[-\u2212]\s*$", v[: a.start()]):
            return f"{a.group(0).strip()!r} is a negative amount"
    return None


def _jurisdiction_problem(v: str) -> str | None:
    if not any(ch.isalpha() for ch in v):
        return "the name of a state or country, such as the State of Delaware"
    bad = next((ch for ch in v if not (ch.isalpha() or ch in _JURISDICTION_CHARS)), None)
    if bad is not None:
        return f"the name of a state or country (letters, spaces and . , ' ( ) & - only), not {bad!r}"
    return None


def _percent_problem(v) -> str | None:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        return "a number of percent"
    if not 0 <= v <= 100:
        return "between 0 and 100"
    return None


_PROBLEMS = {"date": _date_problem, "duration": _duration_problem, "money": _money_problem,
             "jurisdiction": _jurisdiction_problem, "percent": _percent_problem}
_WHAT = {"date": "a real calendar date", "duration": "a positive duration", "money": "an amount of money",
         "jurisdiction": "a jurisdiction", "percent": "a percentage"}


def kind_problem(kind: str, value) -> str | None:
    """Why `value` is not a `kind` (one of KINDS), or None when it is (text: always None)."""
    assert kind in KINDS, f"unknown field kind {kind!r}"
    fn = _PROBLEMS.get(kind)
    if fn is None:
        return None
    if kind != "percent" and not isinstance(value, str):
        return f"a string, not {type(value).__name__}"
    return fn(value)


def check_kind(name: str, kind: str, value, also=()) -> None:
    """FieldError naming the field, the kind, why and the value when `value` is not a `kind`;
    `also` lists values the template accepts besides (e.g. "perpetual" for a duration)."""
    if value in also:
        return
    why = kind_problem(kind, value)
    if why is not None:
        others = f"; or one of {', '.join(map(repr, also))}" if also else ""
        raise FieldError(f"field {name!r} must be {_WHAT[kind]} ({why}{others}), got {shown(value)}.")


def escape_markdown(text: str) -> str:
    """`text` as literal Markdown: inline markup characters backslash-escaped, and a line that
    would open a heading, list, quote or rule escaped at its start. Newlines are kept."""
    out = _MD_SPECIAL.sub(r"\\\1", text)
    out = _MD_BULLET.sub(r"\1\\\2", out)
    return _MD_ORDERED.sub(r"\1\\\2", out)
