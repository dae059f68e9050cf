"""hybrid.common.precision: "auto" follows the device type only (never CPU flags), names are validated."""

import pytest
import torch

from hybrid.common.errors import SamplingError
from hybrid.common.precision import autocast, resolve_precision


@pytest.mark.parametrize("precision,device,want", [
    ("auto", "cpu", "fp32"), ("auto", "cuda", "bf16"), ("fp32", "cuda", "fp32"), ("bf16", "cpu", "bf16"),
])
def test_auto_depends_on_the_device_type_only(precision, device, want):
    assert resolve_precision(precision, device) == want


def test_auto_on_cpu_ignores_cpu_flags(monkeypatch):
    import builtins

    real_open = builtins.open

    def no_cpuinfo(path, *a, **kw):  # a policy that read /proc/cpuinfo would change its answer here
        assert "cpuinfo" not in str(path), "precision must not depend on CPU flags"
        return real_open(path, *a, **kw)

    monkeypatch.setattr(builtins, "open", no_cpuinfo)
    with autocast("cpu", "auto"):
        assert not torch.is_autocast_enabled("cpu")
    with autocast("cpu", "bf16"):
        assert torch.is_autocast_enabled("cpu")


def test_unknown_precision_names_the_choices():
    with pytest.raises(SamplingError, match=r"precision must be one of auto, fp32, bf16, got 'fp16'"):
        resolve_precision("fp16", "cpu")
