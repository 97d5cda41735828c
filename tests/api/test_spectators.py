"""Delayed spectators through the real app: GraphQL over HTTP (strawberry and the
fast path), REST (reads, ETags, Cache-Control), listings and gameEvents over a WebSocket of a
service process. A spectator (no seat token, not the game's tenant) never sees a version newer
than `spectatorDelay` behind the live one; seats and the tenant's key see it live."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
import websockets
from websockets.typing import Subprotocol

from service.app import create_app
from service.settings import Settings
from tests.conftest import client_for
from tests.support import gql
from tests.support.processes import service_processes
from tests.support.tenants import ACME, GLOBEX, KEYS

DELAY = 2
GAME = """query G($id: ID!) {
  game(id: $id) { id version status toAct viewer state spectatorDelay
                  scores { final winners entries { seat points } }
                  history { version } }
}"""
STATE_AT = "query S($id: ID!, $v: Int!) { game(id: $id) { stateAt(version: $v) } }"
LISTING = "{ games(first: 100) { edges { node { id version toAct spectatorDelay } } } }"


@pytest.fixture(scope="module", params=[True, False], ids=["fast-path", "strawberry"])
async def http(redis_url: str, request: pytest.FixtureRequest) -> AsyncIterator[httpx.AsyncClient]:
    """The app with two tenants (ACME and GLOBEX), with and without the GraphQL fast path."""
    settings = Settings(
        api_keys=KEYS,
        rate_limit_per_token=0,
        rate_limit_per_address=0,
        graphql_fast_path=request.param,
    )
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


async def data(http: httpx.AsyncClient, query: str, variables: dict[str, Any], **who: Any) -> Any:
    body = await post(http, query, variables, **who)
    assert "errors" not in body, body
    return body["data"]


async def delayed_game(
    http: httpx.AsyncClient, moves: int, key: str | None = ACME, seed: str = "spectators"
) -> tuple[str, list[str], int]:
    """A game created with `spectatorDelay: DELAY`, and `moves` random moves by its seats:
    its id, its seats' tokens and its live version."""
    created = await data(
        http,
        gql.CREATE,
        {"input": {"kind": "TREELINGS", "players": 2, "seed": seed, "spectatorDelay": DELAY}},
        key=key,
    )
    game = created["createGame"]["game"]
    tokens = [s["token"] for s in created["createGame"]["seats"]]
    chooser = random.Random(seed)
    for _ in range(moves):
        seat = game["toAct"][0]
        mine = (await data(http, gql.GAME, {"id": game["id"]}, token=tokens[seat]))["game"]
        move = chooser.choice(mine["legalMoves"])["move"]
        applied = await data(
            http, gql.APPLY, {"input": {"gameId": game["id"], "move": move}}, token=tokens[seat]
        )
        game = applied["applyMove"]["game"]
    return game["id"], tokens, game["version"]


