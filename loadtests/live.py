"""The live layer's benchmark: N WebSockets follow one game's `gameEvents` while K moves are made.

    python -m loadtests.live [--sockets 1000,5000,10000] [--moves 20] [--processes 2]
                             [--batch 100] [--pause 0.05] [--quick] [--deflate]
                             [--json PATH] [--plot PATH]

For each scenario (N sockets x {spectators, mixed} x {thin, fat}) it starts a fresh API process
on a private redis-server, as loadtests/servers.py does (uvicorn, uvloop, httptools, one
process; no bot worker), so that every scenario's RSS starts from the same empty process:

1. moves alone: a game of 2-seat Treelings (seed "live-bench") gets K moves with no socket
   open (warms the process; its CPU, less an idle baseline, is the moves' own cost);
2. a second such game; `--processes` client processes (multiprocessing, each an asyncio loop
   with the `websockets` client, fd limit raised to the hard limit, each bound to its own
   loopback source address 127.0.0.<i+2>) open N sockets in batches, speaking
   graphql-transport-ws: connection_init (`{"authorization": "Bearer <seat token>"}` or `{}`
   for a spectator), connection_ack, one `subscribe` of gameEvents, its first `next` (the
   version at subscribe time). No permessage-deflate is offered unless `--deflate`;
3. the server's RSS (VmRSS) before any socket and with the N sockets idle, each after a pause;
4. K moves over HTTP GraphQL (the seat to act reads its legalMoves, sends one with
   expectedVersion and an idempotency key), one every answer + 50 ms; the driver notes when
   each answer arrived (time.time()), each client process when each `next` frame was read,
   per socket. The move phase ends when every socket has seen the last version (or none has
   received anything for 30 s); then an idle baseline over as long, sockets open, no moves.

Per scenario it prints: server CPU per delivered event ((CPU over the move phase - the idle
baseline) / (N x versions); "net" also less the moves' own cost from step 1), server RSS per
socket, move answer -> last socket p50/p99 over the versions, move answer -> each socket p50
over all deliveries (a frame's time is when its client's loop read it: under load that
includes the client's own delay), and correctness: every socket must see every version
exactly once, in order, from the one current at subscribe time (lost, duplicated, out of
order; errors: `error` frames, sockets the server closed). Any violation makes the exit
status 1. A scenario whose N sockets cannot all be opened (refused, timed out) or whose moves
fail is reported FAILED with its reason and the run goes on. A move may be followed by forced
decisions (each a version): versions, not moves, are counted as events.

The API process gets, besides loadtests/servers.py's UNLIMITED (rate limits per token and per
address of 10^9 a minute), `RULES_MAX_SOCKETS_PER_ADDRESS` and
`RULES_MAX_SUBSCRIPTIONS_PER_ADDRESS` of 10^6 (defaults 256 and 1024 per address: every
client here is on loopback); the limits stay on, so their bookkeeping is measured too.
`RULES_SUBSCRIBER_QUEUE` (64) and uvicorn's own settings (its backlog of 2048, the WebSocket
implementation loadtests/servers.py chooses) stay as deployed. Results go to --json (default
loadtests/results/live.json, git-ignored), with what the table leaves out: RSS before and
after, the seconds to open the sockets, the client processes' CPU over the move phase (are
they keeping up?) and each version's last-socket latency in version order. `--quick` (N=200,
K=5) is the smoke test of tests/loadtests/test_live_bench.py.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import resource
import secrets
import signal
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from itertools import pairwise
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

import httpx
import msgspec
import uvloop
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.typing import Subprotocol

from loadtests.runner import percentile
from loadtests.servers import SERVICE_APP, asgi, cpu_seconds
from service.store.embedded import EmbeddedRedis

SETTINGS = {
    "RULES_MAX_SOCKETS_PER_ADDRESS": "1000000",
    "RULES_MAX_SUBSCRIPTIONS_PER_ADDRESS": "1000000",
}
SELECTIONS = {"thin": "version status", "fat": "version status game { version status toAct state }"}
AUDIENCES = ("spectators", "mixed")  # mixed: every 10th socket is a seat's, the seats in turn
EVENTS = "subscription Live($id: ID!) {{ gameEvents(gameId: $id) {{ {selection} }} }}"
CREATE = """mutation C($input: CreateGameInput!) { createGame(input: $input) {
  game { id version status toAct } seats { seat token } } }"""
READ = "query G($id: ID!) { game(id: $id) { version status toAct legalMoves { move } } }"
APPLY = """mutation A($input: ApplyMoveInput!) { applyMove(input: $input) { __typename
  ... on MoveApplied { game { version status toAct } }
  ... on MoveRejected { code message currentVersion } } }"""
PROTOCOL = Subprotocol("graphql-transport-ws")
OPEN_TIMEOUT = 60.0  # seconds for one socket's handshake, ack and first frame
IDLE_TIMEOUT = 30.0  # the move phase ends when no socket has received anything this long
SETTLE = 2.0  # seconds before reading RSS (the server's allocations and collections settle)


def raise_fd_limit() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


# ---- the client processes -------------------------------------------------------------


@dataclass
class Job:
    """One client process's share of the sockets (pickled to it)."""

    url: str
    query: str
    game_id: str
    tokens: list[str | None]  # one per socket; None: a spectator
    address: str  # the loopback source address its sockets bind
    batch: int
    deflate: bool


