"""hybrid.templates.template: every shipped template loads, bad templates and bad fields give clear errors,
skeletons use the canonical Document layout, placeholders never execute anything."""

import copy
import json
import re

import jsonschema
import pytest

from hybrid.common.errors import FieldError, TemplateError
from hybrid.data.clauses import CLAUSE_TYPES, classify_heading
from hybrid.data.document import Document, Section
from hybrid.templates.template import (
    TEMPLATES_DIR,
    build_outline_schema,
    list_templates,
    load_template,
    substitute,
)

IDS = sorted(p.stem for p in TEMPLATES_DIR.glob("*.json"))
REQUIRED_KINDS = [
    "mutual-nda", "one-way-nda", "saas-agreement", "software-license",
    "consulting-services", "distributor", "sponsorship", "supply",
]  # fmt: skip


def test_the_issue_template_kinds_all_ship():
    assert set(REQUIRED_KINDS) <= set(IDS)
    assert [t.id for t in list_templates()] == IDS


@pytest.mark.parametrize("tid", IDS)
def test_template_loads_and_its_example_validates(tid):
    t = load_template(tid)
    assert t.id == tid
    assert t.validate_fields(t.example) == {**t.example}
    assert {"party_a", "party_b", "effective_date", "governing_law"} <= set(t.required_fields)
    outline = t.example_outline()
    jsonschema.validate(outline, t.outline_schema)
    assert [s["clause"] for s in outline["sections"] if s["clause"] in t.required_clauses] == t.required_clauses


@pytest.mark.parametrize("tid", IDS)
def test_template_is_grounded_in_train_and_val_documents(tid):
    g = load_template(tid).grounding
    assert g["splits"] == ["train", "val"] and g["documents_read"] >= 1 and g["documents_with_outline"] >= 1
    assert all(c in CLAUSE_TYPES for c in g["clause_doc_frequency"])


@pytest.mark.parametrize("tid", IDS)
def test_default_headings_classify_to_their_own_clause_type(tid):
    # the planner is trained on real outlines labelled by classify_heading: template headings must agree
    t = load_template(tid)
    assert set(t.clause_types) == set(t.clauses)
    for ctype, spec in t.clauses.items():
        assert classify_heading(spec["heading"]) == ctype, (ctype, spec["heading"])


@pytest.mark.parametrize("tid", IDS)
def test_skeleton_is_the_document_layout_with_empty_bodies(tid):
    t = load_template(tid)
    outline = t.example_outline()
    sk = t.render_skeleton(outline, t.example)
    doc = Document(
        path="", source="", doc_type=t.doc_type, split="", group="",
        title=outline["title"], preamble=sk.segments[1].text[:-2],
        sections=[Section(str(i + 1), s["heading"], s["clause"], "") for i, s in enumerate(outline["sections"])],
        tail=sk.segments[-1].text,
    )  # fmt: skip
    assert sk.text == doc.text
    assert [s.kind for s in sk.segments[:5]] == ["text", "text", "heading", "body", "text"]
    assert len(sk.spans) == len(sk.body_segments()) == len(outline["sections"])
    assert all(s.text == "" for s in sk.body_segments())
    assert [s.section for s in sk.body_segments()] == [sp.section for sp in sk.spans] == list(range(len(sk.spans)))
    assert all(sp.budget >= 16 for sp in sk.spans)
    assert t.example["party_a"] in sk.spans[0].locked and t.example["party_b"] in sk.spans[0].locked
    assert not re.search(r"\{[a-z][a-z0-9_]*\}", sk.text + json.dumps([sp.__dict__ for sp in sk.spans]))
    assert t.example["party_a"] in sk.text and t.example["effective_date"] in sk.text


def test_placeholders_are_substituted_once_and_never_formatted():
    t = load_template("distributor")
    fields = dict(t.example, party_a="{party_b} {0.__class__} {products!r}", party_b="Beta")
    sk = t.render_skeleton(t.example_outline(), fields)
    assert "{party_b} {0.__class__} {products!r} (\"Supplier\")" in sk.text
    assert substitute("{a}{b}", {"a": "{b}", "b": "x"}) == "{b}x"
    assert substitute("{Not_a_field} {} {a.b}", {}) == "{Not_a_field} {} {a.b}"


def test_unknown_template_id_lists_the_closest_ids():
    with pytest.raises(TemplateError, match=r"unknown template 'distributer'\. Closest: distributor\."):
        load_template("distributer")
    with pytest.raises(TemplateError, match=r"Closest: .*mutual-nda"):
        load_template("mutual-nd")


def test_missing_template_file_is_a_template_error(tmp_path):
    with pytest.raises(TemplateError, match="template file not found"):
        load_template(tmp_path / "nope.json")


def _broken(mutate):
    data = json.loads((TEMPLATES_DIR / "distributor.json").read_text())
    mutate(data)
    return data


def _sections(d):
    return d["outline_schema"]["properties"]["sections"]


