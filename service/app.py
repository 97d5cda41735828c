"""The Starlette app, the composition root: settings, store, game service, adapters and
routes wired together (docs/architecture.md)."""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from types import FrameType

import msgspec
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest, start_http_server
from starlette.applications import Starlette
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from service import logs, metrics
from service.api.edge.caching import Caching
from service.api.edge.compression import compressed
from service.api.edge.guard import Admission, Guard, Occupancy
from service.api.edge.pacing import Pacer
from service.api.edge.problems import unrouted
from service.api.edge.ratelimit import RateLimiter
from service.api.edge.verifying import Verifier
from service.api.graphql.app import GRAPHIQL_DIR, GraphQLApp
from service.api.rest import routes as rest
from service.api.rest.events import Streams
from service.api.rest.openapi import openapi
from service.api.rest.records import VERIFY_PATH
from service.archive.archive import Archive, lazy_pool
from service.bots.hints import HintPool
from service.core import GameService
from service.core.players.tokens import PlayerTokens
from service.core.records.format import MAX_RECORD_BYTES
from service.core.records.signing import Keyring
from service.settings import Settings
from service.store import RedisStore, connect
from service.webhooks.endpoints import EndpointStore
from service.webhooks.tenant_events import TenantEvents

log = logging.getLogger("uvicorn.error")  # uvicorn's own: shown beside its "Shutting down"

PLAYGROUND_DIR = (
    Path(__file__).parent / "api" / "static" / "playground"
)  # the page at /play (README)

# What a browser app may send and read across origins (seat tokens travel in Authorization,
# never in cookies, so credentials stay off).
CORS_REQUEST_HEADERS = [
    "Authorization",
    "Content-Type",
    "If-Match",
    "If-None-Match",
    "Idempotency-Key",
    "X-API-Key",
    "X-Act-As-Seat",
    "Prefer",
    "Last-Event-ID",  # EventSource's, when it resumes a server-sent event stream
]
CORS_RESPONSE_HEADERS = [
    "ETag",
    "Retry-After",
    "Location",
    "Link",
    "Idempotent-Replayed",
    "Preference-Applied",
    "WWW-Authenticate",
]


class Drain:
    """Readiness turns false before shutdown. On SIGTERM /readyz answers 503 at once (load
    balancers that probe it take the replica out) while every request is still served for
    `delay` seconds (RULES_SHUTDOWN_DELAY_SECONDS); then the server's own SIGTERM handler runs:
    uvicorn's graceful shutdown (stop accepting, finish the requests in flight, the lifespan's
    shutdown, the signal raised again). uvicorn installs its handler before it starts the
    lifespan, which wraps it here: the same for `python -m service` and for the container's
    `uvicorn --factory`. A second SIGTERM, and SIGINT (Ctrl-C), stop at once. `on_stop` runs
    as the server's handler is called: what would hold its shutdown open (event streams) ends."""

    def __init__(self, delay: float, on_stop: Callable[[], None] = lambda: None) -> None:
        self.delay = delay
        self.on_stop = on_stop
        self.draining = False

    def install(self) -> Callable[[], None]:
        """Wrap the server's SIGTERM handler; returns the undo. Nothing to wrap without one (an
        in-process test client) or off the main thread."""
        server_handler = signal.getsignal(signal.SIGTERM)
        if (
            not callable(server_handler)
            or threading.current_thread() is not threading.main_thread()
        ):
            return lambda: None
        loop = asyncio.get_running_loop()

        def stop(signum: int) -> None:
            self.on_stop()
            server_handler(signum, None)

        def begin(signum: int) -> None:
            log.info("SIGTERM: not ready; shutting down in %g s", self.delay)
            loop.call_later(self.delay, stop, signum)

        def on_sigterm(signum: int, frame: FrameType | None) -> None:
            if self.draining or self.delay <= 0:
                self.draining = True
                loop.call_soon_threadsafe(self.on_stop)
                server_handler(signum, frame)
            else:
                self.draining = True  # /readyz answers 503 from now on
                loop.call_soon_threadsafe(begin, signum)

        signal.signal(signal.SIGTERM, on_sigterm)

        def undo() -> None:
            if signal.getsignal(signal.SIGTERM) is on_sigterm:
                signal.signal(signal.SIGTERM, server_handler)

        return undo


# Python's default (700 allocations) runs the young collection, and with it the older ones,
# so often that with thousands of sockets open the collector cost more than the sockets' sends
# (docs/performance.md, "Live updates"): fewer, larger collections.
GC_THRESHOLDS = (50_000, 20, 100)


