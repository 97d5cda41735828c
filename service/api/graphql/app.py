"""strawberry's ASGI view, with our context, msgspec JSON, persisted queries and the fast path.

A POST is read once. Automatic persisted queries (Apollo's protocol: the client sends
`extensions.persistedQuery.sha256Hash`, and the query text only the first time a server has
not seen it) save clients from resending documents; the text is kept per process, so after a
miss on another replica the client simply resends it. Then, if the document is one the fast
path understands (fastpath.py), it answers directly; otherwise strawberry answers as usual.

A GET with `query` or `extensions` in its URL is the same request for queries only (a hash
alone is enough once the text is known), so a CDN can cache what spectators read
(service/api/edge/caching.py); a mutation over GET is refused with 405 METHOD_NOT_ALLOWED.
A GET without either is a browser asking for GraphiQL.

A POST body may be as large as RULES_MAX_BODY_BYTES, except one whose document only verifies
a game record (`verifyGameRecord`): a finished game's record may be larger (a four-seat
Treetopia game's is ~75 KB), so such a body may have up to MAX_RECORD_BYTES, as REST's verify
route (the guard lets /graphql bodies that large through; this view refuses the rest with 413).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import msgspec
from cross_web import HTTPException
from graphql import OperationType
from starlette.datastructures import QueryParams
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.types import Message, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect
from strawberry.asgi import ASGIWebSocketAdapter, GraphQL
from strawberry.http import GraphQLHTTPResponse
from strawberry.http.exceptions import WebSocketDisconnected
from strawberry.types import ExecutionResult
from strawberry.types.unset import UNSET, UnsetType

from service.api.edge.caching import ERRORS
from service.api.edge.guard import Admission, Occupancy
from service.api.edge.localized import language
from service.api.edge.pacing import Pacer
from service.api.edge.parsing import BadInput, bearer_token, credential, decode_json, header
from service.api.edge.problems import refusal
from service.api.edge.verifying import Verifier
from service.api.graphql import fastpath
from service.api.graphql.documents import Lru
from service.api.graphql.live import Live
from service.api.graphql.schema import build_schema
from service.api.graphql.sockets import LegacyHandler, TransportHandler, socket_token
from service.core import Caller, GameService
from service.core.records.format import MAX_RECORD_BYTES
from service.settings import Settings
from service.webhooks.endpoints import EndpointStore
from service.webhooks.tenant_events import TenantEvents

GRAPHIQL_DIR = (
    Path(__file__).parents[1] / "static" / "graphiql"
)  # served at /graphiql (service/app.py)
GRAPHIQL_PAGE = (GRAPHIQL_DIR / "index.html").read_text()
# strawberry refuses these itself (as plain text); they are answered as typed GraphQL errors
HTTP_CODES = {400: "BAD_REQUEST", 404: "UNKNOWN_ROUTE", 405: "METHOD_NOT_ALLOWED"}
ALLOW = {"allow": "POST"}
# the one document a body over RULES_MAX_BODY_BYTES may hold
RECORD_SIZED_ROOTS = "verifyGameRecord"
# set while strawberry reads a POST body `_answer` admitted over RULES_MAX_BODY_BYTES
_RECORD_SIZED: ContextVar[bool] = ContextVar("record_sized", default=False)


class TextFrames(ASGIWebSocketAdapter):
    """Every graphql-transport-ws and graphql-ws message as a text frame: both protocols
    require text, and gql, graphql-ws and browsers refuse binary frames."""

    async def send_json(self, message: Mapping[str, object]) -> None:
        await self.send_text(msgspec.json.encode(message).decode())

    async def send_text(self, text: str) -> None:
        try:
            await self.ws.send_text(text)
        except WebSocketDisconnect as exc:
            raise WebSocketDisconnected from exc

    async def close(self, code: int, reason: str) -> None:
        """A close the client beat (it went first, e.g. right after a bad frame) is no error:
        strawberry's own close let WebSocketDisconnect out, a traceback in the log."""
        try:
            await self.ws.close(code=code, reason=reason)
        except WebSocketDisconnect:
            return  # nothing is left to close


