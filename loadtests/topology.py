"""The production shape on one machine (docs/deploy.md "A production topology on one
machine"): HAProxy balancing over `/readyz`, 3 API replicas started as the image starts them
(the Dockerfile's ENTRYPOINT and CMD, RULES_ENV=production, API keys), 2 workers
(`python -m service.worker`, one process each) and a Redis Cluster of 3 masters and 3 replicas
with AOF on and a short `cluster-node-timeout`, so a dead master's replica takes over.

    python -m loadtests.topology [--node-timeout-ms 2000]     # make topology

prints one line `TOPOLOGY {json}` (the load balancer's URL, the PIDs by role, the Redis nodes)
and runs until SIGINT or SIGTERM, then stops everything it started. `Topology` is also what
the chaos scenario (loadtests/chaos.py) drives: kill, pause, restart, roll.

Every process it starts dies with it: the servers and HAProxy get SIGTERM from the kernel when
this process ends (PR_SET_PDEATHSIG), each redis-server has the embedded watchdog.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from service.store.embedded import SLOTS, EmbeddedRedis, ask, free_port, redis_server_binary

ROOT = Path(__file__).resolve().parents[1]
API_KEY = "chaos:chaos-secret"  # tenant `chaos` (RULES_API_KEYS), X-API-Key `chaos-secret`
MASTERS = 3
START_SECONDS = 120.0  # generous: a busy 2-core machine starts Python slowly


def _die_with_parent() -> None:
    """In the child, before exec: SIGTERM when the parent thread is gone (Linux prctl)."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def image_command(port: int) -> list[str]:
    """The container's command line (Dockerfile ENTRYPOINT + CMD), on loopback and `port`."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    entry = json.loads(re.search(r"^ENTRYPOINT (\[.*\])$", text, re.M).group(1))  # type: ignore[union-attr]
    cmd = json.loads(re.search(r"^CMD (\[.*\])$", text, re.M).group(1))  # type: ignore[union-attr]
    cmd[cmd.index("--host") + 1] = "127.0.0.1"
    cmd[cmd.index("--port") + 1] = str(port)
    return [sys.executable, "-m", *entry, *cmd]


@dataclass
class Proc:
    """One API replica or worker: its role, its port (the API's, or the worker's probe) and
    the process while it runs."""

    role: str
    index: int
    port: int
    log: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int:
        return self.process.pid if self.process else 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


class RedisNode(EmbeddedRedis):
    """A cluster node with AOF on (fsync every second, as a production Redis) and its bus port."""

    def __init__(self, node_timeout_ms: int) -> None:
        self.bus_port = free_port()
        options = ("--cluster-enabled", "yes", "--cluster-port", str(self.bus_port),
                   "--cluster-node-timeout", str(node_timeout_ms),
                   "--appendfsync", "everysec")  # fmt: skip
        super().__init__(extra=options, persistent=True)

    def info(self, section: str) -> dict[str, str]:
        text = ask(self.port, "INFO", section).decode()
        return dict(line.split(":", 1) for line in text.split() if ":" in line)

    def cluster_info(self) -> dict[str, str]:
        text = ask(self.port, "CLUSTER", "INFO").decode()
        return dict(line.split(":", 1) for line in text.split() if ":" in line)

    def node_id(self) -> str:
        return ask(self.port, "CLUSTER", "MYID").decode()

    def nodes(self) -> list[dict[str, str]]:
        """CLUSTER NODES as this node sees it: id, port, role (master/slave), flags."""
        found = []
        for line in ask(self.port, "CLUSTER", "NODES").decode().splitlines():
            parts = line.split()
            flags = parts[2].split(",")
            role = "master" if "master" in flags else "slave"
            port = parts[1].split("@")[0].rsplit(":", 1)[1]
            found.append({"id": parts[0], "port": port, "role": role, "flags": parts[2],
                          "master": parts[3], "link": parts[7]})  # fmt: skip
        return found

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None


@dataclass
class Topology:
    """The whole shape. `env` adds settings to every API replica and worker."""

    env: dict[str, str] = field(default_factory=dict)
    apis: int = 3
    workers: int = 2
    node_timeout_ms: int = 2000
    workdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="rules-topology-")))
    redis: list[RedisNode] = field(default_factory=list)
    procs: list[Proc] = field(default_factory=list)
    lb: subprocess.Popen[bytes] | None = None
    lb_port: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.lb_port}"

    @property
    def redis_url(self) -> str:
        return "redis+cluster://" + ",".join(f"127.0.0.1:{n.port}" for n in self.redis)

    def role(self, role: str) -> list[Proc]:
        return [p for p in self.procs if p.role == role]

    # --- start and stop ------------------------------------------------------------------

    async def start(self) -> Topology:
        haproxy = shutil.which("haproxy")
        if haproxy is None:
            raise RuntimeError("HAProxy is missing: apt-get install haproxy")
        try:
            await asyncio.to_thread(self._start_cluster)
            for index in range(self.apis):
                self.procs.append(self._proc("api", index))
            for index in range(self.workers):
                self.procs.append(self._proc("worker", index))
            for proc in self.procs:
                self.launch(proc)
            await asyncio.gather(*(self.wait_ready(proc) for proc in self.procs))
            self._start_lb(haproxy)
            await self.wait_lb()
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        """Everything this topology started, stopped (SIGTERM, then SIGKILL) and reaped."""
        for process in [self.lb, *(p.process for p in self.procs)]:
            if process is not None and process.poll() is None:
                process.terminate()
        for process in [self.lb, *(p.process for p in self.procs)]:
            if process is not None:
                try:
                    process.wait(30)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        for node in self.redis:
            if node.alive:
                os.kill(node.process.pid, signal.SIGCONT)  # type: ignore[union-attr]
            node.cleanup()
        shutil.rmtree(self.workdir, ignore_errors=True)

    def describe(self) -> dict[str, Any]:
        """What `TOPOLOGY {json}` prints."""
        roles: dict[str, list[int]] = {
            "api": [],
            "worker": [],
            "lb": [self.lb.pid] if self.lb else [],
        }
        for proc in self.procs:
            roles[proc.role].append(proc.pid)
        seen = {n["port"]: n["role"].replace("slave", "replica") for n in self.live_node().nodes()}
        nodes = [{"port": n.port, "pid": n.process.pid if n.process else 0,
                  "role": seen.get(str(n.port), "down")} for n in self.redis]  # fmt: skip
        return {"url": self.url, "pids": roles, "redis": nodes, "redis_url": self.redis_url,
                "apis": [p.url for p in self.role("api")]}  # fmt: skip

    # --- the Redis Cluster -------------------------------------------------------------------

    def _start_cluster(self) -> None:
        self.redis = [RedisNode(self.node_timeout_ms) for _ in range(2 * MASTERS)]
        for node in self.redis:
            node.start()
        masters, replicas = self.redis[:MASTERS], self.redis[MASTERS:]
        per_node = -(-SLOTS // MASTERS)
        for index, node in enumerate(masters):
            first = index * per_node
            ask(node.port, "CLUSTER", "ADDSLOTS", *range(first, min(first + per_node, SLOTS)))
        for node in self.redis[1:]:
            ask(
                node.port,
                "CLUSTER",
                "MEET",
                "127.0.0.1",
                self.redis[0].port,
                self.redis[0].bus_port,
            )
        self._wait(lambda: all(len(n.nodes()) == len(self.redis) for n in self.redis), "the MEETs")
        for master, replica in zip(masters, replicas, strict=True):
            ask(replica.port, "CLUSTER", "REPLICATE", master.node_id())
        self._wait(self.cluster_ok, "the cluster with its replicas")

    def cluster_ok(self) -> bool:
        """Every running node says the cluster is ok, with 3 masters that each have a replica
        whose link is up."""
        try:
            for node in self.redis:
                if not node.alive:
                    return False
                info = node.cluster_info()
                if info.get("cluster_state") != "ok" or info.get("cluster_slots_ok") != str(SLOTS):
                    return False
            view = self.redis[0].nodes()
            masters = [n for n in view if n["role"] == "master" and "fail" not in n["flags"]]
            if len(masters) != MASTERS or any("fail" in n["flags"] for n in view):
                return False
            replicated = {n["master"] for n in view if n["role"] == "slave"}
            if not all(m["id"] in replicated for m in masters):
                return False
            for node in self.redis:
                info = node.info("replication")
                if info.get("role") == "slave" and info.get("master_link_status") != "up":
                    return False
            return True
        except (OSError, RuntimeError):
            return False

    def live_node(self) -> RedisNode:
        return next(n for n in self.redis if n.alive)

    def masters(self) -> list[RedisNode]:
        """The running nodes that are masters now."""
        return [n for n in self.redis if n.alive and n.info("replication").get("role") == "master"]

    def promoted(self, dead: RedisNode) -> bool:
        """The cluster gave up on `dead` and serves its slots elsewhere: another node's CLUSTER
        NODES shows it failed (FAIL, agreed by the masters) or already demoted, and three
        masters not failed."""
        witness = next(n for n in self.redis if n.alive and n is not dead)
        view = witness.nodes()
        mine = next(n for n in view if n["port"] == str(dead.port))
        flags = set(mine["flags"].split(","))
        masters = [
            n for n in view
            if n["role"] == "master" and not {"fail", "fail?"} & set(n["flags"].split(","))
        ]  # fmt: skip
        return ("fail" in flags or mine["role"] == "slave") and len(masters) == MASTERS

    def replica_of(self, master: RedisNode) -> RedisNode:
        view = master.nodes()
        me = master.node_id()
        port = next(n["port"] for n in view if n["role"] == "slave" and n["master"] == me)
        return next(n for n in self.redis if str(n.port) == port)

    def _wait(self, condition: Any, what: str, seconds: float = START_SECONDS) -> None:
        deadline = time.monotonic() + seconds
        while not condition():
            if time.monotonic() > deadline:
                raise RuntimeError(f"timed out waiting for {what}")
            time.sleep(0.1)

    # --- API replicas and workers ------------------------------------------------------------

    def _proc(self, role: str, index: int) -> Proc:
        return Proc(role, index, free_port(), self.workdir / f"{role}-{index}.log")

    def _env(self, proc: Proc) -> dict[str, str]:
        env = {
            **os.environ,
            "REDIS_URL": self.redis_url,
            "RULES_ENV": "production",
            "RULES_API_KEYS": API_KEY,
            "LOG_LEVEL": "warning",
            "FORWARDED_ALLOW_IPS": "127.0.0.1",  # HAProxy's X-Forwarded-For
            # not ready but serving this long after SIGTERM: HAProxy's checks (3 failures a
            # second apart) take the replica out first, as Kubernetes' endpoints do
            "RULES_SHUTDOWN_DELAY_SECONDS": "4",
            **self.env,
        }
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # as the image: modules compiled once, kept
        if proc.role == "worker":
            env |= {"RULES_WORKER_PROCESSES": "1", "RULES_WORKER_METRICS_PORT": str(proc.port)}
        return env

    def launch(self, proc: Proc) -> None:
        """Start one API replica or worker (not yet ready: `wait_ready`). Call it from the
        thread that runs the event loop: the process dies with that thread."""
        command = (
            image_command(proc.port)
            if proc.role == "api"
            else [sys.executable, "-m", "service.worker"]
        )
        with proc.log.open("ab") as log:
            proc.process = subprocess.Popen(
                command, env=self._env(proc), stdout=log, stderr=subprocess.STDOUT,
                cwd=ROOT, preexec_fn=_die_with_parent,
            )  # fmt: skip

    async def wait_ready(self, proc: Proc, seconds: float = START_SECONDS) -> None:
        path = "/readyz" if proc.role == "api" else "/healthz"
        deadline = time.monotonic() + seconds
        async with httpx.AsyncClient(timeout=2) as http:
            while True:
                assert proc.process is not None
                if proc.process.poll() is not None:
                    raise RuntimeError(
                        f"{proc.role} {proc.index} exited:\n{self.output(proc)[-3000:]}"
                    )
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get(proc.url + path)).status_code == 200:
                        return
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{proc.role} {proc.index} not ready in {seconds} s")
                await asyncio.sleep(0.1)

    def output(self, proc: Proc) -> str:
        return proc.log.read_text(errors="replace") if proc.log.exists() else ""

    async def kill(self, proc: Proc) -> None:
        assert proc.process is not None
        proc.process.kill()
        await asyncio.to_thread(proc.process.wait)

    async def drain(self, proc: Proc, seconds: float = 60) -> int:
        """SIGTERM (the drain), and wait for the exit; its exit code."""
        assert proc.process is not None
        proc.process.terminate()
        try:
            return await asyncio.to_thread(proc.process.wait, seconds)
        except subprocess.TimeoutExpired:
            proc.process.kill()
            return await asyncio.to_thread(proc.process.wait)

    async def restart(self, proc: Proc) -> None:
        self.launch(proc)
        await self.wait_ready(proc)
        if proc.role == "api":
            await self.wait_lb_sees(proc)

    # --- the load balancer ---------------------------------------------------------------------

    def _start_lb(self, haproxy: str) -> None:
        self.lb_port = free_port()
        config = self.workdir / "haproxy.cfg"
        config.write_text(
            haproxy_config(self.lb_port, [p.port for p in self.role("api")], self.workdir)
        )
        subprocess.run([haproxy, "-c", "-q", "-f", str(config)], check=True)
        with (self.workdir / "haproxy.log").open("ab") as log:
            self.lb = subprocess.Popen(
                [haproxy, "-db", "-f", str(config)], stdout=log, stderr=subprocess.STDOUT,
                preexec_fn=_die_with_parent,
            )  # fmt: skip

    async def wait_lb(self, seconds: float = START_SECONDS) -> None:
        for proc in self.role("api"):
            await self.wait_lb_sees(proc, seconds)

    async def wait_lb_sees(self, proc: Proc, seconds: float = START_SECONDS) -> None:
        """HAProxy has this replica UP (its /readyz check passed): the stats CSV says so."""
        deadline = time.monotonic() + seconds
        async with httpx.AsyncClient(timeout=2) as http:
            while True:
                assert self.lb is not None and self.lb.poll() is None, "haproxy exited"
                with contextlib.suppress(httpx.HTTPError):
                    csv = (await http.get(f"{self.url}/haproxy-stats;csv")).text
                    if any(line.startswith(f"api,api{proc.index},") and ",UP," in line
                           for line in csv.splitlines()):  # fmt: skip
                        return
                if time.monotonic() > deadline:
                    raise RuntimeError(f"haproxy does not see api {proc.index} up")
                await asyncio.sleep(0.1)


# What the load balancer answers itself when no replica can (none ready, or every try failed):
# a typed UNAVAILABLE, readable both as problem details (REST) and as a GraphQL error.
UNAVAILABLE = {
    "type": "https://tree-games.dev/problems/unavailable",
    "title": "Store unavailable",
    "detail": "no replica could answer; retry (moves: with the same idempotency key)",
    "code": "UNAVAILABLE",
    "errors": [
        {"message": "no replica could answer; retry", "extensions": {"code": "UNAVAILABLE"}}
    ],
}


def error_page(directory: Path, status: int, reason: str) -> Path:
    body = json.dumps({**UNAVAILABLE, "status": status})
    page = directory / f"{status}.http"
    page.write_text(
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/problem+json\r\n"
        f"retry-after: 1\r\ncache-control: no-store\r\nconnection: close\r\n"
        f"content-length: {len(body)}\r\n\r\n{body}"
    )
    return page


def haproxy_config(port: int, api_ports: list[int], directory: Path) -> str:
    """Round robin over the replicas whose /readyz answers 200 (checked every second, with a
    generous check timeout: a busy replica is slow, not down). A request whose replica refused
    the connection or closed it unanswered (a killed replica) is sent again to another one:
    safe for moves (idempotency keys), at worst a second game for a create. WebSocket upgrades
    pass through (`timeout tunnel`). Its own 502, 503 and 504 are typed UNAVAILABLE."""
    servers = "\n".join(
        f"    server api{i} 127.0.0.1:{p} check inter 1s fall 3 rise 1"
        for i, p in enumerate(api_ports)
    )
    pages = "\n".join(
        f"    errorfile {status} {error_page(directory, status, reason)}"
        for status, reason in (
            (502, "Bad Gateway"),
            (503, "Service Unavailable"),
            (504, "Gateway Timeout"),
        )
    )
    return f"""global
    maxconn 4096

defaults
    mode http
    timeout connect 2s
    timeout client 120s
    timeout server 120s
    timeout tunnel 1h
    timeout http-keep-alive 10s
    timeout check 5s
    option http-buffer-request
    retries 3
    option redispatch 1
    retry-on conn-failure empty-response response-timeout
{pages}

frontend rules
    bind 127.0.0.1:{port}
    stats enable
    stats uri /haproxy-stats
    option forwardfor
    default_backend api

backend api
    balance roundrobin
    option httpchk GET /readyz
    http-check expect status 200
{servers}
"""


async def _serve(node_timeout_ms: int) -> None:
    topology = await Topology(node_timeout_ms=node_timeout_ms).start()
    try:
        print("TOPOLOGY " + json.dumps(topology.describe()), flush=True)
        stopped = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stopped.set)
        await stopped.wait()
    finally:
        topology.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--node-timeout-ms", type=int, default=2000)
    args = parser.parse_args()
    if shutil.which("haproxy") is None:
        sys.exit("HAProxy is missing: apt-get install haproxy")
    redis_server_binary()
    asyncio.run(_serve(args.node_timeout_ms))


if __name__ == "__main__":
    main()
