"""hybrid.common.options: a Range parses what it allows and names the range and the value it refuses."""

import argparse

import pytest

from hybrid.common.errors import ConfigError
from hybrid.common.options import SEED, float_range, int_range

ACCEPTS = [
    (int_range(1, 64), "1", 1),
    (int_range(1, 64), "64", 64),
    (int_range(0), "123456789012", 123456789012),
    (SEED, str(2**64 - 1), 2**64 - 1),
    (float_range(0, 1, lo_open=True), "1", 1.0),
    (float_range(0, 1, hi_open=True), "0", 0.0),
    (float_range(0), "1e3", 1000.0),
]

REFUSES = [
    # (range, text, words the message must contain)
    (int_range(1, 64), "0", ["an integer in [1, 64]", "'0'"]),
    (int_range(1, 64), "65", ["an integer in [1, 64]", "'65'"]),
    (int_range(1, 64), "2.5", ["an integer in [1, 64]", "'2.5'"]),
    (int_range(0), "-1", ["an integer >= 0", "'-1'"]),
    (int_range(0), "ten", ["an integer >= 0", "'ten'"]),
    (SEED, str(2**64), ["an integer in [0, 18446744073709551615]", str(2**64)]),
    (SEED, "-1", ["[0, 18446744073709551615]", "'-1'"]),
    (float_range(0, 1, lo_open=True), "0", ["a finite number in (0, 1]", "'0'"]),
    (float_range(0, 1, hi_open=True), "1", ["a finite number in [0, 1)", "'1'"]),
    (float_range(0), "nan", ["a finite number >= 0", "'nan'"]),
    (float_range(0), "inf", ["a finite number >= 0", "'inf'"]),
    (float_range(0), "-0.5", ["a finite number >= 0", "'-0.5'"]),
]


@pytest.mark.parametrize("rng,text,value", ACCEPTS)
def test_a_range_parses_the_values_it_allows(rng, text, value):
    assert rng(text) == value and type(rng(text)) is type(value)


@pytest.mark.parametrize("rng,text,words", REFUSES)
def test_a_range_refuses_naming_the_range_and_the_value(rng, text, words):
    with pytest.raises(argparse.ArgumentTypeError) as e:
        rng(text)
    assert all(w in str(e.value) for w in words), str(e.value)


@pytest.mark.parametrize("value", [0, 1.5, True, "3", float("nan"), None])
def test_check_raises_a_config_error_naming_the_field(value):
    with pytest.raises(ConfigError, match=r"^n_variants must be an integer in \[1, 64\], got "):
        int_range(1, 64).check("n_variants", value)


@pytest.mark.parametrize("seed", [-1, 2**64, 1.0])
def test_a_draft_request_refuses_a_seed_torch_cannot_take(seed):
    from hybrid.draft.request import DraftRequest, RequestValueError
    from hybrid.templates.template import load_template

    t = load_template("mutual-nda")
    assert DraftRequest.of(t, t.example, seed=2**64 - 1).seed == 2**64 - 1
    with pytest.raises(RequestValueError, match=r"seed must be an integer in \[0, 18446744073709551615\], got "):
        DraftRequest.of(t, t.example, seed=seed)


def test_set_threads_before_torch_is_imported_does_not_import_it_and_torch_takes_the_count():
    """`hybrid rank` on cached embeddings never needs torch: setting --threads must not cost its import (seconds)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = str(Path(__file__).resolve().parents[2])
    code = ("import sys; from hybrid.common.options import set_threads; set_threads(1); "
            "assert 'torch' not in sys.modules; import torch; print(torch.get_num_threads())")
    env = {k: v for k, v in os.environ.items() if k != "OMP_NUM_THREADS"} | {"PYTHONPATH": root}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env, cwd=root)
    assert out.stdout.strip() == "1"
