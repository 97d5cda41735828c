"""What REST's handlers share: JSON answers and bodies, per-viewer ETags and their
preconditions, the answer's language and messages, and problem details for refusals.

An ETag is per viewer: `"<version>.<digest>"`, the digest of the game, the version, the seat
(or none: a spectator), whether the caller sees the player ids (the game's tenant), the route
and its query, so one seat's tag never earns another seat a 304. If-Match reads the version
before the dot (a bare `"12"` too).
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from service.api.edge.localized import language
from service.api.edge.parsing import bearer_token, natural, within_depth
from service.api.edge.problems import Problem, from_refusal, problem_response
from service.api.edge.verifying import Verifier
from service.core import Caller, GameService, LoadedGame
from service.engine.texts import ENGLISH
from service.games import games
from service.refusals import Refused
from service.store import indexes

Endpoint = Callable[[Request], Awaitable[Response]]
ACT_AS_SEAT = "x-act-as-seat"  # the seat a tenant's key acts for (docs/api.md)


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


def if_match(request: Request) -> int | None:
    raw = request.headers.get("if-match")
    if raw is None:
        return None
    version = natural(raw.strip().removeprefix("W/").strip('"').partition(".")[0])
    if version is None:
        raise Problem("BAD_REQUEST", 'If-Match must be a game version, e.g. If-Match: "12"')
    return version


def none_match(request: Request, tag: str) -> bool:
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
    if none_match(request, tag):
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


def guarded(endpoint: Endpoint, name: str) -> Endpoint:
    """A route's handler, its refusals answered as problem details and timed as its own
    operation (metrics)."""
    operation = f"rest.{name}"

    async def run(request: Request) -> Response:
        request.scope["rules.operation"] = operation
        try:
            return await endpoint(request)
        except Refused as refused:
            return problem_response(from_refusal(refused), language=language_of(request))
        except Problem as problem:
            return problem_response(problem, language=language_of(request))

    return run


@dataclass(frozen=True)
class Rest:
    """What every game route's handler is handed: the game service and the JSON depth limit."""

    service: GameService
    max_depth: int
    verifier: Verifier

    async def read(self, request: Request) -> LoadedGame:
        return await self.service.read(request.path_params["game_id"], self.caller(request))

    def tenant_of(self, request: Request) -> str | None:
        return self.service.tenant_of(request.headers.get("x-api-key"))

    def caller(self, request: Request) -> Caller:
        """The bearer's token and, with X-Act-As-Seat, the seat it acts for and the tenant
        of its X-API-Key (keys.viewer_of)."""
        raw = request.headers.get(ACT_AS_SEAT)
        if raw is None:  # the tenant still counts: the game's own sees it live
            return Caller(bearer_token(request), self.tenant_of(request))
        seat = natural(raw.strip())
        if seat is None:
            raise Problem("BAD_REQUEST", "X-Act-As-Seat must be a seat, e.g. X-Act-As-Seat: 1")
        return Caller(bearer_token(request), self.tenant_of(request), seat)


def page_query(request: Request, known: set[str]) -> tuple[str | None, str | None, int]:
    """A listing's query checked (no parameter but `known`): its status, kind and page size."""
    params = request.query_params
    unknown = set(params.keys()) - known
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
    return status, kind, first
