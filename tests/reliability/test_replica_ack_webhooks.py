"""RULES_REPLICA_ACK for the tenant's writes that are not moves: webhook endpoint changes and
reissued seat tokens are answered only once a replica has them, as moves are, so a failover
cannot bring back a rotated secret or a deleted endpoint; without a replica's confirmation they
answer UNAVAILABLE (GraphQL extensions.code, REST 503 problem+json with Retry-After), never 500.
Real servers: a master and a replica (frozen with SIGSTOP, or its link cut), the real app."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import msgspec
import pytest
from redis.asyncio import Redis

from service import metrics
from service.app import create_app
from service.settings import Settings
from service.store import RedisStore, connect
from service.store.embedded import EmbeddedRedis
from service.store.jobs import LANES, lane_of
from service.store.outbox import enabled_key, outbox_key
from service.webhooks.deliverer import Deliverer
from service.webhooks.model import Endpoint, endpoint_decoder, endpoints_key, message_key
from tests.conftest import client_for
from tests.reliability.replicas import Link, Pair, linked, replica_of
from tests.support.play import create_game
from tests.support.tenants import ACME
from tests.support.waiting import until
from tests.webhooks.harness import SETTINGS as HOOKS_SETTINGS
from tests.webhooks.harness import WORKER, receiver_process, register, worker_process
from tests.webhooks.webhook_tenants import (
    CREATE,
    DELETE,
    ENDPOINTS,
    PUBLIC,
    ROTATE,
    ROTATE_KEYED,
    UPDATE,
    Tenants,
    error_code,
    problem,
    tenants,
)

# generous for a busy machine, where a live replica may take long to confirm; each write the
# replica does not confirm costs this long
TIMEOUT_MS = 2000
ACKED: dict[str, Any] = {"redis_timeout": 10.0, "replica_ack": 1, "replica_ack_timeout_ms": TIMEOUT_MS}  # fmt: skip
# while the replica is frozen or cut off nothing confirms, so a short wait decides the same
UNCONFIRMED_MS = 100
UNCONFIRMED = {**ACKED, "replica_ack_timeout_ms": UNCONFIRMED_MS}
REISSUE = "mutation R($id: ID!, $seat: Int!) { reissueSeatToken(gameId: $id, seat: $seat) { token } }"  # fmt: skip
SEND_TEST = "mutation T($id: ID!) { sendTestWebhookEvent(endpointId: $id) }"
RETRY = "mutation R($e: ID!, $m: ID!) { retryWebhookEvent(endpointId: $e, eventId: $m) }"
SEEN = "query G($id: ID!) { game(id: $id) { viewer } }"


async def _stored(port: int, tenant: str, endpoint_id: str) -> Endpoint | None:
    """The endpoint as the server on `port` holds it, read at once."""
    client = Redis(port=port)
    try:
        blob = await client.hget(endpoints_key(tenant), endpoint_id)
        return None if blob is None else endpoint_decoder.decode(blob)
    finally:
        await client.aclose()


async def _switches(port: int, tenant: str) -> int:
    """How many lanes' webhook switches of `tenant` the server on `port` holds."""
    client = Redis(port=port)
    try:
        return int(await client.exists(*(enabled_key(lane, tenant) for lane in range(LANES))))
    finally:
        await client.aclose()


async def _reissued(port: int, game_id: str, seat: int) -> str | None:
    """The hash of the seat's reissued token on the server on `port` (RedisStore.reissue)."""
    client = Redis(port=port)
    try:
        raw = await client.hget(f"g:{{{game_id}}}", "t")
        return None if raw is None else msgspec.json.decode(raw).get(str(seat))
    finally:
        await client.aclose()


def _token_hash(token: str) -> str:
    """As service/core/access/keys.py stores it: the sha256 of the part after "<seat>."."""
    return hashlib.sha256(token.partition(".")[2].encode()).hexdigest()


def _misses(command: str) -> float:
    return metrics.REPLICA_ACK_MISSES.labels(command)._value.get()


