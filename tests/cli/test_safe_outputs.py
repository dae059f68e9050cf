"""Nothing lost, nothing half-written, through the CLI: `draft`, `train` and `eval run` check --out
before any work, never write over or remove files they did not create, keep a second run out of a
directory in use, and `--resume` recovers from a checkpoint save that was interrupted."""

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from hybrid.cli.main import main
from hybrid.common.config import TrainConfig
from hybrid.common.outcheck import shown
from hybrid.common.outdir import JOURNAL_NAME, FileSet, OutputLock, is_bookkeeping
from hybrid.train.loop import STATE_FILE, load_checkpoint, save_checkpoint, train

from conftest import CORPUS
from test_cli_draft import checkpoint, small_template  # noqa: F401  (fixtures: a tiny checkpoint, a fast 5-section NDA)

TINY = dict(corpus=str(CORPUS), vocab_size=400, d_model=32, n_layers=1, n_heads=2, seq_len=64, stride=48,
            batch_size=4, warmup_steps=2, eval_every=3, eval_windows=8, limit_docs=3, threads=1)
TRAIN_ARGS = [
    "--vocab-size",
    "400",
    "--d-model",
    "32",
    "--n-layers",
    "1",
    "--n-heads",
    "2",
    "--seq-len",
    "64",
    "--stride",
    "48",
    "--batch-size",
    "4",
    "--warmup-steps",
    "2",
    "--eval-every",
    "3",
    "--eval-windows",
    "8",
    "--limit-docs",
    "3",
    "--threads",
    "1",
    "--corpus",
    str(CORPUS),
]


def _run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _snapshot(root):
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else os.readlink(p) if p.is_symlink() else None)
            for p in sorted(root.rglob("*"))}


def _one_line_error(err: str, *words) -> str:
    lines = err.strip().splitlines()
    assert "Traceback" not in err and lines and lines[-1].startswith("hybrid: error: "), err
    assert all(w in lines[-1] for w in words), lines[-1]
    return lines[-1]


# --- draft -----------------------------------------------------------------------------------

@pytest.mark.parametrize("where,words", [
    ("parent_is_file", ["is a file, not a directory"]),
    ("proc", ["cannot be created", "not writable"]),
    ("dot", ["not empty", "--force"]),
])
def test_draft_to_an_unusable_out_fails_fast_before_drafting(
    capsys, tmp_path, small_template, checkpoint, monkeypatch, where, words
):
    (tmp_path / "f").write_text("keep")
    out = {"parent_is_file": tmp_path / "f" / "drafts", "proc": "/proc/hybrid-drafts", "dot": "."}[where]
    monkeypatch.chdir(tmp_path)
    before = _snapshot(tmp_path)
    t0 = time.perf_counter()
    code, stdout, err = _run(capsys, "draft", small_template, "--example", "--out", out, "--checkpoint", checkpoint)
    assert code == 2 and stdout == "" and time.perf_counter() - t0 < 10
    _one_line_error(err, *words)
    assert "drafting" not in err  # refused before the model loaded
    assert _snapshot(tmp_path) == before


def test_a_second_draft_into_an_out_in_use_exits_2_naming_the_holder(capsys, tmp_path, small_template, checkpoint):
    out = tmp_path / "busy"
    with OutputLock(out):  # another run is drafting here
        code, _, err = _run(capsys, "draft", small_template, "--example", "--out", out, "--checkpoint", checkpoint)
        _one_line_error(err, "in use by another run", f"pid {os.getpid()}")
        assert code == 2 and [p.name for p in out.iterdir()] == [".hybrid.lock"]
    code, _, err = _run(
        capsys,
        "draft",
        small_template,
        "--example",
        "-n",
        "2",
        "--steps",
        "1",
        "--out",
        out,
        "--checkpoint",
        checkpoint,
    )
    assert code == 0, err


class _Killed(BaseException):
    """SIGKILL, in process: nothing after it runs (FileSet's cleanup included)."""


