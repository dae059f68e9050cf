"""What the cache holds of a fetched base: the files `fetch` writes (FILES beside SOURCE), the sha256 of each,
recorded in source.json when they are written (`file_hashes`), and whether what is there now is what was written
(`base_state`).

Owns: the three states of a base's directory, "fetched", "damaged" (why: a file missing, changed since it was
written, or a source.json that is not one) and "not fetched" (nothing there, or a fetch of another pin), for
`hybrid model fetch` (which fetches a damaged base again instead of calling it "already in") and `hybrid model
list`. A base fetched before the hashes were recorded is checked by what can be read cheaply instead: its weights'
safetensors header, its config's JSON and its tokenizer's. Knows nothing of pip, GGUF or models: those
are hybrid.model.pretrained's, which imports this module.
"""

import hashlib
import json
import struct
from pathlib import Path

__all__ = ["WEIGHTS", "CONFIG", "TOKENIZER", "SOURCE", "FILES", "sha256_file", "file_hashes", "base_state"]

WEIGHTS, CONFIG, TOKENIZER, SOURCE = "model.safetensors", "config.json", "tokenizer.json", "source.json"
FILES = (CONFIG, WEIGHTS, TOKENIZER)  # what `fetch` writes beside source.json
MAX_HEADER = 100 << 20  # a safetensors header longer than this is no header (safetensors' own bound)


def sha256_file(path: Path) -> str:
    """sha256 (hex) of a file, read in 1 MiB blocks."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def file_hashes(d: Path) -> dict[str, str]:
    """{file name: sha256} of the FILES in directory d, as source.json's "files" records them."""
    return {f: sha256_file(Path(d) / f) for f in FILES}


def base_state(d: Path, base) -> tuple[str, str]:
    """("fetched" | "damaged" | "not fetched", why) of directory d as the cache's copy of `base` (a
    hybrid.model.pretrained.Base: its member_sha256 tells its pin)."""
    d = Path(d)
    if not d.exists():
        return "not fetched", "nothing in the cache"
    try:
        source = json.loads((d / SOURCE).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        why = "missing" if isinstance(e, FileNotFoundError) else "unreadable"
        return "damaged", f"its {SOURCE} is {why}"
    if not isinstance(source, dict):
        return "damaged", f"its {SOURCE} is not a record of a fetch"
    if source.get("member_sha256") != base.member_sha256:
        return "not fetched", "the cache holds another pinned version"
    missing = [f for f in FILES if not (d / f).is_file()]
    if missing:
        return "damaged", f"{', '.join(missing)} missing"
    recorded = source.get("files")
    if not isinstance(recorded, dict):
        return _readable(d)
    changed = [f for f, h in file_hashes(d).items() if recorded.get(f) != h]
    if changed:
        return "damaged", f"{', '.join(changed)} changed since it was fetched: sha256 differs"
    return "fetched", ""


def _readable(d: Path) -> tuple[str, str]:
    """A base fetched before source.json recorded its files' hashes: what can be checked without them."""
    try:
        config = json.loads((d / CONFIG).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        config = None
    if not isinstance(config, dict) or not isinstance(config.get("model_type"), str):  # which type: loading's check
        return "damaged", f"{CONFIG} is not a model config"
    if not _safetensors_header(d / WEIGHTS):
        return "damaged", f"{WEIGHTS} is not a safetensors file"
    try:
        json.loads((d / TOKENIZER).read_bytes())
    except (OSError, ValueError):
        return "damaged", f"{TOKENIZER} is not JSON"
    return "fetched", "fetched before its files' hashes were recorded: checked by reading them"


def _safetensors_header(path: Path) -> bool:
    """Whether `path` opens with a safetensors header: its length (8 bytes, little-endian), then a JSON object."""
    try:
        with open(path, "rb") as f:
            (n,) = struct.unpack("<Q", f.read(8))
            header = json.loads(f.read(n)) if 0 < n <= MAX_HEADER else None
    except (OSError, ValueError, struct.error):
        return False
    return isinstance(header, dict) and bool(header)
