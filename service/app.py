"""The Starlette app: settings, store, metrics and routes wired together."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import msgspec
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from strawberry.asgi import GraphQL

from service import metrics
from service.api import rest
from service.api.contracts import openapi
from service.api.graphql import build_schema
from service.api.rest import bearer_token
from service.api.tables import Tables
from service.settings import Settings
from service.store import RedisStore, connect


class GraphQLApp(GraphQL[dict[str, Any], None]):
    """strawberry's ASGI view with our context (store, bearer token) and msgspec JSON."""

    def __init__(self, tables: Tables, settings: Settings) -> None:
        super().__init__(
            build_schema(production=settings.production),
            graphql_ide=None if settings.production else "graphiql",
            allow_queries_via_get=False,
            multipart_uploads_enabled=False,
        )
        self.tables = tables

    async def get_context(self, request: Any, response: Any) -> dict[str, Any]:
        return {
            "request": request,
            "response": response,
            "tables": self.tables,
            "token": bearer_token(request),
        }

    def encode_json(self, data: object) -> bytes:
        return msgspec.json.encode(data)

    def decode_json(self, data: str | bytes) -> object:
        try:
            return msgspec.json.decode(data)
        except msgspec.DecodeError as exc:  # strawberry turns this one into a 400
            raise json.JSONDecodeError(str(exc), "", 0) from None


class Guard:
    """Outermost middleware: request size limit, in-flight gauge, latency by operation."""

    def __init__(self, app: ASGIApp, max_body_bytes: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body_bytes):
            await too_large(self.max_body_bytes)(scope, receive, send)
            return
        received = 0

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > self.max_body_bytes:
                raise BodyTooLarge
            return message

        metrics.REQUESTS_IN_FLIGHT.inc()
        started = time.perf_counter()
        try:
            await self.app(scope, limited, send)
        except BodyTooLarge:
            await too_large(self.max_body_bytes)(scope, receive, send)
        finally:
            metrics.REQUESTS_IN_FLIGHT.dec()
            operation = scope.get("rules.operation", scope["path"])
            metrics.REQUEST_SECONDS.labels(operation).observe(time.perf_counter() - started)


class BodyTooLarge(Exception):
    pass


def too_large(limit: int) -> Response:
    return JSONResponse(
        {"errors": [{"message": f"request body over {limit} bytes",
                     "extensions": {"code": "PAYLOAD_TOO_LARGE"}}]},
        status_code=413,
    )  # fmt: skip


def create_app(settings: Settings, redis_url: str) -> ASGIApp:
    store = RedisStore(connect(settings, redis_url), settings)
    tables = Tables(store)
    graphql = GraphQLApp(tables, settings)

    async def healthz(request: Request) -> Response:
        return PlainTextResponse("ok")

    async def readyz(request: Request) -> Response:
        if await store.ping():
            return PlainTextResponse("ready")
        return PlainTextResponse("store unavailable", status_code=503)

    contract = msgspec.json.encode(openapi())

    async def openapi_route(request: Request) -> Response:
        return Response(contract, media_type="application/json")

    async def metrics_route(request: Request) -> Response:
        return Response(generate_latest(metrics.REGISTRY), media_type=CONTENT_TYPE_LATEST)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await store.close()

    app = Starlette(
        routes=[
            Route("/graphql", graphql, methods=["GET", "POST"]),
            WebSocketRoute("/graphql", graphql),
            *rest.routes(tables),
            Route("/healthz", healthz),
            Route("/readyz", readyz),
            Route("/metrics", metrics_route),
            Route("/openapi.json", openapi_route),
        ],
        lifespan=lifespan,
    )
    app.state.tables = tables
    return Guard(app, settings.max_body_bytes)


def from_env() -> ASGIApp:
    """The app as the container starts it: `uvicorn --factory service.app:from_env`."""
    settings = Settings.from_env()
    if settings.redis_url is None:
        raise RuntimeError(
            "REDIS_URL is not set: the container keeps games in the Redis it names "
            "(only `python -m service` starts an embedded Redis)"
        )
    for logger in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(logger).setLevel(settings.log_level.upper())
    return create_app(settings, settings.redis_url)
