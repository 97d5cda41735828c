"""The typed GraphQL fields: generated from the Structs, equal to the JSON fields.

Random games of every kind are played with typed moves only, through documents gql's DSL builds
from the committed SDL; at every step the typed view, legal moves and score items must answer
without errors, say exactly what the JSON fields say, and the JSON must fit schema/games/.
"""

from __future__ import annotations

import functools
import json
import random
from typing import Any

import jsonschema
import pytest

from service.api.contracts import SCHEMA_DIR
from service.api.graphql import struct_types
from service.games import games
from tests.api.graphql import typed_client
from tests.conftest import Api
from tests.support.play import create

KINDS = list(games())
MAX_MOVES = 2000
PLAYERS = {"TREELINE": 4, "TREELINGS": 5, "TREETOPIA": 2, "TREE_LINED_AVENUE": 4}  # teams in 4p
SCHEMA_EVERY = 7  # jsonschema is slow: the JSON Schemas check every 7th reading and the last


@functools.cache
def _validator(kind: str, part: str) -> jsonschema.Draft202012Validator:
    document = json.loads((SCHEMA_DIR / "games" / f"{kind.lower()}.json").read_text())
    schema = {"$defs": document["$defs"], **document["properties"][part]}
    return jsonschema.Draft202012Validator(schema)


def _sdl_type(type_name: str, field: str) -> Any:
    return typed_client.SDL.get_type(type_name).fields[field].type  # type: ignore[union-attr]


def _check(kind: str, seen: dict[str, Any], against_json_schema: bool) -> None:
    """One reading: typed fields equal the JSON ones (and the JSON fits the game's schema)."""
    assert typed_client.as_json(seen["view"], _sdl_type("Game", "view")) == seen["state"]
    move_type = _sdl_type("LegalMove", "typedMove")
    for legal in seen["legalMoves"]:
        assert typed_client.as_json(legal["typedMove"], move_type) == legal["move"]
    items = _sdl_type("ScoreEntry", "typedBreakdown")
    for entry in seen["scores"]["entries"]:
        assert typed_client.as_json(entry.pop("typedBreakdown"), items) == entry["breakdown"]
    if against_json_schema:
        _validator(kind, "view").validate(seen["state"])
        for legal in seen["legalMoves"]:
            _validator(kind, "move").validate(legal["move"])
        _validator(kind, "scores").validate(seen["scores"])


def test_no_view_move_option_or_score_field_falls_back_to_json() -> None:
    assert struct_types.UNTYPED == ()


def test_each_game_has_one_typed_move_input_field_per_move_type() -> None:
    fields = typed_client.SDL.get_type("TypedMoveInput").fields  # type: ignore[union-attr]
    for kind, prefix in typed_client.PREFIXES.items():
        mine = [
            name for name in fields if struct_types.of_game(name, prefix[:1].lower() + prefix[1:])
        ]
        assert len(mine) == len(struct_types.move_structs(games()[kind])), kind


async def test_the_catalogs_typed_options_are_its_json_options(api: Api) -> None:
    union = _sdl_type("GameInfo", "typedOptions")
    for info in (await api.gql(typed_client.catalog_query()))["catalog"]:
        assert typed_client.as_json(info["typedOptions"], union) == info["options"], info["kind"]


@pytest.mark.parametrize("kind", KINDS)
async def test_random_games_typed_fields_equal_the_json_and_fit_the_schemas(
    api: Api, kind: str
) -> None:
    """Typed moves only; every view, legal move and score checked on the way to the end."""
    query, apply = typed_client.game_query(kind), typed_client.apply_mutation()
    players = PLAYERS.get(kind, games()[kind].max_players)
    game, tokens = await create(api, kind, players, seed=f"typed-{kind}")
    chooser = random.Random(kind)
    for step in range(MAX_MOVES):
        seat = chooser.choice(game["toAct"]) if game["toAct"] else None
        token = None if seat is None else tokens[seat]
        seen = (await api.gql(query, {"id": game["id"]}, token))["game"]
        sampled = step % SCHEMA_EVERY == 0 or seen["status"] == "FINISHED"
        _check(kind, seen, sampled)
        if sampled and token is not None:  # what a spectator may see, typed too (ALL-4)
            _check(kind, (await api.gql(query, {"id": game["id"]}))["game"], False)
        if seen["status"] == "FINISHED":
            break
        move = typed_client.move_input(chooser.choice(seen["legalMoves"])["typedMove"])
        variables = {"gameId": game["id"], "typedMove": move, "expectedVersion": seen["version"]}
        result = (await api.gql(apply, {"input": variables}, token))["applyMove"]
        assert result["__typename"] == "MoveApplied", result
        game = result["game"]
    else:
        pytest.fail(f"{kind}: no end after {MAX_MOVES} moves")
    history = (await api.gql(typed_client.history_query(kind), {"id": game["id"]}))["game"]
    move_type = _sdl_type("HistoryEntry", "typedMove")
    typed_moves = [typed_client.as_json(e["typedMove"], move_type) for e in history["history"]]
    assert typed_moves == [e["move"] for e in history["history"]]


def _all_views() -> str:
    """One document asking every view's twinned `<game>Phase` (and `<game>Seats`, if it has
    seats), in `view` and in `viewAt`."""
    view, view_at = [], []
    for field, kind in struct_types.OPTIONS.items():
        struct = games()[kind].view_type
        seats = f" {field}Seats {{ seat }}" if "seats" in struct.__struct_fields__ else ""
        view.append(f"... on {struct.__name__} {{ {field}Phase{seats} }}")
        view_at.append(f"... on {struct.__name__} {{ {field}Phase }}")
    return (
        "query($id: ID!, $v: Int!) { game(id: $id) { version state stateAt(version: $v) "
        f"view {{ __typename {' '.join(view)} }} viewAt(version: $v) {{ __typename "
        f"{' '.join(view_at)} }} }} }}"
    )


ALL_VIEWS = _all_views()


@pytest.mark.parametrize("kind", KINDS)
async def test_one_document_asks_every_views_phase_without_aliases_and_a_typed_view_at(
    api: Api, kind: str
) -> None:
    """`<game>Phase`/`<game>Seats` beside `phase`/`seats` (which collide
    across views), and `viewAt`, `stateAt` typed."""
    game, tokens = await create(api, kind, 2, seed="twins")
    seen = (await api.gql(ALL_VIEWS, {"id": game["id"], "v": game["version"]}, tokens[0]))["game"]
    prefix = next(field for field, of in struct_types.OPTIONS.items() if of == kind)
    phase = struct_types.enum_value_name(seen["state"]["phase"])
    assert seen["view"][f"{prefix}Phase"] == seen["viewAt"][f"{prefix}Phase"] == phase
    assert seen["stateAt"] == seen["state"]
    if "seats" in seen["state"]:
        seats = [{"seat": s["seat"]} for s in seen["state"]["seats"]]
        assert seen["view"][f"{prefix}Seats"] == seats
