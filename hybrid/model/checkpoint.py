"""Checkpoint directories: save (staged and committed as one set), load (weights checked against the
config), recover (an interrupted save), and the training record.

Owns: the checkpoint layout (config.json + model.safetensors + tokenizer.json + training_record.json
+ ATTRIBUTION.md, and train_state.pt for --resume) and its I/O. Lives with the model: drafting,
evaluation and training all load through it; it knows nothing about training loops or drafting.
"""

import json
import os
from pathlib import Path

import torch

from hybrid.common.errors import CheckpointError
from hybrid.common.outdir import FileSet, is_bookkeeping, pending_commit, recover
from hybrid.model.backbone import Backbone
from hybrid.model.weights import check_checkpoint_weights
from hybrid.tokenizer.bpe import HybridTokenizer

__all__ = [
    "save_checkpoint",
    "load_checkpoint",
    "recover_checkpoint",
    "read_record",
    "ATTRIBUTION",
    "STATE_FILE",
    "RECORD_FILE",
]

ATTRIBUTION = """# Data attribution

This model was trained from scratch by the hybrid project (`hybrid train`) on the train split of:

- CUAD v1: The Atticus Project, "CUAD: An Expert-Annotated NLP Dataset for Legal Contract Review"
  (Hendrycks, Burns, Chen, Ball, 2021), CC BY 4.0.
- Common Paper standard agreements (commonpaper.com), CC BY 4.0.
- Bonterms standard terms (bonterms.com), CC BY 4.0.
- GitHub site-policy, CC0 1.0. Basecamp policies, CC BY 4.0.
"""
STATE_FILE = "train_state.pt"
RECORD_FILE = "training_record.json"


def save_checkpoint(out: Path, model: Backbone, tok: HybridTokenizer, record: dict, state: dict | None) -> None:
    """Stage every file inside `out`, then commit them as one set (hybrid.common.outdir.FileSet): a kill at any
    moment leaves the previous checkpoint or this one, and nothing else in `out` is touched."""
    from hybrid.model.hf import HybridForCausalLM

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    # building the HF wrapper initializes weights: keep it off the global RNG, or a resumed run's dropout
    # would draw other numbers than the straight run's
    with FileSet(out) as fs, torch.random.fork_rng(devices=[]):
        hf = HybridForCausalLM.from_backbone(
            model, bos_token_id=tok.bos_id, eos_token_id=tok.eos_id, pad_token_id=tok.pad_id
        )
        hf.save_pretrained(fs.stage, safe_serialization=True)
        tok.save(fs.stage)
        (fs.stage / RECORD_FILE).write_text(json.dumps(record, indent=1, allow_nan=False))
        (fs.stage / "ATTRIBUTION.md").write_text(ATTRIBUTION)
        if state is not None:
            torch.save(state, fs.stage / STATE_FILE)
        for p in sorted(fs.stage.iterdir()):
            fs.path(p.name)
        # a weights-only save must not leave an older optimizer state beside the new weights
        fs.commit(remove=[STATE_FILE] if state is None else [])


def _complete(path: Path, need_state: bool = False) -> bool:
    names = ("config.json", "model.safetensors", "tokenizer.json") + ((STATE_FILE,) if need_state else ())
    return path.is_dir() and all((path / n).is_file() for n in names)


def recover_checkpoint(path: Path, log=None) -> None:
    """Finish what an interrupted save left: roll an unfinished commit forward, or (saves of earlier
    versions, which swapped whole directories) move a complete `PATH.tmp-PID`/`PATH.old-PID` back."""
    path = Path(path)
    if pending_commit(path):
        try:
            recover(path)
        except OSError as e:
            raise CheckpointError(f"checkpoint {path} holds an interrupted save that cannot be completed here "
                                  f"({e.strerror or e}); rerun with write access to {path}.") from None
        if log:
            log(f"completed an interrupted checkpoint save in {path}")
    if _complete(path) or not path.parent.is_dir():
        return
    leftovers = sorted(path.parent.glob(f"{path.name}.tmp-*")) + sorted(path.parent.glob(f"{path.name}.old-*"))
    found = next((p for p in leftovers if _complete(p)), None)  # a complete .tmp is newer than any .old
    if found is not None and (
        not path.exists() or (path.is_dir() and all(is_bookkeeping(p.name) for p in path.iterdir()))
    ):
        if not path.exists():
            found.rename(path)
        else:  # `path` is there, empty but for a run's lock: move the files in
            for p in sorted(found.iterdir()):
                os.replace(p, path / p.name)
            found.rmdir()
        if log:
            log(f"recovered the checkpoint of an interrupted save: {found} -> {path}")


def load_checkpoint(path) -> tuple[Backbone, HybridTokenizer, dict]:
    """(backbone, tokenizer, training record) from a checkpoint dir; CheckpointError names what is wrong."""
    from hybrid.model.hf import HybridForCausalLM

    path = Path(path)
    recover_checkpoint(path)
    if not path.is_dir():
        raise CheckpointError(f"checkpoint directory not found: {path}")
    for name in ("config.json", "model.safetensors", "tokenizer.json"):
        if not (path / name).is_file():
            raise CheckpointError(f"checkpoint file missing: {path / name}")
    try:
        json.loads((path / "config.json").read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise CheckpointError(f"checkpoint file is corrupt: {path / 'config.json'} ({e})") from None
    check_checkpoint_weights(path)  # from_pretrained would fill missing tensors at random
    record = read_record(path) if (path / RECORD_FILE).is_file() else {}  # before the weights: a damaged one fails fast
    tok = HybridTokenizer.load(path)
    try:
        hf = HybridForCausalLM.from_pretrained(path)
    except Exception as e:  # safetensors/transformers raise many types for a damaged file
        raise CheckpointError(
            f"checkpoint file is corrupt: {path / 'model.safetensors'} ({type(e).__name__}: {e})"
        ) from None
    return hf.backbone.eval(), tok, record


def read_record(path, need: tuple[str, ...] = ()) -> dict:
    """The training record of checkpoint dir `path`; CheckpointError when it is damaged or lacks a `need` key."""
    f = Path(path) / RECORD_FILE
    try:
        record = json.loads(f.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:  # ValueError: JSONDecodeError, UnicodeDecodeError
        raise CheckpointError(f"checkpoint file is damaged: {f} ({getattr(e, 'strerror', None) or e})") from None
    missing = [k for k in need if not isinstance(record, dict) or not isinstance(record.get(k), dict)]
    if not isinstance(record, dict) or missing:
        raise CheckpointError(
            f"checkpoint file is damaged: {f} (expected a JSON "
            f"object{' with ' + ', '.join(missing) if missing else ''})"
        )
    return record
