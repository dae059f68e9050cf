"""hybrid.draft.request: a draft request is one object, checked once where it enters.

Every bad field raises RequestValueError naming the field, what it may be and what it got; good requests
get their defaults; the command line, the Python API, the web page and the evaluation harness all build a
DraftRequest, once per draft, and what runs below it does not check it again."""

import dataclasses
import json

import pytest

from hybrid import Drafter, DraftRequest, PrecedentMode, RequestValueError
from hybrid.common.errors import SamplingError
from hybrid.templates.template import TEMPLATES_DIR, load_template

T = load_template("mutual-nda")
OUTLINE = T.example_outline()

BAD = [  # (fields of the request, the field named, what the message says)
    ({"n": 0}, "n", r"n must be an integer in \[1, 64\], got 0\."),
    ({"n": 65}, "n", r"n must be an integer in \[1, 64\], got 65\."),
    ({"n": 2.0}, "n", r"n must be an integer in \[1, 64\], got 2\.0\."),
    ({"steps": 0}, "steps", r"steps must be an integer in \[1, 65536\], got 0\."),
    ({"steps": 1 << 17}, "steps", r"steps must be an integer in \[1, 65536\], got 131072\."),
    ({"guidance": -0.5}, "guidance", r"guidance must be a finite number >= 0 \(1 = off\), got -0\.5\."),
    ({"guidance": float("nan")}, "guidance", r"guidance must be a finite number >= 0 \(1 = off\), got nan\."),
    ({"seed": -1}, "seed", r"seed must be an integer in \[0, 18446744073709551615\], got -1\."),
    ({"seed": "1"}, "seed", r"seed must be an integer in \[0, 18446744073709551615\], got '1'\."),
    ({"mmr": 1.0}, "mmr", r"mmr must be a finite number in \[0, 1\) \(0 = off\), got 1\.0\."),
    ({"threads": -1}, "threads", r"threads must be an integer in \[0, 1024\], got -1\."),
    ({"sampling": {"temperature": -1}}, "temperature", r"temperature must be .*, got -1"),
    ({"sampling": {"top_p": 1.5}}, "top_p", r"top_p must be in \(0, 1\], got 1\.5"),
    ({"sampling": {"temperature": "hot"}}, "temperature", r"temperature must be a finite number >= 0, got 'hot' \(str"),
    ({"sampling": {"temperature": True}}, "temperature", r"temperature must be a finite number >= 0, got True \(bool"),
    ({"sampling": {"top_p": [0.9]}}, "top_p", r"top_p must be a number in \(0, 1\], got \[0\.9\] \(list\)\."),
    ({"sampling": {"min_p": "low"}}, "min_p", r"min_p must be a number in \[0, 1\], got 'low' \(str\)\."),
    ({"sampling": {"repetition_penalty": None}}, "repetition_penalty",
     r"repetition_penalty must be a finite number > 0, got None \(NoneType\)\."),
    ({"sampling": {"temperature": 10**5000}}, "temperature",
     r"temperature must be a finite number >= 0, got an integer too large for a float\."),
    ({"sampling": {"top_k": 10**5000}}, "top_k", r"top_k must be an integer >= 0 \(0 = off\), got <an integer of more"),
    ({"steps": 10**5000}, "steps", r"steps must be an integer in \[1, 65536\], got <an integer of more than 4300"),
    ({"guidance": 10**5000}, "guidance", r"guidance must be a finite number >= 0 \(1 = off\), got <an integer of more"),
    ({"sampling": {"beam_width": 4}}, "beam_width", r"unknown sampling argument 'beam_width'; allowed: temperature"),
    ({"filler": "beam"}, "filler", r"filler must be one of diffusion, ar, ar-batched, got 'beam'\."),
    ({"commit": "run"}, "commit", r"commit must be one of auto, confidence, runs, got 'run'\."),
    ({"commit": "runs", "filler": "ar-batched"}, "commit", r"commit .* needs filler diffusion, got filler ar-batched"),
    ({"filler": "ar", "guidance": 2.0}, "guidance", r"guidance must be 1 \(off\) for the AR filler 'ar'.*got 2\.0\."),
    ({"precedent_mode": "copy"}, "precedent_mode", r"precedent_mode must be one of off, beside, edit, got 'copy'\."),
    ({"precedent_mode": "off", "precedents": 2}, "precedent_mode",
     r"precedent_mode='off' does not go with precedents=2 and precedent_start=1\.0, which are mode 'beside'"),
    ({"precedent_mode": "edit", "precedent_start": 1.0}, "precedent_mode",
     r"precedent_mode='edit' does not go with precedents=1 and precedent_start=1\.0"),
    ({"precedents": -1}, "precedents", r"precedents must be an integer in \[0, 4\] \(0 = off\), got -1\."),
    ({"precedents": 9}, "precedents", r"precedents must be an integer in \[0, 4\] \(0 = off\), got 9\."),
    ({"precedent_guidance": -0.5}, "precedent_guidance", r"precedent_guidance must be a finite number >= 0"),
    ({"precedents": 0, "precedent_guidance": 1.0}, "precedent_guidance",
     r"precedent_guidance needs precedents >= 1, got precedents=0 with precedent_guidance=1\.0\."),
    ({"precedent_start": 1.5}, "precedent_start",
     r"precedent_start must be a finite number in \[0, 1\] \(1 = off\), got 1\.5\."),
    ({"precedent_start": True}, "precedent_start", r"precedent_start must be a finite number in \[0, 1\]"),
    ({"precedents": 0, "precedent_start": 0.5}, "precedent_start",
     r"precedent_start needs precedents >= 1, got precedents=0 with precedent_start=0\.5\."),
    ({"precedent_start": 0.5, "precedent_guidance": 1.0}, "precedent_guidance",
     r"precedent_guidance guides on the precedents beside each clause"),
    ({"filler": "ar", "precedents": 1, "precedent_start": 0.25}, "precedent_start",
     r"precedent_start < 1 needs a filler that edits a start \(diffusion, ar-batched\), got filler='ar'"),
    ({"filler": "ar", "precedents": 1, "precedent_guidance": 1.0}, "precedent_guidance",
     r"precedent_guidance must be 0 \(off\) for the AR filler 'ar'"),
    ({"base_doc": "  "}, "base_doc", r"base_doc must name a base document \(its id or a part of it\), got '  '\."),
    ({"base_doc": 3}, "base_doc", r"base_doc must name a base document .*got 3\."),
    ({"base": False, "base_doc": "Reynolds"}, "base_doc", r"base_doc names the document every variant starts from: "
     r"it needs base on"),
]


