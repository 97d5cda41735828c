"""A TCP proxy on loopback that can cut every connection through it and refuse new ones for a
while: a network cut between a client and a service, or between a service and Redis."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field


@dataclass
class CuttingProxy:
    upstream_port: int
    port: int = 0
    open: asyncio.Event = field(default_factory=asyncio.Event)  # set while it lets connections in
    connections: int = 0  # accepted while open, in all
    _server: asyncio.Server | None = None
    _writers: set[asyncio.StreamWriter] = field(default_factory=set)
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)

    async def start(self) -> CuttingProxy:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        self.open.set()
        return self

    def cut(self) -> None:
        """Close every connection through the proxy and refuse new ones until `resume`."""
        self.open.clear()
        for writer in list(self._writers):
            writer.transport.abort()  # a reset, as a broken network looks to both ends

    def resume(self) -> None:
        self.open.set()

    async def aclose(self) -> None:
        self.cut()
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.open.is_set():
            writer.transport.abort()
            return
        try:
            server_in, server_out = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        except OSError:
            writer.transport.abort()
            return
        self.connections += 1
        self._writers |= {writer, server_out}
        pipes = [
            asyncio.create_task(_pipe(reader, server_out)),
            asyncio.create_task(_pipe(server_in, writer)),
        ]
        self._tasks.update(pipes)
        try:
            await asyncio.wait(pipes, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for pipe in pipes:
                pipe.cancel()
                self._tasks.discard(pipe)
            for end in (writer, server_out):
                end.transport.abort()
                self._writers.discard(end)


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(OSError, asyncio.IncompleteReadError):
        while chunk := await reader.read(65536):
            writer.write(chunk)
            await writer.drain()
