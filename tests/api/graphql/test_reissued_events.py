"""A reissued seat token ends every gameEvents subscription opened with the old one, on every
replica, at once: one UNAUTHORIZED error, then `complete`, with no move needed to notice. The
other seat's and the spectators' subscriptions go on."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets
from websockets.typing import Subprotocol

from tests.support.play import create_game
from tests.support.processes import service_processes
from tests.support.tenants import ACME, KEYS, post

THIN = "subscription E($id: ID!) { gameEvents(gameId: $id) { version } }"
FAT = "subscription E($id: ID!) { gameEvents(gameId: $id) { version game { state } } }"
REISSUE = """
mutation R($id: ID!, $seat: Int!) { reissueSeatToken(gameId: $id, seat: $seat) { token } }
"""


@pytest.fixture(scope="module")
def replicas(redis_url: str) -> Iterator[list[str]]:
    with service_processes(redis_url, 2, {"RULES_API_KEYS": ",".join(KEYS)}) as urls:
        yield urls


async def _subscribe(url: str, token: str | None, query: str, protocol: str) -> Any:
    socket = await websockets.connect(
        url.replace("http", "ws") + "/graphql", subprotocols=[Subprotocol(protocol)]
    )
    payload = {"authorization": f"Bearer {token}"} if token else {}
    await socket.send(json.dumps({"type": "connection_init", "payload": payload}))
    assert json.loads(await socket.recv())["type"] == "connection_ack"
    start = "subscribe" if protocol == "graphql-transport-ws" else "start"
    message = {"id": "1", "type": start, "payload": {"query": query, "variables": {"id": ""}}}
    return socket, message


async def _next(socket: Any) -> dict[str, Any]:
    async with asyncio.timeout(30):
        message: dict[str, Any] = json.loads(await socket.recv())
    return message


async def test_a_reissue_ends_the_old_tokens_subscriptions_on_every_replica(
    replicas: list[str],
) -> None:
    two = replicas[1]  # the reissue and the moves; the sockets are on both
    async with httpx.AsyncClient(base_url=two, timeout=30) as http:
        created = await create_game(http, key=ACME, seed="reissued-events")
        game_id = created["game"]["id"]
        tokens = [seat["token"] for seat in created["seats"]]
        followers = []  # (socket, ended by the reissue?)
        for url in replicas:
            for token, query, protocol, ends in [
                (tokens[1], THIN, "graphql-transport-ws", True),
                (tokens[1], FAT, "graphql-transport-ws", True),
                (tokens[1], FAT, "graphql-ws", True),
                (tokens[0], FAT, "graphql-transport-ws", False),
                (None, THIN, "graphql-transport-ws", False),
            ]:
                socket, message = await _subscribe(url, token, query, protocol)
                message["payload"]["variables"]["id"] = game_id
                await socket.send(json.dumps(message))
                assert (await _next(socket))["type"] in ("next", "data")
                followers.append((socket, ends))
        reissued = await post(http, REISSUE, {"id": game_id, "seat": 1}, ACME)
        assert reissued["data"]["reissueSeatToken"]["token"] not in tokens
        for socket, ends in followers:
            if not ends:
                continue
            error = await _next(socket)  # no move was made: the reissue alone ends it
            assert error["type"] in ("next", "data"), error
            assert error["payload"]["errors"][0]["extensions"]["code"] == "UNAUTHORIZED", error
            assert (await _next(socket))["type"] == "complete"
        # the others go on: seat 0 and the spectators see the next version
        seen = await post(http, "query G($id: ID!) { game(id: $id) { version legalMoves { move } } }",
                          {"id": game_id}, None, tokens[0])  # fmt: skip
        move = seen["data"]["game"]["legalMoves"][0]["move"]
        apply = "mutation A($i: ApplyMoveInput!) { applyMove(input: $i) { __typename } }"
        applied = await post(http, apply, {"i": {"gameId": game_id, "move": move}}, None, tokens[0])
        assert applied["data"]["applyMove"]["__typename"] == "MoveApplied"
        for socket, ends in followers:
            if not ends:
                event = await _next(socket)
                assert event["type"] == "next" and "errors" not in event["payload"], event
            await socket.close()
