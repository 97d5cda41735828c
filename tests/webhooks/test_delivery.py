"""Webhook delivery end to end, in the fast tier: real
worker and receiver processes, the API on a Redis of their own. Events are signed as Standard
Webhooks (checked with its reference library), match their committed schemas, arrive exactly
for accepted changes and in order per game, are retried after errors and timeouts, survive a
worker killed mid-delivery, and a slow endpoint holds neither moves nor other tenants'
deliveries."""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import shutil
import signal
import subprocess
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
from standardwebhooks import Webhook

from service.store.jobs import LANES, lane_of
from service.store.outbox import outbox_key
from service.webhooks.model import (
    GROUP,
    Endpoint,
    endpoints_key,
    failed_key,
    failing_key,
)
from tests.support.play import create_game
from tests.support.tenants import ACME, GLOBEX, LEGAL, post
from tests.support.workers import worker_process
from tests.webhooks.harness import WORKER, Hooks, hooks, register

SCHEMAS = "schema/webhooks"
CREATE = """
mutation Create($input: CreateGameInput!) {
  createGame(input: $input) { game { id version toAct status } seats { seat token } }
}"""
MOVE = """
mutation Move($id: ID!, $move: JSON!, $expected: Int) {
  applyMove(input: {gameId: $id, move: $move, expectedVersion: $expected}) {
    __typename
    ... on MoveApplied { game { version toAct status scores { winners entries { seat points } } } }
    ... on MoveRejected { code }
  }
}"""


async def create(h: Hooks, key: str, players: list[str]) -> tuple[dict[str, Any], list[str]]:
    payload = await create_game(
        h.http, document=CREATE, key=key, players=len(players), playerIds=players
    )
    return payload["game"], [seat["token"] for seat in payload["seats"]]


async def move(
    h: Hooks, game: dict[str, Any], tokens: list[str], chooser: random.Random
) -> dict[str, Any]:
    """A random legal move of a seat to act; the game after it."""
    seat = chooser.choice(game["toAct"])
    legal = await post(h.http, LEGAL, {"id": game["id"]}, token=tokens[seat])
    choice = chooser.choice(legal["data"]["game"]["legalMoves"])["move"]
    variables = {"id": game["id"], "move": choice, "expected": game["version"]}
    result = (await post(h.http, MOVE, variables, token=tokens[seat]))["data"]["applyMove"]
    assert result["__typename"] == "MoveApplied", result
    return {**game, **result["game"]}


async def pass_the_turn(
    h: Hooks, game: dict[str, Any], tokens: list[str], chooser: random.Random
) -> dict[str, Any]:
    """Random legal moves until one starts another seat's turn (a turn.started event): a seat
    may decide several times in a row, which sends nothing, as a random deal decides."""
    for _ in range(30):
        acting = set(game["toAct"])
        game = await move(h, game, tokens, chooser)
        if set(game["toAct"]) - acting:
            return game
    raise AssertionError("no move passed the turn")


def verified(h: Hooks, endpoint: Endpoint) -> list[dict[str, Any]]:
    """Every request the receiver got, checked with the Standard Webhooks reference verifier."""
    bodies = []
    for line in h.receiver.lines():
        bodies.append(Webhook(endpoint.secret).verify(line["body"], line["headers"]))
    return bodies


