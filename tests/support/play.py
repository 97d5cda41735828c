"""Playing whole games over the API with only the tokens createGame returned."""

from __future__ import annotations

import random
from typing import Any

import httpx

from tests.conftest import Api
from tests.support import gql
from tests.support.waiting import until


async def create_game(
    http: httpx.AsyncClient, *, document: str = gql.CREATE, key: str | None = None, **fields: Any
) -> dict[str, Any]:
    """createGame over GraphQL, the one way the tests create a game: its payload (`game` and
    `seats` as `document` selects them). `fields` are CreateGameInput's (a 2-player TREELINGS
    game unless they say otherwise); `key` is a tenant's API key."""
    variables = {"input": {"kind": "TREELINGS", "players": 2, **fields}}
    headers = {"x-api-key": key} if key else {}
    response = await http.post(
        "/graphql", json={"query": document, "variables": variables}, headers=headers
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    assert "errors" not in body, body
    payload: dict[str, Any] = body["data"]["createGame"]
    return payload


def bot_seats(bots: dict[int, str]) -> list[dict[str, Any]]:
    """CreateGameInput's `bots` for {seat: strategy}."""
    return [{"seat": seat, "strategy": strategy} for seat, strategy in bots.items()]


async def create(
    api: Api, kind: str, players: int, seed: str = "s", options: dict[str, Any] | None = None
) -> tuple[dict[str, Any], list[str]]:
    """A game and its seat tokens, by seat."""
    payload = await create_game(api.http, kind=kind, players=players, seed=seed, options=options)
    return payload["game"], [s["token"] for s in payload["seats"]]


async def apply(
    api: Api, game_id: str, token: str | None, move: Any, **extra: Any
) -> dict[str, Any]:
    data = await api.gql(gql.APPLY, {"input": {"gameId": game_id, "move": move, **extra}}, token)
    result: dict[str, Any] = data["applyMove"]
    return result


async def play_to_end(
    api: Api, game: dict[str, Any], tokens: list[str], seed: str
) -> dict[str, Any]:
    """Random legal moves, each sent by the seat to act with its expected version."""
    chooser = random.Random(seed)
    while game["status"] == "ACTIVE":
        seat = chooser.choice(game["toAct"])
        seen = (await api.gql(gql.GAME, {"id": game["id"]}, tokens[seat]))["game"]
        assert seen["viewer"] == seat and seen["version"] == game["version"]
        assert seen["legalMoves"], f"seat {seat} is to act but has no legal move"
        move = chooser.choice(seen["legalMoves"])["move"]
        result = await apply(api, game["id"], tokens[seat], move, expectedVersion=seen["version"])
        assert result["__typename"] == "MoveApplied", result
        assert result["game"]["version"] > game["version"]
        game = result["game"]
    return game


async def until_seat_acts(api: Api, game_id: str, token: str, seat: int) -> dict[str, Any]:
    """The game as `seat` sees it once the bots have played up to its turn (or the end)."""

    async def seen_when_it_acts() -> dict[str, Any] | None:
        seen: dict[str, Any] = (await api.gql(gql.GAME, {"id": game_id}, token))["game"]
        return seen if seat in seen["toAct"] or seen["status"] == "FINISHED" else None

    found: dict[str, Any] = await until(seen_when_it_acts, f"seat {seat} to act")
    return found
