"""Drafts the server runs: one at a time, in a worker thread, their progress kept as page events.

Owns: Job (one draft request: its events as the page reads them, its drafts, cancel) and Jobs (at most
one draft running; a second request while one runs is refused with a message saying so, never queued
unseen; the last MAX_KEPT jobs are kept in memory for their downloads). The drafting itself is
hybrid.draft.drafter.Drafter.stream: closing it stops the work at its next token or step. Nothing is
written to disk: a cancelled or failed draft leaves nothing behind.
"""

import threading
import uuid
from collections import OrderedDict

from hybrid.common.errors import HybridError

__all__ = ["Job", "Jobs", "Busy", "MAX_KEPT"]

MAX_KEPT = 8
_PLAN_TOKEN_EVERY = 16  # the planner's tokens reach the page in batches of this many


class Busy(HybridError):
    """A draft was asked for while another runs."""


class Job:
    def __init__(self, request: dict):
        self.id = uuid.uuid4().hex
        self.request = request
        self.events: list[dict] = []
        self.drafts = None
        self.state = "running"  # running, done, cancelled, failed
        self._cancel = threading.Event()

    def push(self, event: dict) -> None:
        """Append a page event (one list append: readers see whole events, in order)."""
        self.events.append(event)

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    @property
    def finished(self) -> bool:
        return self.state != "running"


def _event(ev, job: Job, plan_tokens: list) -> dict | None:
    """The page's form of a DraftEvent (None: not shown, or batched)."""
    from hybrid.serve.views import draft_view

    if ev.kind == "plan_token":
        plan_tokens[0] += 1
        if plan_tokens[0] % _PLAN_TOKEN_EVERY:
            return None
        return {"kind": "plan_token", "tokens": plan_tokens[0]}
    base = {"kind": ev.kind, "seconds": round(ev.seconds, 3)}
    if ev.kind == "plan":
        return {**base, "title": ev.outline["title"], "sections": [s["heading"] for s in ev.outline["sections"]]}
    if ev.kind == "precedents":
        return {**base, "cited": sum(1 for v in ev.sources or [] for s in v if s)}
    if ev.kind == "fill_step":
        return {**base, "step": ev.step, "steps": ev.steps}
    if ev.kind == "rank":
        job.drafts = ev.drafts
        return {**base, "drafts": [draft_view(d) for d in ev.drafts]}
    return base


class Jobs:
    """At most one running draft; finished ones kept (MAX_KEPT) for the page's downloads."""

    def __init__(self, drafter_for):
        self.drafter_for = drafter_for  # library name or None -> the Drafter to use
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, job_id) -> Job | None:
        return self.jobs.get(job_id) if isinstance(job_id, str) else None

    def running(self) -> Job | None:
        return next((j for j in self.jobs.values() if not j.finished), None)

    def start(self, request: dict) -> Job:
        """A new job drafting `request` (hybrid.serve.forms.draft_request); Busy while another runs."""
        with self._lock:
            if self.running() is not None:
                raise Busy(
                    "a draft is already running on this server; wait for it to finish or cancel it, then draft again."
                )
            job = Job(request)
            self.jobs[job.id] = job
            while len(self.jobs) > MAX_KEPT:
                self.jobs.popitem(last=False)
        threading.Thread(target=self._run, args=(job,), name=f"hybrid-serve-{job.id[:8]}", daemon=True).start()
        return job

    def _run(self, job: Job) -> None:
        r = job.request
        plan_tokens = [0]
        try:
            stream = self.drafter_for(r.get("library")).stream(r["request"])
            try:
                for ev in stream:
                    if job.cancelled:
                        break
                    page = _event(ev, job, plan_tokens)
                    if page is not None:
                        job.push(page)
            finally:
                stream.close()  # stops the worker at its next token or step
            if job.cancelled:
                job.drafts, job.state = None, "cancelled"
                job.push({"kind": "cancelled"})
            else:
                job.state = "done"
                job.push({"kind": "done"})
        except HybridError as e:
            job.state = "failed"
            job.push({"kind": "failed", "error": str(e)})
        except Exception as e:  # a bug: the page says so instead of waiting forever
            job.state = "failed"
            job.push({"kind": "failed", "error": f"internal error: {type(e).__name__}: {e}"})
