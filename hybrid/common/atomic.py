"""`write_text_atomic`: a file written whole or not at all (a temporary file beside it, then renamed), so that a
reader never sees half of a cache, a library or its kept originals, and a failed write leaves the old file."""

import os
import tempfile
from pathlib import Path

__all__ = ["write_text_atomic"]


def write_text_atomic(target, text: str, suffix: str = ".json") -> Path:
    """Write `text` to `target` (its folder made) through a temporary file in the same folder; the temporary file is
    removed where the write fails. Returns the target's Path."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-", suffix=suffix)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target
