"""Real parts for the reliability tests: service processes on free loopback ports, and a
Redis proxy that loses the replies of committed moves on purpose."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from service.api.edge.parking import PROTOCOL
from service.store.embedded import free_port

# `python -m service` is what `make run` starts; the factory is what the container starts.
MODULE = ("-m", "service")
CONTAINER = (  # the Dockerfile's command, less what each run sets (host, port)
    "-m", "uvicorn", "--factory", "service.app:from_env", "--no-access-log", "--ws", PROTOCOL,
)  # fmt: skip


@dataclass
class Service:
    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def alive(self) -> bool:
        return self.process.poll() is None


@contextmanager
def services(
    redis_urls: list[str], command: tuple[str, ...] = MODULE, **env: str
) -> Iterator[list[Service]]:
    """One service process per Redis URL, started together, ready (or at least alive: /healthz
    when Redis is down) before the block runs; stopped with SIGTERM after it."""
    started: list[Service] = []
    logs = tempfile.mkdtemp(prefix="rules-reliability-")
    try:
        for index, redis_url in enumerate(redis_urls):
            port = free_port()
            log = Path(logs, f"service-{index}.log")
            extra = ["--host", "127.0.0.1", "--port", str(port)] if command == CONTAINER else []
            process = subprocess.Popen(
                [sys.executable, *command, *extra],
                env={
                    **os.environ,
                    "REDIS_URL": redis_url,
                    "HOST": "127.0.0.1",
                    "PORT": str(port),
                    "LOG_LEVEL": "warning",
                    # these runs measure correctness under load, not the rate limits
                    "RULES_RATE_LIMIT_PER_TOKEN": "0",
                    "RULES_RATE_LIMIT_PER_ADDRESS": "0",
                    **env,
                },
                stdout=log.open("wb"),
                stderr=subprocess.STDOUT,
            )
            started.append(Service(f"http://127.0.0.1:{port}", process, log))
        deadline = time.monotonic() + 120  # generous: a busy machine starts Python slowly
        for service in started:
            while not _answers(service.url):
                assert service.alive(), f"a service process exited:\n{service.output()}"
                assert time.monotonic() < deadline, "a service process did not start in time"
                time.sleep(0.05)
        yield started
    finally:
        for service in started:
            if service.alive():
                service.process.terminate()
        for service in started:
            try:
                service.process.wait(10)
            except subprocess.TimeoutExpired:
                service.process.kill()
                service.process.wait()


def _answers(url: str) -> bool:
    try:
        return httpx.get(f"{url}/healthz", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


# --- RESP framing, enough to tell which reply answers which command ---------------------------

_LINE = b"+-:_,#("
_BULK = b"$!="
_AGGREGATE = b"*~>"
_MAP = b"%|"


def frame_end(buffer: bytes | bytearray, start: int = 0) -> int | None:
    """The end of the one RESP value that begins at `start`, or None if it is incomplete."""
    line_end = buffer.find(b"\r\n", start)
    if line_end < 0:
        return None
    kind, head = buffer[start : start + 1], buffer[start + 1 : line_end]
    position = line_end + 2
    if kind[0] in _LINE:
        return position
    if kind[0] in _BULK:
        size = int(head)
        if size < 0:
            return position
        return position + size + 2 if len(buffer) >= position + size + 2 else None
    if kind[0] in _AGGREGATE or kind[0] in _MAP:
        count = int(head) * (2 if kind[0] in _MAP else 1)
        for _ in range(max(count, 0)):
            end = frame_end(buffer, position)
            if end is None:
                return None
            position = end
        return position
    raise ValueError(f"not RESP: {bytes(buffer[start : start + 20])!r}")


def command_name(frame: bytes) -> str:
    """The command of a client request frame (an array of bulk strings)."""
    first = frame.index(b"\r\n") + 2
    size_end = frame.index(b"\r\n", first)
    size = int(frame[first + 1 : size_end])
    return frame[size_end + 2 : size_end + 2 + size].decode().upper()


COMMITTED = b"*2\r\n$2\r\nok\r\n"  # the commit script's reply when it wrote the move


@dataclass
class FaultProxy:
    """A TCP proxy in front of a redis-server that can lose the reply to a commit that went
    through: the move is written, the service never hears so. `mode` "reset" closes the
    client's connection instead of the reply; "silence" swallows the reply and leaves the
    connection hanging until the client's timeout."""

    upstream_port: int
    every: int = 0  # lose the reply of every n-th committed move (0: none)
    limit: int = 0  # at most this many in all
    mode: str = "reset"
    commits: int = 0
    lost: int = 0
    port: int = 0
    _server: asyncio.Server | None = None
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def lose(self, every: int, limit: int, mode: str = "reset") -> None:
        self.every, self.limit, self.mode = every, limit, mode

    async def start(self) -> FaultProxy:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def aclose(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _serve(
        self, client_in: asyncio.StreamReader, client_out: asyncio.StreamWriter
    ) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            server_in, server_out = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        except OSError:
            client_out.close()
            self._tasks.discard(task)
            return
        pending: deque[str] = deque()
        requests = asyncio.create_task(self._requests(client_in, server_out, pending))
        try:
            await self._replies(server_in, client_out, pending)
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            requests.cancel()
            for writer in (client_out, server_out):
                writer.close()
            self._tasks.discard(task)

    async def _requests(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, pending: deque[str]
    ) -> None:
        buffer = bytearray()
        try:
            while chunk := await reader.read(65536):
                buffer += chunk
                while (end := frame_end(buffer)) is not None:
                    pending.append(command_name(bytes(buffer[:end])))
                    del buffer[:end]
                writer.write(chunk)
                await writer.drain()
        except OSError:
            pass
        writer.close()

    async def _replies(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, pending: deque[str]
    ) -> None:
        buffer = bytearray()
        while chunk := await reader.read(65536):
            buffer += chunk
            while (end := frame_end(buffer)) is not None:
                frame = bytes(buffer[:end])
                del buffer[:end]
                command = pending.popleft() if pending else ""
                if command in ("EVALSHA", "EVAL") and frame.startswith(COMMITTED):
                    self.commits += 1
                    if self.every and self.lost < self.limit and self.commits % self.every == 0:
                        self.lost += 1
                        if self.mode == "reset":
                            return
                        continue
                writer.write(frame)
            await writer.drain()
