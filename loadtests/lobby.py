"""Matchmaking under load: players matched per second and the time to match, against a floor of
plain Redis round trips measured in the same run (docs/performance.md, "Matchmaking").

    python -m loadtests.lobby [--players 10000] [--concurrency 16] [--newcomers 2000] [--quick]

A private redis-server, and the core's matchmaking (service/core/lobby) in this process as an
API replica runs it, with a sweeper beside it as a worker runs it (a pass a second). Two-seat
Treetopia games; every match creates its game (the store's create script) and settles it.

1. floor: `--players` EVALSHA round trips of a one-line script, `--concurrency` at a time: the
   round trips a second and their latency, what one Redis call costs here;
2. burst: `--players` players with random ratings (normal, mean 25, sd 25/3: the ratings'
   model) enter at once, `--concurrency` at a time, matched as they enter and by the sweep as
   their windows widen (the service's window: 2.5, +0.25 a second, at most 25). Players
   matched a second while they arrive, and the time from a player's enter to its match: p50,
   p99, max. The run ends when every player is matched, or the players left are further
   apart than any window reaches (at most `--seconds`);
3. deep pool: `--players` players wait in one pool (ratings 60 apart: no two ever fit), then
   `--newcomers` players enter, each 1 from one of them: matched at once, the attempt's
   candidates read near its rating whatever the pool holds. Matched players a second and the
   time to match (the enter's answer, MATCHED), and one sweep pass over the deep pool.

`--quick` runs 400 players and 100 newcomers (the test's size). `--json` writes the results.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from service.core.lobby import WINDOW, Lobby, seek
from service.core.lobby.matches import MatchedGame
from service.settings import Settings
from service.store import RedisStore, connect
from service.store.embedded import EmbeddedRedis
from service.store.lobby import Made

KIND = "TREETOPIA"
TENANT = "bench"


class TimedLobby(Lobby):
    """The core's lobby, noting when each player's match was settled."""

    matched_at: dict[str, float]

    async def finish(self, tenant: str, made: Made) -> MatchedGame:
        game = await super().finish(tenant, made)
        now = time.perf_counter()
        for player in game.players:
            self.matched_at.setdefault(player, now)
        return game


def never_fit(ratings: dict[str, float], matched_at: dict[str, float]) -> list[str] | None:
    """The players left once no two of them can ever fit (further apart than the window's cap:
    their windows stop widening there); None while a match may still come."""
    left = sorted((rating, who) for who, rating in ratings.items() if who not in matched_at)
    if any(b[0] - a[0] <= WINDOW.cap for a, b in itertools.pairwise(left)):
        return None
    return [who for _, who in left]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(int(share * len(ordered)), len(ordered) - 1)] if ordered else 0.0


async def at_most(concurrency: int, calls: Sequence[Callable[[], Awaitable[Any]]]) -> list[float]:
    """Run the calls, `concurrency` at a time; each one's latency in seconds."""
    gate = asyncio.Semaphore(concurrency)
    latencies: list[float] = []

    async def one(call: Callable[[], Awaitable[Any]]) -> None:
        async with gate:
            started = time.perf_counter()
            await call()
            latencies.append(time.perf_counter() - started)

    await asyncio.gather(*(one(call) for call in calls))
    return latencies


async def floor(store: RedisStore, count: int, concurrency: int) -> dict[str, float]:
    script = store.redis.register_script("return 1")
    await at_most(concurrency, [lambda: store.commands.evalsha(script, ["floor"], [])] * 200)
    calls = [lambda: store.commands.evalsha(script, ["floor"], []) for _ in range(count)]
    started = time.perf_counter()
    latencies = await at_most(concurrency, calls)
    seconds = time.perf_counter() - started
    return {
        "round_trips_per_s": count / seconds,
        "p50_ms": percentile(latencies, 0.5) * 1000,
        "p99_ms": percentile(latencies, 0.99) * 1000,
    }


