"""`hybrid draft` / `hybrid rank` on a tiny random checkpoint: every bad input exits 2 naming the
field or argument with nothing written, a good run writes one file per draft plus drafts.json and
prints the documented JSON, the same seed gives the same drafts, and --force is required to
write into a non-empty directory."""

import json

import docx
import pytest

from hybrid.cli.main import main
from hybrid.common.outcheck import shown
from hybrid.common.outdir import is_bookkeeping
from hybrid.templates.template import TEMPLATES_DIR


@pytest.fixture(scope="module")
def checkpoint(tiny_model, tokenizer, tmp_path_factory):
    from hybrid.train.loop import save_checkpoint

    path = tmp_path_factory.mktemp("ckpt") / "tiny"
    save_checkpoint(path, tiny_model, tokenizer, {"step": 0, "params": tiny_model.num_params()}, None)
    return path


@pytest.fixture(scope="module")
def small_template(tmp_path_factory):
    """mutual-nda cut to its 5-section outline with short clauses: a fast tiny-model fill."""
    data = json.loads((TEMPLATES_DIR / "mutual-nda.json").read_text())
    data["id"] = "small-nda"
    sections = data["outline_schema"]["properties"]["sections"]
    sections["anyOf"] = sections["anyOf"][:1]
    for spec in data["clauses"].values():
        # short clauses; a clause that states a field keeps its frame (a required field term needs one:
        # hybrid.templates.frames), and the room the frame needs (tests/templates/test_template_rules.py)
        if not spec.get("frame"):
            spec["budget"] = 32
    path = tmp_path_factory.mktemp("tpl") / "small-nda.json"
    path.write_text(json.dumps(data))
    return path


def _run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


BAD = [
    # (argv after the template, words the message must contain)
    ([], ["no fields given", "--field", "--example"]),
    (["--field", "party_a=Acme Inc."], ["missing required field", "party_b"]),
    (["--example", "--field", "colour=blue"], ["unknown field", "colour"]),
    (["--example", "--field", "effective_date=yesterday"], ["effective_date"]),
    # ranges: the DraftRequest's (tests/cli/test_cli.py, tests/draft/test_request.py)
    (["--example", "-n", "0"], ["-n: must be an integer in [1, 64]", "got 0."]),
    (["--example", "-n", "65"], ["-n: must be an integer in [1, 64]", "got 65."]),
    (["--example", "--steps", "0"], ["--steps: must be", "got 0."]),
    (["--example", "--guidance", "-1"], ["--guidance: must be a finite number >= 0", "got -1.0"]),
    (["--example", "--temperature", "-1"], ["--temperature: must be"]),
    (["--example", "--top-p", "2"], ["--top-p: must be in (0, 1]", "got 2.0"]),
    (["--fields-file", "{missing}"], ["cannot read fields file", "missing.json"]),
    (["--fields-file", "{notjson}"], ["not valid JSON", "bad.json"]),
    (["--example", "--checkpoint", "{missing}"], ["checkpoint directory not found", "missing.json"]),
]


@pytest.mark.parametrize("args,words", BAD)
def test_bad_input_exits_2_naming_it_and_writes_nothing(capsys, tmp_path, small_template, args, words):
    (tmp_path / "bad.json").write_text("{not json")
    args = [a.format(missing=tmp_path / "missing.json", notjson=tmp_path / "bad.json") for a in args]
    out = tmp_path / "out"
    code, stdout, err = _run(capsys, "draft", small_template, *args, "--out", out)
    assert code == 2 and stdout == ""
    msg = err.strip().splitlines()[-1]
    assert msg.startswith("hybrid: error: ") and all(w in msg for w in words), msg
    assert not out.exists()


def test_unknown_template_suggests_the_closest_ids(capsys, tmp_path):
    code, _, err = _run(capsys, "draft", "mutual-ndaa", "--example", "--out", tmp_path / "out")
    assert code == 2 and "unknown template 'mutual-ndaa'" in err and "Closest: mutual-nda" in err
    assert not (tmp_path / "out").exists()


