"""`hybrid eval run` end to end on tiny checkpoints trained here: JSON output, report, resume, determinism, bad
input."""

import json
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # evals/ is a top-level package of the repo
sys.path.insert(0, str(Path(__file__).resolve().parent))

from evals import runner  # noqa: E402
from evals.runner import SAMPLES, doc_seed, load_samples  # noqa: E402
from evals.systems import Engine  # noqa: E402
from hybrid.cli.main import main  # noqa: E402

from _tiny import make_checkpoints, make_corpus  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """A tiny corpus (test split: two one-section CUAD excerpts and one without sections) and two tiny models."""
    mp = pytest.MonkeyPatch()
    root = tmp_path_factory.mktemp("eval")
    mp.setenv("HYBRID_CACHE", str(root / "cache"))
    corpus = make_corpus(root / "corpus")
    drafting, reference = make_checkpoints(root, corpus)
    yield {"root": root, "corpus": corpus, "drafting": drafting, "reference": reference}
    mp.undo()


def _args(world, out, *extra, systems="hybrid-beside,ar"):
    """The run on tiny models; the judge is a tiny stand-in (the reference checkpoint) so CI stays fast: the default is
    smollm2-135m."""
    return [
        "eval",
        "run",
        "--systems",
        systems,
        "--limit",
        "2",
        "--n-variants",
        "2",
        "--checkpoint",
        str(world["drafting"]),
        "--reference",
        str(world["reference"]),
        "--judge",
        str(world["reference"]),
        "--corpus",
        str(world["corpus"]),
        "--out",
        str(out),
        "--threads",
        "1",
        "--no-progress",
        *extra,
    ]


@pytest.fixture(scope="module")
def first_run(world):
    """The CI command: --systems hybrid-beside,ar --limit 2 --json (with MAUVE, on the real embedding model)."""
    out = world["root"] / "run"
    import io
    from contextlib import redirect_stdout

    buf = io.StringIO()
    with redirect_stdout(buf):
        rc = main(_args(world, out, "--json"))
    return rc, json.loads(buf.getvalue()), out


def test_json_reports_every_figure_of_the_bar_for_both_systems(first_run):
    rc, result, out = first_run
    assert rc == 0
    assert set(result["systems"]) == {"hybrid-beside", "ar"}
    for name, s in result["systems"].items():
        for key in ("judge_bpb", "judge_bpb_vs_real", "ref_bpb", "self_bleu", "distinct_2", "seconds_per_draft"):
            assert isinstance(s[key], float) and s[key] > 0, (name, key, s[key])
        for key in ("mauve", "required_terms", "foreign_facts", "copy_13gram"):
            assert key in s, (name, key)
        assert 0 <= s["copy_13gram"] <= 1 and s["foreign_facts"] >= 0 and s["longest_copy"] >= 0
        assert s["judged_documents"] == 2 and s["judge_tokens_per_second"] > 0
        assert s["documents"] == 2 and s["clauses"] == 2 and s["tokens_per_second"] > 0
        assert "too small to be meaningful" in s["mauve_note"] or "not computed" in s["mauve_note"]
    assert result["judge"]["spec"].endswith("reference") and result["real"]["judge_bpb"] > 0
    assert result["systems"]["hybrid-beside"]["speedup_vs_ar"] > 0 and result["systems"]["ar"]["speedup_vs_ar"] is None
    assert result["real"]["ref_bpb"] > 0 and result["real"]["clauses"] == 2


def test_run_writes_samples_summary_report_and_plots(first_run):
    _, result, out = first_run
    records = load_samples(out)
    assert sorted((r["system"], Path(r["doc"]).name) for r in records) == sorted(
        (s, d) for s in ("real", "hybrid-beside", "ar") for d in ("banners.txt", "redactions.txt"))
    gen = [r for r in records if r["system"] != "real"]
    assert all(len(r["bodies"]) == 2 and len(r["ref_nats"]) == 2 and r["seed"] == doc_seed(0, r["doc"]) for r in gen)
    report = (out / "report.md").read_text()
    assert (
        "| hybrid-beside |" in report
        and "| ar |" in report
        and "## Goals (issue 6)" in report
        and "self-BLEU: hybrid-beside" in report
    )
    assert (
        "## Goals (issue 14)" in report
        and "## Appendix: two whole drafts" in report
        and "### hybrid-beside" in report
        and "### ar" in report
    )
    assert "## Fidelity and memorization" in report and "judge bpb" in report
    assert (out / "speed_vs_quality.png").stat().st_size > 1000 and (out / "quality_vs_steps.png").stat().st_size > 1000
    assert json.loads((out / "summary.json").read_text())["systems"] == result["systems"]


