"""Lifecycle: games expire after inactivity, finished games are kept for their own time, and a
replica that gets SIGTERM turns unready first, keeps serving for the shutdown delay, and
finishes what it accepted before it exits."""

from __future__ import annotations

import asyncio
import json
import random
import re
import signal
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import websockets
from redis.asyncio import Redis
from websockets.typing import Subprotocol

from service.app import create_app
from service.settings import Settings
from service.store.embedded import EmbeddedRedis
from tests.conftest import Api, client_for
from tests.reliability.harness import CONTAINER, MODULE, services
from tests.reliability.players import APPLY, CREATE, GAME
from tests.support.play import create_game
from tests.support.waiting import until


@pytest.fixture
async def client(redis: EmbeddedRedis) -> AsyncIterator[Redis]:
    client = Redis.from_url(redis.url)
    yield client
    await client.aclose()


def _keys(game_id: str) -> list[str]:
    return [f"g:{{{game_id}}}", f"g:{{{game_id}}}:h", f"g:{{{game_id}}}:i"]


async def _create(api: Api) -> tuple[str, list[str]]:
    created = await create_game(api.http, document=CREATE)
    return created["game"]["id"], [s["token"] for s in created["seats"]]


async def _next_move(
    api: Api, game_id: str, tokens: list[str], rng: random.Random
) -> tuple[dict[str, Any], str]:
    seat = (await api.gql(GAME, {"id": game_id}))["game"]["toAct"][0]
    seen = (await api.gql(GAME, {"id": game_id}, tokens[seat]))["game"]
    move = rng.choice(seen["legalMoves"])["move"]
    variables = {"input": {"gameId": game_id, "move": move, "expectedVersion": seen["version"],
                           "idempotencyKey": f"v{seen['version']}"}}  # fmt: skip
    return variables, tokens[seat]


async def _apply(api: Api, variables: dict[str, Any], token: str) -> dict[str, Any]:
    result: dict[str, Any] = (await api.gql(APPLY, variables, token))["applyMove"]
    assert result["__typename"] == "MoveApplied", result
    return result


async def _move(api: Api, game_id: str, tokens: list[str], rng: random.Random) -> dict[str, Any]:
    return await _apply(api, *await _next_move(api, game_id, tokens, rng))


async def test_an_untouched_active_game_expires_and_each_move_restarts_its_clock(
    redis: EmbeddedRedis, client: Redis
) -> None:
    app = create_app(Settings(active_ttl=2, finished_ttl=1000), redis.url)
    async with client_for(app) as http:
        api = Api(http)
        game_id, tokens = await _create(api)
        record = _keys(game_id)[0]
        # The move is chosen first (reads do not count as activity), so only the move itself
        # runs inside the game's remaining second and more.
        move = await _next_move(api, game_id, tokens, random.Random(1))

        async def aged() -> bool:
            return 0 < int(await client.pttl(record)) < 1700

        await until(aged, "the new game's clock to run")
        before_move = time.monotonic()
        await _apply(api, *move)
        ttls = [int(await client.pttl(key)) for key in _keys(game_id)]
        # Set by the move: at most 2000 ms, less only by the time since (a busy machine is slow);
        # without the restart it would be under 1700 - since.
        since = (time.monotonic() - before_move) * 1000
        assert all(2000 - since - 50 <= ttl <= 2000 for ttl in ttls), (ttls, since)

        async def gone() -> bool:
            # reads do not count as activity: polling the game does not keep it alive
            return (await api.gql(GAME, {"id": game_id}))["game"] is None

        await until(gone, "the idle game to expire", seconds=30)
        assert time.monotonic() - before_move > 1.95, "expired before its time"
        assert await client.exists(*_keys(game_id)) == 0


