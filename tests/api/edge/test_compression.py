"""gzip and brotli on HTTP answers of 1 KiB and more, never on streams; permessage-deflate on
WebSockets (service/api/edge/compression.py)."""

from __future__ import annotations

import asyncio
import gzip
from collections.abc import AsyncIterator
from typing import Any

import brotli
import httpx
import msgspec
import pytest
import websockets
from starlette.responses import StreamingResponse

from service.api.edge.compression import MINIMUM_BYTES, compressed
from tests.conftest import Api
from tests.support import gql
from tests.support.play import create
from tests.support.processes import service_processes

DECODE = {"gzip": gzip.decompress, "br": brotli.decompress}


async def _raw(
    http: httpx.AsyncClient, method: str, url: str, encoding: str, **kwargs: Any
) -> tuple[httpx.Response, bytes]:
    """The answer and its body as sent (httpx would decode it)."""
    headers = {"accept-encoding": encoding, **kwargs.pop("headers", {})}
    async with http.stream(method, url, headers=headers, **kwargs) as response:
        return response, b"".join([chunk async for chunk in response.aiter_raw()])


@pytest.mark.parametrize("kind", ["TREELINE", "TREELINGS"])
async def test_a_seats_view_is_compressed_as_the_client_asks(api: Api, kind: str) -> None:
    game, tokens = await create(api, kind, 2, seed=f"compress-{kind}")
    auth = {"authorization": f"Bearer {tokens[0]}"}
    graphql = {"json": {"query": gql.GAME, "variables": {"id": game["id"]}}, "headers": auth}
    for method, url, kwargs in [
        ("POST", "/graphql", graphql),
        ("GET", f"/v1/games/{game['id']}", {"headers": auth}),
    ]:
        plain, body = await _raw(api.http, method, url, "identity", **kwargs)
        assert "content-encoding" not in plain.headers and len(body) >= MINIMUM_BYTES
        assert "accept-encoding" in plain.headers["vary"].lower()
        for encoding, decode in DECODE.items():
            response, sent = await _raw(api.http, method, url, encoding, **kwargs)
            assert response.headers["content-encoding"] == encoding, (url, encoding)
            assert "accept-encoding" in response.headers["vary"].lower()
            assert int(response.headers["content-length"]) == len(sent) < len(body) / 2
            assert msgspec.json.decode(decode(sent)) == msgspec.json.decode(body)


async def test_the_client_preference_and_refusals_are_honoured(api: Api) -> None:
    game, tokens = await create(api, "TREELINE", 2, seed="compress-q")
    url, auth = f"/v1/games/{game['id']}", {"authorization": f"Bearer {tokens[0]}"}
    chosen = {
        "gzip, br": "br",  # the server's order: br is smaller at the same cost
        "br;q=0, gzip": "gzip",
        "gzip;q=0": None,
        "zstd": None,  # not offered
        "*": "br",
    }
    for accept, expected in chosen.items():
        response, _ = await _raw(api.http, "GET", url, accept, headers=auth)
        assert response.headers.get("content-encoding") == expected, accept


async def test_small_answers_and_304s_are_sent_as_they_are(api: Api) -> None:
    health, body = await _raw(api.http, "GET", "/healthz", "br, gzip")
    assert "content-encoding" not in health.headers and body == b"ok"
    game, _ = await create(api, "TREELINE", 2, seed="compress-304")
    url = f"/v1/games/{game['id']}"
    tag = (await api.http.get(url)).headers["etag"]
    held, sent = await _raw(api.http, "GET", url, "br", headers={"if-none-match": tag})
    assert held.status_code == 304 and sent == b""
    assert "content-encoding" not in held.headers


async def test_a_stream_is_never_compressed() -> None:
    """An encoder holds bytes back until it has a block: SSE and incremental delivery would
    reach the client late, so streamed types pass as they are."""

    async def events() -> AsyncIterator[bytes]:
        for n in range(3):
            yield f"data: {'x' * MINIMUM_BYTES} {n}\n\n".encode()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        for media_type in ("text/event-stream", "multipart/mixed"):
            if scope["path"] == f"/{media_type}":
                await StreamingResponse(events(), media_type=media_type)(scope, receive, send)

    transport = httpx.ASGITransport(app=compressed(app))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        for media_type in ("text/event-stream", "multipart/mixed"):
            response, body = await _raw(http, "GET", f"/{media_type}", "br, gzip")
            assert "content-encoding" not in response.headers, media_type
            assert body.count(b"data: ") == 3


def test_websockets_are_deflated_per_message_by_the_server(redis_url: str) -> None:
    """uvicorn's WebSocket implementation (websockets) agrees to permessage-deflate when the
    client offers it (gql's websockets transport and browsers do)."""

    async def handshake(compression: str | None) -> str | None:
        async with websockets.connect(
            url, subprotocols=["graphql-transport-ws"], compression=compression
        ) as socket:
            assert socket.response is not None
            extensions: str | None = socket.response.headers.get("sec-websocket-extensions")
            return extensions

    with service_processes(redis_url, 1) as (base,):
        url = base.replace("http", "ws") + "/graphql"
        offered = asyncio.run(handshake("deflate"))
        assert offered is not None and "permessage-deflate" in offered
        assert asyncio.run(handshake(None)) is None
