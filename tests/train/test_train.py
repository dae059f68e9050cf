"""A tiny real training run on a few corpus documents: losses, checkpoint, resume, bad input."""

import json

import pytest
import torch

from hybrid.cli.main import main
from hybrid.common.config import TrainConfig
from hybrid.common.errors import CheckpointError, ConfigError, CorpusError
from hybrid.train.loop import STATE_FILE, load_checkpoint, train

from conftest import CORPUS

TINY = dict(corpus=str(CORPUS), vocab_size=400, d_model=32, n_layers=1, n_heads=2, seq_len=64, stride=48,
            batch_size=4, warmup_steps=2, eval_every=3, eval_windows=8, limit_docs=3, threads=1)


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    out = tmp_path_factory.mktemp("ck") / "model"
    record = train(TrainConfig(out=str(out), max_steps=6, **TINY), log=lambda m: None)
    return out, record


def test_checkpoint_has_every_file_and_a_training_record(trained):
    out, record = trained
    for name in (
        "model.safetensors",
        "config.json",
        "tokenizer.json",
        "training_record.json",
        "ATTRIBUTION.md",
        STATE_FILE,
    ):
        assert (out / name).is_file(), name
    saved = json.loads((out / "training_record.json").read_text())
    assert saved["step"] == 6 and saved["tokens_seen"] > 0 and saved["wall_seconds"] > 0
    assert len(saved["curves"]["val_ar"]) == 2 and len(saved["curves"]["val_diff"]) == 2
    assert saved["config"]["d_model"] == 32


def test_losses_start_near_uniform_and_both_objectives_train(trained):
    _, record = trained
    curves = record["curves"]
    assert abs(curves["train_ar"][0] - torch.log(torch.tensor(400.0)).item()) < 1.0
    assert all(v > 0 for v in curves["train_diff"])


def test_load_checkpoint_restores_weights(trained):
    out, _ = trained
    model, tok, record = load_checkpoint(out)
    state = torch.load(out / STATE_FILE, weights_only=False)
    for k, v in model.state_dict().items():
        assert torch.equal(v, state["model"][k]), k
    assert tok.vocab_size == model.cfg.vocab_size


def test_resume_continues_step_count_and_curves(trained, tmp_path):
    out, _ = trained
    copy = tmp_path / "copy"
    import shutil

    shutil.copytree(out, copy)
    record = train(TrainConfig(out=str(copy), max_steps=9, **TINY), resume=True, log=lambda m: None)
    assert record["step"] == 9
    assert record["curves"]["val_step"] == [3, 6, 9]


def test_resume_with_a_different_config_names_the_field(trained, tmp_path):
    out, _ = trained
    with pytest.raises(CheckpointError, match="d_model"):
        train(TrainConfig(out=str(out), max_steps=9, **{**TINY, "d_model": 64}), resume=True, log=lambda m: None)


def test_training_into_an_existing_checkpoint_without_resume_refuses(trained):
    out, _ = trained
    before = (out / "model.safetensors").read_bytes()
    with pytest.raises(CheckpointError, match="--resume"):
        train(TrainConfig(out=str(out), max_steps=2, **TINY), log=lambda m: None)
    assert (out / "model.safetensors").read_bytes() == before


def test_missing_corpus_is_a_corpus_error(tmp_path):
    with pytest.raises(CorpusError, match=str(tmp_path / "nope")):
        train(
            TrainConfig(out=str(tmp_path / "o"), max_steps=1, **{**TINY, "corpus": str(tmp_path / "nope")}),
            log=lambda m: None,
        )


@pytest.mark.parametrize("missing", ["model.safetensors", "config.json", "tokenizer.json"])
def test_checkpoint_with_a_missing_file_names_it(trained, tmp_path, missing):
    import shutil

    copy = tmp_path / "c"
    shutil.copytree(trained[0], copy)
    (copy / missing).unlink()
    with pytest.raises(CheckpointError, match=missing):
        load_checkpoint(copy)