def _unavailable(body: dict[str, Any]) -> None:
    assert error_code(body) == "UNAVAILABLE", body
    assert "standby" in body["errors"][0]["message"], body


def _unavailable_rest(response: httpx.Response) -> None:
    problem(response, 503, "UNAVAILABLE")
    assert "retry-after" in response.headers, response.headers


@asynccontextmanager
async def _acked(url: str) -> AsyncIterator[Tenants]:
    async with tenants(url, **ACKED) as t:
        yield t


@asynccontextmanager
async def _unconfirmed(url: str, like: Tenants) -> AsyncIterator[Tenants]:
    """The tenants of `like` on an app that waits only UNCONFIRMED_MS for a replica."""
    async with tenants(url, like, **UNCONFIRMED) as t:
        yield t


async def test_endpoint_changes_answered_ok_are_on_the_replica_when_answered(pair: Pair) -> None:
    replica = pair.replica.port
    async with _acked(pair.master.url) as t:
        created = await t.create(t.a, description="graphql")
        first = created["endpoint"]["id"]
        # read at once, no waiting: the answer came after the replica had it
        stored = await _stored(replica, t.a, first)
        assert stored is not None and stored.secret == created["secret"]
        assert await _switches(replica, t.a) == LANES
        rotated = (await t.data(ROTATE, {"id": first}, t.a))["rotateWebhookSecret"]["secret"]
        stored = await _stored(replica, t.a, first)
        assert stored is not None and stored.secret == rotated
        assert stored.previous_secret == created["secret"]

        response = await t.rest("POST", ENDPOINTS, t.a, json={"url": PUBLIC})
        assert response.status_code == 201, response.text
        second = response.json()["endpoint"]["id"]
        assert await _stored(replica, t.a, second) is not None
        response = await t.rest("POST", f"{ENDPOINTS}/{second}/rotate-secret", t.a)
        assert response.status_code == 200, response.text
        stored = await _stored(replica, t.a, second)
        assert stored is not None and stored.secret == response.json()["secret"]

        await t.data(UPDATE, {"id": first, "enabled": False}, t.a)
        response = await t.rest("PATCH", f"{ENDPOINTS}/{second}", t.a, json={"enabled": False})
        assert response.status_code == 200, response.text
        stored = await _stored(replica, t.a, second)
        assert stored is not None and not stored.enabled
        assert await _switches(replica, t.a) == 0  # no enabled endpoint left: no lane's switch

        assert (await t.data(DELETE, {"id": first}, t.a))["deleteWebhookEndpoint"] is True
        assert await _stored(replica, t.a, first) is None
        response = await t.rest("DELETE", f"{ENDPOINTS}/{second}", t.a)
        assert response.status_code == 204, response.text
        assert await _stored(replica, t.a, second) is None


async def test_a_reissued_token_answered_ok_is_on_the_replica_when_answered(pair: Pair) -> None:
    async with _acked(pair.master.url) as t:
        game = await create_game(t.http, key=t.keys[t.a], seed="ack-reissue")
        game_id = game["game"]["id"]
        reissued = await t.data(REISSUE, {"id": game_id, "seat": 0}, t.a)
        token = reissued["reissueSeatToken"]["token"]
        assert await _reissued(pair.replica.port, game_id, 0) == _token_hash(token)
        response = await t.rest("POST", f"/v1/games/{game_id}/seats/1/token", t.a)
        assert response.status_code == 200, response.text
        token = response.json()["token"]
        assert await _reissued(pair.replica.port, game_id, 1) == _token_hash(token)


