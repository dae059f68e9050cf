"""The workbench's routes on a tiny random Drafter: template forms, a draft's server-sent progress, the side-by-side
data (sources, redlines), picking and downloading, cancel, and every bad input refused with the CLI's own message,
next to its field, with nothing written and no path from a request reaching a file."""

import io
import json
import os

import docx
import pytest

from hybrid.cli.main import main
from hybrid.draft.docx_export import xml_safe
from hybrid.templates.template import load_template

from _workbench import client, drafter, make_app, read_events  # noqa: F401 (fixtures)

NDA = load_template("mutual-nda")

GOOD = {k: str(v) for k, v in NDA.example.items()}


def _draft(client, **over):
    return client.post("/api/drafts", json={"template": "mutual-nda", "fields": GOOD, "n": 3, **over})


def _events(client, job):
    with client.stream("GET", f"/api/drafts/{job}/events") as r:
        assert r.headers["content-type"].startswith("text/event-stream")
        return read_events(r.iter_lines())


@pytest.fixture(scope="module")
def drafted(drafter):
    """One finished draft of 3 variants on its own app: (client, job id, events)."""
    from fastapi.testclient import TestClient

    from hybrid.serve.app import create_app

    with TestClient(create_app(lambda library: drafter, defaults={"steps": 2})) as c:
        r = _draft(c)
        assert r.status_code == 202, r.text
        job = r.json()["job"]
        yield c, job, _events(c, job)


def test_templates_are_listed_with_their_forms(client):
    data = client.get("/api/templates").json()
    ids = [t["id"] for t in data["templates"]]
    assert "mutual-nda" in ids and len(ids) >= 10
    form = next(t for t in data["templates"] if t["id"] == "mutual-nda")
    by_name = {f["name"]: f for f in form["fields"]}
    assert list(by_name) == list(NDA.fields["properties"])
    assert all(by_name[n]["required"] for n in NDA.required_fields)
    assert by_name["effective_date"]["example"] == NDA.example["effective_date"]
    assert by_name["effective_date"]["description"] == NDA.fields["properties"]["effective_date"]["description"]
    page = client.get("/")
    assert page.status_code == 200 and "<form id=\"fields\"" in page.text


def test_a_draft_streams_every_stage_and_shows_three_variants_with_sources_and_redlines(drafted):
    _, _, events = drafted
    kinds = [e["event"] for e in events]
    assert kinds[-1] == "done" and "plan" in kinds and "precedents" in kinds and "rank" in kinds
    assert kinds.index("plan") < kinds.index("precedents") < kinds.index("fill_step") < kinds.index("rank")
    steps = [e for e in events if e["event"] == "fill_step"]
    # each variant's base is filled on its own, one after another: the steps count over the whole draft (3 x K=2)
    assert steps and all(e["steps"] == 2 * 3 for e in steps)
    counted = [e["step"] for e in steps]  # a variant whose holes are written early ends its share early
    assert counted == sorted(set(counted)) and 1 <= counted[0] and counted[-1] <= 2 * 3
    drafts = next(e for e in events if e["event"] == "rank")["drafts"]
    assert [d["rank"] for d in drafts] == [1, 2, 3]
    redlines = 0
    for d in drafts:
        assert {"total", "loglik"} <= set(d["scores"])
        for s in d["sections"]:
            (src,) = s["sources"]
            assert src["doc_id"].startswith("firm/nda-") and src["license"] == "CC-BY-4.0"
            assert f"section {src['id'].rpartition('#')[2]}" in src["line"]
            # the redline turns the precedent's own words into the body: equal + insert parts give the body back;
            # a body the engine wrote (a frame sentence where the precedent went) says so instead
            if s["redline"] is None:
                assert s["origin"].startswith("Composed by the engine")
                continue
            redlines += 1
            assert "".join(t for op, t in s["redline"] if op != "delete") == s["body"]
            assert "firm/nda" not in s["body"]
    assert redlines >= len(drafts)


