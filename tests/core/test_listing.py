"""Tenants, player ids and listing (issue 19): a tenant's games, a player's, "my turn".

Two tenants on one server (RULES_API_KEYS `acme:...,globex:...`); every listing is checked
against the games each one created, over GraphQL and REST.
"""

from __future__ import annotations

import secrets
from typing import Any

import httpx
import pytest

from tests.support.play import create_game
from tests.support.tenants import (
    ACME,
    CREATE,
    GLOBEX,
    LEGAL,
    LIST,
    MOVE,
    SEATS,
    post,
)


async def listed(
    http: httpx.AsyncClient, key: str | None, first: int = 100, **filter: Any
) -> list[str]:
    body = await post(http, LIST, {"filter": filter, "first": first}, key)
    assert "errors" not in body, body
    return [edge["node"]["id"] for edge in body["data"]["games"]["edges"]]


def user() -> str:
    return f"user-{secrets.token_hex(6)}"


async def test_player_ids_are_returned_with_the_seats_to_their_tenant_only(
    http: httpx.AsyncClient,
) -> None:
    alice, bob = user(), user()
    payload = await create_game(http, document=CREATE, key=ACME, playerIds=[alice, bob])
    assert [s["playerId"] for s in payload["seats"]] == [alice, bob]
    assert [s["playerId"] for s in payload["game"]["seats"]] == [alice, bob]
    game_id = payload["game"]["id"]
    own = await post(http, SEATS, {"id": game_id}, ACME)
    assert [s["playerId"] for s in own["data"]["game"]["seats"]] == [alice, bob]
    for key in (GLOBEX, None, "wrong-key"):
        other = await post(http, SEATS, {"id": game_id}, key)
        assert [s["playerId"] for s in other["data"]["game"]["seats"]] == [None, None]
    rest = await http.get(f"/v1/games/{game_id}", headers={"x-api-key": GLOBEX})
    assert [s["playerId"] for s in rest.json()["seats"]] == [None, None]


async def test_my_turn_follows_the_moves_and_each_tenant_sees_only_its_own_games(
    http: httpx.AsyncClient,
) -> None:
    alice, bob = user(), user()
    payload = await create_game(http, document=CREATE, key=ACME, playerIds=[alice, bob])
    game_id, tokens = payload["game"]["id"], [s["token"] for s in payload["seats"]]
    first_seat = payload["game"]["toAct"][0]
    players = [alice, bob]
    assert game_id in await listed(http, ACME)
    assert await listed(http, ACME, playerId=alice) == [game_id]
    assert await listed(http, ACME, toActPlayerId=players[first_seat]) == [game_id]
    assert await listed(http, ACME, toActPlayerId=players[1 - first_seat]) == []
    # another tenant never lists them, whatever the filter
    assert game_id not in await listed(http, GLOBEX)
    assert await listed(http, GLOBEX, playerId=alice) == []
    # one move: the turn passes (the index follows in the move's own commit)
    legal = await post(http, LEGAL, {"id": game_id}, token=tokens[first_seat])
    move = legal["data"]["game"]["legalMoves"][0]["move"]
    moved = await post(http, MOVE, {"id": game_id, "move": move}, token=tokens[first_seat])
    to_act = moved["data"]["applyMove"]["game"]["toAct"]
    for seat in (0, 1):
        expected = [game_id] if seat in to_act else []
        assert await listed(http, ACME, toActPlayerId=players[seat]) == expected
    assert await listed(http, ACME, playerId=bob, status="ACTIVE") == [game_id]
    assert await listed(http, ACME, playerId=bob, status="FINISHED") == []
    assert await listed(http, ACME, playerId=bob, kind="TREETOPIA") == []


async def test_pages_walk_every_game_once_newest_first(http: httpx.AsyncClient) -> None:
    carol = user()
    created = [
        (await create_game(http, document=CREATE, key=ACME, playerIds=[carol, None]))["game"]["id"]
        for _ in range(5)
    ]
    seen: list[str] = []
    after = None
    while True:
        body = await post(
            http, LIST, {"filter": {"playerId": carol}, "first": 2, "after": after}, ACME
        )
        games = body["data"]["games"]
        seen += [edge["node"]["id"] for edge in games["edges"]]
        if not games["pageInfo"]["hasNextPage"]:
            break
        after = games["pageInfo"]["endCursor"]
    assert seen == created[::-1]
    # REST: the same pages, the next one in the Link header
    url: str | None = f"/v1/games?playerId={carol}&first=2"
    rest: list[str] = []
    while url:
        response = await http.get(url, headers={"x-api-key": ACME})
        assert response.status_code == 200, response.text
        rest += [game["id"] for game in response.json()["games"]]
        url = response.links.get("next", {}).get("url")
    assert rest == seen
    later = await listed(http, ACME, playerId=carol, createdAfter="2100-01-01T00:00:00Z")
    assert later == []


@pytest.mark.parametrize(
    ("variables", "code"),
    [
        ({"first": 0}, "BAD_USER_INPUT"),
        ({"first": 101}, "BAD_USER_INPUT"),
        ({"after": "not a cursor"}, "BAD_USER_INPUT"),
        ({"filter": {"playerId": "x" * 129}}, "BAD_USER_INPUT"),
    ],
)
async def test_a_bad_listing_is_a_typed_refusal(
    http: httpx.AsyncClient, variables: dict[str, Any], code: str
) -> None:
    body = await post(http, LIST, variables, ACME)
    assert body["errors"][0]["extensions"]["code"] == code


async def test_listing_needs_a_tenants_key(http: httpx.AsyncClient) -> None:
    for key in (None, "wrong-key"):
        body = await post(http, LIST, {}, key)
        assert body["errors"][0]["extensions"]["code"] == "UNAUTHORIZED"
        headers = {"x-api-key": key} if key else {}
        response = await http.get("/v1/games", headers=headers)
        assert response.status_code == 401 and response.json()["code"] == "UNAUTHORIZED"


@pytest.mark.parametrize(
    "query",
    ["first=x", "status=DONE", "kind=CHESS", "createdAfter=yesterday", "after=%%", "nope=1"],
)
async def test_a_bad_rest_listing_is_a_problem(http: httpx.AsyncClient, query: str) -> None:
    response = await http.get(f"/v1/games?{query}", headers={"x-api-key": ACME})
    assert response.status_code == 400, response.text
    assert response.json()["code"] == "BAD_REQUEST"


async def test_a_bad_player_id_is_refused_at_create(http: httpx.AsyncClient) -> None:
    for ids in (["x" * 129, None], ["", None], ["a", "b", "c"]):
        variables = {"input": {"kind": "TREELINGS", "players": 2, "playerIds": ids}}
        body = await post(http, CREATE, variables, ACME)
        assert body["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"
