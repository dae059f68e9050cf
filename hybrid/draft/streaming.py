"""How Drafter.stream() streams a draft: its pipeline in a worker thread, the progress events on a queue.

Owns: the worker thread and its queue (run_streamed: an exception in the work is raised in the
consumer; closing the generator early stops the work at its next event), and the in-stage progress
events made from the planner's and the filler's callbacks (token_events: "plan_token"; step_events:
"fill_step", a slot the filler has not committed yet shown as MASK_GLYPH), and the cancel points between
them (cancel_check; the worker runs in a hybrid.common.cancel scope, so every checkpoint() below the stream is one
too). Knows nothing of models.
"""

import codecs
import contextvars
import queue
import threading
import time

from hybrid.common.cancel import cancel_scope
from hybrid.draft.result import DraftEvent

__all__ = ["run_streamed", "token_events", "step_events", "progress_events", "cancel_check", "MASK_GLYPH"]

MASK_GLYPH = "_"  # how stream() shows a slot the filler has not committed yet


class _Cancelled(Exception):
    """Raised inside a stream's worker when the consumer closed the stream."""


def run_streamed(events, cancel: threading.Event | None = None):
    """Yield what `events(emit)` yields and what it passes to `emit`, in order, from a worker thread
    ("hybrid-drafter-stream", a daemon, in a copy of the caller's context variables); closing this generator, or
    setting `cancel` (from any thread, while the consumer waits for the next event), makes the worker's next emit
    stop it. emit(None) only checks: a cancel point inside a long loop that has nothing to show (cancel_check), and
    what every hybrid.common.cancel.checkpoint() the work reaches calls."""
    q: queue.Queue = queue.Queue()
    closed = threading.Event()  # set when this generator ends; `cancel` is the caller's, never set here
    done = object()

    def emit(ev):
        if closed.is_set() or (cancel is not None and cancel.is_set()):
            raise _Cancelled
        if ev is not None:
            q.put(ev)

    def work():
        try:
            with cancel_scope(lambda: emit(None)):
                for ev in events(emit):
                    emit(ev)
        except _Cancelled:
            pass
        except BaseException as e:  # handed to the consumer, raised there
            q.put(e)
        finally:
            q.put(done)

    context = contextvars.copy_context()  # the caller's scopes go with it (hybrid.precedents.embeddings.read_only)
    worker = threading.Thread(target=context.run, args=(work,), name="hybrid-drafter-stream", daemon=True)
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
        closed.set()
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


def progress_events(emit, t0: float):
    """count(phase, done, total): emits a "progress" DraftEvent (text: the phase, "library", "precedents" or "rank";
    step of steps: the units done so far) between the stages' own events, so a long phase shows its counts and a
    cancel stops it there; a no-op when there is nothing to emit to (emit None)."""

    def count(phase: str, done: int, total: int) -> None:
        if emit is not None:
            emit(DraftEvent("progress", time.perf_counter() - t0, text=phase, step=done, steps=total))

    return count


def cancel_check(emit):
    """check(): stops the stream's work there when its consumer closed it or set its cancel, emitting nothing (a
    cheap point per document or variant inside a long loop: the base choice); a no-op without a stream (emit None)."""
    if emit is None:
        return lambda: None
    return lambda: emit(None)


def step_events(emit, t0: float):
    """The filler's on_step callback that emits a "fill_step" event per step (the spans written so far,
    open slots as MASK_GLYPH); None when there is nothing to emit to (emit None)."""
    if emit is None:
        return None

    def on_step(ev):
        partial = ev.partial(MASK_GLYPH)
        emit(DraftEvent("fill_step", time.perf_counter() - t0, step=ev.step, steps=ev.steps, partial=partial))

    return on_step
