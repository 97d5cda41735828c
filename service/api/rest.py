"""The REST mirror under /v1: the GraphQL contract for clients that do not speak GraphQL.

Same game service, same codes. Errors are RFC 9457 problem details whose `code` is the
GraphQL RejectCode (or UNAVAILABLE, BAD_USER_INPUT, BAD_REQUEST...), with HTTP statuses used
as HTTP intends: 401 no or bad token, 404 unknown game, 409 not now, 412 stale `If-Match`,
422 a move that is malformed or illegal (or an Idempotency-Key reused with another request,
as the IETF Idempotency-Key draft answers it), 503 store unavailable. A GET whose
If-None-Match names the current ETag answers 304 with no body.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlencode

import msgspec
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response
from starlette.routing import Route

from service.api import listing
from service.api.hints import HintsBusy
from service.api.listing import BadListing, GameFilter
from service.api.parsing import natural, within_depth
from service.api.table import Applied, NoPastState, Rejected, Table, Unauthorized
from service.api.tables import Tables
from service.engine import BadSetup, games
from service.store import HistoryRecord, StoreUnavailable, indexes

STATUS = {
    "NOT_FOUND": 404,
    "UNAUTHORIZED": 401,
    "NOT_YOUR_TURN": 409,
    "GAME_OVER": 409,
    "STALE_VERSION": 412,
    "ILLEGAL_MOVE": 422,
    "MALFORMED_MOVE": 422,
    "BAD_USER_INPUT": 422,
    "IDEMPOTENCY_KEY_REUSED": 422,
    "BAD_REQUEST": 400,
    "UNAVAILABLE": 503,
    "PAYLOAD_TOO_LARGE": 413,
    "RATE_LIMITED": 429,
    "UNKNOWN_ROUTE": 404,
    "METHOD_NOT_ALLOWED": 405,
    "HINTS_BUSY": 503,
    "HINT_TIMEOUT": 503,
}
TITLES = {
    "NOT_FOUND": "No such game",
    "UNAUTHORIZED": "Not a seat of this game",
    "NOT_YOUR_TURN": "Not your turn",
    "GAME_OVER": "The game is over",
    "STALE_VERSION": "The game has moved on",
    "ILLEGAL_MOVE": "Illegal move",
    "MALFORMED_MOVE": "Malformed move",
    "BAD_USER_INPUT": "Invalid input",
    "IDEMPOTENCY_KEY_REUSED": "Idempotency key reused with another request",
    "BAD_REQUEST": "Bad request",
    "UNAVAILABLE": "Store unavailable",
    "PAYLOAD_TOO_LARGE": "Request too large",
    "RATE_LIMITED": "Too many requests",
    "UNKNOWN_ROUTE": "No such route",
    "METHOD_NOT_ALLOWED": "Method not allowed",
    "HINTS_BUSY": "Every hint process is busy",
    "HINT_TIMEOUT": "The hint took too long",
}
RETRYABLE = {"UNAVAILABLE", "HINTS_BUSY", "HINT_TIMEOUT"}


class BotSeat(msgspec.Struct, forbid_unknown_fields=True):
    seat: int
    strategy: str


class CreateBody(msgspec.Struct, forbid_unknown_fields=True):
    kind: str
    players: int
    seed: str | None = None
    options: dict[str, Any] | None = None
    bots: list[BotSeat] | None = None
    player_ids: list[str | None] | None = msgspec.field(default=None, name="playerIds")
    clock: dict[str, Any] | None = None


class SuggestBody(msgspec.Struct, forbid_unknown_fields=True, rename="camel"):
    strategy: str = "SEARCH"
    budget_ms: int | None = None
    iterations: int | None = None
    seed: int | None = None


class MoveBody(msgspec.Struct, forbid_unknown_fields=True):
    move: Any


class Problem(Exception):
    def __init__(
        self,
        code: str,
        detail: str,
        current_version: int | None = None,
        explained: dict[str, str] | None = None,
        title: str | None = None,
    ) -> None:
        super().__init__(detail)
        self.code, self.detail, self.current_version = code, detail, current_version
        self.explained = explained or {}  # ILLEGAL_MOVE: {"reason": ..., "rule": ...}
        self.title = title or TITLES[code]  # routes about other things than games name them


def json_response(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(msgspec.json.encode(body), status, headers, media_type="application/json")


def problem_response(problem: Problem, status: int | None = None) -> Response:
    status = status or STATUS[problem.code]
    body: dict[str, Any] = {
        "type": f"https://tree-games.dev/problems/{problem.code.lower().replace('_', '-')}",
        "title": problem.title,
        "status": status,
        "detail": problem.detail,
        "code": problem.code,
    }
    headers = {}
    if problem.current_version is not None:
        body["currentVersion"] = problem.current_version
    body.update(problem.explained)
    if problem.code == "UNAUTHORIZED":
        headers["www-authenticate"] = "Bearer"
    if problem.code in RETRYABLE:
        headers["retry-after"] = "1"
    return Response(
        msgspec.json.encode(body), status, headers, media_type="application/problem+json"
    )


def refusal(
    path: str, status: int, code: str, message: str, headers: Mapping[str, str] | None = None
) -> Response:
    """A refusal shaped for the caller: problem details, or a GraphQL error on /graphql."""
    if path != "/graphql":
        response = problem_response(Problem(code, message), status)
        response.headers.update(headers or {})
        return response
    body = {"errors": [{"message": message, "extensions": {"code": code}}]}
    return Response(msgspec.json.encode(body), status, headers, media_type="application/json")


async def unrouted(request: HTTPConnection, exc: Exception) -> Response:
    """Starlette's 404 (no route) and 405 (wrong method), typed like every other refusal."""
    assert isinstance(exc, HTTPException)
    code = "METHOD_NOT_ALLOWED" if exc.status_code == 405 else "UNKNOWN_ROUTE"
    message = f"{request.url.path} does not answer {request.scope.get('method', 'that')}"
    if code == "UNKNOWN_ROUTE":
        message = f"no route {request.url.path}"
    return refusal(request.url.path, exc.status_code, code, message, exc.headers)


