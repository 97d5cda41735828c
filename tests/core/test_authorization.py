"""The authorization matrix: every operation x every kind of caller, GraphQL and REST.

Callers: no token (a spectator), the seat to act, another seat of the same game, a seat
token of another game, and a garbage token.
"""

from __future__ import annotations

from typing import Any

import pytest

from service.app import create_app
from service.settings import Settings
from tests.conftest import Api, client_for
from tests.support import gql
from tests.support.play import apply, create

CALLERS = ["none", "seat", "other_seat", "other_game", "garbage"]

# expected outcome per operation and caller: "ok", a viewer seat, or a code
GRAPHQL = {
    "game": {"none": None, "seat": 0, "other_seat": 1, "other_game": "UNAUTHORIZED", "garbage": "UNAUTHORIZED"},
    "history": {"none": "ok", "seat": "ok", "other_seat": "ok", "other_game": "UNAUTHORIZED", "garbage": "UNAUTHORIZED"},
    "validateMove": {"none": "UNAUTHORIZED", "seat": "ok", "other_seat": "NOT_YOUR_TURN", "other_game": "UNAUTHORIZED", "garbage": "UNAUTHORIZED"},
    "applyMove": {"none": "UNAUTHORIZED", "seat": "ok", "other_seat": "NOT_YOUR_TURN", "other_game": "UNAUTHORIZED", "garbage": "UNAUTHORIZED"},
    "catalog": dict.fromkeys(CALLERS, "ok"),
    "resign": {"none": "UNAUTHORIZED", "seat": "ok", "other_seat": "ok", "other_game": "UNAUTHORIZED", "garbage": "UNAUTHORIZED"},
    # no RULES_API_KEYS here: every caller is the default tenant, which owns the game (the
    # tenant boundary is tests/core/test_endings.py and test_listing.py, with two tenants)
    "abandonGame": dict.fromkeys(CALLERS, "ok"),
}  # fmt: skip
REST = {
    ("GET", ""): {"none": 200, "seat": 200, "other_seat": 200, "other_game": 401, "garbage": 401},
    ("GET", "/legal-moves"): {"none": 200, "seat": 200, "other_seat": 200, "other_game": 401, "garbage": 401},
    ("GET", "/scores"): {"none": 200, "seat": 200, "other_seat": 200, "other_game": 401, "garbage": 401},
    ("GET", "/history"): {"none": 200, "seat": 200, "other_seat": 200, "other_game": 401, "garbage": 401},
    ("POST", "/validate"): {"none": 401, "seat": 200, "other_seat": 200, "other_game": 401, "garbage": 401},
    ("POST", "/moves"): {"none": 401, "seat": 200, "other_seat": 409, "other_game": 401, "garbage": 401},
    ("POST", "/resign"): {"none": 401, "seat": 200, "other_seat": 200, "other_game": 401, "garbage": 401},
    ("POST", "/abandon"): dict.fromkeys(CALLERS, 200),
}  # fmt: skip


async def _callers(api: Api, seed: str) -> tuple[dict[str, Any], dict[str, str | None]]:
    game, tokens = await create(api, "TREELINGS", 2, seed=seed)
    _, other_tokens = await create(api, "TREELINGS", 2, seed=seed + "-other")
    assert game["toAct"] == [0]
    return game, {
        "none": None,
        "seat": tokens[0],
        "other_seat": tokens[1],
        "other_game": other_tokens[0],
        "garbage": "0.garbage",
    }


async def _move(api: Api, game_id: str, token: str) -> Any:
    return (await api.gql(gql.GAME, {"id": game_id}, token))["game"]["legalMoves"][0]["move"]


