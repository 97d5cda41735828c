"""The catch-up stall benchmark: does one token replaying a long game delay another tenant?

    python -m loadtests.catch_up [--versions 2000] [--seconds 5] [--sockets 4]
                                 [--subscriptions 16] [--fat] [--json PATH]

One API process as loadtests/servers.py starts it (uvicorn, uvloop, httptools, wsproto) on a
private redis-server, with two tenants in `RULES_API_KEYS`, the per-address limits of
loadtests/live.py lifted, and the default per-token rate limit (600 a minute) kept: replayed
versions count against it (service/api/edge/pacing.py), which is part of the defence.

1. Tenant A creates a 2-seat Treelings game with `takebacks: OWN_DECISIONS` and grows it to
   `--versions` versions with its API key acting for the seat to act (`asSeat`): a legal
   move, then `requestTakeback` (alone, no answer needed), again and again; a move that may
   not be taken back stands and the game plays on (stopping early if it nears its end).
2. Tenant B creates its own game; a reader process reads `GET /v1/games/{id}/scores` with B's
   key back to back (one client, sequential), noting each latency and status.
3. Idle: the reader alone for `--seconds`. Catch-up: seat 0's token of game A opens
   `--sockets` WebSockets (graphql-transport-ws), each with `--subscriptions` subscriptions
   `gameEvents(gameId, afterVersion: 0) { version status }` (`--fat`: `{ version status
   game { state } }`), while the reader reads for `--seconds` more.

It prints the reads of each phase (count, p50, p99, max in ms, non-200), p99 catch-up / idle,
the server's CPU seconds and RSS before and after the catch-up phase, the versions replayed
per second over all subscriptions, and the error frames and closes; --json (default
loadtests/results/catch_up.json) holds the same and more. The target (docs/performance.md,
"Live updates"): read p99 within 2x of idle during catch-up; it is reported, not asserted.
Exit status 0 unless the run could not be made.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import secrets
import signal
import sys
import time
from collections import Counter
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx
import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.typing import Subprotocol

from loadtests.live import raise_fd_limit, rss_kib
from loadtests.runner import percentile
from loadtests.servers import SERVICE_APP, asgi, cpu_seconds
from service.store.embedded import EmbeddedRedis

KEY_A, KEY_B = secrets.token_hex(16), secrets.token_hex(16)
SETTINGS = {
    "RULES_API_KEYS": f"alpha:{KEY_A},beta:{KEY_B}",
    "RULES_MAX_SOCKETS_PER_ADDRESS": "1000000",
    "RULES_MAX_SUBSCRIPTIONS_PER_ADDRESS": "1000000",
    "RULES_RATE_LIMIT_PER_TOKEN": "600",  # the default, kept: replays count against it
}
CREATE = """mutation C($input: CreateGameInput!) { createGame(input: $input) {
  game { id version status toAct } seats { seat token } } }"""
READ = """query G($id: ID!, $seat: Int!) { game(id: $id, asSeat: $seat) {
  version status toAct legalMoves { move } } }"""
RESULT = """__typename ... on MoveApplied { game { version status toAct } }
  ... on MoveRejected { code message currentVersion }"""
APPLY = f"mutation A($input: ApplyMoveInput!) {{ applyMove(input: $input) {{ {RESULT} }} }}"
TAKEBACK = f"""mutation T($id: ID!, $v: Int!, $seat: Int!, $key: String!) {{
  requestTakeback(gameId: $id, expectedVersion: $v, asSeat: $seat, idempotencyKey: $key)
  {{ {RESULT} }} }}"""
SELECTIONS = {"thin": "version status", "fat": "version status game { state }"}
EVENTS = "subscription E($id: ID!) {{ gameEvents(gameId: $id, afterVersion: 0) {{ {sel} }} }}"
PROTOCOL = Subprotocol("graphql-transport-ws")
TIMEOUT = 30.0  # seconds for any one request, handshake or frame we wait for


# ---- building the long game ------------------------------------------------------------


def gql(http: httpx.Client, query: str, variables: dict[str, Any], key: str) -> Any:
    answer = http.post(
        "/graphql",
        json={"query": query, "variables": variables},
        headers={"x-api-key": key},
    )
    body = answer.json()
    if answer.status_code != 200 or body.get("errors"):
        raise RuntimeError(f"{answer.status_code}: {answer.text[:300]}")
    return body["data"]


def create(http: httpx.Client, key: str, takebacks: bool) -> tuple[str, list[str]]:
    game: dict[str, Any] = {"kind": "TREELINGS", "players": 2}
    if takebacks:
        game["takebacks"] = "OWN_DECISIONS"
    created = gql(http, CREATE, {"input": game}, key)["createGame"]
    tokens = [seat["token"] for seat in sorted(created["seats"], key=lambda s: s["seat"])]
    return created["game"]["id"], tokens


def grow(http: httpx.Client, game_id: str, target: int) -> dict[str, Any]:
    """Move + takeback cycles (the same move again while it may be taken back: the state after
    a takeback is the one before the move) until `target` versions; a move that may not be
    taken back stands. Stops early if the game ends or no move may be taken back any more."""
    version, moves_stood, refused, cycles = 0, 0, 0, 0
    move: Any = None
    seat = 0
    while version < target:
        if move is None:
            seen = gql(http, READ, {"id": game_id, "seat": seat}, KEY_A)["game"]
            if seen["status"] != "ACTIVE" or not seen["toAct"]:
                break
            seat = seen["toAct"][0]
            seen = gql(http, READ, {"id": game_id, "seat": seat}, KEY_A)["game"]
            version = seen["version"]
            moves = [legal["move"] for legal in seen["legalMoves"]]
            if not moves:
                break
            move = moves[refused % len(moves)]
        applied = gql(
            http,
            APPLY,
            {"input": {"gameId": game_id, "move": move, "asSeat": seat,
                       "expectedVersion": version, "idempotencyKey": secrets.token_hex(16)}},
            KEY_A,
        )["applyMove"]  # fmt: skip
        if applied["__typename"] != "MoveApplied":
            raise RuntimeError(f"move refused: {applied}")
        version = applied["game"]["version"]
        if applied["game"]["status"] != "ACTIVE":
            break
        taken = gql(
            http,
            TAKEBACK,
            {"id": game_id, "v": version, "seat": seat, "key": secrets.token_hex(16)},
            KEY_A,
        )["requestTakeback"]
        if taken["__typename"] == "MoveApplied":
            version = taken["game"]["version"]
            cycles += 1
            continue
        if taken.get("code") != "TAKEBACK_NOT_ALLOWED":
            raise RuntimeError(f"takeback refused: {taken}")
        moves_stood += 1
        refused += 1
        move = None  # the move stands: read the new position
        if moves_stood > 200:
            break  # the game would end before long
    return {"versions": version, "cycles": cycles, "moves_stood": moves_stood}


# ---- the reader (its own process: the sockets' client loop does not slow it) ----------------


def reader(url: str, path: str, key: str, seconds: float, pipe: Connection) -> None:
    """Reads `path` back to back for `seconds` after a warm-up; sends [(latency_s, status)]."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    found: list[tuple[float, int]] = []
    with httpx.Client(base_url=url, timeout=TIMEOUT, headers={"x-api-key": key}) as http:
        for _ in range(20):
            http.get(path)
        pipe.send("ready")
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            started = time.perf_counter()
            try:
                status = http.get(path).status_code
            except httpx.HTTPError:
                status = 0
            found.append((time.perf_counter() - started, status))
    pipe.send(found)


