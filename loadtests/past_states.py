"""What `stateAt` costs against a plain read of the same game.

    python -m loadtests.past_states [--kinds TREETOPIA,TREELINE] [--rounds 3] [--json PATH]

One long 4-player game of each kind is played through GameService (the code every API request
runs) on a private redis-server: Treetopia to 360 versions (it stays active), the others to
their end (finished, history and checkpoints folded). Then, `--rounds` times over every version
of it, in the same process and order so the machine's load falls alike on each column:
- read: `GameService.read` and the spectator's view encoded as JSON, what `state` answers;
- stateAt: the same read, then `at_version` (latest checkpoint, decisions after it) and its view;
- full replay: the same read, then what stateAt did before checkpoints: the whole history up to
  the version and `engine.replay` from the seed, and its view.
Reported: mean and worst (p99) per call in ms, and each mean as a multiple of the read's.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from service.core import GameService
from service.core.game.loaded_game import LoadedGame
from service.engine import replay
from service.games import games
from service.settings import Settings
from service.store import RedisStore, connect
from service.store.embedded import EmbeddedRedis

TREETOPIA_VERSIONS = 360
_json = msgspec.json.Encoder()


async def long_game(service: GameService, kind: str) -> str:
    """A long game of `kind`: the longest of a few seeds, Treetopia cut at 360 versions."""
    longest, length = "", -1
    for seed in range(4):
        loaded, tokens = await service.create(kind, 4, f"past-{kind}-{seed}", None)
        game, chooser = games()[kind], random.Random(seed)
        while not game.is_over(loaded.state) and (
            kind != "TREETOPIA" or loaded.record.version < TREETOPIA_VERSIONS
        ):
            seat = game.to_act(loaded.state)[0]
            move = msgspec.to_builtins(chooser.choice(game.legal_moves(loaded.state, seat)))
            loaded = (await service.apply(loaded.id, tokens[seat], move, None, None)).game
        if loaded.record.version > length:
            longest, length = loaded.id, loaded.record.version
    return longest


async def full_replay(service: GameService, loaded: LoadedGame, version: int) -> Any:
    """stateAt as it was before checkpoints: every decision from the seed."""
    record = loaded.record
    entries = await service.store.history(loaded.id, 0, version + 1)
    decided = [e for e in entries if e.version <= version and not e.forced and e.move is not None]
    if any(e.version == version + 1 and e.forced for e in entries) and decided:
        decided.pop()
    decisions = [(e.seat, e.move) for e in decided]
    state = replay(loaded.game, record.players, record.options, record.seed, decisions)
    return loaded.game.view(state, None)


async def timed(call: Callable[[], Awaitable[Any]]) -> float:
    started = time.perf_counter()
    _json.encode(await call())
    return (time.perf_counter() - started) * 1000


async def measure_kind(service: GameService, kind: str, rounds: int) -> dict[str, Any]:
    game_id = await long_game(service, kind)
    probe = await service.read(game_id, None)
    columns: dict[str, list[float]] = {"read": [], "stateAt": [], "full replay": []}
    for _ in range(rounds):
        for version in range(probe.record.version):

            async def read() -> Any:
                return (await service.read(game_id, None)).view()

            async def state_at(version: int = version) -> Any:
                loaded = await service.read(game_id, None)
                return (await service.at_version(loaded, version)).view()

            async def old(version: int = version) -> Any:
                return await full_replay(service, await service.read(game_id, None), version)

            columns["read"].append(await timed(read))
            columns["stateAt"].append(await timed(state_at))
            columns["full replay"].append(await timed(old))
    read_mean = statistics.fmean(columns["read"])
    return {
        "kind": kind,
        "versions": probe.record.version,
        "status": probe.status(),
        **{
            name: {
                "mean_ms": round(statistics.fmean(times), 3),
                "p99_ms": round(statistics.quantiles(times, n=100)[98], 3),
                "x_read": round(statistics.fmean(times) / read_mean, 2),
            }
            for name, times in columns.items()
        },
    }


async def measure(kinds: list[str], rounds: int, redis_url: str) -> list[dict[str, Any]]:
    settings = Settings()
    store = RedisStore(connect(settings, redis_url), settings)
    try:
        return [await measure_kind(GameService(store), kind, rounds) for kind in kinds]
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kinds", default="TREETOPIA,TREELINE")
    parser.add_argument("--rounds", type=int, default=3, help="passes over every version")
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()
    redis = EmbeddedRedis().start()
    try:
        results = asyncio.run(measure(args.kinds.split(","), args.rounds, redis.url))
    finally:
        redis.cleanup()
    print(
        f"{'game':<12} {'versions':>8} {'status':<9} {'call':<12} {'mean ms':>8} {'p99 ms':>8} {'x read':>7}"
    )
    for row in results:
        for name in ("read", "stateAt", "full replay"):
            cell = row[name]
            print(
                f"{row['kind']:<12} {row['versions']:>8} {row['status']:<9} {name:<12} "
                f"{cell['mean_ms']:>8} {cell['p99_ms']:>8} {cell['x_read']:>7}"
            )
    if args.json:
        with open(args.json, "wb") as out:
            out.write(msgspec.json.format(msgspec.json.encode(results)))


if __name__ == "__main__":
    main()
