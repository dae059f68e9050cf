"""Where the server's blocking work runs: a few worker threads, each call bounded in time, so that the event loop only
moves bytes and the page answers while requests are checked.

Owns: Offload (WORKERS threads of its own; `await offload.run(fn, *args, what=..., field=...)` runs fn there and gives
its result or raises its error; a call that waited past `seconds` without starting is refused with Busy (503), one
that ran past it with TooSlow (400, naming the field it was checking), and the request is answered at once either
way) and the errors. A worker thread cannot be stopped from outside: a call that ran out of time finishes in the
background, holding its worker until then, and its result is dropped.
"""

import asyncio
from concurrent.futures import ThreadPoolExecutor

from hybrid.serve.forms import RequestError

__all__ = ["Offload", "Busy", "TooSlow", "WORKERS", "CHECK_SECONDS"]

WORKERS = 2  # threads checking requests at once: more would only share the same CPUs (and the GIL) with the page
CHECK_SECONDS = 10.0  # the most one request's checks (parse, validate, upload, export) may wait and run together


class Busy(RequestError):
    """Every worker stayed busy for the whole bound: the request was not looked at (503, try again)."""


class TooSlow(RequestError):
    """A request's checks ran past the bound (400: the request is refused; `field` names what was being checked)."""


class Offload:
    """A small pool of worker threads for the blocking parts of requests, each call bounded by `seconds`."""

    def __init__(self, workers: int = WORKERS, seconds: float | None = None):
        self.seconds = CHECK_SECONDS if seconds is None else seconds
        assert workers >= 1 and self.seconds > 0, (workers, self.seconds)
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="hybrid-serve-check")

    async def run(self, fn, *args, what: str = "this request", field: str | None = None):
        """fn(*args) in a worker thread: its result, or its exception raised here; Busy when it could not start
        within the bound, TooSlow when it started but did not finish within it."""
        future = self._pool.submit(fn, *args)
        try:
            return await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(future)), self.seconds)
        except TimeoutError:
            if future.cancel():  # still queued: never started
                raise Busy(f"the server is busy checking other requests ({self.seconds:g} s went by before "
                           f"{what} was looked at); try again in a moment.", field) from None
            raise TooSlow(f"{what} took longer than {self.seconds:g} s to check and was refused.", field) from None

    def close(self) -> None:
        """No new calls; the running ones finish in the background."""
        self._pool.shutdown(wait=False, cancel_futures=True)
