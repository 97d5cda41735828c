"""Webhooks that recover fast: a delivery to an endpoint drains
the games waiting there for a retry, in their order; the endpoint is FAILING while an event is
retrying; an event still retrying is sent by hand at once (GraphQL and REST); a signed test
event; and the payload schemas a receiver validates with accept added fields. Real worker and
receiver processes, the API on a Redis of its own; retries long enough (10 minutes) that only
a drain or a hand explains a prompt delivery."""

from __future__ import annotations

import json
import random
import secrets
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
from standardwebhooks import Webhook

from service.settings import Settings
from service.store import Client, RedisStore, connect
from service.webhooks.model import (
    EVENTS_PAGE,
    Attempt,
    due_key,
    events_key,
    message_id,
    message_key,
    queue_key,
    tries_key,
)
from service.webhooks.tenant_events import TenantEvents
from tests.support.tenants import ACME, GLOBEX, post
from tests.support.waiting import until
from tests.webhooks.harness import Hooks, hooks
from tests.webhooks.test_delivery import create, move, pass_the_turn, tenant_gql

SCHEMAS = Path("schema/webhooks")
CREATE_ENDPOINT = """
mutation($url: String!, $events: [WebhookEventType!]) {
  createWebhookEndpoint(url: $url, events: $events) { endpoint { id } secret }
}"""
STATUS = "query($id: ID!) { webhookEndpoint(id: $id) { status failingSince } }"
REST = "/v1/webhooks/endpoints"


async def endpoint(h: Hooks, url: str, events: list[str] | None = None) -> tuple[str, str]:
    """A new endpoint of acme's, through GraphQL: (id, secret)."""
    created = (await tenant_gql(h, CREATE_ENDPOINT, {"url": url, "events": events}))[
        "createWebhookEndpoint"
    ]
    return created["endpoint"]["id"], created["secret"]


async def status(h: Hooks, endpoint_id: str) -> dict[str, Any]:
    found: dict[str, Any] = (await tenant_gql(h, STATUS, {"id": endpoint_id}))["webhookEndpoint"]
    return found


def outcomes(log: list[Attempt]) -> list[tuple[int, str, int | None]]:
    return [(a.attempt, a.outcome, a.status) for a in log]


async def test_a_delivery_drains_the_games_waiting_for_a_retry_in_their_order() -> None:
    """A 10-minute pause after the second failure; once the receiver is back, the first
    event of another game is delivered and every event the first game held goes at once."""
    async with hooks(RULES_WEBHOOK_RETRY_SECONDS="0.2,600") as h:
        h.receiver.down("outage", True)
        endpoint_id, secret = await endpoint(h, h.receiver.url("/down/outage"))
        game, tokens = await create(h, ACME, ["alice", "bob"])
        game = await pass_the_turn(h, game, tokens, random.Random(5))  # queued behind the first
        log = await h.log("acme", endpoint_id, settled=2)
        assert outcomes(log) == [(1, "RETRYING", 503), (2, "RETRYING", 503)]
        shown = await status(h, endpoint_id)
        assert shown["status"] == "FAILING" and shown["failingSince"] is not None
        queue = queue_key("acme", endpoint_id, game["id"])

        async def queued() -> int | None:  # the worker fans the moves' events out meanwhile
            length = int(await h.redis.llen(queue))
            return length if length >= 2 else None

        waiting = await until(queued, "the first event and those queued behind it")
        h.receiver.down("outage", False)
        other, _ = await create(h, ACME, ["carol", "dave"])

        async def drained() -> bool:
            return not await h.redis.exists(queue)

        await until(drained, "the waiting game's queue drained (its own retry is 10 min away)")

        def answered() -> list[Any]:
            lines = h.receiver.lines("answered")
            return [json.loads(line["body"]) for line in lines if line["status"] == 204]

        def held() -> list[int]:
            return [b["data"]["version"] for b in answered() if b["data"]["gameId"] == game["id"]]

        # the receiver logs a request after answering it: wait for its log to show them all
        await until(lambda: len(held()) >= waiting, "the receiver logged every held event")
        assert held() == sorted(set(held())) and held()[0] == 0, held()
        first_of_other = next(
            i for i, b in enumerate(answered()) if b["data"]["gameId"] == other["id"]
        )
        assert first_of_other == 0, "the other game's event was the delivery that drained"
        for line in h.receiver.lines("answered"):
            Webhook(secret).verify(line["body"], line["headers"])
        await until(
            lambda: _healthy(h, endpoint_id), "HEALTHY once nothing is retrying", seconds=60
        )


