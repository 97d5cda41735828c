"""A commit whose reply is lost between Redis and the service: the move is written, the client
hears UNAVAILABLE, and its retry with the same idempotency key returns the first result."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from redis.asyncio import Redis

from service.app import create_app
from service.settings import Settings
from service.store.embedded import EmbeddedRedis
from tests.conftest import Api, client_for
from tests.reliability.harness import FaultProxy
from tests.reliability.players import APPLY, CREATE, GAME

# Redis's time to answer each command through the proxy: the service's default, so that a busy
# machine's slow answers (a create before any fault) are not taken for lost ones
TIMEOUT = 2.0


@pytest.fixture
async def proxy(redis: EmbeddedRedis) -> AsyncIterator[FaultProxy]:
    proxy = await FaultProxy(redis.port).start()
    yield proxy
    await proxy.aclose()


@pytest.fixture
async def api(proxy: FaultProxy) -> AsyncIterator[Api]:
    app = create_app(Settings(redis_timeout=TIMEOUT), proxy.url)
    async with client_for(app) as http:
        yield Api(http)


async def _apply(api: Api, token: str, move: Any, **extra: Any) -> dict[str, Any]:
    response = await api.post(APPLY, {"input": {"move": move, **extra}}, token)
    assert response.status_code == 200
    body: dict[str, Any] = response.json()
    return body


async def _game_to_move(api: Api) -> tuple[str, str, dict[str, Any]]:
    created = (await api.gql(CREATE, {"input": {"kind": "TREELINGS", "players": 2}}))["createGame"]
    game_id, tokens = created["game"]["id"], [s["token"] for s in created["seats"]]
    seat = (await api.gql(GAME, {"id": game_id}))["game"]["toAct"][0]
    seen = (await api.gql(GAME, {"id": game_id}, tokens[seat]))["game"]
    return game_id, tokens[seat], seen


async def _history(redis: EmbeddedRedis, game_id: str) -> int:
    client = Redis.from_url(redis.url)
    try:
        return int(await client.llen(f"g:{{{game_id}}}:h"))  # type: ignore[misc]
    finally:
        await client.aclose()


@pytest.mark.parametrize("mode", ["reset", "silence"])
async def test_a_retry_after_a_lost_commit_reply_returns_the_first_result_once(
    api: Api, proxy: FaultProxy, redis: EmbeddedRedis, mode: str
) -> None:
    game_id, token, seen = await _game_to_move(api)
    move = seen["legalMoves"][0]["move"]
    proxy.lose(every=1, limit=1, mode=mode)

    started = time.monotonic()
    lost = await _apply(api, token, move, gameId=game_id, expectedVersion=seen["version"],
                        idempotencyKey="lost-once")  # fmt: skip
    assert time.monotonic() - started < TIMEOUT + 1, "a lost reply must fail in bounded time"
    assert lost["errors"][0]["extensions"]["code"] == "UNAVAILABLE", lost
    assert proxy.lost == 1
    written = await _history(redis, game_id)
    assert written > seen["version"], "the move was written although its reply was lost"

    retry = await _apply(api, token, move, gameId=game_id, expectedVersion=seen["version"],
                         idempotencyKey="lost-once")  # fmt: skip
    applied = retry["data"]["applyMove"]
    assert applied["__typename"] == "MoveApplied" and applied["replayed"] is True, retry
    assert applied["game"]["version"] == written
    assert await _history(redis, game_id) == written, "the retry applied nothing more"


async def test_without_a_key_the_expected_version_stops_a_second_application(
    api: Api, proxy: FaultProxy, redis: EmbeddedRedis
) -> None:
    game_id, token, seen = await _game_to_move(api)
    move = seen["legalMoves"][0]["move"]
    proxy.lose(every=1, limit=1)
    lost = await _apply(api, token, move, gameId=game_id, expectedVersion=seen["version"])
    assert lost["errors"][0]["extensions"]["code"] == "UNAVAILABLE", lost
    written = await _history(redis, game_id)

    retry = await _apply(api, token, move, gameId=game_id, expectedVersion=seen["version"])
    rejected = retry["data"]["applyMove"]
    assert rejected == {"__typename": "MoveRejected", "code": "STALE_VERSION",
                        "currentVersion": written}  # fmt: skip
    assert await _history(redis, game_id) == written
