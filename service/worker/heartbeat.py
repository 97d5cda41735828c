"""A worker's liveness, so that a supervisor restarts a worker that is alive but stuck.

Its job loop, its sweep and its clock sweep each beat once per iteration, and the liveness
probe (`/healthz` beside `/metrics`, service/worker/processes.py) fails when one of them has not
beaten for RULES_WORKER_STALL_SECONDS. An iteration that ended on a Redis failure counts: a
restart would not bring Redis back. Idle, the job loop still turns once per poll interval (the
sweep rings it).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING
from wsgiref.simple_server import WSGIRequestHandler, make_server

from prometheus_client import CollectorRegistry, make_wsgi_app
from prometheus_client.exposition import ThreadingWSGIServer

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

LOOPS = ("jobs", "sweep", "clocks")


class Heartbeat:
    def __init__(self, bound: float) -> None:
        self.bound = bound
        self.beats = dict.fromkeys(LOOPS, time.monotonic())

    def beat(self, loop: str) -> None:
        self.beats[loop] = time.monotonic()

    def stalled(self, now: float | None = None) -> list[str]:
        """The loops that have not beaten within the bound."""
        now = time.monotonic() if now is None else now
        return [loop for loop, at in self.beats.items() if now - at > self.bound]


def app(heartbeat: Heartbeat, registry: CollectorRegistry) -> WSGIApplication:
    """`/healthz`: 200, or 503 naming the stalled loops; every other path: the metrics."""
    metrics_app = make_wsgi_app(registry)

    def serve(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("PATH_INFO") != "/healthz":
            answer: Iterable[bytes] = metrics_app(environ, start_response)
            return answer
        stalled = heartbeat.stalled()
        status = "503 Service Unavailable" if stalled else "200 OK"
        start_response(status, [("Content-Type", "text/plain")])
        return [f"stalled: {', '.join(stalled)}\n".encode() if stalled else b"ok\n"]

    return serve


class _Quiet(WSGIRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # a probe a second
        pass


def serve_probe(heartbeat: Heartbeat, registry: CollectorRegistry, port: int) -> None:
    """`/metrics` and `/healthz` on `port`, on a daemon thread."""
    server = make_server("", port, app(heartbeat, registry), ThreadingWSGIServer, _Quiet)
    threading.Thread(target=server.serve_forever, name="probe", daemon=True).start()
