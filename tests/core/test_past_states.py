"""`Game.stateAt`: the table as of an earlier version, replayed from the seed and the history,
seen by the same viewer as `state` (RULINGS ALL-4), for the playground's history slider."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from service.settings import Settings
from service.store import Record, connect
from tests.conftest import Api
from tests.support import gql
from tests.support.play import apply, create

STATE_AT = """
query StateAt($id: ID!, $version: Int!) { game(id: $id) { version stateAt(version: $version) } }"""
VIEW = "query View($id: ID!) { game(id: $id) { version status toAct state } }"


async def _seen(api: Api, game_id: str, tokens: list[str | None]) -> list[dict[str, Any]]:
    return [(await api.gql(VIEW, {"id": game_id}, token))["game"] for token in tokens]


async def _state_at(api: Api, game_id: str, version: int, token: str | None) -> Any:
    return (await api.gql(STATE_AT, {"id": game_id, "version": version}, token))["game"]["stateAt"]


async def _played(api: Api, seed: str) -> tuple[str, list[str | None], dict[int, list[Any]]]:
    """A two-seat Treelings game played to its end with random legal moves; what each viewer
    (seat 0, seat 1, a spectator) saw as `state` at every version the game rested at."""
    game, seat_tokens = await create(api, "TREELINGS", 2, seed)
    tokens: list[str | None] = [*seat_tokens, None]
    seen: dict[int, list[Any]] = {}
    chooser = random.Random(seed)
    while True:
        views = await _seen(api, game["id"], tokens)
        seen[views[0]["version"]] = [v["state"] for v in views]
        if views[0]["status"] != "ACTIVE":
            return game["id"], tokens, seen
        seat = chooser.choice(views[0]["toAct"])
        legal = (await api.gql(gql.GAME, {"id": game["id"]}, tokens[seat]))["game"]["legalMoves"]
        result = await apply(api, game["id"], tokens[seat], chooser.choice(legal)["move"])
        assert result["__typename"] == "MoveApplied", result


@pytest.fixture(scope="module")
async def finished(api: Api) -> tuple[str, list[str | None], dict[int, list[Any]]]:
    return await _played(api, "past-states")


async def test_a_past_state_is_what_each_viewer_saw_at_that_version(
    api: Api, finished: tuple[str, list[str | None], dict[int, list[Any]]], redis_url: str
) -> None:
    game_id, tokens, seen = finished
    redis = connect(Settings(), redis_url)  # one server, or the cluster of the cluster pass
    try:  # the finished game's history is folded into its record
        assert await redis.exists(f"g:{{{game_id}}}:h") == 0
    finally:
        await redis.aclose()
    versions = sorted(seen)
    assert len(versions) > 4 and seen[versions[0]][0] != seen[versions[0]][1], "seats differ"
    for version in [*versions[:3], *versions[len(versions) // 2 :][:2], *versions[-2:]]:
        for viewer, token in enumerate(tokens):
            past = await _state_at(api, game_id, version, token)
            assert past == seen[version][viewer], (version, viewer)


async def test_a_version_inside_a_run_of_forced_steps_shows_the_state_before_the_run(
    api: Api,
) -> None:
    """A decision and the forced steps after it (ALL-3) are committed as one: no client saw
    the versions between, so they answer the state before the decision."""
    game, tokens = await create(api, "TREE_LINED_AVENUE", 2, "forced-runs")
    chooser = random.Random("forced-runs")
    while True:  # Avenue forces a step every few turns
        seat = chooser.choice(game["toAct"])
        before = (await api.gql(gql.GAME, {"id": game["id"]}, tokens[seat]))["game"]
        result = await apply(
            api, game["id"], tokens[seat], chooser.choice(before["legalMoves"])["move"]
        )
        assert result["__typename"] == "MoveApplied", result
        game = result["game"]
        if game["version"] > before["version"] + 1:
            break
    for version in range(before["version"], game["version"]):
        assert await _state_at(api, game["id"], version, tokens[seat]) == before["state"]


@pytest.mark.parametrize("version", [-1, 10_000])
async def test_a_version_out_of_range_is_refused_typed(
    api: Api, finished: tuple[str, list[str | None], dict[int, list[Any]]], version: int
) -> None:
    answer = await api.post(STATE_AT, {"id": finished[0], "version": version})
    body = answer.json()
    assert answer.status_code == 200 and body["data"] == {"game": None}, body
    assert [e["extensions"]["code"] for e in body["errors"]] == ["BAD_USER_INPUT"]


async def test_a_game_of_an_older_release_without_options_is_refused_typed(
    api: Api, redis_url: str
) -> None:
    game, tokens = await create(api, "TREELINGS", 2, "older")
    legal = (await api.gql(gql.GAME, {"id": game["id"]}, tokens[0]))["game"]["legalMoves"]
    assert (await apply(api, game["id"], tokens[0], legal[0]["move"]))[
        "__typename"
    ] == "MoveApplied"
    redis = connect(Settings(), redis_url)
    try:  # records written before create options were kept have none
        key = f"g:{{{game['id']}}}"
        raw = await redis.hget(key, "r")
        assert raw is not None
        record = msgspec.msgpack.decode(raw, type=Record)
        older = msgspec.structs.replace(record, options=None)
        await redis.hset(key, "r", msgspec.msgpack.encode(older))
    finally:
        await redis.aclose()
    answer = (await api.post(STATE_AT, {"id": game["id"], "version": 0})).json()
    assert [e["extensions"]["code"] for e in answer["errors"]] == ["BAD_USER_INPUT"], answer


async def test_rest_answers_the_same_past_states_and_refuses_bad_versions_typed(
    api: Api, finished: tuple[str, list[str | None], dict[int, list[Any]]]
) -> None:
    game_id, tokens, seen = finished
    version = sorted(seen)[3]
    for viewer, token in enumerate(tokens):
        headers = {"authorization": f"Bearer {token}"} if token else {}
        answer = await api.http.get(f"/v1/games/{game_id}/state?version={version}", headers=headers)
        assert answer.status_code == 200, answer.text
        assert answer.json() == {"version": version, "state": seen[version][viewer]}
    for query in ("version=10000", "version=-1", "version=x", ""):
        refused = await api.http.get(f"/v1/games/{game_id}/state?{query}")
        assert refused.status_code == 400, (query, refused.text)
        assert refused.headers["content-type"].startswith("application/problem+json")
        assert refused.json()["code"] == "BAD_REQUEST"
