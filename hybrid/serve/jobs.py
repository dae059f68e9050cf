"""Drafts the server runs for several users: a bounded first-in first-out queue, one draft at a time, in a thread.

Owns: Job (one draft request: its id, its owner's token, its page events, its drafts, its state) and Jobs (the queue:
at most `max_queue` drafts wait, a request past that is refused with QueueFull naming the limit; one worker thread
drafts them in order, a queued job told its place each time the queue moves; only the owner's token cancels or
deletes a job; finished jobs are kept for their downloads until deleted, the oldest finished dropped past
`max_kept`). The drafting itself is hybrid.draft.drafter.Drafter.stream: a cancel stops the work at its next cancel
point (hybrid.common.cancel: between phases, batches and model blocks). Nothing is written to disk: a cancelled or
failed draft leaves nothing behind, and a draft reads the relevance embedding cache without adding to it
(hybrid.precedents.embeddings.read_only). A failed draft's event carries its message with every file path written
as its last part (`without_paths`); the whole message, and a bug's traceback, go to the server's stderr.
"""

import re
import secrets
import sys
import threading
import time
import traceback
import uuid
from collections import OrderedDict, deque

from hybrid.common.errors import HybridError
from hybrid.precedents.embeddings import read_only
from hybrid.serve.progress import PageEvents
from hybrid.serve.review import Review

__all__ = ["Job", "Jobs", "QueueFull", "NotOwner", "MAX_QUEUE", "MAX_KEPT", "without_paths"]

MAX_QUEUE = 8  # drafts waiting behind the running one (`hybrid serve --max-queue`)
MAX_KEPT = 32  # finished jobs kept for their results and downloads, the oldest dropped first
_FINISHED = ("done", "cancelled", "failed")
# an absolute path (POSIX, home or drive) where it starts a word: not "and/or", "3/4", nor a URL's "//host/x"
_PATH = re.compile(r"(?<![\w.:/~\\-])(?:~|[A-Za-z]:)?(?:[/\\][^\s'\"()\[\],;:/\\]+)+[/\\]?")


def without_paths(message: str) -> str:
    """`message` with every absolute file path written as its last part ("library-3cde.json"): the page is told what
    went wrong, never where the server keeps its files."""
    return _PATH.sub(lambda m: re.split(r"[/\\]", m.group(0).rstrip("/\\"))[-1], message)


class QueueFull(HybridError):
    """A draft was asked for while the queue holds as many as it may."""


class NotOwner(HybridError):
    """A cancel or delete without the token the job's submit returned."""


class Job:
    """One draft request; state: queued, running, cancelling, then done, cancelled or failed."""

    def __init__(self, request: dict, label: dict | None = None):
        self.id = uuid.uuid4().hex
        self.token = secrets.token_urlsafe(18)  # returned to the submitter only: cancel and delete ask for it
        self.request = request
        self.label = label or {}  # what a history list shows: template id, parties, date
        self.created = time.time()
        self.events: list[dict] = []
        self.drafts = None
        self.state = "queued"
        self.position = 0  # place in the queue (1: next), 0 once it runs
        self.cancel_flag = threading.Event()  # the drafter's stream stops at its next event once set
        self.review = Review()  # the lawyer's edits and decisions on its variants, once done

    def push(self, event: dict) -> None:
        """Append a page event (one list append: readers see whole events, in order)."""
        self.events.append(event)

    @property
    def cancelled(self) -> bool:
        return self.cancel_flag.is_set()

    @property
    def finished(self) -> bool:
        return self.state in _FINISHED

    def owned_by(self, token) -> bool:
        return isinstance(token, str) and secrets.compare_digest(token.encode(), self.token.encode())

    def summary(self) -> dict:
        """The job as a history list shows it (no field values beyond its label, no token)."""
        return {"job": self.id, "state": self.state, "position": self.position, "created": self.created,
                "label": self.label, "variants": len(self.drafts) if self.drafts else 0,
                "edited": self.review.edited()}


