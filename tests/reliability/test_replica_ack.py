"""RULES_REPLICA_ACK: a write is acknowledged only once a replica has it (WAIT on the commit's
own connection), so a promoted replica holds every acknowledged move. Real servers: a master
and a replica (`--replicaof`), frozen with SIGSTOP and the master SIGKILLed; the real app."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
from redis.asyncio import Redis

from service.app import create_app
from service.settings import Settings
from service.store import RedisStore, StoreUnavailable, connect
from service.store.embedded import EmbeddedRedis, ask
from tests.conftest import client_for
from tests.reliability.replicas import Endpoint, Link, Pair, linked, replica_of
from tests.support import gql
from tests.support.play import create_game
from tests.support.waiting import until

# generous for a busy machine, where a live replica may take long to confirm; each move the
# frozen replica holds back costs this long
TIMEOUT_MS = 2000
ACKED = Settings(
    rate_limit_per_token=0,
    rate_limit_per_address=0,
    redis_timeout=10.0,
    replica_ack=1,
    replica_ack_timeout_ms=TIMEOUT_MS,
)
# while the replica is frozen or cut off nothing confirms, so a short wait decides the same
UNCONFIRMED_MS = 100
UNCONFIRMED = dataclasses.replace(ACKED, replica_ack_timeout_ms=UNCONFIRMED_MS)


@asynccontextmanager
async def app_on(url: str, settings: Settings = ACKED) -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(create_app(settings, url)) as http:
        yield http


async def _new_game(http: httpx.AsyncClient, seed: str) -> tuple[str, list[str]]:
    payload = await create_game(http, seed=seed)
    return payload["game"]["id"], [seat["token"] for seat in payload["seats"]]


async def _seat_and_move(http: httpx.AsyncClient, game_id: str, tokens: list[str]) -> Any:
    """The seat to act, its token and its first legal move."""
    body = {"query": gql.GAME, "variables": {"id": game_id}}
    seat = (await http.post("/graphql", json=body)).json()["data"]["game"]["toAct"][0]
    headers = {"authorization": f"Bearer {tokens[seat]}"}
    seen = (await http.post("/graphql", json=body, headers=headers)).json()["data"]["game"]
    return tokens[seat], seen["legalMoves"][0]["move"]


async def _apply(
    http: httpx.AsyncClient,
    game_id: str,
    token: str,
    move: Any,
    key: str,
    expected: int | None = None,
) -> dict[str, Any]:
    """applyMove's whole GraphQL answer (data or errors); with `expected`, as a careful client
    sends it (expectedVersion and a key)."""
    decision = {"gameId": game_id, "move": move, "idempotencyKey": key}
    variables = {
        "input": decision if expected is None else {**decision, "expectedVersion": expected}
    }
    response = await http.post(
        "/graphql",
        json={"query": gql.APPLY, "variables": variables},
        headers={"authorization": f"Bearer {token}"},
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def _code(body: dict[str, Any]) -> str | None:
    errors = body.get("errors") or [{}]
    code: str | None = errors[0].get("extensions", {}).get("code")
    return code


async def _stored_version(port: int, game_id: str) -> int | None:
    client = Redis(port=port)
    try:
        raw = await client.hget(f"g:{{{game_id}}}", "v")
        return None if raw is None else int(raw)
    finally:
        await client.aclose()


async def test_wait_counts_only_the_writes_of_its_own_connection(pair: Pair) -> None:
    """Why WAIT goes on the commit's connection: on another one it does not wait for the
    write (Redis docs: "all the previous write commands sent in the context of the current
    connection"; 7.0 takes the offset of the connection's last command, 7.2+ of its last
    write: either way not a write another connection made later)."""
    writer, other = Redis(port=pair.master.port), Redis(port=pair.master.port)
    try:
        await other.ping()
        await writer.set("k", 1)
        assert await writer.wait(1, 5000) == 1
        pair.freeze()
        await writer.set("k", 2)
        assert await writer.wait(1, 300) == 0  # the frozen replica did not confirm
        started = time.monotonic()
        assert await other.wait(1, 5000) == 1  # answers for the replica that lacks the write
        assert time.monotonic() - started < 4
    finally:
        pair.thaw()
        await writer.aclose()
        await other.aclose()


async def test_with_the_replica_up_every_acknowledged_move_is_on_it(pair: Pair) -> None:
    async with app_on(pair.master.url) as http:
        game_id, tokens = await _new_game(http, "ack-up")
        assert await _stored_version(pair.replica.port, game_id) is not None
        for step in range(6):
            token, move = await _seat_and_move(http, game_id, tokens)
            body = await _apply(http, game_id, token, move, f"k{step}")
            applied = body["data"]["applyMove"]
            assert applied["__typename"] == "MoveApplied", body
            # read at once, no waiting: the acknowledgement came after the replica had it
            version = applied["game"]["version"]
            assert await _stored_version(pair.replica.port, game_id) == version


async def test_an_unconfirmed_move_is_unavailable_and_its_retry_replays_it_once_replicated(
    pair: Pair,
) -> None:
    async with app_on(pair.master.url) as http:
        game_id, tokens = await _new_game(http, "ack-frozen")
        token, move = await _seat_and_move(http, game_id, tokens)
        pair.freeze()
        try:
            async with app_on(pair.master.url, UNCONFIRMED) as frozen:
                started = time.monotonic()
                first = await _apply(frozen, game_id, token, move, "once")
                elapsed = time.monotonic() - started
                assert _code(first) == "UNAVAILABLE", first
                assert "idempotencyKey" in first["errors"][0]["message"]
                assert UNCONFIRMED_MS / 1000 <= elapsed < ACKED.redis_timeout  # waited, bounded
                committed = await _stored_version(pair.master.port, game_id)
                assert committed is not None and committed > 0  # on the master, not acknowledged
                # REST answers the same typed way, 503 problem+json
                rest = await frozen.post(
                    f"/v1/games/{game_id}/moves",
                    json={"move": move},
                    headers={"authorization": f"Bearer {token}", "idempotency-key": "once"},
                )
                assert rest.status_code == 503, rest.text
                assert rest.headers["content-type"] == "application/problem+json"
                assert rest.json()["code"] == "UNAVAILABLE" and "retry-after" in rest.headers
                # a replayed answer is an acknowledgement too: it waits for the replica as well
                again = await _apply(frozen, game_id, token, move, "once")
                assert _code(again) == "UNAVAILABLE", again
        finally:
            pair.thaw()

        async def replayed() -> dict[str, Any] | None:
            body = await _apply(http, game_id, token, move, "once")
            return body if "errors" not in body else None

        retried = (await until(replayed, "the retry to be answered"))["data"]["applyMove"]
        assert retried["__typename"] == "MoveApplied" and retried["replayed"] is True
        assert retried["game"]["version"] == committed
        assert await _stored_version(pair.replica.port, game_id) == committed
        # applied once: the retries made no version of their own
        assert await _stored_version(pair.master.port, game_id) == committed


async def test_a_promoted_replica_holds_every_acknowledged_move() -> None:
    """Moves go on while the replica is cut off; the master dies; the replica is promoted.
    Every move that was acknowledged is on it (without the setting the moves acknowledged
    while it was cut off are lost), and the unacknowledged ones, retried with their keys on
    the promoted server, are applied there exactly once."""
    acknowledged: dict[tuple[str, int], Any] = {}  # (game, version) -> move
    pending: list[tuple[str, str, Any, str]] = []  # unacknowledged: game, token, move, key
    master = EmbeddedRedis().start()
    link = await Link(master.port).start()
    replica = replica_of(link.port)
    standby: EmbeddedRedis | None = None
    try:
        await linked(master, replica)
        async with app_on(master.url) as http:
            games = [await _new_game(http, f"ack-failover-{i}") for i in range(3)]

            async def play(http: httpx.AsyncClient, rounds: int, tag: str) -> None:
                for step in range(rounds):
                    for game_id, tokens in games:
                        if any(p[0] == game_id for p in pending):
                            continue  # a game with a move in doubt waits for its retry
                        token, move = await _seat_and_move(http, game_id, tokens)
                        key = f"{tag}{step}"
                        body = await _apply(http, game_id, token, move, key)
                        if "errors" in body:
                            assert _code(body) == "UNAVAILABLE", body
                            pending.append((game_id, token, move, key))
                            continue
                        applied = body["data"]["applyMove"]
                        assert applied["__typename"] == "MoveApplied", body
                        acknowledged[(game_id, applied["game"]["version"])] = move

            await play(http, 3, "before")
            link.cut = True
        async with app_on(master.url, UNCONFIRMED) as http:
            await play(http, 3, "cut")
        master.kill()
        await link.aclose()
        ask(replica.port, "REPLICAOF", "NO", "ONE")
        standby = replica_of(replica.port)  # the new master's own standby, for the retries
        await linked(replica, standby)
        await _audit_and_retry(replica.url, acknowledged, pending)
    finally:
        await link.aclose()
        for server in (standby, replica, master):
            if server is not None:
                server.cleanup()


async def _audit_and_retry(
    url: str,
    acknowledged: dict[tuple[str, int], Any],
    pending: list[tuple[str, str, Any, str]],
) -> None:
    async with app_on(url) as http:
        for (game_id, version), move in acknowledged.items():
            body = {"query": gql.HISTORY, "variables": {"id": game_id, "after": version - 1}}
            game = (await http.post("/graphql", json=body)).json()["data"]["game"]
            assert game is not None and game["version"] >= version, (game_id, version)
            assert game["history"][0]["move"] == move, (game_id, version)
        assert pending, "no move was left in doubt while the replica was cut off"
        for game_id, token, move, key in pending:
            body = await _apply(http, game_id, token, move, key)
            applied = body["data"]["applyMove"]
            assert applied["__typename"] == "MoveApplied", body
            again = (await _apply(http, game_id, token, move, key))["data"]["applyMove"]
            assert again["replayed"] is True
            assert again["game"]["version"] == applied["game"]["version"]


@pytest.mark.parametrize("replicas, timeout_ms", [(-1, 500), (1, 0), (1, 2000)])
def test_the_store_refuses_settings_whose_wait_could_not_finish(
    replicas: int, timeout_ms: int
) -> None:
    """WAIT 0 would block forever, and a wait as long as REDIS_TIMEOUT would be cut by the
    read timeout of its own round trip (the move then reads as a lost reply)."""
    settings = Settings(redis_timeout=2.0, replica_ack=replicas, replica_ack_timeout_ms=timeout_ms)
    with pytest.raises(ValueError, match="RULES_REPLICA_ACK"):
        RedisStore(connect(settings, "redis://127.0.0.1:1/0"), settings)


async def _events_before_pong(pubsub: Any) -> list[dict[str, Any]]:
    """The events the subscription got so far: a PING on its connection is answered after
    every message Redis queued for it before, so whatever precedes the pong is all there is."""
    await pubsub.ping()
    events = []
    async with asyncio.timeout(60):
        while True:
            message = await pubsub.get_message(timeout=1.0)
            if message is None:
                continue
            if message["type"] == "pong":
                return events
            if message["type"] == "message":
                events.append(json.loads(message["data"]))


async def test_a_subscriber_hears_of_a_move_only_once_a_replica_confirms_it(pair: Pair) -> None:
    """With RULES_REPLICA_ACK the commit script publishes no event: a move the replicas have
    not confirmed may still be lost in a failover, and a subscriber shown it would be shown a
    version that never was (a CI chaos run counted such a gap). It is announced when confirmed:
    by the commit, or by the retry that finds it replicated."""
    async with app_on(pair.master.url) as http:
        game_id, tokens = await _new_game(http, "ack-events")
        token, move = await _seat_and_move(http, game_id, tokens)
        listener = Redis(port=pair.master.port)
        pubsub = listener.pubsub()
        await pubsub.subscribe(f"g:{{{game_id}}}:events")
        try:
            assert await _events_before_pong(pubsub) == []
            pair.freeze()
            try:
                async with app_on(pair.master.url, UNCONFIRMED) as frozen:
                    answer = await _apply(frozen, game_id, token, move, "once")
                assert _code(answer) == "UNAVAILABLE"
                committed = await _stored_version(pair.master.port, game_id)
                assert committed is not None and committed > 0  # on the master, unconfirmed
                assert await _events_before_pong(pubsub) == []  # and not announced
            finally:
                pair.thaw()

            async def replayed() -> dict[str, Any] | None:
                body = await _apply(http, game_id, token, move, "once")
                return body if "errors" not in body else None

            await until(replayed, "the retry to be answered")
            heard = await _events_before_pong(pubsub)
            assert heard and heard[-1] == {
                "gameId": game_id,
                "version": committed,
                "status": "ACTIVE",
            }

            # a move confirmed at once is announced by its commit (the store's own follow-up
            # of the first may still announce that one again: subscribers skip what they had)
            token, move = await _seat_and_move(http, game_id, tokens)
            applied = await _apply(http, game_id, token, move, "twice")
            version = applied["data"]["applyMove"]["game"]["version"]
            assert version in {e["version"] for e in await _events_before_pong(pubsub)}
        finally:
            await pubsub.aclose()
            await listener.aclose()


async def test_an_unconfirmed_move_nobody_retries_is_announced_once_a_replica_has_it(
    pair: Pair,
) -> None:
    """A client answered UNAVAILABLE may never retry (it crashed, it gave up): the move stands
    on the master, and the other seats would not hear of it before the game's next version,
    which may be theirs to make. The store follows it up itself: once the replica has it, it
    is announced."""
    async with app_on(pair.master.url) as http:
        game_id, tokens = await _new_game(http, "ack-unretried")
        token, move = await _seat_and_move(http, game_id, tokens)
    # the follow-up is this app's: it waits UNCONFIRMED_MS at a time until the replica has it
    async with app_on(pair.master.url, UNCONFIRMED) as http:
        listener = Redis(port=pair.master.port)
        pubsub = listener.pubsub()
        await pubsub.subscribe(f"g:{{{game_id}}}:events")
        try:
            pair.freeze()
            try:
                assert _code(await _apply(http, game_id, token, move, "once")) == "UNAVAILABLE"
                committed = await _stored_version(pair.master.port, game_id)
                assert committed is not None and committed > 0
                assert await _events_before_pong(pubsub) == []  # not while unconfirmed
            finally:
                pair.thaw()
            heard: list[dict[str, Any]] = []

            async def announced() -> bool:
                heard.extend(await _events_before_pong(pubsub))
                return any(e["version"] == committed for e in heard)

            await until(announced, "the store to announce the move nobody retried")
            assert {"gameId": game_id, "version": committed, "status": "ACTIVE"} in heard
            assert await _stored_version(pair.replica.port, game_id) == committed
        finally:
            await pubsub.aclose()
            await listener.aclose()


async def test_a_replayed_answer_is_confirmed_only_for_a_version_its_master_holds(
    pair: Pair,
) -> None:
    """A replayed answer's version is confirmed on the connection that reads the record's
    version: a master that lacks it (a failover replaced the one the answer was read from)
    is UNAVAILABLE and announces nothing; the version it holds is confirmed and announced."""
    store = RedisStore(connect(ACKED, pair.master.url), ACKED)
    listener = Redis(port=pair.master.port)
    pubsub = listener.pubsub()
    try:
        async with app_on(pair.master.url) as http:
            game_id, _ = await _new_game(http, "ack-behind")
        await pubsub.subscribe(f"g:{{{game_id}}}:events")
        version = await _stored_version(pair.master.port, game_id)
        assert version is not None
        with pytest.raises(StoreUnavailable):
            await store.confirm_replicated(game_id, version + 1, "ACTIVE")
        assert await _events_before_pong(pubsub) == []
        await store.confirm_replicated(game_id, version, "ACTIVE")
        heard = await _events_before_pong(pubsub)
        assert heard == [{"gameId": game_id, "version": version, "status": "ACTIVE"}]
    finally:
        await pubsub.aclose()
        await listener.aclose()
        await store.close()


async def _history_at(url: str, game_id: str, version: int) -> dict[str, Any]:
    async with app_on(url) as http:
        body = {"query": gql.HISTORY, "variables": {"id": game_id, "after": version - 1}}
        game = (await http.post("/graphql", json=body)).json()["data"]["game"]
        entry: dict[str, Any] = game["history"][0]
        return entry


async def test_a_replay_read_before_a_failover_is_not_confirmed_by_the_promoted_master(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A retry finds its key's entry on the old master (its first try was answered UNAVAILABLE:
    the replica had not confirmed it); before the retry confirms it, the old master dies and
    its replica, which never got that move, is promoted and takes another move at the same
    version. The retry's confirmation runs on the promoted master: it must not answer the
    first result (`replayed: true` with a move the game does not hold), but UNAVAILABLE; the
    next retry then learns that the game moved on (STALE_VERSION). Before, the confirmation
    compared the stored version only (at least the answer's: yes) and the replay was
    acknowledged for a move that no server held."""
    master = EmbeddedRedis().start()
    link = await Link(master.port).start()
    replica = replica_of(link.port)
    endpoint = await Endpoint(master.port).start()  # "the master", as the service reaches it
    standby: EmbeddedRedis | None = None
    paused, released = asyncio.Event(), asyncio.Event()
    confirm = RedisStore.confirm_replicated

    async def held(self: RedisStore, *args: Any, **kwargs: Any) -> None:
        if not paused.is_set():  # the first replay: between its read and its confirmation
            paused.set()
            await released.wait()
        await confirm(self, *args, **kwargs)

    try:
        await linked(master, replica)
        async with app_on(endpoint.url) as http:
            game_id, tokens = await _new_game(http, "ack-replay-failover")
            body = {"query": gql.GAME, "variables": {"id": game_id}}
            seen = (await http.post("/graphql", json=body)).json()["data"]["game"]
            token = tokens[seen["toAct"][0]]
            headers = {"authorization": f"Bearer {token}"}
            seen = (await http.post("/graphql", json=body, headers=headers)).json()["data"]["game"]
            version, moves = seen["version"], [m["move"] for m in seen["legalMoves"]]
            mine, theirs = moves[0], moves[-1]
            assert mine != theirs
            link.cut = True  # the replica gets nothing from now on
            async with app_on(endpoint.url, UNCONFIRMED) as cut:
                first = await _apply(cut, game_id, token, mine, "first", version)
            assert _code(first) == "UNAVAILABLE", first  # on the master only
            monkeypatch.setattr(RedisStore, "confirm_replicated", held)
            retry = asyncio.create_task(_apply(http, game_id, token, mine, "first", version))
            await asyncio.wait_for(paused.wait(), 60)  # it read the entry from the old master

            # the failover: the replica (without the move) promoted, the endpoint moved to it
            await link.aclose()
            ask(replica.port, "REPLICAOF", "NO", "ONE")
            standby = replica_of(replica.port)
            await linked(replica, standby)
            await endpoint.move(replica.port)
            master.kill()
            async with app_on(replica.url) as other:  # another decision at the same version
                taken = (await _apply(other, game_id, token, theirs, "second", version))["data"]
            assert taken["applyMove"]["game"]["version"] == version + 1, taken

            released.set()
            answer = await retry
            if "errors" not in answer:  # what it must not be: a replay of a move nobody holds
                told = answer["data"]["applyMove"]
                held_there = await _history_at(replica.url, game_id, told["game"]["version"])
                assert held_there["move"] == mine, (told, held_there)
            assert _code(answer) == "UNAVAILABLE", answer
            again = (await _apply(http, game_id, token, mine, "first", version))["data"]
            assert again["applyMove"] == {
                "__typename": "MoveRejected",
                "code": "STALE_VERSION",
                "message": again["applyMove"]["message"],
                "currentVersion": version + 1,
            }, again
        assert (await _history_at(replica.url, game_id, version + 1))["move"] == theirs
    finally:
        released.set()
        await link.aclose()
        await endpoint.aclose()
        for server in (standby, replica, master):
            if server is not None:
                server.cleanup()
