"""What localizable messages cost REST's game reads (docs/api.md section 15): CPU and bytes per
read of GET game, legal-moves, history and scores for each kind, with the message fields
(`labelMessage`, `detailMessages`) and without them (`messages=false`); and GraphQL's game
read with and without those fields in its query (docs/performance.md, "Messages on REST reads").

    python -m loadtests.messages [--games 3] [--rounds 15] [--reads 30] [--json PATH]

The app (`service.app.create_app`) runs in this process on a private redis-server and is
called as ASGI, without a socket or an HTTP parser, so CPU time of this process
(time.process_time) is the read's own: routing, the guard, the store's read, the rendering and
the JSON. Every kind gets `--games` 4-seat games (2-seat if it has no more) played halfway by
random legal moves, read as the seat to act. Each round reads every cell (`--reads` times over
the games of its kind) and the floor, GET /healthz through the same app, so load on the machine
falls alike on all; a cell's cost is its median over the rounds, printed in microseconds and
as a multiple of the floor. Bytes are an answer's as sent without compression and gzipped at
the middleware's level. A server that ignores `messages=false` (before it existed) gets its
"without" bytes from its answer with the message fields taken out, and no CPU figure.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec
import uvloop

from loadtests.scripts import play_random
from service.api.edge.compression import GZIP_LEVEL
from service.app import create_app
from service.games import games
from service.settings import Settings
from service.store.embedded import EmbeddedRedis

ROUTES = {"game": "", "legal-moves": "/legal-moves", "history": "/history", "scores": "/scores"}
# GraphQL's read of the same fields as REST's game, minus the seats and clocks (the fast path
# serves it), with the message fields or without: each variant asks for what it shows.
GRAPHQL = (
    "query Game($id: ID!) {{ game(id: $id) {{ id kind version status players toAct viewer state "
    "legalMoves {{ move label{label} }} scores {{ final winners entries {{ seat points breakdown "
    "tiebreak team seatPoints{detail} }} }} }} }}"
)
MESSAGE_SELECTION = " {id params {name type value} text}"
GRAPHQL_QUERIES = {
    "with": GRAPHQL.format(
        label=" labelMessage" + MESSAGE_SELECTION, detail=" detailMessages" + MESSAGE_SELECTION
    ),
    "without": GRAPHQL.format(label="", detail=""),
}
MESSAGE_FIELDS = ("labelMessage", "detailMessages")
VARIANTS = ("with", "without")


class App:
    """The ASGI app called directly: one request in, status and body out."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def call(
        self, method: str, path: str, query: str = "", token: str | None = None, body: bytes = b""
    ) -> tuple[int, bytes]:
        headers = [(b"host", b"bench"), (b"content-type", b"application/json")]
        if token is not None:
            headers.append((b"authorization", f"Bearer {token}".encode()))
        headers.append((b"content-length", str(len(body)).encode()))
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": query.encode(),
            "root_path": "",
            "headers": headers,
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 8000),
        }
        sent = False
        status, chunks = 0, []

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if sent:
                await asyncio.Event().wait()  # no disconnect while the answer is made
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(scope, receive, send)
        return status, b"".join(chunks)


@dataclass
class Seat:
    """A game halfway through, and the token of the seat to act."""

    kind: str
    game_id: str
    token: str