async def test_a_game_arrives_signed_in_order_and_as_its_schemas_say() -> None:
    async with hooks() as h:
        endpoint = await register(h.redis, "acme", h.receiver.url("/ok"))
        game, tokens = await create(h, ACME, ["alice", "bob"])
        accepted, chooser, first_to_act = {game["version"]}, random.Random(7), game["toAct"]
        # refused moves change nothing and send nothing (RULINGS ALL-4: reasons stay private)
        bogus = {"id": game["id"], "move": {"type": "NONSENSE"}, "expected": game["version"]}
        refused = (await post(h.http, MOVE, bogus, token=tokens[0]))["data"]["applyMove"]
        assert refused["__typename"] == "MoveRejected"
        stale = {**bogus, "expected": game["version"] + 5}
        refused = (await post(h.http, MOVE, stale, token=tokens[0]))["data"]["applyMove"]
        assert refused == {"__typename": "MoveRejected", "code": "STALE_VERSION"}
        while game["status"] == "ACTIVE":
            game = await move(h, game, tokens, chooser)
            accepted.add(game["version"])
        await h.receiver.until(
            lambda lines: any('"game.finished"' in line["body"] for line in lines),
            "game.finished arrives",
        )
        bodies = verified(h, endpoint)
        ids = [line["headers"]["webhook-id"] for line in h.receiver.lines()]
        assert len(set(ids)) == len(ids), "a 2xx endpoint gets each message once"
        versions = [body["data"]["version"] for body in bodies]
        assert versions == sorted(versions), "in the order of the game's versions"
        assert set(versions) <= accepted, "events only for accepted changes"
        for body, message in zip(bodies, ids, strict=True):
            with open(f"{SCHEMAS}/{body['type']}.json") as schema:
                jsonschema.validate(body, json.load(schema))
            assert message == f"msg_{game['id']}.{body['data']['version']}.{body['type']}"
        first, last = bodies[0], bodies[-1]
        assert first["type"] == "turn.started" and first["data"]["version"] == min(accepted)
        names = ["alice", "bob"]
        assert first["data"]["seats"] == [{"seat": s, "playerId": names[s]} for s in first_to_act]
        assert [b["type"] for b in bodies[1:-1]] == ["turn.started"] * (len(bodies) - 2)
        assert last["type"] == "game.finished" and last["data"]["reason"] == "RULES"
        assert last["data"]["winners"] == game["scores"]["winners"]
        points = {e["seat"]: e["points"] for e in game["scores"]["entries"]}
        assert {s["seat"]: s["points"] for s in last["data"]["scores"]} == points
        assert {s["playerId"] for s in last["data"]["scores"]} == {"alice", "bob"}


async def test_a_takeback_arrives_signed_as_its_schema_says() -> None:
    """game.takeback reaches the endpoint like every event, signed and in order."""
    async with hooks() as h:
        endpoint = await register(h.redis, "acme", h.receiver.url("/ok"))
        payload = await create_game(
            h.http,
            document=CREATE,
            key=ACME,
            players=2,
            seed="tb-TREELINGS",
            playerIds=["alice", "bob"],
            takebacks="OWN_DECISIONS",
        )
        game, token = payload["game"], payload["seats"][0]["token"]
        move = {"type": "takeColour", "colour": "green"}  # draws nothing: seat 0 goes on
        variables = {"id": game["id"], "move": move, "expected": game["version"]}
        moved = (await post(h.http, MOVE, variables, token=token))["data"]["applyMove"]
        assert moved["__typename"] == "MoveApplied", moved
        taken = await post(h.http, TAKEBACK, {"id": game["id"]}, token=token)
        assert taken["data"]["requestTakeback"]["__typename"] == "MoveApplied", taken
        await h.receiver.until(
            lambda lines: any('"game.takeback"' in line["body"] for line in lines),
            "game.takeback arrives",
        )
        bodies = verified(h, endpoint)
        (body,) = [b for b in bodies if b["type"] == "game.takeback"]
        with open(f"{SCHEMAS}/game.takeback.json") as schema:
            jsonschema.validate(body, json.load(schema))
        assert body["data"] == {
            "gameId": game["id"],
            "kind": "TREELINGS",
            "version": game["version"] + 2,
            "seat": 0,
            "playerId": "alice",
            "toVersion": game["version"],
            "agreedBy": [],
        }


TAKEBACK = """
mutation Takeback($id: ID!) { requestTakeback(gameId: $id) { __typename } }"""


