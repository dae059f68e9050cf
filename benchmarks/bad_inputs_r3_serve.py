"""Issue 52's server cases (round three: items 2, 5, 7, 8, 9, 17) against a real `hybrid serve`, one JSON line.

    python benchmarks/bad_inputs_r3_serve.py [--out benchmarks/results/bad-inputs-r3-serve-cpu.json] [--threads N]
        [--only load] [--repo DIR]

Starts `python -m hybrid serve --cpu` (the shipped model, checkpoints/hybrid-small) in a scratch directory holding a
README.md and a pyproject.toml, the files a request must not reach, and runs every case over HTTP, timing each: a
refusal must be a 4xx naming its field within 5 s, and no answer may hold a path, a traceback or a file's content
("held"). Then GET / every 50 ms (sent on schedule, not after the last answer) while 40 refused draft requests and 5
uploads of a 0.9 MB template arrive at once: the page's median latency (the bar: < 200 ms). The cancel cases send a
cancel at a phase of a draft and time it to the "cancelled" event (the bar: <= 2 s): the server's first draft (its
caches cold) a second in, then drafts of mutual-nda at n = 8 cancelled at their precedents, at a quarter, half and
three quarters of their fill and in the ranking of variants 1, 4 and 7 (events, not times: a draft's time varies
with the machine's load), and a 64-section template at its precedents. Last, the files under the repository's .cache
whose size or mtime changed while the server ran (the server writes none per draft). --only load runs the
page-latency case alone; --repo serves another checkout (e.g. main, for the number before a change). Not a test
(minutes on the shipped model); tests/serve tests each behaviour on a tiny model.
"""

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import machine  # noqa: E402

TOKEN = "X-Job-Token"
TERMINAL = ("done", "cancelled", "failed")


def _templates() -> dict:
    """The request texts: mutual-nda's example, a 64-section template of 1,024-token budgets and a 0.9 MB one."""
    from hybrid.templates.outline_schema import build_outline_schema
    from hybrid.templates.template import TEMPLATES_DIR, load_template

    nda = (TEMPLATES_DIR / "mutual-nda.json").read_text()
    big = json.loads(nda)
    big["id"] = "big-nda"
    for spec in big["clauses"].values():
        spec["budget"] = 1024
    big["clauses"]["other"] = {"heading": "Other Terms", "budget": 1024, "required_terms": []}
    lead, tail = ["confidentiality"], ["remedies", "governing_law", "general"]
    big["outline_schema"] = build_outline_schema(lead, [c for c in big["clauses"] if c not in lead + tail], tail, 6, 64)
    big["outline_rules"] = {"repeatable": ["other"]}
    heavy = json.loads(nda)
    heavy["id"] = "heavy-nda"
    i = 0
    while len(json.dumps(heavy)) < 900_000:  # fields nobody fills, each with a long description: a 0.9 MB file
        heavy["fields"]["properties"][f"note_{i}"] = {"type": "string", "maxLength": 200,
                                                      "description": ("A note the parties may add. " * 20)[:500]}
        i += 1
    fields = {k: str(v) for k, v in load_template("mutual-nda").example.items()}
    return {"fields": fields, "big": json.dumps(big), "heavy": json.dumps(heavy)}