async def halfway(app: App, kind: str, index: int) -> Seat:
    game = games()[kind]
    players = min(4, game.max_players)
    seed = f"messages-{kind}-{index}"
    script, _, _ = play_random(kind, players, seed, random.Random(index))
    half = len(script.decisions) // 2
    request = {"kind": kind, "players": players, "seed": seed}
    status, raw = await app.call("POST", "/v1/games", body=msgspec.json.encode(request))
    assert status == 201, raw[:300]
    created = msgspec.json.decode(raw)
    game_id = created["game"]["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    for decision in script.decisions[:half]:
        move = msgspec.json.encode({"move": decision.move})
        path = f"/v1/games/{game_id}/moves"
        status, raw = await app.call("POST", path, token=tokens[decision.seat], body=move)
        assert status == 200, raw[:300]
    return Seat(kind, game_id, tokens[script.decisions[half].seat])


def without_messages(value: Any) -> Any:
    """An answer with the message fields taken out (what `messages=false` leaves)."""
    if isinstance(value, dict):
        return {k: without_messages(v) for k, v in value.items() if k not in MESSAGE_FIELDS}
    if isinstance(value, list):
        return [without_messages(v) for v in value]
    return value


def gzipped(body: bytes) -> int:
    compressor = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    return len(compressor.compress(body) + compressor.flush())


async def cpu_per_read(reads: int, call: Callable[[int], Any]) -> float:
    """Microseconds of this process's CPU per call."""
    started = time.process_time()
    for index in range(reads):
        await call(index)
    return 1e6 * (time.process_time() - started) / reads


async def measure(redis_url: str, n_games: int, rounds: int, reads: int) -> dict[str, Any]:
    settings = Settings(rate_limit_per_token=0, rate_limit_per_address=0)
    app = App(create_app(settings, redis_url))
    seats = {kind: [await halfway(app, kind, i) for i in range(n_games)] for kind in games()}

    def read(kind: str, route: str, variant: str) -> Callable[[int], Any]:
        query = "messages=false" if variant == "without" else ""

        async def call(index: int) -> bytes:
            seat = seats[kind][index % n_games]
            if route == "graphql":
                variables = {"id": seat.game_id}
                request = {"query": GRAPHQL_QUERIES[variant], "variables": variables}
                payload = msgspec.json.encode(request)
                status, body = await app.call("POST", "/graphql", "", seat.token, payload)
                assert status == 200 and b'"errors"' not in body, body[:300]
                return body
            path = f"/v1/games/{seat.game_id}{ROUTES[route]}"
            status, body = await app.call("GET", path, query, seat.token)
            assert status == 200, body[:300]
            return body

        return call

    results: dict[str, Any] = {"kinds": {}}
    honoured = True
    for kind in seats:
        for route in [*ROUTES, "graphql"]:
            sizes: dict[str, list[int]] = {
                "with": [],
                "without": [],
                "with_gz": [],
                "without_gz": [],
            }
            for index in range(n_games):
                with_body = await read(kind, route, "with")(index)
                without_body = await read(kind, route, "without")(index)
                if without_body == with_body:  # a server before messages=false (REST)
                    honoured = False
                    without_body = msgspec.json.encode(
                        without_messages(msgspec.json.decode(with_body))
                    )
                else:
                    stripped = without_messages(msgspec.json.decode(with_body))
                    assert msgspec.json.decode(without_body) == stripped, (kind, route)
                for name, body in (("with", with_body), ("without", without_body)):
                    sizes[name].append(len(body))
                    sizes[f"{name}_gz"].append(gzipped(body))
            results["kinds"].setdefault(kind, {})[route] = {
                f"{name}_bytes": round(statistics.fmean(values)) for name, values in sizes.items()
            }
    variants = VARIANTS if honoured else ("with",)

    async def floor(_: int) -> None:
        status, _body = await app.call("GET", "/healthz")
        assert status == 200

    spent: dict[tuple[str, str, str], list[float]] = {}
    floors: list[float] = []
    for _ in range(rounds + 1):  # the first round warms caches and is left out
        floors.append(await cpu_per_read(reads, floor))
        for kind in seats:
            for route in [*ROUTES, "graphql"]:
                for variant in variants:
                    cost = await cpu_per_read(reads, read(kind, route, variant))
                    spent.setdefault((kind, route, variant), []).append(cost)
    floor_us = statistics.median(floors[1:])
    results["floor_us"] = round(floor_us, 1)
    for (kind, route, variant), costs in spent.items():
        cell = results["kinds"][kind][route]
        cell[f"{variant}_us"] = round(statistics.median(costs[1:]), 1)
        cell[f"{variant}_x_floor"] = round(statistics.median(costs[1:]) / floor_us, 2)
    return results


def table(results: dict[str, Any]) -> str:
    lines = [
        f"floor (GET /healthz through the same app): {results['floor_us']} us of CPU per request",
        f"{'kind':<18} {'read':<12} {'with us':>8} {'x floor':>7} {'w/o us':>7} {'x floor':>7} "
        f"{'CPU +':>6} {'with B':>7} {'w/o B':>7} {'B x':>5} {'with gz':>7} {'w/o gz':>7} "
        f"{'gz x':>5}",
    ]
    for kind, routes in results["kinds"].items():
        for route, cell in routes.items():
            without = cell.get("without_us")
            extra = f"{cell['with_us'] / without - 1:>6.0%}" if without else f"{'-':>6}"
            lines.append(
                f"{kind:<18} {route:<12} {cell['with_us']:>8.1f} {cell['with_x_floor']:>7.2f} "
                f"{without or '-':>7} {cell.get('without_x_floor', '-'):>7} {extra} "
                f"{cell['with_bytes']:>7} {cell['without_bytes']:>7} "
                f"{cell['with_bytes'] / cell['without_bytes']:>5.2f} "
                f"{cell['with_gz_bytes']:>7} {cell['without_gz_bytes']:>7} "
                f"{cell['with_gz_bytes'] / cell['without_gz_bytes']:>5.2f}"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games of each kind")
    parser.add_argument("--rounds", type=int, default=15, help="timed passes over every cell")
    parser.add_argument("--reads", type=int, default=30, help="reads per cell and round")
    parser.add_argument("--json", help="also write the results to this JSON file")
    args = parser.parse_args()
    redis = EmbeddedRedis().start()
    try:
        results = uvloop.run(measure(redis.url, args.games, args.rounds, args.reads))
    finally:
        redis.cleanup()
    print(table(results))
    if args.json:
        with open(args.json, "wb") as out:
            out.write(msgspec.json.format(msgspec.json.encode(results)))


if __name__ == "__main__":
    main()