async def sweeping(lobby: Lobby, stop: asyncio.Event, passes: list[float]) -> None:
    while not stop.is_set():
        started = time.perf_counter()
        await lobby.sweep(TENANT)
        passes.append(time.perf_counter() - started)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 1.0)


async def burst(
    store: RedisStore, players: int, concurrency: int, seconds: float
) -> dict[str, Any]:
    matched_at: dict[str, float] = {}
    entering, sweeper = TimedLobby(store, consumer="replica"), TimedLobby(store, consumer="worker")
    entering.matched_at = sweeper.matched_at = matched_at
    rng = random.Random(1)
    ids = [f"burst-{i}" for i in range(players)]
    ratings = {who: rng.gauss(25.0, 25 / 3) for who in ids}
    entered_at: dict[str, float] = {}

    def enter(who: str) -> Callable[[], Awaitable[Any]]:
        async def call() -> None:
            entered_at[who] = time.perf_counter()
            await entering.enter(TENANT, seek(KIND, 2, None, who, ratings[who]))

        return call

    stop, passes = asyncio.Event(), list[float]()
    sweep = asyncio.create_task(sweeping(sweeper, stop, passes))
    started = time.perf_counter()
    await at_most(concurrency, [enter(who) for who in ids])
    arrived = time.perf_counter() - started
    matched_while_arriving = len(matched_at)
    deadline = time.perf_counter() + seconds
    while never_fit(ratings, matched_at) is None and time.perf_counter() < deadline:
        await asyncio.sleep(0.1)
    stop.set()
    await sweep
    left = never_fit(ratings, matched_at)
    waits = [matched_at[who] - entered_at[who] for who in matched_at]
    return {
        "players": players,
        "arrival_s": arrived,
        "enters_per_s": players / arrived,
        "matched_while_arriving": matched_while_arriving,
        "matched_per_s_while_arriving": matched_while_arriving / arrived,
        "matched": len(matched_at),
        "never_fit": -1 if left is None else len(left),  # -1: the bound came first
        "all_matched_s": max(matched_at.values(), default=started) - started,
        "p50_s": percentile(waits, 0.5),
        "p99_s": percentile(waits, 0.99),
        "max_s": max(waits, default=0.0),
        "sweep_passes": len(passes),
        "sweep_pass_max_ms": max(passes, default=0.0) * 1000,
    }


async def deep_pool(
    store: RedisStore, waiting: int, newcomers: int, concurrency: int
) -> dict[str, Any]:
    lobby = TimedLobby(store, consumer="replica")
    lobby.matched_at = {}
    rng = random.Random(2)
    spaced = [i * 60.0 for i in range(waiting)]  # windows reach 25 at most: none ever fit
    rng.shuffle(spaced)
    seekers = [(f"deep-{i}", rating) for i, rating in enumerate(spaced)]

    def enter(who: str, rating: float) -> Callable[[], Awaitable[Any]]:
        return lambda: lobby.enter(TENANT, seek(KIND, 2, None, who, rating))

    started = time.perf_counter()
    await at_most(concurrency, [enter(who, rating) for who, rating in seekers])
    filled = time.perf_counter() - started
    targets = rng.sample(seekers, newcomers)
    started = time.perf_counter()
    latencies = await at_most(
        concurrency, [enter(f"new-{who}", rating + 1.0) for who, rating in targets]
    )
    seconds = time.perf_counter() - started
    pass_started = time.perf_counter()
    await lobby.sweep(TENANT)
    sweep_ms = (time.perf_counter() - pass_started) * 1000
    return {
        "waiting": waiting,
        "fill_enters_per_s": waiting / filled,
        "newcomers": newcomers,
        "matched": len(lobby.matched_at),
        "matched_per_s": len(lobby.matched_at) / seconds,
        "p50_ms": percentile(latencies, 0.5) * 1000,
        "p99_ms": percentile(latencies, 0.99) * 1000,
        "sweep_pass_ms": sweep_ms,
    }


