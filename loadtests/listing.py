"""Listing a player's games among a million: `python -m loadtests.listing`.

Fills a private redis-server with a million games of one tenant, a player sitting in a
thousand of them (created by the real create script, index entries and all); then pages
through that player's games, the games where they must act, and the tenant's newest page with
the service's own `service.core.listing.list_games`, and prints the timings as JSON.

`--costs` measures instead what one request costs Redis: 10,000 games of one tenant
across the kinds (some rare), all written by the real create script, then `first: 1` with each
filter, counting the commands the server ran (INFO commandstats deltas) and the time taken.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import time
from typing import Any

import msgspec

from service.core import GameService
from service.core.reads.listing import GameFilter, list_games
from service.engine import start as engine_start
from service.engine.play import encode_state
from service.games import games
from service.settings import Settings
from service.store import FORMAT, Record, RedisStore, connect
from service.store.embedded import EmbeddedRedis
from service.store.jobs import new_game_id

TENANT, PLAYER = "bench", "the-player"
BATCH = 5000


def _record(state: bytes, created: float, ids: list[str | None], acting: list[int]) -> Record:
    return Record(
        FORMAT, "TREELINGS", 2, 1, False, "seed", [b"a", b"b"], state, created, created,
        options={}, tenant=TENANT, player_ids=ids, acting=acting,
    )  # fmt: skip


# The bulk: games n..n+count-1 of other users, written inside Redis (a million scripted
# creates from Python would take the run's whole budget). Each gets its record and its entry in
# the tenant's indexes (all, ACTIVE) of lane n % LANES, as the create script writes them; the per-player index
# keys of those other users are left out (they are other keys: no listing of the player reads
# them). KEYS: none (one server). ARGV: first n, count, record, created at n = 0 (ms), tag.
_BULK = """
for n = tonumber(ARGV[1]), tonumber(ARGV[1]) + tonumber(ARGV[2]) - 1 do
  local id = string.format('bench%08d', n)
  redis.call('HSET', 'g:{' .. id .. '}', 'v', 1, 'r', ARGV[3])
  local member = string.format('%015d:%s', tonumber(ARGV[4]) + n, id)
  local tag = 'ix:{bots-' .. (n % 32) .. '}:'
  redis.call('ZADD', tag .. 't:' .. ARGV[5], 0, member)
  redis.call('ZADD', tag .. 's:' .. ARGV[5] .. ':ACTIVE', 0, member)
