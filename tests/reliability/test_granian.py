"""The service under granian, as a real process, for what an ASGI server must hold before it
may replace uvicorn in the image: graphql-transport-ws subscriptions with a real
client and text frames, the lifespan hooks, a graceful SIGTERM with moves in flight, and
X-Forwarded-For believed only from FORWARDED_ALLOW_IPS. docs/performance.md has the outcome."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from gql import Client, GraphQLRequest
from gql.transport.websockets import WebsocketsTransport
from redis.asyncio import Redis

from service.store.embedded import EmbeddedRedis, free_port
from tests.hostile.ws import one_window
from tests.reliability.players import APPLY, CREATE, GAME
from tests.support.play import create_game
from tests.support.waiting import until

pytest.importorskip("granian")
pytestmark = pytest.mark.slow

EVENTS = "subscription E($id: ID!) { gameEvents(gameId: $id) { gameId version status } }"


def granian_command(app: str, port: int) -> list[str]:
    """granian as the image would run it: one worker on uvloop, no access log, 20 s for
    in-flight requests on SIGTERM (uvicorn's --timeout-graceful-shutdown 20)."""
    return [
        sys.executable, "-m", "granian", "--interface", "asgi", "--factory", app,
        "--host", "127.0.0.1", "--port", str(port), "--loop", "uvloop", "--workers", "1",
        "--no-access-log", "--workers-kill-timeout", "20", "--log-level", "info",
    ]  # fmt: skip


@dataclass
class Granian:
    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@contextmanager
def granian(redis_url: str, app: str = "service.app:from_env", **env: str) -> Iterator[Granian]:
    port = free_port()
    log = Path(tempfile.mkdtemp(prefix="rules-granian-"), "granian.log")
    process = subprocess.Popen(
        granian_command(app, port),
        env={**os.environ, "REDIS_URL": redis_url, "LOG_LEVEL": "info", **env},
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    server = Granian(f"http://127.0.0.1:{port}", process, log)
    try:
        deadline = time.monotonic() + 120  # generous: a busy machine starts Python slowly
        while not _ready(server.url):
            assert process.poll() is None, f"granian exited:\n{server.output()}"
            assert time.monotonic() < deadline, f"granian did not start:\n{server.output()}"
            time.sleep(0.05)
        yield server
    finally:
        if process.poll() is None:
            process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _ready(url: str) -> bool:
    try:
        return httpx.get(f"{url}/readyz", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


async def _gql(
    http: httpx.AsyncClient, query: str, variables: dict[str, Any], token: str | None = None
) -> dict[str, Any]:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    answer = await http.post("/graphql", json={"query": query, "variables": variables},
                             headers=headers)  # fmt: skip
    body: dict[str, Any] = answer.json()
    assert answer.status_code == 200 and "errors" not in body, body
    return body["data"]  # type: ignore[no-any-return]


async def _create(http: httpx.AsyncClient) -> tuple[str, list[str]]:
    created = await create_game(http, document=CREATE)
    return created["game"]["id"], [s["token"] for s in created["seats"]]


async def _next_move(
    http: httpx.AsyncClient, game_id: str, tokens: list[str]
) -> tuple[dict[str, Any], str]:
    """The variables of a legal move by the seat to act, and its token."""
    seat = (await _gql(http, GAME, {"id": game_id}))["game"]["toAct"][0]
    seen = (await _gql(http, GAME, {"id": game_id}, tokens[seat]))["game"]
    variables = {"input": {"gameId": game_id, "move": seen["legalMoves"][0]["move"],
                           "expectedVersion": seen["version"]}}  # fmt: skip
    return variables, tokens[seat]


async def test_gql_follows_a_game_over_graphql_transport_ws_in_text_frames(
    redis: EmbeddedRedis,
) -> None:
    with granian(redis.url) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
            game_id, tokens = await _create(http)
            version = (await _gql(http, GAME, {"id": game_id}))["game"]["version"]
            websocket = server.url.replace("http://", "ws://") + "/graphql"

            # the frames themselves: text (JSON), under the negotiated subprotocol
            async with websockets.connect(
                websocket, subprotocols=[WebsocketsTransport.GRAPHQLWS_SUBPROTOCOL]
            ) as raw:
                assert raw.subprotocol == "graphql-transport-ws"
                await raw.send(json.dumps({"type": "connection_init", "payload": {}}))
                frame = await asyncio.wait_for(raw.recv(), 60)
                assert isinstance(frame, str), "a binary frame"
                assert json.loads(frame) == {"type": "connection_ack"}

            # a real client follows two moves
            transport = WebsocketsTransport(
                url=websocket,
                subprotocols=[WebsocketsTransport.GRAPHQLWS_SUBPROTOCOL],
                init_payload={"authorization": f"Bearer {tokens[0]}"},
            )
            seen: list[dict[str, Any]] = []
            versions = [version]
            async with Client(transport=transport) as session:
                events = session.subscribe(GraphQLRequest(EVENTS, variable_values={"id": game_id}))
                async with asyncio.timeout(60):
                    seen.append((await anext(events))["gameEvents"])  # the game as it is
                    for _ in range(2):
                        variables, token = await _next_move(http, game_id, tokens)
                        applied = (await _gql(http, APPLY, variables, token))["applyMove"]
                        assert applied["__typename"] == "MoveApplied", applied
                        versions.append(applied["game"]["version"])
                        seen.append((await anext(events))["gameEvents"])
                await events.aclose()  # type: ignore[attr-defined]
    assert [e["version"] for e in seen] == versions, seen
    assert {e["gameId"] for e in seen} == {game_id}
    assert {e["status"] for e in seen} == {"ACTIVE"}


async def test_lifespan_startup_and_shutdown_run_under_granian(redis: EmbeddedRedis) -> None:
    log = Path(tempfile.mkdtemp(prefix="rules-lifespan-"), "lifespan.log")
    probe = "tests.reliability.granian_probe:from_env"
    with granian(redis.url, app=probe, RULES_LIFESPAN_LOG=str(log)) as server:
        assert log.read_text().split() == ["lifespan.startup.complete"]
        server.process.send_signal(signal.SIGTERM)
        exit_code = await asyncio.to_thread(server.process.wait, 60)
    assert exit_code == 0, server.output()
    # Starlette sends shutdown.complete after the app's shutdown hooks returned
    assert log.read_text().split() == ["lifespan.startup.complete", "lifespan.shutdown.complete"]


async def test_sigterm_finishes_in_flight_moves_and_refuses_new_connections(
    redis: EmbeddedRedis,
) -> None:
    moves = 4
    client = Redis.from_url(redis.url)
    try:
        with granian(redis.url, REDIS_TIMEOUT="60") as server:
            async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
                pending = []
                for _ in range(moves):
                    game_id, tokens = await _create(http)
                    pending.append(await _next_move(http, game_id, tokens))
                # Redis holds every write until told to go on, so the moves are in flight
                await client.execute_command("CLIENT", "PAUSE", 120_000, "WRITE")
                try:
                    in_flight = [
                        asyncio.create_task(
                            http.post("/graphql", json={"query": APPLY, "variables": variables},
                                      headers={"authorization": f"Bearer {token}"})
                        )
                        for variables, token in pending
                    ]  # fmt: skip

                    async def all_in_flight() -> bool:
                        metrics = (await http.get("/metrics")).text
                        line = next(
                            x for x in metrics.splitlines()
                            if x.startswith("rules_requests_in_flight ")
                        )  # fmt: skip
                        return float(line.split()[1]) >= moves + 1  # + this /metrics

                    await until(all_in_flight, "the moves to be in flight")
                    server.process.send_signal(signal.SIGTERM)

                    async def refusing() -> bool:
                        try:
                            async with httpx.AsyncClient(timeout=30) as fresh:
                                await fresh.get(server.url + "/healthz")
                        except httpx.ConnectError:
                            return True
                        return False

                    await until(refusing, "new connections to be refused")
                    assert not any(t.done() for t in in_flight), "the moves finished too early"
                finally:
                    await client.execute_command("CLIENT", "UNPAUSE")
                answers = await asyncio.gather(*in_flight)
            exit_code = await asyncio.to_thread(server.process.wait, 60)
            log = server.output()
        for answer in answers:
            assert answer.status_code == 200, answer.text
            assert answer.json()["data"]["applyMove"]["__typename"] == "MoveApplied", answer.text
        for variables, _ in pending:
            game_id = variables["input"]["gameId"]
            assert await client.llen(f"g:{{{game_id}}}:h") > variables["input"]["expectedVersion"]
        assert exit_code == 0, log
        assert "Traceback" not in log, log
    finally:
        await client.aclose()


@pytest.mark.parametrize(("trusted", "admitted"), [("", 2), ("127.0.0.1", 4)])
async def test_forwarded_addresses_are_believed_only_from_configured_proxies(
    redis: EmbeddedRedis, trusted: str, admitted: int
) -> None:
    env = {"RULES_RATE_LIMIT_PER_TOKEN": "0", "RULES_RATE_LIMIT_PER_ADDRESS": "2"}
    if trusted:
        env["FORWARDED_ALLOW_IPS"] = trusted
    client = Redis.from_url(redis.url)
    try:  # this module's Redis: no counts of earlier tests' servers in this window
        for key in await client.keys("rl:*"):
            await client.delete(key)
    finally:
        await client.aclose()
    with granian(redis.url, **env) as server:
        await one_window()
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
            statuses = [
                (
                    await http.post(
                        "/graphql",
                        json={"query": "{ catalog { kind } }"},
                        headers={"x-forwarded-for": f"203.0.113.{n // 2}"},
                    )
                ).status_code
                for n in range(4)
            ]
    # Untrusted, the four share the peer's allowance of 2; trusted, each forwarded address
    # (two requests each) has its own.
    assert statuses.count(200) == admitted, statuses
