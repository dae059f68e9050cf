"""An uploaded template is held to what the loader holds (issue 52, items 1 and 4): a field `$ref` to a URL makes
no request, a pattern that could freeze, a keyword no check knows and a huge enum are each a 400 naming the field
(or where in the file), within seconds, with no traceback; the server needs nothing of its own for them."""

import json
import time

import pytest

from hybrid.templates.template import TEMPLATES_DIR
from tests.listener import SECRET, CountingListener

from _workbench import client, drafter, make_app  # noqa: F401 (fixtures)


@pytest.fixture
def listener():
    """A local HTTP server that counts the requests it gets (an upload must make none)."""
    with CountingListener() as got:
        yield got.url, got.hits


def _upload(client, **purpose):
    data = json.loads((TEMPLATES_DIR / "mutual-nda.json").read_text())
    data["id"] = "my-nda"
    example = purpose.pop("example", None)
    data["fields"]["properties"]["purpose"].update(purpose)
    if example is not None:
        data["example"]["purpose"] = example
    start = time.monotonic()
    r = client.post("/api/templates/upload", json={"name": "t.json", "text": json.dumps(data)})
    return r, time.monotonic() - start


def test_hostile_field_schemas_are_400s_naming_the_field_and_fetch_nothing(client, listener):
    url, hits = listener
    cases = [({"$ref": url}, "field 'purpose': $ref at /fields/properties/purpose/$ref must point inside"),
             ({"allOf": [{"$ref": url}]}, "field 'purpose': breaks the template meta-schema"),
             ({"pattern": "^(a+)+$", "example": "a" * 28 + "!"}, "field 'purpose': pattern '^(a+)+$'"),
             ({"pattern": "^(a|aa)+$", "example": "a" * 60 + "!"}, "field 'purpose': pattern '^(a|aa)+$'"),
             ({"enum": [f"v{i}" for i in range(50_000)]}, "its longest list or object is at "
                                                          "/fields/properties/purpose/enum")]
    for purpose, words in cases:
        r, seconds = _upload(client, **purpose)
        assert r.status_code == 400 and r.json()["field"] == "upload", r.text[:300]
        assert words in r.json()["error"] and seconds < 5, (r.json()["error"][:300], seconds)
        assert "127.0.0.1" not in r.text and SECRET not in r.text and "Traceback" not in r.text
    assert hits == []