def test_rerun_does_not_redo_completed_samples_and_drops_a_half_written_line(world, first_run, monkeypatch):
    _, result, out = first_run
    resumed = world["root"] / "resumed"
    shutil.copytree(out, resumed)
    before = (resumed / SAMPLES).read_text()
    with open(resumed / SAMPLES, "a") as f:
        f.write('{"system": "hybrid-k4", "doc": "cuad/contr')  # killed mid-write
    calls = []
    real_run = Engine.run

    def counting(self, system, doc, n, seed):
        calls.append((system.name, Path(doc.path).name))
        return real_run(self, system, doc, n, seed)

    monkeypatch.setattr(Engine, "run", counting)
    assert main(_args(world, resumed, "--no-mauve")) == 0
    assert calls == [] and (resumed / SAMPLES).read_text() == before
    # add a system: only its samples run
    assert main(_args(world, resumed, "--no-mauve", systems="hybrid-beside,ar,hybrid-k4")) == 0
    assert calls == [("hybrid-k4", "banners.txt"), ("hybrid-k4", "redactions.txt")]
    run = json.loads((resumed / "summary.json").read_text())["run"]
    n_before = len(before.splitlines())
    assert (run["samples_run"], run["samples_resumed"]) == (2, n_before)  # the wall time says what it covers
    samples = [json.loads(line) for line in (resumed / SAMPLES).read_text().splitlines() if line.strip()]
    assert run["sample_wall_seconds"] == pytest.approx(sum(r["wall_seconds"] for r in samples), abs=0.1)
    assert run["wall_seconds"] > 0 and "- wall time: " in (resumed / "report.md").read_text()


def test_same_seed_same_drafts_in_a_fresh_run(world, first_run):
    _, _, out = first_run
    again = world["root"] / "again"
    assert main(_args(world, again, "--no-mauve", systems="hybrid-beside")) == 0
    bodies = lambda d, s: {r["doc"]: r["bodies"] for r in load_samples(d) if r["system"] == s}  # noqa: E731
    assert bodies(again, "hybrid-beside") == bodies(out, "hybrid-beside")


def test_a_run_directory_with_other_settings_is_refused(world, first_run, capsys):
    _, _, out = first_run
    assert main(_args(world, out, "--no-mauve", "--seed", "1")) == 2
    assert "seed" in capsys.readouterr().err


class _ExamplePlanner:
    """The template's example outline in place of a decode (the planner itself is tested in
    tests/plan/test_planner.py)."""

    def plan(self, template, fields, seed=0, params=None):
        from hybrid.plan.planner import PlanResult

        return PlanResult(template.example_outline(), "", [], 0, 0.01)


def test_planned_is_scored_on_its_template_and_a_doc_type_without_one_is_counted_as_skipped(
    world, tmp_path, monkeypatch, capsys
):
    monkeypatch.setattr(Engine, "planner", lambda self: _ExamplePlanner())
    out = tmp_path / "planned"
    assert main(_args(world, out, "--no-mauve", "--json", systems="planned")) == 0
    s = json.loads(capsys.readouterr().out)["systems"]["planned"]
    # banners is a CO-BRANDING AGREEMENT (no template), redactions a SUPPLY AGREEMENT (templates/supply.json)
    assert (
        s["documents"] == 1
        and s["skipped"] == 1
        and "no template for doc type 'CO-BRANDING AGREEMENT'" in s["skip_reasons"][0]
    )
    assert s["outline_valid"] == 1.0 and s["required_fraction"] is not None and s["ref_bpb"] > 0
    rec = next(r for r in load_samples(out) if r["system"] == "planned" and r["template"] == "supply")
    assert len(rec["bodies"][0]) == len(rec["outline"]["sections"]) == len(rec["clauses"])
    assert "documents skipped" in (out / "report.md").read_text()


