"""Numeric option ranges and the CPU thread default, shared by every `hybrid` parser and config.

Owns: `Range` (one rule per option: the message names the allowed range and the value received;
argparse prefixes the option's name), the seed and variant bounds, and `--threads`. A Range is an
argparse `type=` (checked at parse time, before anything is loaded) and `Range.check` validates
the same rule inside a config; `bounded` declares a dataclass field's Range beside its default and
`check_fields` checks them all. Imports nothing heavy, so `hybrid -h` stays fast.
"""

import argparse
import math
import os
import sys
from dataclasses import dataclass, field, fields
from pathlib import Path

from hybrid.common.errors import ConfigError
from hybrid.common.textsafe import shown

__all__ = [
    "Range",
    "out_dir",
    "integer",
    "number",
    "int_range",
    "float_range",
    "bounded",
    "check_fields",
    "SEED",
    "MMR",
    "WEIGHT",
    "MAX_VARIANTS",
    "MAX_PRECEDENTS",
    "COMMIT_RULES",
    "DEFAULT_THREADS",
    "add_threads",
    "set_threads",
]

MAX_VARIANTS = 64  # drafts filled in one batch (hybrid.fill.api); more only costs memory without new diversity
# per span: each adds ~110 skeleton tokens in front of it (pages are 512 tokens; hybrid.skeleton.from_precedents)
MAX_PRECEDENTS = 4
DEFAULT_THREADS = 1
"""Torch CPU intra-op threads for every command; 0 keeps torch's default (all cores). One, because
these small models decode a token (or one step of a few variants) at a time, so a second thread
mostly waits for the first, and on a busy machine it spins: two threads save time only on an idle
machine, for more CPU (same bytes at 1 and 2 threads; the farm-bench timings:
benchmarks/results/figures-without-a-result-file.md)."""


@dataclass(frozen=True)
class Range:
    """Closed or half-open interval of allowed values; `integer` rejects 1.5 and "1e3"."""

    lo: float | None = None  # None = unbounded below
    hi: float | None = None  # None = unbounded above
    integer: bool = True
    lo_open: bool = False  # (lo, ... instead of [lo, ...
    hi_open: bool = False  # ..., hi) instead of ..., hi]
    off: object = None  # the value that turns the option off, named in messages; None = it has none

    def describe(self) -> str:
        kind = "an integer" if self.integer else "a finite number"
        if self.lo is not None and self.hi is not None:
            return f"{kind} in {'(' if self.lo_open else '['}{self.lo}, {self.hi}{')' if self.hi_open else ']'}"
        if self.lo is not None:
            return f"{kind} {'>' if self.lo_open else '>='} {self.lo}"
        if self.hi is not None:
            return f"{kind} {'<' if self.hi_open else '<='} {self.hi}"
        return kind

    def contains(self, v) -> bool:
        if isinstance(v, bool) or not isinstance(v, (int, float)) or (self.integer and not isinstance(v, int)):
            return False
        try:
            if not math.isfinite(v):
                return False
        except OverflowError:  # an int past the largest float: no option means one
            return False
        if self.lo is not None and (v <= self.lo if self.lo_open else v < self.lo):
            return False
        return not (self.hi is not None and (v >= self.hi if self.hi_open else v > self.hi))

    def rule(self, off=None) -> str:
        """What a value must be, as messages say it after "must be": "an integer in [1, 64]" and its off value."""
        return f"{self.describe()}{self._off(off)}"

    def _off(self, off=None) -> str:
        off = self.off if off is None else off
        return "" if off is None else f" ({off} = off)"

    def check(self, name: str, v, *, off=None, error: type[Exception] = ConfigError) -> None:
        """`error` (a project exception) naming `name`, the range, the value that means off (when
        there is one) and the value received, when `v` is outside."""
        if not self.contains(v):
            raise error(f"{name} must be {self.describe()}{self._off(off)}, got {shown(v)}.")

    def __call__(self, text: str):
        """argparse type=: the parsed value, or ArgumentTypeError naming the range and `text`."""
        try:
            v = int(text) if self.integer else float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {self.describe()}{self._off()}, got {text!r}") from None
        if not self.contains(v):
            raise argparse.ArgumentTypeError(f"must be {self.describe()}{self._off()}, got {text!r}")
        return v


def out_dir(text: str) -> Path:
    """argparse type= of an output directory: an empty path is refused (Path("") would quietly be the
    current directory). The rest is hybrid.common.outdir.check_writable's, before any work."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"must name a directory, got {text!r}")
    return Path(text)


def _parsed(kind, name: str):
    """argparse type= of a draft request's option: `kind(text)` only (hybrid.draft.request.DraftRequest checks its
    range), or ArgumentTypeError naming what it must be and `text`."""

    def parse(text: str):
        try:
            return kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {name}, got {text!r}") from None

    return parse


integer = _parsed(int, "an integer")
number = _parsed(float, "a number")


def int_range(lo: int | None = None, hi: int | None = None, *, off=None) -> Range:
    return Range(lo, hi, integer=True, off=off)


def float_range(
    lo: float | None = None, hi: float | None = None, *, lo_open: bool = False, hi_open: bool = False, off=None
) -> Range:
    return Range(lo, hi, integer=False, lo_open=lo_open, hi_open=hi_open, off=off)


def bounded(default, allowed: Range | None, **metadata):
    """A dataclass field with its default and its allowed values (its `range` metadata, checked by `check_fields`;
    None = any)."""
    return field(default=default, metadata={"range": allowed, **metadata})


def check_fields(obj, *, label: str = "", error: type[Exception] = ConfigError) -> None:
    """Range.check of every field of the dataclass `obj` that has a range, in field order; `label` opens
    each name in the message ("rerank weight " names "rerank weight parties")."""
    for f in fields(obj):
        allowed = f.metadata.get("range")
        if allowed is not None:
            allowed.check(f"{label}{f.name}", getattr(obj, f.name), error=error)


SEED = int_range(0, 2**64 - 1)  # torch.Generator.manual_seed takes at most 64 bits
MMR = float_range(0, 1, hi_open=True, off=0)  # the reranker's diversity weight (hybrid.rank.mmr.mmr_order)
WEIGHT = float_range(0)  # a score's weight (hybrid.rank.rerank, hybrid.precedents.relevance): a finite number >= 0
# the diffusion filler's commit rules (hybrid.fill.diffusion.commit); auto: runs when editing
COMMIT_RULES = ("auto", "confidence", "runs")


def add_threads(parser, default: int = DEFAULT_THREADS) -> None:
    parser.add_argument(
        "--threads",
        type=int_range(0, 1024),
        default=default,
        help=f"torch CPU threads; 0 = torch's default, all cores (default: {default}: fastest for "
        "these small models, and on a shared machine)",
    )


def set_threads(n: int | None) -> None:
    """torch's CPU threads to n for n >= 1; None or 0 leaves torch's default. Never imports torch (seconds): with torch
    imported, torch.set_num_threads(n); before, OMP_NUM_THREADS=n, which torch takes as its thread count when it is
    imported (a command that never needs torch, `hybrid rank` on cached embeddings, never pays for it)."""
    if not n:
        return
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(n)
    else:
        os.environ["OMP_NUM_THREADS"] = str(n)