class Reader:
    def __init__(self, url: str, path: str, seconds: float, key: str = KEY_B) -> None:
        context = multiprocessing.get_context("spawn")
        self.pipe, theirs = context.Pipe()
        self.seconds = seconds
        self.process = context.Process(
            target=reader, args=(url, path, key, seconds, theirs), daemon=True
        )
        self.process.start()
        theirs.close()

    def ready(self) -> None:
        if not self.pipe.poll(120) or self.pipe.recv() != "ready":
            raise RuntimeError("the reader did not start")

    def reads(self) -> list[tuple[float, int]]:
        if not self.pipe.poll(self.seconds + 2 * TIMEOUT + 30):
            raise RuntimeError("the reader gave no answer in time")
        found: list[tuple[float, int]] = self.pipe.recv()
        return found

    def stop(self) -> None:
        self.process.join(10)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.pipe.close()


def phase_row(name: str, reads: list[tuple[float, int]]) -> dict[str, Any]:
    latencies = sorted(1000 * latency for latency, _ in reads)
    statuses = Counter(status for _, status in reads)
    return {
        "phase": name,
        "reads": len(reads),
        "p50_ms": percentile(latencies, 50),
        "p99_ms": percentile(latencies, 99),
        "max_ms": latencies[-1] if latencies else float("nan"),
        "non_200": sum(n for status, n in statuses.items() if status != 200),
        "statuses": {str(status): n for status, n in sorted(statuses.items())},
    }


# ---- the catch-up sockets ---------------------------------------------------------------


