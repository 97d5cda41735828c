"""Waiting for an event, the one way the tests wait (tests/conftest.py: poll with a generous
bound, never sleep and hope, never a tight deadline)."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from typing import Any

POLL = 0.02  # seconds between two looks


async def until(condition: Callable[[], Any], what: str, seconds: float = 60) -> Any:
    """Poll `condition` (a function, sync or async) until it returns something true, and return
    that. After `seconds` (a bound that only turns an event that never comes into a failure, on
    a busy machine too) an AssertionError says what was waited for; a look still running then
    is cancelled."""
    bound = asyncio.timeout(seconds)
    try:
        async with bound:
            while True:
                found = condition()
                if inspect.isawaitable(found):
                    found = await found
                if found:
                    return found
                await asyncio.sleep(POLL)
    except TimeoutError:
        if not bound.expired():  # the condition's own
            raise
        raise AssertionError(f"timed out after {seconds} s waiting for {what}") from None