def _corpus_without(world, tmp_path, split):
    root = tmp_path / "c"
    shutil.copytree(world["corpus"], root)
    lines = [ln for ln in (root / "manifest.jsonl").read_text().splitlines() if json.loads(ln)["split"] != split]
    (root / "manifest.jsonl").write_text("\n".join(lines) + "\n")
    return root


@pytest.mark.parametrize(
    "case, message",
    [
        (
            "unknown_system",
            "unknown system 'gpt2'; valid systems: hybrid, hybrid-beside, hybrid-noprec, hybrid-edit, ar, retrieval",
        ),
        ("judge_is_a_system", "cannot judge system 'hybrid-beside'"),
        # --judge auto with a system drafting with SmolLM2: gemma3-270m, not fetched in this cache
        ("auto_judge_smollm2", "judge gemma3-270m: judge 'gemma3-270m' is not fetched yet"),
        ("smollm2_judges_smollm2", "--judge smollm2-135m cannot judge system 'smollm2-ar'"),
        ("max_docs_0", "argument --max-docs: must be an integer >= 1, got '0'"),
        ("empty_split", "no documents"),
        ("no_manifest", "no manifest.jsonl"),
        ("no_bodies", "none with a clause body"),
        ("reference_is_checkpoint", "independent"),
        ("no_reference", "evals.train_reference"),
        ("bad_variants", "argument --n-variants: must be an integer in [1, 64], got '0'"),
    ],
)
def test_bad_input_exits_2_with_a_clear_message(world, tmp_path, capsys, case, message):
    args = _args(world, tmp_path / "out", "--no-mauve")

    def set_arg(flag, value):
        args[args.index(flag) + 1] = value

    if case == "unknown_system":
        set_arg("--systems", "hybrid-beside,gpt2")
    elif case == "empty_split":
        set_arg("--corpus", str(_corpus_without(world, tmp_path, "test")))
    elif case == "no_manifest":
        c = tmp_path / "nomanifest"
        shutil.copytree(world["corpus"], c)
        (c / "manifest.jsonl").unlink()
        set_arg("--corpus", str(c))
    elif case == "no_bodies":
        c = tmp_path / "c2"
        shutil.copytree(world["corpus"], c)
        lines = [json.loads(ln) for ln in (c / "manifest.jsonl").read_text().splitlines()]
        keep = [e for e in lines if e["split"] != "test" or e["path"].endswith("accuray.txt")]
        (c / "manifest.jsonl").write_text("".join(json.dumps(e) + "\n" for e in keep))
        set_arg("--corpus", str(c))
    elif case == "reference_is_checkpoint":
        set_arg("--reference", str(world["drafting"]))
    elif case == "no_reference":
        set_arg("--reference", str(tmp_path / "missing"))
    elif case == "bad_variants":
        set_arg("--n-variants", "0")
    elif case == "judge_is_a_system":
        set_arg("--judge", str(world["drafting"]))
    elif case in ("auto_judge_smollm2", "smollm2_judges_smollm2"):
        set_arg("--systems", "hybrid,smollm2-ar")
        set_arg("--judge", "auto" if case == "auto_judge_smollm2" else "smollm2-135m")
    elif case == "max_docs_0":
        args += ["--max-docs", "0"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err, err
    assert "Traceback" not in err


@pytest.mark.parametrize("damage", ['{"split": "te', "[]", b"\xff"])
def test_a_damaged_run_json_exits_2_naming_it_and_keeps_the_run(world, tmp_path, capsys, damage):
    out = tmp_path / "run"
    out.mkdir()
    (out / "run.json").write_bytes(damage if isinstance(damage, bytes) else damage.encode())
    (out / "samples.jsonl").write_text("")
    assert main(_args(world, out, "--no-mauve")) == 2
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]
    assert last.startswith("hybrid: error: ") and f"{out / 'run.json'} is damaged" in last and "Traceback" not in err, (
        err
    )
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == ["run.json", "samples.jsonl"]