@pytest.mark.parametrize("kw, field, match", BAD, ids=[f"{b[1]}-{i}" for i, b in enumerate(BAD)])
def test_each_bad_field_raises_naming_the_field_its_range_and_the_value(kw, field, match):
    with pytest.raises(RequestValueError, match=match) as e:
        DraftRequest(T, T.example, **kw)
    assert e.value.field == field and isinstance(e.value, ValueError) and isinstance(e.value, SamplingError)


def test_the_deals_fields_and_the_template_are_checked_by_their_own_rules():
    from hybrid.common.errors import FieldError, TemplateError

    with pytest.raises(TemplateError, match="unknown template 'mutual-ndaa'"):
        DraftRequest.of("mutual-ndaa", T.example)
    with pytest.raises(FieldError, match="unknown field 'colour'"):
        DraftRequest.of(T, {**T.example, "colour": "blue"})
    with pytest.raises(RequestValueError, match="n must be"):  # a bad number is named before the fields
        DraftRequest.of(T, {"colour": "blue"}, n=0)


def test_a_request_left_unset_edits_from_one_precedent_at_the_filler_defaults():
    from hybrid.common.sampling import SamplingParams
    from hybrid.fill.diffusion.fill_config import DEFAULT_GUIDANCE, DEFAULT_STEPS

    r = DraftRequest.of("mutual-nda", T.example, n=4, seed=7)
    assert r.template == T and r.fields == T.validate_fields(T.example)
    assert (r.n, r.seed, r.steps, r.guidance, r.mmr) == (4, 7, DEFAULT_STEPS, DEFAULT_GUIDANCE, 0.0)
    assert r.sampling == SamplingParams(temperature=0.8, top_p=0.95)
    assert r.precedent_mode is PrecedentMode.EDIT and r.edits and r.precedent_fallback
    assert r.precedent_settings() == {"precedents": 1, "precedent_guidance": 0.0, "precedent_start": 0.0}
    assert repr(r).startswith("DraftRequest(template='mutual-nda', fields=")
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.n = 8


