"""The REST mirror under /v1: the GraphQL contract for clients that do not speak GraphQL.

Same game service, same codes. Errors are RFC 9457 problem details whose `code` is the
GraphQL RejectCode (or UNAVAILABLE, BAD_USER_INPUT, BAD_REQUEST...), with HTTP statuses used
as HTTP intends: 401 no or bad token, 404 unknown game, 409 not now, 412 stale `If-Match`,
422 a move that is malformed or illegal (or an Idempotency-Key reused with another request,
as the IETF Idempotency-Key draft answers it), 503 store unavailable. A GET whose
If-None-Match names the current ETag answers 304 with no body.

Each route is one RestRoute beside its handler; this list is both the router's table and,
in the same order, the OpenAPI document's paths (openapi.py).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from service.api.edge.verifying import Verifier
from service.api.rest import (
    events,
    games,
    history,
    languages,
    lobby,
    moves,
    players,
    ratings,
    records,
    rematch,
    takebacks,
    tokens,
    webhook_events,
    webhooks,
)
from service.api.rest.http import Rest, guarded
from service.api.rest.operation import RestRoute
from service.core import GameService
from service.webhooks.endpoints import EndpointStore
from service.webhooks.tenant_events import TenantEvents

GAME_ROUTES: tuple[RestRoute, ...] = (
    games.CREATE,
    games.LIST,
    games.GET,
    moves.LEGAL,
    moves.APPLY,
    moves.VALIDATE,
    games.RESIGN,
    games.ABANDON,
    moves.SUGGEST,
    history.SCORES,
    history.HISTORY,
    history.STATE,
    tokens.REISSUE,
    takebacks.REQUEST,
    takebacks.ANSWER,
    records.EXPORT,
    records.VERIFY,
    records.KEYS,
    languages.LANGUAGES,
    *players.ROUTES,
    *ratings.ROUTES,
    *lobby.ROUTES,
    *rematch.ROUTES,
)
WEBHOOK_ROUTES: tuple[RestRoute, ...] = (
    webhooks.LIST,
    webhooks.CREATE,
    webhooks.GET,
    webhooks.UPDATE,
    webhooks.DELETE,
    webhooks.ROTATE,
    webhook_events.DELIVERIES,
    webhook_events.FAILED,
    webhook_events.REDELIVER,
    webhook_events.RETRY,
    webhook_events.TEST,
    webhook_events.FEED,
)
ROUTES = (*GAME_ROUTES, events.EVENTS, lobby.EVENTS, *WEBHOOK_ROUTES)


def mounted(route: RestRoute, handed: Any) -> Route:
    """The Starlette route of a declaration, its handler handed what its module needs."""
    handler = route.handler

    async def endpoint(request: Request) -> Response:
        return await handler(handed, request)

    return Route(route.path, guarded(endpoint, handler.__name__), methods=[route.method])


def routes(
    service: GameService,
    endpoints: EndpointStore,
    tenant_events: TenantEvents,
    max_depth: int,
    streams: events.Streams,
    verifier: Verifier,
) -> list[Route]:
    rest = Rest(service, max_depth, verifier)
    hooks = webhooks.Webhooks(service, endpoints, tenant_events, max_depth)
    return [
        *(mounted(route, rest) for route in GAME_ROUTES),
        mounted(events.EVENTS, events.EventsRoute(rest, streams)),
        mounted(lobby.EVENTS, events.EventsRoute(rest, streams)),
        *(mounted(route, hooks) for route in WEBHOOK_ROUTES),
    ]
