"""Refuse a checkpoint whose weights do not match its config, before anything is loaded.

Owns: comparing the tensors a model built from config.json expects (names and shapes) with those
in model.safetensors. transformers' from_pretrained would otherwise initialise missing tensors at
random and drop unexpected ones with only a log warning: a valid but wrong config.json then loads
a partly random model that runs without an error. Reads the safetensors header only.
"""

from pathlib import Path

import torch

from hybrid.common.errors import CheckpointError

__all__ = ["check_state_dict", "check_checkpoint_weights"]

_SHOWN = 3  # names listed per kind of difference; the rest are counted


def _shape(v) -> tuple[int, ...]:
    return tuple(v.shape) if hasattr(v, "shape") else tuple(v)


def _names(names: list[str]) -> str:
    more = f" (+{len(names) - _SHOWN} more)" if len(names) > _SHOWN else ""
    return ", ".join(names[:_SHOWN]) + more


def check_state_dict(model: torch.nn.Module, state, where: str = "state dict") -> None:
    """CheckpointError naming the missing tensors, the unexpected ones and the shape mismatches between
    `model`'s state dict and `state` (name -> tensor or shape); None when they agree."""
    want = {k: _shape(v) for k, v in model.state_dict().items()}
    have = {k: _shape(v) for k, v in state.items()}
    missing = sorted(set(want) - set(have))
    unexpected = sorted(set(have) - set(want))
    shapes = [
        f"{k} {list(have[k])} (config wants {list(want[k])})"
        for k in sorted(set(want) & set(have))
        if want[k] != have[k]
    ]
    problems = [f"{len(missing)} missing tensors: {_names(missing)}"] if missing else []
    problems += [f"{len(unexpected)} unexpected tensors: {_names(unexpected)}"] if unexpected else []
    problems += [f"{len(shapes)} shape mismatches: {_names(shapes)}"] if shapes else []
    if problems:
        raise CheckpointError(f"{where}: the weights do not match the model's config: {'; '.join(problems)}.")


def check_checkpoint_weights(path) -> None:
    """check_state_dict of a checkpoint directory: a model built from its config.json on the meta
    device (no memory, no init) against model.safetensors' header."""
    from safetensors import safe_open

    from hybrid.model.hf import HybridConfig, HybridForCausalLM

    path = Path(path)
    try:
        config = HybridConfig.from_pretrained(path)
        with torch.device("meta"):
            model = HybridForCausalLM(config)
    except Exception as e:  # transformers and BackboneConfig raise many types for bad values
        raise CheckpointError(
            f"checkpoint config is invalid: {path / 'config.json'} ({type(e).__name__}: {e})"
        ) from None
    try:
        with safe_open(path / "model.safetensors", "pt") as f:
            state = {k: f.get_slice(k).get_shape() for k in f.keys()}
    except Exception as e:  # safetensors raises its own error types for a damaged header
        raise CheckpointError(
            f"checkpoint file is corrupt: {path / 'model.safetensors'} ({type(e).__name__}: {e})"
        ) from None
    check_state_dict(model, state, where=f"checkpoint {path} (model.safetensors vs config.json)")
