"""Automatic persisted queries over GET, as Apollo's client sends them
(gql has neither APQ nor GET, so httpx speaks the protocol): a hash alone, then the text with
its hash after PERSISTED_QUERY_NOT_FOUND, then the hash alone again. Queries only: a mutation
over GET is refused with 405 and changes nothing."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import httpx

from tests.conftest import Api
from tests.support import gql
from tests.support.play import create

BROWSER = {"accept": "text/html,application/xhtml+xml,*/*;q=0.8"}  # as a CDN passes it on
CATALOG = "query Catalog { catalog { kind title } }"


def _hash(query: str) -> str:
    return hashlib.sha256(query.encode()).hexdigest()


def _params(query: str | None, digest: str, variables: dict[str, Any]) -> dict[str, str]:
    extensions = {"persistedQuery": {"version": 1, "sha256Hash": digest}}
    params = {"variables": json.dumps(variables), "extensions": json.dumps(extensions)}
    return params if query is None else {**params, "query": query}


async def _apollo_get(
    http: httpx.AsyncClient, query: str, variables: dict[str, Any], headers: dict[str, str]
) -> tuple[list[str], dict[str, Any]]:
    """Apollo's link over GET: the hash alone, the text only when the server asks for it.
    Returns what the server answered to each try, and the data."""
    digest, tries = _hash(query), []
    for text in (None, query):
        response = await http.get(
            "/graphql", params=_params(text, digest, variables), headers=headers
        )
        assert response.status_code == 200, response.text
        assert response.headers["content-type"].startswith("application/json")
        body = response.json()
        if "errors" in body:
            tries.append(body["errors"][0]["extensions"]["code"])
            continue
        tries.append("data")
        data: dict[str, Any] = body["data"]
        return tries, data
    raise AssertionError(f"no data after {tries}")


async def test_a_hash_only_get_answers_once_the_text_is_known(api: Api) -> None:
    game, tokens = await create(api, "TREELINGS", 2, seed="apq-get")
    seat = {**BROWSER, "authorization": f"Bearer {tokens[0]}"}
    for query, variables in ((gql.GAME, {"id": game["id"]}), (CATALOG, {})):
        # the query's own text, made unique to this test: every process keeps the texts
        query = f"{query}\n# {game['id']}"
        tries, data = await _apollo_get(api.http, query, variables, seat)
        assert tries == ["PERSISTED_QUERY_NOT_FOUND", "data"], "not the GraphiQL page"
        again, cached = await _apollo_get(api.http, query, variables, seat)
        assert again == ["data"] and cached == data
    posted = await api.gql(gql.GAME, {"id": game["id"]}, tokens[0])
    assert data is not None and posted["game"]["viewer"] == 0
    spectator_tries, spectator = await _apollo_get(
        api.http, f"{gql.GAME}\n# {game['id']}", {"id": game["id"]}, BROWSER
    )
    assert spectator_tries == ["data"] and spectator["game"]["viewer"] is None


async def test_a_query_may_be_sent_with_get_without_a_hash(api: Api) -> None:
    response = await api.http.get("/graphql", params={"query": CATALOG})
    assert response.status_code == 200 and response.json()["data"]["catalog"]


async def test_a_mutation_over_get_is_refused_and_changes_nothing(api: Api) -> None:
    game, tokens = await create(api, "TREELINGS", 2, seed="apq-get-mutation")
    resign = f"{gql.RESIGN}\n# {game['id']}"
    variables = {"id": game["id"]}
    auth = {"authorization": f"Bearer {tokens[0]}"}
    # with its text (which the server then knows), then by its hash alone, then plain
    for params in (
        _params(resign, _hash(resign), variables),
        _params(None, _hash(resign), variables),
        {"query": resign, "variables": json.dumps(variables)},
    ):
        response = await api.http.get("/graphql", params=params, headers=auth)
        assert response.status_code == 405, response.text
        assert response.headers["allow"] == "POST"
        assert response.headers["cache-control"] == "private, no-store"
        error = response.json()["errors"][0]
        assert error["extensions"]["code"] == "METHOD_NOT_ALLOWED" and "POST" in error["message"]
    after = await api.gql(gql.GAME, {"id": game["id"]})
    assert after["game"]["status"] == "ACTIVE" and after["game"]["version"] == game["version"]


async def test_bad_get_parameters_are_typed_refusals(api: Api) -> None:
    for params in (
        {"query": CATALOG, "variables": "{"},
        {"query": CATALOG, "variables": "[1]"},
        {"extensions": "nope"},
    ):
        response = await api.http.get("/graphql", params=params)
        assert response.status_code == 400, params
        assert response.json()["errors"][0]["extensions"]["code"] == "BAD_REQUEST"
