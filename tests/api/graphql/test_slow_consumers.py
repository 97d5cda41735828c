"""A subscriber whose socket stops reading is closed with 4413 SLOW_CONSUMER once it is
RULES_SUBSCRIBER_QUEUE events behind what the server could write, and it slows nobody: a
subscriber of the same game on another socket, getting the same frames, has every version
meanwhile."""

from __future__ import annotations

import asyncio
import json
import socket as sockets
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
import redis.asyncio as aioredis
import websockets
from websockets.typing import Subprotocol

from tests.hostile.ws import create_game
from tests.support.processes import service_processes

QUEUE = 8
# frames of ~7 KB (a four-seat TREELINE game's state): 1,200 of them are twice what the
# kernel's buffers (tcp_wmem's 4 MiB at most) and the server's transport hold
EVENTS = 1200
FAT = "subscription E($id: ID!) { gameEvents(gameId: $id) { version game { state } } }"


@pytest.fixture(scope="module")
def server(redis_url: str) -> Iterator[str]:
    with service_processes(redis_url, 1, {"RULES_SUBSCRIBER_QUEUE": str(QUEUE)}) as urls:
        yield urls[0]


async def _subscribe(url: str, query: str, game_id: str, receive_buffer: int = 0) -> Any:
    """A graphql-transport-ws subscriber; `receive_buffer` shrinks its socket's buffer (and
    its client's queue), so that once it stops reading the server's writes back up soon."""
    raw = None
    if receive_buffer:
        host = urlsplit(url)
        raw = sockets.create_connection((host.hostname, host.port))
        raw.setsockopt(sockets.SOL_SOCKET, sockets.SO_RCVBUF, receive_buffer)
    socket = await websockets.connect(
        url.replace("http", "ws") + "/graphql",
        subprotocols=[Subprotocol("graphql-transport-ws")],
        sock=raw,
        max_queue=1 if receive_buffer else 16,
        ping_interval=None,  # a client that stops reading would not see its own pongs
        compression=None,
    )
    await socket.send(json.dumps({"type": "connection_init", "payload": {}}))
    assert json.loads(await socket.recv())["type"] == "connection_ack"
    message = {
        "id": "1",
        "type": "subscribe",
        "payload": {"query": query, "variables": {"id": game_id}},
    }
    await socket.send(json.dumps(message))
    assert json.loads(await socket.recv())["type"] == "next"  # the current version
    return socket


async def test_a_socket_that_stops_reading_is_closed_and_slows_no_other(
    server: str, redis_url: str
) -> None:
    game, _ = await create_game(server, "slow-reader", players=4, kind="TREELINE")
    slow = await _subscribe(server, FAT, game["id"], receive_buffer=4096)
    fast = await _subscribe(server, FAT, game["id"])  # the same frames: one render for both
    publisher = aioredis.Redis.from_url(redis_url)
    command = "SPUBLISH" if "cluster" in redis_url else "PUBLISH"
    channel = f"g:{{{game['id']}}}:events"
    try:
        version = 0
        async with asyncio.timeout(60):
            while version < EVENTS:  # another replica's moves, as fast as the fast one reads
                for _ in range(QUEUE // 2):
                    version += 1
                    event = {"gameId": game["id"], "version": version, "status": "ACTIVE"}
                    await publisher.execute_command(command, channel, json.dumps(event))
                for expected in range(version - QUEUE // 2 + 1, version + 1):
                    got = json.loads(await fast.recv())["payload"]["data"]["gameEvents"]
                    assert got["version"] == expected, got
        # the slow reader reads again (a wide window: a 4 KiB one trickles), first the frames the
        # server had written, in order, then 4413
        raw = slow.transport.get_extra_info("socket")
        raw.setsockopt(sockets.SOL_SOCKET, sockets.SO_RCVBUF, 1 << 22)
        seen = []
        async with asyncio.timeout(60):
            try:
                while True:
                    seen.append(json.loads(await slow.recv())["payload"]["data"]["gameEvents"])
            except websockets.ConnectionClosed as closed:
                assert closed.rcvd is not None, closed
                assert closed.rcvd.code == 4413, closed
                assert closed.rcvd.reason.startswith("SLOW_CONSUMER"), closed
        versions = [event["version"] for event in seen]
        assert versions == list(range(1, len(versions) + 1)), "in order, nothing skipped"
        assert len(versions) < version, "closed while behind, not after every version"
    finally:
        await publisher.aclose()
        await fast.close()
