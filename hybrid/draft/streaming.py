"""How Drafter.stream() streams a draft: its pipeline in a worker thread, the progress events on a queue.

Owns: the worker thread and its queue (run_streamed: an exception in the work is raised in the
consumer; closing the generator early stops the work at its next event), and the in-stage progress
events made from the planner's and the filler's callbacks (token_events: "plan_token"; step_events:
"fill_step", a slot the filler has not committed yet shown as MASK_GLYPH). Knows nothing of models.
"""

import codecs
import queue
import threading
import time

from hybrid.draft.result import DraftEvent

__all__ = ["run_streamed", "token_events", "step_events", "MASK_GLYPH"]

MASK_GLYPH = "_"  # how stream() shows a slot the filler has not committed yet


class _Cancelled(Exception):
    """Raised inside a stream's worker when the consumer closed the stream."""


def run_streamed(events):
    """Yield what `events(emit)` yields and what it passes to `emit`, in order, from a worker thread
    ("hybrid-drafter-stream", a daemon); closing this generator makes the worker's next emit stop it."""
    q: queue.Queue = queue.Queue()
    cancel = threading.Event()
    done = object()

    def emit(ev):
        if cancel.is_set():
            raise _Cancelled
        q.put(ev)

    def work():
        try:
            for ev in events(emit):
                emit(ev)
        except _Cancelled:
            pass
        except BaseException as e:  # handed to the consumer, raised there
            q.put(e)
        finally:
            q.put(done)

    worker = threading.Thread(target=work, name="hybrid-drafter-stream", daemon=True)
    worker.start()
    try:
        while True:
            item = q.get()
            if item is done:
                break
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        cancel.set()
        worker.join()


def token_events(emit, t0: float):
    """The planner's on_token callback that emits a "plan_token" event per token (its text decoded as
    UTF-8 across token boundaries); None when there is nothing to emit to (emit None)."""
    if emit is None:
        return None
    dec = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def on_token(tok_id, piece, forced):
        emit(DraftEvent("plan_token", time.perf_counter() - t0, text=dec.decode(piece), forced=forced))

    return on_token


def step_events(emit, t0: float):
    """The filler's on_step callback that emits a "fill_step" event per step (the spans written so far,
    open slots as MASK_GLYPH); None when there is nothing to emit to (emit None)."""
    if emit is None:
        return None

    def on_step(ev):
        partial = ev.partial(MASK_GLYPH)
        emit(DraftEvent("fill_step", time.perf_counter() - t0, step=ev.step, steps=ev.steps, partial=partial))

    return on_step