end
"""


async def fill(store: RedisStore, total: int, mine: int) -> None:
    game = games()["TREELINGS"]
    state = encode_state(engine_start(game, 2, {}, "bench").state)
    start = time.time() - total / 1000
    bulk = _record(state, start, ["someone", "someone-else"], [0])
    bulk_script = store.redis.register_script(_BULK)
    chooser = random.Random(19)
    picks = set(chooser.sample(range(total), mine))
    for first in range(0, total, BATCH * 10):
        count = min(BATCH * 10, total - first)
        await bulk_script(
            args=[first, count, msgspec.msgpack.encode(bulk), int(start * 1000), TENANT]
        )
    # the player's own games: written by the real create script, replacing bulk ones
    for n in sorted(picks):
        game_id = f"bench{n:08d}"
        record = _record(state, start + n / 1000, [PLAYER, f"user-{n}"], [n % 2])
        await store.redis.delete(f"g:{{{game_id}}}")
        assert await store.create(game_id, record, [])


async def pages(
    service: GameService, only: GameFilter, first: int, requests: int
) -> tuple[int, float]:
    """Games listed and seconds taken, paging `first` at a time, at most `requests` pages."""
    started, count, after = time.perf_counter(), 0, None
    for _ in range(requests):
        page = await list_games(service.store, TENANT, only, first, after)
        count += len(page.games)
        if not page.has_next:
            break
        after = page.end_cursor
    return count, time.perf_counter() - started


# (kind, every how many games) for the --costs fill; the last kind only for the 5 oldest games
KINDS = (("TREETOPIA", 10), ("TREELINE", 100))
RARE_KIND = "TREE_LINED_AVENUE"


def _costed(n: int, states: dict[str, bytes], start: float) -> Record:
    kind = next((k for k, every in reversed(KINDS) if n % every == 3), "TREELINGS")
    kind = RARE_KIND if n < 5 else kind
    finished = n % 50 == 7
    players: list[str | None] = [PLAYER if n % 100 in (10, 11) else f"user-{n % 97}", f"user-{n}"]
    return msgspec.structs.replace(
        _record(states[kind], start + n / 1000, players, [] if finished else [n % 2]),
        kind=kind,
        finished=finished,
    )


async def _commands(store: RedisStore) -> int:
    stats = await store.redis.info("commandstats")
    return sum(v["calls"] for k, v in stats.items() if k != "cmdstat_info")


async def costs(total: int, repeats: int) -> dict[str, Any]:
    """Redis commands and milliseconds of one `first: 1` request per filter over `total` games."""
    server = EmbeddedRedis().start()
    try:
        store = RedisStore(connect(Settings(), server.url), Settings())
        states = {
            kind: encode_state(engine_start(game, 2, {}, "bench").state)
            for kind, game in games().items()
        }
        start = time.time() - total / 1000
        made = [(new_game_id(), _costed(n, states, start)) for n in range(total)]
        for game_id, record in made:
            assert await store.create(game_id, record, [])
        middle = made[total // 2][1].created
        cases = {
            "none": GameFilter(),
            "kind (1 in 10)": GameFilter(kind="TREETOPIA"),
            "kind (the 5 oldest games)": GameFilter(kind=RARE_KIND),
            "status FINISHED (1 in 50)": GameFilter(status="FINISHED"),
            "playerId (1 in 50)": GameFilter(player_id=PLAYER),
            "toActPlayerId (1 in 100)": GameFilter(to_act_player_id=PLAYER),
            "createdAfter (the newer half)": GameFilter(created_after=middle),
            "kind + status (none match)": GameFilter(kind="TREETOPIA", status="FINISHED"),
        }
        results: dict[str, Any] = {"games": total}
        for name, only in cases.items():
            spent, timings = [], []
            for _ in range(repeats):
                before, started = await _commands(store), time.perf_counter()
                page = await list_games(store, TENANT, only, 1, None)
                timings.append(time.perf_counter() - started)
                spent.append(await _commands(store) - before)
            results[name] = {
                "commands": max(spent),
                "median_ms": round(statistics.median(timings) * 1000, 1),
                "listed": len(page.games),
                "has_next": page.has_next,
            }
        # the last case walked to its end: requests and commands in all
        before, requests, after = await _commands(store), 0, None
        while requests == 0 or (page.has_next and requests < 1000):
            page = await list_games(store, TENANT, only, 1, after)
            requests, after = requests + 1, page.end_cursor
        results[name] |= {
            "walk_requests": requests,
            "walk_commands": await _commands(store) - before,
        }
        await store.close()
        return results
    finally:
        server.cleanup()


async def run(total: int, mine: int, repeats: int) -> dict[str, Any]:
    server = EmbeddedRedis().start()
    try:
        settings = Settings(redis_timeout=60.0)  # one bulk script runs for seconds
        store = RedisStore(connect(settings, server.url), settings)
        started = time.perf_counter()
        await fill(store, total, mine)
        filled = time.perf_counter() - started
        service = GameService(store)
        cases = {
            "player, all games (pages of 100)": (GameFilter(player_id=PLAYER), 100, 1000),
            "player, to act (pages of 100)": (GameFilter(to_act_player_id=PLAYER), 100, 1000),
            "player, ACTIVE TREETOPIA (no match)": (
                GameFilter(player_id=PLAYER, status="ACTIVE", kind="TREETOPIA"),
                100,
                1000,
            ),
            "tenant, newest 100": (GameFilter(), 100, 1),
            "tenant, FINISHED (none)": (GameFilter(status="FINISHED"), 100, 1),
            "tenant, TREETOPIA (none: one request's scan cap)": (
                GameFilter(kind="TREETOPIA"),
                100,
                1,
            ),
        }
        results: dict[str, Any] = {"games": total, "player_games": mine, "fill_s": filled}
        for name, (only, first, limit) in cases.items():
            timings = [await pages(service, only, first, limit) for _ in range(repeats)]
            results[name] = {
                "listed": timings[0][0],
                "median_ms": round(statistics.median(t for _, t in timings) * 1000, 1),
                "max_ms": round(max(t for _, t in timings) * 1000, 1),
            }
        results["redis_used_memory_mb"] = round(
            (await store.redis.info("memory"))["used_memory"] / 2**20
        )
        await store.close()
        return results
    finally:
        server.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--player-games", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--costs", action="store_true", help="commands per request")
    args = parser.parse_args()
    if args.costs:
        total = 10_000 if args.games == 1_000_000 else args.games
        print(json.dumps(asyncio.run(costs(total, args.repeats)), indent=2))
        return
    print(json.dumps(asyncio.run(run(args.games, args.player_games, args.repeats)), indent=2))


if __name__ == "__main__":
    main()
