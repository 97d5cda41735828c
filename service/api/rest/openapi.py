"""The REST contract: OpenAPI 3.1 for every route under /v1, with per-game JSON Schemas made
from the msgspec Structs (service/api/contracts.py writes both into schema/)."""

from __future__ import annotations

from typing import Any

import msgspec

from service.api.edge.problems import STATUS
from service.api.rest import takeback_openapi, webhook_openapi
from service.api.rest.rendering import GAME_FIELDS
from service.bots import STRATEGIES
from service.core.access import MAX_SPECTATOR_DELAY
from service.core.clocks import MIN_PER_DECISION, MIN_PER_SEAT_TOTAL, ON_TIMEOUT
from service.core.record_format import MAX_RECORD_BYTES, GameRecord, RecordVerification
from service.engine import Game, Scores
from service.engine.texts import PARAM_TYPES
from service.games import games
from service.store import indexes
from service.store.records import ACTED_BY_TENANT, END_REASONS

STRATEGY_NAMES = list(STRATEGIES)
EVERY_ROUTE = ("BAD_REQUEST", "PAYLOAD_TOO_LARGE", "RATE_LIMITED", "UNAVAILABLE")
GAME_ROUTE = ("NOT_FOUND", "UNREADABLE_RECORD")  # every route that reads one game's record
VERSION = "1.0.0"
STATUSES = list(indexes.STATUSES)


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


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _for_generators(schema: Any) -> Any:
    """`schema` without `items: false` after `prefixItems` (a fixed-length tuple: valid 3.1,
    but refused by openapi-python-client; minItems/maxItems still say the length)."""
    if isinstance(schema, list):
        return [_for_generators(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    return {
        key: _for_generators(value)
        for key, value in schema.items()
        if not (key == "items" and value is False and "prefixItems" in schema)
    }


def _named(components: dict[str, Any]) -> dict[str, Any]:
    """Each component titled with its own (unique) name: generators name models by title."""
    return {name: {**_for_generators(schema), "title": name} for name, schema in components.items()}


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
    return _named(components), views, moves


def openapi() -> dict[str, Any]:
    game_components, views, moves = _game_components()
    json_body = "application/json"

    def body(schema: dict[str, Any]) -> dict[str, Any]:
        return {"required": True, "content": {json_body: {"schema": schema}}}

    def ok(schema: dict[str, Any], description: str, status: str = "200") -> dict[str, Any]:
        return {status: {"description": description, "content": {json_body: {"schema": schema}}}}

    def problems(*codes: str) -> dict[str, Any]:
        """Every status the route can answer with: its own codes and those of every route
        (bad request, body too large, rate limited, store unavailable)."""
        statuses = sorted({STATUS[c] for c in (*codes, *EVERY_ROUTE)})
        return {
            str(s): {
                "description": ", ".join(sorted(c for c, v in STATUS.items() if v == s)),
                "content": {"application/problem+json": {"schema": _ref("Problem")}},
                **({"headers": {"Retry-After": retry_after}} if s in (429, 503) else {}),
            }
            for s in statuses
        }

    retry_after = {"description": "Seconds to wait before retrying.", "schema": {"type": "integer"}}
    etag = {
        "description": 'The version, a dot and a digest of who reads it, e.g. "12.5f0c9e1b2a3d4c6e": '
        "another seat's tag is never current for you. If-Match takes it (or the bare version).",
        "schema": {"type": "string"},
    }
    language = {
        "name": "language",
        "in": "query",
        "schema": {"type": "string"},
        "description": "The language of the answer's messages (`labelMessage`, a problem's "
        "`message`), e.g. `en-XA`; else Accept-Language; English when neither is known "
        "(docs/translating.md).",
    }
    with_messages = {
        "name": "messages",
        "in": "query",
        "schema": {"type": "boolean", "default": True},
        "description": "false leaves the message fields out (`labelMessage`, `detailMessages`): "
        "less CPU and fewer bytes for a client that shows the English `label` and `detail` "
        "only (docs/api.md section 15). Anything but true or false: 400 BAD_REQUEST.",
    }
    none_match = {
        "name": "If-None-Match",
        "in": "header",
        "schema": {"type": "string"},
        "description": "An ETag the client holds: 304 while it is current.",
    }

    def tagged(schema: dict[str, Any], description: str) -> dict[str, Any]:
        """A GET's 200 with its ETag, and the 304 that answers a current If-None-Match."""
        return {
            "200": {**ok(schema, description)["200"], "headers": {"ETag": etag}},
            "304": {"description": "not modified", "headers": {"ETag": etag}},
        }

    link = {"description": 'The next page: <url>; rel="next".', "schema": {"type": "string"}}

    def query(name: str, schema: dict[str, Any]) -> dict[str, Any]:
        return {"name": name, "in": "query", "required": False, "schema": schema}

    game_id = {"name": "gameId", "in": "path", "required": True, "schema": {"type": "string"}}
    act_as = {
        "name": "X-Act-As-Seat",
        "in": "header",
        "schema": {"type": "integer", "minimum": 0},
        "description": "Act as this seat: with the game's tenant's X-API-Key, for a human "
        "seat of its own game (another tenant's key: 404 as for no such game; a bot's seat: "
        "403); with a seat token, only its own seat (403 otherwise).",
    }
    acting: list[dict[str, list[str]]] = [{"seatToken": []}, {"apiKey": []}]  # or the tenant
    read = {"parameters": [game_id, act_as], "security": [{}, *acting]}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Tree games rules service",
            "version": VERSION,
            "description": "REST mirror of the GraphQL API at /graphql: same games, same codes.",
        },
        "paths": {
            "/v1/games": {
                "post": {
                    "operationId": "createGame",
                    "summary": "Create a game; the answer holds each seat's token, once.",
                    "security": [{}, {"apiKey": []}],
                    "parameters": [language, with_messages],
                    "requestBody": body(_ref("CreateGame")),
                    "responses": {
                        **ok(_ref("CreatedGame"), "created", "201"),
                        **problems("BAD_USER_INPUT", "UNAUTHORIZED"),
                    },
                },
                "get": {
                    "operationId": "listGames",
                    "summary": "The tenant's games (X-API-Key), newest first, as a spectator "
                    "sees them; the next page's URL is in the Link header (rel=next).",
                    "security": [{}, {"apiKey": []}],
                    "parameters": [
                        query("status", {"enum": STATUSES}),
                        query("kind", {"enum": list(games())}),
                        query("playerId", {"type": "string", "maxLength": 128}),
                        query("toActPlayerId", {"type": "string", "maxLength": 128}),
                        query("createdAfter", {"type": "string", "format": "date-time"}),
                        query("first", {"type": "integer", "minimum": 1, "maximum": 100}),
                        query("after", {"type": "string"}),
                        language,
                        with_messages,
                    ],
                    "responses": {
                        "200": {
                            **ok(_ref("GamePage"), "a page of games")["200"],
                            "headers": {"Link": link},
                        },
                        **problems("UNAUTHORIZED"),
                    },
                },
            },
            "/v1/games/{gameId}": {
                "get": {
                    **read,
                    "parameters": [game_id, act_as, none_match, language, with_messages],
                    "operationId": "getGame",
                    "summary": "The game as the bearer's seat sees it (a spectator without a token).",
                    "responses": {
                        **tagged(_ref("Game"), "the game"),
                        **problems(*GAME_ROUTE, "UNAUTHORIZED", "FORBIDDEN"),
                    },
                }
            },
            "/v1/games/{gameId}/legal-moves": {
                "get": {
                    **read,
                    "parameters": [game_id, act_as, none_match, language, with_messages],
                    "operationId": "getLegalMoves",
                    "summary": "The bearer seat's legal decisions now.",
                    "responses": {
                        **tagged(_ref("LegalMoves"), "legal moves"),
                        **problems(*GAME_ROUTE, "UNAUTHORIZED", "FORBIDDEN"),
                    },
                }
            },
            "/v1/games/{gameId}/moves": {
                "post": {
                    "operationId": "applyMove",
                    "summary": "Apply one decision as the bearer's seat (or as the seat the "
                    "tenant acts for: X-Act-As-Seat).",
                    "security": acting,
                    "parameters": [
                        game_id,
                        language,
                        with_messages,
                        act_as,
                        {
                            "name": "If-Match",
                            "in": "header",
                            "schema": {"type": "string"},
                            "description": 'The expected version, e.g. "12" (or an ETag of it, e.g. "12.5f0c9e1b2a3d4c6e"); else 412.',
                        },
                        {
                            "name": "Prefer",
                            "in": "header",
                            "schema": {"type": "string"},
                            "description": "return=minimal: the answer's game holds only "
                            "version, status and toAct (RFC 7240).",
                        },
                        {
                            "name": "Idempotency-Key",
                            "in": "header",
                            "schema": {"type": "string", "maxLength": 200},
                            "description": "A retry of the same request with the same key "
                            "returns the first answer; another request with it is refused "
                            "(422 IDEMPOTENCY_KEY_REUSED).",
                        },
                    ],
                    "requestBody": body(_ref("MoveBody")),
                    "responses": {
                        **ok(_ref("MoveApplied"), "applied (or an idempotent replay)"),
                        **problems(
                            *GAME_ROUTE,
                            "UNAUTHORIZED",
                            "FORBIDDEN",
                            "NOT_YOUR_TURN",
                            "STALE_VERSION",
                            "ILLEGAL_MOVE",
                            "IDEMPOTENCY_KEY_REUSED",
                        ),
                    },
                }
            },
            "/v1/games/{gameId}/validate": {
                "post": {
                    **read,
                    "operationId": "validateMove",
                    "summary": "A dry run of applyMove: nothing is written.",
                    "requestBody": body(_ref("CandidateBody")),
                    "responses": {
                        **ok(_ref("Validation"), "the verdict"),
                        **problems(*GAME_ROUTE, "UNAUTHORIZED", "FORBIDDEN"),
                    },
                }
            },
            "/v1/games/{gameId}/resign": {
                "post": {
                    "parameters": [game_id, act_as, language, with_messages],
                    "security": acting,
                    "operationId": "resign",
                    "summary": "The bearer's seat resigns: the game is FINISHED with an outcome.",
                    "responses": {
                        **ok(_ref("EndedGame"), "the game, over"),
                        **problems(
                            *GAME_ROUTE, "UNAUTHORIZED", "FORBIDDEN", "GAME_OVER", "STALE_VERSION"
                        ),
                    },
                }
            },
            "/v1/games/{gameId}/abandon": {
                "post": {
                    "parameters": [game_id, language, with_messages],
                    "security": [{}, {"apiKey": []}],
                    "operationId": "abandonGame",
                    "summary": "The game's tenant (X-API-Key) calls it off: ABANDONED, no "
                    "winners. Another tenant's key gets 404.",
                    "responses": {
                        **ok(_ref("EndedGame"), "the game, abandoned"),
                        **problems(*GAME_ROUTE, "UNAUTHORIZED", "GAME_OVER", "STALE_VERSION"),
                    },
                }
            },
            "/v1/games/{gameId}/suggest": {
                "post": {
                    "operationId": "suggestMove",
                    "summary": "A hint for the bearer's seat: a legal move chosen by a strategy.",
                    "security": acting,
                    "parameters": [game_id, act_as],
                    "requestBody": body(_ref("SuggestBody")),
                    "responses": {
                        **ok(_ref("Suggestion"), "the suggestion"),
                        **problems(
                            *GAME_ROUTE,
                            "UNAUTHORIZED",
                            "FORBIDDEN",
                            "NOT_YOUR_TURN",
                            "MALFORMED_MOVE",
                        ),
                    },
                }
            },
            "/v1/games/{gameId}/scores": {
                "get": {
                    **read,
                    "parameters": [game_id, act_as, none_match, language, with_messages],
                    "operationId": "getScores",
                    "summary": "Live scores with a breakdown; final with winners at the end.",
                    "responses": {
                        **tagged(_ref("Scores"), "scores"),
                        **problems(*GAME_ROUTE, "UNAUTHORIZED", "FORBIDDEN"),
                    },
                }
            },
            "/v1/games/{gameId}/history": {
                "get": {
                    **read,
                    "parameters": [
                        game_id,
                        act_as,
                        {
                            "name": "after",
                            "in": "query",
                            "schema": {"type": "integer", "minimum": 0},
                        },
                        none_match,
                        language,
                        with_messages,
                    ],
                    "operationId": "getHistory",
                    "summary": "Applied decisions after version `after`, oldest first.",
                    "responses": {
                        **tagged(_ref("History"), "history"),
                        **problems(*GAME_ROUTE, "UNAUTHORIZED", "FORBIDDEN"),
                    },
                }
            },
            "/v1/games/{gameId}/state": {
                "get": {
                    **read,
                    "parameters": [
                        game_id,
                        act_as,
                        {
                            "name": "version",
                            "in": "query",
                            "required": True,
                            "schema": {"type": "integer", "minimum": 0},
                        },
                    ],
                    "operationId": "getStateAt",
                    "summary": "The caller's view as of an earlier version (GraphQL `stateAt`).",
                    "responses": {
                        **ok(_ref("PastState"), "the view then"),
                        **problems(*GAME_ROUTE, "UNAUTHORIZED", "FORBIDDEN"),
                    },
                }
            },
            "/v1/games/{gameId}/seats/{seat}/token": {
                "post": {
                    "parameters": [
                        game_id,
                        {
                            "name": "seat",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "integer", "minimum": 0},
                        },
                    ],
                    "security": [{}, {"apiKey": []}],
                    "operationId": "reissueSeatToken",
                    "summary": "The game's tenant (X-API-Key) gets a new token for a human seat; "
                    "the seat's earlier token stops working at once. Another tenant's key: "
                    "404; a bot's seat: 403 (it has no token); a seat the game lacks: 422.",
                    "responses": {
                        **ok(_ref("SeatCredential"), "the seat's new token, shown once"),
                        **problems(*GAME_ROUTE, "UNAUTHORIZED", "FORBIDDEN", "BAD_USER_INPUT"),
                    },
                }
            },
            **takeback_openapi.paths(
                ok, body, problems, [game_id, act_as, language, with_messages]
            ),
            "/v1/games/{gameId}/record": {
                "get": {
                    "parameters": [game_id],
                    "security": [{}, {"seatToken": []}],
                    "operationId": "exportGame",
                    "summary": "The game, once it is over, as one self-contained record that any "
                    "server replays and verifies (GraphQL `exportGame`, schema/game-record.json). "
                    "409 GAME_NOT_OVER before: it reveals the seed.",
                    "responses": {
                        **ok(_ref("GameRecord"), "the game record"),
                        **problems(
                            *GAME_ROUTE,
                            "UNAUTHORIZED",
                            "GAME_NOT_OVER",
                            "RULES_CHANGED",
                            "UPGRADE_IN_PROGRESS",
                        ),
                    },
                }
            },
            "/v1/game-records/verify": {
                "post": {
                    "security": [{}],
                    "operationId": "verifyGameRecord",
                    "summary": "Replays a game record (the body, as exported) on this server's "
                    "rules: valid and the final scores, or the first step that differs. No "
                    f"stored game is read; the body may have up to {MAX_RECORD_BYTES} bytes.",
                    "requestBody": body(
                        {"description": "A game record (GameRecord); any JSON gets a verdict."}
                    ),
                    "responses": {
                        **ok(_ref("RecordVerification"), "the verdict"),
                        **problems(),
                    },
                }
            },
            **webhook_openapi.paths(ok, body, problems),
        },
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
            "schemas": {
                **_envelope_schemas(views, moves),
                **takeback_openapi.schemas(),
                **webhook_openapi.schemas(),
                **game_components,
                **_record_components(),
            },
        },
    }


