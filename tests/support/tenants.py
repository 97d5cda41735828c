"""Two tenants on one server (RULES_API_KEYS `acme:...,globex:...`) and the GraphQL calls
the tenant tests share."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx

from service.app import create_app
from service.settings import Settings
from tests.conftest import client_for

ACME, GLOBEX = "acme-secret", "globex-secret"
KEYS = (f"acme:{ACME}", f"globex:{GLOBEX}")

CREATE = """
mutation Create($input: CreateGameInput!) {
  createGame(input: $input) {
    game { id toAct seats { seat playerId bot } }
    seats { seat token playerId }
  }
}"""
LIST = """
query List($filter: GameFilter, $first: Int, $after: String) {
  games(filter: $filter, first: $first, after: $after) {
    edges { cursor node { id status kind toAct viewer seats { seat playerId } } }
    pageInfo { hasNextPage endCursor }
  }
}"""
SEATS = "query Seats($id: ID!) { game(id: $id) { seats { seat playerId } } }"
MOVE = """
mutation Move($id: ID!, $move: JSON!) {
  applyMove(input: {gameId: $id, move: $move}) {
    __typename ... on MoveApplied { game { toAct } }
  }
}"""
LEGAL = "query Legal($id: ID!) { game(id: $id) { legalMoves { move } } }"


@asynccontextmanager
async def tenants_app(redis_url: str) -> AsyncIterator[httpx.AsyncClient]:
    settings = Settings(api_keys=KEYS, rate_limit_per_token=0, rate_limit_per_address=0)
    async with client_for(create_app(settings, redis_url)) as client:
        yield client


async def post(
    http: httpx.AsyncClient,
    query: str,
    variables: dict[str, Any] | None = None,
    key: str | None = None,
    token: str | None = None,
) -> dict[str, Any]:
    headers = {"x-api-key": key} if key else {}
    if token:
        headers["authorization"] = f"Bearer {token}"
    response = await http.post(
        "/graphql", json={"query": query, "variables": variables or {}}, headers=headers
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body
