"""gameEvents rendered once per audience (service/api/graphql/live.py): the frames equal, byte
for byte, those strawberry sends for the same operation, for every selection, caller and error;
and however many sockets share an audience, each version is rendered once for it."""

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

from tests.conftest import Api
from tests.support import gql
from tests.support.play import apply, create_game
from tests.support.processes import service_processes

pytestmark = pytest.mark.xdist_group("live")

THIN = """subscription E($id: ID!, $after: Int) {
  gameEvents(gameId: $id, afterVersion: $after) { gameId version status }
}"""
FAT = """subscription E($id: ID!, $after: Int) {
  gameEvents(gameId: $id, afterVersion: $after) {
    __typename version status
    game { id version status toAct viewer spectatorDelay state
           legalMoves { move label } scores { final winners entries { seat points breakdown } } }
  }
}"""
# aliases, a fragment, a variable the selection reads, a translated text
SHAPED = """subscription Shaped($id: ID!, $after: Int, $lang: String) {
  e: gameEvents(gameId: $id, afterVersion: $after) { ...Event }
}
fragment Event on GameEvent {
  v: version
  game { ... on Game { toAct legalMoves { labelMessage { id text(language: $lang) } } } }
}"""
DOCUMENTS = {"thin": THIN, "fat": FAT, "shaped": SHAPED}


@pytest.fixture(scope="module")
def paths(redis_url: str) -> Iterator[tuple[str, str]]:
    """Two processes on one Redis: the shared path, and strawberry's (fast path off)."""
    with (
        service_processes(redis_url, 1) as shared,
        service_processes(redis_url, 1, {"RULES_GRAPHQL_FAST_PATH": "0"}) as plain,
    ):
        yield shared[0], plain[0]


async def _socket(
    url: str,
    token: str | None,
    headers: dict[str, str] | None = None,
    protocol: str = "graphql-transport-ws",
) -> Any:
    socket = await websockets.connect(
        url.replace("http", "ws") + "/graphql",
        subprotocols=[Subprotocol(protocol)],
        additional_headers=headers,
    )
    payload = {"authorization": f"Bearer {token}"} if token else {}
    await socket.send(json.dumps({"type": "connection_init", "payload": payload}))
    assert json.loads(await socket.recv())["type"] == "connection_ack"
    return socket


async def _subscribe(
    socket: Any, query: str, variables: dict[str, Any], start: str = "subscribe"
) -> None:
    message = {"id": "op-1", "type": start, "payload": {"query": query, "variables": variables}}
    await socket.send(json.dumps(message))


async def _frames(socket: Any, count: int) -> list[str]:
    """The next `count` frames, as the server sent them."""
    async with asyncio.timeout(60):
        return [str(await socket.recv()) for _ in range(count)]


async def _play(api: Api, game_id: str, tokens: list[str], seed: str) -> int:
    game = (await api.gql(gql.GAME, {"id": game_id}))["game"]
    seat = game["toAct"][0]
    seen = (await api.gql(gql.GAME, {"id": game_id}, tokens[seat]))["game"]
    move = random.Random(seed).choice(seen["legalMoves"])["move"]
    result = await apply(api, game_id, tokens[seat], move, expectedVersion=seen["version"])
    assert result["__typename"] == "MoveApplied", result
    version: int = result["game"]["version"]
    return version