def _record_components() -> dict[str, Any]:
    _, defs = msgspec.json.schema_components(
        [GameRecord, RecordVerification], ref_template="#/components/schemas/{name}"
    )
    return _named(defs)


def _envelope_schemas(views: list[Any], moves: list[Any]) -> dict[str, Any]:
    _, score_defs = msgspec.json.schema_components(
        [Scores], ref_template="#/components/schemas/{name}"
    )
    # REST's entries also say each item's detail as a message (rendering.scores_json)
    entry = score_defs["ScoreEntry"]
    entry["properties"]["detailMessages"] = {
        "type": "array",
        "items": _ref("Message"),
        "description": "Each item's `detail` of `breakdown`, in order, as a catalog's message "
        "(left out with `messages=false`).",
    }
    integer, string = {"type": "integer"}, {"type": "string"}
    nullable_int = {"type": ["integer", "null"]}
    move = {"oneOf": moves}
    legal = {
        "type": "object",
        "properties": {"move": move, "label": string, "labelMessage": _ref("Message")},
        "required": ["move", "label"],  # labelMessage: not with ?messages=false
    }
    codes = sorted(STATUS)
    return {
        **_named(score_defs),
        "Move": move,
        "LegalMove": legal,
        "Message": {
            "type": "object",
            "description": "A text as a catalog's message (docs/translating.md): its id, typed "
            "params and the text in the language asked for (?language=, else Accept-Language, "
            "else English).",
            "properties": {
                "id": string,
                "params": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "name": string,
                            "type": {"enum": list(PARAM_TYPES)},
                            "value": string,
                        },
                        "required": ["name", "type", "value"],
                    },
                },
                "text": string,
            },
            "required": ["id", "params", "text"],
        },
        "Problem": {
            "type": "object",
            "properties": {
                "type": string,
                "title": string,
                "status": integer,
                "detail": string,
                "code": {"enum": codes},
                "currentVersion": integer,
                "reason": string,
                "rule": string,
                "message": _ref("Message"),
            },
            "required": ["type", "title", "status", "detail", "code", "message"],
        },
        "CreateGame": {
            "type": "object",
            "properties": {
                "kind": {"enum": list(games())},
                "players": integer,
                "seed": {
                    "type": ["string", "null"],
                    "maxLength": 200,
                    "description": "For tests and replays: whoever chooses the seed knows "
                    "every hidden card. Left out, the server draws one. In production it "
                    "needs a tenant's API key (422 BAD_USER_INPUT otherwise).",
                },
                "options": {"type": ["object", "null"]},
                "bots": {
                    "type": ["array", "null"],
                    "items": {
                        "type": "object",
                        "properties": {"seat": integer, "strategy": {"enum": STRATEGY_NAMES}},
                        "required": ["seat", "strategy"],
                        "additionalProperties": False,
                    },
                },
                "clock": {"oneOf": [_ref("ClockOption"), {"type": "null"}]},
                "takebacks": {"oneOf": [_ref("TakebackPolicy"), {"type": "null"}]},
                "playerIds": {
                    "type": ["array", "null"],
                    "items": {"type": ["string", "null"], "minLength": 1, "maxLength": 128},
                    "description": "The app's own user id per seat, by seat.",
                },
                "spectatorDelay": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": MAX_SPECTATOR_DELAY,
                    "default": 0,
                    "description": "Spectators (no seat token, not the game's tenant) see the "
                    "game this many versions behind while it is ACTIVE; seats and the tenant "
                    "see it live (422 BAD_USER_INPUT past the maximum).",
                },
            },
            "required": ["kind", "players"],
            "additionalProperties": False,
        },
        "PastState": {
            "type": "object",
            "properties": {"version": {"type": "integer"}, "state": {"oneOf": views}},
            "required": ["version", "state"],
        },
        "Game": {
            "type": "object",
            "properties": {
                "id": string,
                "kind": {"enum": list(games())},
                "version": integer,
                "status": {"enum": STATUSES},
                "players": integer,
                "toAct": {"type": "array", "items": integer},
                "viewer": nullable_int,
                "state": {"oneOf": views},
                "legalMoves": {"type": "array", "items": _ref("LegalMove")},
                "scores": _ref("Scores"),
                "seats": {"type": "array", "items": _ref("Seat")},
                "outcome": {"oneOf": [_ref("Outcome"), {"type": "null"}]},
                "seedCommitment": {
                    "type": "string",
                    "description": "SHA-256 (hex) of salt + seed, fixed at create.",
                },
                "seedReveal": {"oneOf": [_ref("SeedReveal"), {"type": "null"}]},
                "clock": {"oneOf": [_ref("GameClock"), {"type": "null"}]},
                "spectatorDelay": {
                    "type": "integer",
                    "description": "How many versions behind spectators see the game while "
                    "it is ACTIVE: a spectator's version, state, toAct, scores, history and "
                    "past states are those of that earlier version.",
                },
                "takebacks": _ref("TakebackPolicy"),
                "takebackRequest": {"oneOf": [_ref("TakebackRequest"), {"type": "null"}]},
            },
            "required": list(GAME_FIELDS),
        },
        "Outcome": {
            "type": "object",
            "description": "How a game ended other than by its rules.",
            "properties": {
                "reason": {"enum": list(END_REASONS)},
                "seat": nullable_int,
                "winners": {"type": "array", "items": integer},
            },
            "required": ["reason", "seat", "winners"],
        },
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
                "seat": nullable_int,
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
        "SeedReveal": {
            "type": "object",
            "description": "Revealed once the game is over: replay it from its history.",
            "properties": {
                "seed": string,
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
            "properties": {"game": _ref("Game")},
            "required": ["game"],
        },
        "Seat": {
            "type": "object",
            "properties": {
                "seat": integer,
                "playerId": {
                    "type": ["string", "null"],
                    "description": "Shown to the game's own tenant (X-API-Key) only.",
                },
                "bot": {"enum": [*STRATEGY_NAMES, None]},
            },
            "required": ["seat", "playerId", "bot"],
        },
        "GamePage": {
            "type": "object",
            "properties": {
                "games": {"type": "array", "items": _ref("Game")},
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
                "game": _ref("Game"),
                "seats": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "seat": integer,
                            "token": string,
                            "playerId": {"type": ["string", "null"]},
                        },
                        "required": ["seat", "token", "playerId"],
                    },
                },
            },
            "required": ["game", "seats"],
        },
        "SeatCredential": {
            "type": "object",
            "properties": {
                "seat": integer,
                "token": string,
                "playerId": {"type": ["string", "null"]},
            },
            "required": ["seat", "token", "playerId"],
        },
        "LegalMoves": {
            "type": "object",
            "properties": {"version": integer, "legalMoves": {"type": "array", "items": legal}},
            "required": ["version", "legalMoves"],
        },
        "MoveBody": {
            "type": "object",
            "properties": {"move": _ref("Move")},
            "required": ["move"],
            "additionalProperties": False,
        },
        "SuggestBody": {
            "type": "object",
            "properties": {
                "strategy": {"enum": STRATEGY_NAMES},
                "budgetMs": {"type": ["integer", "null"]},
                "iterations": {"type": ["integer", "null"]},
                "seed": {"type": ["integer", "null"]},
            },
            "additionalProperties": False,
        },
        "Suggestion": {
            "type": "object",
            "properties": {
                "seat": integer,
                "strategy": {"enum": STRATEGY_NAMES},
                "move": _ref("Move"),
                "label": string,
            },
            "required": ["seat", "strategy", "move", "label"],
        },
        "CandidateBody": {
            "type": "object",
            "properties": {"move": {"description": "Any JSON: validate judges any candidate."}},
            "required": ["move"],
            "additionalProperties": False,
        },
        "MoveApplied": {
            "type": "object",
            "properties": {
                "game": {"oneOf": [_ref("Game"), _ref("MinimalGame")]},
                "replayed": {"type": "boolean"},
            },
            "required": ["game", "replayed"],
        },
        "MinimalGame": {
            "type": "object",
            "properties": {
                "version": integer,
                "status": {"enum": STATUSES},
                "toAct": {"type": "array", "items": integer},
            },
            "required": ["version", "status", "toAct"],
            "additionalProperties": False,
        },
        "Validation": {
            "type": "object",
            "properties": {
                "valid": {"type": "boolean"},
                "code": {"enum": [*codes, None]},
                "message": string,
                "currentVersion": nullable_int,
                "reason": string,
                "rule": string,
                "localizedMessage": {
                    "oneOf": [_ref("Message"), {"type": "null"}],
                    "description": "A refusal's `message` as a catalog's message; null when "
                    "the move is legal.",
                },
            },
            "required": ["valid", "code", "message", "currentVersion", "localizedMessage"],
        },
        "History": {
            "type": "object",
            "properties": {
                "version": integer,
                "history": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "version": integer,
                            "seat": nullable_int,
                            "move": {"oneOf": [_ref("Move"), {"type": "null"}]},
                            "label": string,
                            "labelMessage": _ref("Message"),
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
                            "takeback": {"oneOf": [_ref("TakebackNote"), {"type": "null"}]},
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
