"""gameEvents over graphql-transport-ws (and the legacy graphql-ws), across replicas (Redis
pub/sub): the stream completes after the FINISHED event, and at once for a game that is over."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets
from websockets.typing import Subprotocol

from tests.support import gql
from tests.support.processes import service_processes

# one worker runs the module, so its service processes start once, not once per worker
pytestmark = pytest.mark.xdist_group("subscriptions")

SUBSCRIBE = "subscription E($id: ID!) { gameEvents(gameId: $id) { gameId version status } }"


@pytest.fixture(scope="module")
def replicas(redis_url: str) -> Iterator[list[str]]:
    with service_processes(redis_url, 2) as urls:
        yield urls


async def _post(
    http: httpx.AsyncClient, query: str, variables: dict[str, Any], token: str | None = None
) -> dict[str, Any]:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    body = (
        await http.post("/graphql", json={"query": query, "variables": variables}, headers=headers)
    ).json()
    assert "errors" not in body, body
    data: dict[str, Any] = body["data"]
    return data


async def _subscribe(url: str, game_id: str, token: str | None) -> Any:
    socket = await websockets.connect(
        url.replace("http", "ws") + "/graphql", subprotocols=[Subprotocol("graphql-transport-ws")]
    )
    payload = {"authorization": f"Bearer {token}"} if token else {}
    await socket.send(json.dumps({"type": "connection_init", "payload": payload}))
    assert json.loads(await socket.recv())["type"] == "connection_ack"
    await socket.send(
        json.dumps({"id": "1", "type": "subscribe",
                    "payload": {"query": SUBSCRIBE, "variables": {"id": game_id}}})
    )  # fmt: skip
    return socket


async def _next(socket: Any) -> dict[str, Any]:
    async with asyncio.timeout(10):
        message = json.loads(await socket.recv())
    assert message["type"] == "next", message
    assert "errors" not in message["payload"], message
    event: dict[str, Any] = message["payload"]["data"]["gameEvents"]
    return event


async def test_a_subscriber_on_one_replica_sees_every_version_made_on_another(
    replicas: list[str],
) -> None:
    a, b = replicas
    async with httpx.AsyncClient(base_url=b) as http:
        created = (
            await _post(
                http, gql.CREATE, {"input": {"kind": "TREELINGS", "players": 2, "seed": "sub"}}
            )
        )["createGame"]
        game, tokens = created["game"], [s["token"] for s in created["seats"]]
        socket = await _subscribe(a, game["id"], tokens[0])
        first = await _next(socket)
        assert first == {"gameId": game["id"], "version": game["version"], "status": "ACTIVE"}
        chooser = random.Random(7)
        while game["status"] == "ACTIVE":
            seat = game["toAct"][0]
            seen = (await _post(http, gql.GAME, {"id": game["id"]}, tokens[seat]))["game"]
            move = chooser.choice(seen["legalMoves"])["move"]
            result = (
                await _post(
                    http, gql.APPLY, {"input": {"gameId": game["id"], "move": move}}, tokens[seat]
                )
            )["applyMove"]
            game = result["game"]
        versions = [first["version"]]
        while versions[-1] < game["version"]:
            event = await _next(socket)
            versions.append(event["version"])
        assert versions == list(range(first["version"], game["version"] + 1))
        assert event["status"] == "FINISHED"
        async with asyncio.timeout(10):  # the stream ends by itself: a client's loop ends
            assert json.loads(await socket.recv()) == {"id": "1", "type": "complete"}
        await socket.close()


async def _finished_game(http: httpx.AsyncClient) -> tuple[str, str, int]:
    """A game over at once (seat 0 resigns): its id, a seat token and its final version."""
    created = (await http.post("/v1/games", json={"kind": "TREELINGS", "players": 2})).json()
    game_id, token = created["game"]["id"], created["seats"][0]["token"]
    ended = await http.post(
        f"/v1/games/{game_id}/resign", headers={"authorization": f"Bearer {token}"}
    )
    assert ended.status_code == 200 and ended.json()["game"]["status"] == "FINISHED", ended.text
    return game_id, token, ended.json()["game"]["version"]


# (subprotocol, the client's subscribe message type, the server's event message type)
PROTOCOLS = [("graphql-transport-ws", "subscribe", "next"), ("graphql-ws", "start", "data")]


@pytest.mark.parametrize(("protocol", "start", "event"), PROTOCOLS, ids=["transport-ws", "legacy"])
async def test_subscribing_to_a_finished_game_answers_its_last_event_then_completes(
    replicas: list[str], protocol: str, start: str, event: str
) -> None:
    a, _ = replicas
    async with httpx.AsyncClient(base_url=a) as http:
        game_id, token, final = await _finished_game(http)
    async with (
        asyncio.timeout(10),
        websockets.connect(
            a.replace("http", "ws") + "/graphql", subprotocols=[Subprotocol(protocol)]
        ) as socket,
    ):
        init = {"type": "connection_init", "payload": {"authorization": f"Bearer {token}"}}
        await socket.send(json.dumps(init))
        assert json.loads(await socket.recv())["type"] == "connection_ack"
        payload = {"query": SUBSCRIBE, "variables": {"id": game_id}}
        await socket.send(json.dumps({"id": "1", "type": start, "payload": payload}))
        messages = [json.loads(await socket.recv()) for _ in range(2)]
    last = {"gameId": game_id, "version": final, "status": "FINISHED"}
    assert messages == [
        {"id": "1", "type": event, "payload": {"data": {"gameEvents": last}}},
        {"id": "1", "type": "complete"},
    ]


async def test_a_spectator_may_subscribe_but_a_wrong_token_may_not(replicas: list[str]) -> None:
    a, _ = replicas
    async with httpx.AsyncClient(base_url=a) as http:
        created = (await _post(http, gql.CREATE, {"input": {"kind": "TREELINGS", "players": 2}}))[
            "createGame"
        ]
    spectator = await _subscribe(a, created["game"]["id"], None)
    assert (await _next(spectator))["version"] == created["game"]["version"]
    await spectator.close()
    for game_id, token, code in [
        (created["game"]["id"], "0.wrong", "UNAUTHORIZED"),
        ("no-such-game", None, "NOT_FOUND"),
    ]:
        socket = await _subscribe(a, game_id, token)
        message = json.loads(await socket.recv())
        assert message["type"] == "next" and message["payload"]["data"] is None
        assert message["payload"]["errors"][0]["extensions"]["code"] == code
        assert json.loads(await socket.recv())["type"] == "complete"
        await socket.close()