MODES = [  # (request fields, mode, precedents, precedent_start)
    ({"precedent_mode": "off"}, PrecedentMode.OFF, 0, 1.0),
    ({"precedent_mode": PrecedentMode.BESIDE}, PrecedentMode.BESIDE, 1, 1.0),
    ({"precedent_mode": "beside", "precedents": 2, "precedent_guidance": 1.5}, PrecedentMode.BESIDE, 2, 1.0),
    ({"precedent_mode": "edit", "precedent_start": 0.25}, PrecedentMode.EDIT, 1, 0.25),
    ({"precedents": 0}, PrecedentMode.OFF, 0, 1.0),
    ({"precedents": 2, "precedent_start": 1}, PrecedentMode.BESIDE, 2, 1),
    ({"precedent_guidance": 1.0}, PrecedentMode.BESIDE, 1, 1.0),
    ({"filler": "ar"}, PrecedentMode.OFF, 0, 1.0),
    ({"filler": "ar-batched"}, PrecedentMode.EDIT, 1, 0.0),
    ({"filler": "ar", "precedents": 1}, PrecedentMode.BESIDE, 1, 1.0),
]


@pytest.mark.parametrize("kw, mode, k, t", MODES)
def test_the_precedent_mode_maps_the_precedent_options(kw, mode, k, t):
    r = DraftRequest.of(T, T.example, **kw)
    assert (r.precedent_mode, r.precedents, r.precedent_start) == (mode, k, t)
    assert r.precedent_fallback == (not any(name.startswith("precedent") for name in kw))  # no precedent field set


def test_of_takes_sampling_arguments_as_keywords():
    r = DraftRequest.of(T, T.example, temperature=0.5, top_k=4)
    assert (r.sampling.temperature, r.sampling.top_k, r.sampling.top_p) == (0.5, 4, 0.95)
    assert r == DraftRequest(T, T.example, sampling={"temperature": 0.5, "top_k": 4})
    with pytest.raises(RequestValueError, match="either as sampling= or as keywords"):
        DraftRequest.of(T, T.example, sampling={"top_k": 4}, temperature=0.5)


@pytest.fixture
def validations(monkeypatch):
    """How many DraftRequests were checked (__post_init__ runs), and the last one."""
    seen = []
    check = DraftRequest.__post_init__

    def counted(self):
        check(self)
        seen.append(self)

    monkeypatch.setattr(DraftRequest, "__post_init__", counted)
    return seen


@pytest.fixture(scope="module")
def drafter(tiny_model, tokenizer):
    return Drafter(tiny_model, tokenizer)


def test_the_api_checks_one_request_per_draft_and_the_keyword_form_builds_the_same(drafter, validations):
    request = DraftRequest.of(T, T.example, n=2, steps=2, seed=3, outline=OUTLINE, precedent_mode="off")
    del validations[:]
    by_request = drafter.draft(request)
    assert validations == []  # the request is trusted below the entry: nothing builds (checks) another
    by_keywords = drafter.draft(T, T.example, n=2, steps=2, seed=3, outline=OUTLINE, precedents=0)
    assert validations == [request]  # the keyword form builds one, equal to the request
    assert [d.text for d in by_request] == [d.text for d in by_keywords]
    del validations[:]
    assert list(drafter.stream(request))[-1].drafts[0].text == by_request[0].text and validations == []
    with pytest.raises(RequestValueError, match="a DraftRequest holds every argument"):
        drafter.draft(request, n=3)


