"""Hints in a bounded pool of child processes: refused when the pool is busy, bounded by time
whatever `iterations` says, and a child past its time cap killed and replaced."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from service import metrics
from service.app import create_app
from service.bots.hints import HintPool, HintRequest, HintsBusy
from service.engine import start as engine_start
from service.engine.play import encode_state
from service.games import games
from service.settings import Settings
from tests.conftest import Api, client_for
from tests.support import gql
from tests.support.gql import SUGGEST
from tests.support.waiting import until


def _request(kind: str, strategy: str, budget_ms: int, iterations: int | None) -> HintRequest:
    game = games()[kind]
    played = engine_start(game, 2, None, "hints")
    seat = game.to_act(played.state)[0]
    return HintRequest(kind, encode_state(played.state), seat, strategy, "7", iterations, budget_ms)


@pytest.fixture
async def one_hint_api(redis_url: str) -> AsyncIterator[Api]:
    settings = Settings(
        rate_limit_per_token=0,
        rate_limit_per_address=0,
        hint_processes=1,
        max_suggest_ms=20_000,
        hint_grace_ms=60_000,  # a starved hint child on a busy machine is not what is tested
    )
    async with client_for(create_app(settings, redis_url)) as http:
        yield Api(http)


async def _in_flight(count: int) -> None:
    def in_flight() -> bool:
        return metrics.REGISTRY.get_sample_value("rules_hints_in_flight") == count

    await until(in_flight, f"{count} hints in flight")


async def test_a_hint_past_the_replicas_bound_is_refused_with_a_retryable_code(
    one_hint_api: Api,
) -> None:
    api = one_hint_api
    created = (await api.gql(gql.CREATE, {"input": {"kind": "TREELINE", "players": 2}}))[
        "createGame"
    ]
    game_id = created["game"]["id"]
    token = created["seats"][created["game"]["toAct"][0]]["token"]
    variables = {"id": game_id, "strategy": "SEARCH", "budgetMs": 1000}
    thinking = asyncio.create_task(api.gql(SUGGEST, variables, token))
    await _in_flight(1)
    refused = (await api.post(SUGGEST, variables, token)).json()
    assert refused["errors"][0]["extensions"]["code"] == "HINTS_BUSY"
    rest = await api.http.post(
        f"/v1/games/{game_id}/suggest",
        json={"strategy": "SEARCH"},
        headers={"authorization": f"Bearer {token}"},
    )
    assert rest.status_code == 503 and rest.headers["retry-after"] == "1"
    assert rest.json()["code"] == "HINTS_BUSY"
    assert (await thinking)["suggestMove"]["label"]
    await _in_flight(0)


async def test_a_hint_stops_at_its_time_cap_whatever_its_iterations() -> None:
    pool = HintPool(1, grace_ms=30_000)
    try:
        # a million SEARCH iterations would take many minutes; the 200 ms cap ends it
        move, label = await pool.suggest(_request("TREELINE", "SEARCH", 200, 1_000_000))
    finally:
        pool.close()
    assert move and label


async def test_a_hint_process_silent_past_its_cap_is_killed_and_the_next_hint_gets_a_new_one() -> (
    None
):
    pool = HintPool(1, grace_ms=0)
    try:
        with pytest.raises(HintsBusy) as stopped:
            # 1 ms: the child is still starting (or seeding its search) when the cap passes
            await pool.suggest(_request("TREE_LINED_AVENUE", "SEARCH", 1, 5000))
        assert stopped.value.code == "HINT_TIMEOUT"
        move, _ = await pool.suggest(_request("TREELINGS", "RANDOM", 30_000, None))
        assert move
    finally:
        pool.close()


async def test_a_hint_seed_wider_than_64_bits_is_used_as_given(api: Api) -> None:
    created = (await api.gql(gql.CREATE, {"input": {"kind": "TREELINGS", "players": 2}}))[
        "createGame"
    ]
    token = created["seats"][created["game"]["toAct"][0]]["token"]
    answers = [
        await api.http.post(
            f"/v1/games/{created['game']['id']}/suggest",
            json={"strategy": "RANDOM", "seed": -18818057638555676585633516352580878336},
            headers={"authorization": f"Bearer {token}"},
        )
        for _ in range(2)
    ]
    assert [a.status_code for a in answers] == [200, 200]
    assert answers[0].json() == answers[1].json()


async def test_a_negative_budget_thinks_briefly_instead_of_timing_out(api: Api) -> None:
    created = (await api.gql(gql.CREATE, {"input": {"kind": "TREELINGS", "players": 2}}))[
        "createGame"
    ]
    token = created["seats"][created["game"]["toAct"][0]]["token"]
    variables = {"id": created["game"]["id"], "strategy": "SEARCH", "budgetMs": -701914}
    assert (await api.gql(SUGGEST, variables, token))["suggestMove"]["label"]