async def test_graphql_shows_a_spectator_the_game_delay_versions_behind(
    http: httpx.AsyncClient,
) -> None:
    game_id, tokens, live = await delayed_game(http, 4)
    allowed = live - DELAY
    spectator = (await data(http, GAME, {"id": game_id}))["game"]
    assert (spectator["version"], spectator["spectatorDelay"]) == (allowed, DELAY)
    assert spectator["history"][-1]["version"] == allowed
    # what a spectator sees is the game as of that version, as the tenant reads it back
    then = await data(http, STATE_AT, {"id": game_id, "v": allowed}, key=ACME)
    assert spectator["state"] == then["game"]["stateAt"]
    # the fast path's document (gql.GAME) too, and another tenant's key is a spectator's
    for who in ({}, {"key": GLOBEX}):
        seen = (await data(http, gql.GAME, {"id": game_id}, **who))["game"]
        assert (seen["version"], seen["viewer"], seen["legalMoves"]) == (allowed, None, [])
        assert seen["toAct"] == spectator["toAct"] and seen["state"] == spectator["state"]
    # the seat and the game's tenant: live
    for who in ({"token": tokens[0]}, {"key": ACME}):
        assert (await data(http, gql.GAME, {"id": game_id}, **who))["game"]["version"] == live
    # a later version is refused as a future one is
    for version in (allowed + 1, live):
        refused = await post(http, STATE_AT, {"id": game_id, "v": version})
        assert refused["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT", refused
        assert refused["data"] == {"game": None}


async def test_the_delay_lifts_once_the_game_is_over(http: httpx.AsyncClient) -> None:
    game_id, tokens, _ = await delayed_game(http, 3, seed="lifts")
    resign = await data(http, gql.RESIGN, {"id": game_id}, token=tokens[0])
    ended = resign["resign"]["game"]
    assert ended["status"] == "FINISHED"
    seen = (await data(http, GAME, {"id": game_id}))["game"]
    assert (seen["version"], seen["status"]) == (ended["version"], "FINISHED")
    assert seen["history"][-1]["version"] == ended["version"]


@pytest.mark.parametrize("delay", [-1, 101])
async def test_a_delay_out_of_bounds_is_refused_as_bad_input(
    http: httpx.AsyncClient, delay: int
) -> None:
    variables = {"input": {"kind": "TREELINGS", "players": 2, "spectatorDelay": delay}}
    body = await post(http, gql.CREATE, variables, key=ACME)
    assert body["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT", body
    assert "spectatorDelay is 0 to 100" in body["errors"][0]["message"]
    rest = await http.post(
        "/v1/games",
        json={"kind": "TREELINGS", "players": 2, "spectatorDelay": delay},
        headers={"x-api-key": ACME},
    )
    assert rest.status_code == 422 and rest.json()["code"] == "BAD_USER_INPUT", rest.text


async def test_rest_shows_a_spectator_the_game_delay_versions_behind(
    http: httpx.AsyncClient,
) -> None:
    game_id, tokens, live = await delayed_game(http, 4, seed="rest")
    allowed, url = live - DELAY, f"/v1/games/{game_id}"
    spectator = await http.get(url)
    assert spectator.status_code == 200
    body = spectator.json()
    assert (body["version"], body["spectatorDelay"], body["legalMoves"]) == (allowed, DELAY, [])
    assert spectator.headers["cache-control"].startswith("public")
    tenant = await http.get(url, headers={"x-api-key": ACME})
    assert tenant.json()["version"] == live and tenant.headers["etag"] != spectator.headers["etag"]
    assert (await http.get(url, headers={"x-api-key": GLOBEX})).json()["version"] == allowed

    legal = (await http.get(f"{url}/legal-moves")).json()
    assert legal == {"version": allowed, "legalMoves": []}
    assert (await http.get(f"{url}/scores")).json() == body["scores"]
    history = (await http.get(f"{url}/history")).json()
    assert history["version"] == allowed and history["history"][-1]["version"] == allowed
    then = (await http.get(f"{url}/state", params={"version": allowed})).json()
    assert then == {"version": allowed, "state": body["state"]}
    future = await http.get(f"{url}/state", params={"version": live})
    assert future.status_code == 400 and future.json()["code"] == "BAD_REQUEST", future.text

    # the spectator's tag holds until the version it may see moves on
    tag = spectator.headers["etag"]
    assert (await http.get(url, headers={"if-none-match": tag})).status_code == 304
    seat = tenant.json()["toAct"][0]
    mine = (await http.get(f"{url}/legal-moves", headers=_auth(tokens[seat]))).json()
    moved = await http.post(
        f"{url}/moves", json={"move": mine["legalMoves"][0]["move"]}, headers=_auth(tokens[seat])
    )
    assert moved.status_code == 200 and moved.json()["game"]["version"] == live + 1
    again = await http.get(url, headers={"if-none-match": tag})
    assert again.status_code == 200 and again.json()["version"] == allowed + 1


def _auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


async def test_the_tenants_listing_is_live(http: httpx.AsyncClient) -> None:
    game_id, _, live = await delayed_game(http, 3, seed="tenant-listing")
    listed = await data(http, LISTING, {}, key=ACME)
    nodes = {e["node"]["id"]: e["node"] for e in listed["games"]["edges"]}
    assert (nodes[game_id]["version"], nodes[game_id]["spectatorDelay"]) == (live, DELAY)


async def test_without_api_keys_listings_show_every_game_delayed(redis_url: str) -> None:
    """Without RULES_API_KEYS anyone may list (every caller is the default tenant): a listing
    is a spectator's, GraphQL and REST alike."""
    settings = Settings(rate_limit_per_token=0, rate_limit_per_address=0)
    async with client_for(create_app(settings, redis_url)) as http:
        game_id, _, live = await delayed_game(http, 3, key=None, seed="keyless-listing")
        listed = await data(http, LISTING, {})
        nodes = {e["node"]["id"]: e["node"] for e in listed["games"]["edges"]}
        assert nodes[game_id]["version"] == live - DELAY
        spectator = (await data(http, gql.GAME, {"id": game_id}))["game"]
        assert nodes[game_id]["toAct"] == spectator["toAct"]
        rest = (await http.get("/v1/games", params={"first": 100})).json()
        versions = {g["id"]: g["version"] for g in rest["games"]}
        assert versions[game_id] == live - DELAY


# --- gameEvents over a WebSocket of a service process ---------------------------------------

SUBSCRIBE = """subscription E($id: ID!, $after: Int) {
  gameEvents(gameId: $id, afterVersion: $after) { version status game { version } }
}"""


@pytest.fixture(scope="module")
def replica(redis_url: str) -> Iterator[str]:
    with service_processes(redis_url, 1, {"RULES_API_KEYS": ",".join(KEYS)}) as (url,):
        yield url


async def _subscribe(url: str, game_id: str, key: str | None, after: int | None = None) -> Any:
    socket = await websockets.connect(
        url.replace("http", "ws") + "/graphql",
        subprotocols=[Subprotocol("graphql-transport-ws")],
        additional_headers={"x-api-key": key} if key else {},
    )
    await socket.send(json.dumps({"type": "connection_init", "payload": {}}))
    assert json.loads(await socket.recv())["type"] == "connection_ack"
    variables = {"id": game_id, "after": after}
    await socket.send(
        json.dumps(
            {
                "id": "1",
                "type": "subscribe",
                "payload": {"query": SUBSCRIBE, "variables": variables},
            }
        )
    )
    return socket


async def _next(socket: Any) -> dict[str, Any]:
    async with asyncio.timeout(60):
        message = json.loads(await socket.recv())
    assert message["type"] == "next", message
    assert "errors" not in message["payload"], message
    event: dict[str, Any] = message["payload"]["data"]["gameEvents"]
    assert event["game"]["version"] == event["version"]  # the game as of the event, as seen
    return event


async def test_a_spectators_subscription_gets_each_version_delay_behind(replica: str) -> None:
    async with httpx.AsyncClient(base_url=replica) as http:
        game_id, tokens, live = await delayed_game(http, 0, seed="sockets")
        spectator = await _subscribe(replica, game_id, None)
        tenant = await _subscribe(replica, game_id, ACME)
        assert (await _next(spectator))["version"] == max(live - DELAY, 0)
        assert (await _next(tenant))["version"] == live
        # a version the spectator may not see yet is refused as a future one
        early = await _subscribe(replica, game_id, None, after=max(live - DELAY, 0) + 1)
        async with asyncio.timeout(60):
            refused = json.loads(await early.recv())
        assert refused["payload"]["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT", refused
        await early.close()
        chooser = random.Random(11)
        spectated = [max(live - DELAY, 0)]
        status = "ACTIVE"
        while status == "ACTIVE":
            game = (await data(http, gql.GAME, {"id": game_id}, key=ACME))["game"]
            seat = chooser.choice(game["toAct"])
            mine = (await data(http, gql.GAME, {"id": game_id}, token=tokens[seat]))["game"]
            move = chooser.choice(mine["legalMoves"])["move"]
            applied = await data(
                http, gql.APPLY, {"input": {"gameId": game_id, "move": move}}, token=tokens[seat]
            )
            live, status = (
                applied["applyMove"]["game"]["version"],
                applied["applyMove"]["game"]["status"],
            )
            assert (await _next(tenant))["version"] == live
            if status == "ACTIVE" and live - DELAY > spectated[-1]:
                event = await _next(spectator)
                assert (event["version"], event["status"]) == (live - DELAY, "ACTIVE")
                spectated.append(event["version"])
        # the end: every version left, at once, the last one FINISHED
        while spectated[-1] < live:
            event = await _next(spectator)
            spectated.append(event["version"])
        assert event["status"] == "FINISHED"
        assert spectated == list(range(spectated[0], live + 1))
        for socket in (spectator, tenant):
            await socket.close()