@pytest.mark.parametrize("filler", ["diffusion", "ar", "ar-batched"])
def test_every_fillers_arguments_are_the_requests_to_check(tiny_model, tokenizer, filler):
    d = Drafter(tiny_model, tokenizer, filler=filler)
    for kw, match in (({"n": 0}, r"n must be an integer in \[1, 64\], got 0"), ({"seed": -1}, "seed must be")):
        with pytest.raises(RequestValueError, match=match):
            d.fill(T, T.example, OUTLINE, steps=2, **kw)
        with pytest.raises(RequestValueError, match=match):
            d.draft(T, T.example, steps=2, outline=OUTLINE, **kw)


@pytest.fixture(scope="module")
def small_cli(tiny_model, tokenizer, tmp_path_factory):
    """(checkpoint dir, template file) of a fast tiny-model `hybrid draft`."""
    from hybrid.train.loop import save_checkpoint

    ckpt = tmp_path_factory.mktemp("ckpt") / "tiny"
    save_checkpoint(ckpt, tiny_model, tokenizer, {"step": 0, "params": tiny_model.num_params()}, None)
    data = json.loads((TEMPLATES_DIR / "mutual-nda.json").read_text())
    data["id"] = "small-nda"
    data["outline_schema"]["properties"]["sections"]["anyOf"] = data["outline_schema"]["properties"]["sections"][
        "anyOf"][:1]
    for spec in data["clauses"].values():
        if not spec.get("frame"):
            spec["budget"] = 32
    path = tmp_path_factory.mktemp("tpl") / "small-nda.json"
    path.write_text(json.dumps(data))
    return ckpt, path


def test_the_cli_checks_one_request_per_draft(small_cli, tmp_path, capsys, validations):
    from hybrid.cli.main import main

    ckpt, template = small_cli
    argv = ["draft", str(template), "--example", "-n", "2", "--steps", "2", "--seed", "5", "--precedents", "0",
            "--checkpoint", str(ckpt), "--out", str(tmp_path / "out")]
    assert main(argv) == 0, capsys.readouterr().err
    assert len(validations) == 1 and (validations[0].n, validations[0].seed, validations[0].steps) == (2, 5, 2)
    report = json.loads((tmp_path / "out" / "drafts.json").read_text())
    assert report["settings"]["precedents"] == 0 and report["settings"]["steps"] == 2


CLI_BAD = [  # (options, the one line `hybrid draft` prints)
    (["-n", "0"], "hybrid: error: argument -n: must be an integer in [1, 64], got 0."),
    (["--guidance", "inf"], "hybrid: error: argument --guidance: must be a finite number >= 0 (1 = off), got inf."),
    (["--precedents", "0", "--precedent-start", "0.5"],
     "hybrid: error: --precedent-start needs --precedents >= 1, got --precedents 0 with --precedent-start 0.5."),
    (["--filler", "ar", "--commit", "runs"], "hybrid: error: --commit chooses the diffusion filler's commits: it "
     "needs --filler diffusion, got --filler ar with --commit runs."),
]


@pytest.mark.parametrize("options, line", CLI_BAD)
def test_the_cli_names_the_option_of_a_bad_field(capsys, tmp_path, options, line):
    from hybrid.cli.main import main

    assert main(["draft", "mutual-nda", "--example", *options, "--out", str(tmp_path / "out")]) == 2
    assert capsys.readouterr().err.strip() == line and not (tmp_path / "out").exists()


