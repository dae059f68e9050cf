"""The text pipeline's registry (hybrid.text): every pass of PIPELINE registered and placed once, each pass's worked
examples, clean text left alone, a second run changing nothing, and the runner's trace and ablation by name."""

import pytest

import hybrid.text.revise_passes  # noqa: F401  (registers the revise and whole passes)
import hybrid.text.start_passes  # noqa: F401  (registers the start passes)
from hybrid.draft.consistency import COUNTED_BY_KIND, TOTAL_OF, consistency_pass
from hybrid.text.passes import Pass, registered, run, without
from hybrid.text.pipeline import PIPELINE, pass_names, phase

PASSES = registered()
EXAMPLES = [(name, i, ex) for name, p in PASSES.items() for i, ex in enumerate(p.examples)]
CLEAN = ("Each Party shall keep the other Party's information in confidence. This duty survives the end of this "
         "Agreement.\n\nNeither Party may assign this Agreement without the other Party's consent.")


def _apply(p: Pass, text: str, overrides: dict) -> str:
    return p(text, p.example_context(text, **overrides))[0]


def test_every_pipeline_name_is_a_registered_pass_of_its_phase():
    assert set(pass_names()) == set(PASSES)
    for phase_name, names in PIPELINE.items():
        assert all(PASSES[n].phase == phase_name for n in names), phase_name


@pytest.mark.parametrize("name", sorted(PASSES))
def test_every_pass_has_two_examples_and_a_one_line_contract(name):
    p = PASSES[name]
    assert len(p.examples) >= 2, f"{name}: {len(p.examples)} examples"
    assert any(ex[0] != ex[1] for ex in p.examples), f"{name}: no example shows the pass changing anything"
    assert p.contract and "\n" not in p.contract


@pytest.mark.parametrize("name, i, example", EXAMPLES, ids=[f"{n}-{i}" for n, i, _ in EXAMPLES])
def test_example(name, i, example):
    text, expected, overrides = (*example, {})[:3]
    assert _apply(PASSES[name], text, overrides) == expected


@pytest.mark.parametrize("name, i, example", EXAMPLES, ids=[f"{n}-{i}" for n, i, _ in EXAMPLES])
def test_the_consistency_report_counts_each_change(name, i, example):
    """A revise or whole pass's change is one the report's totals count: a kind and action missing from
    hybrid.draft.consistency.TOTAL_OF stopped every draft that met it (a KeyError in the report)."""
    p = PASSES[name]
    if p.phase == "start":
        return  # the start's changes go to the precedent's trace, not the consistency report
    text, _, overrides = (*example, {})[:3]
    _, changes = p(text, p.example_context(text, **overrides))
    missing = [(c["kind"], c["action"]) for c in changes if c["action"] != "kept" and c["kind"] not in COUNTED_BY_KIND
               and (c["kind"], c["action"]) not in TOTAL_OF]
    assert not missing, f"{name}: changes the report does not count: {missing}"


@pytest.mark.parametrize("name, i, example", EXAMPLES, ids=[f"{n}-{i}" for n, i, _ in EXAMPLES])
def test_a_second_run_changes_nothing(name, i, example):
    text, _, overrides = (*example, {})[:3]
    once = _apply(PASSES[name], text, overrides)
    assert _apply(PASSES[name], once, overrides) == once


@pytest.mark.parametrize("name", sorted(PASSES))
def test_clean_text_comes_back_unchanged(name):
    p = PASSES[name]
    text, changes = p(CLEAN, p.example_context(CLEAN))
    assert text == CLEAN and changes == []


def test_run_traces_each_pass_that_changed_the_text():
    p = PASSES["doubled_words"]
    trace = []
    text, changes = run(["doubled_words", "leaning_opening"], "Buyer shall pay the the price.",
                        p.example_context("Buyer shall pay the the price."), trace)
    assert text == "Buyer shall pay the price."
    assert [t["pass"] for t in trace] == ["doubled_words"] and trace[0]["changes"] == changes


def test_a_pass_that_reports_nothing_is_traced_as_a_rewrite():
    p = PASSES["glued_comma"]
    trace = []
    run(["glued_comma"], "goods,services", p.example_context(), trace)
    assert trace == [{"pass": "glued_comma", "changes": [
        {"kind": "glued_comma", "old": "goods,services", "new": "goods, services", "action": "rewritten"}]}]


SECTIONS = [{"heading": "General", "clause": "general", "body": "Each party shall pay the the price."}]


def test_the_consistency_pass_runs_the_revise_phase_in_order():
    bodies, report = consistency_pass(SECTIONS, preamble='the parties (each a "Party")')
    assert bodies == ["Each Party shall pay the price."]
    kinds = [c["kind"] for c in report["sections"][0]["changes"]]
    assert kinds == ["doubled_word", "defined_term_case"]  # doubled_words runs before party_case


def test_a_pass_switched_off_by_name_is_skipped_and_an_unknown_name_is_refused():
    with without(["doubled_words"]):
        bodies, _ = consistency_pass(SECTIONS, preamble='the parties (each a "Party")')
    assert bodies == ["Each Party shall pay the the price."]
    assert consistency_pass(SECTIONS, preamble="")[0] == ["Each party shall pay the price."]  # on again after
    with pytest.raises(ValueError, match="unknown text pass nope; the passes are: inline_heading"):
        with without(["nope"]):
            pass


def test_phase_slices_and_unknown_phase():
    assert phase("start", stop="fit")[-1] == "restated_frame"
    assert phase("start", start="fit") == ("fit", "trailing_headings", "leaning_opening")
    with pytest.raises(ValueError, match="unknown text phase 'adapt'; the phases are: start, revise, whole"):
        phase("adapt")


def test_a_pass_names_a_known_phase_and_one_line():
    with pytest.raises(ValueError, match="phase must be one of start, revise, whole; got 'later'"):
        Pass("x", "later", "does x", lambda t, c: (t, []))
    with pytest.raises(ValueError, match="the contract is one line"):
        Pass("x", "start", "does\nx", lambda t, c: (t, []))
