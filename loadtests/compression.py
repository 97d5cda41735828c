"""What compression saves and costs per game kind (service/api/edge/compression.py): the bytes
of a seat's view mid-game (the benchmark's GraphQL read, as the seat to act) on the wire from
the service under test, as it is, gzipped and as brotli; and the CPU the server spends to
compress one such answer, timed here on the very bodies with the middleware's own settings
(the bench's `graphql-read-gzip` and `graphql-read-br` rows show the same end to end, but on a
busy machine their difference to `graphql-read` is within the noise)."""

from __future__ import annotations

import time
import zlib
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import brotli

from loadtests.targets import GraphQLRead, Pool
from loadtests.wire import Connection
from service.api.edge.compression import BROTLI_QUALITY, GZIP_LEVEL

ENCODINGS = ("identity", "gzip", "br")
REPEAT = 200


def _gzip(body: bytes) -> bytes:
    compressor = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    return compressor.compress(body) + compressor.flush()


COMPRESS: dict[str, Callable[[bytes], bytes]] = {
    "gzip": _gzip,
    "br": lambda body: brotli.compress(body, quality=BROTLI_QUALITY),
}


async def measure(pool: Pool, host: str, port: int, per_kind: int = 8) -> dict[str, Any]:
    """Mean bytes per encoding of up to `per_kind` games of each kind as they stand (those
    still being played first), and the mean CPU microseconds to compress one."""
    tables = sorted(pool.played or list(pool.waiting), key=lambda table: table.done)
    by_kind: dict[str, list[Any]] = defaultdict(list)
    for table in tables:
        if len(by_kind[table.script.kind]) < per_kind:
            by_kind[table.script.kind].append(table)
    read = GraphQLRead(pool, 1)
    connection = Connection(host, port)
    sizes: dict[str, Any] = {}
    for kind, chosen in sorted(by_kind.items()):
        totals = dict.fromkeys(ENCODINGS, 0)
        plain: list[bytes] = []
        for table in chosen:
            request = read.request(table)
            for encoding in ENCODINGS:
                headers = f"{request.headers}Accept-Encoding: {encoding}\r\n"
                status, body = await connection.request(
                    request.method, request.path, request.body, headers
                )
                assert status == 200, body[:300]
                totals[encoding] += len(body)
                if encoding == "identity":
                    plain.append(body)
        sizes[kind] = {e: round(total / len(chosen)) for e, total in totals.items()}
        for encoding, compress in COMPRESS.items():
            started = time.process_time()
            for _ in range(REPEAT):
                for body in plain:
                    compress(body)
            spent = time.process_time() - started
            sizes[kind][f"{encoding}_us"] = round(1e6 * spent / (REPEAT * len(plain)), 1)
    await connection.close()
    return sizes


def table(sizes: dict[str, Any]) -> str:
    lines = [
        f"{'kind':<18} {'identity B':>10} {'gzip B':>7} {'saved':>6} {'gzip us':>8} "
        f"{'br B':>7} {'saved':>6} {'br us':>7}"
    ]
    for kind, row in sizes.items():
        plain = row["identity"] or 1
        lines.append(
            f"{kind:<18} {row['identity']:>10} {row['gzip']:>7} {1 - row['gzip'] / plain:>6.0%} "
            f"{row['gzip_us']:>8.1f} {row['br']:>7} {1 - row['br'] / plain:>6.0%} "
            f"{row['br_us']:>7.1f}"
        )
    return "\n".join(lines)