def test_out_must_not_be_a_file_or_a_non_empty_directory(capsys, tmp_path, small_template):
    f = tmp_path / "file.txt"
    f.write_text("keep me")
    code, _, err = _run(capsys, "draft", small_template, "--example", "--out", f)
    assert code == 2 and f"--out {shown(f)} is an existing file" in err and f.read_text() == "keep me"
    d = tmp_path / "full"
    d.mkdir()
    (d / "notes.txt").write_text("mine")
    code, _, err = _run(capsys, "draft", small_template, "--example", "--out", d)
    assert code == 2 and "not empty" in err and "--force" in err and [p.name for p in d.iterdir()] == ["notes.txt"]


@pytest.fixture(scope="module")
def first_run(checkpoint, small_template, tmp_path_factory):
    out = tmp_path_factory.mktemp("run") / "drafts"
    argv = [
        "draft",
        str(small_template),
        "--example",
        "-n",
        "3",
        "--steps",
        "2",
        "--seed",
        "7",
        "--json",
        "--out",
        str(out),
        "--checkpoint",
        str(checkpoint),
    ]
    return argv, out


def test_draft_writes_files_and_prints_the_documented_json(capsys, first_run, small_template):
    argv, out = first_run
    code, stdout, err = _run(capsys, *argv)
    assert code == 0, err
    result = json.loads(stdout)
    rows = result["drafts"]
    assert [r["rank"] for r in rows] == [1, 2, 3]
    assert [r["score"] for r in rows] == sorted((r["score"] for r in rows), reverse=True)
    for r in rows:
        assert set(r) == {"rank", "score", "scores", "text", "path"} and r["scores"]["total"] == r["score"]
        assert (out / f"draft-{r['rank']}.md").read_text().startswith("# ") and r["path"] == str(
            out / f"draft-{r['rank']}.md"
        )
    assert "fill" in err and "outline" in err  # progress went to stderr
    report = json.loads((out / "drafts.json").read_text())
    assert (
        report["template"] == "small-nda"
        and report["seed"] == 7
        and report["fields"]["party_a"] == "Acme Robotics, Inc."
    )
    # each variant starts from a whole base of the kind: the outline is its sections (variant 0's), all of them
    assert report["outline"] == result["outline"] and len(report["outline"]["sections"]) >= 6
    assert all(d["base"]["kind"] in ("form", "precedent") and d["market_check"]["total"] for d in report["drafts"])
    assert report["settings"] == {
        "n": 3,
        "steps": 2,
        "guidance": report["settings"]["guidance"],
        "temperature": 0.8,
        "top_p": 0.95,
        "format": "md",
        "filler": "diffusion",
        "headings": "template",
        "precedents": 1,
        "precedent_guidance": 0.0,
        "precedent_start": 0.0,
        "precedent_note": None,
        "base": True,
        "precision": "fp32",
        "commit": "runs",
        "threads": 1,
    }
    # explicit and recorded: by default each section edits a precedent (at t = 0, so the run rule commits);
    # "auto" precision is fp32 on any CPU
    assert report["model"]["path"] == argv[-1] and report["model"]["params"] > 0
    assert set(report["timings"]) == {"load", "plan", "precedents", "fill", "revise", "rank", "total"}
    assert [(d["rank"], d["score"], d["scores"], d["path"]) for d in report["drafts"]] == [
        (r["rank"], r["score"], r["scores"], r["path"]) for r in rows
    ]
    assert sorted(p.name for p in out.iterdir()) == [
        ".hybrid-files.json",
        "draft-1.md",
        "draft-2.md",
        "draft-3.md",
        "drafts.json",
    ]

    # same seed, same drafts; the now non-empty --out needs --force
    code, _, err = _run(capsys, *argv)
    assert code == 2 and "--force" in err
    code, stdout, _ = _run(capsys, *argv, "--force")
    assert code == 0 and [r["text"] for r in json.loads(stdout)["drafts"]] == [r["text"] for r in rows]


def _listing(out):
    return sorted(p.name for p in out.iterdir() if not is_bookkeeping(p.name))


