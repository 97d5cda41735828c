"""The REST contract: OpenAPI 3.1 for every route under /v1, with per-game JSON Schemas made
from the msgspec Structs (service/api/contracts.py writes both into schema/)."""

from __future__ import annotations

from typing import Any

import msgspec

from service.api.rest import components, languages, moves, players, takebacks, webhook_openapi
from service.api.rest import games as game_routes
from service.api.rest.components import named
from service.api.rest.operation import RestRoute
from service.api.rest.routes import ROUTES
from service.core.records.format import GameRecord, RecordSigningKeys, RecordVerification
from service.engine import Game, Scores
from service.games import games

VERSION = "1.0.0"


def game_schema(game: Game[Any, Any]) -> dict[str, Any]:
    """One game's move union, view, create options and scores as one JSON Schema document."""
    (move, view, options, scores), defs = msgspec.json.schema_components(
        [game.move_type, game.view_type, game.options_type, Scores],
        ref_template="#/$defs/{name}",
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"{game.title}: moves, views, options and scores",
        "$defs": defs,
        "properties": {"move": move, "view": view, "options": options, "scores": scores},
    }


def _game_components() -> tuple[dict[str, Any], list[Any], list[Any]]:
    """Each game's move and view components, prefixed with the game (TreelineSeatView)."""
    components: dict[str, Any] = {}
    views, moves = [], []
    for kind, game in games().items():
        prefix = kind.title().replace("_", "")
        (move, view), defs = msgspec.json.schema_components(
            [game.move_type, game.view_type],
            ref_template=f"#/components/schemas/{prefix}{{name}}",
        )
        components.update({f"{prefix}{name}": schema for name, schema in defs.items()})
        moves.append(move)
        views.append(view)
    return named(components), views, moves


def _paths(routes: tuple[RestRoute, ...]) -> dict[str, Any]:
    """Each route's operation under its path, in the routes' order."""
    paths: dict[str, dict[str, Any]] = {}
    for route in routes:
        paths.setdefault(route.documented_path, {})[route.method.lower()] = (
            route.operation.document()
        )
    return paths


def _schemas() -> dict[str, Any]:
    """Every component, in the published order: envelopes, the routes' bodies, then each
    game's and the game record's."""
    game_components, views, moves_ = _game_components()
    return {
        **components.messages(moves_),
        **game_routes.schemas(),
        **components.shown_games(views),
        **components.clocks(),
        **components.game_parts(),
        **components.pages(moves_),
        **moves.schemas(),
        **components.verdicts(),
        **components.history(),
        **takebacks.schemas(),
        **players.schemas(),
        **webhook_openapi.schemas(),
        **game_components,
        **_record_components(),
        **languages.schemas(),
    }


def openapi() -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Tree games rules service",
            "version": VERSION,
            "description": "REST mirror of the GraphQL API at /graphql: same games, same codes.",
        },
        "paths": _paths(ROUTES),
        "components": {
            "securitySchemes": {
                "seatToken": {"type": "http", "scheme": "bearer"},
                "apiKey": {
                    "type": "apiKey",
                    "in": "header",
                    "name": "X-API-Key",
                    "description": "The tenant's key: needed to create and list games and to "
                    "manage webhooks when the server sets RULES_API_KEYS.",
                },
            },
            "schemas": _schemas(),
        },
    }


def _record_components() -> dict[str, Any]:
    _, defs = msgspec.json.schema_components(
        [GameRecord, RecordVerification, RecordSigningKeys],
        ref_template="#/components/schemas/{name}",
    )
    return named(defs)
