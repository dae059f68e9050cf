"""A template is data: its field schema reads no file and no URL (a `$ref` stays inside the template's fields,
and jsonschema's registry refuses every retrieval), a catastrophic `pattern` gives up within its time bound
instead of freezing the process, and a bad value or a `$ref`'d constraint is a message naming the field, never
a traceback (issue 52, items 1, 4, 10, 12)."""

import http.server
import json
import threading
import time

import pytest
from referencing.exceptions import Unresolvable

from hybrid.cli.main import main
from hybrid.common.errors import FieldError, TemplateError
from hybrid.draft.request import DraftRequest
from hybrid.templates.safe_schema import validator
from hybrid.templates.template import TEMPLATES_DIR, load_template, parse_template

SECRET = "TOP-SECRET-VALUE-42"


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
    hits = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (the stdlib's name)
            hits.append(self.path)
            body = json.dumps({"const": SECRET}).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *a):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/schema.json", hits
    server.shutdown()
    server.server_close()


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
    ({"$id": "http://127.0.0.1/x.json"}, "$id at /fields/properties/purpose/$id is not allowed"),
    ({"$dynamicRef": "http://127.0.0.1/x.json"}, "$dynamicRef at"),
    ({"$schema": "http://127.0.0.1/x.json"}, "$schema at"),
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


def _patterned(pattern: str):
    data = _nda(pattern=pattern, description="a run of a's")
    data["example"]["purpose"] = "aaaa"
    return parse_template(json.dumps(data), "t.json")


def test_a_catastrophic_pattern_gives_up_within_its_time_bound():
    t = _patterned("^(a+)+$")  # Python's re: 34 s on 28 characters, doubling with each one more
    start = time.monotonic()
    with pytest.raises(FieldError, match="field 'purpose'"):
        t.validate_fields({**t.example, "purpose": "a" * 28 + "!"})
    assert time.monotonic() - start < 1
    assert t.validate_fields({**t.example, "purpose": "a" * 200})["purpose"] == "a" * 200  # a match still matches
    t = _patterned("^(a|aa)+$")  # one that backtracks in the regex package too: refused at its time bound
    start = time.monotonic()
    with pytest.raises(FieldError, match="field 'purpose' could not be checked against its pattern"):
        t.validate_fields({**t.example, "purpose": "a" * 60 + "!"})
    assert time.monotonic() - start < 1
