"""How long a receiver outage holds a game's webhook events.

    python -m loadtests.webhook_outage [--outage 12] [--traffic 1]

On a private redis-server with one worker process (`python -m service.worker`, its default
retry schedule), a receiver in this process answers 503 for `--outage` seconds and 204 after.
Game A is created as the outage starts and three of its moves are made during it, so its
first event fails and the later ones queue behind it; with `--traffic` > 0 another game is
created every that many seconds all along (the tenant's other events). Reported: when the
last of game A's held events arrived, counted from the end of the outage. Run it once with
`--traffic 0` too: then only game A's own retries can find the receiver back.
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

state = {"down_until": 0.0}
arrived: dict[str, float] = {}  # webhook-id -> when it was first answered 2xx


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["content-length"]))
        down = time.time() < state["down_until"]
        self.send_response(503 if down else 204)
        self.end_headers()
        if not down:
            arrived.setdefault(self.headers["webhook-id"], time.time())

    def log_message(self, format: str, *args: object) -> None:
        pass


async def main(outage: float, traffic: float, bound: float) -> None:
    server = ThreadingHTTPServer(("127.0.0.1", free_port()), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    redis_server = EmbeddedRedis()
    redis_server.start()
    settings = Settings(webhook_allow_private=True)
    store = RedisStore(connect(settings, redis_server.url), settings)
    service = GameService(store)
    url = f"http://127.0.0.1:{server.server_port}/hooks"
    await EndpointStore(store, settings).create(DEFAULT_TENANT, url, [], "outage")
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
    try:
        await service.create("TREELINGS", 2, "warm-up", None)  # the worker is up once it arrives
        while not arrived:
            await asyncio.sleep(0.05)
        state["down_until"] = time.time() + outage
        game, chooser = games()["TREELINGS"], random.Random(1)
        loaded, tokens = await service.create("TREELINGS", 2, "held", None)
        current = loaded.state
        for _ in range(3):
            await asyncio.sleep(outage / 4)
            seat = game.to_act(current)[0]
            move = msgspec.to_builtins(chooser.choice(game.legal_moves(current, seat)))
            applied = await service.apply(loaded.id, tokens[seat], move, None, None)
            current = applied.game.state
        others, next_other = 0, time.time()
        deadline = state["down_until"] + bound
        keys = await store.redis.keys(f"wh:*:m:msg_{loaded.id}.*")
        wanted = {key.decode().rpartition(":m:")[2] for key in keys}
        while time.time() < deadline and not wanted <= arrived.keys():
            if traffic and time.time() >= next_other:
                await service.create("TREELINGS", 2, f"other-{others}", None)
                others, next_other = others + 1, next_other + traffic
            await asyncio.sleep(0.05)
            keys = await store.redis.keys(f"wh:*:m:msg_{loaded.id}.*")
            wanted = {key.decode().rpartition(":m:")[2] for key in keys}
        if wanted <= arrived.keys():
            last = max(arrived[m] for m in wanted) - state["down_until"]
            print(
                f"outage {outage:.0f} s, another game every {traffic or 'never'} s: game A's "
                f"{len(wanted)} held events all arrived {last:.1f} s after the receiver was back"
            )
        else:
            print(f"game A's events still held {bound:.0f} s after the receiver was back")
    finally:
        worker.terminate()
        worker.wait(60)
        await store.close()
        redis_server.cleanup()
        server.shutdown()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--outage", type=float, default=12)
    parser.add_argument("--traffic", type=float, default=1)
    parser.add_argument("--bound", type=float, default=420, help="seconds to wait at most")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.outage, arguments.traffic, arguments.bound))
