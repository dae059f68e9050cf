"""What a training run keeps in its checkpoint directory besides the weights, and how a run resumes.

Owns: the checks of --out before any work (`check_train_out`) and at --resume (`resume_state`: the
same architecture, an intact state file), the training record (`training_record`, the
training_record.json of a checkpoint) and the resumable training state (`train_state`, `restore`).
Knows nothing about losses, data or the loop itself (hybrid.train.loop).
"""

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import torch

from hybrid.common.config import TrainConfig
from hybrid.common.errors import CheckpointError
from hybrid.common.outdir import check_writable, is_bookkeeping
from hybrid.model.checkpoint import STATE_FILE, read_record

__all__ = ["Progress", "RunFacts", "check_train_out", "resume_state", "restore", "training_record", "train_state",
           "git_commit"]


@dataclass(frozen=True)
class Progress:
    """Where a run stands at a checkpoint: what its record states and --resume continues from."""

    step: int  # optimizer steps done
    tokens_seen: int  # non-pad tokens trained on, over every process
    elapsed: float  # wall seconds, over every resumed part of the run
    curves: dict  # the train / val loss and learning-rate curves so far


@dataclass(frozen=True)
class RunFacts:
    """What a run's record says of it that holds from its start to its end."""

    cfg: TrainConfig
    raw: object  # the unwrapped model
    trainable: list  # the parameters that train (with LoRA: the adapter only)
    adapted: object  # hybrid.model.adapt's adapted base of --init-from, or None
    acc: object  # the accelerate.Accelerator: its device and processes
    precision: str  # "fp32" | "bf16", resolved (hybrid.common.precision)
    per_epoch: int  # optimizer steps per epoch
    train_docs: int  # documents in the train split
    bytes_per_token: float  # val split, measures the tokenizer


def git_commit() -> str:
    """The commit of the code that trains (recorded with the checkpoint); "" outside a git checkout."""
    try:
        return subprocess.run(
            ["git", "rev-parse", "HEAD"], capture_output=True, text=True, cwd=Path(__file__).parent, timeout=5
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def check_train_out(out: Path, resume: bool) -> None:
    """CheckpointError/OutputError before any work when --out cannot hold this run's checkpoint: a file,
    unwritable, a directory of other files (never overwritten), or a checkpoint without --resume."""
    out = Path(out)
    check_writable(out)
    if resume:
        if not (out / STATE_FILE).is_file():
            raise CheckpointError(f"--resume: no training state in {out / STATE_FILE}; train without --resume first")
        return
    if (out / STATE_FILE).is_file() or (out / "model.safetensors").is_file():
        raise CheckpointError(f"{out} already holds a checkpoint; pass --resume to continue it or choose another --out")
    others = sorted(p.name for p in out.iterdir() if not is_bookkeeping(p.name)) if out.is_dir() else []
    if others:
        shown = ", ".join(others[:4]) + (", ..." if len(others) > 4 else "")
        raise CheckpointError(f"--out {out} is a non-empty directory that holds no checkpoint ({shown}); "
                              "choose a new or empty directory: training never writes over other files.")


def resume_state(cfg: TrainConfig, out: Path, resume: bool):
    """(training state, record) of the checkpoint in `out` that --resume continues, both checked (the
    same architecture, an intact state file); (None, None) for a fresh run, which `out` must not hold
    a checkpoint for."""
    state = record = None
    if resume:
        if not (out / STATE_FILE).is_file():
            raise CheckpointError(f"--resume: no training state in {out / STATE_FILE}; train without --resume first")
        record = read_record(out, need=("config",))
        for name in TrainConfig.ARCH_FIELDS:
            # a field newer than the checkpoint: its default
            had = record["config"].get(name, TrainConfig.__dataclass_fields__[name].default)
            if had != getattr(cfg, name):
                raise CheckpointError(
                    f"--resume: checkpoint {out} has {name}={had!r}, this run asks for {name}={getattr(cfg, name)!r}; "
                    "use the same value or a new --out"
                )
        try:
            state = torch.load(out / STATE_FILE, weights_only=False)
            assert isinstance(state, dict) and {"model", "optimizer", "scheduler", "step"} <= set(state)
        except Exception as e:  # torch.load raises many types for a truncated or foreign file
            raise CheckpointError(
                f"--resume: {out / STATE_FILE} is damaged or not a training state ({type(e).__name__}); "
                "resume from an intact copy or train into a new --out"
            ) from None
    elif (out / STATE_FILE).is_file() or (out / "model.safetensors").is_file():
        raise CheckpointError(f"{out} already holds a checkpoint; pass --resume to continue it or choose another --out")
    return state, record


def restore(state: dict, model, adapted, opt, sched):
    """Load a resumed run's weights, optimizer, schedule and RNG from `state`; its (step, tokens_seen,
    wall_seconds, curves)."""
    adapted.load_train_state(state["model"]) if adapted else model.load_state_dict(state["model"])
    opt.load_state_dict(state["optimizer"])
    sched.load_state_dict(state["scheduler"])
    torch.set_rng_state(state["rng"]["torch"])
    if "cuda" in state["rng"] and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["rng"]["cuda"])
    return state["step"], state["tokens_seen"], state["wall_seconds"], state["curves"]


def training_record(run: RunFacts, at: Progress) -> dict:
    """training_record.json of the checkpoint written at `at.step`."""
    cfg, raw, acc, adapted, device = run.cfg, run.raw, run.acc, run.adapted, run.acc.device
    step, tokens_seen, elapsed = at.step, at.tokens_seen, at.elapsed
    return {
        "config": cfg.to_dict(),
        "model_config": raw.cfg.to_dict(),
        "params": raw.num_params(),
        "trainable_params": sum(p.numel() for p in run.trainable),
        "git_commit": git_commit(),
        "step": step,
        "epochs": round(step / max(run.per_epoch, 1), 3),
        "tokens_seen": tokens_seen,
        "wall_seconds": round(elapsed, 3),
        "tokens_per_second": round(tokens_seen / max(elapsed, 1e-9), 1),
        "device": str(device) if device.type != "cuda" else torch.cuda.get_device_name(),
        "processes": acc.num_processes,
        "precision": run.precision,
        "train_docs": run.train_docs,
        "bytes_per_token": run.bytes_per_token,  # val split, measures the tokenizer
        "curves": at.curves,
        "command": "hybrid train " + " ".join(sys.argv[2:]) if len(sys.argv) > 2 else "hybrid train",
        **({"adapted_from": adapted.base} if adapted else {}),
    }


def train_state(raw, adapted, opt, sched, at: Progress) -> dict:
    """train_state.pt: what --resume needs to continue exactly (weights, optimizer, schedule, counters, RNG)."""
    return {
        "model": adapted.train_state() if adapted else raw.state_dict(),
        "optimizer": opt.state_dict(),
        "scheduler": sched.state_dict(),
        "step": at.step,
        "tokens_seen": at.tokens_seen,
        "wall_seconds": at.elapsed,
        "curves": at.curves,
        "rng": {
            "torch": torch.get_rng_state(),
            **({"cuda": torch.cuda.get_rng_state_all()} if torch.cuda.is_available() else {}),
        },
    }