@pytest.mark.parametrize("caller", CALLERS)
@pytest.mark.parametrize("operation", sorted(GRAPHQL))
async def test_graphql_matrix(api: Api, operation: str, caller: str) -> None:
    game, tokens = await _callers(api, f"matrix-{operation}-{caller}")
    token = tokens[caller]
    move = await _move(api, game["id"], tokens["seat"] or "")
    expected = GRAPHQL[operation][caller]
    if operation == "applyMove":
        result = await apply(api, game["id"], token, move)
        outcome = "ok" if result["__typename"] == "MoveApplied" else result["code"]
        assert outcome == expected
        return
    if operation in ("resign", "abandonGame"):
        query = (
            f"mutation E($id: ID!) {{ {operation}(gameId: $id) {{ __typename "
            "... on MoveRejected { code } } }"
        )
        ended = (await api.post(query, {"id": game["id"]}, token)).json()["data"][operation]
        assert ("ok" if ended["__typename"] == "MoveApplied" else ended["code"]) == expected
        return
    if operation == "validateMove":
        query = (
            "query V($id: ID!, $m: JSON!) { validateMove(gameId: $id, move: $m) { valid code } }"
        )
        body = (await api.post(query, {"id": game["id"], "m": move}, token)).json()
        verdict = body["data"]["validateMove"]
        assert ("ok" if verdict["valid"] else verdict["code"]) == expected
        return
    query = {
        "game": "query G($id: ID!) { game(id: $id) { viewer state } }",
        "history": "query H($id: ID!) { game(id: $id) { history { version } } }",
        "catalog": "{ catalog { kind } }",
    }[operation]
    body = (
        await api.post(query, {"id": game["id"]} if operation != "catalog" else {}, token)
    ).json()
    if isinstance(expected, str) and expected != "ok":
        assert body["errors"][0]["extensions"]["code"] == expected
        assert body["data"]["game"] is None
        return
    assert "errors" not in body
    if operation == "game":
        assert body["data"]["game"]["viewer"] == expected


@pytest.mark.parametrize("caller", CALLERS)
@pytest.mark.parametrize(("method", "suffix"), sorted(REST))
async def test_rest_matrix(api: Api, method: str, suffix: str, caller: str) -> None:
    game, tokens = await _callers(api, f"rest-matrix-{suffix}-{caller}")
    token = tokens[caller]
    move = await _move(api, game["id"], tokens["seat"] or "")
    headers = {"authorization": f"Bearer {token}"} if token else {}
    response = await api.http.request(
        method,
        f"/v1/games/{game['id']}{suffix}",
        json={"move": move} if method == "POST" else None,
        headers=headers,
    )
    assert response.status_code == REST[(method, suffix)][caller], response.text
    if response.status_code == 401:
        assert response.headers["www-authenticate"] == "Bearer"
        assert response.json()["title"] == "Not a seat of this game"


async def test_api_keys_guard_game_creation(redis_url: str) -> None:
    settings = Settings(api_keys=("key-one", "key-two"), rate_limit_per_token=0)
    async with client_for(create_app(settings, redis_url)) as http:
        api = Api(http)
        query, variables = gql.CREATE, {"input": {"kind": "TREELINGS", "players": 2}}
        for headers in [{}, {"x-api-key": "wrong"}]:
            body = (
                await http.post(
                    "/graphql", json={"query": query, "variables": variables}, headers=headers
                )
            ).json()
            assert body["errors"][0]["extensions"]["code"] == "UNAUTHORIZED"
            assert "key-one" not in str(body)
            rest = await http.post(
                "/v1/games", json={"kind": "TREELINGS", "players": 2}, headers=headers
            )
            assert rest.status_code == 401
            # issue 31: titled for what is missing, not "Not a seat of this game"
            assert rest.json()["title"] == "API key needed"
            assert rest.headers["content-type"] == "application/problem+json"
        listing = await http.get("/v1/games")
        assert (listing.status_code, listing.json()["title"]) == (401, "API key needed")
        ok = await http.post(
            "/graphql",
            json={"query": query, "variables": variables},
            headers={"x-api-key": "key-two"},
        )
        game = ok.json()["data"]["createGame"]["game"]
        assert (
            await http.post(
                "/v1/games",
                json={"kind": "TREELINGS", "players": 2},
                headers={"x-api-key": "key-one"},
            )
        ).status_code == 201
        assert (await api.gql(gql.GAME, {"id": game["id"]}))["game"]["id"] == game["id"], (
            "reads need no key"
        )
