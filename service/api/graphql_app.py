"""strawberry's ASGI view, with our context, msgspec JSON, persisted queries and the fast path.

A POST is read once. Automatic persisted queries (Apollo's protocol: the client sends
`extensions.persistedQuery.sha256Hash`, and the query text only the first time a server has
not seen it) save clients from resending documents; the text is kept per process, so after a
miss on another replica the client simply resends it. Then, if the document is one the fast
path understands (fastpath.py), it answers directly; otherwise strawberry answers as usual.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.types import Message, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect
from strawberry.asgi import ASGIWebSocketAdapter, GraphQL
from strawberry.http.exceptions import WebSocketDisconnected

from service.api import fastpath
from service.api.documents import _Lru
from service.api.rest import bearer_token
from service.api.schema import build_schema
from service.api.tables import Tables
from service.settings import Settings

GRAPHIQL_DIR = Path(__file__).parent / "graphiql"  # served at /graphiql (app.py)
GRAPHIQL_PAGE = (GRAPHIQL_DIR / "index.html").read_text()


class TextFrames(ASGIWebSocketAdapter):
    """Every graphql-transport-ws and graphql-ws message as a text frame: both protocols
    require text, and gql, graphql-ws and browsers refuse binary frames."""

    async def send_json(self, message: Mapping[str, object]) -> None:
        try:
            await self.ws.send_text(msgspec.json.encode(message).decode())
        except WebSocketDisconnect as exc:
            raise WebSocketDisconnected from exc


class GraphQLApp(GraphQL[dict[str, Any], None]):
    websocket_adapter_class = TextFrames

    def __init__(self, tables: Tables, settings: Settings) -> None:
        schema = build_schema(settings)
        super().__init__(
            schema,
            graphql_ide=None if settings.production else "graphiql",
            allow_queries_via_get=False,
            multipart_uploads_enabled=False,
            allowed_origins=settings.cors_origins,  # WebSocket upgrades from other origins
        )
        self.documents = schema.documents
        self.tables = tables
        self.fast_path = settings.graphql_fast_path
        self.persisted: _Lru = _Lru(4096)

    async def render_graphql_ide(self, request: Request) -> Response:
        return HTMLResponse(GRAPHIQL_PAGE)

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

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await super().__call__(scope, receive, send)
            return
        request = Request(scope, receive)
        body = await request.body()
        answer, body = await self._answer(request, body)
        if answer is not None:
            await answer(scope, receive, send)
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await super().__call__(scope, replay, send)

    async def _answer(self, request: Request, body: bytes) -> tuple[Response | None, bytes]:
        """The fast path's answer, or None and the body strawberry should see."""
        if "json" not in request.headers.get("content-type", ""):
            return None, body
        try:
            payload = msgspec.json.decode(body)
        except msgspec.DecodeError:
            return None, body
        if not isinstance(payload, dict):
            return None, body
        query = payload.get("query")
        extensions = payload.get("extensions")
        if isinstance(extensions, dict) and isinstance(extensions.get("persistedQuery"), dict):
            query, refusal = self._persisted(query, extensions["persistedQuery"])
            if refusal is not None:
                return refusal, body
            body = msgspec.json.encode({**payload, "query": query})
        variables = payload.get("variables") or {}
        if not self.fast_path or not isinstance(query, str) or not isinstance(variables, dict):
            return None, body
        plan = self.documents.plan(query)
        if plan is None or payload.get("operationName") not in (None, plan.name):
            return None, body
        request.scope["rules.operation"] = plan.operation
        result = await fastpath.run(plan, variables, self.tables, bearer_token(request))
        if result is None:
            return None, body
        return Response(self.encode_json(result), media_type="application/json"), body

    def _persisted(self, query: object, persisted: dict[str, Any]) -> tuple[str, Response | None]:
        digest = persisted.get("sha256Hash")
        if not isinstance(digest, str) or persisted.get("version", 1) != 1:
            return "", _error("PERSISTED_QUERY_NOT_SUPPORTED", "PersistedQueryNotSupported")
        if isinstance(query, str):
            if hashlib.sha256(query.encode()).hexdigest() != digest:
                return "", _error("BAD_REQUEST", "provided sha does not match query", 400)
            self.persisted.put(digest, query)
            return query, None
        known = self.persisted.get(digest)
        if known is None:
            return "", _error("PERSISTED_QUERY_NOT_FOUND", "PersistedQueryNotFound")
        return str(known), None


def _error(code: str, message: str, status: int = 200) -> Response:
    body = {"errors": [{"message": message, "extensions": {"code": code}}]}
    return Response(msgspec.json.encode(body), status, media_type="application/json")