async def test_a_finished_game_is_kept_for_its_own_time_then_removed(
    redis: EmbeddedRedis, client: Redis
) -> None:
    app = create_app(Settings(active_ttl=1000, finished_ttl=1), redis.url)
    rng = random.Random(2)
    async with client_for(app) as http:
        api = Api(http)
        other, _ = await _create(api)
        game_id, tokens = await _create(api)
        status = "ACTIVE"
        for _ in range(500):
            before_move = time.monotonic()
            result = await _move(api, game_id, tokens, rng)
            status = result["game"]["status"]
            if status == "FINISHED":
                break
        assert status == "FINISHED"
        # -1 would be "kept forever"; -2 is "already gone" (a slow read on a busy machine).
        ttls = [int(await client.pttl(key)) for key in _keys(game_id)]
        assert all(ttl == -2 or 0 < ttl <= 1000 for ttl in ttls), ttls

        async def gone() -> bool:
            return (await api.gql(GAME, {"id": game_id}))["game"] is None

        await until(gone, "the finished game to be removed", seconds=30)
        assert time.monotonic() - before_move > 0.95, "removed before its time"
        assert await client.exists(*_keys(game_id)) == 0
        assert int(await client.ttl(_keys(other)[0])) > 900, "active games keep their own TTL"


def _in_flight(metrics: str) -> float:
    found = re.search(r"^rules_requests_in_flight (\S+)$", metrics, re.MULTILINE)
    assert found is not None, "no in-flight gauge in /metrics"
    return float(found.group(1))


async def test_sigterm_stops_accepting_finishes_in_flight_moves_and_exits_cleanly(
    redis: EmbeddedRedis, client: Redis
) -> None:
    moves = 4
    with services([redis.url], command=CONTAINER, REDIS_TIMEOUT="60", LOG_LEVEL="info") as (
        replica,
    ):
        async with httpx.AsyncClient(base_url=replica.url, timeout=60) as http:
            api = Api(http)
            pending = []
            for _ in range(moves):
                game_id, tokens = await _create(api)
                seat = (await api.gql(GAME, {"id": game_id}))["game"]["toAct"][0]
                seen = (await api.gql(GAME, {"id": game_id}, tokens[seat]))["game"]
                variables = {"input": {"gameId": game_id, "move": seen["legalMoves"][0]["move"],
                                       "expectedVersion": seen["version"]}}  # fmt: skip
                pending.append((game_id, variables, tokens[seat]))

            # Redis holds every write until told to go on (events, not a timed pause that a
            # busy machine may outlast), so the moves are in flight when SIGTERM comes.
            await client.execute_command("CLIENT", "PAUSE", 120_000, "WRITE")
            try:
                in_flight = [
                    asyncio.create_task(api.post(APPLY, variables, token))
                    for _, variables, token in pending
                ]

                async def all_in_flight() -> bool:
                    metrics = (await http.get("/metrics")).text
                    return _in_flight(metrics) >= moves + 1  # + the /metrics request itself

                await until(all_in_flight, "the moves to be in flight")
                replica.process.send_signal(signal.SIGTERM)

                async def refusing() -> bool:
                    try:
                        async with httpx.AsyncClient(timeout=30) as fresh:
                            await fresh.get(replica.url + "/healthz")
                    # refused, or (the listener closing) taken and dropped unanswered
                    except (httpx.ConnectError, httpx.ReadError, httpx.RemoteProtocolError):
                        return True
                    return False

                await until(refusing, "new connections to be refused")
                assert not any(task.done() for task in in_flight), "the moves finished too early"
            finally:
                await client.execute_command("CLIENT", "UNPAUSE")
            answers = await asyncio.gather(*in_flight)
        exit_code = await asyncio.to_thread(replica.process.wait, 60)
        log = replica.output()

    for answer in answers:
        assert answer.status_code == 200, answer.text
        assert answer.json()["data"]["applyMove"]["__typename"] == "MoveApplied", answer.text
    for game_id, variables, _ in pending:
        assert await client.llen(_keys(game_id)[1]) > variables["input"]["expectedVersion"]
    # uvicorn re-raises the signal once it has shut down, so the exit is "by SIGTERM"
    assert exit_code in (0, -signal.SIGTERM), log
    assert "Application shutdown complete" in log, log
    assert "Exception in ASGI application" not in log, log


