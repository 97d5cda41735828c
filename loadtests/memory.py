"""Redis memory per game: every key of a game, as `MEMORY USAGE` counts it.

    python -m loadtests.memory [--games 3] [--players 4] [--json PATH]

Games of every kind are played to the end through the service's own GameService (the code every
API request runs) on a private redis-server, with random legal moves and an idempotency key
on every move (a 32-character key, as a careful client sends one). For each kind it reports:
- active: the bytes of all keys of a game and the bytes it grows by per decision (history
  entry and idempotency entry), measured just before the last move;
- finished: all keys right after the last move (the idempotency hash still kept for
  RULES_IDEMPOTENCY_GRACE) and after the grace (the record with the folded history only),
  the figure the 4 KiB goal is about;
- compact: the game's record packed for an archive (service/core/records/compact.py), its
  header and the bits its steps take per decision, against the goal of at most 120 B a game
  and a byte a decision.
The largest game of each kind over `--games` seeds is reported.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import secrets
from typing import Any

import msgspec

from service.core import GameService
from service.core.records.compact import Packed, pack
from service.core.records.format import GameRecord
from service.games import games
from service.settings import Settings
from service.store import RedisStore, connect
from service.store.embedded import EmbeddedRedis

GOAL_BYTES = 4096
COMPACT_HEADER_GOAL = 120  # bytes a game, besides a byte a decision


async def game_bytes(store: RedisStore, game_id: str) -> dict[str, int]:
    """MEMORY USAGE of each key of a game (record, history list, idempotency hash, checkpoints)."""
    base = f"g:{{{game_id}}}"
    sizes: dict[str, int] = {}
    keys = (
        ("record", base),
        ("history", f"{base}:h"),
        ("idempotency", f"{base}:i"),
        ("checkpoints", f"{base}:c"),
    )
    for name, key in keys:
        used = await store.redis.memory_usage(key, samples=0)
        sizes[name] = int(used or 0)
    return sizes


async def measure_game(service: GameService, kind: str, players: int, seed: str) -> dict[str, Any]:
    loaded, tokens = await service.create(kind, players, seed, None)
    game, state, chooser = games()[kind], loaded.state, random.Random(seed)
    created = sum((await game_bytes(service.store, loaded.id)).values())
    before_last: dict[str, int] = {}
    version, decisions = loaded.record.version, 0
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        move = msgspec.to_builtins(chooser.choice(game.legal_moves(state, seat)))
        before_last = await game_bytes(service.store, loaded.id)
        applied = await service.apply(loaded.id, tokens[seat], move, None, secrets.token_hex(16))
        state, version = applied.game.state, applied.game.record.version
        decisions += 1
    finished = await game_bytes(service.store, loaded.id)
    active = sum(before_last.values())
    record = msgspec.convert(await service.export_record(loaded.id, None), GameRecord)
    packed = pack(record)
    steps_bytes = len(msgspec.msgpack.decode(packed, type=Packed).number)
    return {
        "kind": kind,
        "decisions": decisions,
        "versions": version,
        "active_bytes_before_last_move": active,
        "bytes_per_decision": round((active - created) / max(decisions - 1, 1), 1),
        "finished_bytes": sum(finished.values()),
        "finished_bytes_after_grace": finished["record"]
        + finished["history"]
        + finished["checkpoints"],
        "finished_keys": finished,
        "record_json_bytes": len(msgspec.json.encode(record)),
        "compact_bytes": len(packed),
        "compact_header_bytes": len(packed) - steps_bytes,
        "compact_bits_per_decision": round(8 * steps_bytes / max(decisions, 1), 2),
    }


async def measure(games_per_kind: int, players: int, redis_url: str) -> dict[str, Any]:
    settings = Settings()
    store = RedisStore(connect(settings, redis_url), settings)
    service = GameService(store)
    results: dict[str, Any] = {}
    try:
        for kind in sorted(games()):
            rows = [
                await measure_game(service, kind, players, f"memory-{kind}-{i}")
                for i in range(games_per_kind)
            ]
            worst = max(rows, key=lambda row: row["finished_bytes_after_grace"])
            results[kind] = {
                **worst,
                "bytes_per_decision": max(row["bytes_per_decision"] for row in rows),
                "finished_bytes": max(row["finished_bytes"] for row in rows),
                "active_bytes_before_last_move": max(
                    row["active_bytes_before_last_move"] for row in rows
                ),
                "games": games_per_kind,
                "compact_bytes": max(row["compact_bytes"] for row in rows),
                "compact_header_bytes": max(row["compact_header_bytes"] for row in rows),
                "compact_bits_per_decision": max(row["compact_bits_per_decision"] for row in rows),
            }
    finally:
        await store.close()
    return results


def loaded(results: dict[str, Any]) -> str:
    lines = [
        f"{'game (4 players)':<20} {'decisions':>9} {'B/decision':>10} {'active B':>9} "
        f"{'finished B':>10} {'after grace B':>13}  goal <= {GOAL_BYTES} B after the grace"
    ]
    for kind, row in results.items():
        ok = "ok" if row["finished_bytes_after_grace"] <= GOAL_BYTES else "OVER"
        lines.append(
            f"{kind:<20} {row['decisions']:>9} {row['bytes_per_decision']:>10.1f} "
            f"{row['active_bytes_before_last_move']:>9} {row['finished_bytes']:>10} "
            f"{row['finished_bytes_after_grace']:>13}  {ok}"
        )
    lines += [
        "",
        f"{'compact (4 players)':<20} {'decisions':>9} {'record B':>9} {'compact B':>9} "
        f"{'header B':>8} {'bits/dec':>8} {'x after grace':>13}  goal <= 120 B + 1 B/decision",
    ]
    for kind, row in results.items():
        goal = COMPACT_HEADER_GOAL + row["decisions"]
        ok = "ok" if row["compact_bytes"] <= goal else "OVER"
        lines.append(
            f"{kind:<20} {row['decisions']:>9} {row['record_json_bytes']:>9} "
            f"{row['compact_bytes']:>9} {row['compact_header_bytes']:>8} "
            f"{row['compact_bits_per_decision']:>8.2f} "
            f"{row['compact_bytes'] / row['finished_bytes_after_grace']:>13.3f}  {ok}"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games per kind (the largest counts)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()
    redis = EmbeddedRedis().start()
    try:
        results = asyncio.run(measure(args.games, args.players, redis.url))
    finally:
        redis.cleanup()
    print(loaded(results))
    if args.json:
        with open(args.json, "wb") as out:
            out.write(msgspec.json.format(msgspec.json.encode(results)))


if __name__ == "__main__":
    main()