def test_the_assembled_draft_takes_each_section_from_the_picked_variant(drafted):
    client, job, events = drafted
    drafts = next(e for e in events if e["event"] == "rank")["drafts"]
    picks = [1 if i % 2 == 0 else 2 for i in range(len(drafts[0]["sections"]))]
    r = client.post(f"/api/drafts/{job}/export", json={"picks": picks, "format": "docx"})
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    document = docx.Document(io.BytesIO(r.content))
    text = "\n".join(p.text for p in document.paragraphs)
    differ = 0
    for i, rank in enumerate(picks):
        picked, other = (xml_safe(drafts[r - 1]["sections"][i]["body"].split("\n")[0].strip())
                         for r in (rank, 3 - rank))
        assert picked in text
        if other not in picked:
            assert other not in text
            differ += 1
    assert differ >= 2  # the variants differ, so the picks decide what the document holds
    comments = [c.text for c in document.comments]
    assert len(comments) == len(picks) and all("firm/nda-" in c for c in comments)
    assert "firm/nda-" not in text  # the sources are comments, not contract text
    md = client.post(f"/api/drafts/{job}/export", json={"picks": picks, "format": "md"}).text
    assert md.count("]: Source: ") == len(picks)
    red = client.post(f"/api/drafts/{job}/export", json={"picks": picks, "format": "docx", "redline": True})
    xml = docx.Document(io.BytesIO(red.content)).element.xml
    assert "<w:ins " in xml and "<w:del " in xml
    bad = client.post(f"/api/drafts/{job}/export", json={"picks": [9] * len(picks), "format": "docx"})
    assert bad.status_code == 400 and bad.json()["field"] == "picks" and "picks[0]" in bad.json()["error"]


def _cli_error(capsys, tmp_path, *argv) -> str:
    code = main(["draft", *argv, "--out", str(tmp_path / "cli-out")])
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert code == 2 and err.startswith("hybrid: error: ")
    return err[len("hybrid: error: "):]


@pytest.mark.parametrize("change,cli,field", [
    ({"party_b": ""}, ["--field", "party_b="], "party_b"),  # an empty box is a missing field, as no --field is
    ({"effective_date": "yesterday"}, ["--field", "effective_date=yesterday"], "effective_date"),
    ({"colour": "blue"}, ["--field", "colour=blue"], "colour"),
])
def test_a_bad_field_shows_the_cli_message_next_to_it_and_writes_nothing(client, capsys, tmp_path, monkeypatch,
                                                                         change, cli, field):
    monkeypatch.chdir(tmp_path)
    fields = {**GOOD, **change}
    if change.get("party_b") == "":
        args = [a for k, v in GOOD.items() if k != "party_b" for a in ("--field", f"{k}={v}")]
    else:
        args = [a for k, v in GOOD.items() for a in ("--field", f"{k}={v}")] + cli
    r = _draft(client, fields=fields)
    assert r.status_code == 400 and r.json()["field"] == field
    assert r.json()["error"] == _cli_error(capsys, tmp_path, "mutual-nda", *args)
    assert list(tmp_path.iterdir()) == [] and client.app.state.jobs.jobs == {}


def test_unknown_template_and_bad_n_give_the_cli_message(client, make_app, capsys, tmp_path):
    from fastapi.testclient import TestClient

    r = _draft(client, template="mutual-ndaa")
    assert r.status_code == 400 and r.json()["field"] == "template"
    assert r.json()["error"] == _cli_error(capsys, tmp_path, "mutual-ndaa", "--example")
    with TestClient(make_app(max_n=64)) as wide:  # the CLI's bound
        r = _draft(wide, n=0)
    assert r.status_code == 400 and r.json()["field"] == "n"
    # the CLI's usage line, less its pointer to `hybrid draft -h`
    assert r.json()["error"] == _cli_error(capsys, tmp_path, "mutual-nda", "--example", "-n", "0").removesuffix(
        " (see `hybrid draft -h`)")
    r = _draft(client, n=9)  # the server's bound (max_n 8) in the CLI's words
    assert r.json() == {"error": "argument -n: must be an integer in [1, 8] on this server (--max-n), got 9.",
                        "field": "n"}


def test_a_malformed_uploaded_template_is_refused_with_the_loaders_message(client, tmp_path, capsys):
    (tmp_path / "bad.json").write_text("{not json")
    r = client.post("/api/templates/upload", json={"name": "bad.json", "text": "{not json"})
    assert r.status_code == 400 and r.json()["field"] == "upload" and "not valid JSON" in r.json()["error"]
    cli = _cli_error(capsys, tmp_path, str(tmp_path / "bad.json"), "--example")
    assert r.json()["error"].split(": ", 1)[1] == cli.split(": ", 1)[1]  # the same words after the file's name
    broken = json.loads(NDA_TEXT())
    del broken["fields"]
    r = client.post("/api/templates/upload", json={"name": "x.json", "text": json.dumps(broken)})
    assert r.status_code == 400 and "fields" in r.json()["error"]
    ok = client.post("/api/templates/upload", json={"name": "mine.json", "text": NDA_TEXT()})
    key = ok.json()["key"]
    assert ok.status_code == 200 and key.startswith("upload-")
    assert client.get(f"/api/templates/{key}").status_code == 200


def NDA_TEXT() -> str:
    with open(NDA.path, encoding="utf-8") as f:
        return f.read()


@pytest.mark.parametrize("template", ["../../etc/passwd", "/etc/passwd", "templates/mutual-nda.json",
                                      "..\\..\\secret", "mutual-nda.json", ".hidden"])
