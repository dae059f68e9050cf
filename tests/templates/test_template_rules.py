"""Template structure beyond the JSON Schema: frames, required_when, placeholder checks at load,
field values checked for contract text, and every shipped field placed in a clause or the preamble."""

import json
import math

import pytest

from hybrid.cli.main import main
from hybrid.common.errors import FieldError, TemplateError
from hybrid.common.textsafe import check_field_value, escape_markdown
from hybrid.skeleton.tokenized import from_template
from hybrid.templates.template import TEMPLATES_DIR, load_template

IDS = sorted(p.stem for p in TEMPLATES_DIR.glob("*.json"))


def _nda(mutate) -> dict:
    data = json.loads((TEMPLATES_DIR / "mutual-nda.json").read_text())
    data["id"] = "my-nda"
    mutate(data)
    return data


def _write(tmp_path, data):
    path = tmp_path / "my-nda.json"
    path.write_text(json.dumps(data))
    return path


def _clause(d, c):
    return d["clauses"][c]


BAD_TEMPLATES = [
    (lambda d: _clause(d, "termination").update(frame="It lasts {nda_trm}."),
     r"clause 'termination': frame placeholder \{nda_trm\} at /clauses/termination/frame names no field"),
    (lambda d: _clause(d, "termination").update(frame="It lasts for a while. " * 24),
     r"clause 'termination': frame at /clauses/termination/frame may take 264 tokens .*budget 256"),
    (lambda d: _clause(d, "governing_law").update(budget=48),
     r"clause 'governing_law': frame .* \(\{governing_law\}\) .*budget 48"),
    (lambda d: _clause(d, "termination").update(required_when=["nda_term", "nda_trm"]),
     r"clause 'termination': /clauses/termination/required_when/1 names field 'nda_trm', "
     r"which is not a declared field"),
    (lambda d: d.update(preamble="Between {party_a.__class__} and {party_b}."),
     r"placeholder '\{party_a\.__class__\}' at /preamble is not allowed"),
    (lambda d: d.update(signature_block="{0}\n\nBy: ____"),
     r"placeholder '\{0\}' at /signature_block is not allowed"),
    (lambda d: _clause(d, "termination").update(frame="For {nda_term} {confidentiality_term!r}."),
     r"placeholder '\{confidentiality_term!r\}' at /clauses/termination/frame is not allowed"),
    (lambda d: _clause(d, "termination").update(frame="An open { brace for {nda_term}."),
     r"placeholder '\{ brace for \{' at /clauses/termination/frame|placeholder '\{' at /clauses/termination/frame"),
    (lambda d: d.update(outline_rules={"repeatable": ["payment"]}),
     r"/outline_rules/repeatable names clause 'payment', which /outline_schema never allows"),
    (lambda d: d["clauses"].update(payment={"heading": "Payment", "budget": 64, "required_terms": [],
                                            "required_when": ["purpose"]}),
     r"clause 'payment' has required_when but /outline_schema never allows it"),
]  # fmt: skip


@pytest.mark.parametrize("mutate, message", BAD_TEMPLATES)
def test_bad_template_is_refused_at_load_naming_clause_and_placeholder(tmp_path, mutate, message):
    path = _write(tmp_path, _nda(mutate))
    with pytest.raises(TemplateError, match=message) as e:
        load_template(path)
    assert str(path) in str(e.value)