@pytest.mark.parametrize("command", [MODULE, CONTAINER], ids=["python-m-service", "container"])
async def test_sigterm_turns_readiness_false_at_once_and_serves_on_for_the_delay(
    redis: EmbeddedRedis, command: tuple[str, ...]
) -> None:
    """Both entry points: `python -m service` and the image's `uvicorn --factory`."""
    delay = {"RULES_SHUTDOWN_DELAY_SECONDS": "600", "RULES_RUN_WORKERS": "0", "LOG_LEVEL": "info"}
    with services([redis.url], command=command, **delay) as (replica,):
        async with httpx.AsyncClient(base_url=replica.url, timeout=60) as http:
            assert (await http.get("/readyz")).status_code == 200
            replica.process.send_signal(signal.SIGTERM)

            async def unready() -> bool:
                return (await http.get("/readyz")).status_code == 503

            await until(unready, "/readyz to answer 503")
            # still served in the delay, on new connections too: a whole create and read
            async with httpx.AsyncClient(base_url=replica.url, timeout=60) as fresh:
                assert (await fresh.get("/healthz")).status_code == 200
                game_id, _ = await _create(Api(fresh))
                assert (await Api(fresh).gql(GAME, {"id": game_id}))["game"]["version"] == 0
            assert replica.alive(), replica.output()
        replica.process.send_signal(signal.SIGTERM)  # a second one does not wait
        exit_code = await asyncio.to_thread(replica.process.wait, 60)
        log = replica.output()
    assert exit_code in (0, -signal.SIGTERM), log
    assert "SIGTERM: not ready; shutting down in 600 s" in log, log
    assert "Application shutdown complete" in log, log
    assert "Traceback" not in log, log


async def test_sigterm_closes_parked_sockets_as_a_restart_and_exits_cleanly(
    redis: EmbeddedRedis,
) -> None:
    """A spectator's and a seat's subscriptions, parked in their crowds: SIGTERM closes both
    sockets with 1012 (service restart: reconnect and resume with afterVersion) and the process
    ends without an error in its log."""
    with services([redis.url], RULES_SHUTDOWN_DELAY_SECONDS="0", LOG_LEVEL="info") as (replica,):
        async with httpx.AsyncClient(base_url=replica.url, timeout=60) as http:
            created = await create_game(http, seed="sigterm-sockets")
        game_id, token = created["game"]["id"], created["seats"][0]["token"]
        sockets = [await _follow(replica.url, game_id, caller) for caller in (None, token)]

        async def parked() -> bool:
            async with httpx.AsyncClient(base_url=replica.url, timeout=60) as http:
                metrics = (await http.get("/metrics")).text
            return "rules_live_parked 2.0" in metrics

        await until(parked, "both subscriptions parked")
        replica.process.send_signal(signal.SIGTERM)
        for socket in sockets:
            async with asyncio.timeout(60):
                await socket.wait_closed()
            assert socket.close_code == 1012, socket.close_code
        exit_code = await asyncio.to_thread(replica.process.wait, 60)
        log = replica.output()
    assert exit_code in (0, -signal.SIGTERM), log
    assert "Application shutdown complete" in log, log
    for trouble in ("Traceback", "Exception in ASGI application", "Task was destroyed"):
        assert trouble not in log, log


async def _follow(url: str, game_id: str, token: str | None) -> Any:
    socket = await websockets.connect(
        url.replace("http", "ws") + "/graphql",
        subprotocols=[Subprotocol("graphql-transport-ws")],
        compression=None,
    )
    payload = {"authorization": f"Bearer {token}"} if token else {}
    await socket.send(json.dumps({"type": "connection_init", "payload": payload}))
    assert json.loads(await socket.recv())["type"] == "connection_ack"
    query = "subscription E($id: ID!) { gameEvents(gameId: $id) { version } }"
    subscribe = {"query": query, "variables": {"id": game_id}}
    await socket.send(json.dumps({"id": "1", "type": "subscribe", "payload": subscribe}))
    assert json.loads(await socket.recv())["type"] == "next"
    return socket
