"""hybrid.draft.drafter on a tiny random model: drafts come ranked best first, the same seed gives the
same drafts, bad arguments raise naming themselves, stream() reports plan / fill / rank and ends
with the same drafts as draft(), the lock serializes threads, and the outputs (markdown, docx)
have real numbered headings."""

import re
import threading
from pathlib import Path

import docx
import pytest

from hybrid import Draft, Drafter
from hybrid.common.errors import CheckpointError, SamplingError
from hybrid.templates.template import load_template

T = load_template("mutual-nda")
OUTLINE = T.example_outline()  # 6 sections (the fewest the schema allows): keeps the tiny model's fills fast


@pytest.fixture(scope="module")
def drafter(tiny_model, tokenizer):
    return Drafter(tiny_model, tokenizer)


@pytest.fixture(scope="module")
def drafts(drafter):
    return drafter.draft(T, T.example, n=4, steps=3, seed=5, outline=OUTLINE)


def test_drafts_are_ranked_best_first(drafts):
    assert [d.rank for d in drafts] == [1, 2, 3, 4]
    assert [d.score for d in drafts] == sorted((d.score for d in drafts), reverse=True)
    assert sorted(d.variant for d in drafts) == [0, 1, 2, 3]
    for d in drafts:
        assert isinstance(d, Draft) and d.score == d.scores["total"] and "loglik" in d.scores
        assert d.outline == OUTLINE and [s["heading"] for s in d.sections] == [
            s["heading"] for s in OUTLINE["sections"]
        ]
        assert set(d.timings) == {
            "plan",
            "precedents",
            "fill",
            "revise",
            "rank",
            "total",
        }  # by default each section edits a precedent
        assert d.settings == {
            "precedents": 1,
            "precedent_guidance": 0.0,
            "precedent_start": 0.0,
            "precedent_note": None,
            "base": False,  # an outline given: each section from its own precedent
        }
        assert all(s["precedents"] for s in d.sections)  # every section cites what it edited


def test_seed_reproducibility(drafter, drafts):
    again = drafter.draft(T, T.example, n=4, steps=3, seed=5, outline=OUTLINE)
    assert [(d.text, d.score) for d in again] == [(d.text, d.score) for d in drafts]
    other = drafter.draft(T, T.example, n=4, steps=3, seed=6, outline=OUTLINE)
    assert [d.text for d in other] != [d.text for d in drafts]


def test_text_is_the_canonical_layout(drafts):
    d = drafts[0]
    assert d.text.startswith(f"{OUTLINE['title']}\n\n{d.preamble}\n\n1. {OUTLINE['sections'][0]['heading']}.\n")
    assert T.example["party_a"] in d.text and d.text.endswith(d.tail)
    for s in d.sections:
        assert f"{s['number']}. {s['heading']}.\n{s['body']}\n\n" in d.text


BAD_ARGS = [
    ({"n": 0}, "n must be an integer in \\[1, 64\\], got 0"),
    ({"n": 65}, "n must be an integer in \\[1, 64\\], got 65"),
    ({"n": 2.0}, "n must be"),
    ({"steps": 0}, r"steps must be an integer in \[1, 65536\], got 0"),
    ({"guidance": -1}, "guidance must be a finite number >= 0 .*got -1"),
    ({"guidance": float("nan")}, "guidance"),
    ({"mmr": 1.0}, "mmr must be a finite number in \\[0, 1\\) \\(0 = off\\)"),
    ({"temperature": -0.5}, "temperature must be"),
    ({"top_p": 1.5}, "top_p must be in \\(0, 1\\], got 1.5"),
    ({"beam_width": 4}, "unknown sampling argument 'beam_width'"),
]


@pytest.mark.parametrize("kwargs,match", BAD_ARGS)
def test_bad_arguments_raise_naming_the_argument(drafter, kwargs, match):
    args = {"n": 2, "steps": 2, "seed": 0, "outline": OUTLINE, **kwargs}
    with pytest.raises(SamplingError, match=match):
        drafter.draft(T, T.example, **args)
    with pytest.raises(SamplingError, match=match):
        drafter.stream(T, T.example, **args)  # checked at the call, before any event


@pytest.mark.parametrize("seed", [-5, 2**64, 2**70, "x", 1.5, True, None])
def test_every_stage_refuses_a_seed_draft_refuses(drafter, seed):
    """Issue 29 #4: plan took -5, and 2**70, "x" or 1.5 failed inside torch.manual_seed."""
    match = rf"seed must be an integer in \[0, {2**64 - 1}\], got {re.escape(repr(seed))}"
    for call in (lambda: drafter.plan(T, T.example, seed=seed),
                 lambda: drafter.fill(T, T.example, OUTLINE, n=1, steps=1, seed=seed),
                 lambda: drafter.draft(T, T.example, n=1, steps=1, seed=seed, outline=OUTLINE)):
        with pytest.raises(SamplingError, match=match):
            call()


