"""Matchmaking through the real ASGI app (GraphQL and REST), two app instances on one Redis as
two replicas: players matched on whichever replica they enter, never twice under concurrent
enters, told through their status and their event stream; leaving, entering twice, the
tenants kept apart, hostile input refused with typed codes, and the match.found webhook event
written with the game's creation."""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import AsyncIterator
from typing import Any

import httpx
import msgspec
import pytest
from starlette.types import Message

from service.app import create_app
from service.settings import Settings
from service.store import RedisStore, connect
from service.store.jobs import LANES, lane_of
from service.store.outbox import enabled_key, outbox_key
from tests.conftest import client_for
from tests.support.tenants import ACME, GLOBEX, KEYS

SETTINGS = Settings(api_keys=KEYS, rate_limit_per_token=0, rate_limit_per_address=0)
ENTER = """
mutation Enter($input: MatchmakingInput!) {
  enterMatchmaking(input: $input) {
    playerId state kind players rating waitingSince window gameId seat seatToken
  }
}"""
LEAVE = "mutation Leave($p: String!) { leaveMatchmaking(playerId: $p) { state } }"
STATUS = """
query Status($p: String!) {
  matchmaking(playerId: $p) { state kind players options gameId seat seatToken window }
}"""
VIEWER = "query Game($id: ID!) { game(id: $id) { viewer seats { seat playerId } } }"
WAIT = 30.0


@pytest.fixture(scope="module")
async def replicas(redis_url: str) -> AsyncIterator[list[httpx.AsyncClient]]:
    async with (
        client_for(create_app(SETTINGS, redis_url)) as one,
        client_for(create_app(SETTINGS, redis_url)) as two,
    ):
        yield [one, two]


def player() -> str:
    return f"player-{secrets.token_hex(6)}"


async def gql(
    http: httpx.AsyncClient, query: str, variables: dict[str, Any], key: str | None = ACME
) -> dict[str, Any]:
    headers = {"x-api-key": key} if key else {}
    answer = await http.post(
        "/graphql", json={"query": query, "variables": variables}, headers=headers
    )
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


async def enter_gql(
    http: httpx.AsyncClient, who: str, rating: float | None = None, **more: Any
) -> dict[str, Any]:
    seek = {"kind": "TREETOPIA", "players": 2, "playerId": who, "rating": rating, **more}
    body = await gql(http, ENTER, {"input": seek})
    assert "errors" not in body, body
    found: dict[str, Any] = body["data"]["enterMatchmaking"]
    return found


async def enter_rest(
    http: httpx.AsyncClient, who: str, rating: float | None = None, key: str = ACME, **more: Any
) -> httpx.Response:
    seek = {"kind": "TREETOPIA", "players": 2, "playerId": who, **more}
    if rating is not None:
        seek["rating"] = rating
    return await http.post("/v1/matchmaking", json=seek, headers={"x-api-key": key})


async def test_players_entering_on_two_replicas_are_matched_into_one_game(
    replicas: list[httpx.AsyncClient],
) -> None:
    one, two = replicas
    first, second = player(), player()
    waiting = await enter_gql(one, first, 1000.0)
    assert waiting["state"] == "WAITING" and 2.5 <= waiting["window"] < 5
    assert waiting["kind"] == "TREETOPIA" and waiting["players"] == 2
    answer = await enter_rest(two, second, 1001.0)
    assert answer.status_code == 200, answer.text
    matched = answer.json()
    assert matched["state"] == "MATCHED" and matched["seatToken"].startswith(f"{matched['seat']}.")
    status = (await gql(one, STATUS, {"p": first}))["data"]["matchmaking"]
    assert status["state"] == "MATCHED" and status["gameId"] == matched["gameId"]
    assert {status["seat"], matched["seat"]} == {0, 1}
    for seen in (status, matched):  # each token is its own seat of the game, on either replica
        game = await one.post(
            "/graphql",
            json={"query": VIEWER, "variables": {"id": seen["gameId"]}},
            headers={"authorization": f"Bearer {seen['seatToken']}"},
        )
        assert game.json()["data"]["game"]["viewer"] == seen["seat"], game.text
    game = await one.post(
        "/graphql",
        json={"query": VIEWER, "variables": {"id": matched["gameId"]}},
        headers={"x-api-key": ACME},  # the tenant sees its player ids on the seats
    )
    seats = game.json()["data"]["game"]["seats"]
    assert {s["playerId"] for s in seats} == {first, second}
    again = await two.get(f"/v1/matchmaking/{first}", headers={"x-api-key": ACME})
    assert again.json()["gameId"] == matched["gameId"]


