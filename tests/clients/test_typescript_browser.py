"""The TypeScript SDK in a browser: an app importing it, bundled by esbuild with
`--platform=browser` (as for a web app; React Native's bundler takes the same "default"
condition), runs in headless Chromium and follows a game's events over the browser's own
WebSocket. `ws` is nowhere in the bundle."""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.async_api import Browser

from tests.clients.conftest import TIMEOUT_MS, Service, only_to
from tests.clients.test_typescript_sdk import _run, built, node_modules  # noqa: F401

# one Chromium for the browser modules (tests/clients/conftest.py); tsc and a whole game: slow
pytestmark = [pytest.mark.xdist_group("chromium"), pytest.mark.slow]

APP = Path(__file__).parent / "node" / "sdk" / "browser_app.mjs"


@pytest.fixture(scope="module")
def bundle(built: Path, node_modules: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:  # noqa: F811
    """An app that imports the SDK as a package, bundled for browsers; its metafile beside."""
    app = tmp_path_factory.mktemp("browser-app")
    shutil.copy(APP, app / "app.mjs")
    (app / "node_modules").mkdir()
    (app / "node_modules" / "tree-games-rules-sdk").symlink_to(built.parent)
    esbuild = node_modules / ".bin" / "esbuild"
    _run([esbuild, "app.mjs", "--bundle", "--platform=browser", "--format=esm",
          "--outfile=app.js", "--metafile=meta.json", "--log-level=warning"], app)  # fmt: skip
    return app / "app.js"


@contextmanager
def _app_server(origin: str, bundle: Path) -> Iterator[None]:
    """The app's page and its bundle, served from `origin` (one the service's CORS allows)."""
    script = bundle.read_bytes()
    page = b'<!doctype html><title>an app</title><script type="module" src="/app.js"></script>'

    class Files(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body, kind = (script, "text/javascript") if self.path == "/app.js" else (page, "text/html")  # fmt: skip
            self.send_response(200)
            self.send_header("content-type", kind)
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", urlsplit(origin).port or 80), Files)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield
    finally:
        server.shutdown()
        server.server_close()
        thread.join(30)


def test_the_bundle_leaves_ws_out(bundle: Path) -> None:
    inputs = json.loads((bundle.parent / "meta.json").read_text())["inputs"]
    assert not [path for path in inputs if "node_modules/ws/" in path], "ws was bundled"
    assert any(path.endswith("dist/websocket.js") for path in inputs), sorted(inputs)
    assert not any(path.endswith("dist/websocket-node.js") for path in inputs)


async def test_a_bundled_app_follows_a_game_in_chromium(
    browser: Browser, service: Service, bundle: Path
) -> None:
    with _app_server(service.allowed_origin, bundle):
        page = await browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        blocked = await only_to(page, {service.url, service.allowed_origin})
        await page.goto(service.allowed_origin, timeout=TIMEOUT_MS)
        await page.wait_for_function("() => window.playAndFollow", timeout=TIMEOUT_MS)
        summary = await page.evaluate("(url) => window.playAndFollow(url)", service.graphql)
        await page.close()
    print(json.dumps(summary))
    assert errors == [] and blocked == [], (errors, blocked)
    versions = summary["versions"]
    assert summary["status"] == "FINISHED", summary
    assert versions == list(range(versions[0], summary["history"] + 1)), "every version once"
    assert summary["refused"] == {"rulesError": True, "code": "NOT_FOUND"}, summary
