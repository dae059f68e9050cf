"""The workbench's jobs over HTTP on a tiny random Drafter: progress with real counts, a job's state and its events
resumed after a reload, a queue of two with places and owner-only cancel, a full queue's message, every field's
error at once in the form's words, labels for a lawyer, scores in words, download names, the favicon."""

import time

from hybrid.templates.template import load_template

from _workbench import client, drafter, make_app, read_events  # noqa: F401 (fixtures)

NDA = load_template("mutual-nda")
GOOD = {k: str(v) for k, v in NDA.example.items()}
TOKEN = "X-Job-Token"


def _draft(client, **over):
    return client.post("/api/drafts", json={"template": "mutual-nda", "fields": GOOD, "n": 3, **over})


def _events(client, job, headers=None):
    with client.stream("GET", f"/api/drafts/{job}/events", headers=headers or {}) as r:
        return read_events(r.iter_lines())


def test_a_four_variant_draft_reports_every_phase_in_counts(client):
    r = _draft(client, n=4)
    assert r.status_code == 202
    events = _events(client, r.json()["job"])
    progress = [(e["phase"], e["done"], e["total"]) for e in events if e["event"] == "progress"]
    assert [p for p in progress if p[0] == "precedents"] == [("precedents", v, 4) for v in range(4)]
    assert [p for p in progress if p[0] == "rank"] == [("rank", v + k, 4) for v in range(4) for k in (0, 1)]
    updates = [e for e in events if e["event"] in ("progress", "fill_step", "plan", "precedents", "rank")]
    assert len(updates) >= 10
    assert events[0]["event"] == "queued" and events[1]["event"] == "started" and events[-1]["event"] == "done"


def test_a_reloaded_page_finds_its_job_and_resumes_its_events(client):
    r = _draft(client)
    job = r.json()["job"]
    events = _events(client, job)
    state = client.get(f"/api/drafts/{job}").json()
    assert state["state"] == "done" and state["variants"] == 3 and state["label"]["parties"] == [
        NDA.example["party_a"], NDA.example["party_b"]]
    assert "token" not in state  # only the submitter holds it
    # an EventSource that reconnects sends the id of the last event it had: the rest follow, nothing twice
    rest = _events(client, job, {"Last-Event-ID": "2"})
    assert [e["event"] for e in rest] == [e["event"] for e in events[3:]]
    assert client.get("/api/drafts/" + "0" * 32).status_code == 404


def test_two_drafts_queue_and_only_their_owners_cancel_them(make_app):
    from fastapi.testclient import TestClient

    with TestClient(make_app(max_queue=1)) as c:
        first = _draft(c, steps=64, n=8)
        # the queue holds one waiting draft: the second is taken once the first has left it (on a loaded machine
        # the worker may not have started the first when the second arrives, which then found the queue full)
        deadline = time.monotonic() + 30
        while c.get(f"/api/drafts/{first.json()['job']}").json()["state"] == "queued" and time.monotonic() < deadline:
            time.sleep(0.02)
        second = _draft(c)
        assert (first.status_code, second.status_code) == (202, 202)
        assert second.json()["position"] in (1, 2)  # behind the first, which may not have started yet
        full = _draft(c)
        assert full.status_code == 503 and "--max-queue 1" in full.json()["error"]
        a, b = first.json(), second.json()
        assert c.post(f"/api/drafts/{a['job']}/cancel").status_code == 403
        assert c.post(f"/api/drafts/{a['job']}/cancel", headers={TOKEN: b["token"]}).status_code == 403
        t = time.monotonic()
        r = c.post(f"/api/drafts/{a['job']}/cancel", headers={TOKEN: a["token"]})
        assert r.json()["state"] in ("cancelling", "cancelled")
        last = _events(c, a["job"])[-1]["event"]
        took = time.monotonic() - t
        print(f"cancel took {took * 1000:.0f} ms")
        assert last == "cancelled" and took < 2
        events = _events(c, b["job"])  # the second runs once the first is gone
        assert events[-1]["event"] == "done" and {"queued", "started"} <= {e["event"] for e in events}
        assert c.delete(f"/api/drafts/{b['job']}").status_code == 403
        assert c.delete(f"/api/drafts/{b['job']}", headers={TOKEN: b["token"]}).status_code == 200
        assert c.get(f"/api/drafts/{b['job']}").status_code == 404


def test_an_empty_form_gets_every_fields_error_at_once_in_its_words(client):
    r = _draft(client, fields={**{k: "" for k in GOOD}, "effective_date": "yesterday"})
    assert r.status_code == 400
    errors = {e["field"]: e["error"] for e in r.json()["errors"]}
    assert set(errors) == set(NDA.required_fields)
    assert errors["party_a"] == "Party A is required." and errors["nda_term"] == "NDA term is required."
    assert errors["effective_date"].startswith("Effective date must be a date such as")
    assert not any("hybrid plan" in e or "field '" in e for e in errors.values())
    assert r.json()["field"] == "party_a"  # the first, as `hybrid draft` names it


def test_the_form_labels_fields_for_a_lawyer(client):
    forms = {t["id"]: t for t in client.get("/api/templates").json()["templates"]}
    labels = {f["name"]: f["label"] for f in forms["consulting-services"]["fields"]}
    assert labels["party_a"] == "Party A (the Consultant)" and labels["party_b"] == "Party B (the Client)"
    nda = {f["name"]: f for f in forms["mutual-nda"]["fields"]}
    assert nda["nda_term"]["label"] == "NDA term" and nda["purpose"]["max_length"] == 200
    assert all(f["label"] != f["name"] for f in nda.values())


def test_scores_are_explained_and_downloads_named_for_the_deal(client):
    r = _draft(client)
    job = r.json()["job"]
    drafts = next(e for e in _events(client, job) if e["event"] == "rank")["drafts"]
    words = drafts[0]["explained"]
    assert words[0].startswith("Overall ") and any(w.startswith("Fluency ") for w in words)
    assert len(words) == len([v for v in drafts[0]["scores"].values() if v is not None])
    n = len(drafts[0]["sections"])
    got = client.post(f"/api/drafts/{job}/export", json={"picks": [1] * n, "format": "md"})
    name = got.headers["content-disposition"].split('filename="')[1].rstrip('"')
    assert name == f"mutual-nda_Acme-Robotics-Inc_Borealis-Analytics-LLC_{time.strftime('%Y-%m-%d')}.md"


def test_the_favicon_is_served(client):
    r = client.get("/favicon.ico")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml") and b"<svg" in r.content
