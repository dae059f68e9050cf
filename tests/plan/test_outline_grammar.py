"""The planner's structural grammar (hybrid.plan.grammar.outline_ebnf) on a tiny random model: no
repeated clause type, the template's title, the clauses the fields require, the section count in
range and the jsonschema check, for every shipped template and a user template; the JSON Schema
alone (structured=False) lets repeats through."""

import json
import os

import jsonschema
import pytest

from hybrid.common.sampling import SamplingParams
from hybrid.data.plan_format import outline_json
from hybrid.plan.grammar import outline_ebnf
from hybrid.plan.planner import Planner
from hybrid.templates.template import TEMPLATES_DIR, OutlineStructure, load_template

IDS = sorted(p.stem for p in TEMPLATES_DIR.glob("*.json"))
SEEDS = range(int(os.environ.get("HYBRID_PLAN_SEEDS", "3")))
HOT = SamplingParams(temperature=1.5)  # a random model at high temperature explores the grammar widely


@pytest.fixture(scope="module")
def planner(tiny_model, tokenizer):
    return Planner(tiny_model, tokenizer)


def _user_template(tmp_path) -> str:
    """An equipment lease written from the template docs (not in templates/): free title, one repeatable type."""
    data = json.loads((TEMPLATES_DIR / "supply.json").read_text())
    data.update(
        id="equipment-lease",
        title="EQUIPMENT LEASE",
        outline_rules={"free_title": True, "repeatable": ["indemnification"]},
    )
    path = tmp_path / "equipment-lease.json"
    path.write_text(json.dumps(data))
    return str(path)


def _check(t, values, outline, text):
    clauses = [s["clause"] for s in outline["sections"]]
    jsonschema.validate(outline, t.outline_schema)
    assert text == outline_json(outline)
    assert t.outline_problems(outline, values) == []
    repeatable = set(t.outline_rules.get("repeatable", []))
    for i, c in enumerate(clauses):
        assert c not in clauses[:i] or (c in repeatable and clauses[i - 1] == c), clauses
    st = t.structure
    order = list(st.lead) + list(st.optional) + list(st.tail)
    assert [order.index(c) for c in clauses] == sorted(order.index(c) for c in clauses), clauses
    assert st.min_sections <= len(clauses) <= st.max_sections
    assert set(t.required_when(values)) <= set(clauses)


@pytest.mark.parametrize("tid", IDS)
def test_structured_outline_never_repeats_and_has_the_required_clauses(planner, tid):
    t = load_template(tid)
    values = t.validate_fields(t.example)
    for seed in SEEDS:
        r = planner.plan(t, values, seed=seed, params=HOT)
        assert r.outline["title"] == t.title
        _check(t, values, r.outline, r.text)


def test_user_template_free_title_and_repeatable_type(planner, tmp_path):
    t = load_template(_user_template(tmp_path))
    values = t.validate_fields(t.example)
    titles = set()
    for seed in range(6):
        r = planner.plan(t, values, seed=seed, params=HOT)
        _check(t, values, r.outline, r.text)
        titles.add(r.outline["title"])
    assert titles != {t.title}  # the planner wrote the title


def test_the_json_schema_alone_lets_repeats_through(planner):
    repeats = 0
    for tid in IDS[:4]:
        t = load_template(tid)
        for seed in SEEDS:
            clauses = [
                s["clause"]
                for s in planner.plan(t, t.example, seed=seed, params=HOT, structured=False).outline["sections"]
            ]
            repeats += len(clauses) != len(set(clauses))
    assert repeats > 0


def _outlines(st: OutlineStructure, required: set) -> set:
    """Every clause sequence the structure allows (brute force, for small structures)."""
    out = set()
    n = len(st.optional)
    for mask in range(1 << n):
        chosen = [c for i, c in enumerate(st.optional) if mask >> i & 1]
        seq = tuple(st.lead) + tuple(chosen) + tuple(st.tail)
        if required <= set(seq) and st.min_sections <= len(seq) <= st.max_sections:
            out.add(seq)
    return out


GRAMMARS = [
    (OutlineStructure(("a",), ("b", "c", "d"), ("e",), 3, 4), set()),
    (OutlineStructure(("a",), ("b", "c", "d"), ("e",), 3, 4), {"c"}),
    (OutlineStructure((), ("b", "c", "d"), (), 1, 2), {"d"}),
    (OutlineStructure(("a", "b"), ("c", "d"), (), 2, 4), set()),
]


@pytest.mark.parametrize("st, required", GRAMMARS)
def test_grammar_accepts_exactly_the_allowed_clause_sequences(st, required):
    import xgrammar as xgr

    ebnf = outline_ebnf(st, "T", required)
    grammar = xgr.Grammar.from_ebnf(ebnf)
    info = xgr.TokenizerInfo([bytes([i]) for i in range(256)], xgr.VocabType.RAW, vocab_size=256)
    compiled = xgr.GrammarCompiler(info, max_threads=1).compile_grammar(grammar)
    clauses = sorted(set(st.lead + st.optional + st.tail))
    every = set()
    for mask in range(1, 1 << (len(clauses) + 2)):
        seq, m = [], mask
        while m and len(seq) < st.max_sections + 1:
            seq.append(clauses[m % len(clauses)])
            m //= len(clauses)
        every.add(tuple(seq))
    allowed = _outlines(st, required)
    for seq in every | allowed:
        text = outline_json({"title": "T", "sections": [{"heading": "H", "clause": c} for c in seq]})
        matcher = xgr.GrammarMatcher(compiled, terminate_without_stop_token=True)
        ok = all(matcher.accept_token(b) for b in text.encode()) and matcher.is_terminated()
        assert ok == (seq in allowed), seq


def test_a_schema_of_another_shape_falls_back_to_the_json_schema(planner, tmp_path):
    data = json.loads((TEMPLATES_DIR / "mutual-nda.json").read_text())
    data["id"] = "free-shape"
    data["outline_schema"]["properties"]["sections"] = {"type": "array", "items": {"$ref": "#/$defs/optional_section"},
                                                        "minItems": 1, "maxItems": 4}
    for spec in data["clauses"].values():
        spec.pop("required_when", None)
    path = tmp_path / "free-shape.json"
    path.write_text(json.dumps(data))
    t = load_template(str(path))
    assert t.structure is None and Planner.outline_grammar(t, t.example) is None
    r = planner.plan(t, t.example, seed=0, params=HOT)
    jsonschema.validate(r.outline, t.outline_schema)
