"""Two service processes on one Redis, many clients playing the same games at once, replies of
committed moves lost on purpose: no accepted move is lost or applied twice.

Service 0 talks to Redis directly, service 1 through a proxy that loses the reply of every
7th committed move, so its client sees UNAVAILABLE and retries with the same idempotency key.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from service.games import games
from service.store.embedded import EmbeddedRedis
from tests.reliability.harness import FaultProxy, services
from tests.reliability.players import Players, audit, summary

GAMES_PER_KIND = 2
CLIENTS = 12
SECONDS = 120.0  # a cap for a slow machine; the budget ends the run first on a quiet one
BUDGET = 400


@pytest.fixture
async def redis() -> AsyncIterator[EmbeddedRedis]:
    server = EmbeddedRedis().start()
    try:
        yield server
    finally:
        server.cleanup()


async def test_concurrent_moves_through_two_replicas_are_applied_exactly_once(
    redis: EmbeddedRedis,
) -> None:
    proxy = await FaultProxy(redis.port).start()
    proxy.lose(every=7, limit=1000)
    client = Redis.from_url(redis.url)
    try:
        with services([redis.url, proxy.url], REDIS_TIMEOUT="1") as replicas:
            players = Players([s.url for s in replicas], [], seed=8)
            try:
                for kind, game in sorted(games().items()):
                    for n in range(GAMES_PER_KIND):
                        played_game = await players.create(
                            kind, game.min_players, f"lin-{kind}-{n}"
                        )
                        players.games.append(played_game)
                await players.run(CLIENTS, SECONDS, BUDGET)
            finally:
                await players.aclose()
            assert all(s.alive() for s in replicas), "a service process died"
            for service in replicas:
                assert "Exception in ASGI application" not in service.output()
        checked = await audit(client, players.games, players.record.intents)
    finally:
        await client.aclose()
        await proxy.aclose()

    counts = summary(players.record, checked, proxy.lost)
    print("linearizability run:", json.dumps(counts))
    assert not checked.problems, "\n".join(checked.problems[:20])
    assert counts["acknowledged"] >= 60, counts
    assert counts["conflicts"] >= 10, "the clients must race on the same games"
    assert counts["lost_replies_injected"] >= 3 and counts["replayed"] >= 3, counts
    assert (
        checked.commits
        == sum(1 for i in players.record.intents if i.acked) + checked.applied_unknown
    ), "every commit is an acknowledged move or a lost reply's move"
