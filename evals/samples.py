"""The run directory's sample store: settings, samples and what a rerun may resume.

Owns: the file names of a run (run.json settings, samples.jsonl, summary.json), appending-safe
reading of samples.jsonl (a half-written last line from a kill is dropped), the settings check
that refuses a directory from other weights, split, seed or N, and the weights fingerprint.
Knows nothing about systems, metrics or aggregation.
"""

import hashlib
import json
import os
from pathlib import Path

from hybrid.common.errors import ConfigError

__all__ = ["SAMPLES", "SETTINGS", "SUMMARY", "REAL", "load_samples", "check_settings", "fingerprint", "write_atomic"]

SAMPLES, SETTINGS, SUMMARY = "samples.jsonl", "run.json", "summary.json"
REAL = "real"  # the pseudo-system holding the real clauses' scores (the ceiling)


def fingerprint(path: Path) -> str:
    h = hashlib.sha1()
    with open(path / "model.safetensors", "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()[:16]


def write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def load_samples(out: Path) -> list[dict]:
    """Every complete record of out/samples.jsonl; a damaged line (an interrupted write) is dropped from the file."""
    path = Path(out) / SAMPLES
    if not path.is_file():
        return []
    good, bad = [], 0
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            bad += 1
            continue
        if isinstance(rec, dict) and "system" in rec and "doc" in rec:
            good.append(rec)
        else:
            bad += 1
    if bad:
        write_atomic(path, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in good))
    return good


def check_settings(out: Path, settings: dict) -> None:
    path = out / SETTINGS
    if path.is_file():
        try:
            old = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(old, dict):
                raise ValueError(f"a JSON {type(old).__name__}, not an object")
        except ValueError as e:  # also JSONDecodeError and UnicodeDecodeError
            raise ConfigError(f"--out {out}: {path} is damaged ({e}), so the run there cannot be checked against "
                              "these settings; remove that directory or use another --out.") from None
        diff = [k for k in settings if old.get(k) != settings[k]]
        if diff:
            what = ", ".join(f"{k}: {old.get(k)!r} there, {settings[k]!r} now" for k in diff)
            raise ConfigError(f"--out {out} holds a run with other settings ({what}); use another --out or remove it.")
    else:
        write_atomic(path, json.dumps(settings, indent=1))