def test_stream_reports_every_stage_and_ends_with_the_drafts(drafter):
    # from scratch: every slot starts masked
    events = list(drafter.stream(T, T.example, n=2, steps=3, seed=1, precedents=0))
    kinds = [e.kind for e in events]
    n_tokens = kinds.count("plan_token")
    assert n_tokens > 0 and kinds == ["plan_token"] * n_tokens + ["plan", "fill_step", "fill_step", "fill_step", "rank"]
    plan = events[n_tokens]
    assert "".join(e.text for e in events[:n_tokens]).startswith('{"title": ')
    assert any(e.forced for e in events[:n_tokens])  # jump-forward tokens are reported as such
    steps = [e for e in events if e.kind == "fill_step"]
    assert [(e.step, e.steps) for e in steps] == [(1, 3), (2, 3), (3, 3)]
    masks = [e.partial[0].count("_") for e in steps]
    assert masks[0] > masks[1] > masks[2] and "_" * 20 in steps[0].partial[0]  # text appears as steps commit it
    final = events[-1].drafts
    direct = drafter.draft(T, T.example, n=2, steps=3, seed=1, precedents=0)
    assert plan.outline == direct[0].outline
    # after the last step: the filled variants, which the consistency pass then revises (whole sentences, references)
    assert len(steps[-1].partial) == len(final) and all(
        p.split("\n\n")[0] == final[0].text.split("\n\n")[0] for p in steps[-1].partial
    )
    assert [d.text for d in final] == [d.text for d in direct]
    # the default edits a precedent, in the
    edited = list(drafter.stream(T, T.example, n=2, steps=3, seed=1))[-1].drafts
    # stream's thread too
    assert [d.text for d in edited] == [d.text for d in drafter.draft(T, T.example, n=2, steps=3, seed=1)]


def test_a_closed_stream_releases_the_drafter(drafter, drafts):
    stream = drafter.stream(T, T.example, n=2, steps=3, seed=0, outline=OUTLINE)
    for ev in stream:
        if ev.kind == "fill_step":
            break
    stream.close()
    assert not drafter._lock._is_owned()
    again = drafter.draft(T, T.example, n=4, steps=3, seed=5, outline=OUTLINE)
    assert [d.text for d in again] == [d.text for d in drafts]


def test_concurrent_drafts_on_one_drafter_equal_sequential_ones(drafter):
    seeds = [11, 12, 13]
    expected = {s: [d.text for d in drafter.draft(T, T.example, n=2, steps=2, seed=s, outline=OUTLINE)] for s in seeds}
    got, errors = {}, []

    def run(s):
        try:
            got[s] = [d.text for d in drafter.draft(T, T.example, n=2, steps=2, seed=s, outline=OUTLINE)]
        except Exception as e:  # surfaced below
            errors.append(e)

    threads = [threading.Thread(target=run, args=(s,)) for s in seeds]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and got == expected


def test_ar_filler_drafts_and_streams_through_the_same_api(tiny_model, tokenizer):
    events = list(
        Drafter(tiny_model, tokenizer, filler="ar").stream(
            T, T.example, n=2, guidance=1, seed=0, outline=OUTLINE, temperature=0
        )
    )
    steps = [e for e in events if e.kind == "fill_step"]
    assert [e.step for e in steps] == [1, 2, 3, 4, 5, 6]  # one per span
    assert steps[0].partial[0].count("_") > steps[-1].partial[0].count("_")
    out = events[-1].drafts
    assert len(out) == 2 and out[0].score >= out[1].score
    with pytest.raises(SamplingError, match="filler must be one of diffusion, ar"):
        Drafter(tiny_model, tokenizer, filler="beam")


def test_from_pretrained_names_a_missing_checkpoint(tmp_path, monkeypatch):
    with pytest.raises(CheckpointError, match=str(tmp_path / "nope")):
        Drafter.from_pretrained(tmp_path / "nope")
    monkeypatch.setattr("hybrid.draft.loading.SHIPPED_CHECKPOINT", tmp_path / "shipped")
    with pytest.raises(CheckpointError, match="shipped model is missing: .*shipped"):
        Drafter.from_pretrained()


def test_markdown_has_numbered_section_headings(drafts):
    md = drafts[0].markdown
    assert md.startswith(f"# {OUTLINE['title']}\n\n")
    for i, (s, sec) in enumerate(zip(OUTLINE["sections"], drafts[0].sections), 1):
        mark = f"[^s{i}]" if sec.get("precedents") else ""  # a section's sources: a footnote on its heading
        assert f"\n## {i}. {s['heading']}{mark}\n" in md


