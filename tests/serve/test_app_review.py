"""A finished draft's review over HTTP on a tiny random Drafter: a section edited in place is kept with the job (read
back as after a reload), used by the assembled DOCX and Markdown and shown in the redline as the lawyer's change;
each change accepted or rejected (a rejected one puts the precedent's words back, an accepted one is plain text in
the redline DOCX); a section's precedent shown in its own file with the passage marked; every misuse refused with a
message that says what to send."""

import io
from collections import Counter

import docx
import pytest

from hybrid.templates.template import load_template

from _workbench import drafter, read_events, small_library  # noqa: F401 (fixtures)

NDA = load_template("mutual-nda")
GOOD = {k: str(v) for k, v in NDA.example.items()}
TOKEN = "X-Job-Token"
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


@pytest.fixture
def done(drafter):
    """A finished draft of 2 variants on its own app: (client, job id, owner headers, the variants as drafted)."""
    from fastapi.testclient import TestClient

    from hybrid.serve.app import create_app

    with TestClient(create_app(lambda library: drafter, defaults={"steps": 2})) as c:
        r = c.post("/api/drafts", json={"template": "mutual-nda", "fields": GOOD, "n": 2})
        job, token = r.json()["job"], r.json()["token"]
        with c.stream("GET", f"/api/drafts/{job}/events") as s:
            events = read_events(s.iter_lines())
        assert events[-1]["event"] == "done"
        yield c, job, {TOKEN: token}, next(e for e in events if e["event"] == "rank")["drafts"]


def _reviewed(section) -> int:
    return next(i for i, s in enumerate(section) if s["redline"])


def _tracked(content: bytes) -> list[tuple[str, str, str]]:
    """(kind "ins" / "del", author, words) of every tracked change of a DOCX."""
    body = docx.Document(io.BytesIO(content)).element.body
    return [(el.tag[len(W):], el.get(f"{W}author"), "".join(t.text or "" for t in el.iter(f"{W}t", f"{W}delText")))
            for el in body.iter(f"{W}ins", f"{W}del")]


def test_an_edit_is_kept_with_the_job_used_by_the_download_and_redlined_as_the_lawyers(done):
    c, job, owner, drafts = done
    i = _reviewed(drafts[0]["sections"])
    url = f"/api/drafts/{job}/variants/1/sections/{i}"
    engine = drafts[0]["sections"][i]["body"]
    text = engine + "\n\nThe Recipient shall notify the Discloser of any loss within five days."
    r = c.put(url, json={"text": text}, headers=owner)
    assert r.status_code == 200, r.text
    assert r.json()["body"] == text and r.json()["edited"]
    mine = [s for s in r.json()["review"] if s.get("by") == "you"]
    assert len(mine) == 1 and "within five days" in mine[0]["insert"] and mine[0]["state"] == "pending"
    assert "".join(t for op, t in r.json()["redline"] if op != "delete") == text  # still against the precedent
    # kept with the job: what a reloaded page reads back
    again = c.get(f"/api/drafts/{job}/variants").json()["variants"][0]["sections"][i]
    assert again["body"] == text and again["edited"]
    assert c.get(f"/api/drafts/{job}").json()["edited"] == 1
    picks = [1] * len(drafts[0]["sections"])
    plain = docx.Document(io.BytesIO(c.post(f"/api/drafts/{job}/export", json={"picks": picks}).content))
    assert "within five days" in "\n".join(p.text for p in plain.paragraphs)
    assert "within five days" in c.post(f"/api/drafts/{job}/export", json={"picks": picks, "format": "md"}).text
    red = _tracked(c.post(f"/api/drafts/{job}/export", json={"picks": picks, "redline": True}).content)
    assert ("ins", "workbench reviewer", "The Recipient shall notify the Discloser of any loss within five days.") in [
        (k, a, w.strip()) for k, a, w in red]
    assert any(a == "hybrid" for _, a, _ in red)  # the engine's own changes keep their author
    # restored: the engine's text, nothing of the edit left
    r = c.put(url, json={"text": None}, headers=owner)
    assert r.json()["body"] == engine and not r.json()["edited"]
    assert c.get(f"/api/drafts/{job}").json()["edited"] == 0


