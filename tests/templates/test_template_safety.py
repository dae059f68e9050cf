"""A template is data: its field schema reads no file and no URL (a `$ref` stays inside the template's fields,
and jsonschema's registry refuses every retrieval), a catastrophic `pattern` gives up within its time bound
instead of freezing the process, and a bad value or a `$ref`'d constraint is a message naming the field, never
a traceback (issue 52, items 1, 4, 10, 12). A field's keywords are a closed list: any other (allOf, examples,
contentSchema, $id, ...) is refused naming the field, so nothing a check does not know reaches jsonschema."""

import json
import os
import time

import pytest
from referencing.exceptions import Unresolvable

from hybrid.cli.main import main
from hybrid.common.errors import FieldError, TemplateError
from hybrid.draft.request import DraftRequest
from hybrid.templates.safe_schema import validator
from hybrid.templates.template import TEMPLATES_DIR, load_template, parse_template
from tests.listener import SECRET, CountingListener


def _nda(**purpose) -> dict:
    data = json.loads((TEMPLATES_DIR / "mutual-nda.json").read_text())
    data["id"] = "my-nda"
    data["fields"]["properties"]["purpose"].update(purpose)
    return data


@pytest.fixture
def secret_file(tmp_path):
    path = tmp_path / "secret-schema.json"
    path.write_text(json.dumps({"const": SECRET}))
    return path


@pytest.fixture
def listener():
    """A local HTTP server that counts the requests it gets (a template must make none)."""
    with CountingListener() as got:
        yield got.url, got.hits


def _refs(secret_file, url):
    return [secret_file.as_uri(), url, "secret-schema.json", "//127.0.0.1/x.json", "#", "urn:x"]


def test_a_ref_to_a_file_or_url_is_refused_at_load_and_nothing_is_read(secret_file, listener, tmp_path, capsys):
    url, hits = listener
    for ref in _refs(secret_file, url):
        with pytest.raises(TemplateError) as e:
            parse_template(json.dumps(_nda(**{"$ref": ref})), "t.json")
        message = str(e.value)
        assert "field 'purpose'" in message and "/fields/properties/purpose/$ref" in message, message
        assert "'#/properties/<field>'" in message and "never reads a file or a URL" in message
        assert SECRET not in message and str(secret_file) not in message and "127.0.0.1" not in message
    path = tmp_path / "t.json"  # the command line: exit 2, one line, nothing of the file
    path.write_text(json.dumps(_nda(**{"$ref": secret_file.as_uri()})))
    assert main(["plan", str(path), "--example"]) == 2
    out, err = capsys.readouterr()
    assert "field 'purpose'" in err and SECRET not in out + err and str(secret_file) not in out + err
    assert "Traceback" not in err
    assert hits == []


@pytest.mark.parametrize("spec,words", [
    ({"$ref": "#/properties/nowhere"}, "names nothing"),
    ({"$ref": "#/properties/party_b/$ref"}, "names nothing"),
    ({"$ref": "#/required"}, "names nothing"),
    ({"$id": "http://127.0.0.1/x.json"}, "('$id' was unexpected)"),
    ({"$dynamicRef": "http://127.0.0.1/x.json"}, "('$dynamicRef' was unexpected)"),
    ({"$schema": "http://127.0.0.1/x.json"}, "('$schema' was unexpected)"),
])
def test_a_ref_that_resolves_to_nothing_or_moves_the_base_is_refused(spec, words):
    with pytest.raises(TemplateError, match="field 'purpose'") as e:
        parse_template(json.dumps(_nda(**spec)), "t.json")
    assert words in str(e.value)


def test_a_ref_that_leads_to_another_ref_or_back_to_itself_is_refused():
    data = _nda(**{"$ref": "#/properties/nda_term"})
    data["fields"]["properties"]["nda_term"]["$ref"] = "#/properties/purpose"
    with pytest.raises(TemplateError, match="chain"):
        parse_template(json.dumps(data), "t.json")
    with pytest.raises(TemplateError, match="chain"):
        parse_template(json.dumps(_nda(**{"$ref": "#/properties/purpose"})), "t.json")  # itself


def test_the_validators_never_retrieve_anything(secret_file, listener):
    url, hits = listener
    for ref in (secret_file.as_uri(), url):
        v = validator({"type": "object", "properties": {"x": {"$ref": ref}}})
        with pytest.raises(Unresolvable):
            list(v.iter_errors({"x": "anything"}))
    assert hits == []


def test_a_ref_to_an_enum_names_the_field_and_its_values():
    data = _nda(**{"$ref": "#/properties/kind"})
    data["fields"]["properties"]["kind"] = {"description": "what is shared", "enum": ["software", "data"]}
    with pytest.raises(TemplateError) as e:  # the example's purpose is neither
        parse_template(json.dumps(data), "t.json")
    assert "field 'purpose' must be one of \"software\", \"data\", got \"evaluating" in str(e.value)
    data["example"]["purpose"] = "data"
    data["fields"]["properties"]["purpose"]["maxLength"] = 10
    t = parse_template(json.dumps(data), "t.json")
    with pytest.raises(FieldError, match="field 'purpose' must be one of \"software\", \"data\", got \"code\""):
        t.validate_fields({**t.example, "purpose": "code"})


