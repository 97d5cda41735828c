"""gameEvents over graphql-transport-ws (and the legacy graphql-ws), across replicas (Redis
pub/sub): the stream completes after the FINISHED event, and at once for a game that is over;
`afterVersion` replays what a subscriber missed, and a replica whose event connection was cut
gives its subscribers the versions made meanwhile."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import httpx
import msgspec
import pytest
import websockets
from websockets.typing import Subprotocol

from service.core import GameService
from service.core.game.loaded_game import LoadedGame
from service.settings import Settings
from service.store import RedisStore, connect
from tests.security.hidden import secret_values, values_under
from tests.support import gql
from tests.support.processes import service_processes
from tests.support.proxy import CuttingProxy

# one worker runs the module, so its service processes start once, not once per worker
pytestmark = pytest.mark.xdist_group("subscriptions")

SUBSCRIBE = """subscription E($id: ID!, $after: Int) {
  gameEvents(gameId: $id, afterVersion: $after) { gameId version status }
}"""


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


async def _subscribe(
    url: str, game_id: str, token: str | None, after: int | None = None, query: str = SUBSCRIBE
) -> Any:
    socket = await websockets.connect(
        url.replace("http", "ws") + "/graphql", subprotocols=[Subprotocol("graphql-transport-ws")]
    )
    payload = {"authorization": f"Bearer {token}"} if token else {}
    await socket.send(json.dumps({"type": "connection_init", "payload": payload}))
    assert json.loads(await socket.recv())["type"] == "connection_ack"
    await socket.send(
        json.dumps({"id": "1", "type": "subscribe",
                    "payload": {"query": query,
                                "variables": {"id": game_id, "after": after}}})
    )  # fmt: skip
    return socket


async def _next(socket: Any) -> dict[str, Any]:
    async with asyncio.timeout(30):
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


async def _play(http: httpx.AsyncClient, game_id: str, tokens: list[str], seed: str) -> int:
    """One random legal move by the seat to act; the version it made."""
    game = (await _post(http, gql.GAME, {"id": game_id}))["game"]
    seat = game["toAct"][0]
    move = random.Random(seed).choice(
        (await _post(http, gql.GAME, {"id": game_id}, tokens[seat]))["game"]["legalMoves"]
    )["move"]
    variables = {"input": {"gameId": game_id, "move": move, "expectedVersion": game["version"]}}
    result = (await _post(http, gql.APPLY, variables, tokens[seat]))["applyMove"]
    assert result["__typename"] == "MoveApplied", result
    version: int = result["game"]["version"]
    return version


async def _create(http: httpx.AsyncClient, seed: str) -> tuple[str, list[str]]:
    created = (
        await _post(http, gql.CREATE, {"input": {"kind": "TREELINGS", "players": 2, "seed": seed}})
    )["createGame"]
    return created["game"]["id"], [s["token"] for s in created["seats"]]


async def test_after_version_replays_every_later_version_then_the_live_ones(
    replicas: list[str],
) -> None:
    a, b = replicas
    async with httpx.AsyncClient(base_url=b) as http:
        game_id, tokens = await _create(http, "after")
        for n in range(3):
            version = await _play(http, game_id, tokens, f"after-{n}")
        socket = await _subscribe(a, game_id, None, after=1)
        replayed = [(await _next(socket))["version"] for _ in range(version - 1)]
        assert replayed == list(range(2, version + 1))
        live = await _play(http, game_id, tokens, "after-live")
        assert (await _next(socket))["version"] == live
        await socket.close()
        past = await _subscribe(a, game_id, None, after=live + 1)
        message = json.loads(await past.recv())
        assert message["payload"]["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"
        await past.close()


@pytest.mark.slow  # a service process of its own; the fast tier: tests/core/test_following.py
async def test_versions_made_while_a_replicas_event_connection_is_cut_reach_its_subscriber(
    redis_url: str, replicas: list[str]
) -> None:
    """A replica reaches Redis through a proxy that is cut; the moves made meanwhile through
    another replica reach the first one's subscriber after the reconnection, in order, each once
    (before: the latest version only)."""
    if "cluster" in redis_url:
        pytest.skip("cuts the connection to one server")
    proxy = await CuttingProxy(urlsplit(redis_url).port or 6379).start()
    running = contextlib.ExitStack()
    try:
        # the proxy serves on this loop: the process is started and stopped on a thread
        started = service_processes(f"redis://127.0.0.1:{proxy.port}/0", 1)
        (cut_off,) = await asyncio.to_thread(running.enter_context, started)
        async with httpx.AsyncClient(base_url=replicas[0], timeout=30) as http:
            game_id, tokens = await _create(http, "cut")
            socket = await _subscribe(cut_off, game_id, None)
            first = (await _next(socket))["version"]
            version = await _play(http, game_id, tokens, "cut-0")
            assert (await _next(socket))["version"] == version
            proxy.cut()
            for n in range(1, 4):
                version = await _play(http, game_id, tokens, f"cut-{n}")
            proxy.resume()
            version = await _play(http, game_id, tokens, "cut-live")
            seen = [(await _next(socket))["version"]]
            while seen[-1] < version:
                seen.append((await _next(socket))["version"])
            assert seen == list(range(first + 2, version + 1))
            await socket.close()
    finally:
        await asyncio.to_thread(running.close)
        await proxy.aclose()


WITH_VIEW = """subscription E($id: ID!, $after: Int) {
  gameEvents(gameId: $id, afterVersion: $after) { version game { version viewer state } }
}"""


async def test_an_events_game_is_the_subscribers_own_view_and_never_another_seats_secret(
    redis_url: str, replicas: list[str]
) -> None:
    """ALL-4 for events: each seat's (and a spectator's) `game` on every event, replayed and
    live, is exactly the engine's view for that viewer at that version, without the project
    cards of the other seats (TREE_LINED_AVENUE hides them)."""
    a, b = replicas
    settings = Settings()
    store = RedisStore(connect(settings, redis_url), settings)
    try:
        async with httpx.AsyncClient(base_url=b, timeout=30) as http:
            created = (
                await _post(http, gql.CREATE, {"input": {"kind": "TREE_LINED_AVENUE",
                                                         "players": 2, "seed": "view"}})
            )["createGame"]  # fmt: skip
            game_id, tokens = created["game"]["id"], [s["token"] for s in created["seats"]]
            for n in range(3):
                await _play(http, game_id, tokens, f"view-{n}")
            viewers: list[tuple[int | None, str | None]] = [
                (0, tokens[0]), (1, tokens[1]), (None, None)
            ]  # fmt: skip
            sockets = [await _subscribe(a, game_id, t, 0, WITH_VIEW) for _, t in viewers]
            version = await _play(http, game_id, tokens, "view-live")
        service = GameService(store)
        current = await service.read(game_id, None)
        checked = 0
        for (viewer, _), socket in zip(viewers, sockets, strict=True):
            events = [await _next(socket) for _ in range(version)]
            assert [e["version"] for e in events] == list(range(1, version + 1))
            for event in events:
                then = await service.at_version(current, event["version"])
                seen = LoadedGame(game_id, then.record, then.game, viewer, then.state)
                expected = msgspec.json.decode(msgspec.json.encode(seen.view()))
                assert event["game"]["version"] == event["version"]
                assert event["game"]["viewer"] == viewer
                assert event["game"]["state"] == expected
                for key, hidden in secret_values("TREE_LINED_AVENUE", then.state, viewer).items():
                    assert not values_under(event["game"]["state"], key) & set(hidden)
                    checked += len(hidden)
            await socket.close()
        assert checked > 0, "the other seats' projects were checked"
    finally:
        await store.close()
