"""The authorization matrix: every operation x every kind of caller, GraphQL and REST.

Callers: no token (a spectator), the seat to act, another seat of the same game, a seat
token of another game, and a garbage token. Then, on a server with two tenants' keys, acting
for a seat and reissued tokens: the game's tenant as either seat, another tenant,
a seat token naming another seat or its own, a spectator or a wrong key naming a seat, and a
reissued seat's old and new token.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from service.app import create_app
from service.settings import Settings
from tests.conftest import Api, client_for
from tests.support import gql
from tests.support.play import apply, create, create_game
from tests.support.tenants import ACME, GLOBEX, tenants_app
from tests.support.tenants import post as tenant_post

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
            # Titled for what is missing, not "Not a seat of this game"
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


# Acting for a seat and reissued tokens, on a server with two tenants' keys: the
# game is ACME's, seat 0 is to act, and seat 0's first token was reissued before each call.
# A caller is (API key, bearer token, the seat it names: asSeat / X-Act-As-Seat).
ACTING_CALLERS: dict[str, tuple[str | None, str | None, int | None]] = {
    "tenant": (ACME, None, 0),
    "tenant_other_seat": (ACME, None, 1),
    "foreign_tenant": (GLOBEX, None, 0),
    "seat_for_other": (None, "seat1", 0),
    "seat_for_itself": (None, "new", 0),
    "spectator_as_seat": (None, None, 0),
    "wrong_key": ("not-a-key", None, 0),
    "reissued_old": (None, "old", None),
    "reissued_new": (None, "new", None),
}
_SEATED = {"tenant": "ok", "tenant_other_seat": "ok", "seat_for_itself": "ok", "reissued_new": "ok"}
_REFUSED = {
    "foreign_tenant": "NOT_FOUND",
    "seat_for_other": "FORBIDDEN",
    "spectator_as_seat": "UNAUTHORIZED",
    "wrong_key": "UNAUTHORIZED",
    "reissued_old": "UNAUTHORIZED",
}
_TO_ACT = {**_SEATED, "tenant_other_seat": "NOT_YOUR_TURN", **_REFUSED}
ACTING_GRAPHQL = {
    "game": {**_SEATED, **_REFUSED, "foreign_tenant": "NULL"},  # as for no such game
    "history": {**_SEATED, **_REFUSED, "foreign_tenant": "NULL"},
    "validateMove": _TO_ACT,
    "applyMove": _TO_ACT,
    "suggestMove": _TO_ACT,
    "resign": {**_SEATED, **_REFUSED},
    # the tenant's own act: a seat token is no key
    "reissueSeatToken": {
        **dict.fromkeys(ACTING_CALLERS, "UNAUTHORIZED"),
        "tenant": "ok",
        "tenant_other_seat": "ok",
        "foreign_tenant": "NOT_FOUND",
    },
}
_STATUS = {"ok": 200, "NOT_YOUR_TURN": 409, "NOT_FOUND": 404, "FORBIDDEN": 403}
_STATUS |= {"UNAUTHORIZED": 401}
ACTING_REST = {
    (method, suffix): {
        caller: _STATUS[outcome]
        for caller, outcome in {**_SEATED, **_REFUSED, **(overrides or {})}.items()
    }
    for method, suffix, overrides in [
        ("GET", "", None),
        ("GET", "/legal-moves", None),
        ("GET", "/scores", None),
        ("GET", "/history", None),
        ("GET", "/state?version=0", None),
        ("POST", "/validate", None),  # a verdict, 200, once the caller is a seat
        ("POST", "/moves", {"tenant_other_seat": "NOT_YOUR_TURN"}),
        ("POST", "/suggest", {"tenant_other_seat": "NOT_YOUR_TURN"}),
        ("POST", "/resign", None),
        ("POST", "/seats/{seat}/token", ACTING_GRAPHQL["reissueSeatToken"]),
    ]
}


@pytest.fixture(scope="module")
async def keyed(redis_url: str) -> AsyncIterator[httpx.AsyncClient]:
    async with tenants_app(redis_url) as http:
        yield http


async def _acting_game(
    http: httpx.AsyncClient, caller: str, test: str
) -> tuple[str, Any, tuple[str | None, str | None, int | None]]:
    """ACME's game, seat 0's token reissued, seat 0's first legal move, and the caller."""
    payload = await create_game(http, key=ACME, seed=f"acting-matrix-{test}")
    game_id, tokens = payload["game"]["id"], {"old": payload["seats"][0]["token"]}
    tokens["seat1"] = payload["seats"][1]["token"]
    reissued = await tenant_post(
        http,
        "mutation R($id: ID!) { reissueSeatToken(gameId: $id, seat: 0) { token } }",
        {"id": game_id},
        ACME,
    )
    tokens["new"] = reissued["data"]["reissueSeatToken"]["token"]
    key, token, seat = ACTING_CALLERS[caller]
    legal = await tenant_post(http, _SEEN, {"id": game_id}, None, tokens["new"])
    move = legal["data"]["game"]["legalMoves"][0]["move"]
    return game_id, move, (key, None if token is None else tokens[token], seat)


