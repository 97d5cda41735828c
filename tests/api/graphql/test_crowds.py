"""Parked subscriptions (service/api/edge/parking.py, service/api/graphql/crowds.py), against
a real uvicorn process: once live, the gameEvents subscriptions of one game and caller are
written by one follower; each still gets every version once and in order, whenever it joined;
one that completes leaves and the others go on; the game's end completes them all and leaves
no follower behind. (Their frames equal strawberry's: test_live.py; a slow one is closed:
test_slow_consumers.py; a reissued token ends them: test_reissued_events.py.)"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator, Iterator
from functools import partial
from typing import Any

import httpx
import pytest
import websockets
from websockets.typing import Subprotocol

from service.api.graphql.crowds import Crowd, Member
from service.api.graphql.live import Audience
from service.core import Caller, GameService
from service.settings import Settings
from service.store import RedisStore, connect
from tests.conftest import Api, own_redis
from tests.support import gql
from tests.support.following import play
from tests.support.play import apply, create_game
from tests.support.processes import service_processes
from tests.support.waiting import until

pytestmark = pytest.mark.xdist_group("crowds")

THIN = """subscription E($id: ID!, $after: Int) {
  gameEvents(gameId: $id, afterVersion: $after) { version status }
}"""
FAT = "subscription E($id: ID!) { gameEvents(gameId: $id) { version status game { state } } }"
SETTINGS = Settings(redis_timeout=5)


@pytest.fixture(scope="module")
def server(redis_url: str) -> Iterator[str]:
    with service_processes(redis_url, 1) as urls:
        yield urls[0]


async def _socket(
    url: str,
    token: str | None = None,
    protocol: str = "graphql-transport-ws",
    deflate: bool = True,
) -> Any:
    """A socket; with `deflate`, offering permessage-deflate (wsproto frames what is sent to
    it), else not (edge/parking.py frames the fan-out's writes itself)."""
    socket = await websockets.connect(
        url.replace("http", "ws") + "/graphql",
        subprotocols=[Subprotocol(protocol)],
        compression="deflate" if deflate else None,
    )
    payload = {"authorization": f"Bearer {token}"} if token else {}
    await socket.send(json.dumps({"type": "connection_init", "payload": payload}))
    assert json.loads(await socket.recv())["type"] == "connection_ack"
    return socket


async def _subscribe(
    socket: Any, query: str, variables: dict[str, Any], op: str = "1", start: str = "subscribe"
) -> None:
    payload = {"query": query, "variables": variables}
    await socket.send(json.dumps({"id": op, "type": start, "payload": payload}))


async def _receive(socket: Any) -> dict[str, Any]:
    async with asyncio.timeout(60):
        message: dict[str, Any] = json.loads(await socket.recv())
    return message


async def _versions(socket: Any, until_version: int) -> list[int]:
    """The versions of the `next` frames up to `until_version`."""
    seen: list[int] = []
    while not seen or seen[-1] < until_version:
        message = await _receive(socket)
        assert message["type"] in ("next", "data"), message
        seen.append(message["payload"]["data"]["gameEvents"]["version"])
    return seen


async def _metric(http: httpx.AsyncClient, name: str) -> float:
    text = (await http.get("/metrics")).text
    line = next(line for line in text.splitlines() if line.startswith(name + " "))
    return float(line.split()[-1])


async def _gauges(http: httpx.AsyncClient) -> tuple[float, float]:
    return await _metric(http, "rules_live_parked"), await _metric(http, "rules_live_crowds")


async def _move(api: Api, game_id: str, tokens: list[str], seed: str) -> int:
    game = (await api.gql(gql.GAME, {"id": game_id}, tokens[0]))["game"]  # a seat: live
    token = tokens[game["toAct"][0]]
    seen = (await api.gql(gql.GAME, {"id": game_id}, token))["game"]
    move = random.Random(seed).choice(seen["legalMoves"])["move"]
    result = await apply(api, game_id, token, move, expectedVersion=seen["version"])
    assert result["__typename"] == "MoveApplied", result
    version: int = result["game"]["version"]
    return version


async def test_one_follower_per_game_and_caller_writes_every_parked_subscription(
    server: str,
) -> None:
    """6 spectators and 2 sockets of seat 0 are parked, in 2 crowds (the legacy protocol's
    socket is not parked); each gets every version, with permessage-deflate or without; the
    game's end completes every one of them and leaves no crowd."""
    async with httpx.AsyncClient(base_url=server, timeout=30) as http:
        api = Api(http)
        created = await create_game(http, seed="crowds-one")
        game_id, tokens = created["game"]["id"], [s["token"] for s in created["seats"]]
        parked, crowds = await _gauges(http)
        sockets = []
        for n, (token, query) in enumerate([(None, THIN)] * 6 + [(tokens[0], FAT)] * 2):
            sockets.append(socket := await _socket(server, token, deflate=n % 2 == 0))
            await _subscribe(socket, query, {"id": game_id})
        legacy = await _socket(server, None, "graphql-ws")
        await _subscribe(legacy, THIN, {"id": game_id}, start="start")
        for socket in [*sockets, legacy]:
            assert await _versions(socket, 0) == [0]
        expected = (parked + 8, crowds + 2)
        await until(lambda: _gauges_are(http, expected), "8 parked in 2 crowds")
        last = 0
        for n in range(3):
            last = await _move(api, game_id, tokens, f"one-{n}")
        for socket in [*sockets, legacy]:
            assert await _versions(socket, last) == list(range(1, last + 1))
        resigned = await api.gql(gql.RESIGN, {"id": game_id}, tokens[1])
        assert resigned["resign"]["__typename"] == "MoveApplied", resigned
        for socket in sockets:
            final = await _receive(socket)
            assert final["payload"]["data"]["gameEvents"]["status"] == "FINISHED", final
            assert await _receive(socket) == {"id": "1", "type": "complete"}
        await until(lambda: _gauges_are(http, (parked, crowds)), "no crowd left")
        for socket in [*sockets, legacy]:
            await socket.close()


async def _gauges_are(http: httpx.AsyncClient, expected: tuple[float, float]) -> bool:
    return await _gauges(http) == expected


async def test_a_member_that_completes_leaves_and_may_subscribe_again(server: str) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=30) as http:
        api = Api(http)
        created = await create_game(http, seed="crowds-complete")
        game_id, tokens = created["game"]["id"], [s["token"] for s in created["seats"]]
        parked, _ = await _gauges(http)
        stays, leaves = await _socket(server), await _socket(server)
        for socket in (stays, leaves):
            await _subscribe(socket, THIN, {"id": game_id})
            assert await _versions(socket, 0) == [0]
        await until(lambda: _parked_is(http, parked + 2), "both parked")
        await leaves.send(json.dumps({"id": "1", "type": "complete"}))
        await until(lambda: _parked_is(http, parked + 1), "one left")
        first = await _move(api, game_id, tokens, "complete-1")
        assert await _versions(stays, first) == [first]
        await _subscribe(leaves, THIN, {"id": game_id, "after": first}, op="1")
        second = await _move(api, game_id, tokens, "complete-2")
        assert await _versions(leaves, second) == [second]  # nothing of the first op
        assert await _versions(stays, second) == [second]
        for socket in (stays, leaves):
            await socket.close()
        await until(lambda: _parked_is(http, parked), "both gone")


