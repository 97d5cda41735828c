"""A real browser: headless Chromium (Debian's package) driven by Playwright for Python.

GraphiQL runs a query and a subscription with every request that is not to the service
blocked; a page served from another origin calls the API through CORS when its origin is
listed in RULES_CORS_ORIGINS and is refused when it is not, and follows a game with
EventSource (server-sent events, GET /v1/games/{id}/events).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from playwright.async_api import Browser, Page

from service.store.embedded import free_port
from tests.clients.conftest import TIMEOUT_MS, Service, only_to

pytestmark = pytest.mark.xdist_group("chromium")

QUERY_EDITOR = "document.querySelector('.graphiql-query-editor .CodeMirror').CodeMirror"


async def _run(page: Page, query: str) -> None:
    """Type `query` into the editor and run it, once GraphiQL has parsed it (it decides
    between HTTP and the WebSocket from the parsed document, after a debounce)."""
    await page.evaluate(f"(q) => {QUERY_EDITOR}.setValue(q)", query)
    await page.wait_for_function(
        f"(q) => {QUERY_EDITOR}.documentAST?.loc?.source?.body === q", arg=query, timeout=TIMEOUT_MS
    )
    await page.click(".graphiql-execute-button")


async def _response_contains(page: Page, text: str) -> None:
    await page.wait_for_function(
        "(t) => document.querySelector('.graphiql-response .CodeMirror')?.CodeMirror"
        ".getValue().includes(t)",
        arg=text,
        timeout=TIMEOUT_MS,
    )


async def test_graphiql_runs_a_query_and_a_subscription_with_no_network_but_the_service(
    browser: Browser, service: Service, tmp_path: Path
) -> None:
    page = await browser.new_page(viewport={"width": 1400, "height": 800})
    blocked = await only_to(page, {service.url})
    await page.goto(service.graphql, wait_until="load", timeout=TIMEOUT_MS)
    await page.wait_for_selector(".graphiql-execute-button", timeout=TIMEOUT_MS)
    await _run(page, "{ catalog { kind title } }")
    await _response_contains(page, '"TREE_LINED_AVENUE"')

    async with httpx.AsyncClient(base_url=service.url, timeout=30) as http:
        created = (await http.post("/v1/games", json={"kind": "TREELINGS", "players": 2})).json()
        game_id, token = created["game"]["id"], created["seats"][0]["token"]
        await _run(page, f'subscription {{ gameEvents(gameId: "{game_id}") {{ version status }} }}')
        await _response_contains(page, f'"version": {created["game"]["version"]}')
        auth = {"authorization": f"Bearer {token}"}
        legal = (await http.get(f"/v1/games/{game_id}/legal-moves", headers=auth)).json()
        moved = await http.post(f"/v1/games/{game_id}/moves", headers=auth,
                                json={"move": legal["legalMoves"][0]["move"]})  # fmt: skip
        version = moved.json()["game"]["version"]
    await _response_contains(page, f'"version": {version}')
    await page.screenshot(path=tmp_path / "graphiql.png")
    assert blocked == [], f"GraphiQL asked for more than the service: {blocked}"
    await page.close()


class _Page(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = b"<!doctype html><title>a browser app</title><p>another origin</p>"
        self.send_response(200)
        self.send_header("content-type", "text/html")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def _page_server(origin: str) -> Iterator[str]:
    """A tiny web server on `origin` (http://127.0.0.1:port) serving one page."""
    server = ThreadingHTTPServer(("127.0.0.1", urlsplit(origin).port or 80), _Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield origin
    finally:
        server.shutdown()
        server.server_close()
        thread.join(30)


CALL_API = """async (api) => {
  try {
    const answer = await fetch(api + "/v1/games", {
      method: "POST",
      headers: {"content-type": "application/json", "idempotency-key": "page"},
      body: JSON.stringify({kind: "TREELINGS", players: 2}),
    });
    return {status: answer.status, location: answer.headers.get("location")};
  } catch (error) {
    return {refused: String(error)};
  }
}"""


@pytest.mark.parametrize("listed", [True, False], ids=["listed-origin", "other-origin"])
async def test_a_browser_app_on_another_origin_calls_the_api_only_if_listed(
    browser: Browser, service: Service, listed: bool
) -> None:
    origin = service.allowed_origin if listed else f"http://127.0.0.1:{free_port()}"
    with _page_server(origin):
        page = await browser.new_page()
        blocked = await only_to(page, {service.url, origin})
        await page.goto(origin, timeout=TIMEOUT_MS)
        answer = await page.evaluate(CALL_API, service.url)
        await page.close()
    assert blocked == []
    if listed:
        assert answer["status"] == 201 and answer["location"].startswith("/v1/games/"), answer
    else:
        assert "refused" in answer, f"the browser let a foreign origin read the API: {answer}"


FOLLOW = """(url) => {
  window.seen = [];
  window.source = new EventSource(url);
  window.source.addEventListener("version", (event) => {
    const game = JSON.parse(event.data);
    window.seen.push({id: event.lastEventId, version: game.version, status: game.status});
  });
}"""


async def _streams_opened(http: httpx.AsyncClient) -> float:
    """The event streams this process answered (started, or answered 204)."""
    text = (await http.get("/metrics")).text
    prefix = 'rules_request_seconds_count{operation="rest.game_events"}'
    return sum(float(line.split()[-1]) for line in text.splitlines() if line.startswith(prefix))


async def test_a_browser_follows_a_game_with_event_source_from_another_origin(
    browser: Browser, service: Service
) -> None:
    """Every version played arrives once and in order; after the FINISHED event the server
    ends the stream, EventSource reconnects with Last-Event-ID (through CORS), is answered
    204 and stops."""
    async with httpx.AsyncClient(base_url=service.url, timeout=30) as http:
        body = {"kind": "TREELINGS", "players": 2, "seed": "sse-browser"}
        created = (await http.post("/v1/games", json=body)).json()
        game_id, tokens = created["game"]["id"], [s["token"] for s in created["seats"]]
        opened = await _streams_opened(http)
        with _page_server(service.allowed_origin):
            page = await browser.new_page()
            blocked = await only_to(page, {service.url, service.allowed_origin})
            await page.goto(service.allowed_origin, timeout=TIMEOUT_MS)
            await page.evaluate(FOLLOW, f"{service.url}/v1/games/{game_id}/events")
            await page.wait_for_function("() => window.seen.length === 1", timeout=TIMEOUT_MS)
            for _ in range(3):
                game = (await http.get(f"/v1/games/{game_id}")).json()
                auth = {"authorization": f"Bearer {tokens[game['toAct'][0]]}"}
                legal = (await http.get(f"/v1/games/{game_id}/legal-moves", headers=auth)).json()
                moved = await http.post(f"/v1/games/{game_id}/moves", headers=auth,
                                        json={"move": legal["legalMoves"][0]["move"]})  # fmt: skip
                assert moved.status_code == 200, moved.text
            resigned = await http.post(
                f"/v1/games/{game_id}/resign", headers={"authorization": f"Bearer {tokens[0]}"}
            )
            final = resigned.json()["game"]["version"]
            closed = "() => window.source.readyState === EventSource.CLOSED"
            await page.wait_for_function(closed, timeout=TIMEOUT_MS)
            seen = await page.evaluate("() => window.seen")
            await page.close()
        assert await _streams_opened(http) - opened == 2, "the stream, then the 204 reconnect"
    assert blocked == []
    assert [event["version"] for event in seen] == list(range(final + 1))
    assert [event["id"] for event in seen] == [str(v) for v in range(final + 1)]
    assert seen[-1]["status"] == "FINISHED"
