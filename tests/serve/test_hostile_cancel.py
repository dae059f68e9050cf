"""A draft's work is bounded and a cancel lands where it arrives (issue 52, item 7): a request past MAX_DRAFT_TOKENS
(sections x budget x n) is refused before any work, naming the numbers, the bound and the n that fits, by the server,
the command line and the Python API alike; a cancel stops the draft at the next cancel point inside the phase it
arrives in (between model blocks, batches and checks), not at the phase's end."""

import json
import threading
import time

import httpx
import pytest

from hybrid.templates.outline_schema import build_outline_schema
from hybrid.templates.template import TEMPLATES_DIR, load_template

from _workbench import client, drafter, make_app, owner_of, read_events, server  # noqa: F401 (fixtures)

NDA = load_template("mutual-nda")
GOOD = {k: str(v) for k, v in NDA.example.items()}
TOKEN = "X-Job-Token"
DRAFT = {"template": "mutual-nda", "fields": GOOD, "n": 2}


def sixty_four_sections(budget: int = 1024) -> str:
    """mutual-nda as a 64-section template: every clause type's budget `budget`, "other" repeatable."""
    d = json.loads((TEMPLATES_DIR / "mutual-nda.json").read_text())
    d["id"] = "big-nda"
    for spec in d["clauses"].values():
        spec["budget"] = budget
    d["clauses"]["other"] = {"heading": "Other Terms", "budget": budget, "required_terms": []}
    lead, tail = ["confidentiality"], ["remedies", "governing_law", "general"]
    d["outline_schema"] = build_outline_schema(lead, [c for c in d["clauses"] if c not in lead + tail], tail, 6, 64)
    d["outline_rules"] = {"repeatable": ["other"]}
    return json.dumps(d)


def test_a_draft_past_the_work_bound_is_refused_naming_the_numbers(client):
    r = client.post("/api/templates/upload", json={"name": "big.json", "text": sixty_four_sections()})
    assert r.status_code == 200, r.text
    r = client.post("/api/drafts", json={"template": r.json()["key"], "fields": GOOD, "n": 8})
    body = r.json()
    assert r.status_code == 400 and body["field"] == "n", body
    for words in ("-n 8", "524,288", "64 sections", "65,536", "262,144", "at most 4 variants"):
        assert words in body["error"], (words, body["error"])
    assert client.app.state.jobs.jobs == {}


def test_the_work_bound_is_the_request_s_own_so_the_cli_and_api_hold_it_too(tmp_path, capsys):
    from hybrid.cli.main import main
    from hybrid.draft.request import DraftRequest, RequestValueError
    from hybrid.templates.template import list_templates, parse_template

    big = parse_template(sixty_four_sections(), "big.json")
    assert DraftRequest.of(big, NDA.example, n=4).n == 4
    with pytest.raises(RequestValueError, match=r"n=5 asks for 327,680 span tokens") as e:
        DraftRequest.of(big, NDA.example, n=5)
    assert e.value.field == "n"
    for t in list_templates():  # every shipped template fits at n = 64
        assert DraftRequest.of(t, t.example, n=64).n == 64
    (tmp_path / "big.json").write_text(sixty_four_sections())
    code = main(["draft", str(tmp_path / "big.json"), "--example", "-n", "8", "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert code == 2 and err.startswith("hybrid: error: -n 8 asks for 524,288 span tokens"), err
    assert not (tmp_path / "out").exists()


# (where a cancel arrives, what must not run after it): a cancel lands at the next cancel point, inside the phase
CANCEL = [
    ("hybrid.fill.diffusion.sampler.encode_skeleton", "hybrid.fill.diffusion.sampler._Run.step"),
    ("hybrid.model.backbone.Block.forward", "hybrid.model.backbone.Block.forward"),  # the next block of one forward
    ("hybrid.rank.rerank.Reranker.rank", "hybrid.draft.base_stage.draft_checks"),
    ("hybrid.draft.base_stage.draft_checks", "hybrid.draft.substance.substance_checks"),  # after the market check
]


@pytest.mark.parametrize("where,then", CANCEL, ids=["skeleton-forward", "model-block", "rerank", "checks"])
def test_a_cancel_lands_inside_the_phase_it_arrives_in(server, monkeypatch, where, then):
    base, _ = server
    job, after = {}, []
    sent = threading.Event()

    def cancel_now():
        deadline = time.monotonic() + 10
        while "token" not in job:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        with httpx.Client(base_url=base, timeout=10) as c:
            assert c.post(f"/api/drafts/{job['job']}/cancel", headers={TOKEN: job["token"]}).status_code == 200
        sent.set()

    for path, role in ((where, "cancel"), (then, "after")) if where != then else ((where, "both"),):
        owner, name = owner_of(path)
        real = getattr(owner, name)

        def wrapped(*a, _real=real, _role=role, **k):
            if sent.is_set() and _role in ("after", "both"):
                after.append(1)
            if not sent.is_set() and _role in ("cancel", "both"):
                cancel_now()
            return _real(*a, **k)

        monkeypatch.setattr(owner, name, wrapped)
    with httpx.Client(base_url=base, timeout=30) as c:
        r = c.post("/api/drafts", json=DRAFT)
        assert r.status_code == 202, r.text
        job.update(r.json())
        with c.stream("GET", f"/api/drafts/{job['job']}/events") as s:
            events = read_events(s.iter_lines())
    assert sent.is_set() and events[-1]["event"] == "cancelled", [e["event"] for e in events]
    assert after == [], f"{then} ran {len(after)} times after the cancel"
