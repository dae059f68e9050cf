"""JSON Lines input: the non-blank lines of a text, each parsed, a bad line named by its number.

Owns: `json_lines`, shared by the corpus manifest (hybrid.data.corpus) and `hybrid rank
--candidates` (hybrid.cli.draft). Knows nothing about files or what a row must hold: the caller
reads the text, checks each row and builds the project exception that names its file.
"""

import json
from collections.abc import Callable, Iterator

__all__ = ["json_lines"]


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
        yield n, value, line