async def _healthy(h: Hooks, endpoint_id: str) -> bool:
    shown = await status(h, endpoint_id)
    return bool(shown["status"] == "HEALTHY" and shown["failingSince"] is None)


async def test_a_retrying_event_is_sent_at_once_by_hand_through_graphql_and_rest() -> None:
    async with hooks(RULES_WEBHOOK_RETRY_SECONDS="600") as h:
        h.receiver.down("outage", True)
        by_graphql, _ = await endpoint(h, h.receiver.url("/down/outage"))
        by_rest, _ = await endpoint(h, h.receiver.url("/down/outage"))
        game, _ = await create(h, ACME, ["alice", "bob"])
        message = f"msg_{game['id']}.{game['version']}.turn.started"
        for endpoint_id in (by_graphql, by_rest):
            assert outcomes(await h.log("acme", endpoint_id, settled=1)) == [(1, "RETRYING", 503)]
        shown = await h.http.get(f"{REST}/{by_rest}", headers={"x-api-key": ACME})
        assert shown.json()["status"] == "FAILING"
        h.receiver.down("outage", False)

        retried = await tenant_gql(
            h,
            "mutation($e: ID!, $m: ID!) { retryWebhookEvent(endpointId: $e, eventId: $m) }",
            {"e": by_graphql, "m": message},
        )
        assert retried == {"retryWebhookEvent": True}
        log = await h.log("acme", by_graphql, settled=2)
        assert outcomes(log) == [(1, "RETRYING", 503), (2, "DELIVERED", 204)]
        assert log[1].message == message
        assert len(await h.log("acme", by_rest)) == 1, "the other endpoint still waits"

        answer = await h.http.post(
            f"{REST}/{by_rest}/events/{message}/retry", headers={"x-api-key": ACME}
        )
        assert answer.status_code == 202 and answer.json() == {"queued": True}
        log = await h.log("acme", by_rest, settled=2)
        assert outcomes(log) == [(1, "RETRYING", 503), (2, "DELIVERED", 204)]
        await until(lambda: _healthy(h, by_graphql), "HEALTHY after the delivery")
        await until(lambda: _healthy(h, by_rest), "HEALTHY after the delivery")

        # a delivered event is sent again by hand too (the manual queue), the same id
        answer = await h.http.post(
            f"{REST}/{by_rest}/events/{message}/retry", headers={"x-api-key": ACME}
        )
        assert answer.status_code == 202
        log = await h.log("acme", by_rest, settled=3)
        assert (log[2].message, log[2].outcome) == (message, "DELIVERED")

        unknown = f"msg_{game['id']}.99.turn.started"
        answer = await h.http.post(
            f"{REST}/{by_rest}/events/{unknown}/retry", headers={"x-api-key": ACME}
        )
        assert answer.status_code == 404 and answer.json()["code"] == "NOT_FOUND"
        body = await h.http.post(
            "/graphql",
            json={
                "query": "mutation($e: ID!, $m: ID!) "
                "{ retryWebhookEvent(endpointId: $e, eventId: $m) }",
                "variables": {"e": by_graphql, "m": unknown},
            },
            headers={"x-api-key": ACME},
        )
        assert body.json()["errors"][0]["extensions"]["code"] == "NOT_FOUND"


