"""A bot worker outlives a Redis crash: it logs the failure in one line, keeps retrying, and
plays the next bot turn once Redis is back (its consumer group kept by the append-only file)."""

from __future__ import annotations

import asyncio

from service.app import create_app
from service.settings import Settings
from service.store.embedded import EmbeddedRedis
from tests.conftest import Api, client_for
from tests.support import gql
from tests.support.gql import CREATE_WITH_BOTS
from tests.support.play import apply, until_seat_acts
from tests.support.workers import worker_process


async def _human_turn(api: Api, game_id: str, token: str) -> int:
    """Play seat 1's whole turn; the version it hands to the bot."""
    seen = (await api.gql(gql.GAME, {"id": game_id}, token))["game"]
    version = seen["version"]
    while 1 in seen["toAct"]:
        move = seen["legalMoves"][0]["move"]
        result = await apply(api, game_id, token, move, expectedVersion=seen["version"])
        version = result["game"]["version"]
        seen = (await api.gql(gql.GAME, {"id": game_id}, token))["game"]
    return int(version)


async def _until_the_api_answers(api: Api, game_id: str) -> None:
    """Each pooled connection of the API fails once after the crash, then is replaced."""
    answered = 0
    async with asyncio.timeout(60):
        while answered < 3:
            body = (await api.post(gql.GAME, {"id": game_id})).json()
            answered = answered + 1 if "errors" not in body else 0


async def test_a_worker_survives_a_redis_crash_and_plays_once_redis_is_back() -> None:
    redis = EmbeddedRedis(persistent=True).start()
    settings = Settings(rate_limit_per_token=0, rate_limit_per_address=0)
    try:
        async with client_for(create_app(settings, redis.url)) as http:
            api = Api(http)
            bots = [{"seat": 0, "strategy": "GREEDY"}]
            variables = {"input": {"kind": "TREELINGS", "players": 2, "seed": "out", "bots": bots}}
            created = (await api.gql(CREATE_WITH_BOTS, variables))["createGame"]
            game_id, token = created["game"]["id"], created["seats"][0]["token"]
            with worker_process(redis.url) as worker:
                await until_seat_acts(api, game_id, token, 1)
                redis.kill()
                await worker.until_logged("redis unavailable")
                redis.start()
                await _until_the_api_answers(api, game_id)
                handed = await _human_turn(api, game_id, token)
                seen = await until_seat_acts(api, game_id, token, 1)
                assert worker.process.poll() is None, worker.output()
                log = worker.stop()
            history = (await api.gql(gql.HISTORY, {"id": game_id}))["game"]["history"]
    finally:
        redis.cleanup()
    assert seen["version"] > handed
    assert [e["seat"] for e in history if e["version"] == handed + 1] == [0]
    assert "Traceback" not in log, log
