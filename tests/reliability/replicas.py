"""A master and its replica as real servers, for the RULES_REPLICA_ACK tests: the replica
frozen with SIGSTOP, or its replication link cut (`Link`)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from dataclasses import dataclass

from service.store.embedded import EmbeddedRedis, ask
from tests.support.waiting import until


@dataclass
class Pair:
    master: EmbeddedRedis
    replica: EmbeddedRedis

    def freeze(self) -> None:
        assert self.replica.process is not None
        os.kill(self.replica.process.pid, signal.SIGSTOP)

    def thaw(self) -> None:
        assert self.replica.process is not None
        os.kill(self.replica.process.pid, signal.SIGCONT)


def replication(port: int) -> dict[str, str]:
    text = ask(port, "INFO", "replication").decode()
    return dict(line.split(":", 1) for line in text.split() if ":" in line)


def replica_of(port: int) -> EmbeddedRedis:
    """A replica of the server on `port` (a master, or a link to one)."""
    return EmbeddedRedis(extra=("--replicaof", "127.0.0.1", str(port))).start()


async def linked(master: EmbeddedRedis, replica: EmbeddedRedis) -> None:
    """Once `replica` has copied `master` and the master counts it."""

    def up() -> bool:
        return (
            replication(replica.port).get("master_link_status") == "up"
            and replication(master.port).get("connected_slaves") == "1"
        )

    await until(up, "the replica to connect")


class Link:
    """A TCP link from a replica to its master that can be cut: while `cut`, what the master
    sends is dropped, as a network partition drops it (a SIGSTOPped replica still receives:
    its kernel keeps the bytes, and it catches up when it resumes)."""

    def __init__(self, upstream: int) -> None:
        self.upstream = upstream
        self.cut = False
        self.port = 0
        self.server: asyncio.Server | None = None
        self.tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> Link:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    async def _serve(
        self, replica_in: asyncio.StreamReader, replica_out: asyncio.StreamWriter
    ) -> None:
        master_in, master_out = await asyncio.open_connection("127.0.0.1", self.upstream)
        for task in (
            asyncio.create_task(self._pump(replica_in, master_out, False)),
            asyncio.create_task(self._pump(master_in, replica_out, True)),
        ):
            self.tasks.add(task)

    async def _pump(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, from_master: bool
    ) -> None:
        with contextlib.suppress(OSError):
            while chunk := await reader.read(65536):
                if not (from_master and self.cut):
                    writer.write(chunk)
                    await writer.drain()
        writer.close()

    async def aclose(self) -> None:
        if self.server is not None:
            self.server.close()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


class Endpoint:
    """A TCP proxy that stands for "the master" (a primary endpoint that follows a failover):
    `move(port)` sends every connection's next commands to the server on `port`, the clients'
    connections staying open, as a store that fails over under a request in flight sees it."""

    def __init__(self, upstream: int) -> None:
        self.upstream = upstream
        self.port = 0
        self.server: asyncio.Server | None = None
        self.connections: list[_Spliced] = []

    async def start(self) -> Endpoint:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    async def _serve(
        self, client_in: asyncio.StreamReader, client_out: asyncio.StreamWriter
    ) -> None:
        spliced = _Spliced(client_in, client_out)
        self.connections.append(spliced)
        await spliced.attach(self.upstream)

    async def move(self, port: int) -> None:
        """From now on every connection speaks to the server on `port` (call it between
        commands: a reply on its way from the old server is dropped)."""
        self.upstream = port
        for spliced in self.connections:
            await spliced.attach(port)

    async def aclose(self) -> None:
        if self.server is not None:
            self.server.close()
        for spliced in self.connections:
            await spliced.detach()
            spliced.client_out.close()


class _Spliced:
    """One client connection of an `Endpoint` and its current server connection."""

    def __init__(self, client_in: asyncio.StreamReader, client_out: asyncio.StreamWriter) -> None:
        self.client_in = client_in
        self.client_out = client_out
        self.server_out: asyncio.StreamWriter | None = None
        self.pumps: list[asyncio.Task[None]] = []

    async def attach(self, port: int) -> None:
        await self.detach()
        server_in, self.server_out = await asyncio.open_connection("127.0.0.1", port)
        self.pumps = [
            asyncio.create_task(_pump(self.client_in, self.server_out)),
            asyncio.create_task(_pump(server_in, self.client_out)),
        ]

    async def detach(self) -> None:
        for task in self.pumps:
            task.cancel()
        await asyncio.gather(*self.pumps, return_exceptions=True)
        if self.server_out is not None:
            self.server_out.close()


async def _pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(OSError):
        while chunk := await reader.read(65536):
            writer.write(chunk)
            await writer.drain()
