"""uvicorn's wsproto WebSocket protocol, able to park a socket: the ASGI call ends and the
socket stays open, read and written by whoever parked it.

Each open socket of the plain protocol holds the ASGI call that serves it: a task with the
whole middleware chain's frames, an `asyncio.Queue` of received messages, the events and
buffers that pace them: ~20 KiB of a process's memory for a socket that mostly waits. A
graphql-transport-ws socket does not need any of it once it is accepted: the ASGI app (the
edge's checks, strawberry's handshake) accepts it, then calls the scope's `PARK` extension
with what should read the socket's messages and hear of its end, and returns; this protocol
then hands each text or binary message to that reader as it arrives, the socket is written
through `Wire` (synchronously: a write is a call, not a task), and the ASGI call, its task and
its queue are gone. Anything that does not park (REST's streams, the legacy graphql-ws
protocol, an ASGI server other than uvicorn, the in-process test client) works as before.

`PROTOCOL` is what uvicorn's `--ws` names to serve with it (`service/__main__.py`, the
Dockerfile, tests/support/processes.py, loadtests/servers.py).
"""

from __future__ import annotations

import asyncio
import struct
from collections.abc import Callable
from typing import Any, Protocol

from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.wsproto_impl import FrameTooLargeError, WSProtocol
from wsproto import events
from wsproto.utilities import LocalProtocolError

PARK = "rules.park"  # the scope extension: park(reader) -> Wire
PARKED = "rules.parked"  # in the scope, the task serving a parked socket, once the app parked it
MAX_WAITING = 16  # messages handed over and not yet read: then reading pauses
PROTOCOL = "service.api.edge.parking:ParkingProtocol"  # uvicorn's --ws


class Reader(Protocol):
    """What a parked socket's messages go to."""

    def received(self, message: str | bytes) -> int:
        """A whole message; returns how many are waiting to be read (reading pauses over
        MAX_WAITING until `Wire.resume`)."""

    def gone(self) -> None:
        """The socket is closed (by either side, or the server stopping); called once."""


class Wire(Protocol):
    """How a parked socket is written."""

    def text(self, data: str) -> bool:
        """Send a text message; False if the socket is closing (nothing is sent)."""

    def parts(self, chunks: tuple[bytes, ...]) -> bool:
        """Send one text message made of `chunks` (UTF-8) without joining them; as `text`."""

    def close(self, code: int, reason: str) -> None: ...

    def paused(self) -> bool:
        """Whether the client stopped taking what is written (the transport's buffer is over
        its high-water mark)."""

    async def drained(self) -> None:
        """Return once the transport takes writes again (at once unless the client has
        stopped reading and the transport's buffer is over its high-water mark)."""

    def resume(self) -> None:
        """The reader caught up: read the socket again."""


class _NoQueue:
    """Where uvicorn's protocol puts ASGI events once nobody reads them any more."""

    __slots__ = ()

    def put_nowait(self, _: Any) -> None:
        return None


class _DoneHandshake:
    """A finished handshake's place in wsproto's connection: it has no more events."""

    __slots__ = ()

    def events(self) -> tuple[()]:
        return ()


class _Writable:
    """uvicorn's `writable` (an `asyncio.Event` per socket) in less memory: a future only
    while the transport's writes are paused."""

    __slots__ = ("paused",)

    def __init__(self) -> None:
        self.paused: asyncio.Future[None] | None = None

    def clear(self) -> None:
        if self.paused is None:
            self.paused = asyncio.get_running_loop().create_future()

    def set(self) -> None:
        paused, self.paused = self.paused, None
        if paused is not None and not paused.done():
            paused.set_result(None)

    async def wait(self) -> None:
        if self.paused is not None:
            await asyncio.wait([self.paused])  # a waiter cancelled leaves it for the others


NO_QUEUE = _NoQueue()
DONE_HANDSHAKE = _DoneHandshake()