async def test_a_test_event_is_signed_and_sent_to_that_endpoint_only() -> None:
    async with hooks() as h:
        # subscribed to game.finished only: the test event comes anyway
        endpoint_id, secret = await endpoint(h, h.receiver.url("/ok"), ["GAME_FINISHED"])
        other_id, _ = await endpoint(h, h.receiver.url("/other"))
        sent = await tenant_gql(
            h, "mutation($e: ID!) { sendTestWebhookEvent(endpointId: $e) }", {"e": endpoint_id}
        )
        by_graphql = sent["sendTestWebhookEvent"]
        answer = await h.http.post(f"{REST}/{endpoint_id}/test", headers={"x-api-key": ACME})
        assert answer.status_code == 202
        by_rest = answer.json()["eventId"]
        assert by_graphql != by_rest and by_graphql.startswith("msg_test_")
        lines = await h.receiver.until(lambda lines: len(lines) == 2, "two test events")
        assert [line["headers"]["webhook-id"] for line in lines] == [by_graphql, by_rest]
        schema = json.loads((SCHEMAS / "webhook.test.json").read_text())
        for line in lines:
            assert line["path"] == "/ok"
            event = Webhook(secret).verify(line["body"], line["headers"])
            assert event["type"] == "webhook.test"
            assert event["data"] == {"endpointId": endpoint_id}
            jsonschema.validate(event, schema)
        await h.log("acme", endpoint_id, settled=2)
        deliveries = await tenant_gql(
            h,
            "query($id: ID!) { webhookEndpoint(id: $id) { deliveries { eventId eventType "
            "outcome } } }",
            {"id": endpoint_id},
        )
        assert deliveries["webhookEndpoint"]["deliveries"] == [
            {"eventId": by_rest, "eventType": "WEBHOOK_TEST", "outcome": "DELIVERED"},
            {"eventId": by_graphql, "eventType": "WEBHOOK_TEST", "outcome": "DELIVERED"},
        ]
        assert await h.log("acme", other_id) == []
        listed = await tenant_gql(h, "{ webhookEvents { edges { node { id } } } }", {})
        assert listed == {"webhookEvents": {"edges": []}}, "test events are not listed"
        missing = await h.http.post(f"{REST}/ep_AAAAAAAAAAAAAAAA/test", headers={"x-api-key": ACME})
        assert missing.status_code == 404


class Validating(BaseHTTPRequestHandler):
    """A receiver as a careful tenant writes one: the signature checked with the Standard
    Webhooks library, the body validated against the published schema of its type."""

    secret = ""
    answered: list[tuple[str, int]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["content-length"]))
        status = 204
        try:
            event = Webhook(self.secret).verify(body, dict(self.headers.items()))
            schema = json.loads((SCHEMAS / f"{event['type']}.json").read_text())
            jsonschema.validate(event, schema)
        except Exception:  # a receiver's refusal: 400, which the sender sees
            status = 400
        self.answered.append((self.headers["webhook-id"], status))
        self.send_response(status)
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def validating_receiver() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Validating)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/hook"
    finally:
        server.shutdown()
        server.server_close()


async def test_a_receiver_validating_the_published_schemas_accepts_an_added_field() -> None:
    """Finding 6: the schemas allow additive fields, so a receiver that validates keeps
    accepting events after the next additive release; `kind` is an enum."""
    for path in SCHEMAS.glob("*.json"):
        text = path.read_text()
        assert '"additionalProperties": false' not in text, path
        schema = json.loads(text)
        for component in schema["$defs"].values():
            if "kind" in component["properties"]:
                assert "TREELINGS" in component["properties"]["kind"]["enum"], path
    Validating.answered = []
    with validating_receiver() as url:
        async with hooks() as h:
            _, secret = await endpoint(h, url)
            Validating.secret = secret
            game, tokens = await create(h, ACME, ["alice", "bob"])
            chooser = random.Random(11)
            while game["status"] == "ACTIVE":
                game = await move(h, game, tokens, chooser)
            await until(  # a whole game's events, one after the other: on a busy machine too
                lambda: any(m.endswith("game.finished") for m, _ in Validating.answered),
                "the game's end delivered",
                seconds=180,
            )
            assert {s for _, s in Validating.answered} == {204}, Validating.answered
            # the next additive release: a field more in `data`, in a seat and in the envelope
            listed = await tenant_gql(
                h,
                "{ webhookEvents(first: 100, types: [GAME_FINISHED]) "
                "{ edges { node { id payload } } } }",
                {},
            )
            (node,) = [e["node"] for e in listed["webhookEvents"]["edges"]]
            later = dict(node["payload"], deliveryAttempt=1)
            later["data"] = dict(later["data"], durationSeconds=42)
            later["data"]["scores"][0] = dict(later["data"]["scores"][0], rating=1500)
            body = json.dumps(later)
            stamp = node["payload"]["timestamp"]
            signer = Webhook(secret)
            when = datetime.fromisoformat(stamp)
            headers = {
                "webhook-id": node["id"] + "-next",
                "webhook-timestamp": str(int(when.timestamp())),
                "webhook-signature": signer.sign(node["id"] + "-next", when, body),
                "content-type": "application/json",
            }
            async with httpx.AsyncClient() as client:
                answer = await client.post(url, content=body, headers=headers)
            assert answer.status_code == 204, "an added field is accepted"
            del later["data"]["winners"]  # and a missing required field is not: it validates
            body = json.dumps(later)
            headers["webhook-signature"] = signer.sign(headers["webhook-id"], when, body)
            async with httpx.AsyncClient() as client:
                answer = await client.post(url, content=body, headers=headers)
            assert answer.status_code == 400