def _killed_commit(monkeypatch, out, files: dict, moves: int) -> None:
    """An owned commit of `files` into `out` (as `draft --force` makes it) killed after `moves` of its
    moves: the journal written, some new files in place beside the old ones."""
    from hybrid.cli.draft import previous_set
    from hybrid.common import outdir

    real, done = os.replace, []

    def replace_then_die(src, dst):
        if Path(dst).parent == out and Path(dst).name != JOURNAL_NAME:  # a move of the set into place
            if len(done) == moves:
                raise _Killed
            done.append(dst)
        real(src, dst)

    fs = outdir.FileSet(out, owned=True)
    for name, text in files.items():
        fs.path(name).write_text(text)
    monkeypatch.setattr(outdir.os, "replace", replace_then_die)
    with pytest.raises(_Killed):
        fs.commit(remove=previous_set(out))
    monkeypatch.setattr(outdir.os, "replace", real)
    assert (out / JOURNAL_NAME).is_file()


KILLED_SET = {
    "draft-1.md": "killed run 1",
    "draft-2.md": "killed run 2",
    "drafts.json": json.dumps({"files": ["draft-1.md", "draft-2.md", "drafts.json"]}),
}


def test_a_draft_run_completes_an_interrupted_write_before_its_own(
    capsys, tmp_path, small_template, checkpoint, monkeypatch
):
    out = tmp_path / "o"
    code, _, err = _run(
        capsys,
        "draft",
        small_template,
        "--example",
        "-n",
        "2",
        "--steps",
        "1",
        "--out",
        out,
        "--checkpoint",
        checkpoint,
    )
    assert code == 0, err
    _killed_commit(monkeypatch, out, KILLED_SET, moves=1)  # a --force run killed mid-commit
    assert (out / "draft-1.md").read_text() == "killed run 1" and (out / "draft-2.md").read_text() != "killed run 2"
    code, _, err = _run(
        capsys,
        "draft",
        small_template,
        "--example",
        "-n",
        "3",
        "--steps",
        "1",
        "--out",
        out,
        "--force",
        "--checkpoint",
        checkpoint,
    )
    assert code == 0 and "completed an interrupted write" in err, err
    assert sorted(p.name for p in out.iterdir() if not is_bookkeeping(p.name)) == [
        "draft-1.md",
        "draft-2.md",
        "draft-3.md",
        "drafts.json",
    ]
    assert (out / "draft-1.md").read_text() != "killed run 1"


def test_a_plain_run_completes_an_interrupted_write_and_says_so(
    capsys, tmp_path, small_template, checkpoint, monkeypatch
):
    """Issue 29 #9: without --force the next run used to stop at "not empty", leaving the mix of two sets."""
    out = tmp_path / "o"
    code, _, err = _run(
        capsys,
        "draft",
        small_template,
        "--example",
        "-n",
        "2",
        "--steps",
        "1",
        "--out",
        out,
        "--checkpoint",
        checkpoint,
    )
    assert code == 0, err
    _killed_commit(monkeypatch, out, KILLED_SET, moves=1)
    code, stdout, err = _run(
        capsys, "draft", small_template, "--example", "-n", "2", "--out", out, "--checkpoint", checkpoint
    )
    assert code == 2 and stdout == ""
    _one_line_error(err, "not empty", "interrupted run", "completed now", "--force")
    assert "drafting" not in err  # the model never loaded
    assert {p.name: p.read_text() for p in out.iterdir() if p.is_file()} == {
        **KILLED_SET,
        ".hybrid-files.json": (out / ".hybrid-files.json").read_text(),
    }
    assert not (out / JOURNAL_NAME).exists() and not list(out.glob(".stage-*"))


def test_force_never_replaces_a_file_hybrid_did_not_write(capsys, tmp_path, small_template, checkpoint):
    """Issue 29 #1: a user's draft-2.md beside a 1-draft set, or a name added to drafts.json by hand."""
    out = tmp_path / "o"
    code, _, err = _run(
        capsys,
        "draft",
        small_template,
        "--example",
        "-n",
        "1",
        "--steps",
        "1",
        "--out",
        out,
        "--checkpoint",
        checkpoint,
    )
    assert code == 0, err
    (out / "draft-2.md").write_text("the user's own draft")
    before = _snapshot(out)
    code, _, err = _run(
        capsys,
        "draft",
        small_template,
        "--example",
        "-n",
        "2",
        "--steps",
        "1",
        "--out",
        out,
        "--force",
        "--checkpoint",
        checkpoint,
    )
    assert code == 2
    _one_line_error(err, shown(out / "draft-2.md"), "not a file hybrid wrote")
    assert "drafting" not in err and _snapshot(out) == before  # refused before the model loaded


