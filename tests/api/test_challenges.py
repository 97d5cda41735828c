"""Challenges through the real app (GraphQL and REST) on real Redis: a player (or the tenant
for it) challenges player ids; each challenged player is told on its channel and by the
`challenge.received` webhook event, sees it in `myChallenges`, accepts with joinGame (the game
starts with the last, and its players are told) or declines for everyone; a challenge nobody
accepts lapses without bots; refusals are typed; a player token counts against the rate limit
per token, as a seat token does."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import httpx
import msgspec
import pytest

from service.app import create_app
from service.core.lobby import Lobby
from service.store import RedisStore, connect
from service.store.jobs import LANES, lane_of
from service.store.lobby import LobbyStore
from service.store.outbox import enabled_key, outbox_key
from tests.api.test_players import SETTINGS, data, gql, refusal, token_for
from tests.conftest import client_for
from tests.support.waiting import until
from tests.support.workers import worker_process

ACME = "acme-secret"

CHALLENGE = """
mutation C($input: ChallengeInput!) {
  createChallenge(input: $input) { seatToken expiresAt game { id viewer status players } }
}"""
DECLINE = "mutation D($id: ID!) { declineChallenge(gameId: $id) { id status } }"
EXPORT = "query E($id: ID!) { exportGame(gameId: $id) }"
VERIFY = (
    "query V($r: JSON!) { verifyGameRecord(record: $r) { valid difference { reason message } } }"
)
MINE = "query { myChallenges { seat game { id status } } }"
JOIN = "mutation J($id: ID!) { joinGame(gameId: $id) { seat game { id status } } }"
LOBBY = "query L($id: ID!) { lobby(gameId: $id) { openSeats { seat reserved } started } }"
GAME = """
query G($id: ID!) {
  game(id: $id) { status seats { seat bot playerId } history { label } legalMoves { move } }
}"""
MOVE = """
mutation M($id: ID!, $move: JSON!) {
  applyMove(input: {gameId: $id, move: $move}) { __typename }
}"""
OPEN = """
mutation O($input: CreateGameInput!) { createGame(input: $input) { game { id } } }
"""


@pytest.fixture(scope="module")
async def http(redis_url: str) -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(create_app(SETTINGS, redis_url)) as client:
        yield client


def names(*who: str) -> list[str]:
    stamp = time.time_ns()
    return [f"{name}-{stamp}" for name in who]


async def challenge(
    http: httpx.AsyncClient, token: str | None, opponents: list[str], **more: Any
) -> dict[str, Any]:
    asked = {"kind": "TREELINGS", "opponents": opponents, **more}
    key = ACME if token is None else None
    created: dict[str, Any] = data(
        await gql(http, CHALLENGE, {"input": asked}, key=key, token=token)
    )["createChallenge"]
    return created


async def test_the_challenged_accept_with_joingame_and_the_game_starts_with_the_last(
    http: httpx.AsyncClient,
) -> None:
    ann, bob, cy = names("ann", "bob", "cy")
    tokens = {p: await token_for(http, p) for p in (ann, bob, cy)}
    created = await challenge(http, tokens[ann], [bob, cy])
    game_id = created["game"]["id"]
    assert created["game"]["viewer"] == 0 and created["game"]["players"] == 3
    for player, seat in ((bob, 1), (cy, 2)):
        waiting = data(await gql(http, MINE, token=tokens[player]))["myChallenges"]
        assert {"seat": seat, "game": {"id": game_id, "status": "ACTIVE"}} in waiting
    assert data(await gql(http, MINE, token=tokens[ann]))["myChallenges"] == []
    legal = data(await gql(http, GAME, {"id": game_id}, token=tokens[ann]))["game"]["legalMoves"]
    assert legal == []  # nobody owes a decision before the start
    move = {"type": "takeColour", "colour": "green"}
    early = await gql(http, MOVE, {"id": game_id, "move": move}, token=tokens[ann])
    assert refusal(early)[0] == "GAME_NOT_STARTED"
    assert data(await gql(http, JOIN, {"id": game_id}, token=tokens[bob]))["joinGame"]["seat"] == 1
    lobby = data(await gql(http, LOBBY, {"id": game_id}, key=ACME))["lobby"]
    assert lobby == {"openSeats": [{"seat": 2, "reserved": True}], "started": False}
    assert data(await gql(http, JOIN, {"id": game_id}, token=tokens[cy]))["joinGame"]["seat"] == 2
    assert data(await gql(http, LOBBY, {"id": game_id}, key=ACME))["lobby"]["started"]
    game = data(await gql(http, GAME, {"id": game_id}, key=ACME))["game"]
    assert [s["playerId"] for s in game["seats"]] == [ann, bob, cy]
    assert data(await gql(http, MINE, token=tokens[bob]))["myChallenges"] == []


async def test_the_challenged_are_told_on_their_channel_and_by_webhook_and_the_start_too(
    http: httpx.AsyncClient, redis_url: str
) -> None:
    ann, bob = names("ann", "bob")
    store = RedisStore(connect(SETTINGS, redis_url), SETTINGS)
    channels = LobbyStore(store)  # the channels as playerEvents reads them, on either topology
    try:
        for lane in range(LANES):  # acme's switch on, as an enabled endpoint sets it
            await store.redis.set(enabled_key(lane, "acme"), "test", ex=60)
        async with (
            channels.events("acme", bob, lambda: None) as bobs,
            channels.events("acme", ann, lambda: None) as anns,
        ):
            created = await challenge(http, None, [bob], challengerId=ann)
            game_id = created["game"]["id"]
            assert created["game"]["viewer"] is None  # the tenant created it: no seat's view
            news = msgspec.json.decode(await asyncio.wait_for(bobs.next(), 30))
            bob_token = await token_for(http, bob)
            data(await gql(http, JOIN, {"id": game_id}, token=bob_token))
            started = [
                msgspec.json.decode(await asyncio.wait_for(channel.next(), 30))
                for channel in (anns, bobs)
            ]
        assert news["type"] == "challenge.received" and news["gameId"] == game_id
        assert (news["playerId"], news["seat"], news["seatToken"]) == (bob, 1, "")
        entries: Any = await store.redis.xrange(outbox_key(lane_of(game_id), "acme"))
        events = [
            event
            for _, fields in entries
            if fields[b"g"].decode() == game_id
            for event in msgspec.json.decode(fields[b"e"])
        ]
        received = [e["data"] for e in events if e["type"] == "challenge.received"]
        assert len(received) == 1, events
        assert received[0]["challenger"] == {"seat": 0, "playerId": ann}
        assert received[0]["challenged"] == [{"seat": 1, "playerId": bob}]
        assert received[0]["summary"]["text"] == f"{ann} challenges you"
        assert "token" not in str(received[0]).lower()
        assert sorted((s["type"], s["playerId"], s["seat"]) for s in started) == [
            ("game.started", p, s) for p, s in sorted([(ann, 0), (bob, 1)])
        ]
    finally:
        for lane in range(LANES):
            await store.redis.delete(enabled_key(lane, "acme"))
        await store.close()


async def test_declining_ends_the_challenge_for_everyone(http: httpx.AsyncClient) -> None:
    ann, bob, cy, dan = names("ann", "bob", "cy", "dan")
    tokens = {p: await token_for(http, p) for p in (ann, bob, cy, dan)}
    game_id = (await challenge(http, tokens[ann], [bob, cy]))["game"]["id"]
    assert refusal(await gql(http, DECLINE, {"id": game_id}, token=tokens[dan]))[0] == "FORBIDDEN"
    assert refusal(await gql(http, JOIN, {"id": game_id}, token=tokens[dan]))[0] == "GAME_FULL"
    declined = data(await gql(http, DECLINE, {"id": game_id}, token=tokens[cy]))
    assert declined["declineChallenge"] == {"id": game_id, "status": "ABANDONED"}
    game = data(await gql(http, GAME, {"id": game_id}, key=ACME))["game"]
    assert game["history"][-1]["label"] == "seat 2 declined the challenge"
    assert refusal(await gql(http, JOIN, {"id": game_id}, token=tokens[bob]))[0] == "GAME_OVER"
    assert refusal(await gql(http, DECLINE, {"id": game_id}, token=tokens[bob]))[0] == "GAME_OVER"
    assert data(await gql(http, MINE, token=tokens[bob]))["myChallenges"] == []
    # its record, as every record the service exports, verifies through the service's own API
    record = data(await gql(http, EXPORT, {"id": game_id}, key=ACME))["exportGame"]
    verified = data(await gql(http, VERIFY, {"r": record}))["verifyGameRecord"]
    assert verified["valid"], verified


async def test_a_challenge_not_accepted_in_time_lapses_without_bots(
    http: httpx.AsyncClient,
) -> None:
    ann, bob = names("ann", "bob")
    ann_token = await token_for(http, ann)
    game_id = (await challenge(http, ann_token, [bob], expiresInSeconds=1))["game"]["id"]

    async def lapsed() -> bool:
        return bool(
            data(await gql(http, GAME, {"id": game_id}, key=ACME))["game"]["status"] == "ABANDONED"
        )

    await until(lapsed, "the challenge to lapse", 30)
    game = data(await gql(http, GAME, {"id": game_id}, key=ACME))["game"]
    assert game["history"][-1]["label"] == "the challenge lapsed"
    assert [s["bot"] for s in game["seats"]] == [None, None]
    bob_token = await token_for(http, bob)
    assert refusal(await gql(http, JOIN, {"id": game_id}, token=bob_token))[0] == "GAME_OVER"


async def test_a_started_challenge_cannot_be_declined(http: httpx.AsyncClient) -> None:
    ann, bob = names("ann", "bob")
    ann_token, bob_token = await token_for(http, ann), await token_for(http, bob)
    game_id = (await challenge(http, ann_token, [bob]))["game"]["id"]
    data(await gql(http, JOIN, {"id": game_id}, token=bob_token))
    assert refusal(await gql(http, DECLINE, {"id": game_id}, token=ann_token))[0] == "FORBIDDEN"
    opened = await gql(
        http,
        OPEN,
        {
            "input": {
                "kind": "TREELINGS",
                "players": 2,
                "playerIds": [ann],
                "openSeats": [{"seat": 1}],
            }
        },
        key=ACME,
    )
    plain = data(opened)["createGame"]["game"]["id"]
    code, message = refusal(await gql(http, DECLINE, {"id": plain}, token=ann_token))
    assert (code, message) == ("FORBIDDEN", "this game is no challenge")


async def test_challenge_refusals_are_typed(http: httpx.AsyncClient) -> None:
    ann, bob = names("ann", "bob")
    ann_token = await token_for(http, ann)
    for more in [
        {"opponents": []},
        {"opponents": [bob, bob]},
        {"opponents": [ann]},
        {"opponents": ["x" * 129]},
        {"opponents": [""]},
        {"opponents": [f"p{i}" for i in range(5)]},
        {"opponents": [bob], "expiresInSeconds": 0},
        {"opponents": [bob], "expiresInSeconds": 10**9},
        {"opponents": [bob], "options": {"no": "such option"}},
        {"opponents": [bob], "spectatorDelay": -1},
    ]:
        asked = {"kind": "TREELINGS", **more}
        body = await gql(http, CHALLENGE, {"input": asked}, token=ann_token)
        assert refusal(body)[0] == "BAD_USER_INPUT", more
    no_challenger = await gql(
        http, CHALLENGE, {"input": {"kind": "TREELINGS", "opponents": [bob]}}, key=ACME
    )
    assert refusal(no_challenger) == (
        "BAD_USER_INPUT",
        "the tenant names the challenger (challengerId); a player token challenges as its own "
        "player",
    )
    anonymous = await gql(http, CHALLENGE, {"input": {"kind": "TREELINGS", "opponents": [bob]}})
    assert refusal(anonymous)[0] == "UNAUTHORIZED"
    assert refusal(await gql(http, MINE, key=ACME))[0] == "UNAUTHORIZED"
    assert refusal(await gql(http, DECLINE, {"id": "nope"}, token=ann_token))[0] == "NOT_FOUND"


async def test_rest_mirrors_challenges(http: httpx.AsyncClient) -> None:
    ann, bob = names("ann", "bob")
    ann_token, bob_token = await token_for(http, ann), await token_for(http, bob)
    created = await http.post(
        "/v1/challenges",
        json={"kind": "TREELINGS", "opponents": [bob], "expiresInSeconds": 600},
        headers={"authorization": f"Bearer {ann_token}"},
    )
    assert created.status_code == 201, created.text
    game_id = created.json()["game"]["id"]
    assert created.json()["seatToken"].startswith("0.")
    bob_auth = {"authorization": f"Bearer {bob_token}"}
    mine = await http.get("/v1/player/challenges", headers=bob_auth)
    assert [(c["seat"], c["game"]["id"]) for c in mine.json()["challenges"]] == [(1, game_id)]
    declined = await http.post(f"/v1/games/{game_id}/decline-challenge", headers=bob_auth)
    assert declined.status_code == 200 and declined.json()["game"]["status"] == "ABANDONED"
    again = await http.post(f"/v1/games/{game_id}/decline-challenge", headers=bob_auth)
    assert again.status_code == 409 and again.json()["code"] == "GAME_OVER"
    bad = await http.post(
        "/v1/challenges", json={"kind": "TREELINGS", "opponents": "bob"}, headers=bob_auth
    )
    assert bad.status_code == 400 and bad.json()["code"] == "BAD_REQUEST"


async def test_a_player_token_counts_against_the_rate_limit_per_token(redis_url: str) -> None:
    limited = dataclasses.replace(SETTINGS, rate_limit_per_token=3)
    async with client_for(create_app(limited, redis_url)) as http:
        first, second = [await token_for(http, p) for p in names("ann", "bob")]

        async def mine(token: str) -> int:
            headers = {"authorization": f"Bearer {token}"}
            return (await http.get("/v1/player/challenges", headers=headers)).status_code

        assert [await mine(first) for _ in range(4)] == [200, 200, 200, 429]
        assert await mine(second) == 200  # each token its own count, not the address's


async def test_matchmakings_player_stream_reads_a_challenge_as_a_game_and_its_seat(
    http: httpx.AsyncClient, redis_url: str
) -> None:
    """The news share the channel playerEvents follows: its follower reads them, typed (the
    seat kept, no token, not MATCHED) and goes on."""
    ann, bob = names("ann", "bob")
    store = RedisStore(connect(SETTINGS, redis_url), SETTINGS)
    try:
        statuses = Lobby(store).follow("acme", bob, lambda: None)
        assert (await anext(statuses)).state == "NONE"
        ann_token = await token_for(http, ann)
        created = await challenge(http, ann_token, [bob])
        told = await asyncio.wait_for(anext(statuses), 30)
        assert (told.type, told.state) == ("CHALLENGE_RECEIVED", "NONE")
        assert (told.game_id, told.seat, told.seat_token) == (created["game"]["id"], 1, None)
        second = await challenge(http, ann_token, [bob])
        told = await asyncio.wait_for(anext(statuses), 30)
        assert told.game_id == second["game"]["id"]
        await statuses.aclose()
    finally:
        await store.close()


@pytest.mark.slow
async def test_the_workers_sweep_lapses_a_challenge_nobody_reads(
    http: httpx.AsyncClient, redis_url: str
) -> None:
    """No read after its time: a worker's clock sweep ends it, as it fills other games."""
    ann, bob = names("ann", "bob")
    created = await challenge(http, None, [bob], challengerId=ann, expiresInSeconds=1)
    game_id = created["game"]["id"]
    store = RedisStore(connect(SETTINGS, redis_url), SETTINGS)
    try:
        with worker_process(redis_url, RULES_API_KEYS=",".join(SETTINGS.api_keys)) as worker:

            async def lapsed() -> bool:
                record, _ = await store.load(game_id)  # the store's: no service read applies it
                return record is not None and record.status() == "ABANDONED"

            try:
                await until(lapsed, "a worker to lapse the challenge", 60)
            except AssertionError:
                raise AssertionError(worker.output()) from None
    finally:
        await store.close()


