"""The workbench against hostile requests (issue 52, items 1, 2, 8, 9): a template is looked up by id only (no file
of the server's working directory is opened), an uploaded template's `$ref` reads no file, deeply nested JSON and
export arguments of the wrong type are 400s naming the field, never a 500 with a traceback."""

import json
import pathlib

import pytest

from hybrid.templates.template import TEMPLATES_DIR, load_template

from _workbench import client, drafter, make_app, read_events  # noqa: F401 (fixtures)

NDA = load_template("mutual-nda")
GOOD = {k: str(v) for k, v in NDA.example.items()}
SECRET = "TOP-SECRET-VALUE-42"


@pytest.fixture
def watched(monkeypatch):
    """The paths the process opens while the test runs."""
    opened = []
    real_open = open

    def watch(path, *a, **k):
        opened.append(str(path))
        return real_open(path, *a, **k)

    monkeypatch.setattr("builtins.open", watch)
    real_read = pathlib.Path.read_text
    monkeypatch.setattr(pathlib.Path, "read_text",
                        lambda self, *a, **k: opened.append(str(self)) or real_read(self, *a, **k))
    return opened


@pytest.mark.parametrize("name", ["README.md", "pyproject.toml", "requirements.lock", "nonexistent.md"])
def test_a_template_is_looked_up_by_id_only(client, name, tmp_path, monkeypatch, watched):
    (tmp_path / name).write_text("{}")
    monkeypatch.chdir(tmp_path)  # a file of that name in the server's working directory
    for r in (client.get(f"/api/templates/{name}"),
              client.post("/api/drafts", json={"template": name, "fields": GOOD, "n": 1})):
        body = r.json()
        assert r.status_code in (400, 404) and body["field"] == "template", body
        assert body["error"].startswith(f"unknown template {name!r}") and "mutual-nda" in body["error"]
        assert "JSON" not in body["error"]
    assert not any(name in p for p in watched)
    assert client.app.state.jobs.jobs == {}


def test_an_uploaded_template_with_a_ref_to_a_file_reads_nothing(client, tmp_path):
    secret = tmp_path / "secret.json"
    secret.write_text(json.dumps({"const": SECRET}))
    data = json.loads((TEMPLATES_DIR / "mutual-nda.json").read_text())
    data["fields"]["properties"]["purpose"]["$ref"] = secret.as_uri()
    r = client.post("/api/templates/upload", json={"name": "t.json", "text": json.dumps(data)})
    assert r.status_code == 400 and r.json()["field"] == "upload"
    assert "field 'purpose'" in r.json()["error"] and SECRET not in r.text and str(secret) not in r.text
    for ref in ("file:///etc/passwd", "file:///dev/zero"):
        data["fields"]["properties"]["purpose"]["$ref"] = ref
        r = client.post("/api/templates/upload", json={"name": "t.json", "text": json.dumps(data)})
        assert r.status_code == 400 and "root:" not in r.text and "Traceback" not in r.text


def _nested(depth: int) -> list:
    out: list = []
    for _ in range(depth):
        out = [out]
    return out


@pytest.mark.parametrize("text", ["[" * 500_000, "{\"a\": " * 100_000,
                                  json.dumps({"template": "mutual-nda", "fields": {"purpose": _nested(100)}})])
def test_deeply_nested_json_is_a_400(client, text):
    for url in ("/api/drafts", "/api/templates/upload"):
        r = client.post(url, content=text, headers={"content-type": "application/json"})
        assert r.status_code == 400 and "nested too deeply" in r.json()["error"], r.text
    assert client.app.state.jobs.jobs == {}


@pytest.fixture(scope="module")
def finished(drafter):
    """A finished draft on its own app: (client, job id, number of sections)."""
    from fastapi.testclient import TestClient

    from hybrid.serve.app import create_app

    with TestClient(create_app(lambda library: drafter, defaults={"steps": 2})) as c:
        r = c.post("/api/drafts", json={"template": "mutual-nda", "fields": GOOD, "n": 2})
        job = r.json()["job"]
        with c.stream("GET", f"/api/drafts/{job}/events") as s:
            events = read_events(s.iter_lines())
        assert events[-1]["event"] == "done"
        yield c, job, len(next(e for e in events if e["event"] == "rank")["drafts"][0]["sections"])


@pytest.mark.parametrize("fmt,pick,field", [(["docx"], 1, "format"), ({"docx": 1}, 1, "format"),
                                             ("md", [1], "picks"), ("md", {}, "picks")])
def test_export_arguments_of_the_wrong_type_are_400s_naming_the_field(finished, fmt, pick, field):
    client, job, n = finished
    r = client.post(f"/api/drafts/{job}/export", json={"picks": [pick] * n, "format": fmt})
    assert r.status_code == 400 and r.json()["field"] == field, r.text
    assert client.post(f"/api/drafts/{job}/export", json={"picks": [1] * n, "format": "md"}).status_code == 200
