"""A worker's liveness probe: `/healthz` fails once a loop has not turned within
RULES_WORKER_STALL_SECONDS; `/metrics` is served beside it as before."""

from __future__ import annotations

import socket
import time

import httpx
from prometheus_client import CollectorRegistry, Counter

from service.worker.heartbeat import Heartbeat, serve_probe


def test_a_loop_that_stops_beating_is_stalled() -> None:
    heartbeat = Heartbeat(60)
    now = time.monotonic()
    assert heartbeat.stalled(now) == []
    assert heartbeat.stalled(now + 61) == ["jobs", "sweep", "clocks"]
    heartbeat.beats["jobs"] = heartbeat.beats["clocks"] = now + 30
    assert heartbeat.stalled(now + 61) == ["sweep"]
    heartbeat.beat("sweep")
    assert heartbeat.stalled() == []


def test_the_probe_fails_while_a_loop_is_stalled() -> None:
    registry = CollectorRegistry()
    Counter("probe_test", "a metric of the probe's registry", registry=registry).inc()
    heartbeat = Heartbeat(60)
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    serve_probe(heartbeat, registry, port)
    url = f"http://127.0.0.1:{port}"
    assert httpx.get(f"{url}/healthz").status_code == 200
    heartbeat.beats["sweep"] = time.monotonic() - 61
    answer = httpx.get(f"{url}/healthz")
    assert answer.status_code == 503 and answer.text == "stalled: sweep\n"
    assert "probe_test_total 1.0" in httpx.get(f"{url}/metrics").text
