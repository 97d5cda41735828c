"""The graphql-transport-ws side of hostile clients: admission, limits, strict frames.

strawberry's handler speaks the protocol; this subclass adds what a public endpoint needs:
- every operation on a socket is admitted like an HTTP request (rate limits by the socket's
  token and the client's address: `guard.admit`), and runs as the `connection_init` token;
- limits on operations per socket and live operations per address, refused with an `error`
  message carrying `extensions.code`;
- frames that are not protocol messages close the socket with 4400, as the protocol says;
- a subscriber too slow for its events is closed with `SLOW_CONSUMER_CLOSE`;
- a client that goes away is a normal event: no traceback in the log.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from starlette.websockets import WebSocketDisconnect
from starlette.websockets import WebSocketDisconnected as SendAfterClose
from strawberry.http.exceptions import WebSocketDisconnected
from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import (
    BaseGraphQLTransportWSHandler,
)
from strawberry.subscriptions.protocols.graphql_transport_ws.types import Message

from service.api.guard import client_address
from service.api.rest import credential

SLOW_CONSUMER_CLOSE = 4413  # "fell too far behind its events"; resubscribe and catch up
TOO_MANY_CLOSE = 4429  # too many sockets from this address
MAX_OPERATION_ID = 128

log = logging.getLogger("service.sockets")
# A send racing the client's close raises starlette's SendAfterClose: the "Cannot call send
# once a close message has been sent" traceback of issue #15.
DISCONNECTS = (WebSocketDisconnect, WebSocketDisconnected, SendAfterClose, OSError)


class TransportHandler(BaseGraphQLTransportWSHandler[dict[str, Any], None]):
    """One socket. The view (GraphQLApp) provides `admission`, `per_socket` and
    `per_address`."""

    async def handle_message(self, message: Message) -> None:
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await self.handle_invalid_message("a message is a JSON object with a type")
            return
        if message["type"] == "subscribe" and not _well_formed(dict(message)):
            await self.handle_invalid_message("a subscribe message needs an id and a payload")
            return
        if message["type"] == "connection_init":
            self.context["drop_slow_consumer"] = self._drop_slow_consumer
        await super().handle_message(message)

    async def handle_subscribe(self, message: Any) -> None:
        if not self.connection_acknowledged or message["id"] in self.operations:
            await super().handle_subscribe(message)  # the protocol's own close codes
            return
        view: Any = self.view
        address = client_address(self.context["request"].scope)
        wait = view.admission.admit(self.context.get("token"), address)
        if wait is not None:
            refused = ("RATE_LIMITED", "too many requests; retry later", {"retryAfter": wait})
            await self._refuse(message["id"], *refused)
            return
        if view.per_socket and len(self.operations) >= view.per_socket:
            await self._refuse(
                message["id"], "TOO_MANY_SUBSCRIPTIONS", "too many operations on this socket"
            )
            return
        if not view.per_address.take(address):
            await self._refuse(
                message["id"], "TOO_MANY_SUBSCRIPTIONS", "too many subscriptions from this address"
            )
            return
        await super().handle_subscribe(message)
        task = getattr(self.operations.get(message["id"]), "task", None)
        if task is None:
            view.per_address.give(address)
        else:
            task.add_done_callback(lambda _: view.per_address.give(address))

    async def _refuse(
        self, operation_id: str, code: str, message: str, more: dict[str, Any] | None = None
    ) -> None:
        error: Any = {"message": message, "extensions": {"code": code, **(more or {})}}
        await self.send_message({"id": operation_id, "type": "error", "payload": [error]})

    def _drop_slow_consumer(self) -> None:
        reason = "SLOW_CONSUMER: fell too far behind; resubscribe and catch up with history"
        task = asyncio.get_running_loop().create_task(
            self.websocket.close(SLOW_CONSUMER_CLOSE, reason)
        )
        task.add_done_callback(_quiet)

    async def handle_task_exception(self, error: Exception) -> None:
        if isinstance(error, DISCONNECTS):  # the client left; uvicorn logs the close
            log.debug("socket closed during an operation: %s", type(error).__name__)
            return
        await super().handle_task_exception(error)


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


def _quiet(task: asyncio.Task[None]) -> None:
    if not task.cancelled():
        task.exception()  # a socket already gone cannot be closed; nothing to report