def from_rejection(rejected: Rejected) -> Problem:
    return Problem(
        rejected.code.value, rejected.message, rejected.current_version, explained(rejected)
    )


def explained(rejected: Rejected) -> dict[str, str]:
    if rejected.reason is None or rejected.rule is None:
        return {}
    return {"reason": rejected.reason, "rule": rejected.rule}


async def read_body(request: Request, type_: type[Any], max_depth: int) -> Any:
    try:
        body = msgspec.json.decode(await request.body(), type=type_)
    except msgspec.DecodeError as exc:
        raise Problem("BAD_REQUEST", f"the body is not valid JSON for this route: {exc}") from None
    except RecursionError:
        raise Problem("BAD_REQUEST", f"the body nests deeper than {max_depth} levels") from None
    # Only the free-form fields (a move, create options) can nest; the route's own
    # fields are typed.
    if not all(within_depth(value, max_depth - 1) for value in msgspec.structs.astuple(body)):
        raise Problem("BAD_REQUEST", f"the body nests deeper than {max_depth} levels")
    return body


def bearer_token(request: HTTPConnection) -> str | None:
    """The token of `Authorization: Bearer <token>`, for REST, GraphQL and websockets alike."""
    return credential(request.headers.get("authorization"))


def credential(authorization: str | None) -> str | None:
    """The token an Authorization value carries: None when there is none (a spectator), ""
    for any other scheme or an empty one, which no seat accepts, so a bad credential is
    refused and never read as a spectator (docs/security.md)."""
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def _if_match(request: Request) -> int | None:
    raw = request.headers.get("if-match")
    if raw is None:
        return None
    version = natural(raw.strip().removeprefix("W/").strip('"'))
    if version is None:
        raise Problem("BAD_REQUEST", 'If-Match must be a game version, e.g. If-Match: "12"')
    return version


def _none_match(request: Request, version: int) -> bool:
    """If-None-Match names the current version (RFC 9110 13.1.2: weak comparison, `*` any)."""
    raw = request.headers.get("if-none-match")
    if raw is None:
        return False
    tags = {tag.strip().removeprefix("W/") for tag in raw.split(",")}
    return "*" in tags or f'"{version}"' in tags


def guarded(endpoint: Any) -> Any:
    """A route's handler, its refusals answered as problem details and timed as its own
    operation (metrics)."""
    operation = f"rest.{endpoint.__name__}"

    async def run(request: Request) -> Response:
        request.scope["rules.operation"] = operation
        try:
            response: Response = await endpoint(request)
            return response
        except Problem as problem:
            return problem_response(problem)
        except StoreUnavailable:
            return problem_response(
                Problem("UNAVAILABLE", "the game store is unavailable; retry shortly")
            )

    return run


