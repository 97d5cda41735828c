"""A graphql-transport-ws client for the hostile tests: real sockets to real processes."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import websockets
from websockets.asyncio.client import ClientConnection

from tests.support import play

WAIT = 60  # seconds: generous, the machine's cores are shared
SUBSCRIBE = "subscription E($id: ID!) { gameEvents(gameId: $id) { gameId version status } }"


async def one_window(needed: float = 10) -> None:
    """Rate limits count per minute (service/api/edge/ratelimit.py): if fewer than `needed` seconds
    are left in this minute, wait for the next, so a test's counts all land in one window.
    A wait for the clock's boundary, not for an outcome."""
    left = 60 - time.time() % 60
    if left < needed:
        await asyncio.sleep(left)


async def connect(
    url: str, token: str | None = None, init: bool = True, protocol: str = "graphql-transport-ws"
) -> ClientConnection:
    socket = await websockets.connect(
        url.replace("http", "ws") + "/graphql",
        subprotocols=[protocol],  # type: ignore[list-item]
        open_timeout=WAIT,
    )
    if init:
        payload = {"authorization": f"Bearer {token}"} if token else {}
        await socket.send(json.dumps({"type": "connection_init", "payload": payload}))
        assert (await receive(socket))["type"] == "connection_ack"
    return socket


async def receive(socket: ClientConnection) -> dict[str, Any]:
    async with asyncio.timeout(WAIT):
        message: dict[str, Any] = json.loads(await socket.recv())
    return message


async def operate(
    socket: ClientConnection, operation_id: str, query: str, variables: dict[str, Any]
) -> None:
    payload = {"query": query, "variables": variables}
    await socket.send(json.dumps({"id": operation_id, "type": "subscribe", "payload": payload}))


async def closed_with(socket: ClientConnection) -> tuple[int | None, str]:
    """The close code and reason once the server closes the socket (messages before it are
    skipped)."""
    async with asyncio.timeout(WAIT):
        try:
            while True:
                await socket.recv()
        except websockets.ConnectionClosed as closed:
            frame = closed.rcvd
            return (frame.code, frame.reason) if frame else (None, "")


async def create_game(
    url: str, seed: str, players: int = 2, kind: str = "TREELINGS"
) -> tuple[dict[str, Any], list[str]]:
    async with httpx.AsyncClient(base_url=url, timeout=WAIT) as http:
        created = await play.create_game(http, seed=seed, players=players, kind=kind)
    return created["game"], [seat["token"] for seat in created["seats"]]