@dataclass
class Progress:
    total: int
    final: int | None = None
    settled: int = 0
    last_arrival: float = field(default_factory=time.monotonic)
    all_settled: asyncio.Event = field(default_factory=asyncio.Event)


class Follower:
    """One socket following the game: the versions it was sent, when each was read."""

    def __init__(self, token: str | None, progress: Progress) -> None:
        self.token = token
        self.progress = progress
        self.socket: ClientConnection | None = None
        self.arrivals: list[tuple[int, float]] = []
        self.problems: list[str] = []
        self.closed = self.leaving = self.settled = False
        self.reader: asyncio.Task[None] | None = None

    async def open(self, job: Job) -> str | None:
        """None once subscribed (its first frame read), else why not."""
        try:
            self.socket = socket = await connect(
                job.url,
                subprotocols=[PROTOCOL],
                compression="deflate" if job.deflate else None,
                ping_interval=None,  # the server pings; the client only answers
                open_timeout=OPEN_TIMEOUT,
                close_timeout=5,
                proxy=None,
                local_addr=(job.address, 0),
            )
            auth = {"authorization": f"Bearer {self.token}"} if self.token else {}
            await socket.send(_json({"type": "connection_init", "payload": auth}))
            ack = msgspec.json.decode(await asyncio.wait_for(socket.recv(), OPEN_TIMEOUT))
            if ack.get("type") != "connection_ack":
                return f"no connection_ack: {str(ack)[:200]}"
            payload = {"query": job.query, "variables": {"id": job.game_id}}
            await socket.send(_json({"id": "1", "type": "subscribe", "payload": payload}))
            first = await asyncio.wait_for(socket.recv(), OPEN_TIMEOUT)
            self.take(first, time.time())
        except (OSError, TimeoutError, WebSocketException) as exc:
            return f"{type(exc).__name__}: {str(exc)[:200]}"
        if not self.arrivals:
            return self.problems[0] if self.problems else "no first frame"
        self.reader = asyncio.create_task(self.read(socket))
        return None

    async def read(self, socket: ClientConnection) -> None:
        try:
            while True:
                raw = await socket.recv()
                self.take(raw, time.time())
        except ConnectionClosed as closed:
            if not self.leaving:
                self.problems.append(f"closed by the server: {closed.rcvd}")
        finally:
            self.closed = True
            self.settle()

    def take(self, raw: str | bytes, arrived: float) -> None:
        self.progress.last_arrival = time.monotonic()
        message = msgspec.json.decode(raw)
        kind = message.get("type")
        payload = message.get("payload") or {}
        if kind == "next" and not payload.get("errors"):
            self.arrivals.append((int(payload["data"]["gameEvents"]["version"]), arrived))
            self.settle()
        elif kind not in ("complete", "ping", "pong"):
            self.problems.append(f"{kind}: {str(payload)[:200]}")

    def settle(self) -> None:
        final = self.progress.final
        if self.settled or final is None:
            return
        if self.closed or (self.arrivals and self.arrivals[-1][0] >= final):
            self.settled = True
            self.progress.settled += 1
            if self.progress.settled >= self.progress.total:
                self.progress.all_settled.set()

    async def leave(self) -> None:
        self.leaving = True
        if self.socket is not None:
            with suppress(Exception):
                await self.socket.close()


