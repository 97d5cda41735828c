"""Cache-Control on every answer (service/api/edge/caching.py): what a
spectator reads may be kept by shared caches for a moment, what a seat or a tenant reads never,
and neither may writes, refusals, errors or health."""

from __future__ import annotations

import hashlib
import json

import httpx

from service.app import create_app
from service.settings import Settings
from tests.conftest import Api, client_for
from tests.support import gql
from tests.support.play import create

PUBLIC = "public, max-age=2"
PRIVATE = "private, no-store"


def _vary(response: httpx.Response) -> set[str]:
    return {v.strip().lower() for v in response.headers.get("vary", "").split(",") if v.strip()}


def _get_params(query: str, variables: dict[str, object]) -> dict[str, str]:
    """An Apollo automatic persisted query sent as a GET with its text."""
    digest = hashlib.sha256(query.encode()).hexdigest()
    extensions = {"persistedQuery": {"version": 1, "sha256Hash": digest}}
    return {
        "query": query,
        "variables": json.dumps(variables),
        "extensions": json.dumps(extensions),
    }


async def test_rest_reads_are_public_for_spectators_and_private_for_seats(api: Api) -> None:
    http = api.http
    game, tokens = await create(api, "TREELINGS", 2, seed="cache-rest")
    seat = {"authorization": f"Bearer {tokens[0]}"}
    for suffix in ("", "/legal-moves", "/scores", "/history?after=0", "/state?version=0"):
        url = f"/v1/games/{game['id']}{suffix}"
        spectator = await http.get(url)
        assert spectator.status_code == 200
        assert spectator.headers["cache-control"] == PUBLIC, suffix
        assert {"authorization", "x-api-key"} <= _vary(spectator), suffix
        if "etag" in spectator.headers:
            held = await http.get(url, headers={"if-none-match": spectator.headers["etag"]})
            assert held.status_code == 304 and held.headers["cache-control"] == PUBLIC
        assert (await http.get(url, headers=seat)).headers["cache-control"] == PRIVATE, suffix
        tenant = await http.get(url, headers={"x-api-key": "any"})
        assert tenant.headers["cache-control"] == PRIVATE, suffix
    listing = await http.get("/v1/games", headers={"x-api-key": "any"})
    assert listing.status_code == 200 and listing.headers["cache-control"] == PRIVATE


async def test_writes_refusals_and_health_are_never_stored(api: Api) -> None:
    http = api.http
    game, tokens = await create(api, "TREELINGS", 2, seed="cache-writes")
    seat = {"authorization": f"Bearer {tokens[0]}"}
    created = await http.post("/v1/games", json={"kind": "TREELINGS", "players": 2})
    assert created.status_code == 201 and created.headers["cache-control"] == "no-store"
    moved = await http.post(f"/v1/games/{game['id']}/moves", json={"move": {}}, headers=seat)
    assert moved.headers["cache-control"] == PRIVATE
    missing = await http.get("/v1/games/nope")
    assert missing.status_code == 404 and missing.headers["cache-control"] == "no-store"
    for path in ("/healthz", "/readyz", "/metrics"):
        assert (await http.get(path)).headers["cache-control"] == "no-store", path
    posted = await api.post(gql.GAME, {"id": game["id"]})
    assert posted.headers["cache-control"] == "no-store", "a POST is not a cacheable read"


async def test_graphql_gets_follow_the_same_policy(api: Api) -> None:
    http = api.http
    game, tokens = await create(api, "TREELINGS", 2, seed="cache-graphql")
    params = _get_params(gql.GAME, {"id": game["id"]})
    spectator = await http.get("/graphql", params=params)
    assert spectator.status_code == 200 and "errors" not in spectator.json()
    assert spectator.headers["cache-control"] == PUBLIC
    assert {"authorization", "x-api-key"} <= _vary(spectator)
    seat = await http.get(
        "/graphql", params=params, headers={"authorization": f"Bearer {tokens[0]}"}
    )
    assert seat.json()["data"]["game"]["viewer"] == 0
    assert seat.headers["cache-control"] == PRIVATE
    # an answer with errors is never shared: strawberry's, the persisted query's miss
    invalid = await http.get("/graphql", params=_get_params("{ game(id: 1) { nope } }", {}))
    assert invalid.status_code == 200 and invalid.json()["errors"]
    assert invalid.headers["cache-control"] == "no-store"
    unknown = {"extensions": json.dumps({"persistedQuery": {"version": 1, "sha256Hash": "0" * 64}})}
    miss = await http.get("/graphql", params=unknown)
    assert miss.json()["errors"][0]["extensions"]["code"] == "PERSISTED_QUERY_NOT_FOUND"
    assert miss.headers["cache-control"] == "no-store"


async def test_the_public_age_is_a_setting_and_zero_shares_nothing(redis_url: str) -> None:
    for age, expected in ((30, "public, max-age=30"), (0, "no-store")):
        settings = Settings(public_max_age=age, rate_limit_per_token=0, rate_limit_per_address=0)
        async with client_for(create_app(settings, redis_url)) as http:
            created = await http.post("/v1/games", json={"kind": "TREELINGS", "players": 2})
            read = await http.get(f"/v1/games/{created.json()['game']['id']}")
            assert read.headers["cache-control"] == expected


async def test_an_answer_given_as_a_seat_is_private_without_any_credential(api: Api) -> None:
    """Without API keys (development) anyone may act as a seat: the seat's view it gets is
    private all the same (RULINGS ALL-4), on REST and on a GraphQL GET."""
    http = api.http
    game, _ = await create(api, "TREELINGS", 2, seed="cache-as-seat")
    as_seat = await http.get(
        f"/v1/games/{game['id']}/state?version=0", headers={"x-act-as-seat": "0"}
    )
    assert as_seat.status_code == 200 and as_seat.headers["cache-control"] == PRIVATE
    query = "query G($id: ID!) { game(id: $id, asSeat: 0) { viewer state } }"
    seat = await http.get("/graphql", params=_get_params(query, {"id": game["id"]}))
    assert seat.json()["data"]["game"]["viewer"] == 0
    assert seat.headers["cache-control"] == PRIVATE
