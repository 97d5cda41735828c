"""The components REST's operations share: the envelopes of games, moves, problems and
messages, and the helpers that make msgspec's schemas fit for client generators."""

from __future__ import annotations

from typing import Any

import msgspec

from service.api.edge.problems import STATUS
from service.api.rest.operation import ref
from service.api.rest.rendering import GAME_FIELDS
from service.bots import STRATEGIES
from service.core.game.clocks import MIN_PER_DECISION, MIN_PER_SEAT_TOTAL, ON_TIMEOUT
from service.engine import Scores
from service.engine.texts import PARAM_TYPES
from service.games import games
from service.store import indexes
from service.store.records import ACTED_BY_TENANT, END_REASONS

STRATEGY_NAMES = list(STRATEGIES)
STATUSES = list(indexes.STATUSES)


def for_generators(schema: Any) -> Any:
    """`schema` without `items: false` after `prefixItems` (a fixed-length tuple: valid 3.1,
    but refused by openapi-python-client; minItems/maxItems still say the length)."""
    if isinstance(schema, list):
        return [for_generators(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    return {
        key: for_generators(value)
        for key, value in schema.items()
        if not (key == "items" and value is False and "prefixItems" in schema)
    }


def named(components: dict[str, Any]) -> dict[str, Any]:
    """Each component titled with its own (unique) name: generators name models by title."""
    return {name: {**for_generators(schema), "title": name} for name, schema in components.items()}


STRING, INTEGER = {"type": "string"}, {"type": "integer"}
NULLABLE_INT = {"type": ["integer", "null"]}


def legal_move(moves: list[Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"move": {"oneOf": moves}, "label": STRING, "labelMessage": ref("Message")},
        "required": ["move", "label"],  # labelMessage: not with ?messages=false
    }


def messages(moves: list[Any]) -> dict[str, Any]:
    """Scores, moves and the texts every answer may carry: catalog messages and problems."""
    _, score_defs = msgspec.json.schema_components(
        [Scores], ref_template="#/components/schemas/{name}"
    )
    # REST's entries also say each item's detail as a message (rendering.scores_json)
    entry = score_defs["ScoreEntry"]
    entry["properties"]["detailMessages"] = {
        "type": "array",
        "items": ref("Message"),
        "description": "Each item's `detail` of `breakdown`, in order, as a catalog's message "
        "(left out with `messages=false`).",
    }
    codes = sorted(STATUS)
    return {
        **named(score_defs),
        "Move": {"oneOf": moves},
        "LegalMove": legal_move(moves),
        "Message": {
            "type": "object",
            "description": "A text as a catalog's message (docs/translating.md): its id, typed "
            "params and the text in the language asked for (?language=, else Accept-Language, "
            "else English).",
            "properties": {
                "id": STRING,
                "params": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "name": STRING,
                            "type": {"enum": list(PARAM_TYPES)},
                            "value": STRING,
                        },
                        "required": ["name", "type", "value"],
                    },
                },
                "text": STRING,
            },
            "required": ["id", "params", "text"],
        },
        "Problem": {
            "type": "object",
            "properties": {
                "type": STRING,
                "title": STRING,
                "status": INTEGER,
                "detail": STRING,
                "code": {"enum": codes},
                "currentVersion": INTEGER,
                "reason": STRING,
                "rule": STRING,
                "message": ref("Message"),
            },
            "required": ["type", "title", "status", "detail", "code", "message"],
        },
    }


