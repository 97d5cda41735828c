"""The WebSocket side of hostile clients: admission, limits, strict frames.

strawberry's handlers speak the protocols (graphql-transport-ws, and the legacy graphql-ws);
these subclasses add what a public endpoint needs:
- every operation on a socket is admitted like an HTTP request (rate limits by the socket's
  token and the client's address: `guard.admit`), and runs as the `connection_init` token;
- limits on operations per socket and live operations per address, refused with an `error`
  message carrying `extensions.code`;
- frames that are not protocol messages close the socket with 4400, as the protocol says;
- a subscriber too slow for its events is closed with `SLOW_CONSUMER_CLOSE`;
- a client that goes away is a normal event: no traceback in the log.

Served by uvicorn with `ParkingProtocol` (service/api/edge/parking.py), a graphql-transport-ws
socket is parked once accepted: its handler reads and writes it through `ParkedFrames`, in a
task of its own, and the ASGI call that accepted it returns.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncGenerator, Mapping
from functools import partial
from json import JSONDecodeError
from typing import Any, cast

import msgspec
from graphql import GraphQLError, OperationDefinitionNode, OperationType
from starlette.websockets import WebSocketDisconnect
from starlette.websockets import WebSocketDisconnected as SendAfterClose
from strawberry.http.async_base_view import AsyncWebSocketAdapter
from strawberry.http.exceptions import (
    NonJsonMessageReceived,
    NonTextMessageReceived,
    WebSocketDisconnected,
)
from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import (
    BaseGraphQLTransportWSHandler,
    Operation,
)
from strawberry.subscriptions.protocols.graphql_transport_ws.types import Message
from strawberry.subscriptions.protocols.graphql_ws.handlers import BaseGraphQLWSHandler

from service.api.edge.guard import client_address
from service.api.edge.parking import MAX_WAITING, PARKED, Wire, parking
from service.api.edge.parsing import credential
from service.api.graphql.crowds import SLOW_CONSUMER_CLOSE, SLOW_REASON, Member

TOO_MANY_CLOSE = 4429  # too many sockets from this address
MAX_OPERATION_ID = 128

log = logging.getLogger("service.sockets")
# A send racing the client's close raises starlette's SendAfterClose: the "Cannot call send
# once a close message has been sent" traceback.
DISCONNECTS = (WebSocketDisconnect, WebSocketDisconnected, SendAfterClose, OSError)


class Hardening:
    """What both protocol handlers add: admission and limits per operation, the slow
    consumer's close. The view (GraphQLApp) provides `admission`, `per_socket` and
    `per_address`; the handler provides `view`, `context`, `websocket`."""

    view: Any
    context: dict[str, Any]
    websocket: Any

    def refusal(self, in_flight: int) -> tuple[str, str, dict[str, Any]] | None:
        """Why a new operation may not run (code, message, extensions), or None."""
        address = client_address(self.context["request"].scope)
        wait = self.view.admission.admit(self.context.get("token"), address)
        if wait is not None:
            return "RATE_LIMITED", "too many requests; retry later", {"retryAfter": wait}
        if self.view.per_socket and in_flight >= self.view.per_socket:
            return "TOO_MANY_SUBSCRIPTIONS", "too many operations on this socket", {}
        if not self.view.per_address.take(address):
            return "TOO_MANY_SUBSCRIPTIONS", "too many subscriptions from this address", {}
        return None

    def unrunnable(self, payload: dict[str, Any]) -> tuple[str, str, dict[str, Any]] | None:
        """Why strawberry cannot run this document, or None. Over a socket it answers these
        with a masked INTERNAL_SERVER_ERROR, a bare `complete` or nothing at all, and logs a
        traceback for each, so they are refused here, typed as over HTTP."""
        query = payload["query"]
        if not query:
            return "BAD_REQUEST", "no GraphQL query in the payload", {}
        documents = self.view.documents
        found = documents.parsed.get(query) or documents.parsed.put(query, documents.parse(query))
        if isinstance(found, GraphQLError):
            return "GRAPHQL_PARSE_FAILED", found.message, {}
        names = [
            definition.name.value if definition.name else None
            for definition in found[0].definitions
            if isinstance(definition, OperationDefinitionNode)
        ]
        wanted = payload.get("operationName")
        if wanted is None and not names:
            return "BAD_REQUEST", "the document holds no operation", {}
        if wanted is not None and wanted not in names:
            return "BAD_REQUEST", "operationName names no operation of the document", {}
        return None

    def hold(self, task: asyncio.Task[Any] | None, operation: Any = None) -> None:
        """The address's slot, taken by `refusal`, is given back when `task` ends (or now,
        if no operation started), or when the operation's member leaves, if the task
        parked it (crowds.py)."""
        address = client_address(self.context["request"].scope)
        if task is None:
            self.view.per_address.give(address)
        else:
            task.add_done_callback(lambda done: self._ended(done, address, operation))

    def _ended(self, task: asyncio.Task[Any], address: str, operation: Any) -> None:
        member = getattr(operation, "task", None)
        if isinstance(member, Member):
            member.on_close(partial(self.view.per_address.give, address))
        else:
            self.view.per_address.give(address)
        _quiet(task)

    def drop_slow_consumer(self) -> None:
        task = asyncio.get_running_loop().create_task(
            self.websocket.close(SLOW_CONSUMER_CLOSE, SLOW_REASON)
        )
        task.add_done_callback(_quiet)


def _error(code: str, message: str, more: dict[str, Any]) -> Any:
    return {"message": message, "extensions": {"code": code, **more}}


class ParkedFrames(AsyncWebSocketAdapter):
    """A parked socket (edge/parking.py) as strawberry's handler reads and writes it: the
    messages the protocol hands over, waiting in a list; each sent message written at once,
    as a text frame (gql, graphql-ws and browsers refuse binary ones)."""

    wire: Wire

    def __init__(self, view: Any) -> None:
        super().__init__(view)
        self.waiting: list[str | bytes] = []
        self.wake: asyncio.Future[None] | None = None
        self.ended = False

    # what the protocol calls (edge/parking.Reader)

    def received(self, message: str | bytes) -> int:
        self.waiting.append(message)
        self._wake()
        return len(self.waiting)

    def gone(self) -> None:
        self.ended = True
        self._wake()

    def _wake(self) -> None:
        if self.wake is not None and not self.wake.done():
            self.wake.set_result(None)

    # what strawberry's handler calls

    async def iter_json(self, *, ignore_parsing_errors: bool = False) -> AsyncGenerator[object]:
        while True:
            while not self.waiting:
                if self.ended:
                    return
                self.wake = asyncio.get_running_loop().create_future()
                await self.wake
            message = self.waiting.pop(0)
            if len(self.waiting) < MAX_WAITING:
                self.wire.resume()
            if isinstance(message, bytes):
                raise NonTextMessageReceived
            try:
                decoded = self.view.decode_json(message)
            except JSONDecodeError as exc:
                if ignore_parsing_errors:
                    continue
                raise NonJsonMessageReceived from exc
            yield decoded

    async def send_json(self, message: Mapping[str, object]) -> None:
        await self.send_text(msgspec.json.encode(message).decode())

    async def send_text(self, text: str) -> None:
        await self.wire.drained()  # a client that stops reading holds this send (4413)
        if not self.wire.text(text):
            raise WebSocketDisconnected

    async def close(self, code: int, reason: str) -> None:
        self.wire.close(code, reason)


class TransportHandler(Hardening, BaseGraphQLTransportWSHandler[dict[str, Any], None]):
    """graphql-transport-ws (docs/api.md)."""

    async def handle(self) -> None:
        """Parked (ParkedFrames) where the server can; else strawberry's, in the ASGI call."""
        scope = self.context["request"].scope
        park = parking(scope)
        if park is None:
            await super().handle()
            return
        frames = ParkedFrames(self.view)
        frames.wire = park(frames)
        self.websocket = frames
        # the guard gives the address's socket back when this ends (edge/guard.py)
        scope[PARKED] = asyncio.get_running_loop().create_task(self._parked(frames))

    async def _parked(self, frames: ParkedFrames) -> None:
        try:
            await super().handle()
        finally:
            frames.wire.close(1000, "")  # a no-op once the socket is closing

    async def handle_message(self, message: Message) -> None:
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await self.handle_invalid_message("a message is a JSON object with a type")
            return
        if message["type"] == "subscribe" and not _well_formed(dict(message)):
            await self.handle_invalid_message("a subscribe message needs an id and a payload")
            return
        if message["type"] == "complete" and not isinstance(message.get("id"), str):
            await self.handle_invalid_message("a complete message needs an id")
            return
        if message["type"] == "connection_init":
            self.context["drop_slow_consumer"] = self.drop_slow_consumer
        await super().handle_message(message)
        if self.connection_init_received:  # its timeout is cancelled: a socket keeps no task
            self.connection_init_timeout_task = None

    async def handle_subscribe(self, message: Any) -> None:
        if not self.connection_acknowledged or message["id"] in self.operations:
            await super().handle_subscribe(message)  # the protocol's own close codes
            return
        refused = self.refusal(len(self.operations))
        if refused is None and (refused := self.unrunnable(message["payload"])) is not None:
            self.hold(None)
        if refused is not None:
            error = _error(*refused)
            await self.send_message({"id": message["id"], "type": "error", "payload": [error]})
            return
        await super().handle_subscribe(message)
        operation = self.operations.get(message["id"])
        self.hold(getattr(operation, "task", None), operation)

    async def run_operation(self, operation: Operation[dict[str, Any], None]) -> None:
        """A gameEvents subscription with its frames rendered once per audience (live.py);
        any other operation as strawberry runs it."""
        live = self.view.live
        plan = live and live.plan(operation.query, operation.operation_name)
        if not plan:
            await super().run_operation(operation)
            return
        prefix = f'{{"id":{msgspec.json.encode(operation.id).decode()},"type":"next","payload":'

        async def send(payload: str) -> None:
            if not operation.completed:
                await self.websocket.send_text(prefix + payload + "}")

        wire = getattr(self.websocket, "wire", None)  # a parked socket's (ParkedFrames)
        try:
            streamed = await live.stream(
                plan, self.context, operation.variables, send, wire, prefix
            )
            if not streamed:
                await super().run_operation(operation)
                return
            if isinstance(streamed, Member):
                self._parked_operation(operation, streamed, prefix)
                return  # this task ends; the member is the operation's now
            await operation.send_operation_message({"id": operation.id, "type": "complete"})
        except Exception as error:
            await self.handle_task_exception(error)
            self.operations.pop(operation.id, None)

    def _parked_operation(
        self, operation: Operation[dict[str, Any], None], member: Member, prefix: str
    ) -> None:
        """The operation's member stands for its task (crowds.py): strawberry's
        `cleanup_operation` (the client's `complete`, the socket's end) cancels it. When its
        crowd ends it, the last `next` (an error) if any and `complete` are written here."""
        operation.task = member  # type: ignore[assignment]
        operation.query, operation.variables = "", None  # run already: kept by the plan

        def finish(last: str | None) -> None:
            if operation.completed:
                return
            operation.completed = True
            self.operations.pop(operation.id, None)
            if last is not None:
                member.wire.text(prefix + last + "}")
            member.wire.text(msgspec.json.encode({"id": operation.id, "type": "complete"}).decode())

        member.finish = finish
        if member.ended is not None:  # its crowd ended it while it was being parked
            finish(*member.ended)

    async def handle_task_exception(self, error: Exception) -> None:
        if isinstance(error, DISCONNECTS):  # the client left; uvicorn logs the close
            log.debug("socket closed during an operation: %s", type(error).__name__)
            return
        await super().handle_task_exception(error)


