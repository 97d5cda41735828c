"""Tiny clocks against another tenant's: how late past its deadline one
tenant's clock runs out while another tenant's games at the minimum clock keep the worker busy.

    python -m loadtests.clocks [--games 200] [--runs 5]

A private redis-server and one worker process (`python -m service.worker`, the default poll
interval). Tenant A creates `--games` 4-player Treetopia games with the minimum clock
(perDecisionSeconds 1, AUTO_GREEDY) and nobody plays them: every second each of them times out,
applied by the worker's sweep. Once they run, tenant B creates one 2-player Treelings game with
a 2 s FORFEIT clock, `--runs` times in turn, and waits for its end on the game's events: the
figure is the time the end arrived minus the game's deadline (median and max over the runs).
`--games 0` gives the same figure without tenant A. It also prints tenant A's timeouts per
second and the worker's CPU time per timeout: the demand is `--games` timeouts a second, which
the worker meets only with that many times its CPU per timeout to spare.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time

from loadtests.servers import cpu_seconds
from service.core import GameService
from service.settings import Settings
from service.store import RedisStore, connect
from service.store.embedded import EmbeddedRedis

KEYS = ("a:tenant-a-key", "b:tenant-b-key")
MINIMUM = {"perDecisionSeconds": 1, "onTimeout": "AUTO_GREEDY"}
FORFEIT = {"perDecisionSeconds": 2, "onTimeout": "FORFEIT"}


async def late_by(service: GameService, store: RedisStore) -> float:
    """Seconds between tenant B's deadline and its game's end reaching a subscriber. Created at
    a random moment: a game created just after the end of the last one would be in step with
    the sweep's passes."""
    await asyncio.sleep(random.random())
    loaded, _ = await service.create("TREELINGS", 2, None, None, "tenant-b-key", clock=FORFEIT)
    deadline = loaded.record.deadline
    assert deadline is not None
    async with store.events(loaded.id, lambda: None) as events:
        while True:
            event = json.loads(await asyncio.wait_for(events.next(), 120))
            if event["status"] != "ACTIVE":
                return time.time() - deadline


async def main(games_count: int, runs: int) -> None:
    redis_server = EmbeddedRedis()
    redis_server.start()
    settings = Settings(api_keys=KEYS)
    store = RedisStore(connect(settings, redis_server.url), settings)
    service = GameService(store, KEYS)
    environment = {
        **os.environ,
        "REDIS_URL": redis_server.url,
        "RULES_WORKER_PROCESSES": "1",
        "RULES_API_KEYS": ",".join(KEYS),
    }
    worker = subprocess.Popen(
        [sys.executable, "-m", "service.worker"], env={**environment, "LOG_LEVEL": "warning"}
    )
    try:
        await asyncio.sleep(2)  # the worker starts (its imports are not the clocks' CPU)
        ids, created, cpu_before = [], time.perf_counter(), cpu_seconds(worker.pid)
        for _ in range(games_count):
            loaded, _ = await service.create(
                "TREETOPIA", 4, None, None, "tenant-a-key", clock=MINIMUM
            )
            ids.append(loaded.id)
        await asyncio.sleep(3)  # a few rounds of A's timeouts first: the steady state
        lateness = [await late_by(service, store) for _ in range(runs)]
        elapsed = time.perf_counter() - created
        cpu = cpu_seconds(worker.pid) - cpu_before
        events = [entry.event for game_id in ids for entry in await store.history(game_id)]
        timeouts = events.count("TIMEOUT")
        print(
            f"tenant B's 2 s clock ran out late by median {statistics.median(lateness):.3f} s, "
            f"max {max(lateness):.3f} s over {runs} runs "
            f"({', '.join(f'{s:.3f}' for s in lateness)}); tenant A: {games_count} games at the "
            f"minimum clock, {timeouts} timeouts applied ({timeouts / elapsed:.0f}/s); the "
            f"worker used {cpu / elapsed:.0%} of a core"
            + (f", {cpu / timeouts * 1000:.1f} ms of CPU a timeout" if timeouts else "")
        )
    finally:
        worker.terminate()
        worker.wait(60)
        await store.close()
        redis_server.cleanup()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.games, arguments.runs))
