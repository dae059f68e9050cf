"""JSON input: strict parsing of a user's JSON text, and JSON Lines.

Owns: `strict_json` (the one parser of user JSON files: templates, fields files) and `json_lines`,
shared by the corpus manifest (hybrid.data.corpus) and `hybrid rank --candidates`
(hybrid.cli.draft). Knows nothing about files or what a value must hold: the caller reads the
text, checks the value and builds the project exception that names its file.

Why strict: Python's json module keeps the last of two equal keys in an object (a template with
two "termination" clauses silently loses one), reads NaN and Infinity (which pass `minimum`
checks), and recurses once per nesting level (a file nested 100,000 deep is a RecursionError).
"""

import json
import math
from collections.abc import Callable, Iterator

__all__ = ["json_lines", "strict_json", "JSONInputError", "MAX_DEPTH"]

MAX_DEPTH = 64
"""Nesting levels a JSON input may have: 8 times what the deepest shipped template uses."""


class JSONInputError(ValueError):
    """What is wrong with a JSON text: its syntax (`line`, `column` set) or one of strict_json's rules."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None):
        super().__init__(message)
        self.line, self.column = line, column


def _pairs(pairs: list) -> dict:
    out = {}
    for k, v in pairs:
        if k in out:
            raise JSONInputError(f"key {_short(k)} appears twice in one object (JSON keeps only the last); remove one")
        out[k] = v
    return out


def _short(text: str, limit: int = 60) -> str:
    r = json.dumps(text, ensure_ascii=False)
    return r if len(r) <= limit else f"{r[:limit]}...\" ({len(text)} characters)"


def _pointer(path) -> str:
    return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in path) if path else "/"


def strict_json(text: str, *, allow_nan: bool = False, max_depth: int = MAX_DEPTH):
    """The value of a JSON text, or JSONInputError: bad syntax, a key twice in one object, nesting
    deeper than max_depth, or (unless allow_nan: the caller names the field itself) NaN or Infinity."""
    try:
        value = json.loads(text, object_pairs_hook=_pairs)
    except json.JSONDecodeError as e:
        raise JSONInputError(f"line {e.lineno}, column {e.colno}: {e.msg}", e.lineno, e.colno) from None
    except RecursionError:
        raise JSONInputError(f"nested deeper than {max_depth} levels") from None
    stack = [(value, 1, ())]
    while stack:  # iterative: the depth is what is being checked
        node, depth, path = stack.pop()
        if isinstance(node, (dict, list)):
            if depth > max_depth:
                raise JSONInputError(f"nested deeper than {max_depth} levels (at {_pointer(path[:6])}/...)")
            items = node.items() if isinstance(node, dict) else enumerate(node)
            stack.extend((v, depth + 1, (*path, k)) for k, v in items)
        elif isinstance(node, float) and not math.isfinite(node) and not allow_nan:
            written = "NaN" if math.isnan(node) else ("Infinity" if node > 0 else "-Infinity")
            raise JSONInputError(f"{written} at {_pointer(path)} is not a number JSON allows; write a finite number")
    return value


def json_lines(text: str, not_json: Callable[[int, str], Exception]) -> Iterator[tuple[int, object, str]]:
    """(line number from 1, parsed value, the line) of each non-blank line of `text`; a line that is
    not JSON raises not_json(its number, the decoder's message)."""
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as e:
            raise not_json(n, e.msg) from None
        except RecursionError:
            raise not_json(n, "nested too deep") from None
        yield n, value, line
