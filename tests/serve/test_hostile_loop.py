"""The workbench's event loop and what the page is told (issue 52, items 5 and 17): slow checks of a request never
hold the page (they run in worker threads, bounded in time: past the bound a 400 naming the field, or a 503 when every
worker is busy), a shipped template is checked once, not per request, a failed draft tells the page no path, a draft
adds nothing to the embedding cache, and a request's unknown or mistyped keys are 400s naming them."""

import json
import statistics
import threading
import time

import httpx
import numpy as np
import pytest

from hybrid.templates.template import TEMPLATES_DIR, load_template

from _workbench import client, drafter, make_app, owner_of, read_events, server, serving, small_library  # noqa: F401

NDA = load_template("mutual-nda")
GOOD = {k: str(v) for k, v in NDA.example.items()}
DRAFT = {"template": "mutual-nda", "fields": GOOD, "n": 2}
REFUSED = {**DRAFT, "fields": {**GOOD, "party_a": ""}}  # checked in full, then refused: no draft starts


def _page_latencies(base: str, seconds: float) -> list[float]:
    """GET / every 20 ms for `seconds`: each answer's time in seconds."""
    out, end = [], time.monotonic() + seconds
    with httpx.Client(base_url=base, timeout=30) as c:
        while time.monotonic() < end:
            t0 = time.perf_counter()
            assert c.get("/").status_code == 200
            out.append(time.perf_counter() - t0)
            time.sleep(0.02)
    return out


def _slowly(monkeypatch, target: str, seconds: float) -> None:
    """`target` sleeps `seconds` before it runs: a slow check."""
    owner, name = owner_of(target)
    real = getattr(owner, name)

    def slow(*a, **k):
        time.sleep(seconds)
        return real(*a, **k)

    monkeypatch.setattr(owner, name, slow)


# (what is slow, the request that runs it): each used to run on the event loop, where the page waited for it
SLOW = [
    ("hybrid.templates.template.Template.validate_fields", "POST", "/api/drafts", REFUSED),
    ("hybrid.serve.forms.parse_template", "POST", "/api/templates/upload",
     {"name": "t.json", "text": (TEMPLATES_DIR / "mutual-nda.json").read_text()}),
    ("hybrid.serve.app.json.loads", "POST", "/api/drafts", REFUSED),
]


class _SlowJson:
    """The app's json module with a slow loads (a body of a megabyte)."""

    def __init__(self, seconds):
        self.seconds = seconds

    def loads(self, *a, **k):
        time.sleep(self.seconds)
        return json.loads(*a, **k)

    def dumps(self, *a, **k):
        return json.dumps(*a, **k)


@pytest.mark.parametrize("target,method,url,body", SLOW, ids=["draft-checks", "upload", "body-parse"])
def test_slow_checks_never_hold_the_page(server, monkeypatch, target, method, url, body):
    base, _ = server
    if target.endswith("json.loads"):
        monkeypatch.setattr("hybrid.serve.app.json", _SlowJson(1.0))
    else:
        _slowly(monkeypatch, target, 1.0)
    with httpx.Client(base_url=base, timeout=30) as c:
        threads = [threading.Thread(target=c.request, args=(method, url), kwargs={"json": body}) for _ in range(4)]
        for t in threads:
            t.start()
        time.sleep(0.1)
        took = _page_latencies(base, 1.5)
        for t in threads:
            t.join()
    # a page the check held would wait its whole 1.0 s; a loaded machine (load average 3 on 2 cores, a fresh-clone run
    # beside a benchmark) had one unheld page at 0.53 s
    assert statistics.median(took) < 0.2 and max(took) < 0.8, took


def test_a_check_past_its_time_bound_is_refused_and_the_server_goes_on(make_app, monkeypatch):
    monkeypatch.setattr("hybrid.serve.offload.CHECK_SECONDS", 0.5)
    monkeypatch.setattr("hybrid.serve.offload.WAIT_SECONDS", 0.5)
    _slowly(monkeypatch, "hybrid.serve.forms.parse_template", 1.5)
    text = (TEMPLATES_DIR / "mutual-nda.json").read_text()
    with serving(make_app()) as base, httpx.Client(base_url=base, timeout=30) as c:
        t0 = time.perf_counter()
        r = c.post("/api/templates/upload", json={"name": "t.json", "text": text})
        assert r.status_code == 400 and r.json()["field"] == "upload" and "0.5 s" in r.json()["error"], r.text
        assert time.perf_counter() - t0 < 1.2  # answered at the bound, not when the check ended
        # both workers held by slow checks: one more waits its bound, then hears the server is busy (503)
        held = [threading.Thread(target=c.post, args=("/api/templates/upload",),
                                 kwargs={"json": {"name": f"{i}.json", "text": text}}) for i in range(2)]
        for t in held:
            t.start()
        time.sleep(0.1)
        r = c.post("/api/templates/upload", json={"name": "late.json", "text": text})
        assert r.status_code == 503 and "busy" in r.json()["error"], r.text
        for t in held:
            t.join()
        assert c.get("/").status_code == 200