async def test_errors_and_timeouts_are_retried_with_the_same_id() -> None:
    async with hooks(metrics=True, RULES_WEBHOOK_TIMEOUT_SECONDS="2") as h:
        failing = await register(h.redis, "acme", h.receiver.url("/fail-first/2"))
        hanging = await register(h.redis, "acme", h.receiver.url("/hold-first"))
        game, _ = await create(h, ACME, ["alice", "bob"])
        message = f"msg_{game['id']}.{game['version']}.turn.started"

        def answered(path: str, count: int) -> Any:
            return lambda lines: sum(line["path"] == path for line in lines) >= count

        await h.receiver.until(answered("/fail-first/2", 3), "a third try", "answered")
        await h.receiver.until(answered("/hold-first", 1), "a try after a timeout", "answered")
        for line in h.receiver.lines():
            assert line["headers"]["webhook-id"] == message
        log = await h.log("acme", failing.id, settled=3)
        assert [(a.attempt, a.outcome, a.status) for a in log] == [
            (1, "RETRYING", 500),
            (2, "RETRYING", 500),
            (3, "DELIVERED", 200),
        ]
        assert log[0].error == "HTTP 500" and log[0].message == message
        log = await h.log("acme", hanging.id, settled=2)
        assert [(a.attempt, a.outcome, a.error) for a in log] == [
            (1, "RETRYING", "timeout"),
            (2, "DELIVERED", ""),
        ]
        wanted = [
            'rules_webhook_attempts_total{outcome="retrying"} 3.0',
            'rules_webhook_attempts_total{outcome="delivered"} 2.0',
            "rules_webhook_tries_count 2.0",
        ]
        async with httpx.AsyncClient() as client, asyncio.timeout(60):
            while True:
                exported = (await client.get(f"http://127.0.0.1:{h.metrics_port}/metrics")).text
                if all(line in exported for line in wanted):
                    break
                await asyncio.sleep(0.05)


async def test_a_worker_killed_mid_delivery_leaves_it_to_another() -> None:
    async with hooks(RULES_WEBHOOK_TIMEOUT_SECONDS="4") as h:
        endpoint = await register(h.redis, "acme", h.receiver.url("/hold-first"))
        game, _ = await create(h, ACME, ["alice", "bob"])
        await h.receiver.until(lambda lines: len(lines) == 1, "the first try is held")
        h.worker.process.send_signal(signal.SIGKILL)
        h.worker.process.wait(30)
        settings = {**WORKER, "RULES_WEBHOOK_TIMEOUT_SECONDS": "4"}
        with worker_process(h.redis_url, **settings):
            lines = await h.receiver.until(lambda lines: len(lines) == 1, "redelivered", "answered")
            log = await h.log("acme", endpoint.id, settled=1)
        message = f"msg_{game['id']}.{game['version']}.turn.started"
        assert [line["headers"]["webhook-id"] for line in h.receiver.lines()] == [message] * 2
        assert lines[0]["nth"] == 2 and lines[0]["status"] == 200
        assert [(a.attempt, a.outcome) for a in log] == [(1, "DELIVERED")]


async def test_a_slow_endpoint_holds_neither_moves_nor_other_tenants() -> None:
    async with hooks() as h:
        await register(h.redis, "acme", h.receiver.url("/slow/4"))
        await register(h.redis, "globex", h.receiver.url("/ok"))
        game, tokens = await create(h, ACME, ["alice", "bob"])
        await h.receiver.until(lambda lines: len(lines) == 1, "acme's first event is held")
        chooser = random.Random(3)
        game = await pass_the_turn(h, game, tokens, chooser)  # answered while the endpoint sleeps
        await create(h, GLOBEX, ["carol", "dave"])
        await h.receiver.until(
            lambda lines: any(line["path"] == "/ok" for line in lines), "globex is served"
        )
        assert not [line for line in h.receiver.lines("answered") if line["path"] != "/ok"], (
            "globex's event and acme's moves went through while acme's endpoint still held the "
            "first request"
        )
        # order per game: acme's next event goes out only once the first one was answered
        arrived = await h.receiver.until(
            lambda lines: sum(line["path"] != "/ok" for line in lines) >= 2, "acme's second event"
        )
        acme = [line for line in arrived if line["path"] != "/ok"]
        first_answered = next(
            line for line in h.receiver.lines("answered") if line["path"] != "/ok"
        )
        assert acme[1]["at"] >= first_answered["at"]
        versions = [json.loads(line["body"])["data"]["version"] for line in acme]
        assert versions == sorted(versions)