async def _parked_is(http: httpx.AsyncClient, expected: float) -> bool:
    return await _metric(http, "rules_live_parked") == expected


async def test_subscribers_joining_during_moves_get_every_version_once_in_order(
    server: str,
) -> None:
    """Sockets subscribe (some with afterVersion 0, some from the current version) while
    moves are made back to back: whether a subscriber reaches its crowd ahead of the crowd's
    follower or behind it, its versions are consecutive, from where it started to the last."""
    async with httpx.AsyncClient(base_url=server, timeout=30) as http:
        api = Api(http)
        created = await create_game(http, seed="crowds-race")
        game_id, tokens = created["game"]["id"], [s["token"] for s in created["seats"]]
        moves = 12

        async def mover() -> int:
            last = 0
            for n in range(moves):
                last = await _move(api, game_id, tokens, f"race-{n}")
            return last

        moving = asyncio.create_task(mover())
        sockets = []
        for n in range(16):
            token = tokens[n % 2] if n % 4 == 0 else None
            socket = await _socket(server, token, deflate=n % 2 == 0)
            variables = {"id": game_id, **({"after": 0} if n % 3 == 0 else {})}
            await _subscribe(socket, THIN, variables)
            sockets.append((socket, n % 3 == 0))
            await asyncio.sleep(0)  # interleave with the moves, no timing assumed
        last = await moving
        for socket, from_start in sockets:
            seen = await _versions(socket, last)
            start = 1 if from_start else seen[0]
            assert seen == list(range(start, last + 1)), seen
            await socket.close()


# The crowd itself, in process: a real GameService on its own Redis, sockets recorded.


