"""What a Drafter runs on: the checkpoint (load_model), the filler (fill_function) and its settings (DrafterConfig).

Owns: loading a checkpoint directory, a Llama directory or a fetched base name onto a device (the shipped
model when none is named), the fillers' names (FILLERS) and the factory that maps a name to its fill
function, where a planned draft's headings come from (HEADINGS), and a Drafter's own settings (DrafterConfig).
Imports the model and filler modules only when called, so importing it costs nothing; hybrid.draft.drafter
re-exports every public name.
"""

from dataclasses import dataclass
from pathlib import Path

import torch

from hybrid.common.config import SHIPPED_CHECKPOINT
from hybrid.common.errors import CheckpointError, SamplingError

__all__ = ["DrafterConfig", "load_model", "fill_function", "FILLERS", "HEADINGS", "HEADING_SOURCES"]

FILLERS = ("diffusion", "ar", "ar-batched")
HEADING_SOURCES = {
    "template": lambda template, outline: template.with_template_headings(outline),
    "planned": lambda template, outline: outline,
}
"""headings -> (template, planned outline) -> the outline the draft uses (HEADINGS)."""
HEADINGS = tuple(HEADING_SOURCES)
"""Where a planned draft's title and section headings come from: the template's defaults for the
planned clause types ("template", the default: the small shipped model's free-text headings are
often garbled) or the planner's own text ("planned")."""



@dataclass(frozen=True)
class DrafterConfig:
    """How a Drafter drafts whatever it is asked (a request's own settings are its DraftRequest); checked at
    construction. Drafter's keywords update it: `Drafter(model, tok, filler="ar")`."""

    filler: str = "diffusion"  # FILLERS: the filler a request names by default (its filler field overrides it)
    fill_config: object = None  # the diffusion filler's FillConfig (None: its defaults)
    weights: object = None  # the reranker's RerankWeights (None: its defaults)
    headings: str = "template"  # HEADINGS: where a planned draft's headings come from
    fact_guard: bool = True  # the fillers may not write a fact the deal does not state (hybrid.fidelity.fact_guard)

    def __post_init__(self):
        fill_function(self.filler)  # an unknown name fails here, not at the first draft
        if self.headings not in HEADING_SOURCES:
            raise SamplingError(f"headings must be one of {', '.join(HEADINGS)}, got {self.headings!r}.")


def load_model(path=None, device=None):
    """(backbone on `device`, tokenizer, training record, path) of a checkpoint dir; None = the shipped model.

    device None = CUDA when available, else CPU. CheckpointError names a missing or broken path.
    """
    from hybrid.model.pretrained import BASES
    from hybrid.model.resolve import resolve
    from hybrid.model.shipped import locate

    path = locate(path) if path is not None else None  # a bare NAME shipped in checkpoints/NAME
    p = Path(path) if path is not None else SHIPPED_CHECKPOINT
    if path is None and not (p / "model.safetensors").is_file():
        raise CheckpointError(
            f"the shipped model is missing: {p} (train it with `hybrid train`, or pass a checkpoint directory)."
        )
    if str(path) not in BASES and not p.is_dir():  # before loading, which imports transformers (seconds)
        raise CheckpointError(f"checkpoint directory not found: {p}")
    model, tok, record = resolve(path if str(path) in BASES else p)  # ours, a Llama directory or a fetched base name
    device = device or ("cuda" if torch.cuda.is_available() else "cpu")
    return model.to(device), tok, record, p


def fill_function(filler: str, fill_config=None):
    """The fill function of a filler (FILLERS); all take the arguments of hybrid.fill.api's contract
    (the EDIT_FILLERS also a precedent `start`)."""
    if filler == "diffusion":
        from functools import partial

        from hybrid.fill.diffusion.sampler import fill

        return partial(fill, config=fill_config)
    if filler == "ar":
        from hybrid.fill.ar import fill

        return fill
    if filler == "ar-batched":
        from hybrid.fill.ar_batched import fill

        return fill
    raise SamplingError(f"filler must be one of {', '.join(FILLERS)}, got {filler!r}.")
