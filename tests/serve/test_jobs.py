"""The server's queue of drafts (hybrid.serve.jobs) on a scripted drafter: first in first out, one at a time, each
queued job told its place, bounded with a message naming the limit, cancel and delete for the owner only, a
running job's cancel seen at once and done at the drafter's next event; and the page's progress events
(hybrid.serve.progress): real counts, the filler's steps thinned to a share of the bar."""

import threading
import time

import pytest

from hybrid.common.errors import HybridError
from hybrid.draft.result import DraftEvent
from hybrid.draft.streaming import run_streamed
from hybrid.serve.jobs import Jobs, NotOwner, QueueFull
from hybrid.serve.progress import FILL_SHARES, PageEvents


class Scripted:
    """A drafter whose drafts each wait at a gate before each event (`steps` fill steps, then an empty rank): the
    gate lets through as many events as it was opened for."""

    def __init__(self, steps: int = 3):
        self.steps, self.started, self.gates = steps, [], {}

    def gate(self, name) -> threading.Semaphore:
        return self.gates.setdefault(name, threading.Semaphore(0))

    def let(self, name, events: int = 1000) -> None:
        self.gate(name).release(events)

    def stream(self, request, cancel=None):
        name = request
        self.started.append(name)

        def events(emit):
            for i in range(self.steps):
                assert self.gate(name).acquire(timeout=10), f"{name} was never let through"
                emit(DraftEvent("fill_step", 0.0, step=i + 1, steps=self.steps))
            yield DraftEvent("rank", 0.0, drafts=[])

        return run_streamed(events, cancel)


def _wait(predicate, seconds: float = 10.0):
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def _submit(jobs, name):
    return jobs.submit({"request": name, "library": None})


def test_drafts_queue_first_in_first_out_and_each_learns_its_place():
    d = Scripted()
    jobs = Jobs(lambda library: d)
    a, b, c = (_submit(jobs, n) for n in "abc")
    _wait(lambda: a.state == "running")
    assert (b.state, b.position, c.state, c.position) == ("queued", 1, "queued", 2)
    assert [e for e in c.events if e["kind"] == "queued"][-1] == {"kind": "queued", "position": 2, "waiting": 2}
    d.let("a")
    _wait(lambda: a.state == "done" and b.state == "running")
    assert c.position == 1 and c.events[-1] == {"kind": "queued", "position": 1, "waiting": 1}
    assert d.started == ["a", "b"]  # c waits: one draft at a time
    d.let("b")
    d.let("c")
    _wait(lambda: c.state == "done")
    assert d.started == ["a", "b", "c"] and [e["kind"] for e in c.events][-2:] == ["rank", "done"]


def test_a_full_queue_refuses_with_its_limit():
    d = Scripted()
    jobs = Jobs(lambda library: d, max_queue=1)
    a = _submit(jobs, "a")
    _wait(lambda: a.state == "running")
    _submit(jobs, "b")
    with pytest.raises(QueueFull, match=r"1 drafts are waiting.*--max-queue 1"):
        _submit(jobs, "c")
    d.let("a")
    d.let("b")
    _wait(lambda: jobs.running() is None and not jobs.queue)
    _submit(jobs, "c")  # room again once the queue moved


def test_only_the_owner_cancels_and_a_queued_job_leaves_the_queue_at_once():
    d = Scripted()
    jobs = Jobs(lambda library: d)
    a, b, c = (_submit(jobs, n) for n in "abc")
    _wait(lambda: a.state == "running")
    for token in (None, "", a.token, b.token + "x"):
        with pytest.raises(NotOwner):
            jobs.cancel(b, token)
    assert b.state == "queued"
    assert jobs.cancel(b, b.token) == "cancelled" and b.events[-1] == {"kind": "cancelled"}
    assert list(jobs.queue) == [c] and c.position == 1
    d.let("a")
    d.let("c")
    _wait(lambda: c.state == "done")
    assert d.started == ["a", "c"]  # the cancelled job never ran


def test_a_running_job_shows_cancelling_at_once_and_stops_at_the_next_event():
    d = Scripted(steps=50)
    jobs = Jobs(lambda library: d)
    a = _submit(jobs, "a")
    _wait(lambda: a.state == "running")
    t = time.monotonic()
    assert jobs.cancel(a, a.token) == "cancelling" and a.events[-1] == {"kind": "cancelling"}
    d.let("a", 1)  # the drafter reaches its next event, and no further: it must stop there
    _wait(lambda: a.state == "cancelled")
    assert time.monotonic() - t < 2 and a.drafts is None and a.events[-1] == {"kind": "cancelled"}
    steps = [e for e in a.events if e["kind"] == "fill_step"]
    assert len(steps) <= 1  # stopped at its first event after the cancel, not at the end of its 50 steps


def test_finished_jobs_are_kept_until_their_owner_deletes_them():
    d = Scripted(steps=1)
    jobs = Jobs(lambda library: d, max_kept=2)
    a = _submit(jobs, "a")
    with pytest.raises(HybridError, match="cancel it first"):  # queued or running: not deleted under the drafter
        jobs.delete(a, a.token)
    d.let("a")
    _wait(lambda: a.finished)
    with pytest.raises(NotOwner):
        jobs.delete(a, "not-the-token")
    assert jobs.get(a.id) is a and a.summary()["state"] == "done"
    jobs.delete(a, a.token)
    assert jobs.get(a.id) is None
    for n in "bcd":
        d.let(n)
    kept = [_submit(jobs, n) for n in "bcd"]
    _wait(lambda: all(j.finished for j in kept))
    _submit(jobs, "b")  # a fourth: the oldest finished one is dropped past max_kept
    assert jobs.get(kept[0].id) is None and jobs.get(kept[2].id) is kept[2]


def test_page_events_carry_real_counts_and_thin_the_fill_steps():
    page = PageEvents()
    shown = [page.page(DraftEvent("fill_step", 0.1, step=i, steps=1024)) for i in range(1, 1025)]
    steps = [e["step"] for e in shown if e is not None]
    assert len(steps) == FILL_SHARES + 1 and steps[-1] == 1024 and steps == sorted(steps)  # the first, each 1%
    ev = page.page(DraftEvent("progress", 2.0, text="precedents", step=3, steps=4))
    assert ev == {"kind": "progress", "seconds": 2.0, "phase": "precedents", "done": 3, "total": 4}
    tokens = [page.page(DraftEvent("plan_token", 0.0, text="x")) for _ in range(32)]
    assert [t["tokens"] for t in tokens if t] == [16, 32]
