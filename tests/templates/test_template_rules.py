"""Template structure beyond the JSON Schema: frames, required_when, placeholder checks at load,
field values checked for contract text, and every shipped field placed in a clause or the preamble."""

import json
import math
import re

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
    ("purpose", "a\u202eb", r"field 'purpose' must hold printable text only, got invisible or direction-changing "
        r"character U\+202E RIGHT-TO-LEFT OVERRIDE"),
    ("purpose", "tab\tinside", r"control character U\+0009"),
    # issue 29 #5: invisible characters that used to reach the drafts and drafts.json
    ("party_a", "Acme\u200bRobotics", r"field 'party_a' .* character U\+200B ZERO WIDTH SPACE at character 4"),
    ("party_a", "Acme\u200dRobotics", r"field 'party_a' .* character U\+200D ZERO WIDTH JOINER"),
    ("party_b", "Beta\u2060Inc", r"field 'party_b' .* character U\+2060 WORD JOINER"),
    ("party_b", "Be\u00adta Inc", r"field 'party_b' .* character U\+00AD SOFT HYPHEN"),
    ("party_b", "Beta \u061cInc", r"field 'party_b' .* character U\+061C ARABIC LETTER MARK"),
    ("party_b", "Beta\u3164Inc", r"field 'party_b' .* character U\+3164 HANGUL FILLER"),
    ("party_b", "Beta\ufe0fInc", r"field 'party_b' .* character U\+FE0F VARIATION SELECTOR-16"),
    # a lone surrogate cannot even be written as UTF-8
    ("party_b", "Beta\ud800Inc", r"field 'party_b' .* character U\+D800"),
    # issue 29 #6: facts that cannot be
    ("effective_date", "2025-13-45", r"field 'effective_date' must be a real calendar date \(there is no month 13\), "
        r"got '2025-13-45'"),
    ("effective_date", "February 30, 2025", r"field 'effective_date' must be a real calendar date \(February 2025 "
        r"has 28 days\), got 'February 30, 2025'"),
    ("effective_date", "2025-02-29", r"February 2025 has 28 days"),
    ("effective_date", "Smarch 1, 2025", r"'Smarch' is not a month"),
    ("nda_term", "-3 years", r"field 'nda_term' must be a positive duration \(-3 years is not a positive length of "
        r"time\), got '-3 years'"),
    ("nda_term", "forever", r"field 'nda_term' must be a positive duration \(a length of time such as 2 years.*got "
        r"'forever'"),
    ("confidentiality_term", "0 months", r"field 'confidentiality_term' must be a positive duration"),
    ("confidentiality_term", "three (4) years", r"says two different numbers"),
    ("governing_law", "12345", r"field 'governing_law' must be a jurisdiction"),
]  # fmt: skip


GOOD_VALUES = [
    ("effective_date", "2024-02-29"),
    ("effective_date", "February 29, 2024"),
    ("nda_term", "three (3) years"),
    ("nda_term", "18 months"),
    ("nda_term", "twenty-four months after signing"),
    ("governing_law", "the laws of England and Wales"),
    ("party_a", "Société Générale S.A."),
    ("party_a", "\u0634\u0631\u06a9\u062a \u0646\u0645\u0648\u0646\u0647"),
]


@pytest.mark.parametrize("name, value", GOOD_VALUES)
def test_real_facts_and_names_in_any_script_pass(name, value):
    t = load_template("mutual-nda")
    assert t.validate_fields(dict(t.example, **{name: value}))[name] == value


@pytest.mark.parametrize("template, name, value, message", [
    ("software-license", "license_term", "forever", r"field 'license_term' must be a positive duration .*or one of "
        r"'perpetual'"),
    ("franchise", "initial_fee", "USD -45,000", r"field 'initial_fee' must be an amount of money \('USD -45,000' is "
        r"a negative amount\)"),
    ("franchise", "initial_fee", "a lot", r"field 'initial_fee' must be an amount of money \(an amount with its "
        r"currency"),
    ("sponsorship", "sponsorship_term", "-2 seasons", r"field 'sponsorship_term' must be a positive duration"),
])  # fmt: skip
def test_declared_kinds_of_other_templates(template, name, value, message):
    t = load_template(template)
    with pytest.raises(FieldError, match=message):
        t.validate_fields(dict(t.example, **{name: value}))
    assert t.validate_fields(dict(t.example))  # and its own example is all real facts


def test_every_shipped_field_declares_its_kind():
    for tid in IDS:
        t = load_template(tid)
        assert all("x-kind" in spec for spec in t.fields["properties"].values()), tid
        assert (
            t.fields["properties"]["effective_date"]["x-kind"] == "date"
            and t.fields["properties"]["governing_law"]["x-kind"] == "jurisdiction"
        )


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
               ("confidentiality", "definitions", "termination", "remedies", "governing_law", "general")]}  # fmt: skip
    law = "the State of " + "Qqzx" * 16  # 77 characters that split into many tokens
    sk = t.render_skeleton(outline, dict(t.example, governing_law=law))
    sk.spans[4].budget = len(tokenizer.encode(sk.spans[4].frame)) + 8
    with pytest.raises(TemplateError, match=r"clause 'governing_law': its frame with these fields takes \d+ tokens"):
        from_template(tokenizer, sk)


