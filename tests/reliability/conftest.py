"""Fixtures of the reliability tests (the hang watchdog is tests/conftest.py's, for all)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from service.store.embedded import EmbeddedRedis


@pytest.fixture(scope="module")
def redis() -> Iterator[EmbeddedRedis]:
    """A private Redis per module, for tests that kill, pause or proxy it."""
    server = EmbeddedRedis().start()
    try:
        yield server
    finally:
        server.cleanup()