async def test_retries_used_up_fail_the_event_and_mark_the_endpoint_failing() -> None:
    async with hooks(RULES_WEBHOOK_RETRY_SECONDS="0.2,0.2") as h:
        endpoint = await register(
            h.redis, "acme", h.receiver.url("/status/302")
        )  # a redirect is not followed
        game, _ = await create(h, ACME, ["alice", "bob"])
        await h.receiver.until(lambda lines: len(lines) == 3, "three tries", "answered")
        message = f"msg_{game['id']}.{game['version']}.turn.started"
        log = await h.log("acme", endpoint.id, settled=3)
        assert [(a.attempt, a.outcome, a.status) for a in log] == [
            (1, "RETRYING", 302),
            (2, "RETRYING", 302),
            (3, "FAILED", 302),
        ]
        assert await h.redis.zrange(failed_key("acme", endpoint.id), 0, -1) == [message.encode()]
        assert await h.redis.hexists(failing_key("acme"), endpoint.id)
        assert {line["path"] for line in h.receiver.lines()} == {"/status/302"}


async def test_a_private_address_is_refused_at_delivery_too() -> None:
    """An endpoint saved while its name resolved outward and pointing inward now (DNS
    rebinding) is caught by the check made before every attempt; so is an IPv6 form of the
    metadata address."""
    async with hooks(RULES_WEBHOOK_ALLOW_PRIVATE="0", RULES_WEBHOOK_RETRY_SECONDS="0.2") as h:
        loopback = await register(h.redis, "acme", h.receiver.url("/ok"))
        nat64 = await register(h.redis, "acme", "http://[64:ff9b::a9fe:a9fe]/hook")
        await create(h, ACME, ["alice", "bob"])

        async def failed(endpoint: Endpoint) -> bool:
            return any(a.outcome == "FAILED" for a in await h.log("acme", endpoint.id))

        for endpoint, why in ((loopback, "loopback"), (nat64, "NAT64 of 169.254.169.254")):
            async with asyncio.timeout(60):
                while not await failed(endpoint):
                    await asyncio.sleep(0.05)
            log = await h.log("acme", endpoint.id)
            assert all(a.error.startswith("address not allowed") for a in log), log
            assert all(why in a.error for a in log), log
            assert all(a.status is None for a in log)
        assert h.receiver.lines() == []


async def test_a_token_in_a_receiver_url_never_reaches_the_worker_log() -> None:
    """httpx logs every request's method and URL at INFO, and a webhook URL may carry
    a tenant's token; the worker keeps third-party loggers at WARNING (service/logs.py)."""
    token = "s3cr3t" + secrets.token_hex(8)
    async with hooks(LOG_LEVEL="debug") as h:
        endpoint = await register(h.redis, "acme", h.receiver.url(f"/ok?token={token}"))
        await create(h, ACME, ["alice", "bob"])
        # settled once the receiver answered: after whatever httpx logs of the request
        (delivered, *_) = await h.log("acme", endpoint.id, settled=1)
        assert delivered.outcome == "DELIVERED" and delivered.status == 200, delivered
        assert token in h.receiver.lines()[0]["path"], "the URL did carry the token"
        # the worker logs the attempt just after settling it
        await h.worker.until_logged(f"webhook {delivered.message} to {endpoint.id} attempt 1")
        logged = h.worker.output()
        assert token not in logged, logged