class Recorded:
    """A parked socket's wire (edge/parking.Wire) that keeps what is written to it."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.closed: int | None = None
        self.stalled = False

    def text(self, data: str) -> bool:
        self.texts.append(data)
        return self.closed is None

    def parts(self, chunks: tuple[bytes, ...]) -> bool:
        return self.text(b"".join(chunks).decode())

    def close(self, code: int, reason: str) -> None:
        self.closed = code

    def paused(self) -> bool:
        return self.stalled

    async def drained(self) -> None:
        return None

    def resume(self) -> None:
        return None

    def versions(self) -> list[int]:
        return [json.loads(text.removeprefix("#").removesuffix("}"))["v"] for text in self.texts]


@pytest.fixture
async def service() -> AsyncIterator[GameService]:
    with own_redis() as url:
        store = RedisStore(connect(SETTINGS, url), SETTINGS)
        yield GameService(store)
        await store.close()


async def _frame(_: Audience, event: Any) -> str:
    return f'{{"v":{event.version}}}'


def _crowd(service: GameService, game_id: str, after: int, queue: int = 4) -> Crowd:
    crowds: dict[tuple[Any, ...], Crowd] = {}
    key = (game_id, None, None)
    crowds[key] = crowd = Crowd(
        key, crowds, service, Caller(None, None), after, _frame, lambda *_: "", queue
    )
    return crowd


def _member(audience: Audience, last: int) -> tuple[Member, Recorded]:
    wire = Recorded()
    return Member(audience, wire, b"#", last), wire


async def test_a_crowd_takes_no_member_behind_it_and_sends_one_ahead_only_what_follows(
    service: GameService,
) -> None:
    loaded, tokens = await service.create("TREELINGS", 2, "crowd-join", None)
    for n in range(2):
        await play(service, loaded.id, tokens, f"join-{n}")  # version 2
    audience = Audience(("spectators",), None, "en")  # type: ignore[arg-type]
    crowd = _crowd(service, loaded.id, 0)
    behind, behind_wire = _member(audience, 0)
    ahead, ahead_wire = _member(audience, 2)
    assert crowd.join(behind) and crowd.join(ahead)
    await until(lambda: behind_wire.versions() == [1, 2], "the crowd's catch-up")
    assert ahead_wire.versions() == []  # it had 1 and 2 already
    version = await play(service, loaded.id, tokens, "join-live")
    await until(lambda: ahead_wire.versions() == [version], "a live version")
    assert behind_wire.versions() == [1, 2, version]
    late, _ = _member(audience, 1)
    assert not crowd.join(late), "a member behind its crowd keeps following on its own"
    crowd.leave(behind)
    crowd.leave(ahead)
    await until(lambda: crowd.task.done(), "the last member's leaving ends the follower")


async def test_a_member_whose_socket_stalls_is_closed_past_the_queue_and_slows_no_other(
    service: GameService,
) -> None:
    loaded, tokens = await service.create("TREELINGS", 2, "crowd-slow", None)
    audience = Audience(("spectators",), None, "en")  # type: ignore[arg-type]
    crowd = _crowd(service, loaded.id, 0, queue=2)
    slow, slow_wire = _member(audience, 0)
    fast, fast_wire = _member(audience, 0)
    assert crowd.join(slow) and crowd.join(fast)
    slow_wire.stalled = True
    versions = [await play(service, loaded.id, tokens, f"slow-{n}") for n in range(4)]
    await until(lambda: fast_wire.versions() == versions, "every version for the other")
    assert slow_wire.closed == 4413
    assert slow_wire.versions() == versions[:2], "written while within the queue, then no more"
    crowd.leave(slow)
    crowd.leave(fast)


async def test_the_games_end_ends_every_member_and_the_crowd(service: GameService) -> None:
    loaded, tokens = await service.create("TREELINGS", 2, "crowd-end", None)
    audience = Audience(("spectators",), None, "en")  # type: ignore[arg-type]
    crowd = _crowd(service, loaded.id, 0)
    members = [_member(audience, 0) for _ in range(3)]
    finished: list[str | None] = []
    left: list[Member] = []
    for member, _ in members:
        member.finish = finished.append  # the socket's side writes the last frames
        member.on_close(partial(left.append, member))
        assert crowd.join(member)
    await service.resign(loaded.id, tokens[0], None)
    await until(lambda: len(finished) == 3, "every member finished")
    assert finished == [None] * 3  # no error: the game's end
    assert left == [member for member, _ in members]
    for _, wire in members:
        assert wire.versions() == [1]
    assert crowd.crowds == {}
    await until(lambda: crowd.task.done(), "the follower's end")


async def test_a_delayed_spectators_crowd_follows_the_game_its_delay_behind(server: str) -> None:
    """spectatorDelay 2: the spectators' crowd writes each version two moves late, the seat's
    live; when the game ends, the spectators get every version left, the last FINISHED."""
    async with httpx.AsyncClient(base_url=server, timeout=30) as http:
        api = Api(http)
        created = await create_game(http, seed="crowds-delay", spectatorDelay=2)
        game_id, tokens = created["game"]["id"], [s["token"] for s in created["seats"]]
        spectator, seat = await _socket(server, deflate=False), await _socket(server, tokens[0])
        for socket in (spectator, seat):
            await _subscribe(socket, THIN, {"id": game_id})
            assert await _versions(socket, 0) == [0]
        last = 0
        for n in range(4):
            last = await _move(api, game_id, tokens, f"delay-{n}")
        assert await _versions(seat, last) == list(range(1, last + 1))
        assert await _versions(spectator, last - 2) == list(range(1, last - 1))
        resigned = await api.gql(gql.RESIGN, {"id": game_id}, tokens[1])
        final = resigned["resign"]["game"]["version"]
        assert await _versions(spectator, final) == list(range(last - 1, final + 1))
        assert await _receive(spectator) == {"id": "1", "type": "complete"}
        for socket in (spectator, seat):
            await socket.close()
