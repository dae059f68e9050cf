"""Cancel points: where a long piece of work may be stopped by whoever asked for it.

Owns: `checkpoint()` (a cheap call placed between the phases of a draft and inside its long loops: it stops the work
there when the scope it runs in was cancelled, and does nothing outside a scope), `cancellable(items)` (a long scan's
items with a checkpoint every so many) and `cancel_scope(check)` (the scope a stream's worker runs in:
hybrid.draft.streaming). A scope is a context variable, so a stage far below the stream
(the embedding encoder's batches, the reranker's windows) reaches it without an argument threaded through every
call; a thread started inside a scope does not inherit it. Knows nothing of events, queues or the server.
"""

import contextlib
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar

__all__ = ["checkpoint", "cancellable", "cancel_scope", "SCAN_EVERY"]

SCAN_EVERY = 1024  # items of a scan between two checkpoints (a clause library's precedents: milliseconds apart)

_CHECK: ContextVar[Callable[[], None] | None] = ContextVar("hybrid_cancel_check", default=None)


def checkpoint() -> None:
    """Stop the work here if its scope was cancelled (the scope's check raises); a no-op outside a scope."""
    check = _CHECK.get()
    if check is not None:
        check()


def cancellable(items: Iterable, every: int = SCAN_EVERY) -> Iterator:
    """`items` as they are, with a checkpoint() before the first and then every `every`-th."""
    for i, item in enumerate(items):
        if i % every == 0:
            checkpoint()
        yield item


@contextlib.contextmanager
def cancel_scope(check: Callable[[], None]):
    """Run the body with `check` as its cancel point: check() raises to stop the work, returns to go on."""
    token = _CHECK.set(check)
    try:
        yield
    finally:
        _CHECK.reset(token)
