"""The load generator: a fixed number of clients, each on its own keep-alive connection, in a
closed loop (peak) or sharing a fixed schedule of start times (a given rate). Only the request
itself is timed; latencies and CPU are counted inside the measuring window, after a warm-up.
"""

from __future__ import annotations

import asyncio
import resource
import time
from dataclasses import dataclass, field
from typing import Any

from loadtests.servers import cpu_seconds
from loadtests.targets import Target
from loadtests.wire import Connection, HttpError

PERCENTILES = (50, 90, 99, 99.9)


def percentile(sorted_values: list[float], p: float) -> float:
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, max(0, round(p / 100 * len(sorted_values)) - 1))
    return sorted_values[index]


@dataclass
class Phase:
    target: str
    rate: float | None  # None: closed loop, as fast as the server answers
    seconds: float
    latencies: list[float] = field(default_factory=list)  # seconds, in the window
    by_kind: dict[str, list[float]] = field(default_factory=dict)
    errors: int = 0
    first_error: str = ""
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds in the window

    @property
    def requests(self) -> int:
        return len(self.latencies)

    def summary(self) -> dict[str, Any]:
        ordered = sorted(self.latencies)
        ms = {f"p{p:g}_ms": 1000 * percentile(ordered, p) for p in PERCENTILES}
        per_request = {
            f"{who}_cpu_ms": 1000 * spent / max(1, self.requests) for who, spent in self.cpu.items()
        }
        kinds = {
            kind: {"n": len(values), "p50_ms": 1000 * percentile(sorted(values), 50)}
            for kind, values in sorted(self.by_kind.items())
        }
        return {
            "rate": self.rate,
            "seconds": self.seconds,
            "requests": self.requests,
            "rps": self.requests / self.seconds,
            "errors": self.errors,
            "first_error": self.first_error,
            **ms,
            "max_ms": 1000 * ordered[-1] if ordered else float("nan"),
            **per_request,
            "by_kind": kinds,
            "curve_ms": [1000 * percentile(ordered, p) for p in CURVE],
        }


CURVE = [float(p) for p in range(1, 100)] + [99.5, 99.9]


async def run_phase(
    target: Target,
    host: str,
    port: int,
    clients: int,
    seconds: float,
    warmup: float,
    rate: float | None = None,
    pids: dict[str, int] | None = None,
) -> Phase:
    phase = Phase(target.name, rate, seconds)
    loop_start = time.perf_counter()
    window_start = loop_start + warmup
    window_end = window_start + seconds
    slots = iter(range(10**9))
    pids = pids or {}

    async def worker(client: int) -> None:
        connection = Connection(host, port)
        try:
            while True:
                request = await target.prepare(client, connection)
                if rate is not None:
                    due = loop_start + next(slots) / rate
                    delay = due - time.perf_counter()
                    if delay > 0:
                        await asyncio.sleep(delay)
                started = time.perf_counter()
                if started >= window_end:
                    return
                try:
                    status, body = await connection.request(
                        request.method, request.path, request.body, request.headers
                    )
                except HttpError as exc:
                    status, body = 599, str(exc).encode()
                elapsed = time.perf_counter() - started
                ok = target.check(client, status, body)
                if started < window_start:
                    continue
                if not ok:
                    phase.errors += 1
                    if not phase.first_error:
                        phase.first_error = f"{status} {body[:400]!r}"
                    continue
                phase.latencies.append(elapsed)
                phase.by_kind.setdefault(request.kind, []).append(elapsed)
        finally:
            await connection.close()

    async def meter() -> None:
        await asyncio.sleep(max(0.0, window_start - time.perf_counter()))
        before = _cpu(pids)
        await asyncio.sleep(max(0.0, window_end - time.perf_counter()))
        after = _cpu(pids)
        phase.cpu = {who: after[who] - before[who] for who in after}

    await asyncio.gather(meter(), *(worker(i) for i in range(clients)))
    target.finish()
    return phase


def _cpu(pids: dict[str, int]) -> dict[str, float]:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    spent = {"generator": usage.ru_utime + usage.ru_stime}
    for who, pid in pids.items():
        spent[who] = cpu_seconds(pid)
    return spent
