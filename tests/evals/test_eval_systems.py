"""evals.systems: the name table and its factory, template choice for `planned`, and one system run on a real
document."""

import re
import sys
from dataclasses import replace
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # evals/ is a top-level package of the repo

from evals.systems import SYSTEMS, Engine, get_system, parse_systems, planned_fields, template_for  # noqa: E402
from hybrid.common.errors import ConfigError, HybridError, TemplateError  # noqa: E402
from hybrid.data.corpus import build_document  # noqa: E402
from hybrid.plan.planner import PlanResult  # noqa: E402
from hybrid.templates.template import load_template  # noqa: E402

EXCERPTS = Path(__file__).resolve().parent.parent / "data" / "excerpts"


def _bigrams(text: str) -> list[tuple[str, str]]:
    words = text.split()
    return list(zip(words, words[1:]))


@pytest.fixture(scope="module")
def banners():
    """A real CUAD excerpt with one numbered section, its body cut to 30 words (the AR baseline decodes token by
    token)."""
    entry = {
        "path": "cuad/banners.txt",
        "source": "cuad",
        "doc_type": "SUPPLY AGREEMENT",
        "split": "test",
        "group": "g",
    }
    doc = build_document(
        entry,
        (EXCERPTS / "cuad_banners.txt").read_text(),
        {"party_a": "I-Escrow, Inc.", "party_b": "2TheMart.com, Inc."},
    )
    return replace(doc, sections=[replace(s, body=" ".join(s.body.split()[:30])) for s in doc.sections])


def test_every_system_of_the_issue_is_in_the_table():
    assert list(SYSTEMS) == [
        "hybrid",
        "hybrid-beside",
        "hybrid-noprec",
        "hybrid-edit",
        "ar",
        "retrieval",
        "pasting",
        "form",
        "smollm2-ar",
        "smollm2-edit-ar",
        "lora-edit-ar",
        "lora-edit",
        "hybrid-noguide",
        "hybrid-k4",
        "hybrid-k8",
        "hybrid-k16",
        "hybrid-k32",
        "hybrid-k64",
        "planned",
    ]
    assert (
        SYSTEMS["hybrid"].kind == "draft"
        and SYSTEMS["hybrid-beside"].precedents == 1
        and SYSTEMS["hybrid-noprec"].precedents == 0
        and SYSTEMS["retrieval"].kind == "retrieval"
    )
    assert (
        SYSTEMS["smollm2-ar"].model == "smollm2-135m" and SYSTEMS["smollm2-ar"].costly and not SYSTEMS["hybrid"].costly
    )
    assert [SYSTEMS[f"hybrid-k{k}"].steps for k in (4, 8, 16, 32, 64)] == [4, 8, 16, 32, 64]
    assert (
        SYSTEMS["hybrid-noguide"].guidance == 1.0
        and SYSTEMS["ar"].kind == "ar"
        and SYSTEMS["planned"].kind == "planned"
    )


@pytest.mark.parametrize("name", ["hybird", "gpt2", "hybrid-k5", ""])
def test_unknown_system_is_a_hybrid_error_listing_the_valid_ones(name):
    with pytest.raises(HybridError) as e:
        get_system(name)
    assert repr(name) in str(e.value) and all(s in str(e.value) for s in SYSTEMS)


@pytest.mark.parametrize(
    "spec, want",
    [
        ("hybrid,ar", ["hybrid", "ar"]),
        (" ar , hybrid,ar ", ["ar", "hybrid"]),
        ("planned", ["planned"]),
        ("hybrid,real", ["hybrid"]),
    ],
)
def test_parse_systems_keeps_order_and_drops_duplicates(spec, want):
    assert [s.name for s in parse_systems(spec)] == want


@pytest.mark.parametrize("spec", ["", " , ", "hybrid,nope", "real"])
def test_parse_systems_rejects_empty_and_unknown(spec):
    with pytest.raises(ConfigError, match="valid"):
        parse_systems(spec)


@pytest.mark.parametrize(
    "doc_type, template",
    [
        ("SUPPLY AGREEMENT", "supply"),
        ("FRANCHISE AGREEMENT3", "franchise"),  # CUAD numbers repeated doc types
        ("RESELLER AGREEMENT", "distributor"),  # a grounding doc type of the distributor template
        ("CLOUD TERMS", "saas-agreement"),
        ("POLICY", None),
        ("FUSION", None),
    ],
)
def test_template_for_a_doc_type(doc_type, template):
    t = template_for(doc_type)
    assert (t.id if t else None) == template


def test_planned_fields_take_the_documents_fields_the_template_accepts():
    t = load_template("supply")
    fields = planned_fields(t, {"party_a": "Acme Corp.", "party_b": "X" * 5000, "not_a_field": "ignored"})
    assert fields["party_a"] == "Acme Corp."
    assert fields["party_b"] == t.example["party_b"]  # too long for the template: the example's stays
    assert "not_a_field" not in fields


