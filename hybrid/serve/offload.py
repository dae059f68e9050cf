"""Where the server's blocking work runs: a few worker threads, each call bounded in time, so that the event loop only
moves bytes and the page answers while requests are checked.

Owns: Offload (WORKERS threads of its own; `await offload.run(fn, *args, what=..., field=...)` runs fn there and gives
its result or raises its error; a call that waited WAIT_SECONDS for a free worker without starting is refused with
Busy (503), one that ran CHECK_SECONDS with TooSlow (400, naming the field it was checking), and the request is
answered at once either way) and the errors. A worker thread cannot be stopped from outside: a call that ran out of
time finishes in the background, holding its worker until then, and its result is dropped.
"""

import asyncio
from concurrent.futures import ThreadPoolExecutor

from hybrid.serve.forms import RequestError

__all__ = ["Offload", "Busy", "TooSlow", "WORKERS", "WAIT_SECONDS", "CHECK_SECONDS"]

WORKERS = 2  # threads checking requests at once: more would only share the same CPUs (and the GIL) with the page
WAIT_SECONDS = 30.0  # the most a request waits for a free worker (five 0.9 MB uploads at once take ~10 s in all)
CHECK_SECONDS = 10.0  # the most one request's checks (parse, validate, upload, export) may run once started


class Busy(RequestError):
    """Every worker stayed busy for the whole bound: the request was not looked at (503, try again)."""


class TooSlow(RequestError):
    """A request's checks ran past the bound (400: the request is refused; `field` names what was being checked)."""


class Offload:
    """A small pool of worker threads for the blocking parts of requests, each call bounded in its wait and its run
    (WAIT_SECONDS, CHECK_SECONDS at construction)."""

    def __init__(self, workers: int = WORKERS):
        self.wait, self.seconds = WAIT_SECONDS, CHECK_SECONDS
        assert workers >= 1 and self.wait > 0 and self.seconds > 0, (workers, self.wait, self.seconds)
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="hybrid-serve-check")

    async def run(self, fn, *args, what: str = "this request", field: str | None = None):
        """fn(*args) in a worker thread: its result, or its exception raised here; Busy when no worker took it within
        the wait, TooSlow when it started but did not finish within its run's bound."""
        loop, started = asyncio.get_running_loop(), asyncio.Event()

        def call():
            loop.call_soon_threadsafe(started.set)
            return fn(*args)

        future = self._pool.submit(call)
        try:
            await asyncio.wait_for(started.wait(), self.wait)
        except TimeoutError:
            if future.cancel():  # still queued: never started
                raise Busy(f"the server is busy checking other requests ({self.wait:g} s went by before {what} was "
                           "looked at); try again in a moment.", field) from None
        try:
            return await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(future)), self.seconds)
        except TimeoutError:
            raise TooSlow(f"{what} took longer than {self.seconds:g} s to check and was refused.", field) from None

    def close(self) -> None:
        """No new calls; the running ones finish in the background."""
        self._pool.shutdown(wait=False, cancel_futures=True)