def test_force_ignores_names_added_to_drafts_json_by_hand(capsys, tmp_path, small_template, checkpoint):
    out = tmp_path / "o"
    code, _, err = _run(
        capsys,
        "draft",
        small_template,
        "--example",
        "-n",
        "1",
        "--steps",
        "1",
        "--out",
        out,
        "--checkpoint",
        checkpoint,
    )
    assert code == 0, err
    (out / "notes.txt").write_text("mine")
    report = json.loads((out / "drafts.json").read_text())
    report["files"].append("notes.txt")
    (out / "drafts.json").write_text(json.dumps(report))
    before = _snapshot(out)
    code, _, err = _run(
        capsys,
        "draft",
        small_template,
        "--example",
        "-n",
        "1",
        "--steps",
        "1",
        "--out",
        out,
        "--force",
        "--checkpoint",
        checkpoint,
    )
    assert code == 2  # drafts.json is not the one hybrid wrote: it is neither trusted nor replaced
    _one_line_error(err, shown(out / "drafts.json"), "changed since")
    assert _snapshot(out) == before
    (out / "drafts.json").unlink()  # the user moves their edit away: --force replaces the set and keeps notes.txt
    code, _, err = _run(
        capsys,
        "draft",
        small_template,
        "--example",
        "-n",
        "1",
        "--steps",
        "1",
        "--out",
        out,
        "--force",
        "--checkpoint",
        checkpoint,
    )
    assert code == 0, err
    assert (out / "notes.txt").read_text() == "mine" and (out / "drafts.json").is_file()


# --- every command that writes: --out paths that cannot be a directory (issue 29 #3, #10) --------

BAD_OUTS = [
    # (what --out is, words the one-line message must hold)
    ("loop", ["--out loop", "a symlink loop"]),
    ("loop/sub", ["--out loop/sub", "a symlink loop"]),
    ("dangling", ["--out dangling is a symlink to nowhere, which does not exist"]),
    ("dangling/sub", ["--out dangling/sub: dangling is a symlink to nowhere"]),
    ("x" * 300, ["(300 characters)", "File name too long"]),
    ("new/" + "y" * 300, ["the name yyyy", "300 bytes, over the 255"]),
    ("", ["--out", "must name a directory, got ''"]),
]  # fmt: skip
COMMANDS = {
    "draft": lambda tpl, ck: ["draft", tpl, "--example", "--checkpoint", ck],
    "train": lambda tpl, ck: ["train", "--max-steps", "1", *TRAIN_ARGS],
    "eval run": lambda tpl, ck: [
        "eval",
        "run",
        "--systems",
        "hybrid",
        "--limit",
        "1",
        "--no-mauve",
        "--checkpoint",
        ck,
    ],
}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("out, words", BAD_OUTS)
def test_an_out_that_cannot_be_a_directory_exits_2_before_any_work(
    capsys, tmp_path, monkeypatch, small_template, checkpoint, command, out, words
):
    monkeypatch.chdir(tmp_path)
    os.symlink("loop", "loop")
    os.symlink("nowhere", "dangling")
    before = _snapshot(tmp_path)
    t0 = time.perf_counter()
    code, stdout, err = _run(capsys, *COMMANDS[command](small_template, checkpoint), "--out", out)
    assert code == 2 and stdout == "" and time.perf_counter() - t0 < 10, err
    msg = _one_line_error(err, *words)
    assert len(msg) < 400 and "drafting" not in err
    assert _snapshot(tmp_path) == before and sorted(os.listdir(tmp_path)) == ["dangling", "loop"]


# --- train -----------------------------------------------------------------------------------

def test_train_never_writes_into_a_directory_of_other_files(capsys, tmp_path):
    out = tmp_path / "checkpoints"
    (out / "hybrid-small").mkdir(parents=True)
    (out / "hybrid-small" / "model.safetensors").write_bytes(b"shipped")
    (out / "notes.txt").write_text("mine")
    before = _snapshot(tmp_path)
    code, _, err = _run(capsys, "train", "--out", out, "--max-steps", "1", *TRAIN_ARGS)
    assert code == 2
    _one_line_error(err, f"--out {out}", "holds no checkpoint", "hybrid-small", "notes.txt")
    assert _snapshot(tmp_path) == before


