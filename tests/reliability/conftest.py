"""A watchdog: a reliability test that waits on something that never comes fails within
LIMIT seconds, printing every pending asyncio task's stack, instead of hanging the suite."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator, Iterator

import pytest

from service.store.embedded import EmbeddedRedis

LIMIT = 90.0


def _bark(test: str) -> None:
    print(f"\nwatchdog: {test} still running after {LIMIT}s; pending tasks:", file=sys.stderr)
    for task in asyncio.all_tasks():
        task.print_stack(file=sys.stderr)
    for task in asyncio.all_tasks():
        task.cancel()


@pytest.fixture(autouse=True)
async def watchdog(request: pytest.FixtureRequest) -> AsyncIterator[None]:
    handle = asyncio.get_running_loop().call_later(LIMIT, _bark, request.node.nodeid)
    yield
    handle.cancel()


@pytest.fixture(scope="module")
def redis() -> Iterator[EmbeddedRedis]:
    """A private Redis per module, for tests that kill, pause or proxy it."""
    server = EmbeddedRedis().start()
    try:
        yield server
    finally:
        server.cleanup()