def test_force_replaces_the_earlier_set_as_a_whole_and_keeps_other_files(capsys, checkpoint, small_template, tmp_path):
    out = tmp_path / "o"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    (out / "draft-9.md").write_text("not written by hybrid")
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
    assert code == 0, err
    assert _listing(out) == ["draft-1.md", "draft-2.md", "draft-3.md", "draft-9.md", "drafts.json", "notes.txt"]
    assert json.loads((out / "drafts.json").read_text())["files"] == [
        "draft-1.md",
        "draft-2.md",
        "draft-3.md",
        "drafts.json",
    ]
    code, _, err = _run(
        capsys,
        "draft",
        small_template,
        "--example",
        "-n",
        "2",
        "--steps",
        "1",
        "--format",
        "docx",
        "--out",
        out,
        "--force",
        "--checkpoint",
        checkpoint,
    )
    assert code == 0, err
    # the previous run's three .md drafts are replaced by this run's set; files hybrid did not write stay
    assert _listing(out) == ["draft-1.docx", "draft-2.docx", "draft-9.md", "drafts.json", "notes.txt"]
    assert (out / "notes.txt").read_text() == "mine" and (out / "draft-9.md").read_text() == "not written by hybrid"
    heads = [p for p in docx.Document(str(out / "draft-1.docx")).paragraphs if p.style.name == "Heading 1"]
    report = json.loads((out / "drafts.json").read_text())
    assert len(heads) == len(report["drafts"][0]["precedents"]) >= 6  # a heading per section of its base


def _candidates(tmp_path, lines):
    p = tmp_path / "c.jsonl"
    p.write_text("\n".join(lines) + "\n")
    return p


def test_rank_prints_candidates_best_first(capsys, checkpoint, tmp_path):
    texts = [
        "Payment is due in thirty days.",
        "This Agreement is governed by Delaware law.",
        "Notices must be in writing.",
    ]
    path = _candidates(tmp_path, [json.dumps({"text": t}) for t in texts])
    code, stdout, err = _run(
        capsys, "rank", "--spec", "Governing Law", "--candidates", path, "--json", "--checkpoint", checkpoint
    )
    assert code == 0, err
    result = json.loads(stdout)
    rows = result["candidates"]
    assert sorted(r["index"] for r in rows) == [0, 1, 2] and [r["rank"] for r in rows] == [1, 2, 3]
    assert [r["score"] for r in rows] == sorted((r["score"] for r in rows), reverse=True)
    assert all(r["text"] == texts[r["index"]] for r in rows)
    from hybrid.precedents.relevance import (
        DEFAULT_WEIGHTS,  # the score is hybrid.precedents.relevance's: the label and the parts say so
    )

    assert result["metric"] == "relevance" and result["formula"] == DEFAULT_WEIGHTS.formula()
    parts = {"bm25", "dense", "feedback", "type", "coverage", "pieces", "best_piece", "pmi"}
    assert all(set(r["scores"]) == parts for r in rows)


@pytest.mark.parametrize(
    "lines,words",
    [
        (['{"text": "ok"}', "{oops"], ["line 2", "not valid JSON"]),
        (['{"body": "x"}'], ["line 1", '"text"']),
        ([], ["no candidates"]),
        (['{"text": "ok"}', '{"text": ""}'], ["line 2", 'empty "text"']),
        (['{"text": " \\n\\t "}'], ["line 1", 'empty "text"']),
    ],
)
def test_rank_bad_candidates_exit_2(capsys, checkpoint, tmp_path, lines, words):
    path = _candidates(tmp_path, lines)
    code, stdout, err = _run(capsys, "rank", "--spec", "Payment", "--candidates", path, "--checkpoint", checkpoint)
    assert code == 2 and stdout == "" and all(w in err for w in words), err


def test_the_cli_shows_the_drafters_progress_counts(capsys):
    """The drafter's "progress" events (library build, precedents, rank, in counts) get a bar each on stderr; the
    CLI had no handler for them and every draft stopped with an AttributeError."""
    from hybrid.cli.draft_run import _Progress
    from hybrid.draft.result import DraftEvent

    progress = _Progress()
    for step in (0, 1, 2):
        progress.progress(DraftEvent("progress", 0.0, text="precedents", step=step, steps=2))
    progress.close()
    assert "precedents" in capsys.readouterr().err and progress.phase_bars["precedents"].n == 2