@pytest.mark.parametrize("mutate, message", BAD_TEMPLATES[:4])
def test_bad_template_exits_2_with_one_line(tmp_path, capsys, mutate, message):
    path = _write(tmp_path, _nda(mutate))
    assert main(["plan", str(path), "--example"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "Traceback" not in err and err.startswith("hybrid: error: ")


BAD_VALUES = [
    ("party_a", float("nan"), r"field 'party_a' must be of type string"),
    ("party_a", "", r"field 'party_a' must not be blank, got ''"),
    ("party_a", "   ", r"field 'party_a' must not be blank"),
    ("party_a", "Acme\n## 99. Fake Section", r"field 'party_a' must be one line .* newline at character 4"),
    ("party_b", "Beta\r\nInc", r"field 'party_b' must be one line"),
    ("party_b", "\x1b[31mRed Corp\x1b[0m", r"field 'party_b' must not hold terminal \(ANSI\) escape sequences"),
    ("purpose", "testing\x07 bells", r"field 'purpose' must hold printable text only, got control character U\+0007"),
    ("purpose", "a\u202eb", r"field 'purpose' must hold printable text only, got control character U\+202E "
                            r"RIGHT-TO-LEFT OVERRIDE"),
    ("purpose", "tab\tinside", r"control character U\+0009"),
]  # fmt: skip


@pytest.mark.parametrize("name, value, message", BAD_VALUES)
def test_field_value_that_cannot_be_contract_text_is_refused(name, value, message):
    t = load_template("mutual-nda")
    with pytest.raises(FieldError, match=message):
        t.validate_fields(dict(t.example, **{name: value}))


@pytest.mark.parametrize("raw", ["nan", "inf", "-inf", "NaN"])
def test_non_finite_numbers_are_refused_from_strings_and_values(raw):
    t = load_template("franchise")
    with pytest.raises(FieldError, match=rf"field 'royalty_percent' must be a finite number, got \"{raw}\""):
        t.coerce_field_strings({"royalty_percent": raw})
    with pytest.raises(FieldError, match=r"field 'royalty_percent' must be a finite number"):
        t.validate_fields(dict(t.example, royalty_percent=float(raw)))


def test_multiline_field_allows_newlines_only_where_declared(tmp_path):
    data = _nda(lambda d: d["fields"]["properties"]["purpose"].update(multiline=True))
    t = load_template(_write(tmp_path, data))
    assert t.validate_fields(dict(t.example, purpose="first\nsecond"))["purpose"] == "first\nsecond"
    with pytest.raises(FieldError, match="control character"):
        t.validate_fields(dict(t.example, purpose="first\x0bsecond"))
    with pytest.raises(FieldError, match="'party_a' must be one line"):
        t.validate_fields(dict(t.example, party_a="A\nB"))


@pytest.mark.parametrize(
    "value",
    ["Acme Robotics, Inc.", "Société Générale S.A.", "O'Neil & Sons (Holdings) Ltd", "3M Company", "{party_b}"],
)
def test_ordinary_names_pass(value):
    check_field_value("party_a", value)


ESCAPES = [
    ("# Heading", r"\# Heading"),
    ("1. item", r"1\. item"),
    ("- bullet", r"\- bullet"),
    ("<script>alert(1)</script>", r"\<script\>alert(1)\</script\>"),
    ("a*b_c [x](y) `z`", r"a\*b\_c \[x\](y) \`z\`"),
    ("AT&T", r"AT\&T"),
    ("plain words, Inc.", "plain words, Inc."),
]


@pytest.mark.parametrize("text, escaped", ESCAPES)
def test_markdown_escaping(text, escaped):
    assert escape_markdown(text) == escaped


def test_draft_markdown_and_docx_show_field_values_literally(tmp_path):
    import docx

    from hybrid.draft.drafter import Draft

    evil = "<script>x</script> # not a heading"
    d = Draft(1, "", "T", f"Between {evil} and B.", [{"number": "1", "heading": "Scope", "clause": "general",
              "body": "# Injected\n1. not a list"}], "", {}, 0.0, {})  # fmt: skip
    md = d.markdown
    assert [line for line in md.splitlines() if line.startswith("#")] == ["# T", "## 1. Scope"]
    assert "<script>" not in md and r"\<script\>" in md
    path = d.to_docx(tmp_path / "d.docx")
    text = "\n".join(p.text for p in docx.Document(str(path)).paragraphs)
    assert evil in text and "# Injected" in text


@pytest.mark.parametrize("tid", IDS)
def test_every_field_of_a_shipped_template_is_placed_and_its_clause_required(tid):
    t = load_template(tid)
    places = t.field_clauses()
    assert set(places) == set(t.fields["properties"]), set(t.fields["properties"]) - set(places)
    st = t.structure
    required = set(st.lead + st.tail) | set(t.required_when(t.example))
    for name, where in places.items():
        assert all(w == "preamble" or w in required for w in where), (name, where)


@pytest.mark.parametrize("tid", IDS)
def test_frames_are_rendered_from_fields_and_locked_at_the_span_start(tid, tokenizer):
    t = load_template(tid)
    st = t.structure
    required = set(t.required_when(t.example))
    extra = st.min_sections - len(st.lead) - len(st.tail) - len(required & set(st.optional))
    optional = [c for c in st.optional if c in required or (c not in required and (extra := extra - 1) >= 0)]
    clauses = list(st.lead) + optional + list(st.tail)
    outline = {"title": t.title, "sections": [{"heading": t.clauses[c]["heading"], "clause": c} for c in clauses]}
    sk = t.render_skeleton(outline, t.example)
    framed = [s for s in sk.spans if s.frame]
    assert framed, "every shipped template frames some clause"
    for span in framed:
        for name in span.frame_fields:
            assert str(t.example[name]) in span.frame
        assert "{" not in span.frame
    tsk = from_template(tokenizer, sk)
    for span, slot in zip(sk.spans, tsk.spans):
        ids = tokenizer.encode(span.frame) if span.frame else []
        assert tsk.ids[slot.start : slot.start + len(ids)].tolist() == ids
        assert bool(tsk.locked[slot.start : slot.start + len(ids)].all())
        assert not bool(tsk.locked[slot.start + len(ids) : slot.end - 1].any())
    plain = t.render_skeleton(outline, t.example, frames=False)
    assert not any(s.frame for s in plain.spans)


def test_frame_too_long_for_the_real_values_is_a_template_error(tokenizer):
    t = load_template("mutual-nda")
    outline = {"title": t.title, "sections": [{"heading": "X", "clause": c} for c in
               ("confidentiality", "definitions", "termination", "governing_law", "general")]}  # fmt: skip
    law = "the State of " + "Qqzx" * 16  # 77 characters that split into many tokens
    sk = t.render_skeleton(outline, dict(t.example, governing_law=law))
    sk.spans[3].budget = len(tokenizer.encode(sk.spans[3].frame)) + 8
    with pytest.raises(TemplateError, match=r"clause 'governing_law': its frame with these fields takes \d+ tokens"):
        from_template(tokenizer, sk)


OUTLINE_PROBLEMS = [
    (
        ["confidentiality", "termination", "termination", "governing_law", "general"],
        "clause type 'termination' repeated at /sections/2",
    ),
    (
        ["confidentiality", "definitions", "notices", "governing_law", "general"],
        "clause type 'termination' missing; required when nda_term, confidentiality_term is given",
    ),
]


@pytest.mark.parametrize("clauses, problem", OUTLINE_PROBLEMS)
def test_outline_problems_name_the_repeat_and_the_missing_clause(clauses, problem):
    t = load_template("mutual-nda")
    outline = {"title": t.title, "sections": [{"heading": "X", "clause": c} for c in clauses]}
    t.validate_outline(outline)  # the JSON Schema alone accepts both
    assert problem in t.outline_problems(outline, t.validate_fields(t.example))


def test_title_must_be_the_templates_unless_free(tmp_path):
    t = load_template("mutual-nda")
    outline = dict(t.example_outline(), title="STRATEGIC ALLIANCE AGREEMENT")
    outline["sections"][2] = {"heading": "Term", "clause": "termination"}
    assert t.outline_problems(outline, t.example) == [
        "title 'STRATEGIC ALLIANCE AGREEMENT' is not the template's 'MUTUAL NON-DISCLOSURE AGREEMENT'"
    ]
    free = load_template(_write(tmp_path, _nda(lambda d: d.update(outline_rules={"free_title": True}))))
    assert free.outline_problems(outline, free.example) == []


def test_non_finite_check_is_exact():
    check_field_value("fee", 1e308)
    with pytest.raises(FieldError):
        check_field_value("fee", math.inf)


def test_every_field_appears_where_its_template_puts_it_after_a_tiny_model_fill(tiny_model, tokenizer):
    from hybrid import Drafter
    from hybrid.fidelity.foreign_facts import draft_foreign_facts

    t = load_template("mutual-nda")
    outline = {"title": t.title, "sections": [{"heading": t.clauses[c]["heading"], "clause": c} for c in
               ("confidentiality", "termination", "notices", "governing_law", "general")]}  # fmt: skip
    drafts = Drafter(tiny_model, tokenizer).draft(t, t.example, n=2, steps=2, seed=3, outline=outline)
    places = t.field_clauses()
    for d in drafts:
        texts = {"preamble": d.preamble, **{s["clause"]: s["body"] for s in d.sections}}
        for name, where in places.items():
            for place in where:
                assert str(t.example[name]) in texts[place], (name, place)
        frames = {c: t.clauses[c].get("frame") for c in texts if c != "preamble"}
        for s in d.sections:
            if frames[s["clause"]]:
                assert s["body"].startswith(frames[s["clause"]].format(**t.example)), s["clause"]
        assert 0 <= d.scores["foreign"] <= 1
        assert all(
            set(f) == {"kind", "text"} for f in draft_foreign_facts(t, d.fields, [s["body"] for s in d.sections])
        )