async def redis_cost(store: RedisStore, phase: Awaitable[dict[str, Any]]) -> dict[str, Any]:
    """The phase's results with what Redis spent on it: CPU seconds, and the longest command
    (a script blocks every other client while it runs) from the slow log, kept from 1 ms."""
    redis = store.redis
    await redis.config_set("slowlog-log-slower-than", 1000)
    await redis.slowlog_reset()
    before = await redis.info("cpu")
    results = await phase
    after = await redis.info("cpu")
    slow = await redis.slowlog_get(128)
    cpu = sum(after[k] - before[k] for k in ("used_cpu_user", "used_cpu_sys"))
    longest = max((entry["duration"] for entry in slow), default=0) / 1000
    return {**results, "redis_cpu_s": cpu, "redis_longest_ms": longest, "redis_over_1ms": len(slow)}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    server = EmbeddedRedis().start()
    settings = Settings()
    store = RedisStore(connect(settings, server.url), settings)
    try:
        results = {
            "floor": await floor(store, args.players, args.concurrency),
            "burst": await redis_cost(
                store, burst(store, args.players, args.concurrency, args.seconds)
            ),
        }
        await store.redis.flushall()
        results["deep_pool"] = await redis_cost(
            store, deep_pool(store, args.players, args.newcomers, args.concurrency)
        )
        return results
    finally:
        await store.close()
        server.cleanup()


def report(results: dict[str, Any], concurrency: int) -> None:
    floor, burst, deep = results["floor"], results["burst"], results["deep_pool"]
    print(f"concurrency {concurrency}; Redis: a private redis-server; two-seat {KIND}")
    print(f"{'phase':<10} {'per s':>9} {'p50':>9} {'p99':>9} {'max':>9}")
    print(
        f"{'floor':<10} {floor['round_trips_per_s']:>9.0f} {floor['p50_ms']:>7.2f}ms "
        f"{floor['p99_ms']:>7.2f}ms {'':>9}"
    )
    print(
        f"{'burst':<10} {burst['matched_per_s_while_arriving']:>9.0f} {burst['p50_s']:>8.3f}s "
        f"{burst['p99_s']:>8.3f}s {burst['max_s']:>8.3f}s"
    )
    print(
        f"{'deep pool':<10} {deep['matched_per_s']:>9.0f} {deep['p50_ms']:>7.2f}ms "
        f"{deep['p99_ms']:>7.2f}ms {'':>9}"
    )
    print(
        f"burst: {burst['players']} players entered in {burst['arrival_s']:.2f} s "
        f"({burst['enters_per_s']:.0f}/s), {burst['matched_while_arriving']} matched meanwhile, "
        f"{burst['matched']} matched in {burst['all_matched_s']:.1f} s "
        f"({burst['never_fit']} left further apart than any window reaches); "
        f"{burst['sweep_passes']} sweep passes, the longest {burst['sweep_pass_max_ms']:.1f} ms"
    )
    print(
        f"deep pool: {deep['waiting']} waiting (filled at {deep['fill_enters_per_s']:.0f}/s), "
        f"{deep['newcomers']} newcomers, {deep['matched']} matched; one sweep pass over the "
        f"pool {deep['sweep_pass_ms']:.1f} ms"
    )
    for name, phase in (("burst", burst), ("deep pool", deep)):
        print(
            f"Redis in the {name}: {phase['redis_cpu_s']:.1f} CPU s, the longest command "
            f"{phase['redis_longest_ms']:.1f} ms ({phase['redis_over_1ms']} over 1 ms)"
        )
    ratio = floor["round_trips_per_s"] / max(deep["matched_per_s"], 1e-9)
    print(f"floor round trips per matched player (deep pool): {ratio:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--newcomers", type=int, default=2_000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=180.0, help="the burst's bound")
    parser.add_argument("--quick", action="store_true", help="400 players, 100 newcomers")
    parser.add_argument("--json", help="write the results to this file")
    args = parser.parse_args()
    if args.quick:
        args.players, args.newcomers = 400, 100
    results = asyncio.run(run(args))
    report(results, args.concurrency)
    if args.json:
        with open(args.json, "w") as out:
            json.dump(results, out, indent=2)


if __name__ == "__main__":
    main()
