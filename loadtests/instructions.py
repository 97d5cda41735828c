"""Server CPU per operation as instruction counts: repeatable on a shared, noisy machine.

    python -m loadtests.instructions [--ops graphql-apply graphql-read ...] [--count 200]
    python -m loadtests.instructions --profile graphql-apply   # cProfile of the same loop

One process drives the real ASGI app (service.app.create_app, every middleware, the rate
limiter and the metrics on) in process, against a private redis-server, with the benchmark's
requests (loadtests/targets.py: real games played from scripts, idempotency keys, the seat's
token). It runs under `valgrind --tool=callgrind` with collection on only inside one call of
`functools.reduce` that wraps the measured loop, so set-up, warm-up and the interpreter's start
are left out: the count is the server's own work for `count` operations (Python, C extensions,
the event loop; not the kernel's, not Redis's). The driver's share is building one ASGI scope
per request from prepared bytes. Callgrind counts the same instructions whatever else runs on
the machine (within ~0.5%: ids, tokens and idempotency keys are random). The rate limiter's
periodic sync is set to an hour here (it would run on every operation under valgrind's 50x
slowdown; at real speed it is one small pipeline per 0.1 s, not per request).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import functools
import os
import pstats
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import msgspec
import uvloop

from loadtests.scripts import Table, play_random, random_players
from loadtests.targets import APPLY, READ
from service.games import games

OPS = ["graphql-apply", "graphql-read", "rest-apply", "rest-read", "noop"]
WARMUP = 40
_json = msgspec.json.Encoder()

Send = Callable[[], Awaitable[tuple[int, bytes]]]


def _app(redis_url: str) -> Any:
    os.environ.update(
        {
            "RULES_RATE_LIMIT_PER_TOKEN": "1000000000",
            "RULES_RATE_LIMIT_PER_ADDRESS": "1000000000",
            "RULES_RATE_LIMIT_SYNC_SECONDS": "3600",
        }
    )
    from service.app import create_app
    from service.settings import Settings

    return create_app(Settings.from_env(), redis_url)


def _caller(
    app: Any, method: str, path: str, headers: list[tuple[bytes, bytes]], body: bytes
) -> Send:
    async def call() -> tuple[int, bytes]:
        scope = {
            "type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"},
            "http_version": "1.1", "method": method, "scheme": "http", "path": path,
            "raw_path": path.encode(), "query_string": b"", "root_path": "",
            "headers": headers, "client": ("127.0.0.1", 40000), "server": ("127.0.0.1", 8000),
            "state": {},
        }  # fmt: skip
        sent = False
        status = 0
        chunks: list[bytes] = []

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if sent:
                await asyncio.Event().wait()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await app(scope, receive, send)
        return status, b"".join(chunks)

    return call


def _headers(
    token: str | None, body: bool, extra: dict[str, str] | None = None
) -> list[tuple[bytes, bytes]]:
    headers = [(b"host", b"127.0.0.1:8000"), (b"user-agent", b"bench")]
    if body:
        headers.append((b"content-type", b"application/json"))
    if token is not None:
        headers.append((b"authorization", f"Bearer {token}".encode()))
    for name, value in (extra or {}).items():
        headers.append((name.lower().encode(), value.encode()))
    return headers


async def _create_tables(app: Any, moves: int, seed: int = 7, count: int = 0) -> list[Table]:
    chooser = random.Random(seed)
    tables: list[Table] = []
    kinds = sorted(games())
    while sum(len(t.script.decisions) for t in tables) < moves or len(tables) < count:
        kind = kinds[len(tables) % len(kinds)]
        players = random_players(kind, chooser)
        game_seed = f"instructions-{len(tables)}"
        script, _, _ = play_random(kind, players, game_seed, random.Random(game_seed))
        body = _json.encode({"kind": kind, "players": players, "seed": game_seed})
        status, answer = await _caller(app, "POST", "/v1/games", _headers(None, True), body)()
        if status != 201:
            raise RuntimeError(f"create failed: {status} {answer[:300]!r}")
        created = msgspec.json.decode(answer)
        tables.append(Table(created["game"]["id"], [s["token"] for s in created["seats"]], script))
    return tables


def _apply_requests(app: Any, op: str, tables: list[Table], count: int) -> list[Send]:
    """`count` moves, round robin over the games, each the next of its script."""
    requests: list[Send] = []
    while len(requests) < count:
        for table in tables:
            if table.done or len(requests) >= count:
                continue
            decision = table.script.decisions[table.next]
            table.next += 1
            token = table.tokens[decision.seat]
            key = f"{random.getrandbits(64):016x}"
            if op == "graphql-apply":
                variables = {"input": {"gameId": table.id, "move": decision.move,
                                       "expectedVersion": decision.version, "idempotencyKey": key}}  # fmt: skip
                body = _json.encode({"query": APPLY, "variables": variables})
                requests.append(_caller(app, "POST", "/graphql", _headers(token, True), body))
            else:
                extra = {"If-Match": f'"{decision.version}"', "Idempotency-Key": key}
                body = _json.encode({"move": decision.move})
                path = f"/v1/games/{table.id}/moves"
                requests.append(_caller(app, "POST", path, _headers(token, True, extra), body))
        if all(t.done for t in tables):
            raise RuntimeError("not enough scripted moves")
    return requests


def _read_requests(app: Any, op: str, tables: list[Table], count: int) -> list[Send]:
    requests: list[Send] = []
    for i in range(count):
        table = tables[i % len(tables)]
        token = table.tokens[table.seat_to_act]
        if op == "graphql-read":
            body = _json.encode({"query": READ, "variables": {"id": table.id}})
            requests.append(_caller(app, "POST", "/graphql", _headers(token, True), body))
        else:
            requests.append(
                _caller(app, "GET", f"/v1/games/{table.id}", _headers(token, False), b"")
            )
    return requests


async def _prepare(redis_url: str, op: str, count: int) -> tuple[list[Send], list[Send]]:
    """Warm-up requests and measured requests, prepared (games created) before either runs."""
    app = _app(redis_url)
    if op == "noop":

        def make(n: int) -> list[Send]:
            return [_caller(app, "GET", "/healthz", _headers(None, False), b"") for _ in range(n)]

        return make(WARMUP), make(count)
    total = WARMUP + count
    if op.endswith("read"):
        tables = await _create_tables(app, 0, count=8)  # two of every kind
        warm = _apply_requests(app, "rest-apply", tables, 8 * 12)
        for request in warm:  # games a few moves in, where reads find them
            await request()
        requests = _read_requests(app, op, tables, total)
    else:
        tables = await _create_tables(app, 2 * total, count=8)  # two of every kind at least
        requests = _apply_requests(app, op, tables, total)
    return requests[:WARMUP], requests[WARMUP:]


async def _run(requests: list[Send]) -> None:
    answers = [await request() for request in requests]
    for status, body in answers:  # checked after the loop, so the check is not counted
        if status not in (200, 201) or b'"MoveRejected"' in body or b'"errors"' in body:
            raise RuntimeError(f"unexpected answer {status}: {body[:300]!r}")


def child(redis_url: str, op: str, count: int, profile: str | None) -> None:
    loop = uvloop.new_event_loop()
    asyncio.set_event_loop(loop)
    warm, measured = loop.run_until_complete(_prepare(redis_url, op, count))
    loop.run_until_complete(_run(warm))
    if profile:
        profiler = cProfile.Profile()
        profiler.enable()
        loop.run_until_complete(_run(measured))
        profiler.disable()
        profiler.dump_stats(profile)
        return
    if os.environ.get("RULES_CALLGRIND"):  # instrument from here on (set-up ran uninstrumented)
        subprocess.run(["callgrind_control", "-i", "on", str(os.getpid())], check=True,
                       stdout=subprocess.DEVNULL)  # fmt: skip
    # Callgrind collects only while functools_reduce is on the C stack (--toggle-collect).
    functools.reduce(lambda _, __: loop.run_until_complete(_run(measured)), [0], None)


def _count(op: str, count: int, redis_url: str, out: Path) -> int:
    command = [
        "valgrind", "--tool=callgrind", "--collect-atstart=no", "--instr-atstart=no",
        "--toggle-collect=functools_reduce", f"--callgrind-out-file={out}",
        sys.executable, "-m", "loadtests.instructions", "--child", op,
        "--count", str(count), "--redis-url", redis_url,
    ]  # fmt: skip
    environment = {**os.environ, "PYTHONHASHSEED": "0", "RULES_CALLGRIND": "1"}
    subprocess.run(command, check=True, env=environment, stderr=subprocess.DEVNULL)
    totals = re.search(r"^(?:totals|summary): (\d+)", out.read_text(), re.MULTILINE)
    if totals is None:
        raise RuntimeError(f"no totals in {out}")
    return int(totals.group(1))


SERVER_OPS = {"noop": "Noop", "graphql-apply": "GraphQLApply", "graphql-read": "GraphQLRead",
              "rest-read": "RestRead"}  # fmt: skip


async def _over_http(pid: int, port: int, op: str, count: int, dumps: Path) -> int:
    """Instructions the serving process spends on `count` sequential requests of `op` sent over
    one keep-alive connection (HTTP parsing, the server and the app), after a warm-up."""
    from loadtests import targets
    from loadtests.wire import Connection

    pool = targets.Pool("127.0.0.1", port)
    await pool.fill(3 * (count + WARMUP) if op.endswith("apply") else 400)
    if op.endswith("read"):  # reads find the games a few moves in
        warm = targets.RestApply(pool, 1)
        connection = Connection("127.0.0.1", port)
        for _ in range(100):
            request = await warm.prepare(0, connection)
            await connection.request(request.method, request.path, request.body, request.headers)

    class Healthz(targets.Noop):  # the service's own empty route
        async def prepare(self, client: int, connection: Connection) -> targets.Request:
            return targets.Request("GET", "/healthz", b"", "", "none")

    target = Healthz() if op == "noop" else getattr(targets, SERVER_OPS[op])(pool, 1)
    connection = Connection("127.0.0.1", port)

    async def send(n: int) -> None:
        for _ in range(n):
            request = await target.prepare(0, connection)
            status, body = await connection.request(
                request.method, request.path, request.body, request.headers
            )
            if not target.check(0, status, body):
                raise RuntimeError(f"unexpected answer {status}: {body[:300]!r}")

    def control(option: str) -> None:
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        subprocess.run(["callgrind_control", option, str(pid)], check=True, **quiet)  # type: ignore[call-overload]

    control("--instr=on")
    await send(WARMUP)
    control("--zero")
    await send(count)
    control("--dump")
    await connection.close()
    newest = max(dumps.glob(f"callgrind.{pid}.*"), key=lambda p: p.stat().st_mtime)
    totals = re.search(r"^(?:totals|summary): (\d+)", newest.read_text(), re.MULTILINE)
    assert totals is not None
    return int(totals.group(1))


def count_servers(servers: list[str], ops: list[str], count: int, redis_url: str) -> None:
    from loadtests.servers import SERVICE_APP, UNLIMITED, _command, _ready, serving_pid
    from service.store.embedded import free_port

    for server in servers:
        with tempfile.TemporaryDirectory() as dumps:
            port = free_port()
            command = [
                "valgrind", "--tool=callgrind", "--instr-atstart=no", "--trace-children=yes",
                f"--callgrind-out-file={dumps}/callgrind.%p", *_command(server, SERVICE_APP, port),
            ]  # fmt: skip
            environment = {**os.environ, **UNLIMITED, "REDIS_URL": redis_url,
                           "LOG_LEVEL": "warning", "PYTHONHASHSEED": "0"}  # fmt: skip
            process = subprocess.Popen(command, env=environment, stderr=subprocess.DEVNULL)
            try:
                while not _ready(f"http://127.0.0.1:{port}"):
                    if process.poll() is not None:
                        raise RuntimeError(f"{server} exited")
                    time.sleep(0.5)
                pid = serving_pid(process.pid)
                for op in ops:
                    total = uvloop.run(_over_http(pid, port, op, count, Path(dumps)))
                    print(f"{server:8} {op:16} {total / count:12,.0f} instructions/request",
                          flush=True)  # fmt: skip
            finally:
                process.terminate()
                process.wait(60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ops", nargs="+", choices=OPS, default=OPS[:4])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--profile", choices=OPS, help="cProfile one op (no valgrind)")
    parser.add_argument("--child", choices=OPS, help=argparse.SUPPRESS)
    parser.add_argument("--redis-url", help=argparse.SUPPRESS)
    parser.add_argument("--profile-out", default="loadtests/results/instructions.prof")
    parser.add_argument("--keep", help="a directory to keep callgrind's output files in")
    parser.add_argument("--servers", nargs="+", choices=["uvicorn", "granian"],
                        help="count the real server processes over HTTP instead")  # fmt: skip
    args = parser.parse_args()
    if args.child:
        child(args.redis_url, args.child, args.count, None)
        return
    from service.store.embedded import EmbeddedRedis

    redis = EmbeddedRedis().start()
    try:
        if args.servers:
            ops = [op for op in args.ops if op in SERVER_OPS]
            count_servers(args.servers, ops, args.count, redis.url)
            return
        if args.profile:
            Path(args.profile_out).parent.mkdir(parents=True, exist_ok=True)
            child(redis.url, args.profile, args.count, args.profile_out)
            stats = pstats.Stats(args.profile_out)
            stats.sort_stats("tottime").print_stats(30)
            stats.sort_stats("cumulative").print_stats(40)
            return
        with tempfile.TemporaryDirectory() as scratch:
            for op in args.ops:
                out = Path(args.keep or scratch) / f"callgrind-{op}.out"
                total = _count(op, args.count, redis.url, out)
                print(
                    f"{op:16} {total / args.count:12,.0f} instructions/op  ({args.count} ops)",
                    flush=True,
                )
    finally:
        redis.cleanup()


if __name__ == "__main__":
    main()