def test_docx_has_a_title_and_word_numbered_heading_paragraphs(drafts, tmp_path):
    path = drafts[0].to_docx(tmp_path / "d.docx")
    doc = docx.Document(str(path))
    paras = doc.paragraphs
    assert paras[0].style.name == "Title" and paras[0].text == OUTLINE["title"]
    heads = [p for p in paras if p.style.name == "Heading 1"]
    assert [p.text for p in heads] == [s["heading"] for s in OUTLINE["sections"]]
    num_ids = {p._p.pPr.numPr.numId.val for p in heads}
    assert len(num_ids) == 1  # one Word list numbers every section heading 1., 2., ...
    assert len(paras) > len(heads) + 2 and not list(tmp_path.glob(".*tmp*"))


def test_notebook_runs_top_to_bottom_on_the_shipped_model(shipped_checkpoint, monkeypatch):
    import nbformat
    from nbclient import NotebookClient

    notebooks = Path(__file__).resolve().parents[2] / "notebooks"
    nb = nbformat.read(notebooks / "drafting.ipynb", as_version=4)
    monkeypatch.setenv("HYBRID_NOTEBOOK_QUICK", "1")  # fewer variants and steps; same cells
    monkeypatch.setenv("OMP_NUM_THREADS", "1")  # the kernel's torch: no thread contention on shared cores
    monkeypatch.setenv("HYBRID_CHECKPOINT", str(shipped_checkpoint))
    NotebookClient(nb, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(notebooks)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs)  # the steps/guidance plot


@pytest.mark.parametrize("headings", ["template", "planned"])
def test_planned_headings_come_from_the_template_unless_asked_otherwise(tiny_model, tokenizer, monkeypatch, headings):
    from hybrid.plan.planner import PlanResult

    garbled = {"title": "CONLE", "sections": [{**s, "heading": "Suration of Retroorthp"} for s in OUTLINE["sections"]]}
    T.validate_outline(garbled)
    d = Drafter(tiny_model, tokenizer, headings=headings)
    monkeypatch.setattr(d.planner, "plan", lambda *a, **k: PlanResult(garbled, "", [], 0, 0.0))
    # the planner's outline is drafted section by section (a base draft's outline is its base's sections)
    [draft] = d.draft(T, T.example, n=1, steps=2, seed=1, base=False)
    if headings == "template":
        assert draft.outline["title"] == T.title
        assert [s["heading"] for s in draft.outline["sections"]] == [
            T.clauses[s["clause"]]["heading"] for s in OUTLINE["sections"]
        ]
    else:
        assert draft.outline == garbled
    assert [s["clause"] for s in draft.outline["sections"]] == [s["clause"] for s in OUTLINE["sections"]]
    assert draft.text.startswith(draft.outline["title"])


def test_unknown_headings_mode_is_rejected(tiny_model, tokenizer):
    with pytest.raises(SamplingError, match="headings must be one of template, planned, got 'model'"):
        Drafter(tiny_model, tokenizer, headings="model")


def test_the_batched_ar_filler_drafts_every_clause(tiny_model, tokenizer):
    drafts = Drafter(tiny_model, tokenizer, filler="ar-batched").draft(T, T.example, n=2, seed=0, outline=OUTLINE)
    assert len(drafts) == 2 and all(d.text and d.outline == OUTLINE for d in drafts)
    assert {d.variant for d in drafts} == {0, 1} and all(len(d.sections) == len(OUTLINE["sections"]) for d in drafts)
    assert all(s["body"].strip() for d in drafts for s in d.sections)  # every clause written


def test_a_cancel_set_by_the_consumer_stops_the_stream_at_its_next_event(drafter):
    cancel = threading.Event()  # a server sets it from the thread that answers the cancel request
    kinds = []
    for ev in drafter.stream(T, T.example, n=2, steps=64, seed=0, outline=OUTLINE, cancel=cancel):
        kinds.append(ev.kind)
        if ev.kind == "fill_step":
            cancel.set()
    assert kinds.count("fill_step") < 64 and "rank" not in kinds and not drafter._lock._is_owned()


def test_a_draft_validates_its_fields_once(drafter, monkeypatch):
    """The request validates the fields; every stage after it (plan, skeleton, rank, checks) takes them as they are
    (hybrid.templates.template.ValidFields)."""
    from hybrid.templates.template import Template

    calls = []
    validated = Template._validated
    monkeypatch.setattr(Template, "_validated", lambda self, fields: calls.append(1) or validated(self, fields))
    drafter.draft(T, T.example, n=2, steps=2, seed=5, outline=OUTLINE)
    assert len(calls) == 1


def test_validated_fields_changed_after_are_validated_again():
    values = T.validate_fields(T.example)
    assert T.validate_fields(values) is values
    values["no_such_field"] = 1
    with pytest.raises(Exception, match="unknown field 'no_such_field'"):
        T.validate_fields(values)