def test_a_shipped_template_is_checked_once_not_per_request(client, monkeypatch):
    import hybrid.templates.template as template_module

    loads = []
    real = template_module.parse_template
    monkeypatch.setattr(template_module, "parse_template", lambda *a, **k: loads.append(1) or real(*a, **k))
    for _ in range(3):  # a refused request checks the fields of the template loaded before
        r = client.post("/api/drafts", json=REFUSED)
        assert r.status_code == 400 and r.json()["field"] == "party_a"
    assert len(loads) <= 1, len(loads)


class _Broken:
    """A drafter whose draft fails with a path in its message."""

    def __init__(self, error):
        self.error = error

    def stream(self, request, cancel=None):
        raise self.error


@pytest.mark.parametrize("error", ["hybrid", "internal"])
def test_a_failed_draft_tells_the_page_no_path(tmp_path, error):
    from fastapi.testclient import TestClient

    from hybrid.common.errors import HybridError
    from hybrid.serve.app import create_app

    where = tmp_path / ".cache" / "precedents" / "library-0123.json"
    e = (HybridError(f"precedent library {where} is damaged; rebuild it") if error == "hybrid"
         else FileNotFoundError(2, "No such file or directory", str(where)))
    with TestClient(create_app(lambda library: _Broken(e))) as c:
        job = c.post("/api/drafts", json=DRAFT).json()["job"]
        with c.stream("GET", f"/api/drafts/{job}/events") as s:
            failed = read_events(s.iter_lines())[-1]
    assert failed["event"] == "failed" and "library-0123.json" in failed["error"], failed
    assert str(tmp_path) not in failed["error"] and "/" not in failed["error"], failed


def _fake_embed(texts):
    rows = [[(hash(w) % 97) / 97 for w in (t.split() + ["x"] * 8)[:8]] for t in texts]
    return np.asarray(rows, dtype=np.float32) + 1e-3


def test_a_server_draft_adds_nothing_to_the_embedding_cache(tiny_model, tokenizer, tmp_path):
    from fastapi.testclient import TestClient

    from hybrid.draft.drafter import Drafter
    from hybrid.precedents.relevance import EmbeddingCache, RelevanceScorer
    from hybrid.serve.app import create_app

    cache = tmp_path / "relevance" / "embeddings.sqlite"
    EmbeddingCache(_fake_embed, path=cache)(["a clause the cache already holds"])
    before = cache.read_bytes()
    scorer = RelevanceScorer(embed=EmbeddingCache(_fake_embed, path=cache), centroids=None)
    d = Drafter(tiny_model, tokenizer, library=small_library().use_relevance(scorer))
    # section by section: every section's precedents are retrieved through the relevance scorer
    with TestClient(create_app(lambda library: d, defaults={"steps": 2, "base": False})) as c:
        job = c.post("/api/drafts", json=DRAFT).json()["job"]
        with c.stream("GET", f"/api/drafts/{job}/events") as s:
            assert read_events(s.iter_lines())[-1]["event"] == "done"
    assert scorer.embed._mem, "the draft scored precedents by relevance"
    assert cache.read_bytes() == before and sorted(p.name for p in cache.parent.iterdir()) == ["embeddings.sqlite"]


@pytest.fixture(scope="module")
def finished(drafter):
    from fastapi.testclient import TestClient

    from hybrid.serve.app import create_app

    with TestClient(create_app(lambda library: drafter, defaults={"steps": 2})) as c:
        job = c.post("/api/drafts", json=DRAFT).json()["job"]
        with c.stream("GET", f"/api/drafts/{job}/events") as s:
            events = read_events(s.iter_lines())
        yield c, job, len(next(e for e in events if e["event"] == "rank")["drafts"][0]["sections"])


@pytest.mark.parametrize("url,body,field", [
    ("/api/drafts", {**DRAFT, "temperature": "hot"}, "temperature"),
    ("/api/drafts", {**DRAFT, "fields": ["party_a"]}, "fields"),
    ("/api/templates/upload", {"name": "t.json", "text": "{}", "path": "/etc/passwd"}, "path"),
])
def test_a_request_s_unknown_or_mistyped_keys_are_400s_naming_them(client, url, body, field):
    r = client.post(url, json=body)
    assert r.status_code == 400 and r.json()["field"] == field, r.text
    assert client.app.state.jobs.jobs == {}


@pytest.mark.parametrize("extra,field", [({"redline": "no"}, "redline"), ({"redline": [1]}, "redline"),
                                         ({"format": "md", "as": "pdf"}, "as")])
def test_an_export_s_unknown_or_mistyped_keys_are_400s_naming_them(finished, extra, field):
    c, job, n = finished
    r = c.post(f"/api/drafts/{job}/export", json={"picks": [1] * n, "format": "md", **extra})
    assert r.status_code == 400 and r.json()["field"] == field, r.text
    assert c.post(f"/api/drafts/{job}/export", json={"picks": [1] * n, "format": "md", "redline": False}).status_code \
        == 200