async def test_concurrent_enters_on_two_replicas_match_each_player_once(
    replicas: list[httpx.AsyncClient],
) -> None:
    players = [player() for _ in range(40)]
    rating = 2000.0 + secrets.randbelow(1000)  # a rating range of this test's own
    for replica in replicas:  # the scripts loaded first (on a cluster a cold burst is refused)
        await enter_gql(replica, player(), rating - 100.0)
    answers = await asyncio.gather(
        *(enter_gql(replicas[i % 2], who, rating) for i, who in enumerate(players))
    )
    # MATCHING: another enter matched the player meanwhile and was creating the game
    assert all(a["state"] in ("WAITING", "MATCHING", "MATCHED") for a in answers), answers
    statuses = [
        (await gql(replicas[0], STATUS, {"p": who}))["data"]["matchmaking"] for who in players
    ]
    assert all(s["state"] == "MATCHED" for s in statuses), statuses
    games: dict[str, list[int]] = {}
    for status in statuses:
        games.setdefault(status["gameId"], []).append(status["seat"])
    assert len(games) == 20 and all(sorted(seats) == [0, 1] for seats in games.values())
    seated = []
    for game_id in games:  # every player sits in exactly one of the games, none in two
        body = await gql(replicas[1], VIEWER, {"id": game_id})
        seated += [seat["playerId"] for seat in body["data"]["game"]["seats"]]
    assert sorted(seated) == sorted(players)


async def test_leaving_and_entering_twice(replicas: list[httpx.AsyncClient]) -> None:
    one, two = replicas
    who = player()
    first = await enter_gql(one, who, -500.0)
    same = await enter_gql(two, who, -500.0, options={})  # the same pool: options normalized
    assert same["state"] == "WAITING" and same["waitingSince"] == first["waitingSince"]
    other = await enter_rest(two, who, -500.0, players=3)
    assert other.status_code == 409 and other.json()["code"] == "ALREADY_QUEUED", other.text
    body = await gql(one, ENTER, {"input": {"kind": "TREELINE", "players": 2, "playerId": who}})
    assert body["errors"][0]["extensions"]["code"] == "ALREADY_QUEUED"
    left = await two.delete(
        "/v1/matchmaking", params={"playerId": who}, headers={"x-api-key": ACME}
    )
    assert left.status_code == 200 and left.json()["state"] == "NONE"
    assert (await gql(one, STATUS, {"p": who}))["data"]["matchmaking"]["state"] == "NONE"
    again = await gql(one, LEAVE, {"p": who})
    assert again["errors"][0]["extensions"]["code"] == "NOT_QUEUED"
    rest = await one.delete(
        "/v1/matchmaking", params={"playerId": who}, headers={"x-api-key": ACME}
    )
    assert rest.status_code == 409 and rest.json()["code"] == "NOT_QUEUED"


async def test_tenants_are_kept_apart(replicas: list[httpx.AsyncClient]) -> None:
    one, two = replicas
    who = player()
    await enter_gql(one, who, 5000.0)
    theirs = await two.get(f"/v1/matchmaking/{who}", headers={"x-api-key": GLOBEX})
    assert theirs.json()["state"] == "NONE"
    other = await enter_rest(two, player(), 5000.0, key=GLOBEX)
    assert other.json()["state"] == "WAITING"  # the same rating, another tenant: no match
    nobody = await one.get(f"/v1/matchmaking/{who}")
    assert nobody.status_code == 401 and nobody.json()["code"] == "UNAUTHORIZED"
    anonymous = await gql(one, STATUS, {"p": who}, key=None)
    assert anonymous["errors"][0]["extensions"]["code"] == "UNAUTHORIZED"