def shown_games(views: list[Any]) -> dict[str, Any]:
    """A game as its reader sees it, now or at an earlier version."""
    return {
        "PastState": {
            "type": "object",
            "properties": {"version": {"type": "integer"}, "state": {"oneOf": views}},
            "required": ["version", "state"],
        },
        "Game": {
            "type": "object",
            "properties": {
                "id": STRING,
                "kind": {"enum": list(games())},
                "version": INTEGER,
                "rulesVersion": {
                    "type": "integer",
                    "description": "The version of its kind's rules the game is played under, "
                    "to its end.",
                },
                "status": {"enum": STATUSES},
                "players": INTEGER,
                "toAct": {"type": "array", "items": INTEGER},
                "viewer": NULLABLE_INT,
                "state": {"oneOf": views},
                "legalMoves": {"type": "array", "items": ref("LegalMove")},
                "scores": ref("Scores"),
                "seats": {"type": "array", "items": ref("Seat")},
                "outcome": {"oneOf": [ref("Outcome"), {"type": "null"}]},
                "seedCommitment": {
                    "type": "string",
                    "description": "SHA-256 (hex) of salt + seed, fixed at create.",
                },
                "seedReveal": {"oneOf": [ref("SeedReveal"), {"type": "null"}]},
                "clock": {"oneOf": [ref("GameClock"), {"type": "null"}]},
                "spectatorDelay": {
                    "type": "integer",
                    "description": "How many versions behind spectators see the game while "
                    "it is ACTIVE: a spectator's version, state, toAct, scores, history and "
                    "past states are those of that earlier version.",
                },
                "takebacks": ref("TakebackPolicy"),
                "takebackRequest": {"oneOf": [ref("TakebackRequest"), {"type": "null"}]},
            },
            "required": list(GAME_FIELDS),
        },
        "Outcome": {
            "type": "object",
            "description": "How a game ended other than by its rules.",
            "properties": {
                "reason": {"enum": list(END_REASONS)},
                "seat": NULLABLE_INT,
                "winners": {"type": "array", "items": INTEGER},
            },
            "required": ["reason", "seat", "winners"],
        },
    }


def clocks() -> dict[str, Any]:
    """A turn clock as createGame takes it and as a game shows it."""
    return {
        "ClockOption": {
            "type": "object",
            "description": "A turn clock: exactly one of the two limits (seconds).",
            "properties": {
                "perDecisionSeconds": {"type": "number", "minimum": MIN_PER_DECISION},
                "perSeatTotalSeconds": {"type": "number", "minimum": MIN_PER_SEAT_TOTAL},
                "incrementSeconds": {"type": "number", "minimum": 0},
                "onTimeout": {"enum": list(ON_TIMEOUT)},
            },
            "additionalProperties": False,
        },
        "GameClock": {
            "type": "object",
            "description": "The turn clock; `deadline` (epoch seconds) is when `seat` times out.",
            "properties": {
                "perDecisionSeconds": {"type": ["number", "null"]},
                "perSeatTotalSeconds": {"type": ["number", "null"]},
                "incrementSeconds": {"type": "number"},
                "onTimeout": {"enum": list(ON_TIMEOUT)},
                "seat": NULLABLE_INT,
                "deadline": {"type": ["number", "null"]},
                "remainingSeconds": {"type": ["array", "null"], "items": {"type": "number"}},
            },
            "required": [
                "perDecisionSeconds",
                "perSeatTotalSeconds",
                "incrementSeconds",
                "onTimeout",
                "seat",
                "deadline",
                "remainingSeconds",
            ],
        },
    }


def game_parts() -> dict[str, Any]:
    """The parts of a game: its seed, its seats, and the game once it ended."""
    return {
        "SeedReveal": {
            "type": "object",
            "description": "Revealed once the game is over: replay it from its history.",
            "properties": {
                "seed": STRING,
                "salt": {
                    "type": "string",
                    "description": "Drawn by the server at create, secret until the end, also "
                    'when the client chose the seed ("" only in games of earlier releases).',
                },
                "options": {"type": "object"},
            },
            "required": ["seed", "salt", "options"],
        },
        "EndedGame": {
            "type": "object",
            "properties": {"game": ref("Game")},
            "required": ["game"],
        },
        "Seat": {
            "type": "object",
            "properties": {
                "seat": INTEGER,
                "playerId": {
                    "type": ["string", "null"],
                    "description": "Shown to the game's own tenant (X-API-Key) only.",
                },
                "bot": {"enum": [*STRATEGY_NAMES, None]},
            },
            "required": ["seat", "playerId", "bot"],
        },
    }


