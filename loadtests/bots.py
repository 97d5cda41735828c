"""The bot benchmark: bot turns on worker processes while other clients play.

    python -m loadtests.bots [--clients 8] [--bot-games 4] [--seconds 20] [--workers 1]
                             [--split-cores]

It starts a private redis-server, the service (uvicorn, as the container runs it) and
`--workers` worker processes (`python -m service.worker`, one process each), then runs four
phases of `--seconds` each:

1. base: `--clients` ordinary clients, each on its own 2-player Treelings game, read the game
   and apply a move in turn (GraphQL);
2. twin: the same clients, plus `--bot-games` 4-player Treeline games with every seat played
   by a client: seat 0's applyMove timed as the human's, without bots (the like-for-like
   baseline of the human's moves);
3. bots: the same clients, plus `--bot-games` 4-player Treeline games where seat 0 is a human
   and seats 1-3 SEARCH bots: the human plays its whole turn (each applyMove timed), then
   waits on gameEvents until it is to act again (the turn's bot latency);
4. alone: one bot game, nothing else (the bot latency at low load).

It prints the human's applyMove p50/p99 in phase 3 against the same seat's in phase 2 (target
1.5x, both; it also gives them against the clients' Treelings moves of phase 1, whose moves
cost less), the clients' read p99 in phase 3 against phase 1 (target 1.3x), bot decisions
per second per worker core (decisions from the workers' metrics, CPU from /proc), and the turn
latency alone against the worker's CPU time per turn (the bots' budgets: each game's
bot_tuning.search_iterations, ~100 ms a SEARCH decision on an idle core) + 100 ms. Results go
to --out/bots.json (git-ignored).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import msgspec
import websockets

from loadtests.runner import percentile
from loadtests.servers import asgi, cpu_seconds
from service.store.embedded import EmbeddedRedis, free_port

GAME = "query G($id: ID!) { game(id: $id) { version status toAct legalMoves { move } } }"
APPLY = """mutation A($input: ApplyMoveInput!) { applyMove(input: $input) {
  __typename ... on MoveApplied { game { version status toAct } } } }"""
CREATE = """mutation C($input: CreateGameInput!) { createGame(input: $input) {
  game { id version toAct } seats { seat token } } }"""
EVENTS = "subscription E($id: ID!) { gameEvents(gameId: $id) { version status } }"


class Samples(msgspec.Struct):
    reads: list[float] = msgspec.field(default_factory=list)
    applies: list[float] = msgspec.field(default_factory=list)
    human_applies: list[float] = msgspec.field(default_factory=list)
    turns: list[float] = msgspec.field(default_factory=list)  # human's last move -> its turn
    turn_decisions: list[int] = msgspec.field(default_factory=list)


async def _gql(http: httpx.AsyncClient, query: str, variables: Any, token: str = "") -> Any:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    body = (
        await http.post("/graphql", json={"query": query, "variables": variables}, headers=headers)
    ).json()
    if "errors" in body:
        raise RuntimeError(body["errors"])
    return body["data"]


async def _create(http: httpx.AsyncClient, kind: str, players: int, bots: list[int]) -> Any:
    bot_seats = [{"seat": seat, "strategy": "SEARCH"} for seat in bots]
    variables = {"input": {"kind": kind, "players": players, "bots": bot_seats}}
    return (await _gql(http, CREATE, variables))["createGame"]


async def ordinary_client(
    http: httpx.AsyncClient, until: float, samples: Samples, seed: int
) -> None:
    chooser = random.Random(seed)
    while time.monotonic() < until:
        created = await _create(http, "TREELINGS", 2, [])
        game_id, tokens = created["game"]["id"], [s["token"] for s in created["seats"]]
        seat = created["game"]["toAct"][0]
        while time.monotonic() < until:
            started = time.perf_counter()
            seen = (await _gql(http, GAME, {"id": game_id}, tokens[seat]))["game"]
            samples.reads.append(time.perf_counter() - started)
            if seen["status"] == "FINISHED":
                break
            move = chooser.choice(seen["legalMoves"])["move"]
            started = time.perf_counter()
            variables = {
                "input": {"gameId": game_id, "move": move, "expectedVersion": seen["version"]}
            }
            answer = (await _gql(http, APPLY, variables, tokens[seat]))["applyMove"]
            samples.applies.append(time.perf_counter() - started)
            seat = answer["game"]["toAct"][0] if answer["game"]["toAct"] else seat


async def bot_game(http: httpx.AsyncClient, base: str, until: float, samples: Samples) -> None:
    """A human (seat 0) against three SEARCH bots, turn after turn, until `until`."""
    while time.monotonic() < until:
        created = await _create(http, "TREELINE", 4, [1, 2, 3])
        game_id, token = created["game"]["id"], created["seats"][0]["token"]
        async with websockets.connect(
            base.replace("http", "ws") + "/graphql",
            subprotocols=["graphql-transport-ws"],  # type: ignore[list-item]
        ) as socket:
            await socket.send(json.dumps({"type": "connection_init", "payload": {}}))
            await socket.recv()
            await socket.send(
                json.dumps(
                    {
                        "id": "1",
                        "type": "subscribe",
                        "payload": {"query": EVENTS, "variables": {"id": game_id}},
                    }
                )
            )
            seen = await _until_human(http, socket, game_id, token, -1)
            while seen["status"] == "ACTIVE" and time.monotonic() < until:
                while 0 in seen["toAct"]:
                    answer, seconds = await _play_first(http, game_id, seen, token)
                    samples.human_applies.append(seconds)
                    seen = (await _gql(http, GAME, {"id": game_id}, token))["game"]
                if seen["status"] == "FINISHED":
                    break
                handed = time.perf_counter()
                version = answer["version"]
                seen = await _until_human(http, socket, game_id, token, version)
                samples.turns.append(time.perf_counter() - handed)
                samples.turn_decisions.append(seen["version"] - version)


async def twin_game(http: httpx.AsyncClient, until: float, samples: Samples) -> None:
    """A bot game's twin without bots: every seat of the same 4-player Treeline game played by
    a client, seat 0's applyMove timed as the human's."""
    while time.monotonic() < until:
        created = await _create(http, "TREELINE", 4, [])
        game_id, tokens = created["game"]["id"], [s["token"] for s in created["seats"]]
        to_act = created["game"]["toAct"]
        while to_act and time.monotonic() < until:
            seat = to_act[0]
            seen = (await _gql(http, GAME, {"id": game_id}, tokens[seat]))["game"]
            if seen["status"] != "ACTIVE":
                break
            answer, seconds = await _play_first(http, game_id, seen, tokens[seat])
            if seat == 0:
                samples.human_applies.append(seconds)
            to_act = answer["toAct"]


async def _play_first(
    http: httpx.AsyncClient, game_id: str, seen: Any, token: str
) -> tuple[Any, float]:
    """The seat's first legal move applied: the game as answered, and the seconds it took."""
    started = time.perf_counter()
    move = {
        "gameId": game_id,
        "move": seen["legalMoves"][0]["move"],
        "expectedVersion": seen["version"],
    }
    answer = (await _gql(http, APPLY, {"input": move}, token))["applyMove"]["game"]
    return answer, time.perf_counter() - started


