"""A game whose stored record cannot be read: a typed UNREADABLE_RECORD
on REST (problem+json, 500) and on GraphQL (`extensions.code`, through the fast path and
through strawberry alike), one log line and no traceback; every other game reads as before."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

import pytest

from service.app import create_app
from service.settings import Settings
from service.store import connect
from tests.conftest import Api, client_for
from tests.support import gql

ON = Settings(rate_limit_per_token=0, rate_limit_per_address=0)
OFF = Settings(graphql_fast_path=False, rate_limit_per_token=0, rate_limit_per_address=0)
GARBAGE = b"\xc1 not a record"


@pytest.fixture
async def apps(redis_url: str) -> AsyncIterator[tuple[Api, Api]]:
    async with (
        client_for(create_app(ON, redis_url)) as on,
        client_for(create_app(OFF, redis_url)) as off,
    ):
        yield Api(on), Api(off)


async def test_an_unreadable_record_is_a_typed_answer_everywhere(
    apps: tuple[Api, Api], redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    on, off = apps
    ids, tokens = [], []
    for seed in ("broken", "sound"):
        variables = {"input": {"kind": "TREELINGS", "players": 2, "seed": seed}}
        created = (await on.gql(gql.CREATE, variables))["createGame"]
        ids.append(created["game"]["id"])
        tokens.append(created["seats"][0]["token"])
    broken, sound = ids
    redis = connect(ON, redis_url)  # one server, or a cluster
    await redis.hset(f"g:{{{broken}}}", "r", GARBAGE)
    await redis.aclose()
    caplog.clear()

    response = await on.http.get(f"/v1/games/{broken}")
    assert response.status_code == 500
    assert response.headers["content-type"] == "application/problem+json"
    problem = response.json()
    assert problem["code"] == "UNREADABLE_RECORD" and problem["status"] == 500
    assert "msgspec" not in response.text and "Decode" not in response.text

    apply = {"input": {"gameId": broken, "move": {"pass": True}}}
    for query, variables in [(gql.GAME, {"id": broken}), (gql.APPLY, apply)]:
        fast, slow = (
            await on.post(query, variables, tokens[0]),
            await off.post(query, variables, tokens[0]),
        )
        assert fast.status_code == slow.status_code == 200
        assert fast.content == slow.content  # the fast path answers as strawberry does
        assert fast.json()["errors"][0]["extensions"]["code"] == "UNREADABLE_RECORD"
    history = (await on.post(gql.HISTORY, {"id": broken})).json()  # strawberry's own
    assert history["errors"][0]["extensions"]["code"] == "UNREADABLE_RECORD"

    assert (await on.http.get(f"/v1/games/{sound}")).status_code == 200
    assert (await on.gql(gql.GAME, {"id": sound}))["game"]["id"] == sound

    lines = [r for r in caplog.records if broken in r.getMessage()]
    assert len(lines) == 6, [r.getMessage() for r in lines]  # one per read above
    assert all(r.levelno == logging.WARNING and r.exc_info is None for r in lines)
    assert not any(r.exc_info for r in caplog.records)
    assert "Traceback" not in caplog.text
