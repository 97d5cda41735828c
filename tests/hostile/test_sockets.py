"""Hostile WebSocket clients against real service processes (graphql-transport-ws)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import redis.asyncio as aioredis
import websockets

from tests.hostile.ws import (
    SUBSCRIBE,
    WAIT,
    closed_with,
    connect,
    create_game,
    one_window,
    operate,
    receive,
)
from tests.support import gql
from tests.support.processes import service_processes

# one worker runs the module, so its service processes start once, not once per worker
pytestmark = pytest.mark.xdist_group("sockets")

LIMITED = {
    "RULES_RATE_LIMIT_PER_TOKEN": "5",
    "RULES_RATE_LIMIT_PER_ADDRESS": "0",
    "RULES_MAX_SOCKETS_PER_ADDRESS": "6",
    "RULES_MAX_SUBSCRIPTIONS_PER_SOCKET": "2",
    "RULES_MAX_SUBSCRIPTIONS_PER_ADDRESS": "3",
    "RULES_SUBSCRIBER_QUEUE": "2",
    "LOG_LEVEL": "info",
}


@pytest.fixture(scope="module")
def log() -> Iterator[tempfile._TemporaryFileWrapper[bytes]]:
    with tempfile.NamedTemporaryFile() as file:
        yield file


@pytest.fixture(scope="module")
def limited(redis_url: str, log: tempfile._TemporaryFileWrapper[bytes]) -> Iterator[str]:
    with service_processes(redis_url, 1, LIMITED, log) as urls:
        yield urls[0]


async def test_operations_on_a_socket_run_as_its_connection_init_token(limited: str) -> None:
    game, tokens = await create_game(limited, "identity")
    socket = await connect(limited, tokens[1])
    await operate(socket, "q", gql.GAME, {"id": game["id"]})
    answer = await receive(socket)
    assert answer["payload"]["data"]["game"]["viewer"] == 1, answer
    await socket.close()


@pytest.mark.parametrize(
    "authorization", ["Token {t}", "{t}", "Bearer 00{t}", "Bearer {t}x", "Bearer", 42]
)
async def test_a_bad_socket_credential_is_refused_never_read_as_a_spectator(
    limited: str, authorization: object
) -> None:
    game, tokens = await create_game(limited, "bad-credential")
    socket = await connect(limited, init=False)
    if isinstance(authorization, str):
        authorization = authorization.format(t=tokens[0])
    payload = {"authorization": authorization}
    await socket.send(json.dumps({"type": "connection_init", "payload": payload}))
    assert (await receive(socket))["type"] == "connection_ack"
    await operate(socket, "q", gql.GAME, {"id": game["id"]})
    answer = await receive(socket)
    assert answer["payload"]["errors"][0]["extensions"]["code"] == "UNAUTHORIZED", answer
    await socket.close()


async def test_socket_operations_count_against_the_token_rate_limit(limited: str) -> None:
    for _ in range(3):  # again if a busy machine let the minute's window roll over meanwhile
        await one_window()
        window = int(time.time() // 60)
        game, tokens = await create_game(limited, "socket-limits")
        socket = await connect(limited, tokens[0])
        codes = []
        for n in range(8):
            await operate(socket, f"q{n}", gql.GAME, {"id": game["id"]})
            answer = await receive(socket)
            payload = answer["payload"]
            errors = payload if answer["type"] == "error" else payload.get("errors")
            codes.append(errors[0]["extensions"]["code"] if errors else "OK")
            if answer["type"] == "next":
                assert (await receive(socket))["type"] == "complete"
        async with httpx.AsyncClient(base_url=limited, timeout=WAIT) as http:
            refused = await http.post(
                "/graphql",
                json={"query": gql.GAME, "variables": {"id": game["id"]}},
                headers={"authorization": f"Bearer {tokens[0]}"},
            )
        await socket.close()
        if int(time.time() // 60) == window:
            break
    assert codes == ["OK"] * 5 + ["RATE_LIMITED"] * 3
    assert refused.status_code == 429, "HTTP and the socket share one allowance"


async def test_subscriptions_per_socket_and_per_address_are_limited(limited: str) -> None:
    game, _ = await create_game(limited, "subscription-limits")
    first, second = await connect(limited), await connect(limited)
    for n in range(3):
        await operate(first, f"s{n}", SUBSCRIBE, {"id": game["id"]})
    answers = [await receive(first) for _ in range(3)]
    refused = [a for a in answers if a["type"] == "error"]
    assert len(refused) == 1 and refused[0]["id"] == "s2", answers
    assert refused[0]["payload"][0]["extensions"]["code"] == "TOO_MANY_SUBSCRIPTIONS"
    await operate(second, "t0", SUBSCRIBE, {"id": game["id"]})
    assert (await receive(second))["type"] == "next"
    await operate(second, "t1", SUBSCRIBE, {"id": game["id"]})
    answer = await receive(second)
    assert answer["type"] == "error", "the address holds 3 live subscriptions already"
    assert answer["payload"][0]["extensions"]["code"] == "TOO_MANY_SUBSCRIPTIONS"
    await first.send(json.dumps({"id": "s0", "type": "complete"}))
    async with asyncio.timeout(WAIT):
        while True:  # the completed subscription's slot comes back
            await operate(second, "t2", SUBSCRIBE, {"id": game["id"]})
            answer = await receive(second)
            if answer["type"] == "next":
                break
    await first.close()
    await second.close()


async def test_sockets_per_address_are_limited_with_a_close_code(limited: str) -> None:
    sockets = [await connect(limited) for _ in range(6)]
    extra = await connect(limited, init=False)
    code, reason = await closed_with(extra)
    assert code == 4429 and reason.startswith("TOO_MANY_SOCKETS"), (code, reason)
    await sockets.pop().close()
    async with asyncio.timeout(WAIT):
        while True:  # the closed socket's place comes back
            retry = await connect(limited, init=False)
            try:
                await retry.send(json.dumps({"type": "connection_init", "payload": {}}))
                if (await receive(retry))["type"] == "connection_ack":
                    break
            except websockets.ConnectionClosed:  # refused again (4429): the slot is not back yet
                continue
    await retry.close()
    for socket in sockets:
        await socket.close()


@pytest.mark.parametrize(
    "frame",
    [
        "not json",
        "42",
        "[]",
        "null",
        '{"type": 5}',
        '{"type": "subscribe"}',
        '{"type": "subscribe", "id": 7, "payload": {"query": "{ catalog { kind } }"}}',
        '{"type": "subscribe", "id": "x", "payload": "query"}',
        '{"type": "subscribe", "id": "x", "payload": {"query": 1}}',
        '{"type": "subscribe", "id": "x", "payload": {"query": "{ catalog { kind } }", "variables": []}}',
        '{"type": "subscribe", "id": "'
        + "x" * 500
        + '", "payload": {"query": "{ catalog { kind } }"}}',
        '{"type": "subscribe", "id": "x", "payload": {"query": "{ catalog { kind } }", "variables": {"a": '
        + "[" * 3000
        + "]" * 3000
        + "}}}",
        '{"type": "nonsense"}',
    ],
)
async def test_a_frame_that_is_not_a_protocol_message_closes_with_4400(
    limited: str, frame: str
) -> None:
    socket = await connect(limited)
    await socket.send(frame)
    code, _ = await closed_with(socket)
    assert code == 4400


DOCUMENTS = [  # each once a masked INTERNAL_SERVER_ERROR, a bare complete or no answer at all,
    # and a traceback in the log
    ({"query": ""}, "BAD_REQUEST"),
    ({"query": "   "}, "GRAPHQL_PARSE_FAILED"),
    ({"query": "subscription { gameEvents(gameId: "}, "GRAPHQL_PARSE_FAILED"),
    ({"query": "{ game(id: \"x\") { history(after: " + "9" * 60 + ") { version } } }"}, "GRAPHQL_PARSE_FAILED"),
    ({"query": "{ " + " ".join("catalog { kind }" for _ in range(200)) + " }"}, "GRAPHQL_PARSE_FAILED"),
    ({"query": "subscription A { gameEvents(gameId: \"x\") { version } }", "operationName": "B"}, "BAD_REQUEST"),
    ({"query": "subscription A { gameEvents(gameId: \"x\") { version } }", "operationName": ""}, "BAD_REQUEST"),
    ({"query": "fragment F on Subscription { gameEvents(gameId: \"x\") { version } }"}, "BAD_REQUEST"),
]  # fmt: skip


@pytest.mark.parametrize("protocol", ["graphql-transport-ws", "graphql-ws"])
@pytest.mark.parametrize(("payload", "code"), DOCUMENTS)
async def test_a_document_that_cannot_run_is_refused_typed_without_a_traceback(
    limited: str,
    log: tempfile._TemporaryFileWrapper[bytes],
    protocol: str,
    payload: dict[str, str],
    code: str,
) -> None:
    before = len(Path(log.name).read_bytes())
    socket = await connect(limited, protocol=protocol)
    kind = "subscribe" if protocol == "graphql-transport-ws" else "start"
    await socket.send(json.dumps({"id": "d", "type": kind, "payload": payload}))
    answer = await receive(socket)
    assert answer["type"] == "error" and answer["id"] == "d", answer
    errors = answer["payload"] if isinstance(answer["payload"], list) else [answer["payload"]]
    assert errors[0]["extensions"]["code"] == code, answer
    if protocol == "graphql-transport-ws":  # the socket goes on
        await socket.send(json.dumps({"type": "ping"}))
        assert (await receive(socket))["type"] == "pong"
    else:  # this protocol has no ping: a subscription of a game that does not exist
        missing = {"query": SUBSCRIBE, "variables": {"id": "missing"}}
        await socket.send(json.dumps({"id": "m", "type": "start", "payload": missing}))
        assert (await receive(socket))["payload"]["errors"][0]["extensions"]["code"] == "NOT_FOUND"
    await socket.close()
    text = Path(log.name).read_bytes()[before:].decode(errors="replace")
    assert "Traceback" not in text, text[-3000:]


async def test_a_message_larger_than_a_body_may_be_closes_with_4400(limited: str) -> None:
    socket = await connect(limited)
    document = "{ " + "catalog " * 9000 + "}"  # 72 KB: over RULES_MAX_BODY_BYTES (64 KiB)
    await operate(socket, "big", document, {})
    assert (await closed_with(socket))[0] == 4400


async def test_binary_frames_close_with_4400(limited: str) -> None:
    socket = await connect(limited)
    await socket.send(b'{"type": "ping"}')
    assert (await closed_with(socket))[0] == 4400


async def test_a_subscriber_that_falls_behind_is_dropped_with_4413(
    limited: str, redis_url: str
) -> None:
    game, _ = await create_game(limited, "slow")
    socket = await connect(limited)
    await operate(socket, "s", SUBSCRIBE, {"id": game["id"]})
    assert (await receive(socket))["type"] == "next"
    channel = f"g:{{{game['id']}}}:events"
    from service.settings import Settings
    from service.store import connect as connect_redis

    publisher = connect_redis(Settings(), redis_url)
    try:
        async with publisher.pipeline(transaction=False) as pipe:
            for version in range(1, 3001):  # a burst, as another replica's moves would be
                event = {"gameId": game["id"], "version": version, "status": "ACTIVE"}
                command = "SPUBLISH" if "cluster" in redis_url else "PUBLISH"
                pipe.execute_command(command, channel, json.dumps(event))
            await pipe.execute()
    finally:
        await publisher.aclose()
    code, reason = await closed_with(socket)
    assert code == 4413 and reason.startswith("SLOW_CONSUMER"), (code, reason)


async def test_socket_churn_writes_no_traceback(
    limited: str, log: tempfile._TemporaryFileWrapper[bytes]
) -> None:
    game, _ = await create_game(limited, "churn")
    for _ in range(20):
        socket = await connect(limited)
        await operate(socket, "s", SUBSCRIBE, {"id": game["id"]})
        await operate(socket, "q", gql.GAME, {"id": game["id"]})
        socket.transport.abort()  # gone mid-operation, as a phone losing signal
    async with httpx.AsyncClient(base_url=limited, timeout=WAIT) as http:
        assert (await http.get("/healthz")).status_code == 200
    text = Path(log.name).read_text(errors="replace")
    assert "Traceback" not in text and "Cannot call" not in text, text[-3000:]


async def test_one_pubsub_connection_serves_every_subscriber_and_leaves_no_channel(
    redis_url: str,
) -> None:
    if "cluster" in redis_url:
        pytest.skip("counts the clients of one server")
    client = aioredis.Redis.from_url(redis_url)
    before = len(await client.client_list(_type="pubsub"))
    with service_processes(redis_url, 1) as urls:
        games = [(await create_game(urls[0], f"fan-{n}"))[0] for n in range(5)]
        sockets = []
        for n in range(40):
            socket = await connect(urls[0])
            await operate(socket, "s", SUBSCRIBE, {"id": games[n % 5]["id"]})
            assert (await receive(socket))["type"] == "next"
            sockets.append(socket)
        assert len(await client.client_list(_type="pubsub")) == before + 1
        channels = [f"g:{{{g['id']}}}:events" for g in games]
        assert all(n == 1 for _, n in await client.pubsub_numsub(*channels))
        for socket in sockets:
            await socket.close()
        async with asyncio.timeout(WAIT):
            while any(n for _, n in await client.pubsub_numsub(*channels)):
                await asyncio.sleep(0.05)  # polling Redis for the outcome, bounded above
    await client.aclose()


async def test_socket_operations_on_one_replica_use_up_the_allowance_on_another(
    redis_url: str,
) -> None:
    env = {"RULES_RATE_LIMIT_PER_TOKEN": "4", "RULES_RATE_LIMIT_PER_ADDRESS": "0",
           "RULES_RATE_LIMIT_SYNC_SECONDS": "0.02"}  # fmt: skip
    client = aioredis.Redis.from_url(redis_url) if "cluster" not in redis_url else None
    if client is None:
        pytest.skip("reads the shared counters on one server")
    with service_processes(redis_url, 2, env) as (a, b):
        await one_window()
        game, tokens = await create_game(a, "shared-allowance")
        socket = await connect(a, tokens[0])
        for n in range(4):
            await operate(socket, f"q{n}", gql.GAME, {"id": game["id"]})
            assert (await receive(socket))["type"] == "next"
            assert (await receive(socket))["type"] == "complete"

        digest = hashlib.sha256(tokens[0].encode()).hexdigest()[:24]  # as ratelimit.py keys it

        async def shared_count() -> int:
            keys = [key async for key in client.scan_iter(match=f"rl:*:token:{digest}")]
            counts = [int(await client.get(key) or 0) for key in keys]
            return max(counts, default=0)

        async with asyncio.timeout(WAIT):
            while await shared_count() < 4:  # replica A has pushed its count
                await asyncio.sleep(0.02)  # polling Redis for the outcome, bounded above
        headers = {"authorization": f"Bearer {tokens[0]}"}
        body = {"query": gql.GAME, "variables": {"id": game["id"]}}
        async with httpx.AsyncClient(base_url=b, timeout=WAIT) as http:
            first = await http.post("/graphql", json=body, headers=headers)
            async with asyncio.timeout(WAIT):
                while await shared_count() < 5:  # replica B has pushed its one and learnt 5
                    await asyncio.sleep(0.02)
            second = await http.post("/graphql", json=body, headers=headers)
        await socket.close()
    await client.aclose()
    assert first.status_code == 200, "B had seen none of A's operations yet"
    assert second.status_code == 429, "B knows of A's socket operations now"


async def test_the_legacy_protocol_is_held_to_the_same_rules(limited: str) -> None:
    game, tokens = await create_game(limited, "legacy")
    wrong = await connect(limited, tokens[1] + "x", protocol="graphql-ws")
    payload = {"query": SUBSCRIBE, "variables": {"id": game["id"]}}
    await wrong.send(json.dumps({"type": "start", "id": "w", "payload": payload}))
    answer = await receive(wrong)
    assert answer["payload"]["errors"][0]["extensions"]["code"] == "UNAUTHORIZED", answer
    await wrong.close()
    socket = await connect(limited, tokens[1], protocol="graphql-ws")
    for n in range(3):  # two at once on one socket at most; the third is refused, typed
        payload = {"query": SUBSCRIBE, "variables": {"id": game["id"]}}
        await socket.send(json.dumps({"type": "start", "id": f"s{n}", "payload": payload}))
    answers = [await receive(socket) for _ in range(3)]
    refused = [a for a in answers if a["type"] == "error"]
    assert [a["id"] for a in refused] == ["s2"], answers
    assert refused[0]["payload"]["extensions"]["code"] == "TOO_MANY_SUBSCRIPTIONS"
    for n in range(2):
        await socket.send(json.dumps({"type": "stop", "id": f"s{n}"}))
    payload = {"query": gql.GAME, "variables": {"id": game["id"]}}
    await socket.send(json.dumps({"type": "start", "id": "q", "payload": payload}))
    async with asyncio.timeout(WAIT):
        while (answer := await receive(socket))["id"] != "q":
            pass  # the stopped subscriptions' completes
    assert answer["type"] == "error", "this protocol carries subscriptions only"
    assert answer["payload"]["extensions"]["code"] == "BAD_REQUEST"
    await socket.send("42")
    assert (await closed_with(socket))[0] == 4400