async def test_an_unreadable_endpoint_leaves_the_tenants_other_endpoints_delivering() -> None:
    """One endpoint record the worker cannot decode is left out of its passes (logged
    once), and the tenant's other endpoint still gets its events."""
    async with hooks() as h:
        broken = await register(h.redis, "acme", h.receiver.url("/broken"))
        await h.redis.hset(endpoints_key("acme"), broken.id, b"\xc1 not msgpack")
        endpoint = await register(h.redis, "acme", h.receiver.url("/ok"))
        await create(h, ACME, ["alice", "bob"])
        (delivered, *_) = await h.log("acme", endpoint.id, settled=1)
        assert delivered.outcome == "DELIVERED", delivered
        assert all(line["path"] == "/ok" for line in h.receiver.lines())
        logged = h.worker.output()
        assert logged.count(f"webhook endpoint {broken.id} of acme unreadable") == 1, logged
        assert "Traceback" not in logged, logged


async def test_an_outbox_entry_a_dead_worker_took_is_fanned_out_by_another() -> None:
    async with hooks(RULES_WEBHOOK_TIMEOUT_SECONDS="2") as h:
        await register(h.redis, "acme", h.receiver.url("/ok"))
        keys = [outbox_key(lane, "acme") for lane in range(LANES)]
        async with asyncio.timeout(60):  # the worker made its groups (and so the streams)
            while await h.redis.exists(*keys) < LANES:
                await asyncio.sleep(0.05)
        h.worker.process.send_signal(signal.SIGSTOP)  # so that the "dead" consumer reads first
        try:
            game, _ = await create(h, ACME, ["alice", "bob"])
            key = outbox_key(lane_of(game["id"]), "acme")
            taken = await h.redis.xreadgroup(GROUP, "dead-worker", {key: ">"}, count=10)
            assert len(taken[0][1]) == 1
        finally:
            h.worker.process.send_signal(signal.SIGCONT)
        lines = await h.receiver.until(lambda lines: len(lines) == 1, "fanned out after all")
        assert lines[0]["headers"]["webhook-id"] == f"msg_{game['id']}.0.turn.started"
        assert await h.redis.xlen(key) == 0


ENDPOINT = """
query Endpoint($id: ID!) {
  webhookEndpoint(id: $id) {
    status failingSince
    failedEvents { eventId eventType gameId }
    deliveries(last: 5) { eventId outcome attempt httpStatus error }
  }
}"""


async def tenant_gql(h: Hooks, query: str, variables: dict[str, Any]) -> dict[str, Any]:
    body = await post(h.http, query, variables, ACME)
    assert "errors" not in body, body
    data: dict[str, Any] = body["data"]
    return data


async def test_a_given_up_event_is_redelivered_through_the_api_once_the_receiver_is_fixed() -> None:
    async with hooks(RULES_WEBHOOK_RETRY_SECONDS="0.2") as h:
        created = await tenant_gql(
            h,
            "mutation($url: String!) { createWebhookEndpoint(url: $url, events: [TURN_STARTED]) "
            "{ endpoint { id } secret } }",
            {"url": h.receiver.url("/status/500")},
        )
        endpoint_id = created["createWebhookEndpoint"]["endpoint"]["id"]
        secret = created["createWebhookEndpoint"]["secret"]
        game, _ = await create(h, ACME, ["alice", "bob"])
        message = f"msg_{game['id']}.{game['version']}.turn.started"

        async def endpoint() -> dict[str, Any]:
            found: dict[str, Any] = (await tenant_gql(h, ENDPOINT, {"id": endpoint_id}))[
                "webhookEndpoint"
            ]
            return found

        async with asyncio.timeout(60):  # FAILING from the first failed attempt on
            while not (seen := await endpoint())["failedEvents"]:
                await asyncio.sleep(0.05)
        assert seen["status"] == "FAILING"
        assert seen["failedEvents"] == [
            {"eventId": message, "eventType": "TURN_STARTED", "gameId": game["id"]}
        ]
        assert [(d["attempt"], d["outcome"], d["httpStatus"]) for d in seen["deliveries"]] == [
            (2, "FAILED", 500),
            (1, "RETRYING", 500),
        ]
        await tenant_gql(
            h,
            "mutation($id: ID!, $url: String!) { updateWebhookEndpoint(id: $id, url: $url) { id } }",
            {"id": endpoint_id, "url": h.receiver.url("/ok")},
        )
        redelivered = await tenant_gql(
            h,
            "mutation($e: ID!, $m: ID!) { redeliverWebhookEvent(endpointId: $e, eventId: $m) }",
            {"e": endpoint_id, "m": message},
        )
        assert redelivered == {"redeliverWebhookEvent": True}
        lines = await h.receiver.until(
            lambda lines: any(line["path"] == "/ok" for line in lines), "redelivered", "answered"
        )
        (fixed,) = [line for line in lines if line["path"] == "/ok"]
        assert Webhook(secret).verify(fixed["body"], fixed["headers"])["type"] == "turn.started"
        assert fixed["headers"]["webhook-id"] == message
        # the worker settles it after the receiver answered; one query reads the endpoint's
        # status and its log in two steps, so it may see the log settled and the status not yet
        async with asyncio.timeout(60):
            while (seen := await endpoint())["deliveries"][0]["outcome"] != "DELIVERED" or (
                seen["status"] != "HEALTHY"
            ):
                await asyncio.sleep(0.05)
        assert seen["failingSince"] is None
        assert seen["failedEvents"] == []
        assert seen["deliveries"][0] == {
            "eventId": message,
            "outcome": "DELIVERED",
            "attempt": 1,
            "httpStatus": 204,
            "error": None,
        }


