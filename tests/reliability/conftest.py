"""Fixtures of the reliability tests (the hang watchdog is tests/conftest.py's, for all)."""

from __future__ import annotations

import os
import signal
from collections.abc import AsyncIterator, Iterator

import pytest

from service.store.embedded import EmbeddedRedis
from tests.reliability.replicas import Pair, linked, replica_of


@pytest.fixture(scope="module")
def redis() -> Iterator[EmbeddedRedis]:
    """A private Redis per module, for tests that kill, pause or proxy it."""
    server = EmbeddedRedis().start()
    try:
        yield server
    finally:
        server.cleanup()


@pytest.fixture
async def pair() -> AsyncIterator[Pair]:
    master = EmbeddedRedis().start()
    try:
        replica = replica_of(master.port)
        try:
            await linked(master, replica)
            yield Pair(master, replica)
        finally:
            if replica.process is not None:
                os.kill(replica.process.pid, signal.SIGCONT)  # a stopped server cannot stop
            replica.cleanup()
    finally:
        master.cleanup()