# (document, subprotocol, its subscribe message's type)
CASES = [*((name, "graphql-transport-ws", "subscribe") for name in DOCUMENTS),
         ("fat", "graphql-ws", "start")]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "protocol", "start"), CASES, ids=[f"{n}-{p}" for n, p, _ in CASES]
)
async def test_every_caller_gets_the_frames_strawberry_sends(
    paths: tuple[str, str], name: str, protocol: str, start: str
) -> None:
    shared, plain = paths
    async with httpx.AsyncClient(base_url=shared, timeout=30) as http:
        api = Api(http)
        created = await create_game(http, kind="TREE_LINED_AVENUE", seed=f"live-{name}")
        game_id, tokens = created["game"]["id"], [s["token"] for s in created["seats"]]
        for n in range(3):
            await _play(api, game_id, tokens, f"{name}-{n}")
        callers = [tokens[0], tokens[1], None]
        variables = {"id": game_id, "after": 1, "lang": "fr"}
        sockets = {}
        for url in paths:
            for token in callers:
                sockets[url, token] = socket = await _socket(url, token, protocol=protocol)
                await _subscribe(socket, DOCUMENTS[name], variables, start)
        live = await _play(api, game_id, tokens, f"{name}-live")
        seen = []
        for token in callers:
            expected = await _frames(sockets[plain, token], live - 1)  # versions 2 to live
            seen.append(await _frames(sockets[shared, token], live - 1))
            assert seen[-1] == expected, token
        if name == "fat":  # each seat its own view, the spectator neither
            assert len(set(map(tuple, seen))) == 3
        for socket in sockets.values():
            await socket.close()


ERRORS = [
    ({"id": "no-such-game"}, "NOT_FOUND"),
    ({"after": 99}, "BAD_USER_INPUT"),
    ({"after": -1}, "BAD_USER_INPUT"),
]


@pytest.mark.parametrize(("variables", "code"), ERRORS, ids=[code for _, code in ERRORS])
async def test_a_refused_subscription_ends_as_strawberry_ends_it(
    paths: tuple[str, str], variables: dict[str, Any], code: str
) -> None:
    async with httpx.AsyncClient(base_url=paths[0], timeout=30) as http:
        created = await create_game(http, seed="live-errors")
        variables = {"id": created["game"]["id"], **variables}
    answers = []
    for url in paths:
        socket = await _socket(url, None, {"accept-language": "fr"})
        await _subscribe(socket, FAT, variables)
        answers.append(await _frames(socket, 2))
        await socket.close()
    assert answers[0] == answers[1]
    frame = json.loads(answers[0][0])
    assert frame["payload"]["errors"][0]["extensions"]["code"] == code, frame
    assert json.loads(answers[0][1]) == {"id": "op-1", "type": "complete"}


async def test_an_audience_of_many_sockets_is_rendered_once_per_version(
    paths: tuple[str, str],
) -> None:
    """30 spectators (5 of them on the legacy graphql-ws) and 5 sockets of seat 0 over 3
    moves: 2 renders a version (one per audience), not 35; each socket of an audience gets
    the same payload."""
    shared, _ = paths
    async with httpx.AsyncClient(base_url=shared, timeout=30) as http:
        api = Api(http)
        created = await create_game(http, seed="live-once")
        game_id, tokens = created["game"]["id"], [s["token"] for s in created["seats"]]
        before = await _metric(http, "rules_live_renders_total")
        followers = await _metric(http, "rules_live_followers")
        callers = [None] * 30 + [tokens[0]] * 5
        sockets = []
        for n, token in enumerate(callers):
            legacy = n < 5
            protocol = "graphql-ws" if legacy else "graphql-transport-ws"
            sockets.append(socket := await _socket(shared, token, protocol=protocol))
            await _subscribe(socket, FAT, {"id": game_id}, "start" if legacy else "subscribe")
        first = [await _frames(socket, 1) for socket in sockets]  # the current version
        assert await _metric(http, "rules_live_followers") - followers == 35, "all shared"
        for n in range(3):
            await _play(api, game_id, tokens, f"once-{n}")
        frames = [
            [json.loads(frame)["payload"] for frame in f + await _frames(socket, 3)]
            for f, socket in zip(first, sockets, strict=True)
        ]
        assert all(f == frames[0] for f in frames[:30]), "every spectator got the same"
        assert all(f == frames[30] for f in frames[30:]), "every seat-0 socket got the same"
        assert frames[0] != frames[30], "a seat's view is not the spectators'"
        assert await _metric(http, "rules_live_renders_total") - before == 2 * 4
        for socket in sockets:
            await socket.close()


async def _metric(http: httpx.AsyncClient, name: str) -> float:
    text = (await http.get("/metrics")).text
    line = next(line for line in text.splitlines() if line.startswith(name + " "))
    return float(line.split()[-1])