@pytest.mark.parametrize("name", ["hybrid-beside", "hybrid-noprec", "hybrid-edit", "ar", "hybrid-k4"])
def test_a_system_fills_every_span_of_every_variant_and_the_same_seed_gives_the_same_drafts(
    name, tiny_model, tokenizer, banners
):
    engine = Engine(tiny_model, tokenizer)
    a = engine.run(SYSTEMS[name], banners, n=3, seed=5)
    assert not a.skipped and len(a.bodies) == 3 and all(len(b) == len(banners.sections) for b in a.bodies)
    assert a.clauses == [s.clause_type for s in banners.sections]
    assert a.seconds > 0 and a.tokens > 0 and a.outline is None
    # the real text is not handed on
    assert [s.text for s in a.segments if s.kind == "body"] == [""] * len(banners.sections)
    assert a.terms == ["I-Escrow, Inc.", "2TheMart.com, Inc."]
    b = engine.run(SYSTEMS[name], banners, n=3, seed=5)
    assert a.bodies == b.bodies
    c = engine.run(SYSTEMS[name], banners, n=3, seed=6)
    assert c.bodies != a.bodies


def test_retrieval_writes_the_top_precedent_with_the_deals_facts_cut_to_the_real_length(tiny_model, tokenizer, banners):
    engine = Engine(tiny_model, tokenizer)
    d = engine.run(SYSTEMS["retrieval"], banners, n=2, seed=0)
    assert len(d.bodies) == 2 and d.tokens == 0 and d.clauses == [s.clause_type for s in banners.sections]
    for bodies in d.bodies:
        assert all(0 < len(b.split()) <= len(s.body.split()) for b, s in zip(bodies, banners.sections))
        # role markers replaced by the deal's facts
        assert not any(re.search(r"\[[A-Z_]+\]", b) for b in bodies), bodies
    assert d.required_terms is not None and len(d.required_terms) == len(banners.sections)


def test_hybrid_edit_keeps_words_of_the_precedent_it_starts_from(tiny_model, tokenizer, banners):
    from hybrid.data.precedent_pairs import deal_from_document

    engine = Engine(tiny_model, tokenizer)
    # the whole precedent the edit starts from (retrieval pastes only its first words: a cut of the edit that took
    # out its sentences naming another deal's terms keeps words from further on)
    hits = engine.library().for_document(banners, variant=0, seed=0)
    pairs = {bg for p in hits if p for bg in _bigrams(p.adapted(deal_from_document(banners)))}

    def share(bodies):
        got = [bg for b in bodies for bg in _bigrams(b)]
        return sum(bg in pairs for bg in got) / max(1, len(got))

    edited = engine.run(SYSTEMS["hybrid-edit"], banners, n=1, seed=0).bodies[0]
    scratch = engine.run(SYSTEMS["hybrid"], banners, n=1, seed=0).bodies[0]
    assert share(edited) > 0.3 > share(scratch)


def test_the_drafting_models_fills_are_fact_guarded(tiny_model, tokenizer, banners, monkeypatch):
    from hybrid.fill.diffusion import sampler

    seen = []
    real = sampler.fill
    monkeypatch.setattr(sampler, "fill", lambda *a, **kw: seen.append(kw["params"].fact_guard) or real(*a, **kw))
    Engine(tiny_model, tokenizer).run(SYSTEMS["hybrid-noprec"], banners, n=1, seed=0)
    assert seen and seen[0] is not None


class _StubPlanner:
    """Returns the template's own example outline (the real planner is tested in tests/plan/test_planner.py)."""

    def __init__(self, error=None):
        self.error, self.calls = error, []

    def plan(self, template, fields, seed=0, params=None):
        self.calls.append((template.id, fields["party_a"], seed))
        if self.error:
            raise self.error
        outline = template.example_outline()
        return PlanResult(outline, "", [], 0, 0.01)


def test_planned_fills_the_planners_outline_under_the_doc_types_template(tiny_model, tokenizer, banners):
    engine = Engine(tiny_model, tokenizer)
    engine._planner = _StubPlanner()
    d = engine.run(SYSTEMS["planned"], banners, n=2, seed=3)
    t = load_template("supply")
    outline = t.example_outline()
    assert engine._planner.calls == [("supply", "I-Escrow, Inc.", 3)]
    assert d.template == "supply" and d.outline == outline
    assert d.clauses == [s["clause"] for s in outline["sections"]] and d.required == t.required_clauses
    assert len(d.bodies) == 2 and all(len(b) == len(outline["sections"]) for b in d.bodies)
    assert "I-Escrow, Inc." in d.terms and d.plan_seconds > 0 and d.seconds >= d.plan_seconds