class Jobs:
    """The server's drafts: queued (FIFO, at most max_queue), one running, finished ones kept (max_kept)."""

    def __init__(self, drafter_for, *, max_queue: int = MAX_QUEUE, max_kept: int = MAX_KEPT):
        assert max_queue >= 0 and max_kept >= 1, (max_queue, max_kept)
        self.drafter_for = drafter_for  # library name or None -> the Drafter to use
        self.max_queue, self.max_kept = max_queue, max_kept
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self.queue: deque[Job] = deque()
        self._lock = threading.Lock()
        self._worker: threading.Thread | None = None

    def get(self, job_id) -> Job | None:
        return self.jobs.get(job_id) if isinstance(job_id, str) else None

    def running(self) -> Job | None:
        return next((j for j in self.jobs.values() if j.state in ("running", "cancelling")), None)

    def submit(self, request: dict, label: dict | None = None) -> Job:
        """A new job drafting `request` (hybrid.serve.forms.draft_request), queued behind the others; QueueFull when
        max_queue wait already."""
        with self._lock:
            if len(self.queue) >= self.max_queue and (self.queue or self.running() is not None):
                raise QueueFull(
                    f"the queue is full: {len(self.queue)} drafts are waiting, the most this server keeps "
                    f"(hybrid serve --max-queue {self.max_queue}); try again when one finishes."
                )
            job = Job(request, label)
            self.jobs[job.id] = job
            self.queue.append(job)
            self._tell_positions()
            self._forget_old()
            if self._worker is None:
                self._worker = threading.Thread(target=self._work, name="hybrid-serve-jobs", daemon=True)
                self._worker.start()
        return job

    def cancel(self, job: Job, token) -> str:
        """Cancel `job` for its owner: a queued one leaves the queue at once, a running one is "cancelling" until the
        drafter stops at its next event; NotOwner without its token. The job's state after."""
        if not job.owned_by(token):
            raise NotOwner("only the browser that started this draft can cancel it (its owner token was not sent).")
        with self._lock:
            if job.state == "queued":
                self.queue.remove(job)
                job.state, job.position = "cancelled", 0
                job.push({"kind": "cancelled"})
                self._tell_positions()
            elif job.state == "running":
                job.state = "cancelling"
                job.cancel_flag.set()
                job.push({"kind": "cancelling"})
        return job.state

    def delete(self, job: Job, token) -> None:
        """Forget a finished job (its results, its downloads) for its owner; an unfinished one is cancelled first."""
        if not job.owned_by(token):
            raise NotOwner("only the browser that started this draft can delete it (its owner token was not sent).")
        if not job.finished:
            raise HybridError(f"this draft is {job.state}: cancel it first, then delete it.")
        with self._lock:
            self.jobs.pop(job.id, None)

    def _tell_positions(self) -> None:
        """Under the lock: each queued job's place, pushed as a "queued" event when it changed."""
        for i, job in enumerate(self.queue, 1):
            if job.position != i:
                job.position = i
                job.push({"kind": "queued", "position": i, "waiting": len(self.queue)})

    def _forget_old(self) -> None:
        """Under the lock: the oldest finished jobs dropped past max_kept."""
        finished = [j.id for j in self.jobs.values() if j.finished]
        for job_id in finished[: max(0, len(finished) - self.max_kept)]:
            del self.jobs[job_id]

    def _work(self) -> None:
        """The worker: the queue's jobs in order, one at a time, until it is empty."""
        while True:
            with self._lock:
                if not self.queue:
                    self._worker = None
                    return
                job = self.queue.popleft()
                job.state, job.position = "running", 0
                job.push({"kind": "started"})
                self._tell_positions()
            self._run(job)
            with self._lock:
                self._forget_old()

    def _run(self, job: Job) -> None:
        try:
            with read_only():  # the draft's new embeddings stay in memory: the server writes no file per draft
                self._stream(job)
        except HybridError as e:
            self._failed(job, str(e))
        except Exception as e:  # a bug: the page says so instead of waiting forever
            traceback.print_exc(file=sys.stderr)
            self._failed(job, f"internal error: {type(e).__name__}: {e}")

    def _stream(self, job: Job) -> None:
        r, events = job.request, PageEvents()
        stream = self.drafter_for(r.get("library")).stream(r["request"], cancel=job.cancel_flag)
        try:
            for ev in stream:
                if job.cancelled:
                    break
                page = events.page(ev)
                if page is not None:
                    job.push(page)
        finally:
            stream.close()  # stops the worker at its next cancel point
        with self._lock:  # a cancel that comes now finds the job finished, not "cancelling" after its "done"
            job.drafts, job.state = (None, "cancelled") if job.cancelled else (events.drafts, "done")
            job.push({"kind": job.state})

    @staticmethod
    def _failed(job: Job, message: str) -> None:
        print(f"hybrid serve: draft {job.id} failed: {message}", file=sys.stderr)
        job.state = "failed"
        job.push({"kind": "failed", "error": without_paths(message)})