_SEEN = "query G($id: ID!, $as: Int) { game(id: $id, asSeat: $as) { viewer legalMoves { move } } }"
_ACTING_DOCUMENTS = {
    "game": _SEEN,
    "history": "query H($id: ID!, $as: Int) { game(id: $id, asSeat: $as) { history { version } } }",
    "validateMove": "query V($id: ID!, $m: JSON!, $as: Int) { validateMove(gameId: $id, move: $m, "
    "asSeat: $as) { valid code } }",
    "applyMove": "mutation A($id: ID!, $m: JSON!, $as: Int) { applyMove(input: {gameId: $id, "
    "move: $m, asSeat: $as}) { __typename ... on MoveRejected { code } } }",
    "suggestMove": "query S($id: ID!, $as: Int) { suggestMove(gameId: $id, strategy: RANDOM, "
    "iterations: 1, asSeat: $as) { seat } }",
    "resign": "mutation Q($id: ID!, $as: Int) { resign(gameId: $id, asSeat: $as) { __typename "
    "... on MoveRejected { code } } }",
    "reissueSeatToken": "mutation R($id: ID!, $seat: Int!) { reissueSeatToken(gameId: $id, "
    "seat: $seat) { seat } }",
}


@pytest.mark.parametrize("caller", ACTING_CALLERS)
@pytest.mark.parametrize("operation", sorted(ACTING_GRAPHQL))
async def test_graphql_acting_matrix(keyed: httpx.AsyncClient, operation: str, caller: str) -> None:
    game_id, move, (key, token, seat) = await _acting_game(keyed, caller, f"{operation}-{caller}")
    variables: dict[str, Any] = {"id": game_id, "m": move, "as": seat, "seat": seat or 0}
    document = _ACTING_DOCUMENTS[operation]
    used = {name: value for name, value in variables.items() if f"${name}" in document}
    body = await tenant_post(keyed, document, used, key, token)
    expected = ACTING_GRAPHQL[operation][caller]
    data = (body.get("data") or {}).get("game" if operation == "history" else operation)
    if "errors" in body:
        outcome = body["errors"][0]["extensions"]["code"]
    elif data is None:
        outcome = "NULL"
    elif operation == "validateMove":
        outcome = "ok" if data["valid"] else data["code"]
    elif operation in ("applyMove", "resign"):
        outcome = data.get("code", "ok")
    else:
        outcome = "ok"
    assert outcome == expected, body
    if operation == "game" and outcome == "ok":
        assert data["viewer"] == (0 if seat is None else seat)


@pytest.mark.parametrize("caller", ACTING_CALLERS)
@pytest.mark.parametrize(("method", "suffix"), sorted(ACTING_REST))
async def test_rest_acting_matrix(
    keyed: httpx.AsyncClient, method: str, suffix: str, caller: str
) -> None:
    game_id, move, (key, token, seat) = await _acting_game(keyed, caller, f"rest-{suffix}-{caller}")
    headers = {"authorization": f"Bearer {token}"} if token else {}
    if key is not None:
        headers["x-api-key"] = key
    if seat is not None and "/token" not in suffix:
        headers["x-act-as-seat"] = str(seat)
    body: dict[str, Any] | None = None
    if suffix == "/suggest":
        body = {"strategy": "RANDOM", "iterations": 1}
    elif method == "POST" and "/token" not in suffix and suffix != "/resign":
        body = {"move": move}
    response = await keyed.request(
        method,
        f"/v1/games/{game_id}{suffix.format(seat=seat or 0)}",
        json=body,
        headers=headers,
    )
    assert response.status_code == ACTING_REST[(method, suffix)][caller], response.text
    if response.status_code >= 400:
        assert response.headers["content-type"] == "application/problem+json"
