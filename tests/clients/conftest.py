"""The client-compatibility suite: real third-party clients against a real service process.

One service process serves the whole folder. Its CORS setting allows one browser origin, the
page server's (test_browser.py): its port is chosen before the service starts.
Tools that are not Python packages (node, chromium) are looked for on PATH: without one a test
says what is missing and skips, unless RULES_REQUIRE_ALL_TESTS=1 (CI), where it fails.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from urllib.parse import urlsplit

import pytest
from playwright.async_api import Browser, Page, Route, async_playwright

from service.store.embedded import free_port
from tests.support.processes import service_processes

KINDS = ["TREELINE", "TREELINGS", "TREETOPIA", "TREE_LINED_AVENUE"]


@dataclass(frozen=True)
class Service:
    url: str  # http://127.0.0.1:port
    allowed_origin: str  # the one browser origin RULES_CORS_ORIGINS lists

    @property
    def graphql(self) -> str:
        return f"{self.url}/graphql"

    @property
    def websocket(self) -> str:
        return self.graphql.replace("http://", "ws://")


def require(tool: str, install: str) -> str:
    """The path of `tool`; a skip (a failure under RULES_REQUIRE_ALL_TESTS=1) without it."""
    found = shutil.which(tool)
    if found is None:
        message = f"{tool} is not on PATH ({install})"
        if os.environ.get("RULES_REQUIRE_ALL_TESTS") == "1":
            pytest.fail(f"{message}; RULES_REQUIRE_ALL_TESTS=1 needs every client test")
        pytest.skip(message)
    return found


@pytest.fixture(scope="session")
def service(redis_url: str) -> Iterator[Service]:
    origin = f"http://127.0.0.1:{free_port()}"
    settings = {
        "RULES_CORS_ORIGINS": origin,
        "RULES_RATE_LIMIT_PER_TOKEN": "0",  # whole games, move after move
        "RULES_RATE_LIMIT_PER_ADDRESS": "0",
    }
    with contextlib.ExitStack() as running:
        with pytest.MonkeyPatch.context() as patch:  # the service's environment, not ours
            for name, value in settings.items():
                patch.setenv(name, value)
            urls = running.enter_context(service_processes(redis_url, 1))
        yield Service(urls[0], origin)


CHROMIUM_FLAGS = [
    "--no-sandbox",  # CI runs as root
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--disable-dev-shm-usage",
    "--disable-sync",
    "--no-first-run",
]
TIMEOUT_MS = 60_000


@pytest.fixture(scope="session")
async def browser() -> AsyncIterator[Browser]:
    """Headless Chromium (Debian's package, through Playwright's executable_path); the browser
    modules share one (their xdist_group keeps them on one worker)."""
    chromium = require("chromium", "apt-get install chromium")
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
        try:
            yield launched
        finally:
            await launched.close()


async def only_to(page: Page, origins: set[str]) -> list[str]:
    """Abort every request to any other origin; the list of those refused."""
    blocked: list[str] = []

    async def route(route: Route) -> None:
        parts = urlsplit(route.request.url)
        if f"{parts.scheme}://{parts.netloc}".replace("ws", "http", 1) in origins:
            await route.continue_()
        else:
            blocked.append(route.request.url)
            await route.abort()

    await page.route("**/*", route)
    return blocked
