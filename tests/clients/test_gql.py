"""Python `gql`, as its users run it: HTTPX for queries and mutations, its WebSockets transport
for gameEvents (graphql-transport-ws, and the legacy graphql-ws protocol), resumed with
`afterVersion` after a proxy cut its socket."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

import pytest
from gql import Client, GraphQLRequest
from gql.transport.exceptions import TransportError
from gql.transport.httpx import HTTPXAsyncTransport
from gql.transport.websockets import WebsocketsTransport
from websockets.exceptions import WebSocketException

from tests.clients.conftest import KINDS, Service
from tests.support.proxy import CuttingProxy
from tests.support.waiting import until

CREATE = """
mutation Create($input: CreateGameInput!) {
  createGame(input: $input) { game { id version status toAct } seats { seat token } }
}"""
READ = "query Read($id: ID!) { game(id: $id) { version status toAct legalMoves { move } } }"
APPLY = """
mutation Apply($input: ApplyMoveInput!) {
  applyMove(input: $input) {
    __typename
    ... on MoveApplied { game { version status toAct } }
    ... on MoveRejected { code message }
  }
}"""
EVENTS = "subscription Events($id: ID!) { gameEvents(gameId: $id) { gameId version status } }"
RESUME = """subscription Events($id: ID!, $after: Int) {
  gameEvents(gameId: $id, afterVersion: $after) { gameId version status }
}"""
TRANSPORT_WS = WebsocketsTransport.GRAPHQLWS_SUBPROTOCOL  # "graphql-transport-ws"
LEGACY_WS = WebsocketsTransport.APOLLO_SUBPROTOCOL  # "graphql-ws"


def _request(document: str, **variables: Any) -> GraphQLRequest:
    return GraphQLRequest(document, variable_values=variables)


def _http(service: Service, token: str | None = None) -> Client:
    headers = {"authorization": f"Bearer {token}"} if token else None
    return Client(transport=HTTPXAsyncTransport(url=service.graphql, headers=headers, timeout=30))


async def _follow(
    service: Service, game_id: str, token: str, protocol: str, listening: asyncio.Event
) -> list[dict[str, Any]]:
    """Every gameEvents event until the server completes the stream."""
    transport = WebsocketsTransport(
        url=service.websocket,
        subprotocols=[protocol],
        init_payload={"authorization": f"Bearer {token}"},
    )
    events = []
    async with Client(transport=transport) as session:
        async for data in session.subscribe(_request(EVENTS, id=game_id)):
            events.append(data["gameEvents"])
            listening.set()
    return events


async def _play(
    service: Service,
    game: dict[str, Any],
    tokens: list[str],
    seed: str,
    after_move: Callable[[int], Awaitable[None]] | None = None,
) -> int:
    """Random legal moves by the seat to act, over HTTP, to the end (`after_move` called with
    each version made); the final version."""
    chooser = random.Random(seed)
    seats = [await _http(service, token).connect_async() for token in tokens]
    try:
        version, status, to_act = game["version"], game["status"], game["toAct"]
        while status == "ACTIVE":
            seat = seats[to_act[0]]
            seen = (await seat.execute(_request(READ, id=game["id"])))["game"]
            move = chooser.choice(seen["legalMoves"])["move"]
            applied = await seat.execute(
                _request(APPLY, input={"gameId": game["id"], "move": move,
                                       "expectedVersion": seen["version"]})
            )  # fmt: skip
            result = applied["applyMove"]
            assert result["__typename"] == "MoveApplied", result
            version, status, to_act = (result["game"][k] for k in ("version", "status", "toAct"))
            if after_move is not None:
                await after_move(version)
        return int(version)
    finally:
        for seat in seats:
            await seat.client.close_async()


@pytest.mark.parametrize("kind", KINDS)
async def test_gql_plays_a_whole_game_while_a_second_gql_client_follows_it_to_completion(
    service: Service, kind: str
) -> None:
    async with _http(service) as session:
        created = await session.execute(
            _request(CREATE, input={"kind": kind, "players": 2, "seed": f"gql-{kind}"})
        )
    game = created["createGame"]["game"]
    tokens = [seat["token"] for seat in created["createGame"]["seats"]]
    listening = asyncio.Event()
    follower = asyncio.create_task(_follow(service, game["id"], tokens[0], TRANSPORT_WS, listening))
    async with asyncio.timeout(60):  # subscribed (or the follower failed: say why)
        await asyncio.wait(
            [follower, asyncio.create_task(listening.wait())], return_when=asyncio.FIRST_COMPLETED
        )
    if follower.done():
        follower.result()
    final = await _play(service, game, tokens, f"gql-{kind}")
    async with asyncio.timeout(60):  # the stream ends by itself after FINISHED
        events = await follower
    assert [e["version"] for e in events] == list(range(game["version"], final + 1))
    assert {e["gameId"] for e in events} == {game["id"]}
    assert [e["status"] for e in events] == ["ACTIVE"] * (len(events) - 1) + ["FINISHED"]

    for protocol in (TRANSPORT_WS, LEGACY_WS):  # a finished game: its event, then complete
        async with asyncio.timeout(60):
            again = await _follow(service, game["id"], tokens[1], protocol, asyncio.Event())
        assert again == [{"gameId": game["id"], "version": final, "status": "FINISHED"}]


async def _resume_after_cuts(
    proxy: CuttingProxy, game_id: str, token: str, events: list[dict[str, Any]]
) -> int:
    """Every event into `events` until the server completes the stream, through `proxy`:
    after a cut socket, subscribed again with afterVersion = the last version seen. The
    number of subscriptions."""
    for subscriptions in range(1, 20):
        await proxy.open.wait()
        transport = WebsocketsTransport(
            url=f"ws://127.0.0.1:{proxy.port}/graphql",
            init_payload={"authorization": f"Bearer {token}"},
        )
        after = events[-1]["version"] if events else None
        try:
            async with Client(transport=transport) as session:
                async for data in session.subscribe(_request(RESUME, id=game_id, after=after)):
                    events.append(data["gameEvents"])
            return subscriptions
        except (TransportError, WebSocketException, OSError):
            continue  # cut: subscribe again once the proxy lets connections in
    raise AssertionError(f"no subscription lasted; events so far: {events}")


async def test_gql_resumes_events_after_a_cut_socket_with_no_gap_and_no_duplicate(
    service: Service,
) -> None:
    async with _http(service) as session:
        created = await session.execute(
            _request(CREATE, input={"kind": "TREELINGS", "players": 2, "seed": "gql-resume"})
        )
    game = created["createGame"]["game"]
    tokens = [seat["token"] for seat in created["createGame"]["seats"]]
    proxy = await CuttingProxy(urlsplit(service.url).port or 80).start()
    try:
        events: list[dict[str, Any]] = []
        follower = asyncio.create_task(_resume_after_cuts(proxy, game["id"], tokens[1], events))

        async def seen(version: int) -> bool:
            if follower.done():
                follower.result()  # failed: say why
            return bool(events) and events[-1]["version"] == version

        await until(lambda: seen(game["version"]), "the first event")
        moves = 0

        async def cut_mid_game(version: int) -> None:
            nonlocal moves
            moves += 1
            if moves in (3, 9):  # the socket drops, and three moves are made meanwhile
                await until(lambda: seen(version), f"version {version} before the cut")
                proxy.cut()
            elif moves in (6, 12):
                proxy.resume()
                await until(lambda: seen(version), f"version {version} after the cut")

        final = await _play(service, game, tokens, "gql-resume", cut_mid_game)
        async with asyncio.timeout(60):
            subscriptions = await follower
    finally:
        await proxy.aclose()
    assert [e["version"] for e in events] == list(range(game["version"], final + 1))
    assert [e["status"] for e in events] == ["ACTIVE"] * (len(events) - 1) + ["FINISHED"]
    assert subscriptions == 3


TYPED_READ = """query Read($id: ID!) {
  game(id: $id) { version status toAct legalMoves { move typedMoveInput } }
}"""
TYPED_APPLY = """
mutation Apply($input: ApplyMoveInput!, $after: Int) {
  applyMove(input: $input) {
    __typename
    ... on MoveApplied { game { version status toAct history(after: $after) { move forced } } }
    ... on MoveRejected { code message }
  }
}"""


@pytest.mark.parametrize("kind", KINDS)
async def test_gql_plays_a_whole_game_sending_back_each_legal_moves_typed_input(
    service: Service, kind: str
) -> None:
    """Every turn a random legal move's `typedMoveInput`, sent back as it
    is as `typedMove`, is accepted as exactly that move (the history records its `move`)."""
    async with _http(service) as session:
        created = await session.execute(
            _request(CREATE, input={"kind": kind, "players": 2, "seed": f"typed-{kind}"})
        )
    game = created["createGame"]["game"]
    seats = [
        await _http(service, s["token"]).connect_async() for s in created["createGame"]["seats"]
    ]
    chooser = random.Random(f"typed-{kind}")
    status, to_act, turns = game["status"], game["toAct"], 0
    try:
        while status == "ACTIVE":
            seat = seats[to_act[0]]
            seen = (await seat.execute(_request(TYPED_READ, id=game["id"])))["game"]
            legal = chooser.choice(seen["legalMoves"])
            applied = await seat.execute(
                _request(TYPED_APPLY, after=seen["version"], input={
                    "gameId": game["id"], "typedMove": legal["typedMoveInput"],
                    "expectedVersion": seen["version"]})
            )  # fmt: skip
            result = applied["applyMove"]
            assert result["__typename"] == "MoveApplied", (legal, result)
            played = result["game"]["history"][0]
            assert played["move"] == legal["move"] and not played["forced"], (legal, played)
            status, to_act = result["game"]["status"], result["game"]["toAct"]
            turns += 1
    finally:
        for session in seats:
            await session.client.close_async()
    assert status == "FINISHED" and turns > 5
