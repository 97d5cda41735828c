"""on_daemon_thread: a decision off the event loop, on a thread that never holds up the exit."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


async def on_daemon_thread(call: Callable[[], T]) -> T:
    """`call()` on a thread of its own, awaited. A daemon thread, unlike asyncio.to_thread's,
    does not hold up the process's exit: a drain that runs out of time exits with the
    decision unfinished."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[T] = loop.create_future()

    def settle(outcome: Callable[[], None]) -> None:
        if not answer.done():  # else the await was cancelled meanwhile
            outcome()

    def run() -> None:
        try:
            result = call()
        except BaseException as exc:  # handed to the awaiting task
            settle_later = functools.partial(settle, functools.partial(answer.set_exception, exc))
        else:
            settle_later = functools.partial(settle, functools.partial(answer.set_result, result))
        with contextlib.suppress(RuntimeError):  # the loop closed: nobody waits any more
            loop.call_soon_threadsafe(settle_later)

    threading.Thread(target=run, name="decision", daemon=True).start()
    return await answer