class GraphQLApp(GraphQL[dict[str, Any], None]):
    websocket_adapter_class = TextFrames
    graphql_transport_ws_handler_class = TransportHandler
    graphql_ws_handler_class = LegacyHandler

    def __init__(
        self,
        service: GameService,
        settings: Settings,
        admission: Admission,
        endpoints: EndpointStore,
        tenant_events: TenantEvents,
        live: Occupancy,
        pacer: Pacer,
        verifier: Verifier,
    ) -> None:
        schema = build_schema(settings)
        super().__init__(
            schema,
            graphql_ide=None if settings.production else "graphiql",
            allow_queries_via_get=True,  # only queries: `_execute` refuses the rest first
            multipart_uploads_enabled=False,
            allowed_origins=settings.cors_origins,  # WebSocket upgrades from other origins
            max_subscriptions_per_connection=None,  # sockets.py refuses it, typed
        )
        self.documents = schema.documents
        # gameEvents rendered once per audience (live.py); strawberry's own path without it
        self.live = (
            Live(
                schema._schema,
                schema.documents,
                schema.process_errors,
                pacer,
                settings.subscriber_queue,
            )
            if settings.graphql_fast_path
            else None
        )
        self.service = service
        self.verifier = verifier
        self.endpoints = endpoints
        self.tenant_events = tenant_events
        self.fast_path = settings.graphql_fast_path
        self.persisted: Lru = Lru(4096)
        self.max_depth = settings.max_json_depth
        self.max_message = settings.max_body_bytes  # the guard and `_answer` bound HTTP bodies
        self.admission = admission
        self.per_socket = settings.max_subscriptions_per_socket
        self.per_address = live  # live subscriptions per address, event streams' too

    async def render_graphql_ide(self, request: Request) -> Response:
        return HTMLResponse(GRAPHIQL_PAGE)

    async def get_context(self, request: Any, response: Any) -> dict[str, Any]:
        return {
            "request": request,
            "response": response,
            "service": self.service,
            "verifier": self.verifier,
            "endpoints": self.endpoints,
            "tenant_events": self.tenant_events,
            "token": bearer_token(request),
        }

    async def process_result(
        self, request: Request, result: ExecutionResult
    ) -> GraphQLHTTPResponse:
        if result.errors:
            request.scope[ERRORS] = True  # an answer with errors is never cached (caching.py)
        return await super().process_result(request, result)

    def encode_json(self, data: object) -> bytes:
        return msgspec.json.encode(data)

    def decode_json(self, data: str | bytes) -> object:
        # uvicorn admits socket messages of up to 16 MiB; one that size would cost the event
        # loop a second of tokenizing a document (an HTTP body of this size: milliseconds)
        limit = MAX_RECORD_BYTES if _RECORD_SIZED.get() else self.max_message
        if len(data) > limit:
            raise json.JSONDecodeError(f"a message over {limit} bytes", "", 0)
        try:
            return decode_json(data, self.max_depth)
        except BadInput as exc:  # strawberry turns this one into a 400 (a 4400 on a socket)
            raise json.JSONDecodeError(str(exc), "", 0) from None

    async def on_ws_connect(self, context: dict[str, Any]) -> UnsetType | dict[str, object] | None:
        context["token"] = socket_token(context)  # every operation on the socket runs as it
        unset: UnsetType = UNSET
        return unset

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        sized = None
        if scope["method"] == "POST":
            body = await _read_body(receive)
            if body is None:
                return  # the client went away: nobody to answer
            answer, body = await self._answer(scope, body)
            if isinstance(answer, bytes):
                await _send_json(send, answer)
                return
            if answer is not None:
                await answer(scope, receive, send)
                return
            receive = _replay(body, receive)
            sized = _RECORD_SIZED.set(len(body) > self.max_message)  # admitted by _answer
        elif scope["method"] == "GET" and {"query", "extensions"} & set(_params(scope)):
            answer = await self._get(scope)
            if isinstance(answer, bytes):
                await _send_json(send, answer)
                return
            if answer is not None:
                await answer(scope, receive, send)
                return
        try:
            response = await self.run(Request(scope, receive))
        except HTTPException as exc:
            code = HTTP_CODES.get(exc.status_code, "BAD_REQUEST")
            response = refusal("/graphql", exc.status_code, code, exc.reason)
        finally:
            if sized is not None:
                _RECORD_SIZED.reset(sized)
        await response(scope, receive, send)

    async def _answer(self, scope: Scope, body: bytes) -> tuple[Response | bytes | None, bytes]:
        """A refusal or the fast path's answer (its JSON), or None and the body strawberry
        should see."""
        oversized = len(body) > self.max_message
        if "json" not in (header(scope, b"content-type") or ""):
            return (self._too_large() if oversized else None), body
        try:
            payload = decode_json(body, self.max_depth)
        except BadInput as exc:
            return refusal("/graphql", 400, "BAD_REQUEST", str(exc)), body
        if isinstance(payload, list):
            return refusal("/graphql", 400, "BAD_REQUEST", "batching is not enabled"), body
        if not isinstance(payload, dict):
            return refusal("/graphql", 400, "BAD_REQUEST", "the body must be a JSON object"), body
        if oversized and not self._record_sized(payload):
            return self._too_large(), body
        answer, resolved = await self._execute(scope, payload)
        return answer, body if resolved is payload else msgspec.json.encode(resolved)

    def _record_sized(self, payload: dict[str, Any]) -> bool:
        """Whether a body over RULES_MAX_BODY_BYTES is a game record to verify: its document
        (itself no larger than a body may be) asks for verifyGameRecord and nothing else."""
        query = payload.get("query")
        if not isinstance(query, str) or len(query) > self.max_message:
            return False
        return self.documents.roots(query) == RECORD_SIZED_ROOTS

    def _too_large(self) -> Response:
        message = (
            f"request body over {self.max_message} bytes (a verifyGameRecord alone may have "
            f"up to {MAX_RECORD_BYTES})"
        )
        return refusal("/graphql", 413, "PAYLOAD_TOO_LARGE", message)

    async def _get(self, scope: Scope) -> Response | bytes | None:
        """A GET's answer as `_answer` gives it; for strawberry, the URL gets the query text
        a persisted query's hash stands for."""
        params = _params(scope)
        payload: dict[str, Any] = {k: params[k] for k in ("query", "operationName") if k in params}
        for name in ("variables", "extensions"):
            if params.get(name):
                try:
                    payload[name] = decode_json(params[name], self.max_depth)
                except BadInput as exc:
                    return refusal("/graphql", 400, "BAD_REQUEST", f"{name}: {exc}")
                if not isinstance(payload[name], dict):
                    return refusal("/graphql", 400, "BAD_REQUEST", f"{name} must be an object")
        answer, resolved = await self._execute(scope, payload)
        if answer is None and resolved is not payload:
            query = {k: v if isinstance(v, str) else msgspec.json.encode(v).decode()
                     for k, v in resolved.items() if v is not None}  # fmt: skip
            scope["query_string"] = urlencode(query).encode()
        return answer

    async def _execute(
        self, scope: Scope, payload: dict[str, Any]
    ) -> tuple[Response | bytes | None, dict[str, Any]]:
        """A refusal or the fast path's answer, or None; and the request with the query text
        a persisted query's hash stands for."""
        query = payload.get("query")
        extensions = payload.get("extensions")
        if isinstance(extensions, dict) and isinstance(extensions.get("persistedQuery"), dict):
            query, refused = self._persisted(query, extensions["persistedQuery"])
            if refused is not None:
                scope[ERRORS] = True
                return refused, payload
            payload = {**payload, "query": query}
        if scope["method"] == "GET" and isinstance(query, str):
            kind = self.documents.operation(query, payload.get("operationName"))
            if kind not in (None, OperationType.QUERY):
                message = f"a {kind.value} is sent with POST; GET answers queries only"
                return refusal("/graphql", 405, "METHOD_NOT_ALLOWED", message, ALLOW), payload
        variables = payload.get("variables") or {}
        if not self.fast_path or not isinstance(query, str) or not isinstance(variables, dict):
            return None, payload
        plan = self.documents.plan(query)
        if plan is None or payload.get("operationName") not in (None, plan.name):
            return None, payload
        scope["rules.operation"] = plan.operation
        token = credential(header(scope, b"authorization"))
        api_key = header(scope, b"x-api-key")  # the game's tenant sees it live
        tenant = None if api_key is None else self.service.tenant_of(api_key)
        accept = header(scope, b"accept-language")
        result = await fastpath.run(
            plan, variables, self.service, Caller(token, tenant), language(accept)
        )
        if result is None:
            return None, payload
        if "errors" in result:
            scope[ERRORS] = True
        return self.encode_json(result), payload

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


def _params(scope: Scope) -> QueryParams:
    return QueryParams(scope["query_string"])


async def _read_body(receive: Receive) -> bytes | None:
    """The whole request body (the guard bounds its size), or None if the client left."""
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


async def _send_json(send: Send, body: bytes) -> None:
    length = str(len(body)).encode()
    headers = [(b"content-length", length), (b"content-type", b"application/json")]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _replay(body: bytes, receive: Receive) -> Receive:
    """A receive that gives the body already read, then whatever the client sends next."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


def _error(code: str, message: str, status: int = 200) -> Response:
    body = {"errors": [{"message": message, "extensions": {"code": code}}]}
    return Response(msgspec.json.encode(body), status, media_type="application/json")
