"""Browser origins (RULES_CORS_ORIGINS, empty by default): CORS on HTTP, the Origin check on
WebSocket upgrades, and the frames a browser's WebSocket receives (text, as both GraphQL
protocols require)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import websockets
from websockets.exceptions import InvalidStatus

from service.app import create_app
from service.settings import Settings
from tests.clients.conftest import Service
from tests.conftest import client_for

# one worker runs the module, so its service processes start once, not once per worker
pytestmark = pytest.mark.xdist_group("origins")

FOREIGN = "http://evil.example"


async def test_a_listed_origin_may_call_the_api_and_read_its_headers(service: Service) -> None:
    async with httpx.AsyncClient(base_url=service.url) as http:
        preflight = await http.options(
            "/v1/games/any/moves",
            headers={
                "origin": service.allowed_origin,
                "access-control-request-method": "POST",
                "access-control-request-headers": "authorization, content-type, idempotency-key",
            },
        )
        assert preflight.status_code == 200
        assert preflight.headers["access-control-allow-origin"] == service.allowed_origin
        allowed = preflight.headers["access-control-allow-headers"].lower()
        assert {"authorization", "idempotency-key", "if-match"} <= set(allowed.split(", "))
        created = await http.post(
            "/v1/games",
            json={"kind": "TREELINGS", "players": 2},
            headers={"origin": service.allowed_origin},
        )
        assert created.headers["access-control-allow-origin"] == service.allowed_origin
        exposed = created.headers["access-control-expose-headers"].lower()
        assert {"etag", "retry-after", "location"} <= set(exposed.split(", "))


async def test_another_origin_gets_no_cors_grant(service: Service) -> None:
    async with httpx.AsyncClient(base_url=service.url) as http:
        preflight = await http.options(
            "/graphql",
            headers={"origin": FOREIGN, "access-control-request-method": "POST"},
        )
        assert preflight.status_code == 400
        assert "access-control-allow-origin" not in preflight.headers
        answer = await http.get("/healthz", headers={"origin": FOREIGN})
        assert "access-control-allow-origin" not in answer.headers


async def _connection_ack(service: Service, origin: str, protocol: str) -> str | bytes:
    async with (
        asyncio.timeout(30),
        websockets.connect(
            service.websocket,
            subprotocols=[protocol],
            origin=origin,  # type: ignore[list-item,arg-type]
        ) as socket,
    ):
        await socket.send(json.dumps({"type": "connection_init", "payload": {}}))
        return await socket.recv()


@pytest.mark.parametrize("protocol", ["graphql-transport-ws", "graphql-ws"])
async def test_websocket_messages_are_text_frames_for_a_listed_origin(
    service: Service, protocol: str
) -> None:
    ack = await _connection_ack(service, service.allowed_origin, protocol)
    assert isinstance(ack, str), "a binary frame: gql, graphql-ws and browsers refuse it"
    assert json.loads(ack)["type"] == "connection_ack"


async def test_a_websocket_from_another_origin_is_refused(service: Service) -> None:
    with pytest.raises(InvalidStatus) as refused:
        await _connection_ack(service, FOREIGN, "graphql-transport-ws")
    assert refused.value.response.status_code == 403


async def _handshake(app: Any, origin: str) -> str:
    """What the app does with a WebSocket upgrade from `origin`: its first ASGI message type
    (uvicorn answers a close before any accept with 403)."""
    scope = {
        "type": "websocket", "asgi": {"version": "3.0"}, "scheme": "ws", "http_version": "1.1",
        "path": "/graphql", "raw_path": b"/graphql", "query_string": b"", "root_path": "",
        "headers": [(b"host", b"rules.example"), (b"origin", origin.encode()),
                    (b"sec-websocket-protocol", b"graphql-transport-ws")],
        "subprotocols": ["graphql-transport-ws"], "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 80), "state": {},
    }  # fmt: skip
    connected = False
    sent: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def receive() -> dict[str, Any]:
        nonlocal connected
        if not connected:
            connected = True
            return {"type": "websocket.connect"}
        await asyncio.Event().wait()  # the client says nothing more
        raise AssertionError

    handler = asyncio.create_task(app(scope, receive, sent.put))
    try:
        async with asyncio.timeout(30):
            first: str = (await sent.get())["type"]
    finally:
        handler.cancel()
        await asyncio.gather(handler, return_exceptions=True)
    return first


@pytest.mark.parametrize("env", ["production", "development"])
async def test_by_default_no_other_origin_gets_cors_or_a_websocket(
    redis_url: str, env: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("RULES_CORS_ORIGINS", raising=False)
    monkeypatch.setenv("RULES_ENV", env)
    settings = Settings.from_env()
    assert settings.cors_origins == ()
    app = create_app(settings, redis_url)
    async with client_for(app) as http:
        preflight = await http.options(
            "/v1/games", headers={"origin": FOREIGN, "access-control-request-method": "POST"}
        )
        assert "access-control-allow-origin" not in preflight.headers
        created = await http.post(
            "/v1/games", json={"kind": "TREELINGS", "players": 2}, headers={"origin": FOREIGN}
        )
        assert created.status_code == 201
        assert "access-control-allow-origin" not in created.headers
        assert await _handshake(app, FOREIGN) == "websocket.close"
        assert await _handshake(app, "http://rules.example") == "websocket.accept"  # its own
