"""Numeric precision of the forwards: one explicit rule, recorded with every result.

Owns: the precision names, `resolve_precision` (what "auto" means) and `autocast` (the context
the fillers and training run their forwards in). "auto" depends on the device type only, never
on CPU flags, so the same seed gives the same drafts on any CPU: bf16 autocast on CUDA, fp32 on
CPU. bf16 on a CPU is an explicit choice (`precision="bf16"`): faster fills on CPUs with bf16
matmul units (AMX / AVX512-BF16), several times slower where bf16 is emulated (AVX2-only); the
timing: benchmarks/results/figures-without-a-result-file.md.
"""

from contextlib import nullcontext

import torch

from hybrid.common.errors import SamplingError

__all__ = ["PRECISIONS", "resolve_precision", "autocast"]

PRECISIONS = ("auto", "fp32", "bf16")


def resolve_precision(precision: str, device) -> str:
    """"fp32" or "bf16" for `precision` on `device` ("auto": bf16 on CUDA, fp32 elsewhere)."""
    if precision not in PRECISIONS:
        raise SamplingError(f"precision must be one of {', '.join(PRECISIONS)}, got {precision!r}.")
    if precision != "auto":
        return precision
    return "bf16" if torch.device(device).type == "cuda" else "fp32"


def autocast(device, precision: str):
    """The autocast context of a forward at `precision` (resolved as resolve_precision)."""
    device = torch.device(device)
    if resolve_precision(precision, device) == "fp32":
        return nullcontext()
    return torch.autocast(device.type, dtype=torch.bfloat16)
