"""Many subscribers on one replica, and the event connection surviving a cut."""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis

from service.store.embedded import EmbeddedRedis
from tests.hostile.ws import SUBSCRIBE, WAIT, connect, create_game, operate, receive
from tests.support import gql
from tests.support.processes import service_processes

SUBSCRIBERS = 500
GAMES = 25


async def _play(
    http: httpx.AsyncClient, game: dict[str, Any], tokens: list[str], moves: int
) -> tuple[int, list[float]]:
    """`moves` random legal moves (fewer if the game ends); the final version and the time
    of every read."""
    chooser, reads = random.Random(game["id"]), []
    version = game["version"]
    for _ in range(moves):
        seat = game["toAct"][0]
        started = time.perf_counter()
        answer = await http.post(
            "/graphql",
            json={"query": gql.GAME, "variables": {"id": game["id"]}},
            headers={"authorization": f"Bearer {tokens[seat]}"},
        )
        reads.append(time.perf_counter() - started)
        seen = answer.json()
        assert "errors" not in seen, seen
        game = seen["data"]["game"]
        if game["status"] != "ACTIVE":
            break
        move = chooser.choice(game["legalMoves"])["move"]
        variables = {"input": {"gameId": game["id"], "move": move}}
        applied = await http.post(
            "/graphql",
            json={"query": gql.APPLY, "variables": variables},
            headers={"authorization": f"Bearer {tokens[seat]}"},
        )
        result = applied.json()["data"]["applyMove"]
        assert result["__typename"] == "MoveApplied", result
        game = result["game"]
        version = game["version"]
    return version, reads


async def test_five_hundred_subscribers_do_not_starve_requests(redis_url: str) -> None:
    env = {"RULES_MAX_SOCKETS_PER_ADDRESS": "0", "RULES_MAX_SUBSCRIPTIONS_PER_ADDRESS": "0",
           "RULES_RATE_LIMIT_PER_ADDRESS": "0", "RULES_RATE_LIMIT_PER_TOKEN": "0"}  # fmt: skip
    with service_processes(redis_url, 1, env) as urls:
        url = urls[0]
        async with httpx.AsyncClient(base_url=url, timeout=WAIT) as http:  # the same, unwatched
            quiet = [await create_game(url, f"quiet-{n}") for n in range(GAMES)]
            alone = await asyncio.gather(*(_play(http, g, t, 6) for g, t in quiet))
        games = [await create_game(url, f"starve-{n}") for n in range(GAMES)]
        sockets, first = [], []
        for n in range(SUBSCRIBERS):
            socket = await connect(url)
            await operate(socket, "s", SUBSCRIBE, {"id": games[n % GAMES][0]["id"]})
            sockets.append(socket)
        for socket in sockets:
            first.append((await receive(socket))["payload"]["data"]["gameEvents"]["version"])
        async with httpx.AsyncClient(base_url=url, timeout=WAIT) as http:
            played = await asyncio.gather(*(_play(http, g, t, 6) for g, t in games))
        finals = [version for version, _ in played]
        reads = sorted(r for _, rs in played for r in rs)

        async def every_version(n: int) -> None:
            expected = list(range(first[n] + 1, finals[n % GAMES] + 1))
            seen = []
            while len(seen) < len(expected):
                message = await receive(sockets[n])
                assert message["type"] == "next" and "errors" not in message["payload"], message
                seen.append(message["payload"]["data"]["gameEvents"]["version"])
            assert seen == expected

        await asyncio.gather(*(every_version(n) for n in range(SUBSCRIBERS)))
        for socket in sockets:
            await socket.close()
    baseline = sorted(r for _, rs in alone for r in rs)
    print(f"\nreads with no subscriber: {_percentiles(baseline)}")
    print(f"reads with {SUBSCRIBERS} subscribers on {GAMES} games: {_percentiles(reads)}, 0 errors")


def _percentiles(seconds: list[float]) -> str:
    p50, p99 = statistics.median(seconds), seconds[int(len(seconds) * 0.99) - 1]
    return f"{len(seconds)} reads, p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms"


async def test_subscribers_survive_a_cut_event_connection_without_leaks(redis_url: str) -> None:
    if "cluster" in redis_url:
        pytest.skip("cuts the connection on one server")
    client = aioredis.Redis.from_url(redis_url)
    with service_processes(redis_url, 1) as urls:
        game, tokens = await create_game(urls[0], "cut")
        socket = await connect(urls[0])
        await operate(socket, "s", SUBSCRIBE, {"id": game["id"]})
        assert (await receive(socket))["payload"]["data"]["gameEvents"]["version"] == game[
            "version"
        ]
        channel = f"g:{{{game['id']}}}:events"
        killed = await client.client_kill_filter(_type="pubsub")  # as a Redis restart would
        assert killed >= 1
        async with asyncio.timeout(WAIT):  # the replica subscribes again by itself
            while (await client.pubsub_numsub(channel))[0][1] != 1:
                await asyncio.sleep(0.05)  # polling Redis for the outcome, bounded above
        async with httpx.AsyncClient(base_url=urls[0], timeout=WAIT) as http:
            version, _ = await _play(http, game, tokens, 1)
        message = await receive(socket)
        assert message["payload"]["data"]["gameEvents"]["version"] == version, message
        await socket.close()
        async with asyncio.timeout(WAIT):
            while (await client.pubsub_numsub(channel))[0][1] != 0:
                await asyncio.sleep(0.05)
    await client.aclose()


async def test_subscribers_survive_a_redis_restart(redis_url: str) -> None:
    server = EmbeddedRedis(persistent=True).start()  # AOF: the game outlives the restart
    try:
        with service_processes(server.url, 1, {"REDIS_TIMEOUT": "1"}) as urls:
            game, tokens = await create_game(urls[0], "restart")
            socket = await connect(urls[0])
            await operate(socket, "s", SUBSCRIBE, {"id": game["id"]})
            assert (await receive(socket))["type"] == "next"
            server.kill()
            server.start()
            async with httpx.AsyncClient(base_url=urls[0], timeout=WAIT) as http:
                async with asyncio.timeout(WAIT):
                    while (await http.get("/readyz")).status_code != 200:
                        await asyncio.sleep(0.05)  # polling for the outcome, bounded above
                version, _ = await _play(http, game, tokens, 1)
            async with asyncio.timeout(WAIT):  # the version, once the replica resubscribed
                while True:
                    message = await receive(socket)
                    assert message["type"] == "next", message
                    if message["payload"]["data"]["gameEvents"]["version"] == version:
                        break
            await socket.close()
            client = aioredis.Redis.from_url(server.url)
            channel = f"g:{{{game['id']}}}:events"
            async with asyncio.timeout(WAIT):
                while (await client.pubsub_numsub(channel))[0][1] != 0:
                    await asyncio.sleep(0.05)
            assert not await client.client_list(_type="pubsub"), "no connection left subscribed"
            await client.aclose()
    finally:
        server.cleanup()