OUTLINE_PROBLEMS = [
    (
        ["confidentiality", "termination", "termination", "remedies", "governing_law", "general"],
        "clause type 'termination' repeated at /sections/2",
    ),
    (
        ["confidentiality", "definitions", "notices", "remedies", "governing_law", "general"],
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
               ("confidentiality", "termination", "notices", "remedies", "governing_law", "general")]}  # fmt: skip
    drafts = Drafter(tiny_model, tokenizer).draft(t, t.example, n=2, steps=2, seed=3, outline=outline)
    places = t.field_clauses()
    for d in drafts:
        texts = {"preamble": d.preamble, **{s["clause"]: s["body"] for s in d.sections}}
        for name, where in places.items():
            for place in where:
                assert str(t.example[name]) in texts[place], (name, place)
        frames = {c: t.clauses[c].get("frame") for c in texts if c != "preamble"}
        # a framed body opens with its frame, unless the consistency pass let a fuller restatement of it stand in
        # its place (hybrid.text.wording.drop_restated): then the report says so and the values stay
        changes = [c for r in d.consistency["sections"] for c in r["changes"]]
        replaced = {c["old"] for c in changes if c["kind"] == "restated_sentence"}
        for s in d.sections:
            frame = frames[s["clause"]] and frames[s["clause"]].format(**t.example)
            if frame:
                assert s["body"].startswith(frame) or frame in replaced, s["clause"]
        assert 0 <= d.scores["foreign"] <= 1
        assert all(
            set(f) == {"kind", "text"} for f in draft_foreign_facts(t, d.fields, [s["body"] for s in d.sections])
        )


# --- issue 29: what a template file used to get past its load ------------------------------------

class _Hung(Exception):
    pass