def create_app(settings: Settings, redis_url: str) -> ASGIApp:
    gc.set_threshold(*GC_THRESHOLDS)
    # a malformed key fails first, naming its setting (never its value)
    record_keys = Keyring.from_settings(settings.record_signing_key, settings.record_verify_keys)
    store = RedisStore(connect(settings, redis_url), settings)
    pool = (
        lazy_pool(settings.database_url, settings.redis_timeout * 2)
        if settings.database_url
        else None
    )
    if pool is not None:  # reads of games that left Redis for the archive
        store.cold = Archive(pool)
    hints = HintPool(settings.hint_processes, settings.hint_grace_ms)
    game_service = GameService(
        store,
        settings.api_keys,
        settings.max_suggest_ms,
        hints,
        settings.worker_reclaim_seconds,
        seeds_need_key=settings.production,
        acting_needs_key=settings.production,
        takeback_seconds=settings.takeback_seconds,
        record_keys=record_keys,
        player_tokens=PlayerTokens(
            store, settings.player_token_secret, settings.player_keys, settings.production
        ),
        invite_base_url=settings.invite_base_url,
    )
    limiter = RateLimiter(
        store.redis,
        {"token": settings.rate_limit_per_token, "address": settings.rate_limit_per_address},
        settings.rate_limit_sync_seconds,
    )
    admission = Admission(limiter)
    endpoints, tenant_events = EndpointStore(store, settings), TenantEvents(store)
    # gameEvents and server-sent event streams share the live subscriptions per address and
    # the pacing of replays (service/api/edge/pacing.py)
    live, pacer = Occupancy(settings.max_subscriptions_per_address), Pacer(admission)
    # game records to verify go to child processes (service/api/edge/verifying.py)
    verifier = Verifier(settings.verify_processes, record_keys, settings.max_json_depth)
    graphql = GraphQLApp(
        game_service, settings, admission, endpoints, tenant_events, live, pacer, verifier
    )
    streams = Streams(live, pacer)

    async def healthz(request: Request) -> Response:
        return PlainTextResponse("ok")

    drain = Drain(settings.shutdown_delay_seconds, streams.close)

    async def readyz(request: Request) -> Response:
        if drain.draining:
            return PlainTextResponse("shutting down", status_code=503)
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
        undo = drain.install()
        if pool is not None:
            await pool.open(wait=False)
        exporter = None
        if settings.metrics_port:
            exporter, _ = start_http_server(settings.metrics_port, registry=metrics.REGISTRY)
        yield
        if exporter is not None:
            exporter.shutdown()
            exporter.server_close()
        undo()
        await limiter.close()
        await store.close()
        if pool is not None:
            await pool.close()
        hints.close()
        verifier.close()

    app = Starlette(
        routes=[
            Route("/graphql", graphql, methods=["GET", "POST"]),
            WebSocketRoute("/graphql", graphql),
            *rest.routes(
                game_service, endpoints, tenant_events, settings.max_json_depth, streams, verifier
            ),
            Route("/healthz", healthz),
            Route("/readyz", readyz),
            # per-kind counters are the operator's, not the clients': on a port of their own
            # (RULES_METRICS_PORT), or on this one in development
            *(
                [Route("/metrics", metrics_route)]
                if not settings.metrics_port and not settings.production
                else []
            ),
            Route("/openapi.json", openapi_route),
            *(
                []
                if settings.production
                else [Mount("/graphiql", StaticFiles(directory=GRAPHIQL_DIR))]
            ),
            *(
                [Mount("/play", StaticFiles(directory=PLAYGROUND_DIR, html=True))]
                if settings.serves_playground
                else []
            ),
        ],
        lifespan=lifespan,
        exception_handlers={404: unrouted, 405: unrouted},
    )

    async def routed(scope: Scope, receive: Receive, send: Send) -> None:
        # The hot route skips Starlette's middleware and router (~15% of a read);
        # the guard below still wraps it, and graphql answers its own errors.
        if scope["type"] == "http" and scope["path"] == "/graphql" and scope["method"] == "POST":
            await graphql(scope, receive, send)
        else:
            await app(scope, receive, send)

    # compressed inside the guard: the request's time includes it, and the guard's headers
    # and Cache-Control go on the answer as sent
    guarded: ASGIApp = Guard(
        compressed(routed),
        settings.max_body_bytes,
        admission,
        settings.max_sockets_per_address,
        Caching(settings.public_max_age),
        {VERIFY_PATH: MAX_RECORD_BYTES, "/graphql": MAX_RECORD_BYTES},  # graphql/app.py says which
    )
    if settings.cors_origins:
        # outside the guard, so a browser can read its refusals (413, 429) too
        guarded = CORSMiddleware(
            guarded,
            allow_origins=settings.cors_origins,
            allow_methods=["GET", "POST", "PATCH", "DELETE"],  # PATCH, DELETE: webhooks
            allow_headers=CORS_REQUEST_HEADERS,
            expose_headers=CORS_RESPONSE_HEADERS,
            max_age=600,
        )
    if settings.forwarded_allow_ips:
        # The client address (rate limits, socket limits) comes from X-Forwarded-For only when
        # the peer is a configured proxy; uvicorn's own handling is off (it trusts loopback).
        guarded = ProxyHeadersMiddleware(guarded, list(settings.forwarded_allow_ips))  # type: ignore[arg-type,assignment]
    return guarded


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
    logs.quiet_third_parties()
    return create_app(settings, settings.redis_url)