async def test_a_tenant_with_slow_endpoints_takes_half_of_a_workers_attempts_at_most() -> None:
    # two attempts per worker: one for acme at most, so globex is never starved by it
    async with hooks(RULES_WEBHOOK_CONCURRENCY="2") as h:
        for _ in range(2):
            await register(h.redis, "acme", h.receiver.url("/slow/4"))
        await create(h, ACME, ["alice", "bob"])
        await h.receiver.until(lambda lines: len(lines) == 1, "one of acme's two is held")
        await register(h.redis, "globex", h.receiver.url("/ok"))
        await create(h, GLOBEX, ["carol", "dave"])
        await h.receiver.until(
            lambda lines: any(line["path"] == "/ok" for line in lines), "globex served", "answered"
        )
        assert [line["path"] for line in h.receiver.lines()] == ["/slow/4", "/ok"]
        assert [line["path"] for line in h.receiver.lines("answered")] == ["/ok"]
        await h.receiver.until(lambda lines: len(lines) == 3, "acme's second after its first")


def certificate(directory: Path, name: str) -> tuple[str, str]:
    """A self-signed certificate for `name` and its key (openssl), as files."""
    cert, key = directory / f"{name}.pem", directory / f"{name}.key"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-keyout", str(key), "-out", str(cert), "-subj", f"/CN={name}",
         "-addext", f"subjectAltName=DNS:{name}"],
        check=True, capture_output=True,
    )  # fmt: skip
    return str(cert), str(key)


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl for a certificate")
@pytest.mark.parametrize("named", ["localhost", "elsewhere.test"])
async def test_https_is_pinned_to_the_checked_address_and_verified_against_the_name(
    tmp_path: Path, named: str
) -> None:
    """The attempt connects to the address it checked, with the URL's host name as TLS server
    name: a certificate for that name (from RULES_WEBHOOK_CA_FILE) is accepted, one for another
    name is refused, though both come from a trusted CA."""
    cert, key = certificate(tmp_path, named)
    async with hooks(tls=(cert, key), RULES_WEBHOOK_CA_FILE=cert) as h:
        endpoint = await register(h.redis, "acme", h.receiver.url("/ok"))
        await create(h, ACME, ["alice", "bob"])
        (first, *_) = await h.log("acme", endpoint.id, settled=1)
    if named == "localhost":
        assert (first.outcome, first.status) == ("DELIVERED", 204)
        (line,) = h.receiver.lines()
        assert line["headers"]["host"] == f"localhost:{h.receiver.port}"
    else:
        assert first.outcome == "RETRYING" and first.status is None
        assert "CERTIFICATE_VERIFY_FAILED" in first.error and "://" not in first.error
        assert h.receiver.lines() == []