EVENTS = """
query($after: String, $types: [WebhookEventType!], $first: Int) {
  webhookEvents(after: $after, types: $types, first: $first) {
    edges { cursor node { id type gameId createdAt payload } }
    pageInfo { hasNextPage endCursor }
  }
}"""


async def test_the_tenants_events_are_listed_by_cursor_to_catch_up() -> None:
    """A Stripe-style list: every event of the tenant (all types, whatever its endpoints
    subscribe to), oldest first, by opaque cursor, filtered by type, through GraphQL and
    REST; pages are bounded and an exact last page has no next one."""
    async with hooks() as h:
        await endpoint(h, h.receiver.url("/ok"), ["GAME_FINISHED"])
        game, tokens = await create(h, ACME, ["alice", "bob"])
        chooser = random.Random(3)
        while game["status"] == "ACTIVE":
            game = await move(h, game, tokens, chooser)
        await h.receiver.until(
            lambda lines: len(lines) == 1, "game.finished delivered", seconds=180
        )

        async def graphql_pages(first: int, types: list[str] | None = None) -> list[Any]:
            nodes: list[Any] = []
            after = None
            while True:
                variables = {"after": after, "types": types, "first": first}
                page = (await tenant_gql(h, EVENTS, variables))["webhookEvents"]
                assert len(page["edges"]) <= first
                assert all(e["cursor"].startswith("ev_") for e in page["edges"])
                nodes += [e["node"] for e in page["edges"]]
                if not page["pageInfo"]["hasNextPage"]:
                    return nodes
                after = page["pageInfo"]["endCursor"]

        nodes = await graphql_pages(2)
        versions = [n["payload"]["data"]["version"] for n in nodes]
        assert versions == sorted(versions) and versions[0] == 0, versions
        assert nodes[-1]["type"] == "GAME_FINISHED" and len(nodes) >= 3
        assert {n["type"] for n in nodes[:-1]} == {"TURN_STARTED"}
        for n in nodes:
            assert n["gameId"] == game["id"]
            assert (
                n["id"]
                == f"msg_{game['id']}.{n['payload']['data']['version']}." + (n["payload"]["type"])
            )
            assert datetime.fromisoformat(n["createdAt"]) == datetime.fromisoformat(
                n["payload"]["timestamp"]
            )
            schema = json.loads((SCHEMAS / f"{n['payload']['type']}.json").read_text())
            jsonschema.validate(n["payload"], schema)
        finished = await graphql_pages(20, ["GAME_FINISHED"])
        assert [n["id"] for n in finished] == [nodes[-1]["id"]]
        whole = (await tenant_gql(h, EVENTS, {"first": len(nodes)}))["webhookEvents"]
        assert whole["pageInfo"]["hasNextPage"] is False, "an exact last page has no next one"
        assert [e["node"]["id"] for e in whole["edges"]] == [n["id"] for n in nodes]

        rest: list[Any] = []
        params: dict[str, str] = {"first": "3"}
        while True:
            answer = await h.http.get(
                "/v1/webhooks/events", params=params, headers={"x-api-key": ACME}
            )
            assert answer.status_code == 200, answer.text
            page = answer.json()
            rest += page["events"]
            if not page["hasMore"]:
                break
            params["after"] = page["endCursor"]
        assert [e["id"] for e in rest] == [n["id"] for n in nodes]
        assert [e["payload"] for e in rest] == [n["payload"] for n in nodes]
        answer = await h.http.get(
            "/v1/webhooks/events",
            params={"types": "game.finished"},
            headers={"x-api-key": ACME},
        )
        assert [e["type"] for e in answer.json()["events"]] == ["game.finished"]

        others = await post(h.http, EVENTS, {}, GLOBEX)
        assert others["data"]["webhookEvents"]["edges"] == [], "another tenant's are not listed"
        for variables in ({"first": 0}, {"first": 101}, {"after": "nonsense"}):
            refused = await post(h.http, EVENTS, variables, ACME)
            assert refused["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT", refused
        for params in ({"first": "101"}, {"after": "ev_bm9wZQ"}, {"types": "game.nope"}):
            answer = await h.http.get(
                "/v1/webhooks/events", params=params, headers={"x-api-key": ACME}
            )
            assert answer.status_code in {400, 422}, (params, answer.text)
            assert answer.json()["code"] in {"BAD_REQUEST", "BAD_USER_INPUT"}


async def test_a_drained_attempt_that_fails_keeps_the_retry_it_had() -> None:
    """A receiver that refuses one game's events but takes the others': each delivery of the
    others drains the refused game (at most once per first pause), and those extra attempts
    use up none of its schedule: it is neither given up early nor pushed later."""
    async with hooks(RULES_WEBHOOK_RETRY_SECONDS="0.2,600") as h:
        h.receiver.refuse("poison", '"mallory')  # each of its events names a seat of hers
        endpoint_id, _ = await endpoint(h, h.receiver.url("/refuse/poison"))
        refused, _ = await create(h, ACME, ["mallory-1", "mallory-2"])

        async def waiting() -> float | None:
            score = await h.redis.zscore(due_key("acme", endpoint_id), refused["id"])
            tries = await h.redis.hget(tries_key("acme", endpoint_id), refused["id"])
            return score if tries == b"2" and score and score > time.time() + 300 else None

        scheduled = await until(waiting, "the refused game's retry 10 minutes away")
        for _ in range(3):
            other, _ = await create(h, ACME, ["carol", "dave"])

            async def drained_after(game_id: str = other["id"]) -> bool:
                log = await h.log("acme", endpoint_id)
                delivered = [a for a in log if a.game_id == game_id and a.outcome == "DELIVERED"]
                if not delivered:
                    return False
                later = [a for a in log if a.game_id == refused["id"] and a.at > delivered[0].at]
                return bool(later)

            await until(drained_after, "the refused game tried again after the delivery")
        log = await h.log("acme", endpoint_id)
        tried = [a for a in log if a.game_id == refused["id"]]
        assert all(a.outcome == "RETRYING" and a.status == 500 for a in tried[-3:]), tried
        assert all(a.attempt == 3 for a in tried[-3:]), "the same attempt each time: none used"
        assert not [a for a in log if a.outcome == "FAILED"], "not given up early"
        assert await h.redis.hget(tries_key("acme", endpoint_id), refused["id"]) == b"2"
        await until(  # (unless a drained attempt is in flight at this very moment)
            lambda: _score_within(h, endpoint_id, refused["id"], scheduled),
            "the refused game's retry where it was",
        )
        shown = await status(h, endpoint_id)
        assert shown["status"] == "FAILING", "one game still retrying"


async def _score_within(h: Hooks, endpoint_id: str, game_id: str, scheduled: float) -> bool:
    score = await h.redis.zscore(due_key("acme", endpoint_id), game_id)
    return score is not None and abs(score - scheduled) < 1


@pytest.fixture
async def redis(redis_url: str) -> AsyncIterator[Client]:
    client = connect(Settings(), redis_url)
    yield client
    await client.aclose()


async def test_a_listing_page_reads_a_bounded_number_of_entries(redis: Client) -> None:
    """However rare the asked-for type, a page reads at most EVENTS_SCAN entries and says
    where it stopped; `first` is capped at EVENTS_PAGE."""
    tenant = "bounded-" + secrets.token_hex(4)
    tenant_events = TenantEvents(RedisStore(redis, Settings()))
    rare = {1200, 1400}
    messages = []
    async with redis.pipeline(transaction=False) as pipe:
        for n in range(1500):
            kind = "game.finished" if n in rare else "turn.started"
            message = message_id(f"g{n}", 1, kind)
            messages.append(message)
            body = json.dumps({"type": kind, "timestamp": "2026-12-02T07:00:00.000Z", "data": {}})
            pipe.set(message_key(tenant, message), body, ex=600)
            pipe.xadd(events_key(tenant), {"m": message, "t": kind})
        await pipe.execute()
    page = await tenant_events.events(tenant, None, ["game.finished"], 20)
    assert page.events == [] and page.has_next and page.end_cursor
    page = await tenant_events.events(tenant, page.end_cursor, ["game.finished"], 20)
    assert [e.message for e in page.events] == [messages[n] for n in sorted(rare)]
    assert not page.has_next
    page = await tenant_events.events(tenant, None, None, 10_000)
    assert len(page.events) == EVENTS_PAGE and page.has_next
    assert [e.message for e in page.events] == messages[:EVENTS_PAGE]