def _json(value: Any) -> str:
    return msgspec.json.encode(value).decode()


def client_process(conn: Connection, job: Job) -> None:
    raise_fd_limit()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the driver stops it
    uvloop.run(_client(conn, job))


async def _client(conn: Connection, job: Job) -> None:
    """Open the sockets, then do as the driver says: ("final", version), ("report",),
    ("close",)."""
    progress = Progress(0)
    followers: list[Follower] = []
    failed, reason = 0, ""
    for start in range(0, len(job.tokens), job.batch):
        batch = [Follower(token, progress) for token in job.tokens[start : start + job.batch]]
        results = await asyncio.gather(*(follower.open(job) for follower in batch))
        followers += [f for f, why in zip(batch, results, strict=True) if why is None]
        refusals = [why for why in results if why is not None]
        await asyncio.gather(*(f.leave() for f, why in zip(batch, results, strict=True) if why))
        if refusals:  # the server holds no more: stop here
            failed, reason = len(refusals), refusals[0]
            break
    progress.total = len(followers)
    conn.send(("opened", len(followers), failed, reason))
    try:
        while True:
            command = await asyncio.to_thread(conn.recv)
            if command[0] == "final":
                progress.final = command[1]
                for follower in followers:
                    follower.settle()
                await _settled(progress, command[2])
                conn.send(("done",))
            elif command[0] == "report":
                conn.send([(f.arrivals, f.problems) for f in followers])
            else:
                break
    except EOFError:
        pass
    finally:
        await asyncio.gather(*(follower.leave() for follower in followers))


async def _settled(progress: Progress, bound: float) -> None:
    """Until every socket has the final version or is closed, or nothing arrived for
    IDLE_TIMEOUT, or `bound` seconds passed."""
    started = time.monotonic()
    while not progress.all_settled.is_set() and progress.total:
        now = time.monotonic()
        if now - progress.last_arrival > IDLE_TIMEOUT or now - started > bound:
            return
        with suppress(TimeoutError):
            await asyncio.wait_for(progress.all_settled.wait(), 1.0)


class Clients:
    """The client processes, from the driver's side."""

    def __init__(self, jobs: list[Job]) -> None:
        context = multiprocessing.get_context("spawn")
        self.pipes: list[Connection] = []
        self.processes: list[BaseProcess] = []
        for job in jobs:
            mine, theirs = context.Pipe()
            process = context.Process(target=client_process, args=(theirs, job), daemon=True)
            process.start()
            theirs.close()
            self.pipes.append(mine)
            self.processes.append(process)

    def answers(self, timeout: float) -> list[Any]:
        deadline = time.monotonic() + timeout
        found = []
        for pipe in self.pipes:
            if not pipe.poll(max(0.0, deadline - time.monotonic())):
                raise TimeoutError(f"a client process gave no answer in {timeout:.0f}s")
            found.append(pipe.recv())
        return found

    def cpu(self) -> float:
        """The client processes' CPU seconds so far (are they keeping up?)."""
        return sum(cpu_seconds(process.pid) for process in self.processes if process.pid)

    def tell(self, *command: Any) -> None:
        for pipe in self.pipes:
            pipe.send(command)

    def stop(self) -> None:
        for pipe in self.pipes:
            with suppress(OSError):
                pipe.send(("close",))
        for process in self.processes:
            process.join(30)
            if process.is_alive():
                process.kill()
                process.join()
        for pipe in self.pipes:
            pipe.close()


@contextmanager
def clients(jobs: list[Job]) -> Iterator[Clients]:
    started = Clients(jobs)
    try:
        yield started
    finally:
        started.stop()


# ---- the driver ------------------------------------------------------------------------


@dataclass
class Game:
    id: str
    version: int
    to_act: list[int]
    tokens: list[str]


@dataclass
class Move:
    before: int
    after: int  # the version its answer gave (forced decisions after it included)
    answered: float  # time.time() when its answer had arrived


def gql(http: httpx.Client, query: str, variables: Any, token: str | None = None) -> Any:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    answer = http.post("/graphql", json={"query": query, "variables": variables}, headers=headers)
    body = answer.json()
    if answer.status_code != 200 or body.get("errors"):
        raise RuntimeError(f"{answer.status_code}: {answer.text[:300]}")
    return body["data"]