@pytest.mark.parametrize(
    ("seek", "code"),
    [
        ({"kind": "CHESS"}, "BAD_USER_INPUT"),
        ({"players": 9}, "BAD_USER_INPUT"),
        ({"players": 1}, "BAD_USER_INPUT"),
        ({"options": {"noSuchOption": 1}}, "BAD_USER_INPUT"),
        ({"options": {"startSeat": 5}}, "BAD_USER_INPUT"),
        ({"playerId": ""}, "BAD_USER_INPUT"),
        ({"playerId": "x" * 129}, "BAD_USER_INPUT"),
        ({"rating": 1e300}, "BAD_USER_INPUT"),
        ({"rating": "high"}, "BAD_REQUEST"),
        ({"players": "two"}, "BAD_REQUEST"),
        ({"extra": 1}, "BAD_REQUEST"),
        ({"options": [1, 2]}, "BAD_REQUEST"),
    ],
)
async def test_hostile_seeks_are_refused_with_typed_codes(
    replicas: list[httpx.AsyncClient], seek: dict[str, Any], code: str
) -> None:
    one, _ = replicas
    body = {"kind": "TREETOPIA", "players": 2, "playerId": player(), **seek}
    answer = await one.post("/v1/matchmaking", json=body, headers={"x-api-key": ACME})
    assert answer.status_code in (400, 422), answer.text
    assert answer.json()["code"] == code, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")


