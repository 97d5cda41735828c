"""Chaos under load (docs/reliability.md "Chaos under load"): the topology of
loadtests/topology.py, mixed traffic through its load balancer (loadtests/chaos_traffic.py),
and, in turn, with quiet time between them:

1. SIGKILL an API replica, start it again;
2. SIGKILL a worker, start it again;
3. SIGKILL a Redis master: its replica is promoted; the node starts again and rejoins as a replica;
4. the same while the replica lags (SIGSTOPped for a second, its link closed): what the
   master acknowledged meanwhile is lost unless RULES_REPLICA_ACK held the answers back;
5. SIGSTOP a master until its replica is promoted (longer than the node timeout), then SIGCONT;
6. a rolling restart of every API replica and worker, one at a time (SIGTERM: drain, exit,
   start, ready).

Then the traffic stops, the clocks and webhooks get time to finish, and the independent audit
(loadtests/chaos_audit.py) runs.

    python -m loadtests.chaos [--seconds 300] [--replica-ack] [--json PATH]   # make chaos

`--seconds` bounds the run (the faults and the quiet time between them; the start and the
audit come on top); it exits 1 if the audit fails.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from redis.asyncio.cluster import ClusterNode, RedisCluster

from loadtests.chaos_audit import Report, Window, audit, load
from loadtests.chaos_traffic import Receiver, Traffic
from loadtests.topology import Topology
from service.store.embedded import ask

CLIENTS = 4  # players of human games
FOLLOWERS = 3  # humans against bots, on gameEvents
SOLO = 4  # the outside audit's client: one game each, retries with the same key (chaos_traffic)
SETTLE_SECONDS = 90.0  # after the traffic: for the last clocks and webhooks (a bound, not a wait)


class Chaos:
    def __init__(self, topology: Topology, traffic: Traffic, quiet: float, roll_all: bool) -> None:
        self.roll_all = roll_all
        self.topology = topology
        self.traffic = traffic
        self.quiet = quiet
        self.windows: list[Window] = []

    async def fault(self, name: str, action: Callable[[], Awaitable[None]]) -> None:
        window = Window(name, time.monotonic())
        self.windows.append(window)
        print(f"chaos: {name}", flush=True)
        await action()
        window.ended = time.monotonic()
        print(f"chaos: {name}: back after {window.ended - window.started:.1f} s", flush=True)
        await asyncio.sleep(self.quiet)

    async def run(self) -> None:
        await asyncio.sleep(self.quiet)
        await self.fault("kill an API replica", self.kill_api)
        await self.fault("kill a worker", self.kill_worker)
        await self.fault("kill a Redis master", self.kill_master)
        await self.fault("kill a Redis master while its replica lags", self.kill_ahead_of_replica)
        await self.fault("pause a Redis master", self.pause_master)
        await self.fault("rolling restart", self.rolling_restart)

    async def kill_api(self) -> None:
        api = self.topology.role("api")[0]
        await self.topology.kill(api)
        await asyncio.sleep(1)
        await self.topology.restart(api)

    async def kill_worker(self) -> None:
        worker = self.topology.role("worker")[0]
        await self.topology.kill(worker)
        await asyncio.sleep(1)
        await self.topology.restart(worker)

    async def kill_master(self) -> None:
        master = self.topology.masters()[0]
        master.kill()
        await self._until(lambda: self.topology.promoted(master), "a replica promoted")
        await asyncio.to_thread(master.start)
        await self._until(self.topology.cluster_ok, "the killed master back as a replica")

    async def kill_ahead_of_replica(self) -> None:
        """The replica falls behind, as a network partition would leave it: SIGSTOPped (for
        a second, under the node timeout), with the master's link to it closed (a stopped
        replica's kernel would otherwise keep every byte for it). The master goes on
        acknowledging, then dies: what it wrote meanwhile is not on the replica that takes
        over. With RULES_REPLICA_ACK those writes were never acknowledged (WAIT found no
        replica): nothing a client was told is lost."""
        master = self.topology.masters()[1]
        replica = await asyncio.to_thread(self.topology.replica_of, master)
        assert replica.process is not None
        os.kill(replica.process.pid, signal.SIGSTOP)
        try:
            await asyncio.to_thread(ask, master.port, "CLIENT", "KILL", "TYPE", "replica")
            await asyncio.sleep(1)
            master.kill()
        finally:
            os.kill(replica.process.pid, signal.SIGCONT)
        await self._until(lambda: self.topology.promoted(master), "the lagging replica promoted")
        await asyncio.to_thread(master.start)
        await self._until(self.topology.cluster_ok, "the killed master back as a replica")

    async def pause_master(self) -> None:
        master = self.topology.masters()[-1]
        assert master.process is not None
        os.kill(master.process.pid, signal.SIGSTOP)
        try:
            await self._until(lambda: self.topology.promoted(master), "a replica promoted")
        finally:
            os.kill(master.process.pid, signal.SIGCONT)
        await self._until(self.topology.cluster_ok, "the paused master back as a replica")

    async def rolling_restart(self) -> None:
        procs = self.topology.procs
        if not self.roll_all:  # the short run: one of each role
            procs = [self.topology.role("api")[-1], self.topology.role("worker")[-1]]
        for proc in procs:
            began = time.monotonic()
            code = await self.topology.drain(proc)
            stopped = time.monotonic()
            await self.topology.restart(proc)
            print(
                f"chaos:   {proc.role} {proc.index}: exit {code} after "
                f"{stopped - began:.1f} s, ready {time.monotonic() - stopped:.1f} s later",
                flush=True,
            )

    async def _until(self, condition: Callable[[], bool], what: str, seconds: float = 120) -> None:
        deadline = time.monotonic() + seconds
        while not await asyncio.to_thread(_safely, condition):
            if time.monotonic() > deadline:
                raise RuntimeError(f"timed out waiting for {what}")
            await asyncio.sleep(0.2)


def _safely(condition: Callable[[], bool]) -> bool:
    try:
        return condition()
    except (OSError, RuntimeError):
        return False


async def settle(traffic: Traffic, topology: Topology, seconds: float) -> None:
    """Wait (bounded) until every clock game has ended and every webhook of a finished or
    timed-out game has arrived, as far as the traffic knows: the audit decides."""
    deadline = time.monotonic() + seconds
    async with _redis(topology) as redis:
        while time.monotonic() < deadline:
            pending = 0
            for game in traffic.clocked:
                loaded = await load(redis, game.id)
                if loaded is not None and not loaded.record.finished:
                    pending += 1
            expected = set()
            every = [*traffic.human, *traffic.solo, *(f.game for f in traffic.followed)]
            for game in [*every, *traffic.clocked]:
                loaded = await load(redis, game.id)
                if loaded is not None and loaded.record.status() == "FINISHED":
                    expected.add(f"msg_{game.id}.{loaded.record.version}.game.finished")
            # by id, not by count: a game's ending lost in a failover may have been delivered
            # before it was lost (docs/reliability.md), and the game ends again at another version
            received = traffic.receiver.ids if traffic.receiver else set()
            if not pending and expected <= received:
                return
            await asyncio.sleep(1)


class _redis:
    def __init__(self, topology: Topology) -> None:
        nodes = [ClusterNode("127.0.0.1", n.port) for n in topology.redis]
        self.client = RedisCluster(startup_nodes=nodes)

    async def __aenter__(self) -> RedisCluster:
        await self.client.initialize()
        return self.client

    async def __aexit__(self, *exc: object) -> None:
        await self.client.aclose()


async def chaos(
    seconds: float, replica_ack: bool, node_timeout_ms: int = 2000, roll_all: bool = True
) -> Report:
    """The whole run: topology, traffic and faults, settle, audit. Everything started is
    stopped before it returns."""
    quiet = max(2.0, (seconds - 70) / 7)  # seven quiet spells; the faults take ~70 s themselves
    topology = Topology(node_timeout_ms=node_timeout_ms)
    receiver = Receiver(topology.workdir)
    topology.env = {
        "RULES_REPLICA_ACK": "1" if replica_ack else "0",
        "RULES_RATE_LIMIT_PER_ADDRESS": "0",  # every client is this one process
        "RULES_RATE_LIMIT_PER_TOKEN": "0",
        "RULES_WEBHOOK_ALLOW_PRIVATE": "1",  # the receiver is on loopback
        "RULES_WEBHOOK_CA_FILE": receiver.cert,
        "RULES_WEBHOOK_RETRY_SECONDS": "1,1,2,2,5,5,10,10",
        "RULES_WEBHOOK_TIMEOUT_SECONDS": "5",
        "RULES_WORKER_RECLAIM_SECONDS": "5",  # a killed worker's jobs are taken over soon
        "RULES_WORKER_POLL_SECONDS": "0.5",
        "RULES_BOT_ITERATIONS": "20",
        # a busy machine makes Redis slow, not down: generous bounds, so that a typed
        # UNAVAILABLE outside a fault window is a finding, not the machine's load
        "REDIS_TIMEOUT": "5",
        "RULES_REPLICA_ACK_TIMEOUT_MS": "3000",
    }
    try:
        await topology.start()
        print("TOPOLOGY " + json.dumps(topology.describe()), flush=True)
        traffic = Traffic(topology.url)
        traffic.receiver = receiver
        await traffic.register_webhook(receiver.url)
        running = asyncio.create_task(traffic.run(CLIENTS, FOLLOWERS, SOLO))
        scenario = Chaos(topology, traffic, quiet, roll_all)
        try:
            await scenario.run()
        finally:
            traffic.stop.set()
            traffic.players.stopped = True
            await running
        await settle(traffic, topology, SETTLE_SECONDS)
        async with _redis(topology) as redis:
            report = await audit(redis, traffic, scenario.windows, replica_ack)
        report.tracebacks = tracebacks(topology)
        await traffic.players.aclose()
        return report
    finally:
        receiver.close()
        topology.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--seconds", type=float, default=float(os.environ.get("CHAOS_SECONDS", 300))
    )
    parser.add_argument("--replica-ack", action="store_true", help="RULES_REPLICA_ACK=1")
    parser.add_argument("--node-timeout-ms", type=int, default=2000)
    parser.add_argument("--json", type=Path, help="write the audit here")
    args = parser.parse_args()
    report = asyncio.run(chaos(args.seconds, args.replica_ack, args.node_timeout_ms))
    print_report(report)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({**report.figures, "lost": report.lost,
                                         "problem_list": report.problems, "just_after_faults": report.late}, indent=2) + "\n")  # fmt: skip
    sys.exit(0 if report.passed else 1)


def tracebacks(topology: Topology) -> list[str]:
    """Each traceback the API replicas and workers logged (restarts append to the same log),
    with the line before it: what an untyped error in the audit was."""
    found = []
    for proc in topology.procs:
        lines = topology.output(proc).splitlines()
        for at, line in enumerate(lines):
            if line.startswith("Traceback"):
                end = at + 1
                while end < len(lines) and lines[end].startswith((" ", "\t")):
                    end += 1
                block = lines[max(at - 1, 0) : end + 1]
                found.append(f"{proc.role} {proc.index}:\n" + "\n".join(block))
    return found


def print_report(report: Report) -> None:
    print("AUDIT " + json.dumps(report.figures))
    for block in report.tracebacks[:5]:
        print("  logged:", block)
    for line in report.lost[:20]:
        print("  lost:", line)
    for line in report.late[:20]:
        print("  just after a fault:", line)
    for line in report.problems[:40]:
        print("  problem:", line)
    print("AUDIT", "PASSED" if report.passed else "FAILED")


if __name__ == "__main__":
    main()