async def test_a_decline_racing_the_last_join_on_two_replicas_lets_one_of_them_win(
    http: httpx.AsyncClient, redis_url: str
) -> None:
    """A join makes no version: the ending compares the stored seats too, so a join answered
    "joined" is never ended under it, and the loser gets a typed refusal."""
    async with client_for(create_app(SETTINGS, redis_url)) as other:
        for round_ in range(12):
            ann, bob = names(f"ann{round_}", f"bob{round_}")
            tokens = {p: await token_for(http, p) for p in (ann, bob)}
            game_id = (await challenge(http, tokens[ann], [bob]))["game"]["id"]
            joined, declined = await asyncio.gather(
                gql(http, JOIN, {"id": game_id}, token=tokens[bob]),
                gql(other, DECLINE, {"id": game_id}, token=tokens[ann]),
            )
            status = data(await gql(http, GAME, {"id": game_id}, key=ACME))["game"]["status"]
            if "errors" in joined:
                assert refusal(joined)[0] == "GAME_OVER", joined
                assert data(declined)["declineChallenge"]["status"] == "ABANDONED"
                assert status == "ABANDONED"
            else:
                assert refusal(declined)[0] == "FORBIDDEN", declined
                assert status == "ACTIVE", (joined, declined)


@contextlib.asynccontextmanager
async def outbox_of(redis_url: str) -> AsyncIterator[Callable[[str], Awaitable[list[Any]]]]:
    """acme's webhook outbox switched on, and a reader of one game's events in it."""
    store = RedisStore(connect(SETTINGS, redis_url), SETTINGS)
    try:
        for lane in range(LANES):  # acme's switch on, as an enabled endpoint sets it
            await store.redis.set(enabled_key(lane, "acme"), "test", ex=60)

        async def events(game_id: str) -> list[Any]:
            entries: Any = await store.redis.xrange(outbox_key(lane_of(game_id), "acme"))
            return [
                event
                for _, fields in entries
                if fields[b"g"].decode() == game_id
                for event in msgspec.json.decode(fields[b"e"])
            ]

        yield events
    finally:
        for lane in range(LANES):
            await store.redis.delete(enabled_key(lane, "acme"))
        await store.close()


