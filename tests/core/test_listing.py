"""Tenants, player ids and listing: a tenant's games, a player's, "my turn".

Two tenants on one server (RULES_API_KEYS `acme:...,globex:...`); every listing is checked
against the games each one created, over GraphQL and REST. Then the cost of a listing: on a Redis of its own holding many games, every page of every filter sends at
most `budget(first)` commands (counted by the server's INFO commandstats) and the pages
still list exactly the games the filters select, newest first.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from typing import Any

import httpx
import msgspec
import pytest
from redis.asyncio.cluster import RedisCluster

from service.core.reads.listing import GameFilter, budget, list_games
from service.settings import Settings
from service.store import Record, RedisStore, connect
from service.store.jobs import new_game_id
from tests.conftest import own_redis
from tests.support import factories
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


async def test_a_page_that_ends_with_the_last_game_has_no_next_page(
    http: httpx.AsyncClient,
) -> None:
    dave = user()
    created = [
        (await create_game(http, document=CREATE, key=ACME, playerIds=[dave, None]))["game"]["id"]
        for _ in range(4)
    ]
    body = await post(http, LIST, {"filter": {"playerId": dave}, "first": 2}, ACME)
    assert body["data"]["games"]["pageInfo"]["hasNextPage"] is True
    after = body["data"]["games"]["pageInfo"]["endCursor"]
    body = await post(http, LIST, {"filter": {"playerId": dave}, "first": 2, "after": after}, ACME)
    games = body["data"]["games"]
    assert [edge["node"]["id"] for edge in games["edges"]] == created[1::-1]
    assert games["pageInfo"]["hasNextPage"] is False
    whole = await post(http, LIST, {"filter": {"playerId": dave}, "first": 4}, ACME)
    assert whole["data"]["games"]["pageInfo"]["hasNextPage"] is False
    rest = await http.get(f"/v1/games?playerId={dave}&first=4", headers={"x-api-key": ACME})
    assert rest.json()["nextCursor"] is None and "next" not in rest.links


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


# The stored games of the cost tests, oldest first: game n (created at n ms) is TREETOPIA for
# n < 4, else TREELINGS; FINISHED when n % 100 == 7 (rare: a kind + status listing skips
# ~100 entries between two); players p(n % 3) and "ben", seat n % 2 to act.
GAMES = 400
TENANT = "cost"


def _stored(n: int) -> Record:
    finished = n % 100 == 7
    record = factories.record(
        1,
        finished=finished,
        tenant=TENANT,
        player_ids=[f"p{n % 3}", "ben"],
        acting=[] if finished else [n % 2],
    )
    created = 1_000.0 + n / 1000
    kind = "TREETOPIA" if n < 4 else "TREELINGS"
    return msgspec.structs.replace(record, kind=kind, created=created, updated=created)


@pytest.fixture(scope="module")
async def stored() -> AsyncIterator[tuple[RedisStore, list[tuple[str, Record]]]]:
    """A Redis of its own (no other test's commands in its counts) holding GAMES games."""
    with own_redis() as url:
        store = RedisStore(connect(Settings(), url), Settings())
        made = [(new_game_id(), _stored(n)) for n in range(GAMES)]
        for game_id, record in made:
            assert await store.create(game_id, record, [factories.history_entry(1)])
        yield store, made
        await store.close()


async def _commands(store: RedisStore) -> int:
    """The commands the server (every master of a cluster) has run, INFO and the client's
    cluster queries left out."""
    if isinstance(store.redis, RedisCluster):
        replies = await store.redis.info("commandstats", target_nodes=RedisCluster.PRIMARIES)
        stats = list(replies.values())
    else:
        stats = [await store.redis.info("commandstats")]
    skipped = ("cmdstat_info", "cmdstat_cluster", "cmdstat_command")
    return sum(v["calls"] for s in stats for k, v in s.items() if not k.startswith(skipped))


def _selected(made: list[tuple[str, Record]], only: GameFilter) -> list[str]:
    """What `only` selects, newest first, decided here on the records alone."""
    return [
        game_id
        for game_id, r in reversed(made)
        if (only.kind is None or r.kind == only.kind)
        and (only.status is None or r.status() == only.status)
        and (only.player_id is None or only.player_id in r.player_ids)
        and (
            only.to_act_player_id is None
            or any(r.player_ids[s] == only.to_act_player_id for s in r.acting)
        )
        and (only.created_after is None or r.created > only.created_after)
    ]


async def _walk(store: RedisStore, only: GameFilter, first: int) -> tuple[list[str], int, int]:
    """Every page of `only`: the games listed, the most commands one page sent and the pages
    the budget ended early (no game or fewer than `first`, and more to come)."""
    listed: list[str] = []
    most, early, after = 0, 0, None
    while True:
        before = await _commands(store)
        page = await list_games(store, TENANT, only, first, after)
        most = max(most, await _commands(store) - before)
        listed += [loaded.id for _, loaded in page.games]
        if not page.has_next:
            return listed, most, early
        early += len(page.games) < first
        assert page.end_cursor is not None
        after = page.end_cursor


async def test_a_kind_listing_among_many_games_of_other_kinds_costs_few_commands(
    stored: tuple[RedisStore, list[tuple[str, Record]]],
) -> None:
    store, made = stored
    before = await _commands(store)
    page = await list_games(store, TENANT, GameFilter(kind="TREETOPIA"), 1, None)
    spent = await _commands(store) - before
    assert [loaded.id for _, loaded in page.games] == [made[3][0]]
    assert spent <= 100, f"{spent} commands for one game"  # 17,003 before


async def test_every_filters_pages_list_what_it_selects_within_the_budget(
    stored: tuple[RedisStore, list[tuple[str, Record]]],
) -> None:
    store, made = stored
    filters = [
        GameFilter(),
        GameFilter(kind="TREETOPIA"),
        GameFilter(kind="TREELINGS", status="FINISHED"),
        GameFilter(status="FINISHED"),
        GameFilter(player_id="p1"),
        GameFilter(player_id="p1", kind="TREETOPIA"),
        GameFilter(to_act_player_id="p1"),
        GameFilter(created_after=made[350][1].created),
    ]
    for only in filters:
        for first in (1, 7, 100):
            listed, most, _ = await _walk(store, only, first)
            assert listed == _selected(made, only), (only, first)
            assert most <= budget(first), (only, first, most)


async def test_the_budget_ends_a_page_early_with_a_cursor_that_goes_on(
    stored: tuple[RedisStore, list[tuple[str, Record]]],
) -> None:
    store, made = stored
    only = GameFilter(kind="TREELINGS", status="FINISHED")  # ~100 entries between two
    listed, most, early = await _walk(store, only, 1)
    assert listed == [made[n][0] for n in (307, 207, 107, 7)]
    assert early > 0 and most <= budget(1)
