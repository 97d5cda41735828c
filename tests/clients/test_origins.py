"""Browser origins (RULES_CORS_ORIGINS): CORS on HTTP, the Origin check on WebSocket upgrades,
and the frames a browser's WebSocket receives (text, as both GraphQL protocols require)."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import websockets
from websockets.exceptions import InvalidStatus

from tests.clients.conftest import Service

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
