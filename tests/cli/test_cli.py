"""hybrid.cli.main parsing: every numeric option of every command is range-checked at parse time (exit 2,
one line naming the option, the range and the value, nothing loaded), every command that computes
takes --threads, and the help texts say what the code does."""

import re

import pytest
import torch

from hybrid.cli.main import build_parser, main
from hybrid.common.config import TrainConfig
from hybrid.common.options import DEFAULT_THREADS

TOO_BIG_SEED = str(2**64)

BAD = [
    # (command line, option, allowed range as printed, value as printed)
    (["train", "--vocab-size", "263"], "--vocab-size", "[264, 1048576]", "'263'"),
    (["train", "--batch-size", "0"], "--batch-size", "[1, 65536]", "'0'"),
    (["train", "--lr", "0"], "--lr", "(0, 1)", "'0'"),
    (["train", "--dropout", "1"], "--dropout", "[0, 1)", "'1'"),
    (["train", "--max-minutes", "nan"], "--max-minutes", "a finite number", "'nan'"),
    (["train", "--seed", str(2**32)], "--seed", "[0, 4294967295]", f"'{2**32}'"),
    (["train", "--threads", "-1"], "--threads", "[0, 1024]", "'-1'"),
    (["eval", "bpb", "--draws", "-3"], "--draws", "[1, 1024]", "'-3'"),
    (["eval", "bpb", "--draws", "0"], "--draws", "[1, 1024]", "'0'"),
    (["eval", "bpb", "--limit", "-1"], "--limit/--limit-docs", ">= 0", "'-1'"),
    (["eval", "bpb", "--threads", "two"], "--threads", "[0, 1024]", "'two'"),
    (["eval", "run", "--n-variants", "65"], "--n-variants", "[1, 64]", "'65'"),
    (["eval", "run", "--limit", "-1"], "--limit", ">= 0", "'-1'"),
    (["eval", "run", "--max-sections", "-2"], "--max-sections", ">= 0", "'-2'"),
    (["eval", "run", "--seed", TOO_BIG_SEED], "--seed", "[0, 18446744073709551615]", TOO_BIG_SEED),
    (["plan", "mutual-nda", "--seed", TOO_BIG_SEED], "--seed", "[0, 18446744073709551615]", TOO_BIG_SEED),
    (["plan", "mutual-nda", "--top-p", "0"], "--top-p", "(0, 1]", "'0'"),
    (["plan", "mutual-nda", "--temperature", "nan"], "--temperature", ">= 0", "'nan'"),
    (["plan", "mutual-nda", "--top-k", "-1"], "--top-k", "[0, 1048576]", "'-1'"),
    (["plan", "mutual-nda", "--max-tokens", "5000"], "--max-tokens", "[1, 4096]", "'5000'"),
    # `hybrid draft`'s request options: checked by the DraftRequest they make (hybrid.draft.request), in its words
    (["draft", "mutual-nda", "-n", "0"], "-n", "[1, 64]", "got 0."),
    (["draft", "mutual-nda", "-n", "65"], "-n", "[1, 64]", "got 65."),
    (["draft", "mutual-nda", "--steps", "0"], "--steps", "[1, 65536]", "got 0."),
    (["draft", "mutual-nda", "--guidance", "inf"], "--guidance", ">= 0", "got inf."),
    (["draft", "mutual-nda", "--seed", "-1"], "--seed", "[0, 18446744073709551615]", "got -1."),
    (["draft", "mutual-nda", "--top-p", "2"], "--top-p", "(0, 1]", "got 2.0."),
    (["rank", "--spec", "Term", "--candidates", "c.jsonl", "--threads", "-1"], "--threads", "[0, 1024]", "'-1'"),
    (["precedents", "governing_law", "--variant", "-1"], "--variant", "[0, 1048576]", "'-1'"),
    (["precedents", "governing_law", "--seed", TOO_BIG_SEED], "--seed", "[0, 18446744073709551615]", TOO_BIG_SEED),
]


@pytest.mark.parametrize("argv,option,allowed,value", BAD, ids=[" ".join(b[0][:3]) for b in BAD])
def test_an_out_of_range_option_exits_2_with_one_line_naming_it(capsys, tmp_path, argv, option, allowed, value):
    code = main(argv + ["--out", str(tmp_path / "out")] if argv[0] in ("train", "draft") else argv)
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"hybrid: error: argument {option}: must be ") and allowed in err and value in err, err
    assert not (tmp_path / "out").exists()


