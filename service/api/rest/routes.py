"""The REST mirror under /v1: the GraphQL contract for clients that do not speak GraphQL.

Same game service, same codes. Errors are RFC 9457 problem details whose `code` is the
GraphQL RejectCode (or UNAVAILABLE, BAD_USER_INPUT, BAD_REQUEST...), with HTTP statuses used
as HTTP intends: 401 no or bad token, 404 unknown game, 409 not now, 412 stale `If-Match`,
422 a move that is malformed or illegal (or an Idempotency-Key reused with another request,
as the IETF Idempotency-Key draft answers it), 503 store unavailable. A GET whose
If-None-Match names the current ETag answers 304 with no body.

An ETag is per viewer (issue 31): `"<version>.<digest>"`, the digest of the game, the version,
the seat (or none: a spectator), whether the caller sees the player ids (the game's tenant),
the route and its query, so one seat's tag never earns another seat a 304. If-Match reads
the version before the dot (a bare `"12"` too).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlencode

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from service.api.edge.parsing import BadInput, bearer_token, decode_json, natural, within_depth
from service.api.edge.problems import Problem, from_refusal, problem_response
from service.api.rest.rendering import (
    game_json,
    history_json,
    legal_moves_json,
    scores_json,
    validation_json,
)
from service.core import Applied, Caller, GameService, LoadedGame
from service.core.listing import GameFilter
from service.core.localized import language
from service.engine.texts import ENGLISH
from service.games import games
from service.refusals import Code, Refused
from service.store import indexes


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
    spectator_delay: int = msgspec.field(default=0, name="spectatorDelay")
    takebacks: str | None = None


class AnswerBody(msgspec.Struct, forbid_unknown_fields=True):
    accept: bool


class SuggestBody(msgspec.Struct, forbid_unknown_fields=True, rename="camel"):
    strategy: str = "SEARCH"
    budget_ms: int | None = None
    iterations: int | None = None
    seed: int | None = None


class MoveBody(msgspec.Struct, forbid_unknown_fields=True):
    move: Any


def json_response(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(msgspec.json.encode(body), status, headers, media_type="application/json")


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


def etag(loaded: LoadedGame, tenant: str | None = None, *answer: str) -> str:
    """The tag of what this viewer reads of this version; `answer` names the route and
    anything else that picks the answer (history's `after`)."""
    record = loaded.record
    ids = tenant is not None and tenant == record.tenant and any(record.player_ids)  # seats()
    behind = [f"behind {loaded.delay}"] if loaded.delay else []  # a delayed spectator's
    viewer = "\n".join(
        [loaded.id, str(record.version), str(loaded.viewer), str(ids), *behind, *answer]
    )
    return f'"{record.version}.{hashlib.sha256(viewer.encode()).hexdigest()[:16]}"'


def _if_match(request: Request) -> int | None:
    raw = request.headers.get("if-match")
    if raw is None:
        return None
    version = natural(raw.strip().removeprefix("W/").strip('"').partition(".")[0])
    if version is None:
        raise Problem("BAD_REQUEST", 'If-Match must be a game version, e.g. If-Match: "12"')
    return version


def _none_match(request: Request, tag: str) -> bool:
    """If-None-Match names the current tag (RFC 9110 13.1.2: weak comparison, `*` any)."""
    raw = request.headers.get("if-none-match")
    if raw is None:
        return False
    tags = {tag.strip().removeprefix("W/") for tag in raw.split(",")}
    return "*" in tags or tag in tags


def tagged(
    request: Request, tag: str, body: Callable[[], Any], headers: dict[str, str] | None = None
) -> Response:
    """A GET's answer with its ETag, or 304 with no body when the client holds that tag."""
    headers = {**(headers or {}), "etag": tag}
    if _none_match(request, tag):
        return Response(status_code=304, headers=headers)
    return json_response(body(), headers=headers)


def language_of(request: Request) -> str:
    """The language of the answer's texts: `?language=`, else Accept-Language, else English."""
    return language(request.headers.get("accept-language"), request.query_params.get("language"))


def languages(lang: str) -> tuple[str, ...]:
    """What the language adds to an ETag: nothing for English (tags stay as they were)."""
    return () if lang == ENGLISH else (lang,)


def messages_of(request: Request) -> bool:
    """`?messages=false` leaves the message fields (`labelMessage`, `detailMessages`) out of a
    game read, for clients that show only the English texts (docs/api.md section 15); true,
    the default, is the answer as it always was."""
    raw = request.query_params.get("messages", "true")
    if raw not in ("true", "false"):
        raise Problem("BAD_REQUEST", "messages is true or false")
    return raw == "true"


def shape(lang: str, messages: bool) -> tuple[str, ...]:
    """What the language and `messages` add to a read's ETag: nothing by default (tags stay
    as they were), so a tag of one shape never earns the other a 304."""
    return (*languages(lang), *(() if messages else ("no messages",)))


def wanted(request: Request) -> tuple[str, bool]:
    """The language and `messages` of an answer that renders a game (a read's or a change's,
    so a POST answers as the GET after it would): checked before anything is changed."""
    return language_of(request), messages_of(request)


def guarded(endpoint: Any) -> Any:
    """A route's handler, its refusals answered as problem details and timed as its own
    operation (metrics)."""
    operation = f"rest.{endpoint.__name__}"

    async def run(request: Request) -> Response:
        request.scope["rules.operation"] = operation
        try:
            response: Response = await endpoint(request)
            return response
        except Refused as refused:
            return problem_response(from_refusal(refused), language=language_of(request))
        except Problem as problem:
            return problem_response(problem, language=language_of(request))

    return run


VERIFY_PATH = "/v1/game-records/verify"  # its body is a game record: up to MAX_RECORD_BYTES
ACT_AS_SEAT = "x-act-as-seat"  # the seat a tenant's key acts for (docs/api.md)


def routes(service: GameService, max_depth: int) -> list[Route]:
    async def read(request: Request) -> LoadedGame:
        return await service.read(request.path_params["game_id"], caller(request))

    def tenant_of(request: Request) -> str | None:
        return service.tenant_of(request.headers.get("x-api-key"))

    def caller(request: Request) -> Caller:
        """The bearer's token and, with X-Act-As-Seat, the seat it acts for and the tenant
        of its X-API-Key (access.viewer_of)."""
        raw = request.headers.get(ACT_AS_SEAT)
        if raw is None:  # the tenant still counts: the game's own sees it live (issue 32)
            return Caller(bearer_token(request), tenant_of(request))
        seat = natural(raw.strip())
        if seat is None:
            raise Problem("BAD_REQUEST", "X-Act-As-Seat must be a seat, e.g. X-Act-As-Seat: 1")
        return Caller(bearer_token(request), tenant_of(request), seat)

    async def create_game(request: Request) -> Response:
        body = await read_body(request, CreateBody, max_depth)
        lang, messages = wanted(request)
        bots = {bot.seat: bot.strategy for bot in body.bots or []}
        loaded, tokens = await service.create(
            body.kind,
            body.players,
            body.seed,
            body.options,
            request.headers.get("x-api-key"),
            bots,
            body.player_ids,
            body.clock,
            body.spectator_delay,
            body.takebacks,
        )
        ids = loaded.record.player_ids
        seats = [
            {"seat": seat, "token": token, "playerId": ids[seat] if seat < len(ids) else None}
            for seat, token in tokens.items()
        ]
        tenant = loaded.record.tenant
        return json_response(
            {"game": game_json(loaded, tenant, lang, messages), "seats": seats},
            201,
            {
                "location": f"/v1/games/{loaded.id}",
                "etag": etag(loaded, tenant, *shape(lang, messages)),
            },
        )

    async def get_game(request: Request) -> Response:
        messages = messages_of(request)
        loaded = await read(request)
        tenant, lang = tenant_of(request), language_of(request)
        # the view depends on the token (or the seat acted for), so shared caches key on them
        vary = {"vary": "authorization, x-api-key, x-act-as-seat"}
        tag = etag(loaded, tenant, *shape(lang, messages))
        return tagged(request, tag, lambda: game_json(loaded, tenant, lang, messages), vary)

    async def list_games(request: Request) -> Response:
        tenant = tenant_of(request)
        asked = listing_query(request)
        lang, messages = wanted(request)
        page = await service.list_games(tenant, *asked)
        headers = {"vary": "x-api-key"}
        if page.has_next and page.end_cursor is not None:
            query = [(k, v) for k, v in request.query_params.multi_items() if k != "after"]
            query.append(("after", page.end_cursor))
            headers["link"] = f'</v1/games?{urlencode(query)}>; rel="next"'
        body = {
            "games": [game_json(loaded, tenant, lang, messages) for _, loaded in page.games],
            "nextCursor": page.end_cursor if page.has_next else None,
        }
        return json_response(body, headers=headers)

    async def legal_moves(request: Request) -> Response:
        messages = messages_of(request)
        loaded = await read(request)
        lang = language_of(request)

        def body() -> dict[str, Any]:
            moves = legal_moves_json(loaded, lang, messages)
            return {"version": loaded.record.version, "legalMoves": moves}

        return tagged(request, etag(loaded, None, "legal-moves", *shape(lang, messages)), body)

    async def scores(request: Request) -> Response:
        messages = messages_of(request)
        loaded = await read(request)
        lang = language_of(request)
        tag = etag(loaded, None, "scores", *shape(lang, messages))
        return tagged(request, tag, lambda: scores_json(loaded, lang, messages))

    async def history(request: Request) -> Response:
        messages = messages_of(request)
        loaded = await read(request)
        after = natural(request.query_params.get("after", "0"))
        if after is None:
            raise Problem("BAD_REQUEST", "after must be a version (a whole number)")
        lang = language_of(request)
        tag = etag(loaded, None, "history", str(after), *shape(lang, messages))
        if _none_match(request, tag):
            return Response(status_code=304, headers={"etag": tag})
        entries = await service.history(loaded, after)
        history = [history_json(e, loaded.game, lang, messages) for e in entries]
        body = {"version": loaded.record.version, "history": history}
        return json_response(body, headers={"etag": tag})

    async def state_at(request: Request) -> Response:
        loaded = await read(request)
        version = natural(request.query_params.get("version", ""))
        if version is None:
            raise Problem("BAD_REQUEST", "version must be a version (a whole number)")
        then = await service.at_version(loaded, version)
        return json_response({"version": version, "state": then.view()})

    async def apply_move(request: Request) -> Response:
        body = await read_body(request, MoveBody, max_depth)
        lang, messages = wanted(request)
        applied = await service.apply(
            request.path_params["game_id"],
            caller(request),
            body.move,
            _if_match(request),
            request.headers.get("idempotency-key"),
        )
        loaded = applied.game
        headers = {"etag": etag(loaded, None, *shape(lang, messages))}
        if applied.replayed:
            headers["idempotent-replayed"] = "true"
        if "return=minimal" in request.headers.get("prefer", ""):  # RFC 7240
            headers["preference-applied"] = "return=minimal"
            minimal = {"version": loaded.record.version, "status": loaded.status()}
            body = {"game": {**minimal, "toAct": loaded.to_act}, "replayed": applied.replayed}
            return json_response(body, headers=headers)
        game = game_json(loaded, None, lang, messages)
        return json_response({"game": game, "replayed": applied.replayed}, headers=headers)

    def taken_json(applied: Applied, lang: str, messages: bool) -> Response:
        """A takeback's answer, as applyMove's: the game, replayed or not, and its ETag."""
        loaded = applied.game
        headers = {"etag": etag(loaded, None, *shape(lang, messages))}
        if applied.replayed:
            headers["idempotent-replayed"] = "true"
        body = {"game": game_json(loaded, None, lang, messages), "replayed": applied.replayed}
        return json_response(body, headers=headers)

    async def request_takeback(request: Request) -> Response:
        lang, messages = wanted(request)
        applied = await service.request_takeback(
            request.path_params["game_id"],
            caller(request),
            _if_match(request),
            request.headers.get("idempotency-key"),
        )
        return taken_json(applied, lang, messages)

    async def answer_takeback(request: Request) -> Response:
        body = await read_body(request, AnswerBody, max_depth)
        lang, messages = wanted(request)
        applied = await service.answer_takeback(
            request.path_params["game_id"],
            caller(request),
            body.accept,
            _if_match(request),
            request.headers.get("idempotency-key"),
        )
        return taken_json(applied, lang, messages)

    def ended_json(applied: Applied, tenant: str | None, request: Request) -> Response:
        loaded = applied.game
        lang, messages = wanted(request)
        headers = {"etag": etag(loaded, tenant, *shape(lang, messages))}
        return json_response({"game": game_json(loaded, tenant, lang, messages)}, headers=headers)

    async def resign(request: Request) -> Response:
        wanted(request)  # a bad ?messages= changes nothing
        applied = await service.resign(
            request.path_params["game_id"], caller(request), _if_match(request)
        )
        return ended_json(applied, None, request)

    async def abandon(request: Request) -> Response:
        tenant = tenant_of(request)
        wanted(request)
        applied = await service.abandon(request.path_params["game_id"], tenant)
        return ended_json(applied, tenant, request)

    async def validate_move(request: Request) -> Response:
        body = await read_body(request, MoveBody, max_depth)
        rejected = await service.validate(
            request.path_params["game_id"], caller(request), body.move
        )
        if rejected is not None and rejected.code in {Code.NOT_FOUND, Code.UNAUTHORIZED}:
            raise rejected
        return json_response(validation_json(rejected, language_of(request)))

    async def suggest_move(request: Request) -> Response:
        body = await read_body(request, SuggestBody, max_depth)
        seat, move, label = await service.suggest(
            request.path_params["game_id"],
            caller(request),
            body.strategy,
            body.budget_ms,
            body.iterations,
            body.seed,
        )
        return json_response(
            {"seat": seat, "strategy": body.strategy, "move": move, "label": label}
        )

    async def export_game(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        document = await service.export_record(game_id, caller(request))
        return json_response(document)

    async def verify_game_record(request: Request) -> Response:
        try:
            document = decode_json(await request.body(), max_depth)
        except BadInput as exc:
            raise Problem("BAD_REQUEST", str(exc)) from None
        return json_response(await service.verify_record(document))

    async def reissue_token(request: Request) -> Response:
        seat = natural(request.path_params["seat"])
        if seat is None:
            raise Problem("BAD_REQUEST", "the seat is a whole number, e.g. /seats/1/token")
        game_id = request.path_params["game_id"]
        token, player_id = await service.reissue_token(game_id, tenant_of(request), seat)
        body = {"seat": seat, "token": token, "playerId": player_id}
        return json_response(body, headers={"cache-control": "no-store"})

    return [
        Route("/v1/games", guarded(create_game), methods=["POST"]),
        Route("/v1/games", guarded(list_games), methods=["GET"]),
        Route("/v1/games/{game_id}", guarded(get_game), methods=["GET"]),
        Route("/v1/games/{game_id}/legal-moves", guarded(legal_moves), methods=["GET"]),
        Route("/v1/games/{game_id}/moves", guarded(apply_move), methods=["POST"]),
        Route("/v1/games/{game_id}/validate", guarded(validate_move), methods=["POST"]),
        Route("/v1/games/{game_id}/resign", guarded(resign), methods=["POST"]),
        Route("/v1/games/{game_id}/abandon", guarded(abandon), methods=["POST"]),
        Route("/v1/games/{game_id}/takeback", guarded(request_takeback), methods=["POST"]),
        Route("/v1/games/{game_id}/takeback/answer", guarded(answer_takeback), methods=["POST"]),
        Route("/v1/games/{game_id}/suggest", guarded(suggest_move), methods=["POST"]),
        Route("/v1/games/{game_id}/scores", guarded(scores), methods=["GET"]),
        Route("/v1/games/{game_id}/history", guarded(history), methods=["GET"]),
        Route("/v1/games/{game_id}/state", guarded(state_at), methods=["GET"]),
        Route("/v1/games/{game_id}/seats/{seat}/token", guarded(reissue_token), methods=["POST"]),
        Route("/v1/games/{game_id}/record", guarded(export_game), methods=["GET"]),
        Route(VERIFY_PATH, guarded(verify_game_record), methods=["POST"]),
    ]


LISTING_PARAMS = {
    "status",
    "kind",
    "playerId",
    "toActPlayerId",
    "createdAfter",
    "first",
    "after",
    "messages",
    "language",
}


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
