"""A draft's arguments: their defaults and their checks, once per call, before any work.

Owns: the drafting defaults (DRAFT_SAMPLING, HEADINGS), the sampling keyword arguments (sampling_params),
the range checks of n, steps, guidance, seed and mmr (check_draft_args, checked) and the precedent
arguments' defaults and rules (resolve_precedents, check_precedent_args). Every failure is a
SamplingError naming the argument, what it may be and what it got; hybrid.draft.drafter re-exports
every public name, and the CLI and the server check their input through them before loading a model.
"""

from hybrid.common.errors import SamplingError
from hybrid.common.options import (
    DEFAULT_PRECEDENT_START,
    DEFAULT_PRECEDENTS,
    EDIT_FILLERS,
    MMR,
    PRECEDENT_GUIDANCE,
    PRECEDENTS,
)
from hybrid.common.sampling import SamplingParams
from hybrid.draft.loading import default_guidance, default_steps
from hybrid.fill.api import check_fill_args

__all__ = [
    "HEADINGS",
    "HEADING_SOURCES",
    "DRAFT_SAMPLING",
    "sampling_params",
    "check_draft_args",
    "checked",
    "resolve_precedents",
    "check_precedent_args",
]

HEADING_SOURCES = {
    "template": lambda template, outline: template.with_template_headings(outline),
    "planned": lambda template, outline: outline,
}
"""headings -> (template, planned outline) -> the outline the draft uses (HEADINGS)."""
HEADINGS = tuple(HEADING_SOURCES)
"""Where a planned draft's title and section headings come from: the template's defaults for the
planned clause types ("template", the default: the small shipped model's free-text headings are
often garbled) or the planner's own text ("planned")."""
DRAFT_SAMPLING = {"temperature": 0.8, "top_p": 0.95}  # the `hybrid plan` defaults; overridden by **sampling
_SAMPLING_FIELDS = ("temperature", "top_k", "top_p", "min_p", "repetition_penalty", "no_repeat_ngram")


def sampling_params(sampling: dict, defaults: dict) -> SamplingParams:
    """SamplingParams from keyword arguments; an unknown name is a SamplingError listing the known ones."""
    unknown = [k for k in sampling if k not in _SAMPLING_FIELDS]
    if unknown:
        raise SamplingError(f"unknown sampling argument {unknown[0]!r}; allowed: {', '.join(_SAMPLING_FIELDS)}.")
    return SamplingParams(**{**defaults, **sampling})


def check_draft_args(n, steps, guidance, seed, mmr: float = 0.0) -> None:
    """SamplingError naming the argument, its range and the value: n in 1..hybrid.common.options.MAX_VARIANTS (64),
    steps >= 1,
    guidance >= 0, seed an integer, mmr in [0, 1)."""
    check_fill_args(n, steps, guidance, seed)
    MMR.check("mmr", mmr, error=SamplingError)


def checked(n, steps, guidance, seed, mmr, sampling: dict):
    """(steps, guidance, SamplingParams) of a call's arguments, defaults filled in, every one checked (once per
    call)."""
    steps = default_steps() if steps is None else steps
    guidance = default_guidance() if guidance is None else guidance
    check_draft_args(n, steps, guidance, seed, mmr)
    return steps, guidance, sampling_params(sampling, DRAFT_SAMPLING)


def resolve_precedents(precedents=None, precedent_guidance=None, precedent_start=None, filler: str = "diffusion",
                       names: dict | None = None) -> tuple:
    """(precedents, precedent_guidance, precedent_start) of a draft, each None (unset) given its default, then
    checked (check_precedent_args; names as there):
    - precedents: hybrid.common.options.DEFAULT_PRECEDENTS (1) when the filler edits a start (EDIT_FILLERS) or
      precedent_start / precedent_guidance is set; else 0 (the "ar" filler drafts from scratch);
    - precedent_guidance: 0 (off);
    - precedent_start: DEFAULT_PRECEDENT_START (0: edit from precedent, only what the deal needs changed)
      when precedents >= 1, precedent_guidance
      is 0 and the filler edits; else 1 (off: with precedents >= 1 they sit beside the span).
    So a call that sets nothing edits from one precedent per section; precedents=0 drafts from scratch."""
    w = 0.0 if precedent_guidance is None else precedent_guidance
    edits = filler in EDIT_FILLERS
    if precedents is None:
        asked = precedent_start not in (None, 1, 1.0) or w not in (0, 0.0)  # compares, never raises on a bad type
        precedents = DEFAULT_PRECEDENTS if edits or asked else 0
    if precedent_start is None:
        precedent_start = DEFAULT_PRECEDENT_START if precedents not in (0, False) and w in (0, 0.0) and edits else 1.0
    check_precedent_args(precedents, w, precedent_start, names)
    if precedent_start < 1 and not edits:
        n = {"precedent_start": "precedent_start", "filler": "filler"} | (names or {})
        raise SamplingError(
            f"{n['precedent_start']} < 1 needs a filler that edits a start ({', '.join(EDIT_FILLERS)}), "
            f"got {n['filler']} {filler!r} with {n['precedent_start']} {precedent_start!r}."
        )
    return precedents, w, precedent_start


def check_precedent_args(precedents, precedent_guidance, precedent_start=1.0, names: dict | None = None) -> None:
    """SamplingError naming the argument: precedents an integer in [0, MAX_PRECEDENTS], precedent_guidance finite >= 0,
    precedent_start in [0, 1] (< 1 needs precedents). names: how the message calls each argument
    (the CLI passes its options: {"precedents": "--precedents", ...}); default the Python names."""
    n = {k: k for k in ("precedents", "precedent_guidance", "precedent_start")} | (names or {})
    sep = "=" if names is None else " "
    PRECEDENTS.check(n["precedents"], precedents, error=SamplingError)
    w = precedent_guidance
    PRECEDENT_GUIDANCE.check(n["precedent_guidance"], w, error=SamplingError)
    if w and not precedents:
        raise SamplingError(
            f"{n['precedent_guidance']} needs {n['precedents']} >= 1, got {n['precedents']}{sep}{precedents!r} "
            f"with {n['precedent_guidance']}{sep}{w!r}."
        )
    from hybrid.precedents.start import check_start_noise

    if check_start_noise(precedent_start) < 1 and not precedents:
        raise SamplingError(
            f"{n['precedent_start']} needs {n['precedents']} >= 1, got {n['precedents']}{sep}{precedents!r} "
            f"with {n['precedent_start']}{sep}{precedent_start!r}."
        )
    if w and precedent_start < 1:
        raise SamplingError(
            f"{n['precedent_guidance']} guides on the precedents beside each clause; editing from precedent "
            f"({n['precedent_start']} < 1) puts none beside it (each variant edits its own): leave "
            f"{n['precedent_guidance']} at 0, got {n['precedent_guidance']}{sep}{w!r} with "
            f"{n['precedent_start']}{sep}{precedent_start!r}."
        )