class Socket:
    """One WebSocket with its subscriptions: frames per subscription, errors, its close."""

    def __init__(self, subscriptions: int) -> None:
        self.frames = [0] * subscriptions
        self.last = [0] * subscriptions
        self.errors: Counter[str] = Counter()
        self.closed: str | None = None
        self.problem: str | None = None

    async def run(self, url: str, token: str, query: str, game_id: str, end: float) -> None:
        try:
            async with connect(
                url,
                subprotocols=[PROTOCOL],
                compression=None,
                ping_interval=None,
                open_timeout=TIMEOUT,
                close_timeout=5,
                proxy=None,
                max_size=None,
            ) as socket:
                await self.subscribe(socket, token, query, game_id)
                while (left := end - time.monotonic()) > 0:
                    try:
                        raw = await asyncio.wait_for(socket.recv(), left)
                    except TimeoutError:
                        break
                    self.take(msgspec.json.decode(raw))
        except ConnectionClosed as closed:
            self.closed = f"{closed.rcvd.code} {closed.rcvd.reason}" if closed.rcvd else "no frame"
        except (OSError, TimeoutError, WebSocketException) as exc:
            self.problem = f"{type(exc).__name__}: {str(exc)[:200]}"

    async def subscribe(
        self, socket: ClientConnection, token: str, query: str, game_id: str
    ) -> None:
        init = {"type": "connection_init", "payload": {"authorization": f"Bearer {token}"}}
        await socket.send(msgspec.json.encode(init).decode())
        ack = msgspec.json.decode(await asyncio.wait_for(socket.recv(), TIMEOUT))
        if ack.get("type") != "connection_ack":
            raise WebSocketException(f"no connection_ack: {str(ack)[:200]}")
        for i in range(len(self.frames)):
            payload = {"query": query, "variables": {"id": game_id}}
            message = {"id": str(i), "type": "subscribe", "payload": payload}
            await socket.send(msgspec.json.encode(message).decode())

    def take(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        payload = message.get("payload")
        if kind == "next" and isinstance(payload, dict) and not payload.get("errors"):
            i = int(message["id"])
            self.frames[i] += 1
            self.last[i] = int(payload["data"]["gameEvents"]["version"])
        elif kind == "next" or kind == "error":
            errors = payload.get("errors") if isinstance(payload, dict) else payload
            for error in errors or [{}]:
                code = (error.get("extensions") or {}).get("code") or error.get("message", "?")
                self.errors[f"{kind}:{str(code)[:60]}"] += 1
        elif kind == "complete":
            self.errors["complete"] += 1
        elif kind not in ("ping", "pong"):
            self.errors[f"{kind}"] += 1


async def catch_up(
    url: str, token: str, game_id: str, args: argparse.Namespace
) -> tuple[list[Socket], float]:
    query = EVENTS.format(sel=SELECTIONS["fat" if args.fat else "thin"])
    ws = url.replace("http://", "ws://") + "/graphql"
    sockets = [Socket(args.subscriptions) for _ in range(args.sockets)]
    started = time.monotonic()
    end = started + args.seconds
    runs = [socket.run(ws, token, query, game_id, end) for socket in sockets]
    await asyncio.wait_for(asyncio.gather(*runs), args.seconds + 2 * TIMEOUT + 10)
    return sockets, time.monotonic() - started


# ---- the run ------------------------------------------------------------------------------


def measure(url: str, pid: int, args: argparse.Namespace, out: dict[str, Any]) -> None:
    with httpx.Client(base_url=url, timeout=TIMEOUT) as http:
        game_a, tokens = create(http, KEY_A, takebacks=True)
        started = time.monotonic()
        built = grow(http, game_a, args.versions)
        built["build_seconds"] = round(time.monotonic() - started, 1)
        out["game_a"] = built
        print(
            f"game A: {built['versions']} versions in {built['build_seconds']} s "
            f"({built['cycles']} move+takeback cycles, {built['moves_stood']} moves stood)",
            flush=True,
        )
        game_b, _ = create(http, KEY_B, takebacks=False)
    path = f"/v1/games/{game_b}/scores"
    time.sleep(1.0)  # the build's work settles
    # idle
    idle = Reader(url, path, args.seconds)
    try:
        idle.ready()
        idle_cpu = cpu_seconds(pid)
        idle_reads = idle.reads()
        idle_cpu = cpu_seconds(pid) - idle_cpu
    finally:
        idle.stop()
    # catch-up
    busy = Reader(url, path, args.seconds)
    try:
        busy.ready()
        cpu_before, rss_before = cpu_seconds(pid), rss_kib(pid)
        sockets, took = asyncio.run(catch_up(url, tokens[0], game_a, args))
        cpu_after, rss_after = cpu_seconds(pid), rss_kib(pid)
        busy_reads = busy.reads()
    finally:
        busy.stop()
    rows = [phase_row("idle", idle_reads), phase_row("catch-up", busy_reads)]
    frames = [n for socket in sockets for n in socket.frames]
    errors: Counter[str] = Counter()
    for socket in sockets:
        errors.update(socket.errors)
    out.update(
        phases=rows,
        p99_ratio=rows[1]["p99_ms"] / rows[0]["p99_ms"] if rows[0]["p99_ms"] else None,
        server_cpu_seconds={"before": round(cpu_before, 2), "after": round(cpu_after, 2),
                            "spent": round(cpu_after - cpu_before, 2),
                            "idle_phase": round(idle_cpu, 2)},
        server_rss_mib={"before": round(rss_before / 1024, 1),
                        "after": round(rss_after / 1024, 1)},
        catch_up_seconds=round(took, 2),
        frames_total=sum(frames),
        frames_per_subscription=frames,
        last_version_per_subscription=[v for socket in sockets for v in socket.last],
        replayed_per_second=sum(frames) / took if took else None,
        error_frames=dict(errors),
        closes=[socket.closed for socket in sockets if socket.closed],
        socket_problems=[socket.problem for socket in sockets if socket.problem],
    )  # fmt: skip


def _num(value: Any, digits: int = 1) -> str:
    return "-" if value is None or value != value else f"{value:.{digits}f}"


def report(out: dict[str, Any]) -> str:
    lines = [f"{'phase':<9} {'reads':>6} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'non-200':>7}"]
    for row in out["phases"]:
        lines.append(
            f"{row['phase']:<9} {row['reads']:>6} {_num(row['p50_ms']):>8} "
            f"{_num(row['p99_ms']):>8} {_num(row['max_ms']):>8} {row['non_200']:>7}"
        )
    cpu, rss, frames = out["server_cpu_seconds"], out["server_rss_mib"], out["frames_total"]
    per_sub = out["frames_per_subscription"]
    lines += [
        f"p99 catch-up / idle: {_num(out['p99_ratio'], 2)} (target: at most 2.00)",
        f"server CPU s: {cpu['before']} -> {cpu['after']} (+{cpu['spent']}; idle phase "
        f"+{cpu['idle_phase']}); "
        f"RSS MiB: {rss['before']} -> {rss['after']}",
        f"replayed: {frames} versions in {out['catch_up_seconds']} s over {len(per_sub)} "
        f"subscriptions = {_num(out['replayed_per_second'], 0)}/s; per subscription "
        f"min {min(per_sub, default=0)} max {max(per_sub, default=0)} "
        f"of {out['game_a']['versions']}",
        f"error frames: {out['error_frames'] or 'none'}; closes: {out['closes'] or 'none'}; "
        f"socket problems: {out['socket_problems'] or 'none'}",
    ]
    return "\n".join(lines)


def _stop(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)  # through every finally: no process left behind


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--versions", type=int, default=2000, help="game A's length")
    parser.add_argument("--seconds", type=float, default=5.0, help="each phase's length")
    parser.add_argument("--sockets", type=int, default=4)
    parser.add_argument("--subscriptions", type=int, default=16, help="per socket")
    parser.add_argument(
        "--fat", action="store_true", help="select { version status game { state } }"
    )
    parser.add_argument("--json", default="loadtests/results/catch_up.json")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, _stop)
    raise_fd_limit()
    out: dict[str, Any] = {"args": vars(args)}
    redis = EmbeddedRedis().start()
    try:
        with asgi("service", SERVICE_APP, redis.url, settings=SETTINGS) as server:
            measure(server.url, server.pid, args, out)
    except Exception as exc:
        print(f"the run could not be made: {type(exc).__name__}: {exc}", file=sys.stderr)
        sys.exit(1)
    finally:
        redis.cleanup()
    from loadtests.bench import machine

    out["machine"] = machine()
    print(
        f"catch-up: {args.sockets} sockets x {args.subscriptions} subscriptions "
        f"({'fat' if args.fat else 'thin'}) of one seat token, from version 0 of "
        f"{out['game_a']['versions']}; reader: GET /scores of another tenant, {args.seconds} s "
        "per phase"
    )
    print(report(out), flush=True)
    path = Path(args.json)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(msgspec.json.format(msgspec.json.encode(out)))


if __name__ == "__main__":
    main()