def test_the_reference_is_an_ar_only_model_of_another_seed_and_size(world):
    from evals.train_reference import REFERENCE_CONFIG, reference_config
    from hybrid.common.config import TrainConfig
    from hybrid.train.loop import load_checkpoint

    cfg = reference_config()
    assert cfg.diffusion_weight == 0 and cfg.plan_repeat == 0 and cfg.out.endswith("checkpoints/reference")
    assert cfg.seed != TrainConfig().seed and cfg.d_model != TrainConfig().d_model
    _, _, record = load_checkpoint(world["reference"])
    assert record["config"]["diffusion_weight"] == 0 and record["config"]["seed"] == REFERENCE_CONFIG["seed"]


def test_runner_doc_seed_depends_on_seed_and_path_only():
    assert doc_seed(0, "a.txt") == doc_seed(0, "a.txt") != doc_seed(1, "a.txt") != doc_seed(0, "b.txt")
    assert runner.RunConfig(systems=("ar", "hybrid")).systems == ("ar", "hybrid")


def test_shorten_keeps_the_first_sections_and_words_and_leaves_the_document_alone():
    from evals.runner import shorten
    from hybrid.data.document import Document, Section

    secs = [
        Section(f"{i + 1}", f"Heading {i}", "other", " ".join(f"w{i}_{j}" for j in range(30)) + "\n(a) tail.")
        for i in range(5)
    ]
    doc = Document(
        path="x.txt", source="s", doc_type="NDA", split="test", group="g", title="T", preamble="P", sections=secs
    )
    short = shorten(doc, max_sections=2, max_body_words=10)
    assert [s.heading for s in short.sections] == ["Heading 0", "Heading 1"]
    assert all(len(s.body.split()) == 10 and s.body.endswith("_9") for s in short.sections)
    assert len(doc.sections) == 5 and doc.sections[0].body.endswith("(a) tail.")  # the original is untouched
    same = shorten(doc)
    assert [s.body for s in same.sections] == [s.body for s in doc.sections]


def test_a_judge_that_shares_weights_with_a_system_is_refused_naming_another_judge(world):
    from evals.judge import check_independent, lineage
    from hybrid.common.errors import ConfigError

    assert lineage("smollm2-135m") & {"base:smollm2-135m"}
    with pytest.raises(ConfigError, match=r"cannot judge system 'smollm2-ar'.*--judge gemma3-270m"):
        check_independent("smollm2-135m", {"hybrid": str(world["drafting"]), "smollm2-ar": "smollm2-135m"})
    with pytest.raises(ConfigError, match="weights:"):  # the same weights under another path
        copy = world["root"] / "judge-copy"
        shutil.copytree(world["drafting"], copy, dirs_exist_ok=True)
        check_independent(str(copy), {"hybrid": str(world["drafting"])})
    check_independent(str(world["reference"]), {"hybrid": str(world["drafting"]), "ar": str(world["drafting"])})


def test_the_dated_report_is_written_with_its_plots_and_summary(world, first_run, tmp_path):
    out, reports = world["root"] / "run", tmp_path / "reports"
    assert main(_args(world, out, "--report", str(reports / "2026-12-01.md"))) == 0  # resumed: nothing redrafted
    names = sorted(p.name for p in reports.iterdir() if not p.name.startswith("."))
    assert names == [
        "2026-12-01-quality_vs_steps.png",
        "2026-12-01-speed_vs_quality.png",
        "2026-12-01-summary.json",
        "2026-12-01.md",
    ], names
    text = (reports / "2026-12-01.md").read_text()
    assert (
        "(2026-12-01-speed_vs_quality.png)" in text and "Reproduce" in text and "--report" in text and "--judge" in text
    )
    assert json.loads((reports / "2026-12-01-summary.json").read_text())["systems"].keys() == {"hybrid-beside", "ar"}
    # a dated report inside the run's own directory: the run holds that lock itself, so no "in use by another run"
    assert main(_args(world, out, "--report", str(out / "2026-12-02.md"))) == 0
    assert (out / "2026-12-02.md").is_file() and (out / "2026-12-02-summary.json").is_file()
