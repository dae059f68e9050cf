"""Contract-text safety of user values: what a field value may hold, and Markdown escaping.

Owns: the contract-text rules a field value must meet beyond its JSON Schema (finite numbers;
strings that are not blank and hold no control characters, ANSI escapes, bidirectional
overrides or line/paragraph separators; newlines only where the field allows them) and the
escaping of plain contract text for Markdown. Knows nothing about templates, models or files:
it takes a name, a value and a rule, and raises FieldError naming them.

Why these rules: a value is pasted verbatim into the preamble, frames and signature block. A
newline in a party name can open a fake "## 99." section; an ANSI escape rewrites a terminal;
NaN reaches drafts.json, which strict JSON parsers reject; a blank name makes a contract
between nobody.
"""

import math
import re
import unicodedata

from hybrid.common.errors import FieldError

__all__ = ["check_field_value", "escape_markdown"]

# bidi embeddings/overrides/isolates and the Unicode line/paragraph separators: invisible in a
# contract, and they reorder or break the text a reader sees
_INVISIBLE = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u2028\u2029\ufeff")
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~!{}&])")
_MD_BULLET = re.compile(r"^(\s*)([-+=])(?=\s|$)", re.M)
_MD_ORDERED = re.compile(r"^(\s*\d+)([.)])(?=\s|$)", re.M)


def _describe(ch: str) -> str:
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X}" + (f" {name}" if name else "")


def check_field_value(name: str, value, *, multiline: bool = False) -> None:
    """Raise FieldError when `value` cannot appear in contract text; numbers and strings only.

    multiline: the field allows "\\n" (and "\\r\\n"); tabs and every other control character
    are refused everywhere.
    """
    if isinstance(value, bool):
        return  # JSON Schema already decided whether a boolean belongs here
    if isinstance(value, float) and not math.isfinite(value):
        raise FieldError(f"field {name!r} must be a finite number, got {value!r}.")
    if not isinstance(value, str):
        return
    if not value.strip():
        raise FieldError(f"field {name!r} must not be blank, got {value!r}.")
    for i, ch in enumerate(value):
        if ch == "\n" or (ch == "\r" and value[i + 1 : i + 2] == "\n"):
            if multiline:
                continue
            raise FieldError(
                f"field {name!r} must be one line (this field does not allow newlines), got a newline at character "
                f"{i}: {value!r}."
            )
        if ch == "\x1b":
            raise FieldError(f"field {name!r} must not hold terminal (ANSI) escape sequences, got {value!r}.")
        if unicodedata.category(ch) == "Cc" or ch in _INVISIBLE:
            raise FieldError(
                f"field {name!r} must hold printable text only, got control character {_describe(ch)} at character "
                f"{i}: {value!r}."
            )


def escape_markdown(text: str) -> str:
    """`text` as literal Markdown: inline markup characters backslash-escaped, and a line that
    would open a heading, list, quote or rule escaped at its start. Newlines are kept."""
    out = _MD_SPECIAL.sub(r"\\\1", text)
    out = _MD_BULLET.sub(r"\1\\\2", out)
    return _MD_ORDERED.sub(r"\1\\\2", out)
