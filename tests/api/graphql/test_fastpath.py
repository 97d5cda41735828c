"""The fast path answers exactly as strawberry/graphql-core would, byte for byte.

Two apps share one Redis: one with the fast path, one without. Every document the plan accepts
is sent to both, on games in the same state, and the answers must be identical (game ids
aside, where two games had to be created).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest

from service.api.graphql.documents import Documents
from service.api.graphql.schema import build_schema
from service.app import create_app
from service.settings import Settings
from service.store.embedded import EmbeddedRedis
from tests.conftest import Api, client_for
from tests.support import gql
from tests.support.play import apply, create

OFF = Settings(graphql_fast_path=False, rate_limit_per_token=0, rate_limit_per_address=0)
ON = Settings(rate_limit_per_token=0, rate_limit_per_address=0)

# every message field the fast path serves, with aliases and __typename at each level
MESSAGES = (
    "query R($id: ID!) { game(id: $id) { legalMoves { label labelMessage { __typename id params"
    " { __typename name type value } text } m: labelMessage { t: text id } } scores { entries {"
    " seat detailMessages { text params { value name } __typename id } } } } }"
)
READS = [
    gql.GAME,
    "query R($id: ID!) { game(id: $id) { __typename v: version toAct scores { __typename final"
    " entries { __typename seat breakdown tiebreak } winners } legalMoves { label move __typename } } }",
    "query R($g: ID!) { game(id: $g) { state viewer status players kind id } }",
    MESSAGES,
]
APPLIES = [
    gql.APPLY,
    "mutation A($input: ApplyMoveInput!) { applyMove(input: $input) { __typename } }",
    "mutation A($i: ApplyMoveInput!) { applyMove(input: $i) { t: __typename ... on MoveRejected"
    " { code currentVersion message } ... on MoveApplied { r: replayed game { version state } } } }",
    "mutation A($i: ApplyMoveInput!) { applyMove(input: $i) { ... on MoveRejected { code"
    " localizedMessage { __typename id params { name type value } text } } ... on MoveApplied {"
    " game { legalMoves { labelMessage { id text } } scores { entries { detailMessages { id } } }"
    " } } } }",
]
FALLBACK = [
    gql.HISTORY,
    "query R($id: ID!) { game(id: $id) { ...F } } fragment F on Game { version }",
    'query { game(id: "x") { version } }',
    'query R($id: ID = "x") { game(id: $id) { version } }',
    "query R($id: ID!) { game(id: $id) { version } catalog { kind } }",
    "query R($id: ID!) { game(id: $id) { version @include(if: true) } }",
    "mutation A($i: ApplyMoveInput!) { applyMove(input: $i) { ... on MoveApplied { replayed } "
    "... on MoveApplied { replayed } } }",
    'query R($id: ID!) { game(id: $id) { legalMoves { labelMessage { text(language: "fr") } } } }',
]


def test_the_plan_accepts_exactly_the_shapes_it_understands() -> None:
    documents: Documents = build_schema().documents
    for query in READS + APPLIES:
        assert documents.plan(query) is not None, query
    for query in FALLBACK:
        assert documents.plan(query) is None, query


@pytest.fixture(scope="module")
async def apps(redis_url: str) -> AsyncIterator[tuple[Api, Api]]:
    async with (
        client_for(create_app(ON, redis_url)) as on,
        client_for(create_app(OFF, redis_url)) as off,
    ):
        yield Api(on), Api(off)


async def _both(
    apps: tuple[Api, Api], query: str, variables: dict[str, Any], token: str | None
) -> tuple[bytes, bytes]:
    on, off = apps
    fast = await on.post(query, variables, token)
    slow = await off.post(query, variables, token)
    assert fast.status_code == slow.status_code
    return fast.content, slow.content


@pytest.mark.parametrize("query", READS)
async def test_reads_are_identical(apps: tuple[Api, Api], query: str) -> None:
    on, _ = apps
    created = (
        await on.gql(gql.CREATE, {"input": {"kind": "TREELINE", "players": 3, "seed": "fast"}})
    )["createGame"]
    game_id, tokens = created["game"]["id"], [s["token"] for s in created["seats"]]
    name = "g" if "$g" in query else "id"
    for token in [None, *tokens, "0.bad", "9.bad"]:
        fast, slow = await _both(apps, query, {name: game_id}, token)
        assert fast == slow
    fast, slow = await _both(apps, query, {name: "missing"}, tokens[0])
    assert fast == slow
    fast, slow = await _both(apps, query, {name: 17}, None)
    assert fast == slow


@pytest.mark.parametrize("query", APPLIES)
async def test_applies_are_identical(apps: tuple[Api, Api], query: str) -> None:
    variable = "i" if "$i" in query else "input"
    games = []
    for api in apps:
        created = (
            await api.gql(
                gql.CREATE, {"input": {"kind": "TREETOPIA", "players": 2, "seed": "fast-apply"}}
            )
        )["createGame"]
        games.append((created["game"]["id"], [s["token"] for s in created["seats"]]))
    (id_on, tokens_on), (id_off, tokens_off) = games
    seen = (await apps[0].gql(gql.GAME, {"id": id_on}, tokens_on[0]))["game"]
    moves = [m["move"] for m in seen["legalMoves"]]
    cases = [
        ({"move": {"type": "nope"}}, 0),
        ({"move": moves[0], "expectedVersion": seen["version"] + 3}, 0),
        ({"move": moves[0]}, 1),
        ({"move": moves[0], "idempotencyKey": "k"}, 0),
        ({"move": moves[0], "idempotencyKey": "k"}, 0),
        ({"move": moves[0], "expectedVersion": "1"}, 0),
        ({"move": moves[0], "extra": 1}, 0),
    ]
    for extra, seat in cases:
        fast = await apps[0].post(query, {variable: {"gameId": id_on, **extra}}, tokens_on[seat])
        slow = await apps[1].post(query, {variable: {"gameId": id_off, **extra}}, tokens_off[seat])
        assert fast.status_code == slow.status_code
        assert fast.content.replace(id_on.encode(), b"ID") == slow.content.replace(
            id_off.encode(), b"ID"
        ), extra


@pytest.mark.parametrize("kind", ["TREELINGS", "TREE_LINED_AVENUE"])
async def test_messages_are_identical_in_every_language(apps: tuple[Api, Api], kind: str) -> None:
    """The request's Accept-Language picks every message's text on both paths alike (Treelings
    has French, Avenue falls back to English), once the scores have details to say."""
    on, _ = apps
    game, tokens = await create(on, kind, 3, "fast-texts")
    chooser = random.Random(kind)
    # until a score says an item (Avenue's first ones come after a few rounds)
    while not any(entry["breakdown"] for entry in game["scores"]["entries"]):
        seat = game["toAct"][0]
        seen = (await on.gql(gql.GAME, {"id": game["id"]}, tokens[seat]))["game"]
        move = chooser.choice(seen["legalMoves"])["move"]
        game = (await apply(on, game["id"], tokens[seat], move))["game"]
    payload = {"query": MESSAGES, "variables": {"id": game["id"]}}
    answers = []
    for token in [None, *tokens]:
        for accept in [None, "fr", "en-XA", "de, en-XA;q=0.5", "tlh"]:
            headers = {"authorization": f"Bearer {token}"} if token else {}
            headers |= {"accept-language": accept} if accept else {}
            fast, slow = [
                await api.http.post("/graphql", json=payload, headers=headers) for api in apps
            ]
            assert fast.status_code == slow.status_code == 200, fast.text
            assert fast.content == slow.content, (token, accept)
            answers.append(fast.content)
    assert any(b'"labelMessage":{' in answer for answer in answers)
    assert any(b'"detailMessages":[{' in answer for answer in answers)
    assert not any(b'"errors"' in answer for answer in answers)


async def test_operation_names_are_honoured_like_graphql_core(apps: tuple[Api, Api]) -> None:
    on, _ = apps
    created = (await on.gql(gql.CREATE, {"input": {"kind": "TREELINGS", "players": 2}}))[
        "createGame"
    ]
    for name in ["Game", None, "Other"]:
        payloads = [
            {"query": gql.GAME, "variables": {"id": created["game"]["id"]}, "operationName": name}
            for _ in apps
        ]
        fast, slow = [
            await api.http.post("/graphql", json=p) for api, p in zip(apps, payloads, strict=True)
        ]
        assert fast.status_code == slow.status_code and fast.content == slow.content


async def test_a_store_outage_reads_the_same_on_both_paths() -> None:
    server = EmbeddedRedis().start()
    try:
        async with (
            client_for(create_app(ON, server.url)) as on,
            client_for(create_app(OFF, server.url)) as off,
        ):
            created = (
                await Api(on).gql(gql.CREATE, {"input": {"kind": "TREELINGS", "players": 2}})
            )["createGame"]
            server.stop()
            for query, variables in [
                (gql.GAME, {"id": created["game"]["id"]}),
                (
                    gql.APPLY,
                    {
                        "input": {
                            "gameId": created["game"]["id"],
                            "move": {"type": "takeSingletons"},
                        }
                    },
                ),
            ]:
                fast = await Api(on).post(query, variables, created["seats"][0]["token"])
                slow = await Api(off).post(query, variables, created["seats"][0]["token"])
                assert fast.content == slow.content
                assert b'"UNAVAILABLE"' in fast.content
    finally:
        server.cleanup()


async def test_persisted_queries(api: Api) -> None:
    digest = hashlib.sha256(gql.GAME.encode()).hexdigest()
    created = (await api.gql(gql.CREATE, {"input": {"kind": "TREELINGS", "players": 2}}))[
        "createGame"
    ]
    extensions = {"persistedQuery": {"version": 1, "sha256Hash": digest}}
    unknown = await api.http.post(
        "/graphql",
        json={
            "variables": {"id": "x"},
            "extensions": {"persistedQuery": {"version": 1, "sha256Hash": "0" * 64}},
        },
    )
    assert unknown.json()["errors"][0]["extensions"]["code"] == "PERSISTED_QUERY_NOT_FOUND"
    wrong = await api.http.post(
        "/graphql",
        json={
            "query": gql.GAME,
            "extensions": {"persistedQuery": {"version": 1, "sha256Hash": "0" * 64}},
        },
    )
    assert wrong.status_code == 400
    first = await api.http.post(
        "/graphql",
        json={
            "query": gql.GAME,
            "variables": {"id": created["game"]["id"]},
            "extensions": extensions,
        },
    )
    again = await api.http.post(
        "/graphql", json={"variables": {"id": created["game"]["id"]}, "extensions": extensions}
    )
    assert first.json()["data"]["game"]["id"] == created["game"]["id"]
    assert again.content == first.content
    history_digest = hashlib.sha256(gql.HISTORY.encode()).hexdigest()
    await api.http.post(
        "/graphql",
        json={
            "query": gql.HISTORY,
            "variables": {"id": created["game"]["id"]},
            "extensions": {"persistedQuery": {"version": 1, "sha256Hash": history_digest}},
        },
    )
    slow = await api.http.post(
        "/graphql",
        json={
            "variables": {"id": created["game"]["id"]},
            "extensions": {"persistedQuery": {"version": 1, "sha256Hash": history_digest}},
        },
    )
    assert slow.json()["data"]["game"]["history"] == [], "a persisted query strawberry answers"
