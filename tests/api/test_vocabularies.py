"""One source per vocabulary and per field list: the GraphQL enums are made from the service's
own tuples, the fields of a game are the same in GraphQL, REST, the fast path and OpenAPI, and
every refusal code has a translation in both adapters (docs/architecture.md, "Layers")."""

from __future__ import annotations

from typing import Any

from service.api.edge.problems import PROBLEMS
from service.api.edge.problems import PUBLIC_CODES as REST_CODES
from service.api.graphql import fastpath
from service.api.graphql.errors import PUBLIC_CODES as GRAPHQL_CODES
from service.api.graphql.errors import REJECT_CODES
from service.api.graphql.schema import build_schema
from service.api.rest.openapi import openapi
from service.api.rest.rendering import GAME_FIELDS, game_json
from service.bots import STRATEGIES
from service.core import LoadedGame
from service.core.game.clocks import ON_TIMEOUT
from service.core.records.format import PROBLEMS as RECORD_PROBLEMS
from service.core.takebacks.policy import POLICIES, STEPS
from service.engine import encode_state, start
from service.games import games
from service.refusals import DECISIONS, Code
from service.store import FORMAT, Record
from service.store.indexes import STATUSES
from service.store.records import END_REASONS
from service.webhooks.model import ALL_TYPES, ENDPOINT_STATUSES, OUTCOMES

# Game fields only GraphQL has: they take arguments or answer typed data (docs/api.md).
GRAPHQL_ONLY = {"stateAt", "view", "viewAt", "history", "rematch"}
SCHEMA = build_schema()._schema


def _values(enum: str) -> list[str]:
    return [value.value for value in SCHEMA.type_map[enum].values.values()]  # type: ignore[union-attr]


def test_every_graphql_enum_is_made_from_the_vocabulary_the_service_uses() -> None:
    made_from: dict[str, tuple[str, ...]] = {
        "GameKind": tuple(games()),
        "GameStatus": STATUSES,
        "EndReason": END_REASONS,
        "TimeoutAction": ON_TIMEOUT,
        "Strategy": STRATEGIES,
        "RejectCode": DECISIONS,
        "WebhookEventType": ALL_TYPES,
        "WebhookEndpointStatus": ENDPOINT_STATUSES,
        "WebhookDeliveryOutcome": OUTCOMES,
        "TakebackPolicy": POLICIES,
        "TakebackStep": STEPS,
        "RecordProblem": RECORD_PROBLEMS,
    }
    for enum, vocabulary in made_from.items():
        assert _values(enum) == list(vocabulary), enum


def test_a_loaded_game_is_rendered_with_the_same_fields_everywhere() -> None:
    game = games()["TREELINGS"]
    played = start(game, 2, None, "fields")
    record = Record(FORMAT, game.kind, 2, 0, False, "fields", [b"", b""], b"", 1.0, 1.0)
    record.state = encode_state(played.state)
    record.options = {}
    rest = game_json(LoadedGame("g1", record, game, None, played.state), None)
    assert tuple(rest) == GAME_FIELDS

    graphql = set(SCHEMA.type_map["Game"].fields)  # type: ignore[union-attr]
    assert graphql - GRAPHQL_ONLY == set(GAME_FIELDS), "GraphQL's Game and REST's game differ"

    fast = fastpath.GAME_FIELDS - {"__typename"}
    assert fast <= set(GAME_FIELDS), "the fast path answers a field neither adapter has"

    schema: dict[str, Any] = openapi()["components"]["schemas"]["Game"]
    assert list(schema["properties"]) == list(GAME_FIELDS) == schema["required"]


def test_every_refusal_has_one_translation_in_each_adapter() -> None:
    assert set(DECISIONS) == REJECT_CODES, "a refused decision answers as a MoveRejected"
    for code in Code:
        rest = REST_CODES.get(code, code.value)
        assert rest in PROBLEMS, f"REST has no status or title for {code}"
        graphql = GRAPHQL_CODES.get(code, code.value)
        assert graphql.isupper() and " " not in graphql, code