def routes(tables: Tables, max_depth: int) -> list[Route]:
    async def read(request: Request) -> Table:
        game_id = request.path_params["game_id"]
        try:
            table = await tables.read(game_id, bearer_token(request))
        except Unauthorized:
            raise Problem("UNAUTHORIZED", "that token is not a seat of this game") from None
        if table is None:
            raise Problem("NOT_FOUND", f"no game {game_id!r}")
        return table

    async def create_game(request: Request) -> Response:
        body = await read_body(request, CreateBody, max_depth)
        try:
            bots = {bot.seat: bot.strategy for bot in body.bots or []}
            table, tokens = await tables.create(
                body.kind,
                body.players,
                body.seed,
                body.options,
                request.headers.get("x-api-key"),
                bots,
                body.player_ids,
                body.clock,
            )
        except BadSetup as exc:
            raise Problem("BAD_USER_INPUT", exc.message) from None
        except Unauthorized:
            raise Problem("UNAUTHORIZED", "creating games needs an API key (X-API-Key)") from None
        ids = table.record.player_ids
        seats = [
            {"seat": seat, "token": token, "playerId": ids[seat] if seat < len(ids) else None}
            for seat, token in tokens.items()
        ]
        return json_response(
            {"game": table.as_json(table.record.tenant), "seats": seats},
            201,
            {"location": f"/v1/games/{table.id}", "etag": f'"{table.record.version}"'},
        )

    async def get_game(request: Request) -> Response:
        table = await read(request)
        # the view depends on the token, so shared caches must key on it too
        headers = {"etag": f'"{table.record.version}"', "vary": "authorization"}
        if _none_match(request, table.record.version):
            return Response(status_code=304, headers=headers)
        return json_response(table.as_json(tenant_of(request)), headers=headers)

    def tenant_of(request: Request) -> str | None:
        return tables.tenant_of(request.headers.get("x-api-key"))

    async def list_games(request: Request) -> Response:
        tenant = tenant_of(request)
        if tenant is None:
            raise Problem("UNAUTHORIZED", "listing games needs the tenant's API key (X-API-Key)")
        only, first, after = listing_query(request)
        try:
            page = await listing.list_games(tables.store, tenant, only, first, after)
        except BadListing as exc:
            raise Problem("BAD_REQUEST", exc.message) from None
        headers = {"vary": "x-api-key"}
        if page.has_next and page.end_cursor is not None:
            query = [(k, v) for k, v in request.query_params.multi_items() if k != "after"]
            query.append(("after", page.end_cursor))
            headers["link"] = f'</v1/games?{urlencode(query)}>; rel="next"'
        body = {
            "games": [table.as_json(tenant) for _, table in page.tables],
            "nextCursor": page.end_cursor if page.has_next else None,
        }
        return json_response(body, headers=headers)

    async def legal_moves(request: Request) -> Response:
        table = await read(request)
        moves = [{"move": m, "label": label} for m, label in table.legal_moves()]
        return json_response({"version": table.record.version, "legalMoves": moves})

    async def scores(request: Request) -> Response:
        table = await read(request)
        return json_response(table.scores())

    async def history(request: Request) -> Response:
        table = await read(request)
        after = natural(request.query_params.get("after", "0"))
        if after is None:
            raise Problem("BAD_REQUEST", "after must be a version (a whole number)")
        entries = await tables.history(table, after)
        return json_response(
            {"version": table.record.version, "history": [history_json(e) for e in entries]}
        )

    async def state_at(request: Request) -> Response:
        table = await read(request)
        version = natural(request.query_params.get("version", ""))
        if version is None:
            raise Problem("BAD_REQUEST", "version must be a version (a whole number)")
        try:
            then = await tables.at_version(table, version)
        except NoPastState as exc:
            raise Problem("BAD_REQUEST", exc.message) from None
        return json_response({"version": version, "state": then.view()})

    async def apply_move(request: Request) -> Response:
        body = await read_body(request, MoveBody, max_depth)
        result = await tables.apply(
            request.path_params["game_id"],
            bearer_token(request),
            body.move,
            _if_match(request),
            request.headers.get("idempotency-key"),
        )
        if isinstance(result, Rejected):
            raise from_rejection(result)
        table = result.table
        headers = {"etag": f'"{table.record.version}"'}
        if result.replayed:
            headers["idempotent-replayed"] = "true"
        if "return=minimal" in request.headers.get("prefer", ""):  # RFC 7240
            headers["preference-applied"] = "return=minimal"
            minimal = {"version": table.record.version, "status": table.status()}
            body = {"game": {**minimal, "toAct": table.to_act}, "replayed": result.replayed}
            return json_response(body, headers=headers)
        return json_response(
            {"game": table.as_json(), "replayed": result.replayed}, headers=headers
        )

    def ended_json(result: Applied | Rejected, tenant: str | None) -> Response:
        if isinstance(result, Rejected):
            raise from_rejection(result)
        table = result.table
        headers = {"etag": f'"{table.record.version}"'}
        return json_response({"game": table.as_json(tenant)}, headers=headers)

    async def resign(request: Request) -> Response:
        result = await tables.resign(
            request.path_params["game_id"], bearer_token(request), _if_match(request)
        )
        return ended_json(result, None)

    async def abandon(request: Request) -> Response:
        tenant = tenant_of(request)
        result = await tables.abandon(request.path_params["game_id"], tenant)
        return ended_json(result, tenant)

    async def validate_move(request: Request) -> Response:
        body = await read_body(request, MoveBody, max_depth)
        rejected = await tables.validate(
            request.path_params["game_id"], bearer_token(request), body.move
        )
        if rejected is not None and rejected.code.value in {"NOT_FOUND", "UNAUTHORIZED"}:
            raise from_rejection(rejected)
        return json_response(validation_json(rejected))

    async def suggest_move(request: Request) -> Response:
        body = await read_body(request, SuggestBody, max_depth)
        try:
            found = await tables.suggest(
                request.path_params["game_id"],
                bearer_token(request),
                body.strategy,
                body.budget_ms,
                body.iterations,
                body.seed,
            )
        except HintsBusy as busy:
            raise Problem(busy.code, busy.message) from None
        if isinstance(found, Rejected):
            raise from_rejection(found)
        seat, move, label = found
        return json_response(
            {"seat": seat, "strategy": body.strategy, "move": move, "label": label}
        )

    return [
        Route("/v1/games", guarded(create_game), methods=["POST"]),
        Route("/v1/games", guarded(list_games), methods=["GET"]),
        Route("/v1/games/{game_id}", guarded(get_game), methods=["GET"]),
        Route("/v1/games/{game_id}/legal-moves", guarded(legal_moves), methods=["GET"]),
        Route("/v1/games/{game_id}/moves", guarded(apply_move), methods=["POST"]),
        Route("/v1/games/{game_id}/validate", guarded(validate_move), methods=["POST"]),
        Route("/v1/games/{game_id}/resign", guarded(resign), methods=["POST"]),
        Route("/v1/games/{game_id}/abandon", guarded(abandon), methods=["POST"]),
        Route("/v1/games/{game_id}/suggest", guarded(suggest_move), methods=["POST"]),
        Route("/v1/games/{game_id}/scores", guarded(scores), methods=["GET"]),
        Route("/v1/games/{game_id}/history", guarded(history), methods=["GET"]),
        Route("/v1/games/{game_id}/state", guarded(state_at), methods=["GET"]),
    ]