async def _until_human(
    http: httpx.AsyncClient, socket: Any, game_id: str, token: str, after: int
) -> Any:
    while True:
        seen = (await _gql(http, GAME, {"id": game_id}, token))["game"]
        if seen["version"] > after and (0 in seen["toAct"] or seen["status"] == "FINISHED"):
            return seen
        async with asyncio.timeout(120):
            while True:
                message = json.loads(await socket.recv())
                if (
                    message.get("type") == "next"
                    and message["payload"]["data"]["gameEvents"]["version"] >= seen["version"] + 1
                ):
                    break


async def phase(
    base: str, seconds: float, clients: int, bot_games: int, bots: bool = True
) -> Samples:
    samples = Samples()
    until = time.monotonic() + seconds
    limits = httpx.Limits(max_connections=clients + bot_games + 4)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=120) as http:
        tasks = [ordinary_client(http, until, samples, seed) for seed in range(clients)]
        for _ in range(bot_games):
            tasks.append(
                bot_game(http, base, until, samples) if bots else twin_game(http, until, samples)
            )
        await asyncio.gather(*tasks)
    return samples


def _decisions(ports: list[int]) -> float:
    total = 0.0
    for port in ports:
        for line in httpx.get(f"http://127.0.0.1:{port}/metrics").text.splitlines():
            if line.startswith("rules_bot_decisions_total{"):
                total += float(line.rsplit(" ", 1)[1])
    return total


@contextmanager
def workers(redis_url: str, count: int) -> Iterator[list[tuple[int, int]]]:
    """`count` worker processes; yields (pid, metrics port) of each."""
    processes, found = [], []
    try:
        for _ in range(count):
            port = free_port()
            env = {
                **os.environ,
                "REDIS_URL": redis_url,
                "RULES_WORKER_PROCESSES": "1",
                "RULES_WORKER_METRICS_PORT": str(port),
                "LOG_LEVEL": "warning",
            }
            processes.append(subprocess.Popen([sys.executable, "-m", "service.worker"], env=env))
            found.append((processes[-1].pid, port))
        for _, port in found:
            deadline = time.monotonic() + 60
            while True:
                try:
                    httpx.get(f"http://127.0.0.1:{port}/metrics")
                    break
                except httpx.HTTPError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.1)
        yield found
    finally:
        for process in processes:
            process.terminate()
            process.wait(30)