def pages(moves: list[Any]) -> dict[str, Any]:
    """Answers that hold games or seats: a page of games, a created game, credentials."""
    return {
        "GamePage": {
            "type": "object",
            "properties": {
                "games": {"type": "array", "items": ref("Game")},
                "nextCursor": {
                    "type": ["string", "null"],
                    "description": "`after` of the next page; null on the last one.",
                },
            },
            "required": ["games", "nextCursor"],
        },
        "CreatedGame": {
            "type": "object",
            "properties": {
                "game": ref("Game"),
                "seats": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "seat": INTEGER,
                            "token": STRING,
                            "playerId": {"type": ["string", "null"]},
                        },
                        "required": ["seat", "token", "playerId"],
                    },
                },
                "joinCode": {"type": "string", "description": "With openSeats: joinGame's code."},
                "inviteUrl": {"type": ["string", "null"]},
            },
            "required": ["game", "seats"],
        },
        "SeatCredential": {
            "type": "object",
            "properties": {
                "seat": INTEGER,
                "token": STRING,
                "playerId": {"type": ["string", "null"]},
            },
            "required": ["seat", "token", "playerId"],
        },
        "LegalMoves": {
            "type": "object",
            "properties": {
                "version": INTEGER,
                "legalMoves": {"type": "array", "items": legal_move(moves)},
            },
            "required": ["version", "legalMoves"],
        },
    }


def verdicts() -> dict[str, Any]:
    """What a decision gets back: the game applied (or its minimal form) or a validation."""
    codes = sorted(STATUS)
    return {
        "MoveApplied": {
            "type": "object",
            "properties": {
                "game": {"oneOf": [ref("Game"), ref("MinimalGame")]},
                "replayed": {"type": "boolean"},
            },
            "required": ["game", "replayed"],
        },
        "MinimalGame": {
            "type": "object",
            "properties": {
                "version": INTEGER,
                "status": {"enum": STATUSES},
                "toAct": {"type": "array", "items": INTEGER},
            },
            "required": ["version", "status", "toAct"],
            "additionalProperties": False,
        },
        "Validation": {
            "type": "object",
            "properties": {
                "valid": {"type": "boolean"},
                "code": {"enum": [*codes, None]},
                "message": STRING,
                "currentVersion": NULLABLE_INT,
                "reason": STRING,
                "rule": STRING,
                "localizedMessage": {
                    "oneOf": [ref("Message"), {"type": "null"}],
                    "description": "A refusal's `message` as a catalog's message; null when "
                    "the move is legal.",
                },
            },
            "required": ["valid", "code", "message", "currentVersion", "localizedMessage"],
        },
    }


def history() -> dict[str, Any]:
    return {
        "History": {
            "type": "object",
            "properties": {
                "version": INTEGER,
                "history": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "version": INTEGER,
                            "seat": NULLABLE_INT,
                            "move": {"oneOf": [ref("Move"), {"type": "null"}]},
                            "label": STRING,
                            "labelMessage": ref("Message"),
                            "forced": {"type": "boolean"},
                            "event": {
                                "enum": [*END_REASONS, None],
                                "description": "An entry that is no move (move null).",
                            },
                            "actedBy": {
                                "enum": [ACTED_BY_TENANT, None],
                                "description": "TENANT: the game's tenant made this decision "
                                "for the seat (X-Act-As-Seat); null: the seat itself, a bot "
                                "or the service.",
                            },
                            "takeback": {"oneOf": [ref("TakebackNote"), {"type": "null"}]},
                        },
                        "required": [
                            "version",
                            "seat",
                            "move",
                            "label",
                            "forced",
                            "event",
                        ],
                    },
                },
            },
            "required": ["version", "history"],
        },
    }
