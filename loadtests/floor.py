"""The floor: the least a move can cost on this stack, to compare the real API against.

One move here does exactly the work no implementation of the service can skip: read the
request, load the record and idempotency entry (one pipelined round trip), decode the record
and the game's State, encode them again with the version bumped, run the real commit script
(the second round trip) and answer a small JSON body. It reuses the service's RedisStore, its
Lua script and real Records of real games; it does no rules, no GraphQL, no auth, no metrics.

    uvicorn --factory loadtests.floor:from_env   (REDIS_URL names the Redis)
    POST /floor/games/{id}/moves  {"move": {...}}  Idempotency-Key: <key>  ->  {"version": n}
    GET  /floor/noop  ->  {}   (no work at all: what HTTP, uvicorn and the machine cost alone)
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import msgspec
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from service.engine.play import decode_state, encode_state
from service.games import games
from service.settings import Settings
from service.store import HistoryRecord, RedisStore, connect


class FloorMove(msgspec.Struct):
    move: Any


_reply = msgspec.json.Encoder()


def create_floor(settings: Settings, redis_url: str) -> Starlette:
    store = RedisStore(connect(settings, redis_url), settings)

    async def move(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        body = msgspec.json.decode(await request.body(), type=FloorMove)
        key = request.headers.get("idempotency-key")
        record, done = await store.load(game_id, key)
        if record is None:
            return Response(b'{"error":"no such game"}', 404, media_type="application/json")
        if done is not None:
            return Response(_reply.encode({"version": done.version}), media_type="application/json")
        game = games()[record.kind]
        state = decode_state(game, record.state)
        new_record = msgspec.structs.replace(
            record, version=record.version + 1, state=encode_state(state), updated=time.time()
        )
        history = [HistoryRecord(new_record.version, 0, body.move, "floor")]
        committed = await store.commit(game_id, record.version, new_record, history, key)
        status = 200 if committed.outcome == "ok" else 409
        return Response(
            _reply.encode({"version": committed.version}), status, media_type="application/json"
        )

    async def noop(request: Request) -> Response:
        return Response(b"{}", media_type="application/json")

    async def readyz(request: Request) -> Response:
        if await store.ping():
            return PlainTextResponse("ready")
        return PlainTextResponse("store unavailable", status_code=503)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await store.close()

    return Starlette(
        routes=[
            Route("/floor/games/{game_id}/moves", move, methods=["POST"]),
            Route("/floor/noop", noop),
            Route("/readyz", readyz),
        ],
        lifespan=lifespan,
    )


def from_env() -> Starlette:
    settings = Settings.from_env()
    if settings.redis_url is None:
        raise RuntimeError("REDIS_URL is not set: the floor measures the Redis it names")
    return create_floor(settings, settings.redis_url)
