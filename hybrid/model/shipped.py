"""Models shipped in the repository's checkpoints/ directory, found by name, and shipping a trained
LoRA adapter there.

Owns: `locate` (what `--model NAME` / `Drafter.from_pretrained(NAME)` means when NAME is no path
and no known base: checkpoints/NAME, when that directory exists) and `ship_adapter` (a training
run's LoRA adapter, as `hybrid train --init-from BASE --lora-rank R` writes it, copied into
checkpoints/NAME with the files it needs to load and nothing else: no optimizer state).

A shipped adapter is the trainer's adapter layout (hybrid.model.adapt): adapter_config.json +
adapter_model.safetensors (peft), tokenizer.json, training_record.json, ATTRIBUTION.md, and
adapt.json, which names the base it needs: its name (a known base, `hybrid model fetch NAME`), the
sha256 of its dequantized weights (checked before the adapter loads) and, added here, the pinned
package and GGUF sha256 the base comes from. Loading goes through hybrid.model.resolve like any
other checkpoint; a base that is not fetched is a CheckpointError naming the fetch command.
"""

import errno
import fcntl
import json
import os
import shutil
from pathlib import Path

from hybrid.common.config import SHIPPED_CHECKPOINT
from hybrid.common.errors import CheckpointError

__all__ = ["CHECKPOINTS", "locate", "ship_adapter", "SHIPPED_FILES"]

CHECKPOINTS = SHIPPED_CHECKPOINT.parent  # the repository's checkpoints/ directory
ADAPT_FILE, ADAPTER_CONFIG, ADAPTER_WEIGHTS = "adapt.json", "adapter_config.json", "adapter_model.safetensors"
SHIPPED_FILES = (ADAPTER_CONFIG, ADAPTER_WEIGHTS, ADAPT_FILE, "tokenizer.json", "training_record.json",
                 "ATTRIBUTION.md")  # what a shipped adapter holds; train_state.pt (optimizer state) stays behind


def _is_name(name: str) -> bool:
    return bool(name) and os.sep not in name and "/" not in name and not name.startswith(".")


def locate(spec):
    """checkpoints/NAME for a bare NAME that is neither a known base nor an existing path, when that
    directory exists; otherwise `spec` unchanged (the caller reports what is missing)."""
    from hybrid.model.pretrained import BASES

    name = str(spec)
    if not _is_name(name) or name in BASES or Path(name).exists():
        return spec
    d = CHECKPOINTS / name
    return d if d.is_dir() else spec


def _held(run: Path) -> bool:
    """Whether a live process holds run's output lock (hybrid.common.outdir.OutputLock): still training."""
    from hybrid.common.outdir import LOCK_NAME

    try:
        fd = os.open(run / LOCK_NAME, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    except OSError as e:
        return e.errno in (errno.EWOULDBLOCK, errno.EACCES)
    finally:
        os.close(fd)


def _check_run(run: Path) -> dict:
    """adapt.json of run, once run is a complete, idle LoRA adapter on a known base; CheckpointError otherwise."""
    from hybrid.common.outdir import pending_commit
    from hybrid.model.pretrained import BASES

    if not run.is_dir():
        raise CheckpointError(f"training run not found: {run}")
    missing = [n for n in SHIPPED_FILES if not (run / n).is_file()]
    if missing:
        raise CheckpointError(
            f"{run} is not a LoRA adapter run (`hybrid train --init-from BASE --lora-rank R`): missing "
            f"{', '.join(missing)}."
        )
    if _held(run) or pending_commit(run):
        raise CheckpointError(f"{run} is still being written (a training run holds it, or a save is unfinished); "
                              "ship it once training has ended.")
    try:
        meta = json.loads((run / ADAPT_FILE).read_text())
        base, lora = meta["base"], meta.get("lora")
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise CheckpointError(f"checkpoint file is damaged: {run / ADAPT_FILE} ({type(e).__name__}: {e})") from None
    if lora is not True:
        raise CheckpointError(f"{run} holds a full adapted model, not a LoRA adapter (adapt.json lora: {lora!r}).")
    if base not in BASES:
        raise CheckpointError(
            f"{run} was trained on base {base!r}, which is no known base ({', '.join(sorted(BASES))}): a shipped "
            "adapter must name a base every user can fetch."
        )
    return meta


def _check_weights(path: Path) -> None:
    from peft import LoraConfig
    from safetensors import safe_open

    try:
        LoraConfig.from_pretrained(str(path.parent))
        with safe_open(str(path), "pt") as f:
            keys = list(f.keys())
    except Exception as e:  # peft/safetensors raise many types for a damaged file
        raise CheckpointError(f"checkpoint file is corrupt: {path} ({type(e).__name__}: {e})") from None
    if not keys or not all("lora_" in k for k in keys):
        raise CheckpointError(f"{path} holds no LoRA weights ({len(keys)} tensors).")


def _trained(run: Path) -> dict:
    """How far the run trained (its record's step and commit), for adapt.json: no local paths."""
    from hybrid.model.checkpoint import read_record

    r = read_record(run)
    return {"trained_step": r.get("step"), "trained_at_commit": r.get("git_commit")}


def ship_adapter(run, name: str, *, into=None, force: bool = False) -> Path:
    """Copy the LoRA adapter of training run `run` into `into`/NAME (default checkpoints/NAME) as one committed
    set (hybrid.common.outdir.FileSet), adapt.json extended with the base's pinned package and GGUF sha256.
    Refuses a run still being written, a base that is no known base, and an existing NAME unless force."""
    from hybrid.common.outdir import FileSet, OutputLock
    from hybrid.model.pretrained import BASES, sha256_file

    run = Path(run)
    if not _is_name(name):
        raise CheckpointError(f"adapter name must be a plain directory name such as smollm2-135m-legal-lora, got "
                              f"{name!r}.")
    meta = _check_run(run)
    out = Path(into if into is not None else CHECKPOINTS) / name
    if out.exists() and any(not p.name.startswith(".") for p in out.iterdir()) and not force:
        raise CheckpointError(f"{out} already exists; pass --force to replace it.")
    b = BASES[meta["base"]]
    before = {n: sha256_file(run / n) for n in SHIPPED_FILES}
    with OutputLock(out, "adapter"), FileSet(out) as fs:
        for n in SHIPPED_FILES:
            if n != ADAPT_FILE:
                shutil.copyfile(run / n, fs.path(n))
        shipped = {**meta, "base_package": f"{b.package}=={b.version}", "base_wheel_sha256": b.wheel_sha256,
                   "base_gguf_sha256": b.member_sha256,
                   "fetch": f"hybrid model fetch {b.name}", "adapter_sha256": before[ADAPTER_WEIGHTS],
                   **_trained(run)}
        fs.path(ADAPT_FILE).write_text(json.dumps(shipped, indent=1))
        _check_weights(fs.stage / ADAPTER_WEIGHTS)
        after = {n: sha256_file(run / n) for n in SHIPPED_FILES}
        copied = {n: sha256_file(fs.stage / n) for n in SHIPPED_FILES if n != ADAPT_FILE}
        if after != before or any(copied[n] != before[n] for n in copied):
            raise CheckpointError(f"{run} changed while it was copied; nothing shipped. Ship it once training ended.")
        fs.commit(remove=[p.name for p in out.iterdir() if p.is_file() and p.name not in SHIPPED_FILES
                          and not p.name.startswith(".")])
    return out
