"""hybrid.model.weights: a checkpoint whose weights do not match its config.json is refused, naming
the missing and unexpected tensors and the shape mismatches, instead of loading partly random."""

import json
import shutil

import pytest
import torch

from hybrid.cli.main import main
from hybrid.common.errors import CheckpointError
from hybrid.model.weights import check_checkpoint_weights, check_state_dict
from hybrid.train.loop import load_checkpoint, save_checkpoint


@pytest.fixture(scope="module")
def checkpoint(tiny_model, tokenizer, tmp_path_factory):
    path = tmp_path_factory.mktemp("ck") / "tiny"
    save_checkpoint(path, tiny_model, tokenizer, {"step": 0}, None)
    return path


def _with_config(checkpoint, tmp_path, **changes):
    copy = tmp_path / "wrong"
    shutil.copytree(checkpoint, copy)
    config = json.loads((copy / "config.json").read_text())
    (copy / "config.json").write_text(json.dumps({**config, **changes}))
    return copy


def test_matching_weights_pass(tiny_model, checkpoint):
    check_state_dict(tiny_model, tiny_model.state_dict())
    check_checkpoint_weights(checkpoint)


def test_check_state_dict_names_every_kind_of_difference(tiny_model):
    state = dict(tiny_model.state_dict())
    del state["blocks.0.attn.qkv.weight"]
    state["blocks.9.extra"] = torch.zeros(2)
    state["embed.weight"] = torch.zeros(3, 4)
    with pytest.raises(CheckpointError) as e:
        check_state_dict(tiny_model, state, where="test")
    msg = str(e.value)
    assert msg.startswith("test: the weights do not match")
    assert "1 missing tensors: blocks.0.attn.qkv.weight" in msg and "1 unexpected tensors: blocks.9.extra" in msg
    assert "1 shape mismatches: embed.weight [3, 4] (config wants" in msg


WRONG_CONFIGS = [
    # (config.json changes, words the message must contain)
    ({"n_layers": 3}, ["missing tensors", "backbone.blocks.2.", "(+"]),
    ({"n_layers": 1}, ["unexpected tensors", "backbone.blocks.1."]),
    (
        {"d_model": 32, "d_ff": 0},
        ["shape mismatches", "backbone.blocks.0.attn.proj.weight [64, 64] (config wants [32, 32])"],
    ),
    ({"vocab_size": 1000}, ["shape mismatches", "backbone.embed.weight [", "config wants [1000, 64]"]),
    ({"n_heads": 5}, ["config is invalid", "config.json", "n_heads"]),
]


@pytest.mark.parametrize("changes,words", WRONG_CONFIGS, ids=[",".join(c) for c, _ in WRONG_CONFIGS])
def test_a_config_that_does_not_fit_the_weights_is_refused(checkpoint, tmp_path, changes, words):
    wrong = _with_config(checkpoint, tmp_path, **changes)
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(wrong)
    msg = str(e.value)
    assert str(wrong) in msg and all(w in msg for w in words), msg


def test_eval_bpb_on_a_wrong_config_exits_2_without_traceback(checkpoint, tmp_path, capsys):
    wrong = _with_config(checkpoint, tmp_path, n_layers=4)
    assert main(["eval", "bpb", "--checkpoint", str(wrong), "--json"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and "missing tensors" in err and "Traceback" not in err
