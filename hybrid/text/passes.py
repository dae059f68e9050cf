"""The pass contract: one text pass is a named object of one phase with a one-line contract, called as
`pass_(text, ctx) -> (text, changes)`.

Owns `Pass` (name, phase, contract, the function, its worked examples), `change` (the record of one change: kind,
old, new, action, reason; the consistency report's change, made general), `register` and `registered` (every pass
known by name: the modules that implement a pass register it where they define it, so this module imports nothing
of theirs), `run` (the phase's passes of hybrid.text.pipeline.PIPELINE applied in order, each traced) and
`without` (passes switched off by name, for ablations).

A pass that reports no change of its own but alters the text is traced as one "rewritten" change, so the trace
says what every pass did. Knows nothing about deals, models or sections: what a pass needs is in its phase's
context (hybrid.text.context).
"""

from collections.abc import Callable, Iterable
from contextlib import contextmanager
from dataclasses import dataclass, field

__all__ = ["Pass", "change", "register", "registered", "run", "without", "disabled"]

PHASES = ("start", "revise", "whole")
"""start: what an edit keeps of a precedent adapted to the deal before any hole opens (and cut to its room);
revise: each finished section body of a draft, in the draft's order; whole: passes over every section at once (a
Definitions index pruned against the others, terms the draft never defines lowered)."""


def change(kind: str, old, new, action: str, reason: str | None = None, **extra) -> dict:
    """One change a pass made: what kind, the text before and after, what was done ("removed", "renumbered",
    "capitalized", ...) and, for a removal, why. JSON-able, as drafts.json carries it."""
    out = {"kind": kind, "old": old, "new": new, "action": action}
    if reason is not None:
        out["reason"] = reason
    return {**out, **extra}


@dataclass(frozen=True)
class Pass:
    """One text pass. `apply(text, ctx) -> (text, changes)`; `examples`: (text, expected) or (text, expected,
    overrides) triples, each a unit test, run under `example_context(text, **overrides)` (the registering module's
    context of a small deal); text that needs no change comes back unchanged."""

    name: str
    phase: str
    contract: str
    apply: Callable = field(repr=False)
    examples: tuple = field(default=(), repr=False)
    example_context: Callable | None = field(default=None, repr=False)

    def __post_init__(self):
        if self.phase not in PHASES:
            raise ValueError(f"pass {self.name!r}: phase must be one of {', '.join(PHASES)}; got {self.phase!r}")
        if not self.contract or "\n" in self.contract:
            raise ValueError(f"pass {self.name!r}: the contract is one line; got {self.contract!r}")

    def __call__(self, text: str, ctx) -> tuple[str, list[dict]]:
        return self.apply(text, ctx)


_REGISTRY: dict[str, Pass] = {}
_DISABLED: set[str] = set()


def register(pass_: Pass) -> Pass:
    """Make `pass_` known by its name (once: a second pass of the same name is refused)."""
    known = _REGISTRY.get(pass_.name)
    if known is not None and known.apply is not pass_.apply:
        raise ValueError(f"a text pass named {pass_.name!r} is registered twice")
    _REGISTRY[pass_.name] = pass_
    return pass_


def registered() -> dict[str, Pass]:
    """Every pass registered so far, by name (the modules that define them must have been imported)."""
    return dict(_REGISTRY)


def disabled() -> frozenset:
    """The passes switched off now (`without`)."""
    return frozenset(_DISABLED)


@contextmanager
def without(names: Iterable[str]):
    """Within the block, the named passes are skipped wherever their phase runs (an ablation by name). An unknown
    name is refused, naming the passes there are."""
    from hybrid.text.pipeline import pass_names

    names = set(names)
    unknown = sorted(names - set(pass_names()))
    if unknown:
        raise ValueError(f"unknown text pass {', '.join(unknown)}; the passes are: {', '.join(pass_names())}")
    before = set(_DISABLED)
    _DISABLED.update(names)
    try:
        yield
    finally:
        _DISABLED.clear()
        _DISABLED.update(before)


def run(names: Iterable[str], text: str, ctx, trace: list | None = None) -> tuple[str, list[dict]]:
    """`text` through the passes `names` in order (hybrid.text.pipeline.phase gives a phase's names), skipping
    those switched off; (the text, every change, in order). `trace`: where given, one entry per pass that altered
    the text: {"pass", "changes"} (a pass that reported none: one "rewritten" change, old and new text)."""
    changes = []
    for name in names:
        if name in _DISABLED:
            continue
        pass_ = _REGISTRY[name]
        new, made = pass_(text, ctx)
        if trace is not None and (made or new != text):
            trace.append({"pass": name, "changes": made or [change(name, text, new, "rewritten")]})
        changes += made
        text = new
    return text, changes