def test_no_path_from_the_page_is_opened(client, template, monkeypatch):
    opened = []
    real_open = open

    def watch(path, *a, **k):
        opened.append(str(path))
        return real_open(path, *a, **k)

    monkeypatch.setattr("builtins.open", watch)
    r = _draft(client, template=template)
    assert r.status_code == 400 and r.json()["field"] == "template" and "never a path" in r.json()["error"]
    assert not any("passwd" in p or "secret" in p for p in opened)


@pytest.mark.parametrize("url", ["/static/..%2F..%2Fapp.py", "/static/../forms.py",
                                 "/api/templates/..%2F..%2Fetc%2Fpasswd", "/static/%2Fetc%2Fpasswd",
                                 "/api/drafts/..%2F..%2Fetc/events"])
def test_traversal_in_a_url_reaches_no_file(client, url):
    r = client.get(url)
    assert r.status_code in (400, 404) and "root:" not in r.text and "import" not in r.text


def test_request_size_is_bounded_and_a_cancelled_draft_keeps_nothing(client):
    big = {"template": "mutual-nda", "fields": {**GOOD, "purpose": "x" * (2 << 20)}}
    r = client.post("/api/drafts", content=json.dumps(big), headers={"content-type": "application/json"})
    assert r.status_code == 413 and "request too large" in r.json()["error"]
    first = _draft(client)
    assert first.status_code == 202
    job, token = first.json()["job"], first.json()["token"]
    assert client.post(f"/api/drafts/{job}/cancel", headers={"X-Job-Token": token}).status_code == 200
    events = _events(client, job)
    assert events[-1]["event"] == "cancelled" and client.app.state.jobs.get(job).drafts is None
    r = client.post(f"/api/drafts/{job}/export", json={"picks": [1], "format": "docx"})
    assert r.status_code == 400 and "cancelled" in r.json()["error"]


def test_the_server_writes_no_file(drafted, tmp_path, monkeypatch):
    client, job, events = drafted
    before = set(os.listdir("."))
    n = len(next(e for e in events if e["event"] == "rank")["drafts"][0]["sections"])
    assert client.post(f"/api/drafts/{job}/export", json={"picks": [1] * n, "format": "docx"}).status_code == 200
    assert set(os.listdir(".")) == before


def test_the_page_selects_a_library_the_server_offers(drafter, capsys):
    from fastapi.testclient import TestClient

    from hybrid.serve.app import create_app

    asked = []

    def drafter_for(name):
        asked.append(name)
        return drafter

    with TestClient(create_app(drafter_for, defaults={"steps": 2}, libraries=("shipped", "firm"))) as c:
        assert c.get("/api/templates").json()["libraries"] == ["shipped", "firm"]
        r = _draft(c, library="nope")
        assert r.status_code == 400 and r.json()["field"] == "library" and "unknown library 'nope'" in r.json()["error"]
        r = _draft(c, library="firm", n=1)
        assert r.status_code == 202
        assert _events(c, r.json()["job"])[-1]["event"] == "done" and asked == ["firm"]


def test_hybrid_serve_binds_loopback_and_warns_for_another_host(monkeypatch, capsys, drafter):
    import uvicorn

    from hybrid.draft.drafter import Drafter

    runs = []
    monkeypatch.setattr(uvicorn, "run", lambda app, host, port, **kw: runs.append((app, host, port)))
    monkeypatch.setattr("hybrid.precedents.user.user_libraries", lambda: [])
    monkeypatch.setattr(Drafter, "from_pretrained", classmethod(lambda cls, *a, **k: drafter))
    assert main(["serve", "--threads", "1"]) == 0
    assert runs[-1][1:] == ("127.0.0.1", 8000) and "warning" not in capsys.readouterr().err
    assert main(["serve", "--host", "0.0.0.0", "--port", "8123", "--threads", "1"]) == 0
    assert runs[-1][1:] == ("0.0.0.0", 8123) and "warning: --host 0.0.0.0" in capsys.readouterr().err
    assert main(["serve", "--port", "0"]) == 2 and "--port" in capsys.readouterr().err


def test_a_cross_site_request_cannot_start_a_draft(make_app):
    from fastapi.testclient import TestClient

    with TestClient(make_app()) as c:  # a form post from another site comes as text/plain
        body = json.dumps({"template": "mutual-nda", "fields": GOOD})
        r = c.post("/api/drafts", content=body, headers={"content-type": "text/plain"})
        assert r.status_code == 400 and "application/json" in r.json()["error"] and c.app.state.jobs.jobs == {}
    with TestClient(make_app(allowed_hosts=["127.0.0.1", "localhost"]), base_url="http://127.0.0.1:8000") as c:
        assert c.get("/").status_code == 200
        assert c.get("/", headers={"host": "evil.example:8000"}).status_code == 400  # a rebound domain