def test_planned_skips_a_doc_type_without_template_and_records_a_failed_plan(tiny_model, tokenizer, banners):
    engine = Engine(tiny_model, tokenizer)
    engine._planner = _StubPlanner(error=TemplateError("outline does not satisfy template 'supply'"))
    failed = engine.run(SYSTEMS["planned"], banners, n=2, seed=0)
    assert (
        failed.skipped.startswith("planner failed")
        and failed.outline is None
        and failed.template == "supply"
        and failed.bodies == []
    )
    none = engine.run(SYSTEMS["planned"], replace(banners, doc_type="POLICY"), n=2, seed=0)
    assert "no template for doc type 'POLICY'" in none.skipped and none.template is None


def test_hybrid_is_exactly_what_hybrid_draft_does_by_default(tiny_model, tokenizer, banners):
    from hybrid.draft.drafter import Drafter

    engine = Engine(tiny_model, tokenizer)
    got = engine.run(SYSTEMS["hybrid"], banners, n=2, seed=3)
    t = load_template("supply")
    fields = planned_fields(t, banners.fields)
    direct = Drafter(tiny_model, tokenizer, library=engine.library()).draft(t, fields, n=2, seed=3)
    direct = sorted(direct, key=lambda d: d.variant)
    assert not got.skipped and got.template == "supply"
    # the drafter's own path, its defaults; each variant's bodies, then empty ones up to the widest variant's
    own = [[s["body"] for s in d.sections] for d in direct]
    assert [b[: len(d.sections)] for b, d in zip(got.bodies, direct)] == own
    assert all(not any(b[len(d.sections):]) for b, d in zip(got.bodies, direct))
    widest = max(direct, key=lambda d: len(d.sections))
    assert got.clauses == [s["clause"] for s in widest.sections] and got.outline == widest.outline
    settings = direct[0].settings
    assert settings["precedents"] == 1 and settings["precedent_start"] == 0.0  # edited from precedent
    assert [s.text for s in got.segments if s.kind == "body"] == [""] * len(widest.sections)
    assert any(s.kind == "heading" and widest.sections[0]["heading"] in s.text for s in got.segments)


def test_pasting_is_the_default_drafts_own_sources_with_their_frames(tiny_model, tokenizer, banners):
    from hybrid.draft.drafter import Drafter

    engine = Engine(tiny_model, tokenizer)
    pasted = engine.run(SYSTEMS["pasting"], banners, n=2, seed=3)
    drafted = engine.run(SYSTEMS["hybrid"], banners, n=2, seed=3)
    t = load_template("supply")
    fields = planned_fields(t, banners.fields)
    direct = sorted(
        Drafter(tiny_model, tokenizer, library=engine.library()).draft(t, fields, n=2, seed=3), key=lambda d: d.variant
    )
    assert pasted.clauses == drafted.clauses and pasted.outline == drafted.outline  # the same sections
    sourced = 0
    for v, d in enumerate(direct):
        frames = [sec["frame"] for sec in d.sections]  # a base draft records each section's frame
        for i, sec in enumerate(d.sections):
            body = pasted.bodies[v][i]
            if not sec.get("start_text"):
                assert body == sec["body"]
                continue
            sourced += 1
            assert len(body.split()) <= len(sec["body"].split())
            start = f"{frames[i]} {sec['start_text']}" if frames[i] else sec["start_text"]
            assert " ".join(start.split()).startswith(" ".join(body.split()))  # no word the engine wrote
    assert sourced and pasted.bodies != drafted.bodies


def test_form_is_the_default_drafts_bases_with_the_deals_facts_and_nothing_written(tiny_model, tokenizer, banners):
    from hybrid.draft.drafter import Drafter
    from hybrid.precedents.base import documents

    engine = Engine(tiny_model, tokenizer)
    form = engine.run(SYSTEMS["form"], banners, n=2, seed=3)
    t = load_template("supply")
    fields = planned_fields(t, banners.fields)
    direct = sorted(
        Drafter(tiny_model, tokenizer, library=engine.library()).draft(t, fields, n=2, seed=3), key=lambda d: d.variant
    )
    assert not form.skipped and form.template == "supply" and form.seconds == 0.0 and form.tokens == 0
    docs = documents(engine.library())
    for v, d in enumerate(direct):
        base = docs[d.base["doc_id"]]
        bodies = form.bodies[v][: len(base)]
        assert len(bodies) == len(base) and not any(form.bodies[v][len(base):])
        # each body is the base's own section with the deal's names in the markers' place, not the draft's body
        assert all("[PARTY_A]" not in b for b in bodies)
        assert [len(b.split()) for b in bodies] != [len(s["body"].split()) for s in d.sections[: len(base)]]
    assert "Supplier" in " ".join(form.bodies[0])  # the deal's role words stand where the base's parties stood