async def test_with_the_replication_link_cut_every_change_answers_unavailable() -> None:
    """GraphQL and REST, each write a tenant can ask for: typed UNAVAILABLE after the wait,
    never a 500, counted under its command; the change stays on the master."""
    master = EmbeddedRedis().start()
    link = await Link(master.port).start()
    replica = replica_of(link.port)
    try:
        await linked(master, replica)
        async with _acked(master.url) as live:
            kept = (await live.create(live.a))["endpoint"]["id"]
            made = await create_game(live.http, key=live.keys[live.a], seed="ack-cut")
            game_id = made["game"]["id"]
        async with _unconfirmed(master.url, live) as t:
            before = {c: _misses(c) for c in ("endpoint.rotate", "endpoint.create", "reissue")}
            link.cut = True

            started = time.monotonic()
            _unavailable(await t.gql(ROTATE, {"id": kept}, t.a))
            assert UNCONFIRMED_MS / 1000 <= time.monotonic() - started < ACKED["redis_timeout"]
            _unavailable_rest(await t.rest("POST", f"{ENDPOINTS}/{kept}/rotate-secret", t.a))
            keyed = {"id": kept, "key": "cut-1"}
            _unavailable(await t.gql(ROTATE_KEYED, keyed, t.a))
            rotated = await _stored(master.port, t.a, kept)
            # the retry with its key rotates nothing, and is not answered unconfirmed either
            _unavailable(await t.gql(ROTATE_KEYED, keyed, t.a))
            assert await _stored(master.port, t.a, kept) == rotated
            rest_keyed = {"idempotency-key": "cut-1"}
            path = f"{ENDPOINTS}/{kept}/rotate-secret"
            _unavailable_rest(await t.rest("POST", path, t.a, headers=rest_keyed))
            assert await _stored(master.port, t.a, kept) == rotated
            _unavailable(await t.gql(UPDATE, {"id": kept, "description": "cut"}, t.a))
            _unavailable(await t.gql(SEND_TEST, {"id": kept}, t.a))
            _unavailable(await t.gql(RETRY, {"e": kept, "m": "msg_g1.1.turn.started"}, t.a))
            _unavailable(await t.gql(DELETE, {"id": kept}, t.a))
            _unavailable_rest(await t.rest("DELETE", f"{ENDPOINTS}/{kept}", t.a))
            assert await _stored(master.port, t.a, kept) is None  # deleted on the master only
            # a delete of what the master no longer has is not answered NOT_FOUND either: the
            # delete it rests on is unconfirmed
            _unavailable(await t.gql(DELETE, {"id": kept}, t.a))
            _unavailable(await t.gql(UPDATE, {"id": kept, "enabled": False}, t.a))

            _unavailable(await t.gql(CREATE, {"url": PUBLIC}, t.a))
            _unavailable_rest(await t.rest("POST", ENDPOINTS, t.a, json={"url": PUBLIC}))

            _unavailable(await t.gql(REISSUE, {"id": game_id, "seat": 0}, t.a))
            reissued = await t.rest("POST", f"/v1/games/{game_id}/seats/0/token", t.a)
            _unavailable_rest(reissued)

            assert _misses("endpoint.rotate") - before["endpoint.rotate"] == 5
            assert _misses("endpoint.create") - before["endpoint.create"] == 2
            assert _misses("reissue") - before["reissue"] == 2
    finally:
        await link.aclose()
        replica.cleanup()
        master.cleanup()


async def test_with_no_replica_at_all_changes_answer_unavailable() -> None:
    master = EmbeddedRedis().start()
    try:
        async with tenants(master.url, **UNCONFIRMED) as t:
            _unavailable(await t.gql(CREATE, {"url": PUBLIC}, t.a))
            _unavailable_rest(await t.rest("POST", ENDPOINTS, t.a, json={"url": PUBLIC}))
    finally:
        master.cleanup()