def _ms(values: list[float], p: float) -> float:
    return round(percentile(sorted(values), p) * 1000, 1) if values else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--bot-games", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--split-cores",
        action="store_true",
        help="workers on the last core, the rest (API, Redis, clients) on the others, as "
        "separate worker pods would be",
    )
    parser.add_argument("--out", type=Path, default=Path("loadtests/results"))
    args = parser.parse_args()
    with ExitStack() as stop:
        redis = EmbeddedRedis().start()
        stop.callback(redis.cleanup)
        service = stop.enter_context(asgi("service", "service.app:from_env", redis.url))
        found = stop.enter_context(workers(redis.url, args.workers))
        pids, ports = [pid for pid, _ in found], [port for _, port in found]
        if args.split_cores:
            cores = sorted(os.sched_getaffinity(0))
            for pid in pids:
                os.sched_setaffinity(pid, cores[-1:])
            for pid in (0, service.pid, redis.process.pid if redis.process else 0):
                os.sched_setaffinity(pid, cores[:-1] or cores)

        def measured(
            clients: int, bot_games: int, bots: bool = True
        ) -> tuple[Samples, float, float, float]:
            """The samples, seconds, bot decisions and worker CPU seconds of one phase."""
            cpu, decided, started = sum(map(cpu_seconds, pids)), _decisions(ports), time.monotonic()
            samples = asyncio.run(phase(service.url, args.seconds, clients, bot_games, bots))
            return (
                samples,
                time.monotonic() - started,
                _decisions(ports) - decided,
                sum(map(cpu_seconds, pids)) - cpu,
            )

        asyncio.run(phase(service.url, 2, args.clients, 0))  # warm-up, not counted
        base, _, _, _ = measured(args.clients, 0)
        twin, _, _, _ = measured(args.clients, args.bot_games, bots=False)
        loaded, elapsed, decided, cpu = measured(args.clients, args.bot_games)
        alone, _, alone_decided, alone_cpu = measured(0, 1)
    report = {
        "clients": args.clients, "bot_games": args.bot_games, "seconds": args.seconds, "workers": args.workers,
        "split_cores": args.split_cores, "load_average": os.getloadavg()[0],
        "base": {"apply_p50_ms": _ms(base.applies, 50), "apply_p99_ms": _ms(base.applies, 99), "read_p50_ms": _ms(base.reads, 50), "read_p99_ms": _ms(base.reads, 99), "reads": len(base.reads)},
        "twin": {"human_apply_p50_ms": _ms(twin.human_applies, 50), "human_apply_p99_ms": _ms(twin.human_applies, 99), "human_applies": len(twin.human_applies)},
        "bots": {"human_apply_p50_ms": _ms(loaded.human_applies, 50), "human_apply_p99_ms": _ms(loaded.human_applies, 99), "human_applies": len(loaded.human_applies), "read_p50_ms": _ms(loaded.reads, 50), "read_p99_ms": _ms(loaded.reads, 99), "reads": len(loaded.reads), "turn_p50_ms": _ms(loaded.turns, 50), "turns": len(loaded.turns)},
        "decisions_per_second": round(decided / elapsed, 1),
        "decisions_per_worker_cpu_second": round(decided / cpu, 1) if cpu else None,
        "alone": {"turn_p50_ms": _ms(alone.turns, 50), "turn_p99_ms": _ms(alone.turns, 99), "turns": len(alone.turns), "versions_per_turn": round(sum(alone.turn_decisions) / max(len(alone.turns), 1), 1), "bot_decisions_per_turn": round(alone_decided / max(len(alone.turns), 1), 1), "worker_cpu_ms_per_decision": round(alone_cpu / max(alone_decided, 1) * 1000, 1), "worker_cpu_ms_per_turn": round(alone_cpu / max(len(alone.turns), 1) * 1000)},
    }  # fmt: skip
    bots, twin_, base_ = report["bots"], report["twin"], report["base"]
    ratio_apply_p50 = bots["human_apply_p50_ms"] / twin_["human_apply_p50_ms"]
    ratio_apply = bots["human_apply_p99_ms"] / twin_["human_apply_p99_ms"]
    ratio_read = report["bots"]["read_p99_ms"] / report["base"]["read_p99_ms"]
    # the bots' budgets: the worker's thinking per turn (CPU time, as the budgets are iterations)
    turn_target = report["alone"]["worker_cpu_ms_per_turn"] + 100
    report["ratios"] = {
        "human_apply_p50": round(ratio_apply_p50, 2),  # the 1.5x is for p50 and p99
        "human_apply_p99": round(ratio_apply, 2),
        "human_apply_p50_vs_clients": round(bots["human_apply_p50_ms"] / base_["apply_p50_ms"], 2),
        "human_apply_p99_vs_clients": round(bots["human_apply_p99_ms"] / base_["apply_p99_ms"], 2),
        "read_p99": round(ratio_read, 2),
        "turn_target_ms": round(turn_target),
    }
    print(json.dumps(report, indent=2))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "bots.json").write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
