"""What webhooks cost: a move's time with its tenant's outbox on against off, and how
many events one worker process delivers per second to a receiver on loopback.

    python -m loadtests.webhooks [--games 20] [--rounds 3]

Moves run through the service's own GameService (the code every API request runs) on a private
redis-server, whole Treelings games with random legal moves. Rounds alternate the outbox off
(the tenant has no endpoint) and on (an enabled endpoint, so each commit also appends its events
and a wake-up): the ratio of their times per move is the outbox's cost, both measured in the
same run. Then one worker process (`python -m service.worker`) delivers what the "on" rounds
queued to a threaded HTTP receiver in this process, and the events per second are reported.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import msgspec

from service.core import GameService
from service.core.access.keys import DEFAULT_TENANT
from service.games import games
from service.settings import Settings
from service.store import RedisStore, connect
from service.store.embedded import EmbeddedRedis, free_port
from service.webhooks.endpoints import EndpointStore

received = 0


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        global received
        self.rfile.read(int(self.headers["content-length"]))
        self.send_response(204)
        self.end_headers()
        received += 1

    def log_message(self, format: str, *args: object) -> None:
        pass


async def play(service: GameService, games_count: int, seed: str) -> tuple[float, int]:
    """Seconds spent in moves and the number of moves, over `games_count` whole games."""
    game, spent, moves = games()["TREELINGS"], 0.0, 0
    for index in range(games_count):
        loaded, tokens = await service.create("TREELINGS", 2, f"{seed}-{index}", None)
        state, chooser = loaded.state, random.Random(index)
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            move = msgspec.to_builtins(chooser.choice(game.legal_moves(state, seat)))
            started = time.perf_counter()
            applied = await service.apply(loaded.id, tokens[seat], move, None, None)
            spent += time.perf_counter() - started
            state, moves = applied.game.state, moves + 1
    return spent, moves


async def main(games_count: int, rounds: int) -> None:
    server = ThreadingHTTPServer(("127.0.0.1", free_port()), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    redis_server = EmbeddedRedis()
    redis_server.start()
    settings = Settings(webhook_allow_private=True)
    store = RedisStore(connect(settings, redis_server.url), settings)
    endpoints = EndpointStore(store, settings)
    service = GameService(store)
    try:
        per_move: dict[str, list[float]] = {"off": [], "on": []}
        endpoint = None
        await play(service, 2, "warm-up")
        for round_ in range(rounds):
            for mode in ("off", "on"):
                if mode == "on":
                    url = f"http://127.0.0.1:{server.server_port}/hooks"
                    endpoint = await endpoints.create(DEFAULT_TENANT, url, [], "bench")
                elif endpoint is not None:
                    await endpoints.delete(DEFAULT_TENANT, endpoint.id)
                spent, moves = await play(service, games_count, f"{mode}-{round_}")
                per_move[mode].append(spent / moves * 1000)
        off, on = min(per_move["off"]), min(per_move["on"])
        print(f"move with the outbox off: {off:.3f} ms, on: {on:.3f} ms (best of {rounds})")
        print(f"outbox cost per move: {on / off:.3f}x the move without it")

        queued = sum([await store.redis.xlen(key) for key in await store.redis.keys("wh:*:o:*")])
        worker = subprocess.Popen(
            [sys.executable, "-m", "service.worker"],
            env={
                **os.environ,
                "REDIS_URL": redis_server.url,
                "RULES_WORKER_PROCESSES": "1",
                "RULES_WEBHOOK_ALLOW_PRIVATE": "1",
                "LOG_LEVEL": "warning",
            },
        )
        deadline = time.perf_counter() + 600
        while received == 0 and time.perf_counter() < deadline:
            await asyncio.sleep(0.01)  # the worker starts
        started, first, seen = time.perf_counter(), received, received
        while time.perf_counter() < deadline:
            await asyncio.sleep(0.5)
            if received == seen:
                break  # nothing new for half a second: done
            seen = received
        elapsed = time.perf_counter() - started - 0.5
        worker.terminate()
        worker.wait(60)
        print(
            f"one worker process delivered {received} events ({queued} outbox entries): "
            f"{(received - first) / elapsed:.0f} events/s after its first"
        )
    finally:
        await store.close()
        redis_server.cleanup()
        server.shutdown()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.games, arguments.rounds))