async def test_a_retry_once_the_replica_is_back_is_answered_and_acknowledged(pair: Pair) -> None:
    """The documented retries: a rotation retried rotates again (the last secret shown is the
    one that signs, on the replica), unless it is retried with its idempotency key: then the
    secret the first made, and the receiver's still signs alongside; a delete retried answers
    NOT_FOUND only once the replica has lost the endpoint too; a reissue retried gives the
    token that counts."""
    replica = pair.replica.port
    async with _acked(pair.master.url) as t:
        rotated = (await t.create(t.a))["endpoint"]["id"]
        created = await t.create(t.a)
        keyed, original = created["endpoint"]["id"], created["secret"]
        rest_created = await t.create(t.a)
        rest_keyed, rest_original = rest_created["endpoint"]["id"], rest_created["secret"]
        rest_path = f"{ENDPOINTS}/{rest_keyed}/rotate-secret"
        rest_key = {"idempotency-key": "ack-back-rest"}
        deleted = (await t.create(t.a))["endpoint"]["id"]
        game_id = (await create_game(t.http, key=t.keys[t.a], seed="ack-back"))["game"]["id"]
        pair.freeze()
        try:
            async with _unconfirmed(pair.master.url, t) as frozen:
                _unavailable(await frozen.gql(ROTATE, {"id": rotated}, t.a))
                keyed_rotation = {"id": keyed, "key": "ack-back"}
                _unavailable(await frozen.gql(ROTATE_KEYED, keyed_rotation, t.a))
                _unavailable_rest(await frozen.rest("POST", rest_path, t.a, headers=rest_key))
                _unavailable(await frozen.gql(DELETE, {"id": deleted}, t.a))
                _unavailable(await frozen.gql(REISSUE, {"id": game_id, "seat": 0}, t.a))
        finally:
            pair.thaw()
        secret = (await t.data(ROTATE, {"id": rotated}, t.a))["rotateWebhookSecret"]["secret"]
        stored = await _stored(replica, t.a, rotated)
        assert stored is not None and stored.secret == secret

        made = await _stored(pair.master.port, t.a, keyed)
        assert made is not None and made.previous_secret == original
        retried = await t.data(ROTATE_KEYED, {"id": keyed, "key": "ack-back"}, t.a)
        assert retried["rotateWebhookSecret"]["secret"] == made.secret, "not rotated again"
        assert await _stored(replica, t.a, keyed) == made  # read at once: acknowledged
        assert await _stored(pair.master.port, t.a, keyed) == made

        response = await t.rest("POST", rest_path, t.a, headers=rest_key)
        assert response.status_code == 200, response.text
        stored = await _stored(replica, t.a, rest_keyed)
        assert stored is not None and stored.secret == response.json()["secret"]
        assert stored.previous_secret == rest_original, "the receiver's secret still signs"

        assert error_code(await t.gql(DELETE, {"id": deleted}, t.a)) == "NOT_FOUND"
        assert await _stored(replica, t.a, deleted) is None

        token = (await t.data(REISSUE, {"id": game_id, "seat": 0}, t.a))["reissueSeatToken"]
        assert await _reissued(replica, game_id, 0) == _token_hash(token["token"])
        seen = await t.http.post(
            "/graphql",
            json={"query": SEEN, "variables": {"id": game_id}},
            headers={"authorization": f"Bearer {token['token']}"},
        )
        assert seen.json()["data"]["game"]["viewer"] == 0, seen.text


async def test_events_of_an_unconfirmed_commit_reach_no_receiver_before_the_replica_has_them(
    pair: Pair,
) -> None:
    """With RULES_REPLICA_ACK a worker fans out an outbox entry only once the replicas hold it:
    the commit that wrote it was answered UNAVAILABLE and a failover could still take it back,
    so a receiver told of it would hear of a version that never was (a CI chaos run's receiver
    got a game.finished of an ending lost that way). Once the replica has it, it is delivered."""
    settings = dataclasses.replace(HOOKS_SETTINGS, **ACKED)
    worker_settings = {
        **WORKER,
        "RULES_REPLICA_ACK": "1",
        "RULES_REPLICA_ACK_TIMEOUT_MS": "1000",
        "RULES_WEBHOOK_TIMEOUT_SECONDS": "1",  # a read entry is taken over after 2 s idle
    }
    with receiver_process() as receiver:
        await receiver.ready()
        async with client_for(create_app(settings, pair.master.url)) as http:
            created = await create_game(http, key=ACME, seed="ack-outbox")
            game_id, token = created["game"]["id"], created["seats"][0]["token"]
            redis = connect(Settings(), pair.master.url)
            try:
                await register(redis, "acme", receiver.url("/ok"))
            finally:
                await redis.aclose()
            with worker_process(pair.master.url, **worker_settings) as worker:
                pair.freeze()
                try:
                    resigned = await http.post(
                        f"/v1/games/{game_id}/resign", headers={"authorization": f"Bearer {token}"}
                    )
                    _unavailable_rest(resigned)  # on the master, not confirmed
                    await worker.until_logged("waits for its replicas")
                    assert receiver.lines() == []
                finally:
                    pair.thaw()
                lines = await receiver.until(
                    lambda lines: any("game.finished" in line["body"] for line in lines),
                    "the ending delivered once the replica has it",
                )
                finished = [
                    json.loads(line["body"]) for line in lines if "game.finished" in line["body"]
                ]
                assert finished[0]["data"]["gameId"] == game_id, finished