class Server:
    """`hybrid serve` of the checkout `repo` in a subprocess on a free port, started in `root`."""

    def __init__(self, root: Path, threads: int, repo: Path = REPO):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = open(root / "serve.log", "w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "hybrid", "serve", "--cpu", "--port", str(self.port), "--threads", str(threads)],
            cwd=root, stdout=self.log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONPATH": str(repo)})
        deadline = time.monotonic() + 300
        while True:
            try:
                if httpx.get(self.base + "/", timeout=5).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            assert self.proc.poll() is None and time.monotonic() < deadline, "hybrid serve did not start"
            time.sleep(0.5)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


def _held(text: str, root: Path) -> bool:
    """No path of the scratch directory or the repository, no traceback, no README line in an answer."""
    return (str(root) not in text and str(REPO) not in text and "Traceback" not in text
            and "scratch README" not in text and "[project]" not in text)


def refusal(c, root, name, method, url, field, status=(400, 404), must=(), **kw) -> dict:
    """One request that must be refused: a status in `status`, the field named, within 5 s, held."""
    t0 = time.perf_counter()
    r = c.request(method, url, **kw)
    secs = time.perf_counter() - t0
    try:
        body = r.json()
    except ValueError:
        body = {}
    error = str(body.get("error", ""))
    ok = (r.status_code in status and body.get("field") == field and secs <= 5 and _held(r.text, root)
          and all(m in error for m in must))
    return {"case": name, "ok": ok, "status": r.status_code, "field": body.get("field"), "seconds": round(secs, 3),
            "error": error[:300]}


def _events(c, job: str, on_event=None) -> list[tuple[float, dict]]:
    """(arrival time, event) of a job's events until its terminal one; on_event(event) as each comes."""
    out = []
    with c.stream("GET", f"/api/drafts/{job}/events", timeout=1200) as r:
        for line in r.iter_lines():
            if line.startswith("data: "):
                ev = json.loads(line[6:])
                out.append((time.perf_counter(), ev))
                if on_event:
                    on_event(ev)
                if ev["kind"] in TERMINAL:
                    break
    return out


def whole(c, body: dict) -> tuple[float, list]:
    """(seconds from "started" to "done", the events) of one whole draft."""
    job = c.post("/api/drafts", json=body).json()["job"]
    events = _events(c, job)
    started = next(t for t, e in events if e["kind"] == "started")
    return events[-1][0] - started, events


def cancel_case(c, name: str, body: dict, when, delay: float = 0.0) -> dict:
    """Start a draft, cancel it once `when(event)` holds (plus `delay` seconds): the seconds from the cancel request
    to the "cancelled" event (the bar: <= 2 s)."""
    r = c.post("/api/drafts", json=body)
    if r.status_code != 202:
        return {"case": name, "ok": False, "status": r.status_code, "error": r.text[:300]}
    job, token = r.json()["job"], r.json()["token"]
    sent = {}

    def on_event(ev):
        if "at" not in sent and when(ev):
            sent["phase"] = ev["kind"] + (f":{ev.get('phase')}" if ev.get("phase") else "")

            def cancel():
                time.sleep(delay)
                sent["at"] = time.perf_counter()
                httpx.post(f"{c.base_url}/api/drafts/{job}/cancel", headers={TOKEN: token}, timeout=30)

            sent["thread"] = threading.Thread(target=cancel)
            sent["thread"].start()

    t0 = time.perf_counter()
    events = _events(c, job, on_event)
    if "thread" in sent:
        sent["thread"].join()
    last_t, last = events[-1]
    landed = last_t - sent["at"] if "at" in sent else None
    return {"case": name, "ok": last["kind"] == "cancelled" and landed is not None and landed <= 2.0,
            "cancelled_at": sent.get("phase"), "land_seconds": None if landed is None else round(landed, 2),
            "draft_seconds": round(last_t - t0, 2), "final": last["kind"]}


def page_under_load(c, fields: dict, heavy: str) -> dict:
    """GET / sent every 50 ms, each on its own whatever the others wait for (a user's click comes when it comes: a
    poller that waits for each answer would sample a stalled server once per stall), while 40 refused draft requests
    and 5 uploads of a 0.9 MB template arrive at once."""
    refused = {"template": "mutual-nda", "fields": {**fields, "party_a": ""}, "n": 1}
    took, answers, stop = [], [], threading.Event()

    limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
    clicker = httpx.Client(base_url=str(c.base_url), timeout=120, limits=limits)  # one client: its threads share it

    def one():
        t = time.perf_counter()
        clicker.get("/")
        took.append((time.perf_counter() - t) * 1000)

    def poll():
        with ThreadPoolExecutor(200) as clicks:
            while not stop.is_set():
                clicks.submit(one)
                time.sleep(0.05)

    def send(kind):
        with httpx.Client(base_url=str(c.base_url), timeout=120) as s:
            t = time.perf_counter()
            r = (s.post("/api/drafts", json=refused) if kind == "draft"
                 else s.post("/api/templates/upload", json={"name": "heavy.json", "text": heavy}))
            answers.append((kind, r.status_code, time.perf_counter() - t))

    poller = threading.Thread(target=poll)
    poller.start()
    time.sleep(0.3)
    t0 = time.perf_counter()
    with ThreadPoolExecutor(45) as pool:
        list(pool.map(send, ["draft"] * 40 + ["upload"] * 5))
    load_s = time.perf_counter() - t0
    stop.set()
    poller.join()
    clicker.close()
    drafts = [a for a in answers if a[0] == "draft"]
    uploads = [a for a in answers if a[0] == "upload"]
    median = statistics.median(took)
    return {"case": "GET / while 40 refused drafts and 5 uploads of a 0.9 MB template arrive", "ok": median < 200,
            "page_ms_median": round(median, 1), "page_ms_max": round(max(took), 1), "page_requests": len(took),
            "load_seconds": round(load_s, 2), "refused_drafts_400": sum(a[1] == 400 for a in drafts),
            "uploads_200": sum(a[1] == 200 for a in uploads),
            "refused_draft_ms_median": round(statistics.median(a[2] for a in drafts) * 1000, 1),
            "upload_s_median": round(statistics.median(a[2] for a in uploads), 2)}


def _snapshot(root: Path) -> dict:
    return {str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in sorted(root.rglob("*")) if p.is_file()} if root.is_dir() else {}


def refusals(c, root: Path, t: dict) -> list[dict]:
    """Items 2, 8, 9, 7 (the bound) and every handler's unknown keys."""
    nda, f = {"template": "mutual-nda", "fields": t["fields"]}, t["fields"]
    out = [
        refusal(c, root, "GET /api/templates/README.md", "GET", "/api/templates/README.md", "template",
                must=("unknown template 'README.md'",)),
        refusal(c, root, "GET /api/templates/nonexistent.md", "GET", "/api/templates/nonexistent.md", "template",
                must=("unknown template 'nonexistent.md'",)),
        refusal(c, root, "draft of template pyproject.toml", "POST", "/api/drafts", "template",
                json={"template": "pyproject.toml", "fields": f, "n": 1}, must=("unknown template",)),
        refusal(c, root, "draft of template ../README.md", "POST", "/api/drafts", "template",
                json={"template": "../README.md", "fields": f, "n": 1}),
        refusal(c, root, "nested JSON '[' * 500000 on /api/drafts", "POST", "/api/drafts", None,
                content=b"[" * 500_000, headers={"content-type": "application/json"}, must=("nested too deeply",)),
        refusal(c, root, "unknown key temperature on /api/drafts", "POST", "/api/drafts", "temperature",
                json={**nda, "n": 1, "temperature": "hot"}),
        refusal(c, root, "fields a list on /api/drafts", "POST", "/api/drafts", "fields",
                json={**nda, "fields": ["party_a"], "n": 1}),
    ]
    up = c.post("/api/templates/upload", json={"name": "big.json", "text": t["big"]})
    out.append(refusal(c, root, "64-section template (budget 1,024) at n=8: the work bound", "POST", "/api/drafts",
                       "n", json={"template": up.json().get("key"), "fields": f, "n": 8},
                       must=("524,288", "262,144", "at most 4 variants")))
    return out


def exports(c, root: Path, fields: dict) -> list[dict]:
    """Item 9 (and `redline`) on a finished mutual-nda draft of 2 variants (timed: the server's first whole draft)."""
    t0 = time.perf_counter()
    r = c.post("/api/drafts", json={"template": "mutual-nda", "fields": fields, "n": 2})
    events = _events(c, r.json()["job"])
    job, secs = r.json()["job"], time.perf_counter() - t0
    rank = next(e for _, e in events if e["kind"] == "rank")
    n = len(rank["drafts"][0]["sections"])
    out = [{"case": "a whole mutual-nda draft, n=2 (the exports pick from it)", "ok": events[-1][1]["kind"] == "done",
            "seconds": round(secs, 2)}]
    url = f"/api/drafts/{job}/export"
    for name, body, field in [("format a list", {"picks": [1] * n, "format": ["docx"]}, "format"),
                              ("format an object", {"picks": [1] * n, "format": {"docx": 1}}, "format"),
                              ("picks [[1]]", {"picks": [[1]] * n, "format": "md"}, "picks"),
                              ("picks [{}]", {"picks": [{}] * n, "format": "md"}, "picks"),
                              ("redline 'no'", {"picks": [1] * n, "format": "md", "redline": "no"}, "redline")]:
        out.append(refusal(c, root, f"export with {name}", "POST", url, field, json=body))
    good = c.post(url, json={"picks": [1] * n, "format": "docx"})
    out.append({"case": "export of a good DOCX after them", "ok": good.status_code == 200, "bytes": len(good.content)})
    return out


def cancels(c, t: dict) -> list[dict]:
    """Item 7's cancel cases (the first draft of the server comes first: its caches are cold)."""
    started = lambda ev: ev["kind"] == "started"  # noqa: E731
    nda = {"template": "mutual-nda", "fields": t["fields"], "n": 8}
    out = [cancel_case(c, "mutual-nda n=8: cancel 1 s into the server's first draft (cold caches)", nda, started, 1.0)]
    secs, events = whole(c, nda)
    out.append({"case": "a whole mutual-nda draft, n=8 (warm)", "ok": events[-1][1]["kind"] == "done",
                "seconds": round(secs, 2)})
    points = [("the precedents event", lambda ev: ev["kind"] == "precedents")]
    for share in (1, 2, 3):  # the fill's steps count over the whole draft: variant v fills in the v-th eighth
        points.append((f"{share}/4 of the fill steps",
                       lambda ev, s=share: ev["kind"] == "fill_step" and ev["step"] * 4 >= ev["steps"] * s))
    for v in (1, 4, 7):  # each variant's reranking and checks, between its "rank" counts v and v + 1
        points.append((f"variant {v}'s ranking", lambda ev, v=v: ev.get("phase") == "rank" and ev["done"] == v))
    for name, when in points:
        out.append(cancel_case(c, f"mutual-nda n=8: cancel at {name}", nda, when))
    big = c.post("/api/templates/upload", json={"name": "big.json", "text": t["big"]}).json()["key"]
    out.append(cancel_case(c, "64-section template (budget 1,024) n=4: cancel at the precedents event",
                           {"template": big, "fields": t["fields"], "n": 4}, lambda ev: ev["kind"] == "precedents"))
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=None, help="also write the JSON line to this file")
    ap.add_argument("--threads", type=int, default=1, help="the server's torch threads (hybrid serve --threads)")
    ap.add_argument("--only", choices=["load"], default=None, help="only the page-latency case")
    ap.add_argument("--repo", type=Path, default=REPO, help="the checkout to serve (default: this one)")
    args = ap.parse_args(argv)
    t = _templates()
    cache_before = _snapshot(REPO / ".cache")
    with tempfile.TemporaryDirectory(prefix="hybrid-r3-serve-") as tmp:
        root = Path(tmp)
        (root / "README.md").write_text("scratch README: a file a request must not read\n")
        (root / "pyproject.toml").write_text("[project]\nname = 'not-for-you'\n")
        server = Server(root, args.threads, args.repo)
        try:
            with httpx.Client(base_url=server.base, timeout=600) as c:
                cases = [] if args.only else cancels(c, t) + refusals(c, root, t) + exports(c, root, t["fields"])
                load = page_under_load(c, t["fields"], t["heavy"])
                cases.append(load)
        finally:
            server.stop()
        log = (root / "serve.log").read_text()
    changed = sorted(k for k, v in _snapshot(REPO / ".cache").items() if cache_before.get(k) != v)
    cases.append({"case": "no file under .cache written while the server ran", "ok": not changed, "changed": changed})
    cases.append({"case": "no traceback in the server's log", "ok": "Traceback" not in log})
    for r in cases:
        print(("ok   " if r["ok"] else "FAIL ") + r["case"] + ("" if r["ok"] else f": {r}"), file=sys.stderr)
    out = {"benchmark": "bad_inputs_r3_serve", "cases": cases, "passed": sum(r["ok"] for r in cases),
           "failed": [r["case"] for r in cases if not r["ok"]],
           "page_latency_ms_median": load["page_ms_median"], "repo": str(args.repo),
           "machine": {**machine(), "threads": args.threads}}
    line = json.dumps(out, ensure_ascii=False)
    print(line)
    if args.out:
        Path(args.out).write_text(line + "\n")


if __name__ == "__main__":
    main()
