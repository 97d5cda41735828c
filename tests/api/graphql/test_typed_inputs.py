"""Typed inputs (`typedMove`, `typedOptions`) beside the JSON ones: same checks, typed refusals.

A typed move is the JSON move in other clothes: it meets the same engine checks, the same
idempotency keys and the same history; a wrong or doubled input is a typed refusal, never a
500. Typed documents leave the fast path to strawberry; the JSON reads stay on it.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest

from service.api.graphql.documents import Documents
from service.api.graphql.schema import build_schema
from tests.api.graphql import typed_client
from tests.conftest import Api
from tests.support import gql
from tests.support.play import create

APPLY = """
mutation($input: ApplyMoveInput!) {
  applyMove(input: $input) {
    __typename
    ... on MoveApplied { replayed game { version history { move typedMove { __typename } } } }
    ... on MoveRejected { code message }
  }
}"""
VALIDATE = """
query($id: ID!, $move: JSON, $typed: TypedMoveInput) {
  validateMove(gameId: $id, move: $move, typedMove: $typed) { valid code message }
}"""
CREATE = """
mutation($input: CreateGameInput!) {
  createGame(input: $input) { game { toAct view { ... on AvenueView { order } } } }
}"""
CREATE_ID = """
mutation($input: CreateGameInput!) { createGame(input: $input) { game { id } seats { token } } }"""
TYPED_READ = "query R($id: ID!) { game(id: $id) { view { __typename } } }"
TYPED_LEGAL = "query R($id: ID!) { game(id: $id) { legalMoves { typedMove { __typename } } } }"
TYPED_SCORES = (
    "query R($id: ID!) { game(id: $id) { scores { entries { typedBreakdown { points } } } } }"
)


async def _apply(api: Api, token: str, **input: Any) -> dict[str, Any]:
    data = await api.gql(APPLY, {"input": input}, token)
    result: dict[str, Any] = data["applyMove"]
    return result


async def test_a_typed_move_and_its_json_share_one_idempotency_key(api: Api) -> None:
    game, tokens = await create(api, "TREELINGS", 2, seed="typed-key")
    first = await _apply(
        api, tokens[0], gameId=game["id"], typedMove={"treelingsTakeSingletons": True},
        idempotencyKey="same",
    )  # fmt: skip
    assert first["__typename"] == "MoveApplied" and not first["replayed"], first
    again = await _apply(
        api, tokens[0], gameId=game["id"], move={"type": "takeSingletons"}, idempotencyKey="same"
    )
    assert again["replayed"] and again["game"]["version"] == first["game"]["version"]
    history = first["game"]["history"]
    assert history[0]["move"] == {"type": "takeSingletons"}
    assert history[0]["typedMove"] == {"__typename": "TreelingsTakeSingletons"}


async def test_a_suggestion_carries_its_typed_move(api: Api) -> None:
    game, tokens = await create(api, "TREELINGS", 2, seed="typed-hint")
    query = """query($id: ID!) { suggestMove(gameId: $id, strategy: GREEDY, iterations: 5, seed: 1)
      { move typedMove { __typename ... on TreelingsTakeColour { colour type }
      ... on TreelingsTakeSingletons { type } } } }"""
    hint = (await api.gql(query, {"id": game["id"]}, tokens[0]))["suggestMove"]
    move_type = typed_client.SDL.get_type("Suggestion").fields["typedMove"].type  # type: ignore[union-attr]
    assert typed_client.as_json(hint["typedMove"], move_type) == hint["move"]


async def test_exactly_one_of_move_and_typed_move(api: Api) -> None:
    game, tokens = await create(api, "TREELINGS", 2, seed="typed-one")
    both = await _apply(
        api, tokens[0], gameId=game["id"], move={"type": "takeSingletons"},
        typedMove={"treelingsTakeSingletons": True},
    )  # fmt: skip
    neither = await _apply(api, tokens[0], gameId=game["id"])
    for refused in (both, neither):
        assert refused["__typename"] == "MoveRejected" and refused["code"] == "MALFORMED_MOVE"
    validation = (await api.gql(VALIDATE, {"id": game["id"]}, tokens[0]))["validateMove"]
    assert validation == {
        "valid": False,
        "code": "MALFORMED_MOVE",
        "message": "give exactly one of move and typedMove",
    }


async def test_a_move_type_without_fields_takes_true_only(api: Api) -> None:
    """`false` is a wrong input (BAD_USER_INPUT, before the game is read), not a move."""
    game, tokens = await create(api, "TREELINGS", 2, seed="typed-false")
    false = {"treelingsTakeSingletons": False}
    for document, variables in [
        (APPLY, {"input": {"gameId": game["id"], "typedMove": false}}),
        (VALIDATE, {"id": game["id"], "typed": false}),
        (VALIDATE, {"id": "no-such-game", "typed": false}),
    ]:
        body = (await api.post(document, variables, tokens[0])).json()
        assert body["data"] is None, body
        [error] = body["errors"]
        assert error["extensions"]["code"] == "BAD_USER_INPUT", error
        assert "takes true" in error["message"], error
    seen = (await api.gql(gql.GAME, {"id": game["id"]}))["game"]
    assert seen["version"] == game["version"]
    typed = {"treelingsTakeSingletons": True}
    validation = await api.gql(VALIDATE, {"id": game["id"], "typed": typed}, tokens[0])
    assert validation["validateMove"]["valid"] is True


async def test_another_games_typed_move_is_malformed_here(api: Api) -> None:
    game, tokens = await create(api, "TREELINGS", 2, seed="typed-other")
    refused = await _apply(
        api, tokens[0], gameId=game["id"], typedMove={"avenuePlaceCard": {"cell": 3}}
    )
    assert refused["code"] == "MALFORMED_MOVE" and "not a Treelings move" in refused["message"]
    seen = (await api.gql(gql.GAME, {"id": game["id"]}))["game"]
    assert seen["version"] == game["version"]


async def test_two_typed_fields_or_a_wrong_enum_are_graphql_errors_not_500s(
    api: Api, caplog: pytest.LogCaptureFixture
) -> None:
    game, tokens = await create(api, "TREELINE", 2, seed="typed-hostile")
    for typed in [
        {"treelineDeployFromSupply": True, "treelineStationFromSupply": True},
        {"treelineReforest": {"row": 0, "col": 0, "toward": "UP"}},
        {"treelineReforest": {"row": 0, "col": 0}},
        {},
        {"treelineDeployFromSupply": None},
    ]:
        response = await api.post(
            APPLY, {"input": {"gameId": game["id"], "typedMove": typed}}, tokens[0]
        )
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["data"] is None and body["errors"], (typed, body)
        assert "Traceback" not in response.text
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


async def test_typed_options_create_the_same_game_as_json_options(api: Api) -> None:
    typed = {"treeline": {"startSeat": 1}}
    created = await api.gql(
        CREATE, {"input": {"kind": "TREELINE", "players": 2, "typedOptions": typed}}
    )
    assert created["createGame"]["game"]["toAct"] == [1]
    avenue = {"avenue": {"randomOrder": False, "startSeat": 2}}
    created = await api.gql(
        CREATE, {"input": {"kind": "TREE_LINED_AVENUE", "players": 3, "typedOptions": avenue}}
    )
    assert created["createGame"]["game"]["view"]["order"] == [2, 0, 1]


REVEALED = """
mutation($id: ID!) { resign(gameId: $id) { ... on MoveApplied { game { seedReveal {
  options typedOptions { __typename ... on AvenueOptions { startSeat randomOrder }
    ... on TreelingsOptions { startSeat } } } } } } }"""


async def test_the_seed_reveal_gives_the_create_options_typed_too(api: Api) -> None:
    """`seedReveal.options` was JSON only. Typed, they are the options as
    the game read them (defaults filled in); `options` stays as sent."""
    avenue = {"avenue": {"randomOrder": False, "startSeat": 2}}
    created = await api.gql(
        CREATE_ID, {"input": {"kind": "TREE_LINED_AVENUE", "players": 3, "typedOptions": avenue}}
    )
    game = created["createGame"]
    reveal = (await api.gql(REVEALED, {"id": game["game"]["id"]}, game["seats"][0]["token"]))[
        "resign"
    ]["game"]["seedReveal"]
    assert reveal["options"] == {"randomOrder": False, "startSeat": 2}
    assert reveal["typedOptions"] == {
        "__typename": "AvenueOptions", "startSeat": 2, "randomOrder": False
    }  # fmt: skip
    game, tokens = await create(api, "TREELINGS", 2, seed="no-options")  # options left out
    reveal = (await api.gql(REVEALED, {"id": game["id"]}, tokens[0]))["resign"]["game"][
        "seedReveal"
    ]
    assert reveal["options"] == {}
    assert reveal["typedOptions"] == {"__typename": "TreelingsOptions", "startSeat": 0}


async def test_typed_options_of_another_kind_or_beside_json_are_bad_user_input(api: Api) -> None:
    for extra in [
        {"typedOptions": {"avenue": {"randomOrder": False}}},
        {"typedOptions": {"treelings": {}}, "options": {}},
        {"typedOptions": {"treelings": {"startSeat": 7}}},
    ]:
        response = await api.post(CREATE, {"input": {"kind": "TREELINGS", "players": 2, **extra}})
        errors = response.json()["errors"]
        assert [e["extensions"]["code"] for e in errors] == ["BAD_USER_INPUT"], extra


def test_typed_documents_fall_back_to_strawberry_and_json_reads_keep_the_fast_path() -> None:
    documents: Documents = build_schema().documents
    for query in (gql.GAME, gql.APPLY):
        assert documents.plan(query) is not None, query
    for query in (TYPED_READ, TYPED_LEGAL, TYPED_SCORES):
        assert documents.plan(query) is None, query


async def test_a_json_move_may_spell_its_enum_values_as_the_typed_names(api: Api) -> None:
    """One casing across both forms: JSON `"GREEN"` is `"green"`; the
    history and every output keep the JSON values; an unknown name is still MALFORMED_MOVE."""
    game, tokens = await create(api, "TREELINGS", 2, seed="typed-casing")
    seen = (await api.gql(gql.GAME, {"id": game["id"]}, tokens[0]))["game"]
    move = next(m["move"] for m in seen["legalMoves"] if m["move"]["type"] == "takeColour")
    upper = {**move, "colour": move["colour"].upper()}
    assert upper != move
    validation = await api.gql(VALIDATE, {"id": game["id"], "move": upper}, tokens[0])
    assert validation["validateMove"]["valid"] is True, validation
    wrong = {**move, "colour": "GREENISH"}
    refused = await _apply(api, tokens[0], gameId=game["id"], move=wrong)
    assert refused["code"] == "MALFORMED_MOVE", refused
    applied = await _apply(api, tokens[0], gameId=game["id"], move=upper, idempotencyKey="c")
    assert applied["__typename"] == "MoveApplied", applied
    assert applied["game"]["history"][0]["move"] == move
    again = await _apply(api, tokens[0], gameId=game["id"], move=move, idempotencyKey="c")
    assert again["replayed"] and again["game"]["version"] == applied["game"]["version"], again
