"""Libraries live on the workbench (hybrid.serve.libraries): listed, added from uploaded contracts and removed while the
server runs, each change offered to the next draft without a restart; bad uploads refused naming the field and the
file; a server made with fixed libraries refuses changes; a user library's Drafter is made again when its file
changes."""

import base64

import pytest

from _workbench import CONTRACT, NDA, client, drafter, live_library, make_app, read_events  # noqa: F401 (fixtures)


def upload(name="mine", files=None, **extra) -> dict:
    files = files if files is not None else [("nda.txt", CONTRACT.encode())]
    return {"name": name, "files": [{"name": n, "data": base64.b64encode(d).decode()} for n, d in files], **extra}


@pytest.fixture
def live(drafter, tmp_path, monkeypatch):  # noqa: F811
    """A TestClient of an app with live libraries, its user libraries under tmp_path."""
    from fastapi.testclient import TestClient

    from hybrid.serve.app import create_app
    from hybrid.serve.libraries import Libraries, drafters

    monkeypatch.setenv("HYBRID_CACHE", str(tmp_path / "cache"))
    app = create_app(drafters(drafter, live_library), defaults={"steps": 2}, libraries=Libraries())
    with TestClient(app) as c:
        yield c


def _draft(client, library):
    return client.post("/api/drafts", json={"template": "mutual-nda", "fields": NDA.example, "n": 1,
                                            "library": library})


def test_a_library_added_while_the_server_runs_drafts_at_once_and_goes_when_removed(live):
    assert [x["name"] for x in live.get("/api/libraries").json()["libraries"]] == ["shipped"]
    refused = _draft(live, "mine")
    assert refused.status_code == 400 and "unknown library 'mine'" in refused.json()["error"]
    r = live.post("/api/libraries", json=upload())
    assert r.status_code == 200, r.text
    assert r.json()["library"] == "mine" and r.json()["added"] == [{"file": "nda.txt", "clauses": 3}]
    assert live.get("/api/templates").json()["libraries"] == ["shipped", "mine"]
    listed = {x["name"]: x for x in live.get("/api/libraries").json()["libraries"]}
    assert listed["mine"]["precedents"] == 3 and listed["mine"]["files"] == 1
    job = _draft(live, "mine")
    assert job.status_code == 202, job.text
    with live.stream("GET", f"/api/drafts/{job.json()['job']}/events") as s:
        events = read_events(s.iter_lines())
    assert events[-1]["event"] == "done", events[-1]
    (d,) = next(e for e in events if e["event"] == "rank")["drafts"]
    cited = {c["doc_id"] for s in d["sections"] for c in s["sources"]}
    assert "nda.txt" in cited  # the uploaded file, cited by its name
    assert live.delete("/api/libraries/mine").json() == {"removed": "mine"}
    assert _draft(live, "mine").status_code == 400
    assert live.delete("/api/libraries/mine").json()["field"] == "library-name"


@pytest.mark.parametrize("body, field, says", [
    (upload(name="../up"), "library-name", "a library name is 1-40 lower-case letters"),
    (upload(name="shipped"), "library-name", "reserved"),
    (upload(files=[("scan.pdf", b"%PDF")]), "library-files", "'scan.pdf'"),
    (upload(files=[]), "library-files", "files must be a list of 1 to 200"),
    (upload(files=[("a.md", b"x"), ("dir/a.md", b"y")]), "library-files", "'a.md' is given twice"),
    ({**upload(), "files": [{"name": "a.md", "data": "not base64!"}]}, "library-files", "base64"),
    (upload(files=[("empty.md", b"  ")]), "library-files", "empty.md (empty)"),
    (upload(path="/etc"), "path", "'path'"),
])
def test_a_bad_upload_is_refused_naming_its_field_and_file(live, body, field, says):
    r = live.post("/api/libraries", json=body)
    assert r.status_code == 400 and says in r.json()["error"], r.json()
    assert r.json()["field"] == field
    assert [x["name"] for x in live.get("/api/libraries").json()["libraries"]] == ["shipped"]


def test_a_server_with_fixed_libraries_refuses_changes(client):
    assert client.get("/api/libraries").json() == {"libraries": [{"name": "shipped", "status": "ok"}],
                                                   "manage": False}
    r = client.post("/api/libraries", json=upload())
    assert r.status_code == 400 and "fixed" in r.json()["error"]


def test_a_user_librarys_drafter_is_made_again_when_its_file_changes(drafter, tmp_path, monkeypatch):  # noqa: F811
    from hybrid.precedents.user import add_folder
    from hybrid.serve.libraries import drafters

    monkeypatch.setenv("HYBRID_CACHE", str(tmp_path / "cache"))
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "nda.txt").write_text(CONTRACT)
    add_folder(tmp_path / "a", "mine")
    made = []
    drafter_for = drafters(drafter, lambda name: made.append(name) or live_library(name))
    assert drafter_for(None) is drafter and drafter_for("shipped") is drafter
    first = drafter_for("mine")
    assert drafter_for("mine") is first and made == ["mine"]
    (tmp_path / "a" / "more.txt").write_text(CONTRACT.replace("Pelican", "Heron"))
    add_folder(tmp_path / "a", "mine")
    again = drafter_for("mine")
    assert again is not first and made == ["mine", "mine"]
    assert {p.doc_id for p in again.precedent_library().precedents if p.source == "library:mine"} == {"nda.txt",
                                                                                                      "more.txt"}


def test_a_library_added_with_the_cli_beside_a_running_server_is_offered_at_once(live, tmp_path, capsys):
    from hybrid.cli.main import main

    (tmp_path / "firm").mkdir()
    (tmp_path / "firm" / "nda.txt").write_text(CONTRACT)
    assert _draft(live, "firm").status_code == 400
    assert main(["library", "add", str(tmp_path / "firm"), "--name", "firm"]) == 0
    assert "firm" in live.get("/api/templates").json()["libraries"]
    job = _draft(live, "firm")
    assert job.status_code == 202
    with live.stream("GET", f"/api/drafts/{job.json()['job']}/events") as s:
        assert read_events(s.iter_lines())[-1]["event"] == "done"
    assert main(["library", "remove", "firm"]) == 0
    assert "firm" not in live.get("/api/templates").json()["libraries"]
