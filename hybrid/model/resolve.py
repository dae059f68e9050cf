"""What a --checkpoint / --model names, loaded: a known base, a Llama directory, a LoRA adapter over its
base, or one of our own checkpoints; a bare name may also be one shipped in checkpoints/ (hybrid.model.shipped).

Owns: `resolve`, the one entry point callers load a model through. It sits above hybrid.model.pretrained
(bases and Llama directories) and hybrid.model.adapt (adapters), which both stay below it, so neither
imports the other back.
"""

import json
import os
from pathlib import Path

from hybrid.common.errors import CheckpointError
from hybrid.model.pretrained import BASES, CONFIG, _known, _llama_types, is_llama_dir, load_pretrained

__all__ = ["resolve"]


def resolve(path):
    """(model, tokenizer, record) of whatever a --checkpoint/--model names: a known base name (fetched),
    a Llama checkpoint directory, or one of our own checkpoints (hybrid.model.checkpoint.load_checkpoint)."""
    from hybrid.model.adapt import is_adapter_dir, load_adapted
    from hybrid.model.shipped import locate

    path = locate(path)  # a bare NAME shipped in checkpoints/NAME
    name = str(path)
    if is_adapter_dir(name):  # a LoRA adapter saved by `hybrid train --init-from ... --lora-rank R`, over its base
        return load_adapted(name)
    if name in BASES or is_llama_dir(name):
        return load_pretrained(name)
    p = Path(path)
    if not p.exists() and os.sep not in name and not name.startswith("."):
        raise CheckpointError(f"checkpoint directory not found: {p}; known bases: {_known()}")
    cfg = p / CONFIG
    if cfg.is_file():
        try:
            model_type = json.loads(cfg.read_text()).get("model_type")
        except (OSError, ValueError, AttributeError):
            model_type = None  # load_checkpoint reports the damage
        if model_type not in (None, "hybrid-contracts"):
            raise CheckpointError(
                f"{p} is not a Llama-family checkpoint nor one of ours: {CONFIG} model_type must be one of "
                f"{_llama_types() + ('hybrid-contracts',)}, got {model_type!r}."
            )
    from hybrid.model.checkpoint import load_checkpoint

    return load_checkpoint(p)