def create(http: httpx.Client) -> Game:
    variables = {"input": {"kind": "TREELINGS", "players": 2, "seed": "live-bench"}}
    created = gql(http, CREATE, variables)["createGame"]
    tokens = [seat["token"] for seat in sorted(created["seats"], key=lambda s: s["seat"])]
    game = created["game"]
    return Game(game["id"], game["version"], game["toAct"], tokens)


def play(http: httpx.Client, game: Game, moves: int, pause: float) -> list[Move]:
    """Up to `moves` moves, each a legal one of the seat to act, with its expected version."""
    chooser, made = random.Random(7), []
    for _ in range(moves):
        if not game.to_act:
            break  # the game is over
        token = game.tokens[game.to_act[0]]
        seen = gql(http, READ, {"id": game.id}, token)["game"]
        if seen["status"] != "ACTIVE":
            break
        move = chooser.choice(seen["legalMoves"])["move"]
        variables = {"input": {"gameId": game.id, "move": move, "expectedVersion": seen["version"],
                               "idempotencyKey": secrets.token_hex(16)}}  # fmt: skip
        answer = gql(http, APPLY, variables, token)["applyMove"]
        answered = time.time()
        if answer["__typename"] != "MoveApplied":
            raise RuntimeError(f"move refused: {answer}")
        made.append(Move(seen["version"], answer["game"]["version"], answered))
        game.version, game.to_act = answer["game"]["version"], answer["game"]["toAct"]
        time.sleep(pause)
    return made


def idle_cpu(pid: int, seconds: float) -> float:
    before = cpu_seconds(pid)
    time.sleep(seconds)
    return cpu_seconds(pid) - before