def abandoned(events: list[Any]) -> tuple[Any, ...]:
    [found] = [e["data"] for e in events if e["type"] == "game.abandoned"]
    return found["reason"], found["seat"], found["playerId"], found["summary"]["text"]


async def test_game_abandoned_says_a_challenge_was_declined_or_lapsed(
    http: httpx.AsyncClient, redis_url: str
) -> None:
    """Not "abandoned by its tenant": the reason, who declined, and the summary saying so."""
    ann, bob = names("ann", "bob")
    tokens = {p: await token_for(http, p) for p in (ann, bob)}
    async with outbox_of(redis_url) as events:
        declined_id = (await challenge(http, tokens[ann], [bob]))["game"]["id"]
        data(await gql(http, DECLINE, {"id": declined_id}, token=tokens[bob]))
        assert abandoned(await events(declined_id)) == (
            "CHALLENGE_DECLINED",
            1,
            bob,
            "seat 1 declined the challenge",
        )
        lapsed_id = (await challenge(http, tokens[ann], [bob], expiresInSeconds=1))["game"]["id"]

        async def lapsed() -> bool:
            game = data(await gql(http, GAME, {"id": lapsed_id}, key=ACME))["game"]
            return bool(game["status"] == "ABANDONED")

        await until(lapsed, "the challenge to lapse", 30)
        assert abandoned(await events(lapsed_id)) == (
            "CHALLENGE_LAPSED",
            None,
            None,
            "the challenge lapsed before every player accepted it",
        )