def test_the_page_builds_the_request_over_the_servers_defaults(validations):
    from hybrid.serve.forms import RequestError, Templates, draft_request

    checked = draft_request({"template": "mutual-nda", "fields": T.example, "n": "2", "seed": 4}, Templates(), 8,
                            {"steps": 3})
    assert len(validations) == 1 and checked["request"] is validations[0]
    assert (checked["request"].n, checked["request"].seed, checked["request"].steps) == (2, 4, 3)
    with pytest.raises(RequestError, match=r"argument --steps: must be an integer in \[1, 65536\], got 0\.") as e:
        draft_request({"template": "mutual-nda", "fields": T.example, "steps": 0}, Templates(), 8)
    assert e.value.field == "steps"


def test_the_harness_drafts_hybrid_with_the_default_request(tiny_model, tokenizer, monkeypatch):
    from types import SimpleNamespace

    from evals.systems import Engine

    engine, got = Engine(tiny_model, tokenizer), []
    engine._drafters[None] = SimpleNamespace(draft=lambda request: got.append(request) or [])
    doc = SimpleNamespace(doc_type="MUTUAL NDA", fields={}, doc_id="d1")
    engine._default_drafts(doc, n=3, seed=9)
    assert len(got) == 1 and got[0] == DraftRequest.of(T, T.example, n=3, seed=9)


def test_the_cli_prints_the_library_fallback_note_once(small_cli, tmp_path, capsys, monkeypatch):
    from hybrid.cli.main import main
    from hybrid.precedents.library import PrecedentError

    def missing(self, on_doc=None):
        raise PrecedentError("no corpus here")

    monkeypatch.setattr(Drafter, "precedent_library", missing)
    ckpt, template = small_cli
    out = tmp_path / "out"
    assert main(["draft", str(template), "--example", "-n", "1", "--steps", "2", "--checkpoint", str(ckpt),
                 "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert err.count("drafted from scratch: no clause library (no corpus here)") == 1
    note = json.loads((out / "drafts.json").read_text())["settings"]["precedent_note"]
    assert note.startswith("drafted from scratch: no clause library (no corpus here)")


def test_the_servers_steps_are_checked_by_the_request_before_the_model_loads(capsys, monkeypatch):
    import uvicorn

    from hybrid.cli.main import main

    loaded = []
    monkeypatch.setattr(Drafter, "from_pretrained", classmethod(lambda cls, *a, **k: loaded.append(a)))
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: loaded.append(app))
    assert main(["serve", "--steps", "0"]) == 2 and loaded == []
    line = "hybrid: error: argument --steps: must be an integer in [1, 65536], got 0."
    assert capsys.readouterr().err.strip() == line


def test_a_writer_system_drafts_with_its_own_model_and_filler(tiny_model, tokenizer):
    """issue 27: lora-edit-ar drafts through Drafter.draft on its own model with --filler ar-batched; pasting
    still pastes what the drafting model's default draft starts from."""
    from types import SimpleNamespace

    from evals.systems import SYSTEMS, Engine

    engine, got = Engine(tiny_model, tokenizer), []
    other = SimpleNamespace(draft=lambda request: got.append(("other", request)) or [])
    engine._drafters[None] = SimpleNamespace(draft=lambda request: got.append(("default", request)) or [])
    engine._drafters["smollm2-135m-legal-lora"] = other
    doc = SimpleNamespace(doc_type="MUTUAL NDA", fields={}, doc_id="d1")
    engine._default_drafts(doc, n=2, seed=3, system=SYSTEMS["lora-edit-ar"])
    engine._default_drafts(doc, n=2, seed=3)
    assert [who for who, _ in got] == ["other", "default"]
    assert got[0][1] == DraftRequest.of(T, T.example, n=2, seed=3, filler="ar-batched")
    assert got[1][1] == DraftRequest.of(T, T.example, n=2, seed=3)
    assert SYSTEMS["lora-edit"].filler is None and SYSTEMS["lora-edit"].model == "smollm2-135m-legal-lora"