def tokens_for(n: int, audience: str, seats: list[str]) -> list[str | None]:
    if audience == "spectators":
        return [None] * n
    return [seats[(i // 10) % 2] if i % 10 == 0 else None for i in range(n)]


def scenario(
    redis_url: str, n: int, audience: str, selection: str, args: argparse.Namespace
) -> dict[str, Any]:
    row: dict[str, Any] = {"sockets": n, "audience": audience, "selection": selection,
                           "moves": args.moves, "status": "ok", "reason": ""}  # fmt: skip
    try:
        with (
            asgi("service", SERVICE_APP, redis_url, settings=SETTINGS) as server,
            httpx.Client(base_url=server.url, timeout=120) as http,
        ):
            measure(server.url, server.pid, http, n, audience, selection, args, row)
    except Exception as exc:  # one scenario's failure is a result; the run goes on
        row.update(status="FAILED", reason=f"{type(exc).__name__}: {str(exc)[:300]}")
    return row


def measure(
    url: str,
    pid: int,
    http: httpx.Client,
    n: int,
    audience: str,
    selection: str,
    args: argparse.Namespace,
    row: dict[str, Any],
) -> None:
    # 1. the moves alone (and a warm process)
    before = cpu_seconds(pid)
    started = time.monotonic()
    alone = play(http, create(http), args.moves, args.pause)
    spent, took = cpu_seconds(pid) - before, time.monotonic() - started
    move_cpu = max(0.0, spent - idle_cpu(pid, took)) / max(1, len(alone))
    row["move_cpu_ms"] = 1000 * move_cpu
    # 2. the sockets
    game = create(http)
    time.sleep(SETTLE)
    rss_before = rss_kib(pid)
    tokens = tokens_for(n, audience, game.tokens)
    query = EVENTS.format(selection=SELECTIONS[selection])
    ws = url.replace("http://", "ws://") + "/graphql"
    shares = [tokens[i :: args.processes] for i in range(args.processes)]
    jobs = [Job(ws, query, game.id, share, f"127.0.0.{i + 2}", args.batch, args.deflate)
            for i, share in enumerate(shares) if share]  # fmt: skip
    with clients(jobs) as pool:
        started = time.monotonic()
        opened = pool.answers(120 + n * 0.05)
        row["open_seconds"] = round(time.monotonic() - started, 2)
        row["opened"] = sum(answer[1] for answer in opened)
        refused = [answer[3] for answer in opened if answer[2]]
        if refused:
            row.update(status="FAILED", reason=f"opened {row['opened']} of {n}: {refused[0]}")
            return
        # 3. RSS with N idle subscribed sockets
        time.sleep(SETTLE)
        rss_after = rss_kib(pid)
        row["rss_before_mib"] = round(rss_before / 1024, 1)
        row["rss_after_mib"] = round(rss_after / 1024, 1)
        row["rss_kib_per_socket"] = (rss_after - rss_before) / n
        # 4. the moves, watched
        first = game.version
        before, clients_before = cpu_seconds(pid), pool.cpu()
        started = time.monotonic()
        made = play(http, game, args.moves, args.pause)
        bound = 600 + n * len(made) * 0.01
        pool.tell("final", game.version, bound)
        pool.answers(bound + 60)
        spent, took = cpu_seconds(pid) - before, time.monotonic() - started
        row["client_cpu_seconds"] = round(pool.cpu() - clients_before, 3)
        idle = idle_cpu(pid, took)
        pool.tell("report")
        reports = [socket for share in pool.answers(300) for socket in share]
    versions = game.version - first
    events = n * versions
    row.update(
        moves_made=len(made),
        first_version=first,
        versions=versions,
        move_phase_seconds=round(took, 2),
        cpu_seconds=round(spent, 3),
        idle_cpu_seconds=round(idle, 3),
        cpu_us_per_event=1e6 * (spent - idle) / events if events else None,
        net_cpu_us_per_event=1e6 * (spent - idle - move_cpu * len(made)) / events
        if events
        else None,
    )
    row.update(check(reports, first, game.version, made))


def check(
    reports: list[tuple[list[tuple[int, float]], list[str]]],
    first: int,
    final: int,
    made: list[Move],
) -> dict[str, Any]:
    """Violations of "every version once, in order" and the latencies from each version's
    move answer to its frame."""
    answered = {v: m.answered for m in made for v in range(m.before + 1, m.after + 1)}
    expected = set(range(first, final + 1))
    lost = duplicated = disordered = errors = 0
    problems: list[str] = []
    by_version: dict[int, list[float]] = {v: [] for v in answered}
    for arrivals, socket_problems in reports:
        seen = [version for version, _ in arrivals]
        lost += len(expected - set(seen))
        duplicated += len(seen) - len(set(seen))
        disordered += sum(1 for a, b in pairwise(seen) if b < a)
        disordered += sum(1 for version in set(seen) if version not in expected)
        errors += len(socket_problems)
        problems += socket_problems[: max(0, 3 - len(problems))]
        for version, arrived in arrivals:
            if version in by_version:
                by_version[version].append(arrived - answered[version])
    by_order = [max(values) for _, values in sorted(by_version.items()) if values]
    last = sorted(by_order)
    every = sorted(value for values in by_version.values() for value in values)
    return {
        "lost": lost,
        "duplicated": duplicated,
        "out_of_order": disordered,
        "errors": errors,
        "problems": problems,
        "violations": lost + duplicated + disordered + errors,
        "last_p50_ms": 1000 * percentile(last, 50),
        "last_p99_ms": 1000 * percentile(last, 99),
        "last_max_ms": 1000 * last[-1] if last else float("nan"),
        "all_p50_ms": 1000 * percentile(every, 50),
        "all_p99_ms": 1000 * percentile(every, 99),
        "last_by_version_ms": [round(1000 * v, 2) for v in by_order],
    }


def _num(value: Any, digits: int = 1) -> str:
    return "-" if value is None or value != value else f"{round(value, digits) + 0.0:.{digits}f}"


def table(rows: list[dict[str, Any]]) -> str:
    lines = [
        f"{'sockets':>7} {'audience':<10} {'sel':<4} {'status':<6} {'vers':>4} "
        f"{'us/event':>8} {'net us/ev':>9} {'KiB/sock':>8} {'last p50':>8} {'last p99':>8} "
        f"{'all p50':>7} {'lost':>5} {'dup':>4} {'order':>5} {'errors':>6}"
    ]
    for row in rows:
        lines.append(
            f"{row['sockets']:>7} {row['audience']:<10} {row['selection']:<4} "
            f"{row['status']:<6} {row.get('versions', '-'):>4} "
            f"{_num(row.get('cpu_us_per_event')):>8} {_num(row.get('net_cpu_us_per_event')):>9} "
            f"{_num(row.get('rss_kib_per_socket'), 2):>8} {_num(row.get('last_p50_ms')):>8} "
            f"{_num(row.get('last_p99_ms')):>8} {_num(row.get('all_p50_ms')):>7} "
            f"{row.get('lost', '-'):>5} {row.get('duplicated', '-'):>4} "
            f"{row.get('out_of_order', '-'):>5} {row.get('errors', '-'):>6}"
        )
    for row in rows:
        label = f"{row['sockets']} {row['audience']} {row['selection']}"
        if row["reason"]:
            lines.append(f"FAILED {label}: {row['reason']}")
        for problem in row.get("problems", []):
            lines.append(f"problem {label}: {problem}")
    return "\n".join(lines)


def plot(rows: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (cpu, latency) = plt.subplots(1, 2, figsize=(12, 4.5))
    for audience in AUDIENCES:
        for selection in SELECTIONS:
            done = [r for r in rows if (r["audience"], r["selection"]) == (audience, selection)
                    and r["status"] == "ok" and r.get("cpu_us_per_event") is not None]  # fmt: skip
            if not done:
                continue
            label = f"{audience}, {selection}"
            sockets = [r["sockets"] for r in done]
            cpu.plot(sockets, [r["cpu_us_per_event"] for r in done], marker="o", label=label)
            latency.plot(sockets, [r["last_p50_ms"] for r in done], marker="o", label=label)
    cpu.set_title("server CPU per delivered event")
    cpu.set_ylabel("microseconds")
    latency.set_title("move answer -> last socket, p50 over versions")
    latency.set_ylabel("ms")
    for axes in (cpu, latency):
        axes.set_xlabel("sockets (N)")
        axes.grid(True, alpha=0.3)
        axes.legend(fontsize=8)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)


def _stop(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)  # through every finally: no process left behind


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", default="1000,5000,10000", help="comma-separated N")
    parser.add_argument("--moves", type=int, default=20, help="K moves per scenario")
    parser.add_argument("--quick", action="store_true", help="a smoke test: N=200, K=5")
    parser.add_argument("--processes", type=int, default=2, help="client processes")
    parser.add_argument("--batch", type=int, default=100, help="sockets opened at once, each")
    parser.add_argument("--pause", type=float, default=0.05, help="seconds after each answer")
    parser.add_argument("--deflate", action="store_true", help="offer permessage-deflate")
    parser.add_argument("--json", default="loadtests/results/live.json")
    parser.add_argument("--plot", help="a PNG of CPU per event and p50 latency against N")
    args = parser.parse_args()
    sockets = [200] if args.quick else [int(n) for n in args.sockets.split(",") if n.strip()]
    if args.quick:
        args.moves = 5
    signal.signal(signal.SIGTERM, _stop)
    fds = raise_fd_limit()  # the API process inherits it
    print(
        f"live layer: {args.processes} client processes, {args.moves} moves (each after the "
        f"last answer + {1000 * args.pause:.0f} ms), deflate {'offered' if args.deflate else 'off'}, "
        f"fd limit {fds}, {os.cpu_count()} cores",
        flush=True,
    )
    print(table([]), flush=True)
    rows: list[dict[str, Any]] = []
    redis = EmbeddedRedis().start()
    try:
        for n in sockets:
            for audience in AUDIENCES:
                for selection in SELECTIONS:
                    row = scenario(redis.url, n, audience, selection, args)
                    rows.append(row)
                    print(table([row]).splitlines()[1], flush=True)
    finally:
        redis.cleanup()
    print()
    print(table(rows))
    from loadtests.bench import machine

    results = {"machine": machine(), "moves": args.moves, "processes": args.processes,
               "deflate": args.deflate, "scenarios": rows}  # fmt: skip
    path = Path(args.json)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(msgspec.json.format(msgspec.json.encode(results)))
    if args.plot:
        plot(rows, Path(args.plot))
    violations = sum(row.get("violations", 0) for row in rows)
    failed = sum(row["status"] != "ok" for row in rows)
    print(f"violations: {violations}; scenarios failed: {failed} of {len(rows)}")
    sys.exit(1 if violations else 0)


if __name__ == "__main__":
    main()