def test_rejecting_a_change_puts_the_precedents_words_back_and_accepting_one_untracks_it(done):
    c, job, owner, drafts = done
    i = _reviewed(drafts[1]["sections"])
    url = f"/api/drafts/{job}/variants/2/sections/{i}"
    section = drafts[1]["sections"][i]
    first, second = [s for s in section["review"] if "change" in s][:2]
    assert first["by"] == second["by"] == "engine" and first["state"] == "pending"
    picks = [2] * len(drafts[1]["sections"])
    before = Counter(_tracked(c.post(f"/api/drafts/{job}/export", json={"picks": picks, "redline": True}).content))
    r = c.post(f"{url}/changes/{first['change']}", json={"decision": "reject"}, headers=owner)
    assert r.status_code == 200, r.text
    body = r.json()["body"]
    expected = section["body"][: first["to"]] + first["delete"] + section["body"][first["to"] + len(first["insert"]):]
    assert body == expected and first["change"] not in [s.get("change") for s in r.json()["review"]]
    r = c.post(f"{url}/changes/{second['change']}", json={"decision": "accept"}, headers=owner)
    accepted = next(s for s in r.json()["review"] if s.get("change") == second["change"])
    assert accepted["state"] == "accepted" and r.json()["body"] == body
    after = Counter(_tracked(c.post(f"/api/drafts/{job}/export", json={"picks": picks, "redline": True}).content))
    # neither is a tracked change any more: the rejected one's words are the precedent's, the accepted one's plain
    gone = {(k, "hybrid", s[op]) for s in (first, second) for k, op in (("del", "delete"), ("ins", "insert")) if s[op]}
    assert before - after == Counter(gone) and not after - before
    plain = docx.Document(io.BytesIO(c.post(f"/api/drafts/{job}/export", json={"picks": picks}).content))
    assert body.split("\n")[0][:60] in "\n".join(p.text for p in plain.paragraphs)
    # the decision is gone once made: deciding it again is a conflict, said in words
    again = c.post(f"{url}/changes/{first['change']}", json={"decision": "reject"}, headers=owner)
    assert again.status_code == 409 and "holds no change" in again.json()["error"]


def test_a_sections_precedent_is_shown_in_its_own_file_with_the_passage_marked(done):
    c, job, _, drafts = done
    i = _reviewed(drafts[0]["sections"])
    section = drafts[0]["sections"][i]
    r = c.get(f"/api/drafts/{job}/variants/1/sections/{i}/sources/0")
    assert r.status_code == 200, r.text
    ctx = r.json()
    cite = section["sources"][0]
    own = small_library().originals
    assert ctx["document"] == cite["doc_id"] and ctx["note"] is None
    clause = ctx["clause"]
    assert clause["before"] + clause["passage"] + clause["after"] == own[cite["id"]]
    number = int(cite["id"].rpartition("#")[2])
    assert [b["number"] for b in ctx["before"]] == [str(n) for n in range(max(1, number - 2), number)]
    assert all(b["text"] == own[f"{cite['doc_id']}#{b['number']}"] for b in ctx["before"] + ctx["after"])
    assert ctx["before"] or ctx["after"]


@pytest.mark.parametrize("path,body,headers,status,says", [
    ("/variants/1/sections/0", {"text": "New words."}, {}, 403, "only the browser that started this draft"),
    ("/variants/1/sections/0", {"text": ""}, "owner", 400, "cannot be empty"),
    ("/variants/1/sections/0", {"text": 5}, "owner", 400, "text must be the section's words"),
    ("/variants/1/sections/0", {"text": "a\x00b"}, "owner", 400, "control character (U+0000) at character 2"),
    ("/variants/1/sections/0", {"text": "x" * 100_001}, "owner", 400, "at most 100000 characters, got 100001"),
    ("/variants/1/sections/0", {"words": "x"}, "owner", 400, "an edit is a JSON object {'text'}"),
    ("/variants/1/sections/0", {"text": "x", "more": 1}, "owner", 400, "more"),
    ("/variants/9/sections/0", {"text": "x"}, "owner", 400, "rank must be a variant rank in 1..2, got '9'"),
    ("/variants/1/sections/99", {"text": "x"}, "owner", 400, "section must be a section index in 0.."),
    ("/variants/1/sections/0/changes/0-nothing", {"decision": "reject"}, "owner", 409, "holds no change"),
    ("/variants/1/sections/0/changes/0-nothing", {"decision": "maybe"}, "owner", 400,
     "decision must be one of accept, reject, got 'maybe'"),
])
def test_a_bad_edit_or_decision_is_refused_in_words_and_changes_nothing(done, path, body, headers, status, says):
    c, job, owner, drafts = done
    method = c.post if "/changes/" in path else c.put
    r = method(f"/api/drafts/{job}{path}", json=body, headers=owner if headers == "owner" else headers)
    assert r.status_code == status and says in r.json()["error"], r.text
    assert c.get(f"/api/drafts/{job}/variants").json()["variants"] == drafts  # nothing kept


def test_a_draft_not_done_cannot_be_reviewed(done):
    c, _, _, _ = done
    r = c.post("/api/drafts", json={"template": "mutual-nda", "fields": GOOD, "n": 1})
    job = r.json()["job"]
    c.post(f"/api/drafts/{job}/cancel", headers={TOKEN: r.json()["token"]})
    with c.stream("GET", f"/api/drafts/{job}/events") as s:
        read_events(s.iter_lines())
    got = c.put(f"/api/drafts/{job}/variants/1/sections/0", json={"text": "x"}, headers={TOKEN: r.json()["token"]})
    assert got.status_code == 409 and "no variants to review" in got.json()["error"]
    assert c.get(f"/api/drafts/{'0' * 32}/variants").status_code == 404