@pytest.mark.parametrize(
    "mutate, expected",
    [
        (lambda d: d.pop("fields"), "at /: 'fields' is a required property"),
        (lambda d: d.update(id="Bad Id"), "at /id"),
        (
            lambda d: _sections(d).update(contains={"const": "x"}),
            "at /outline_schema/properties/sections: Additional properties are not allowed ('contains'",
        ),
        (lambda d: d["outline_schema"]["$defs"]["heading"].update(maxLength=60), "at /outline_schema/$defs/heading"),
        (
            lambda d: d["outline_schema"]["$defs"]["heading"].pop("pattern"),
            "at /outline_schema/$defs/heading: 'pattern' is a required property",
        ),
        (lambda d: d["clauses"]["payment"].update(budget=5), "at /clauses/payment/budget"),
        (lambda d: d["clauses"].update(nonsense=d["clauses"]["payment"]), "at /clauses"),
        (lambda d: d["fields"]["properties"].pop("party_b"), "at /fields/properties: 'party_b' is a required property"),
        (lambda d: d["fields"]["properties"]["products"].pop("maxLength"), "at /fields/properties/products"),
        (
            lambda d: d.update(preamble="Between {party_a} and {counterparty}."),
            "placeholder {counterparty} at /preamble names no field",
        ),
        (
            lambda d: d["clauses"].pop("audit"),
            "clause type 'audit' is in /outline_schema but has no entry under /clauses",
        ),
        (
            lambda d: d["example"].update(territory=7),
            "/example is not valid for /fields: field 'territory' must be of type string",
        ),
        (lambda d: d.update(unexpected=1), "at /: Additional properties are not allowed ('unexpected'"),
    ],
)
def test_template_breaking_the_meta_schema_names_file_and_pointer(tmp_path, mutate, expected):
    path = tmp_path / "custom.json"
    path.write_text(json.dumps(_broken(mutate)))
    with pytest.raises(TemplateError) as e:
        load_template(path)
    assert str(path) in str(e.value)
    assert expected in str(e.value)


def test_template_file_that_is_not_json_names_the_line(tmp_path):
    path = tmp_path / "t.json"
    path.write_text('{"id": "x",\n  oops}')
    with pytest.raises(TemplateError, match=r"t\.json: not valid JSON \(line 2"):
        load_template(path)


def test_user_template_file_loads_by_path(tmp_path):
    data = _broken(lambda d: d.update(id="my-distributor"))
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data))
    assert load_template(str(path)).id == "my-distributor"


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda f: f.pop("territory"), "missing required field 'territory' for template 'distributor'"),
        (
            lambda f: f.update(teritory="Canada"),
            "unknown field 'teritory' for template 'distributor'; allowed fields: party_a, party_b,",
        ),
        (lambda f: f.update(teritory="Canada"), "Did you mean territory?"),
        (lambda f: f.update(party_a=42), "field 'party_a' must be of type string, got 42 (int)."),
        (lambda f: f.update(party_a="A" * 121), "field 'party_a' is too long: 121 characters, at most 120 allowed."),
        (
            lambda f: f.update(exclusivity="sole"),
            'field \'exclusivity\' must be one of "exclusive", "non-exclusive", got "sole".',
        ),
        (
            lambda f: f.update(effective_date="soon"),
            "field 'effective_date' must be a date such as 2025-03-01 or March 1, 2025, got \"soon\".",
        ),
    ],
)
def test_bad_fields_name_the_field_allowed_values_and_value(change, message):
    t = load_template("distributor")
    fields = copy.deepcopy(t.example)
    change(fields)
    with pytest.raises(FieldError) as e:
        t.validate_fields(fields)
    assert message in str(e.value)


def test_number_fields_are_range_checked_and_coerced_from_strings():
    t = load_template("franchise")
    assert t.coerce_field_strings({"royalty_percent": "6.5", "territory": "7"}) == {
        "royalty_percent": 6.5,
        "territory": "7",
    }
    with pytest.raises(FieldError, match=r"field 'royalty_percent' must be of type number, got \"six\""):
        t.coerce_field_strings({"royalty_percent": "six"})
    with pytest.raises(FieldError, match=r"field 'royalty_percent' must be in \[0, 50\], got 80"):
        t.validate_fields(dict(t.example, royalty_percent=80))


def test_outline_violations_name_the_pointer():
    t = load_template("distributor")
    outline = t.example_outline()
    outline["sections"][1]["clause"] = "payment"
    with pytest.raises(TemplateError, match=r"at /sections"):
        t.validate_outline(outline)
    outline = t.example_outline()
    outline["sections"][0]["heading"] = "lower case start"
    with pytest.raises(TemplateError):
        t.render_skeleton(outline, t.example)


def test_build_outline_schema_requires_lead_and_tail_in_order():
    s = build_outline_schema(["appointment"], ["notices", "warranties"], ["general"], 3, 5)

    def sec(c):
        return {"heading": "Heading", "clause": c}

    ok = {"title": "T", "sections": [sec("appointment"), sec("notices"), sec("notices"), sec("general")]}
    jsonschema.validate(ok, s)
    for bad in (
        [sec("appointment"), sec("notices"), sec("warranties")],  # tail missing
        [sec("notices"), sec("appointment"), sec("general")],  # lead not first
        [sec("appointment"), sec("general")],  # too few
        [sec("appointment")] + [sec("notices")] * 4 + [sec("general")],  # too many
        [sec("appointment"), sec("general"), sec("general")],  # required type repeated
    ):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({"title": "T", "sections": bad}, s)


def test_cli_templates_lists_id_title_path_and_required_fields(capsys):
    from hybrid.cli.main import main

    assert main(["templates", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in rows] == IDS
    assert rows[0]["path"].endswith(f"{IDS[0]}.json") and "party_a" in rows[0]["required_fields"]
    assert main(["templates"]) == 0
    assert "distributor" in capsys.readouterr().out
