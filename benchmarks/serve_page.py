"""The workbench on the shipped model, as a lawyer meets it: a warm 4-variant draft's progress updates (distinct page
events), the page's answer times while that draft runs, the first page load in headless Chromium, and the time from
a cancel request to the cancelled event in the middle of a second draft. Prints JSON.

    .venv/bin/python benchmarks/serve_page.py [--n 4] [--cpu] [--out benchmarks/results/serve-page-cpu.json]

One JSON line, with the machine (CPU model, threads, load average at the start and at the end) it ran on and the
issue's bars beside the figures they bound.
"""

import argparse
import json
import os
import shutil
import statistics
import sys
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.serve._workbench
sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import machine  # noqa: E402


def _events(client, job, out=None):
    """The job's page events as (arrival time, event), appended to `out` as they come."""
    out = [] if out is None else out
    with client.stream("GET", f"/api/drafts/{job}/events") as r:
        for line in r.iter_lines():
            if line.startswith("data: "):
                out.append((time.perf_counter(), json.loads(line[6:])))
                if out[-1][1]["kind"] in ("done", "cancelled", "failed"):
                    return out
    return out


def _first_load_ms(url: str) -> list[float] | None:
    chromium = shutil.which("chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    if chromium is None:
        return None
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        took = []
        for _ in range(3):  # a fresh context each time: no cache, no local storage; the first also starts a renderer
            page = browser.new_context().new_page()
            t = time.perf_counter()
            page.goto(url + "/")
            page.wait_for_selector("#fields input[name='party_a']")
            took.append(round((time.perf_counter() - t) * 1000, 1))
        browser.close()
    return took


PAGES = ("/", "/api/templates", "/static/app.js")  # what a page load and a reattach ask for
BARS = {"page_median_ms": 100, "first_page_load_ms": 1000, "cancel_ms": 2000, "distinct_updates": 10}  # issue 51


def _page_ms(client, rounds: int) -> list[float]:
    """Each of PAGES asked `rounds` times, 50 ms apart: the answer times in ms."""
    times = []
    for _ in range(rounds):
        for path in PAGES:
            t = time.perf_counter()
            assert client.get(path).status_code == 200
            times.append((time.perf_counter() - t) * 1000)
        time.sleep(0.05)
    return times


def _summary(times: list[float]) -> dict:
    return {"requests": len(times), "median": round(statistics.median(times), 1), "max": round(max(times), 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=4)
    ap.add_argument("--cpu", action="store_true")
    ap.add_argument("--out", help="also write the JSON line to this file")
    args = ap.parse_args()
    from hybrid.draft.drafter import Drafter
    from hybrid.serve.app import create_app
    from hybrid.serve.libraries import Libraries, drafters
    from hybrid.templates.template import load_template
    from tests.serve._workbench import serving

    drafter = Drafter.from_pretrained(None, device="cpu" if args.cpu else None)
    nda = load_template("mutual-nda")
    load_at_start = [round(x, 2) for x in os.getloadavg()]
    drafter.draft(nda, nda.example, n=1)  # warm: the clause library, the reranker
    fields = {k: str(v) for k, v in nda.example.items()}
    with serving(create_app(drafters(drafter), libraries=Libraries())) as url, \
            httpx.Client(base_url=url, timeout=60) as client:
        first_load = _first_load_ms(url)
        idle = _page_ms(client, 40)  # the baseline: the same requests with no draft running
        job = client.post("/api/drafts", json={"template": "mutual-nda", "fields": fields, "n": args.n}).json()
        times, events = [], []
        reader = threading.Thread(target=lambda: events.extend(_events(client, job["job"])))
        reader.start()
        while reader.is_alive():
            times.extend(_page_ms(client, 1))
        reader.join()
        shown = [e for _, e in events if e["kind"] in ("progress", "fill_step", "plan_token", "plan", "precedents",
                                                        "rank", "queued", "started")]
        gaps = [b[0] - a[0] for a, b in zip(events, events[1:])]
        second = client.post("/api/drafts", json={"template": "mutual-nda", "fields": fields, "n": args.n}).json()
        cancels = []
        holder = []
        reader = threading.Thread(target=_events, args=(client, second["job"], holder))
        reader.start()
        while not any(e["kind"] == "fill_step" for _, e in holder):  # into the draft: its first fill step
            time.sleep(0.01)
        t = time.perf_counter()
        client.post(f"/api/drafts/{second['job']}/cancel", headers={"X-Job-Token": second["token"]})
        reader.join()
        cancels.append((holder[-1][0] - t) * 1000 if holder and holder[-1][1]["kind"] == "cancelled" else None)
    line = json.dumps({
        "benchmark": "serve-page", "machine": {**machine(), "load_average_at_start": load_at_start}, "n": args.n,
        "device": str(drafter.device),
        "draft_seconds": round(events[-1][0] - events[0][0], 1),
        "page_updates": len(shown), "distinct_updates": len({json.dumps({k: v for k, v in e.items() if k != "seconds"})
                                                             for e in shown}),
        "longest_gap_between_events_s": round(max(gaps), 2) if gaps else None,
        "page_ms_while_drafting": _summary(times), "baseline_page_ms_idle": _summary(idle),
        "first_page_load_ms": first_load,
        "cancel_to_cancelled_ms": [round(c) if c is not None else None for c in cancels], "bars": BARS,
    })
    print(line)
    if args.out:
        Path(args.out).write_text(line + "\n")


if __name__ == "__main__":
    main()