def test_a_huge_integer_is_the_fields_error_not_a_traceback():
    example = load_template("mutual-nda").example
    with pytest.raises(FieldError, match="field 'party_a' must be of type string, got an integer of more than 4300"):
        DraftRequest.of("mutual-nda", {**example, "party_a": 10**5000})
    with pytest.raises(FieldError, match="field 'purpose' must be of type string, got a list too deeply nested"):
        DraftRequest.of("mutual-nda", {**example, "purpose": _nested(5000)})


def _nested(depth: int) -> list:
    out: list = []
    for _ in range(depth):
        out = [out]
    return out


def test_a_catastrophic_pattern_gives_up_within_its_time_bound_in_the_validator():
    """The validator on its own (a schema that did not come through a template's load, whose check refuses these
    patterns: tests/templates/test_template_patterns.py): the pattern gives up within PATTERN_SECONDS."""
    for pattern, value, words in (("^(a+)+$", "a" * 28 + "!", "does not match"),  # re: 34 s at 28 a's
                                  ("^(a|aa)+$", "a" * 60 + "!", "pattern gave up after 0.25 s")):
        start = time.monotonic()
        errors = validator({"properties": {"x": {"pattern": pattern}}}).iter_errors({"x": value})
        # 2 s: the 0.25 s bound plus a loaded machine's slack (unbounded, the first took 34 s)
        assert time.monotonic() - start < 2 and len(errors) == 1 and words in errors[0].message, errors
    assert validator({"properties": {"x": {"pattern": "^(a+)+$"}}}).iter_errors({"x": "a" * 200}) == []


@pytest.mark.parametrize("keyword,value", [
    ("allOf", [{"$ref": "file:///etc/passwd"}]),
    ("examples", [{"$ref": "file:///etc/passwd"}]),
    ("contentSchema", {"$ref": "http://127.0.0.1:9/x.json"}),
    ("if", {"const": "x"}),
    ("format", "uri"),
    ("$comment", "a note"),
    ("minLength", 3),
    ("const", SECRET),
])
def test_a_keyword_no_check_knows_is_refused_naming_the_field_and_the_keywords(keyword, value):
    with pytest.raises(TemplateError) as e:
        parse_template(json.dumps(_nda(**{keyword: value})), "t.json")
    message = str(e.value)
    assert message.startswith("t.json: field 'purpose': breaks the template meta-schema at /fields/properties/purpose")
    assert f"({keyword!r} was unexpected); a field's keywords are description, enum, " in message, message
    assert "/etc/passwd" not in message and "127.0.0.1" not in message and SECRET not in message


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "schema.fifo"
    os.mkfifo(path)
    return path


def test_a_ref_to_a_fifo_or_dev_zero_is_refused_at_once(fifo, tmp_path, capsys):
    """Read, a FIFO would block the loader for ever and /dev/zero fill memory: neither is opened."""
    for ref in (fifo.as_uri(), str(fifo), "file:///dev/zero", "/dev/zero", "file:///proc/self/environ"):
        start = time.monotonic()
        with pytest.raises(TemplateError, match="field 'purpose': \\$ref at /fields/properties/purpose/\\$ref"):
            parse_template(json.dumps(_nda(**{"$ref": ref})), "t.json")
        assert time.monotonic() - start < 5
    path = tmp_path / "t.json"
    path.write_text(json.dumps(_nda(**{"$ref": fifo.as_uri()})))
    assert main(["plan", str(path), "--example"]) == 2
    out, err = capsys.readouterr()
    assert err.startswith("hybrid: error: ") and "field 'purpose'" in err and str(fifo) not in out + err


def test_a_refd_enum_the_example_breaks_is_exit_2_naming_the_field(tmp_path, capsys):
    data = _nda(**{"$ref": "#/properties/kind"})
    data["fields"]["properties"]["kind"] = {"description": "what is shared", "enum": ["software", "data"]}
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data))
    assert main(["plan", str(path), "--example"]) == 2
    out, err = capsys.readouterr()
    assert "field 'purpose' must be one of \"software\", \"data\"" in err and "Traceback" not in out + err


def _enum(n: int) -> dict:
    data = _nda()
    data["fields"]["properties"]["purpose"] = {"description": "what is shared", "enum": [f"v{i}" for i in range(n)]}
    data["example"]["purpose"] = "v1"
    return data


def test_a_huge_enum_is_refused_at_once_and_a_long_one_is_listed_in_part():
    text = json.dumps(_enum(200_000))
    start = time.monotonic()  # 200,000 values: 2.4 s to load, and a 1.9 MB message for a value not among them
    with pytest.raises(TemplateError, match="t.json: holds 200[0-9]{3} JSON values, more than the 10000 a template "
                                            "may; its longest list or object is at /fields/properties/purpose/enum"):
        parse_template(text, "t.json")
    assert time.monotonic() - start < 2
    with pytest.raises(TemplateError, match="field 'purpose': breaks the template meta-schema at "
                                            "/fields/properties/purpose/enum: .* is too long"):
        parse_template(json.dumps(_enum(201)), "t.json")
    t = parse_template(json.dumps(_enum(200)), "t.json")
    with pytest.raises(FieldError) as e:
        t.validate_fields({**t.example, "purpose": "v200"})
    assert str(e.value) == ('field \'purpose\' must be one of "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", '
                            '"v9", "v10", "v11" (and 188 more), got "v200".')
