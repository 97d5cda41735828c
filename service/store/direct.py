"""The hot path's Redis commands without redis-py's per-command machinery.

A move is two round trips (load, commit) and a read one. Through redis-py 8 each costs, in
the client alone, about what the rules of a move cost: the pool's condition and lock, its
connection check (a `recv` syscall per command), an `asyncio.wait_for` task per write, the
observability hooks on take and release, the retry wrapper, the pipeline's command stack and
a pure-Python packer. Here the same redis-py connections (so the same connect, AUTH, TLS,
hiredis parser and read timeouts) are taken from a plain free list, written once with
hiredis's packer and read reply by reply. Only a single server uses it: a cluster's commands
go through redis-py's cluster client, which routes them.

What stays the same for callers: every failure is a `RedisError` (ConnectionError,
TimeoutError, ResponseError such as NOSCRIPT), no command is retried, a connection that fails
or is interrupted mid-command (timeout, cancellation) is closed so its unread replies are never
read by the next request, and an idle connection the server closed is reconnected before use.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import hiredis
from redis._parsers.hiredis import NOT_ENOUGH_DATA
from redis.asyncio.connection import AbstractConnection, ConnectionPool
from redis.exceptions import ConnectionError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeout

Arg = bytes | str | int


def pack(commands: Sequence[Sequence[Arg]]) -> bytes:
    """RESP for `commands`; hiredis encodes strings as UTF-8 strictly, as redis-py does."""
    return b"".join(hiredis.pack_command(tuple(command)) for command in commands)  # type: ignore[arg-type]


class DirectConnections:
    """At most `size` connections of `pool`'s kind, each used by one request at a time."""

    def __init__(self, pool: ConnectionPool, size: int, timeout: float | None) -> None:
        self.pool = pool
        self.timeout = timeout
        self.slots = asyncio.Semaphore(size)
        self.idle: list[AbstractConnection] = []

    async def execute(self, commands: Sequence[Sequence[Arg]]) -> list[Any]:
        """The replies of `commands`, sent together (one round trip). An error reply raises
        its ResponseError once every reply was read."""
        packed = pack(commands)
        if self.slots.locked():
            try:
                async with asyncio.timeout(self.timeout):
                    await self.slots.acquire()
            except TimeoutError as exc:  # asyncio's, i.e. the builtin
                raise ConnectionError("No connection available.") from exc
        else:
            await self.slots.acquire()
        try:
            connection = self.idle.pop() if self.idle else self.pool.make_connection()  # type: ignore[no-untyped-call]
            try:
                replies = await self._round_trip(connection, packed, len(commands))
            finally:
                self.idle.append(connection)
        finally:
            self.slots.release()
        for reply in replies:
            if isinstance(reply, ResponseError):
                raise reply
        return replies

    async def _round_trip(
        self, connection: AbstractConnection, packed: bytes, count: int
    ) -> list[Any]:
        reader = connection._reader  # redis-py's stream (None when disconnected)
        if reader is not None and (reader.at_eof() or reader.exception() is not None):
            await connection.disconnect(nowait=True)  # the server closed it while idle
        if not connection.is_connected:
            try:
                await connection.connect()  # type: ignore[no-untyped-call]
            except BaseException:  # a cancel mid-handshake: never leave it half set up
                await connection.disconnect(nowait=True)
                raise
        writer = connection._writer
        assert writer is not None
        try:
            writer.write(packed)
            if writer.transport.get_write_buffer_size():  # the socket did not take it all
                async with asyncio.timeout(self.timeout):
                    await writer.drain()
        except BaseException as exc:
            error = await _closed_after(connection, exc, "writing to")
            if error is exc:
                raise
            raise error from exc
        try:  # an error reply (ResponseError) is a reply: read whole, the connection is fine
            async with asyncio.timeout(connection.socket_timeout):  # redis-py's read timeout
                return [await _reply(connection) for _ in range(count)]
        except BaseException as exc:  # a timeout, a cancel or a broken connection
            error = await _closed_after(connection, exc, "reading from")
            if error is exc:
                raise
            raise error from exc

    async def close(self) -> None:
        idle, self.idle = self.idle, []
        for connection in idle:
            await connection.disconnect(nowait=True)


async def _closed_after(
    connection: AbstractConnection, exc: BaseException, doing: str
) -> BaseException:
    """What to raise for a round trip cut short by `exc`, once `connection` is closed (its
    unread replies must never reach the next request): redis-py's error for a timeout or a
    broken socket, `exc` itself for anything else (a cancellation)."""
    await connection.disconnect(nowait=True)
    if isinstance(exc, TimeoutError):
        return RedisTimeout(f"Timeout {doing} socket")
    if isinstance(exc, OSError):
        return ConnectionError(f"Error while {doing} socket: {exc}")
    return exc


async def _reply(connection: AbstractConnection) -> Any:
    """The next reply, read straight from redis-py's hiredis parser (its `read_response`
    wraps each reply in a timeout and three coroutine calls)."""
    parser: Any = connection._parser
    reply = parser._reader.gets()
    while reply is NOT_ENOUGH_DATA:
        await parser.read_from_socket()  # ConnectionError when the server closed it
        reply = parser._reader.gets()
    if isinstance(reply, ConnectionError):
        raise reply
    return reply