def _load_within(path, seconds: float = 5.0):
    """load_template(path), or _Hung after `seconds` (a loop at load used to hang the CLI forever)."""
    import signal

    def alarm(*_):
        raise _Hung(f"load_template({path}) still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return load_template(path)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _defs(d):
    return d["outline_schema"]["$defs"]


def _raw(text: str):
    """A template file's own text, for what json.dumps cannot write (two equal keys, NaN)."""
    return lambda d: text


_NDA_TEXT = (TEMPLATES_DIR / "mutual-nda.json").read_text()

LOAD_TIME_PROBLEMS = [
    # (mutate the parsed mutual-nda, or return the file's text; words the TemplateError must hold)
    (lambda d: (_defs(d).update(loop={"$ref": "#/$defs/loop"}),
                d["outline_schema"]["properties"].update(sections={"$ref": "#/$defs/loop"})),
     [r"/outline_schema/\$defs/loop refers back to itself through \$ref \(#/\$defs/loop -> #/\$defs/loop\)"]),
    (lambda d: _defs(d).update(a={"$ref": "#/$defs/b"}, b={"type": "object", "additionalProperties": False,
                                                           "properties": {"x": {"$ref": "#/$defs/a"}}}),
     [r"refers back to itself through \$ref \(#/\$defs/[ab] -> #/\$defs/[ab] -> #/\$defs/[ab]\)"]),
    (lambda d: d["outline_schema"]["properties"]["sections"]["anyOf"][0]["prefixItems"].__setitem__(
        0, {"$ref": "#/$defs/nothing"}),
     [r"\$ref '#/\$defs/nothing' at /outline_schema/properties/sections/anyOf/0/prefixItems/0 names no entry of "
         r"/outline_schema/\$defs"]),
    (_raw(_NDA_TEXT.replace('"id": "mutual-nda",', '"id": "mutual-nda",\n "id": "my-nda",')),
     [r"not valid JSON \(key \"id\" appears twice in one object"]),
    (_raw(_NDA_TEXT.replace('"clauses": {', '"clauses": {\n  "notices": '
                            '{"heading": "Notices", "budget": 64, "required_terms": []},', 1)),
     [r"key \"notices\" appears twice"]),
    (_raw(_NDA_TEXT.replace('"maxLength": 200,', '"maxLength": NaN,', 1)),
     [r"not valid JSON \(NaN at /fields/properties/purpose/maxLength is not a number JSON allows"]),
    (_raw(_NDA_TEXT.replace('"grounding": {', '"grounding": {"x": Infinity, ', 1)),
     [r"Infinity at /grounding/x is not a number"]),
    (_raw('{"id": ' + "[" * 100_000 + "]" * 100_000 + "}"), [r"not valid JSON \(nested deeper than 64 levels"]),
    (_raw('{"grounding": ' + "[" * 80 + "]" * 80 + "}"), [r"nested deeper than 64 levels \(at "
        r"/grounding/0/0/0/0/0/\.\.\.\)"]),
    (lambda d: d.update(signature_block="\x1b[2J\x1b[31mSIGNED\x1b[0m by {party_a}"),
     [r": /signature_block must not hold terminal \(ANSI\) escape sequences"]),
    (lambda d: d.update(preamble="\u202e" + d["preamble"]),
     [r": /preamble must hold printable text only, got invisible or direction-changing character U\+202E "
         r"RIGHT-TO-LEFT OVERRIDE at character 0"]),
    (lambda d: d["clauses"]["termination"].update(frame="It lasts\u200b for {nda_term}."),
     [r": /clauses/termination/frame .* U\+200B ZERO WIDTH SPACE"]),
    (lambda d: d["clauses"]["confidentiality"]["required_terms"].append("Confidential\tInformation"),
     [r"/clauses/confidentiality/required_terms/2 must hold printable text only, got control character U\+0009"]),
    (lambda d: d.update(preamble="x" * 5_000_000),
     [r"breaks the template meta-schema at /preamble: 'xxxxxxxx.*\.\.\. \(5000000 characters\) is too long"]),
    (lambda d: (d["fields"]["properties"].update(signatory={"type": "string", "maxLength": 80,
                                                            "description": "who signs"}),
                d["fields"]["required"].append("signatory"), d["example"].update(signatory="J. Doe")),
     [r"required field 'signatory' is placed in no text of the template"]),
    (lambda d: d["fields"]["properties"]["purpose"].update({"x-kind": "percent"}),
     [r"/fields/properties/purpose has x-kind 'percent', which needs type integer or number, got 'string'"]),
    (lambda d: d["fields"]["properties"]["purpose"].update({"x-kind": "colour"}),
     [r"breaks the template meta-schema at /fields/properties/purpose/x-kind"]),
    (lambda d: d["example"].update(effective_date="2025-02-30"),
     [r"/example is not valid for /fields: field 'effective_date' must be a real calendar date \(February 2025 has "
         r"28 days\)"]),
]  # fmt: skip


@pytest.mark.parametrize("mutate, words", LOAD_TIME_PROBLEMS)
def test_a_template_problem_is_one_short_error_at_load(tmp_path, mutate, words):
    data = json.loads(_NDA_TEXT)
    data["id"] = "my-nda"
    text = mutate(data)
    path = tmp_path / "my-nda.json"
    path.write_text(text if isinstance(text, str) else json.dumps(data))
    with pytest.raises(TemplateError) as e:
        _load_within(path)
    msg = str(e.value)
    assert msg.startswith(str(path)) and len(msg) < 600, msg[:600]
    for w in words:
        assert re.search(w, msg), msg


def test_numeric_field_bounds_must_be_finite_and_ordered(tmp_path):
    """NaN built in Python (no JSON file to refuse it) passes the meta-schema's "type": "number"."""
    from hybrid.templates.template import _from_dict

    for bounds, words in (({"minimum": float("nan")}, "minimum must be a finite number, got nan"),
                          ({"minimum": 60, "maximum": 10}, "allows no value: minimum 60 is above maximum 10")):
        data = json.loads((TEMPLATES_DIR / "franchise.json").read_text())
        data["fields"]["properties"]["royalty_percent"].update(bounds)
        with pytest.raises(TemplateError, match=re.escape(words)):
            _from_dict(data, "franchise.json")


@pytest.mark.parametrize("arg, words", [
    ("x" * 300, ["unknown template 'xxxxxxxx", "(300 characters)"]),
    ("x" * 300 + ".json", ["template file not found: 'xxxxx", "(305 characters)"]),
    ("dir/" + "y" * 300, ["template file not found"]),
])  # fmt: skip
def test_a_template_argument_too_long_for_a_file_name_is_a_clear_error(capsys, tmp_path, arg, words):
    code = main(["draft", arg, "--example", "--out", str(tmp_path / "o"), "--threads", "1"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err and err.count("\n") == 1 and len(err) < 600, err
    assert all(w in err for w in words), err


@pytest.mark.parametrize("text, words", [
    ("[" * 100_000 + "]" * 100_000, ["fields file", "nested deeper than 64 levels"]),
    ('{"party_a": "A", "party_a": "B"}', ["fields file", "key \"party_a\" appears twice"]),
])
def test_a_fields_file_nested_or_doubled_is_a_clear_error(capsys, tmp_path, text, words):
    f = tmp_path / "deal.json"
    f.write_text(text)
    code = main(["draft", "mutual-nda", "--fields-file", str(f), "--out", str(tmp_path / "o"), "--threads", "1"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err and all(w in err for w in words), err
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("template, name, value", [
    ("mutual-nda", "purpose", ["p" * 5_000_000]),  # the wrong type, echoed
    ("distributor", "exclusivity", "e" * 5_000_000),  # not one of an enum, echoed
    ("mutual-nda", "p" * 5_000_000, "x"),  # an unknown field's name, echoed
])  # fmt: skip
def test_a_5_mb_field_value_is_not_a_5_mb_message(capsys, tmp_path, template, name, value):
    f = tmp_path / "deal.json"
    f.write_text(json.dumps(dict(load_template(template).example, **{name: value})))
    code = main(["draft", template, "--fields-file", str(f), "--out", str(tmp_path / "o"), "--threads", "1"])
    err = capsys.readouterr().err
    assert code == 2 and len(err) < 800 and "characters" in err and "Traceback" not in err, err[:800]