async def test_an_outbox_entry_is_deleted_only_once_the_replicas_hold_its_fan_out(
    pair: Pair, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker fans an outbox entry out into the tenant's slot (the message, the endpoint's
    queue and due set), then deletes it from the outbox. On a cluster the outbox (the lane's
    slot) and the tenant's slot are often on two masters: deleted while the fan-out is on the
    tenant's master only, the event is lost for good when that master fails over (a chaos run
    counted a `game.finished` that never arrived). With RULES_REPLICA_ACK the entry stays
    pending until the tenant's replicas hold its fan-out, and is fanned out again (no second
    delivery: the message id is stored) once its lease runs out. Here the replica freezes
    right after the outbox entry was confirmed, before the fan-out."""
    settings = dataclasses.replace(HOOKS_SETTINGS, **ACKED)
    quick = dataclasses.replace(
        settings, **UNCONFIRMED, webhook_timeout_seconds=1.0, worker_reclaim_seconds=1.0
    )
    confirmed = Deliverer._replicated

    async def then_frozen(self: Deliverer, lane: int, tenant: str) -> bool:
        replicated = await confirmed(self, lane, tenant)
        pair.freeze()
        return replicated

    with receiver_process() as receiver:
        await receiver.ready()
        redis = connect(Settings(), pair.master.url)
        store = RedisStore(connect(quick, pair.master.url), quick)
        deliverer = Deliverer(store, quick, "fan-out-test", ["acme"])
        try:
            async with client_for(create_app(settings, pair.master.url)) as http:
                created = await create_game(http, key=ACME, seed="ack-fan-out")
                game_id, token = created["game"]["id"], created["seats"][0]["token"]
                await register(redis, "acme", receiver.url("/ok"))
                resigned = await http.post(
                    f"/v1/games/{game_id}/resign", headers={"authorization": f"Bearer {token}"}
                )
                assert resigned.status_code == 200, resigned.text  # the replica has it
            outbox = outbox_key(lane_of(game_id), "acme")
            assert await redis.xlen(outbox) == 1
            monkeypatch.setattr(Deliverer, "_replicated", then_frozen)
            try:
                await deliverer._pass()
                assert await redis.exists(message_key("acme", f"msg_{game_id}.1.game.finished"))
                assert await redis.xlen(outbox) == 1, "deleted before the replica had its fan-out"
            finally:
                monkeypatch.undo()
                pair.thaw()

            async def deleted() -> bool:
                await deliverer._pass()
                return bool(await redis.xlen(outbox) == 0)

            await until(deleted, "the entry fanned out again once its lease ran out, and deleted")
            lines = await receiver.until(
                lambda lines: any("game.finished" in line["body"] for line in lines),
                "the ending delivered",
            )
            if deliverer.tasks:
                await asyncio.wait(deliverer.tasks)
            finished = [line for line in receiver.lines() if "game.finished" in line["body"]]
            assert len(finished) == 1, lines  # fanned out twice, queued and delivered once
        finally:
            await deliverer.client.aclose()
            await store.close()
            await redis.aclose()