def test_every_numeric_train_field_has_a_range():
    numeric = [n for n in TrainConfig.field_names() if type(getattr(TrainConfig(), n)) in (int, float)]
    assert sorted(numeric) == sorted(TrainConfig.ranges())


COMPUTING = [
    ["draft", "mutual-nda"],
    ["plan", "mutual-nda"],
    ["rank", "--spec", "Term", "--candidates", "c.jsonl"],
    ["eval", "bpb"],
    ["eval", "run"],
]


@pytest.mark.parametrize("argv", COMPUTING, ids=[" ".join(a[:2]) for a in COMPUTING])
def test_every_command_that_computes_takes_threads_defaulting_to_one(argv):
    parser = build_parser()
    assert parser.parse_args(argv).threads == DEFAULT_THREADS == 1
    assert parser.parse_args(argv + ["--threads", "0"]).threads == 0


def test_train_threads_default_to_the_config_default():
    assert build_parser().parse_args(["train", "--threads", "2"]).threads == 2
    assert TrainConfig().threads == DEFAULT_THREADS


def test_threads_are_set_before_the_command_runs(capsys, tmp_path):
    before = torch.get_num_threads()
    try:
        code = main(["rank", "--spec", "Term", "--candidates", str(tmp_path / "missing.jsonl"), "--threads", "3"])
        assert code == 2 and "cannot read --candidates" in capsys.readouterr().err
        assert torch.get_num_threads() == 3
    finally:
        torch.set_num_threads(before)


def _help(capsys, *argv) -> str:
    assert main([*argv, "-h"]) == 0
    return capsys.readouterr().out


def test_draft_help_shows_the_fillers_step_and_guidance_defaults(capsys):
    from hybrid.fill.diffusion.sampler import DEFAULT_GUIDANCE, DEFAULT_STEPS

    text = " ".join(_help(capsys, "draft").split())
    steps, guidance = (
        re.search(rf" {opt} (.*?) (?=--[a-z])", text).group(1) for opt in ("--steps STEPS", "--guidance GUIDANCE")
    )
    assert steps.endswith(f"(default: {DEFAULT_STEPS})") and guidance.endswith(f"(default: {DEFAULT_GUIDANCE:g})")


def test_eval_help_names_both_subcommands(capsys):
    text = _help(capsys, "eval")
    assert "eval bpb" in text and "eval run" in text


def test_train_help_cites_no_file_missing_from_the_repo(capsys):
    assert "DESIGN.md" not in _help(capsys, "train")


LAYERING = """
import sys
import hybrid.cli.main
hybrid.cli.main.build_parser(["draft"])
import hybrid.draft.drafter, hybrid.cli.plan, hybrid.plan.planner
bad = sorted(m for m in sys.modules if m.startswith("evals") or m == "hybrid.train.loop")
print(",".join(bad))
"""


def test_drafting_imports_neither_training_nor_the_harness():
    import subprocess
    import sys
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", LAYERING], cwd=repo, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "", f"drafting pulled in {out.stdout.strip()}"


def test_eval_run_is_built_only_for_the_eval_command():
    sub = next(a for a in build_parser(["eval"])._actions if a.dest == "command").choices["eval"]
    runs = next(a for a in sub._actions if a.dest == "eval_command").choices
    assert "run" in runs and "bpb" in runs
    sub = next(a for a in build_parser(["draft"])._actions if a.dest == "command").choices["eval"]
    assert "run" not in next(a for a in sub._actions if a.dest == "eval_command").choices


@pytest.mark.parametrize("argv, words", [
    (["eval", "bpb", "--split", "nonsense"],
     ["argument --split: invalid choice: 'nonsense'", "'train', 'val', 'test'"]),
    (["eval", "run", "--split", "nonsense"], ["argument --split: invalid choice: 'nonsense'"]),
    (["draft", "mutual-nda", "--example", "--out", ""], ["argument --out: must name a directory, got ''"]),
    (["eval", "run", "--out", ""], ["argument --out: must name a directory, got ''"]),
    (["train", "--out", "", "--max-steps", "1"], ["out (--out) must name a directory, got ''"]),
])  # fmt: skip
def test_a_bad_split_or_an_empty_out_is_refused_before_any_model_loads(capsys, argv, words):
    """Issue 29 #10: the split was refused only after the model loaded; --out "" wrote to the default directory."""
    code = main([*argv, "--checkpoint" if argv[0] != "train" else "--corpus", "/nonexistent"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and all(w in err for w in words), err