class ParkingProtocol(WSProtocol):
    """uvicorn's wsproto protocol, plus `PARK` (see the module's docstring). A socket closed
    by either side, or by the server stopping, ends in `connection_lost`, which tells the
    reader."""

    reader: Reader | None = None
    extended = True  # whether the connection negotiated an extension (`parts` then frames)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.writable = _Writable()  # type: ignore[assignment]

    def handle_connect(self, event: events.Request) -> None:
        super().handle_connect(event)
        self.scope["extensions"][PARK] = self._park  # type: ignore[assignment]

    def _park(self, reader: Reader) -> Wire:
        """Called by the app once it accepted the socket, before it returns. What arrived
        since, queued for the ASGI app, goes to the reader first (none today: strawberry
        does not wait between its accept and its handler, so a client's first message comes
        after; this keeps it so if that changes)."""
        self.reader = reader
        queue = self.queue
        while not queue.empty():
            message = queue.get_nowait()
            if message["type"] == "websocket.receive":
                text = message.get("text")
                reader.received(text if text is not None else message.get("bytes") or b"")
        self.resume()
        if self.disconnected:  # connection_lost came first
            self.reader = None
            reader.gone()
        return self

    async def run_asgi(self) -> None:
        """uvicorn's, except that a parked socket stays open when the app returns."""
        try:
            result = await self.app(self.scope, self.receive, self.send)  # type: ignore[func-returns-value]
        except ClientDisconnected:
            pass
        except BaseException:
            self.logger.exception("Exception in ASGI application\n")
            self.send_500_response()
        else:
            if not self.handshake_complete:
                self.logger.error("ASGI callable returned without completing handshake.")
                self.send_500_response()
            elif result is not None:
                self.logger.error("ASGI callable should return None, but returned '%s'.", result)
        if self.reader is not None and not self.disconnected:
            # parked: nothing reads the queue any more, and the handshake is done with
            self.queue = NO_QUEUE  # type: ignore[assignment]
            self.conn.handshake = DONE_HANDSHAKE  # type: ignore[assignment]
            frames = getattr(self.conn.connection, "_proto", None)
            self.extended = getattr(frames, "extensions", True) != []
        elif self.close_timer is None:
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        reader, self.reader = self.reader, None
        if reader is not None:
            reader.gone()

    def handle_message(self, event: events.TextMessage | events.BytesMessage) -> None:
        reader = self.reader
        if reader is None:
            super().handle_message(event)
            return
        try:
            self.buffer.extend(event)  # joins a fragmented message, and bounds it
        except FrameTooLargeError:
            self.buffer.clear()
            self.close(1009, f"Message exceeds the maximum size ({self.config.ws_max_size} bytes)")
            self.transport.close()
            return
        if not event.message_finished:
            return
        message: str | bytes = self.buffer.value.getvalue()  # type: ignore[union-attr]
        self.buffer.clear()
        if reader.received(message) > MAX_WAITING and not self.read_paused:
            self.read_paused = True
            self.transport.pause_reading()

    # Wire

    def text(self, data: str) -> bool:
        if self.close_sent or self.transport.is_closing():
            return False
        try:
            self.transport.write(self.conn.send(events.Message(data=data)))
        except LocalProtocolError:
            return False
        return True

    def parts(self, chunks: tuple[bytes, ...]) -> bool:
        """Framed here and written as they are (one `writev`), unless the client negotiated
        an extension (permessage-deflate): wsproto's framing copies a payload three times,
        and a fan-out writes the same one to every socket of an audience."""
        if self.close_sent or self.transport.is_closing():
            return False
        if self.extended:
            return self.text(b"".join(chunks).decode())
        self.transport.writelines((_header(sum(map(len, chunks))), *chunks))
        return True

    def close(self, code: int, reason: str) -> None:
        if self.close_sent or self.transport.is_closing():
            return
        self.close_sent = True
        try:
            output = self.conn.send(events.CloseConnection(code=code, reason=reason))
        except LocalProtocolError:
            self.transport.close()
            return
        self.transport.write(output)
        self.resume()
        self.close_timer = self.loop.call_later(self.close_timeout, self.transport.close)

    def paused(self) -> bool:
        return self.writable.paused is not None  # type: ignore[attr-defined]

    async def drained(self) -> None:
        await self.writable.wait()

    def resume(self) -> None:
        if self.read_paused and not self.transport.is_closing():
            self.read_paused = False
            self.transport.resume_reading()


def _header(size: int) -> bytes:
    """A server's (unmasked) header of one whole text frame of `size` bytes (RFC 6455 5.2)."""
    if size < 126:
        return bytes((0x81, size))
    if size < 1 << 16:
        return struct.pack("!BBH", 0x81, 126, size)
    return struct.pack("!BBQ", 0x81, 127, size)


def parking(scope: dict[str, Any]) -> Callable[[Reader], Wire] | None:
    """The scope's `PARK`, if the server under the app can park this socket."""
    found = scope.get("extensions", {}).get(PARK)
    return found if callable(found) else None