def test_train_out_that_is_a_file_or_unwritable_exits_2(capsys, tmp_path):
    f = tmp_path / "file"
    f.write_text("keep")
    for out, words in ((f, ["is an existing file"]), ("/proc/hybrid-train", ["not writable"])):
        code, _, err = _run(capsys, "train", "--out", out, "--max-steps", "1", *TRAIN_ARGS)
        assert code == 2
        _one_line_error(err, shown(out), *words)
    assert f.read_text() == "keep"


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    out = tmp_path_factory.mktemp("ck") / "model"
    train(TrainConfig(out=str(out), max_steps=3, **TINY), log=lambda m: None)
    return out


def test_resume_completes_a_checkpoint_save_killed_mid_commit(trained, tmp_path):
    out = tmp_path / "model"
    shutil.copytree(trained, out)
    # killed after the journal: the new weights are in place, the new state is still staged
    stage = out / ".stage-4242"
    stage.mkdir()
    state = (out / STATE_FILE).read_bytes()
    (stage / STATE_FILE).write_bytes(state)
    (out / STATE_FILE).unlink()
    (out / JOURNAL_NAME).write_text(json.dumps({"stage": stage.name, "files": [STATE_FILE], "remove": []}))
    record = train(TrainConfig(out=str(out), max_steps=6, **TINY), resume=True, log=lambda m: None)
    assert record["step"] == 6 and not (out / JOURNAL_NAME).exists() and not stage.exists()


def test_resume_recovers_a_checkpoint_left_aside_by_an_older_save(trained, tmp_path):
    out = tmp_path / "model"
    shutil.copytree(trained, tmp_path / "model.old-123")  # older saves renamed the checkpoint aside, then crashed
    (tmp_path / "model.tmp-123").mkdir()  # ... with the new one unfinished
    record = train(TrainConfig(out=str(out), max_steps=6, **TINY), resume=True, log=lambda m: None)
    assert record["step"] == 6 and (out / STATE_FILE).is_file() and not (tmp_path / "model.old-123").exists()


def test_a_save_never_removes_other_files_of_the_checkpoint_dir(trained, tmp_path):
    out = tmp_path / "model"
    shutil.copytree(trained, out)
    (out / "README.md").write_text("my notes")
    model, tok, record = load_checkpoint(out)
    save_checkpoint(out, model, tok, record, None)
    assert (out / "README.md").read_text() == "my notes" and not (out / STATE_FILE).exists()
    assert sorted(p.name for p in out.iterdir() if p.name.startswith(".")) == []


def test_a_failed_save_leaves_the_previous_checkpoint_whole(trained, tmp_path, monkeypatch):
    out = tmp_path / "model"
    shutil.copytree(trained, out)
    before = _snapshot(out)
    model, tok, record = load_checkpoint(out)

    def disk_full(self, remove=()):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(FileSet, "commit", disk_full)
    with pytest.raises(OSError):
        save_checkpoint(out, model, tok, record, {"step": 99})
    assert _snapshot(out) == before


@pytest.mark.parametrize("content", [b"", b"not a torch file", None])
def test_resume_from_a_damaged_training_state_exits_2(capsys, trained, tmp_path, content):
    import torch

    out = tmp_path / "model"
    shutil.copytree(trained, out)
    if content is None:
        torch.save({"step": 3}, out / STATE_FILE)  # a torch file, but not a training state
    else:
        (out / STATE_FILE).write_bytes(content)
    args = [
        "train",
        "--resume",
        "--out",
        out,
        "--max-steps",
        "6",
        "--vocab-size",
        "400",
        "--d-model",
        "32",
        "--n-layers",
        "1",
        "--n-heads",
        "2",
        "--seq-len",
        "64",
        "--stride",
        "48",
        "--batch-size",
        "4",
        "--warmup-steps",
        "2",
        "--eval-every",
        "3",
        "--eval-windows",
        "8",
        "--limit-docs",
        "3",
        "--threads",
        "1",
        "--corpus",
        str(CORPUS),
    ]
    code, _, err = _run(capsys, *args)
    assert code == 2
    _one_line_error(err, str(out / STATE_FILE), "damaged")