def test_corrupt_weights_are_a_checkpoint_error(trained, tmp_path):
    import shutil

    copy = tmp_path / "c"
    shutil.copytree(trained[0], copy)
    (copy / "model.safetensors").write_bytes(b"garbage")
    with pytest.raises(CheckpointError, match="model.safetensors"):
        load_checkpoint(copy)


def test_cli_eval_bpb_prints_one_json_line(trained, capsys):
    out, _ = trained
    rc = main(
        [
            "eval",
            "bpb",
            "--checkpoint",
            str(out),
            "--split",
            "val",
            "--limit",
            "1",
            "--draws",
            "1",
            "--corpus",
            str(CORPUS),
            "--json",
        ]
    )
    assert rc == 0
    line = capsys.readouterr().out.strip()
    result = json.loads(line)
    assert result["docs"] == 1 and result["bytes"] > 0
    assert 0 < result["ar_bpb"] < 20 and 0 < result["fill_bpb"] < 30


def test_cli_bad_checkpoint_exits_2_without_traceback(tmp_path, capsys):
    rc = main(["eval", "bpb", "--checkpoint", str(tmp_path / "missing"), "--json"])
    err = capsys.readouterr().err
    assert rc == 2 and "missing" in err and "Traceback" not in err


def test_cli_train_bad_value_exits_2(tmp_path, capsys):
    rc = main(["train", "--out", str(tmp_path / "x"), "--stride", "999", "--seq-len", "64"])
    assert rc == 2 and "stride" in capsys.readouterr().err


def test_config_rejects_bad_precision():
    with pytest.raises(ConfigError, match="precision"):
        TrainConfig(precision="fp8")


def _cli_flags(**cfg) -> list[str]:
    return [a for k, v in cfg.items() for a in (f"--{k.replace('_', '-')}", str(v))]


@pytest.mark.parametrize("damage", ['{"step": 6, "conf', "[1, 2]", b"\xff\xfe"])
def test_a_damaged_training_record_is_a_checkpoint_error_and_exit_2(trained, tmp_path, capsys, damage):
    import shutil

    copy = tmp_path / "c"
    shutil.copytree(trained[0], copy)
    record = copy / "training_record.json"
    record.write_bytes(damage if isinstance(damage, bytes) else damage.encode())
    with pytest.raises(CheckpointError, match="training_record.json"):
        load_checkpoint(copy)
    for argv in (
        ["eval", "bpb", "--checkpoint", str(copy)],
        ["train", "--out", str(copy), "--resume", *_cli_flags(**TINY)],
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert (
            err.startswith("hybrid: error: ") and len(err.strip().splitlines()) == 1 and f"damaged: {record}" in err
        ), err


def test_resuming_at_or_past_max_steps_prints_the_checkpoints_record(trained, tmp_path, capsys):
    import shutil

    copy = tmp_path / "c"
    shutil.copytree(trained[0], copy)
    saved = json.loads((copy / "training_record.json").read_text())
    assert main(["train", "--out", str(copy), "--resume", "--json", *_cli_flags(**{**TINY, "max_steps": 3})]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == {k: saved[k] for k in ("step", "tokens_seen", "wall_seconds", "tokens_per_second", "params")}
    assert printed["step"] == 6 and None not in printed.values()


def test_a_batch_larger_than_the_train_rows_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match=r"batch_size must be <= \d+ \(train rows per process\), got 60000"):
        train(TrainConfig(out=str(tmp_path / "m"), max_steps=1, **{**TINY, "batch_size": 60000}), log=lambda m: None)
    assert not (tmp_path / "m" / "model.safetensors").exists()


@pytest.mark.parametrize("vocab_size", [0, 100, 263])
def test_a_vocab_below_the_byte_alphabet_is_refused_not_raised(vocab_size):
    with pytest.raises(ConfigError, match=f"vocab_size must be an integer in \\[264, .*\\], got {vocab_size}"):
        TrainConfig(vocab_size=vocab_size)