LISTING_PARAMS = {"status", "kind", "playerId", "toActPlayerId", "createdAfter", "first", "after"}


def listing_query(request: Request) -> tuple[GameFilter, int, str | None]:
    """GET /v1/games' query: the filter, the page size and the cursor."""
    params = request.query_params
    unknown = set(params.keys()) - LISTING_PARAMS
    if unknown:
        raise Problem("BAD_REQUEST", f"unknown query parameters: {', '.join(sorted(unknown))}")
    status, kind = params.get("status"), params.get("kind")
    if status is not None and status not in indexes.STATUSES:
        raise Problem("BAD_REQUEST", f"status is one of {', '.join(indexes.STATUSES)}")
    if kind is not None and kind not in games():
        raise Problem("BAD_REQUEST", f"kind is one of {', '.join(games())}")
    first = natural(params.get("first", "20"))
    if first is None:
        raise Problem("BAD_REQUEST", "first must be a whole number")
    created = params.get("createdAfter")
    try:
        when = None if created is None else datetime.fromisoformat(created)
    except ValueError:
        raise Problem("BAD_REQUEST", "createdAfter is an ISO 8601 time") from None
    if when is not None and when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    only = GameFilter(
        status=status,
        kind=kind,
        player_id=params.get("playerId"),
        to_act_player_id=params.get("toActPlayerId"),
        created_after=None if when is None else when.timestamp(),
    )
    return only, first, params.get("after")


def history_json(entry: HistoryRecord) -> dict[str, Any]:
    return {
        "version": entry.version,
        "seat": entry.seat if entry.seat >= 0 else None,
        "move": entry.move,
        "label": entry.label,
        "forced": entry.forced,
        "event": entry.event or None,
    }


def validation_json(rejected: Rejected | None) -> dict[str, Any]:
    if rejected is None:
        return {"valid": True, "code": None, "message": "legal now", "currentVersion": None}
    return {
        "valid": False,
        "code": rejected.code.value,
        "message": rejected.message,
        "currentVersion": rejected.current_version,
        **explained(rejected),
    }