class LegacyHandler(Hardening, BaseGraphQLWSHandler[dict[str, Any], None]):
    """The legacy graphql-ws (Apollo) protocol, which older clients still speak: the same
    admission and limits; a frame that is not a protocol message closes with 4400."""

    async def handle_message(self, message: Any) -> None:
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await self.websocket.close(4400, "a message is a JSON object with a type")
            return
        if message["type"] == "start" and not _well_formed(message):
            await self.websocket.close(4400, "a start message needs an id and a payload")
            return
        if message["type"] == "stop" and not isinstance(message.get("id"), str):
            await self.websocket.close(4400, "a stop message needs an id")
            return
        if message["type"] == "connection_init":
            self.context["drop_slow_consumer"] = self.drop_slow_consumer
        await super().handle_message(cast(Any, message))

    async def handle_start(self, message: Any) -> None:
        if not self.connection_acknowledged or message["id"] in self.tasks:
            await super().handle_start(message)
            return
        refused = self.refusal(len(self.tasks))
        if refused is None:
            refused = self.unrunnable(message["payload"]) or self._not_subscription(
                message["payload"]["query"]
            )
            if refused is not None:
                self.hold(None)
        if refused is not None:
            await self.send_message(
                {"type": "error", "id": message["id"], "payload": _error(*refused)}
            )
            return
        await super().handle_start(message)
        self.hold(self.tasks.get(message["id"]))

    async def handle_async_results(
        self,
        operation_id: str,
        query: str,
        operation_name: str | None,
        variables: dict[str, object] | None,
    ) -> None:
        """A gameEvents subscription with its frames rendered once per audience (live.py), as
        on graphql-transport-ws; any other as strawberry runs it."""
        live = self.view.live
        plan = live and live.plan(query, operation_name)
        if not plan:
            await super().handle_async_results(operation_id, query, operation_name, variables)
            return
        prefix = f'{{"type":"data","id":{msgspec.json.encode(operation_id).decode()},"payload":'

        async def send(payload: str) -> None:
            await self.websocket.send_text(prefix + payload + "}")

        try:
            if not await live.stream(plan, self.context, variables, send):
                await super().handle_async_results(operation_id, query, operation_name, variables)
                return
            await self.send_message({"type": "complete", "id": operation_id})
        except asyncio.CancelledError:  # stopped by the client, as strawberry answers it
            await self.send_message({"type": "complete", "id": operation_id})
        finally:
            self.tasks.pop(operation_id, None)

    def _not_subscription(self, query: str) -> tuple[str, str, dict[str, Any]] | None:
        """A refusal of a document that is not only subscriptions (strawberry refuses
        anything else on this protocol with a logged traceback); `unrunnable` has parsed it."""
        found = self.view.documents.parsed.get(query)
        if not isinstance(found, tuple) or all(
            definition.operation is OperationType.SUBSCRIPTION
            for definition in found[0].definitions
            if isinstance(definition, OperationDefinitionNode)
        ):
            return None
        return "BAD_REQUEST", "the graphql-ws protocol carries subscriptions only", {}


def _well_formed(message: dict[str, Any]) -> bool:
    operation_id, payload = message.get("id"), message.get("payload")
    return (
        isinstance(operation_id, str)
        and 0 < len(operation_id) <= MAX_OPERATION_ID
        and isinstance(payload, dict)
        and isinstance(payload.get("query"), str)
        and isinstance(payload.get("variables", {}), dict | None)
        and isinstance(payload.get("operationName", ""), str | None)
        and isinstance(payload.get("extensions", {}), dict | None)
    )


def socket_token(context: dict[str, Any]) -> str | None:
    """The socket's identity: the connection_init payload's `authorization`, else the
    upgrade request's header (already in the context)."""
    params = context.get("connection_params")
    header = params.get("authorization", params.get("Authorization")) if params else None
    if header is None:
        token: str | None = context.get("token")
        return token
    return credential(header) if isinstance(header, str) else ""


def _quiet(task: asyncio.Task[Any]) -> None:
    """Retrieve a finished task's exception: a socket already gone is nothing to report."""
    if not task.cancelled() and isinstance(task.exception(), DISCONNECTS):
        log.debug("socket closed during an operation")