async def test_hostile_input_over_graphql_is_a_typed_error(
    replicas: list[httpx.AsyncClient],
) -> None:
    one, _ = replicas
    for seek in (
        {"kind": "TREETOPIA", "players": 7, "playerId": player()},
        {"kind": "TREETOPIA", "players": 2, "playerId": "", "rating": 1e300},
        {"kind": "TREETOPIA", "players": 2, "playerId": player(), "options": {"deck": "x"}},
    ):
        body = await gql(one, ENTER, {"input": seek})
        assert body["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT", body
    deep: Any = 1
    for _ in range(200):
        deep = [deep]
    nested = {"kind": "TREETOPIA", "players": 2, "playerId": player(), "options": {"a": deep}}
    answer = await one.post("/v1/matchmaking", json=nested, headers={"x-api-key": ACME})
    assert answer.status_code == 400 and answer.json()["code"] == "BAD_REQUEST"


async def test_the_match_found_webhook_event_is_written_with_the_game(
    replicas: list[httpx.AsyncClient], redis_url: str
) -> None:
    store = RedisStore(connect(SETTINGS, redis_url), SETTINGS)
    try:
        for lane in range(LANES):  # acme's switch on, as an enabled endpoint sets it
            await store.redis.set(enabled_key(lane, "acme"), "test", ex=60)
        one, two = replicas
        first, second = player(), player()
        await enter_gql(one, first, 7000.0)
        matched = await enter_gql(two, second, 7000.0)
        game_id = matched["gameId"]
        entries: Any = await store.redis.xrange(outbox_key(lane_of(game_id), "acme"))
        events = [
            event
            for _, fields in entries
            if fields[b"g"].decode() == game_id
            for event in msgspec.json.decode(fields[b"e"])
        ]
        assert [e["type"] for e in events][:1] == ["match.found"], events
        found = events[0]["data"]
        assert found["gameId"] == game_id and found["kind"] == "TREETOPIA"
        assert {s["playerId"] for s in found["seats"]} == {first, second}
        assert "token" not in json.dumps(found).lower()  # seat tokens stay out of webhooks
    finally:
        for lane in range(LANES):
            await store.redis.delete(enabled_key(lane, "acme"))
        await store.close()


async def test_the_players_event_stream_tells_the_match(
    replicas: list[httpx.AsyncClient], redis_url: str
) -> None:
    """The SSE route driven by hand (an in-process client buffers a whole answer): the status
    now, then the match made on the other replica, with the player's own seat token."""
    app = create_app(SETTINGS, redis_url)
    who, rival = player(), player()
    async with client_for(app):
        await enter_gql(replicas[0], who, 9000.0)
        sent: asyncio.Queue[Message] = asyncio.Queue()
        leave = asyncio.Event()

        async def receive() -> Message:
            await leave.wait()
            return {"type": "http.disconnect"}

        scope = {
            "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
            "scheme": "http", "path": f"/v1/players/{who}/events", "raw_path": b"",
            "query_string": b"", "root_path": "", "client": ("127.0.0.1", 1234),
            "server": ("test", 80), "headers": [(b"x-api-key", ACME.encode())],
        }  # fmt: skip
        stream = asyncio.ensure_future(app(scope, receive, sent.put))
        try:
            start = await asyncio.wait_for(sent.get(), WAIT)
            assert start["status"] == 200
            statuses = _statuses(sent)
            assert (await asyncio.wait_for(anext(statuses), WAIT))["state"] == "WAITING"
            matched = await enter_gql(replicas[1], rival, 9000.0)
            told = await asyncio.wait_for(anext(statuses), WAIT)
            assert told["state"] == "MATCHED" and told["gameId"] == matched["gameId"]
            assert told["seat"] == 1 - matched["seat"]
            assert told["seatToken"] != matched["seatToken"]
            assert told["type"] == "MATCHED"
        finally:
            leave.set()
            await asyncio.wait_for(stream, WAIT)


CHALLENGE = """
mutation C($input: ChallengeInput!) { createChallenge(input: $input) { game { id } } }"""


async def test_the_players_event_stream_names_news_apart_from_a_match(
    replicas: list[httpx.AsyncClient], redis_url: str
) -> None:
    """A challenge on the stream is its own SSE event and type: the game and the seat kept,
    no seat token posing as a match's, the matchmaking state as it is."""
    app = create_app(SETTINGS, redis_url)
    who, challenger = player(), player()
    async with client_for(app):
        sent: asyncio.Queue[Message] = asyncio.Queue()
        leave = asyncio.Event()

        async def receive() -> Message:
            await leave.wait()
            return {"type": "http.disconnect"}

        scope = {
            "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
            "scheme": "http", "path": f"/v1/players/{who}/events", "raw_path": b"",
            "query_string": b"", "root_path": "", "client": ("127.0.0.1", 1234),
            "server": ("test", 80), "headers": [(b"x-api-key", ACME.encode())],
        }  # fmt: skip
        stream = asyncio.ensure_future(app(scope, receive, sent.put))
        try:
            assert (await asyncio.wait_for(sent.get(), WAIT))["status"] == 200
            frames = _frames(sent)
            name, now = await asyncio.wait_for(anext(frames), WAIT)
            assert (name, now["state"], now["type"]) == ("status", "NONE", None)
            asked = {"kind": "TREELINGS", "opponents": [who], "challengerId": challenger}
            answer = await replicas[1].post(
                "/graphql",
                json={"query": CHALLENGE, "variables": {"input": asked}},
                headers={"x-api-key": ACME},
            )
            game_id = answer.json()["data"]["createChallenge"]["game"]["id"]
            name, told = await asyncio.wait_for(anext(frames), WAIT)
            assert name == "challenge.received"
            assert (told["type"], told["state"], told["gameId"]) == (
                "CHALLENGE_RECEIVED",
                "NONE",
                game_id,
            )
            assert (told["kind"], told["players"], told["seat"]) == ("TREELINGS", 2, 1)
            assert told["seatToken"] is None
        finally:
            leave.set()
            await asyncio.wait_for(stream, WAIT)


async def _frames(sent: asyncio.Queue[Message]) -> AsyncIterator[tuple[str, dict[str, Any]]]:
    buffered = b""
    while True:
        message = await sent.get()
        buffered += message.get("body", b"")
        while b"\n\n" in buffered:
            event, _, buffered = buffered.partition(b"\n\n")
            if event.startswith(b"event: "):
                head, _, body = event.partition(b"\ndata: ")
                yield head.removeprefix(b"event: ").decode(), json.loads(body)


async def _statuses(sent: asyncio.Queue[Message]) -> AsyncIterator[dict[str, Any]]:
    buffered = b""
    while True:
        message = await sent.get()
        buffered += message.get("body", b"")
        while b"\n\n" in buffered:
            event, _, buffered = buffered.partition(b"\n\n")
            if event.startswith(b"event: status\ndata: "):
                yield json.loads(event.partition(b"data: ")[2])
