"""Hints and bot seats through the API."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from tests.conftest import Api
from tests.support import gql
from tests.support.gql import CREATE_WITH_BOTS, SUGGEST
from tests.support.play import apply, create_game, until_seat_acts


async def test_one_human_plays_a_whole_game_against_bots(api: Api, bot_worker: object) -> None:
    bots = [{"seat": 0, "strategy": "GREEDY"}, {"seat": 2, "strategy": "RANDOM"}]
    created = await create_game(
        api.http, document=CREATE_WITH_BOTS, kind="TREELINGS", players=3, seed="vs-bots", bots=bots
    )
    assert [s["seat"] for s in created["seats"]] == [1], "bot seats get no token"
    token = created["seats"][0]["token"]
    game = created["game"]
    assert (game["version"], game["toAct"]) == (0, [0]), "the bot's turn is a job, not awaited"
    chooser = random.Random(1)
    while game["status"] == "ACTIVE":
        seen = await until_seat_acts(api, game["id"], token, 1)
        if seen["status"] == "FINISHED":
            break
        move = chooser.choice(seen["legalMoves"])["move"]
        result = await apply(api, game["id"], token, move, expectedVersion=seen["version"])
        assert result["__typename"] == "MoveApplied", result
        game = result["game"]
        assert game["version"] > seen["version"]
    history = (await api.gql(gql.HISTORY, {"id": game["id"]}))["game"]["history"]
    assert {e["seat"] for e in history} == {0, 1, 2}
    assert [e["version"] for e in history] == list(range(1, len(history) + 1))


@pytest.mark.parametrize(
    "bots",
    [
        [{"seat": 0, "strategy": "RANDOM"}, {"seat": 1, "strategy": "RANDOM"}],
        [{"seat": 5, "strategy": "RANDOM"}],
    ],
)
async def test_bot_seats_must_be_seats_and_leave_a_human(
    api: Api, bots: list[dict[str, Any]]
) -> None:
    response = await api.post(
        CREATE_WITH_BOTS, {"input": {"kind": "TREELINGS", "players": 2, "bots": bots}}
    )
    assert response.json()["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"


@pytest.mark.parametrize("strategy", ["RANDOM", "GREEDY", "SEARCH"])
async def test_suggestions_are_legal_and_reproducible_in_iterations_mode(
    api: Api, strategy: str
) -> None:
    created = (
        await api.gql(gql.CREATE, {"input": {"kind": "TREETOPIA", "players": 2, "seed": "hint"}})
    )["createGame"]
    game, tokens = created["game"], [s["token"] for s in created["seats"]]
    seat = game["toAct"][0]
    seen = (await api.gql(gql.GAME, {"id": game["id"]}, tokens[seat]))["game"]
    variables = {"id": game["id"], "strategy": strategy, "iterations": 30, "seed": 7}
    first = (await api.gql(SUGGEST, variables, tokens[seat]))["suggestMove"]
    again = (await api.gql(SUGGEST, variables, tokens[seat]))["suggestMove"]
    assert first == again
    assert first["seat"] == seat and first["strategy"] == strategy
    assert {"move": first["move"], "label": first["label"]} in seen["legalMoves"]
    rest = await api.http.post(
        f"/v1/games/{game['id']}/suggest",
        json={"strategy": strategy, "iterations": 30, "seed": 7},
        headers={"authorization": f"Bearer {tokens[seat]}"},
    )
    assert rest.status_code == 200 and rest.json() == first


async def test_suggestions_need_the_seat_to_act_and_respect_the_budget_cap(api: Api) -> None:
    created = (await api.gql(gql.CREATE, {"input": {"kind": "TREELINGS", "players": 2}}))[
        "createGame"
    ]
    game, tokens = created["game"], [s["token"] for s in created["seats"]]
    waiting = tokens[1 - game["toAct"][0]]
    variables = {"id": game["id"], "strategy": "SEARCH"}
    for token, code in [(waiting, "NOT_YOUR_TURN"), (None, "UNAUTHORIZED")]:
        body = (await api.post(SUGGEST, variables, token)).json()
        assert body["errors"][0]["extensions"]["code"] == code
    started = time.monotonic()
    await api.gql(SUGGEST, {**variables, "budgetMs": 60_000}, tokens[game["toAct"][0]])
    assert time.monotonic() - started < 10, "the server caps the thinking time"
