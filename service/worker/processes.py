"""The processes of `python -m service.worker`: RULES_WORKER_PROCESSES bot workers (0: one per
core it may use) on REDIS_URL.

With one process the worker runs in this one; with more, each is a child process and this one
only waits for them, passing SIGTERM/SIGINT on once, and exits as soon as any of them ends (so
that a supervisor such as Kubernetes restarts the whole set). Children stop when this process
is gone, and so does this one when RULES_WORKER_PARENT_PID (the `python -m service` that started
it) is. What a child runs lives here, not in `__main__`: a spawned child imports it by name
(multiprocessing never imports a package's `__main__` again).
"""

from __future__ import annotations

import contextlib
import logging
import math
import multiprocessing
import os
import select
import signal
import socket
import sys
import threading
import time
from multiprocessing.connection import wait
from pathlib import Path

import uvloop

from service import logs, metrics
from service.settings import Settings
from service.worker import serve
from service.worker.heartbeat import Heartbeat, serve_probe

CGROUP = Path("/sys/fs/cgroup")  # a container sees its own group here


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity), capped by its container's CPU
    quota (`docker run --cpus`, a pod's CPU limit: cgroup v2 `cpu.max`, v1 `cpu.cfs_*`)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # macOS
        cores = os.cpu_count() or 1
    for files in (("cpu.max",), ("cpu/cpu.cfs_quota_us", "cpu/cpu.cfs_period_us")):
        try:
            quota, period = " ".join((CGROUP / f).read_text() for f in files).split()
        except (OSError, ValueError):
            continue
        limit = quota_cores(quota, period)
        if limit is not None:
            return min(cores, limit)
    return cores


def quota_cores(quota: str, period: str) -> int | None:
    """Whole cores of a CPU quota of `quota` microseconds every `period` (rounded up: a
    quota of 1.5 cores keeps two processes busy), None for no quota."""
    if quota in ("max", "-1"):
        return None
    return max(1, math.ceil(int(quota) / int(period)))


def watch_parent(parent: int) -> None:
    """SIGTERM to this process (a drain: service/worker/__init__.py) once `parent` is gone, so a
    worker never outlives the process that started it, even one that was SIGKILLed.

    On Linux a pidfd of the parent becomes readable the moment it exits, whatever its threads
    do (PR_SET_PDEATHSIG would fire on the exit of the thread that forked); the parent is
    checked to be still ours after opening it, so a reused pid is never watched. Elsewhere
    (macOS) the parent pid is polled once a second: an orphan is adopted by another process."""

    def watch() -> None:
        with contextlib.suppress(AttributeError, OSError):  # no pidfd_open, or already gone
            pidfd = os.pidfd_open(parent)
            if os.getppid() == parent:
                select.select([pidfd], [], [])
        while os.getppid() == parent:
            time.sleep(1)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def run_one(settings: Settings, redis_url: str, index: int, parent: int) -> None:
    if parent:
        watch_parent(parent)
    logging.basicConfig(level=settings.log_level.upper(), format="%(asctime)s %(name)s %(message)s")
    logs.quiet_third_parties()
    heartbeat = Heartbeat(settings.worker_stall_seconds)
    if settings.worker_metrics_port:
        serve_probe(heartbeat, metrics.REGISTRY, settings.worker_metrics_port + index)
    name = f"{socket.gethostname()}-{os.getpid()}"
    uvloop.run(serve(settings, redis_url, name, heartbeat))


def main() -> int:
    settings = Settings.from_env()
    if settings.redis_url is None:
        print(
            "REDIS_URL is not set: a worker plays the games of the Redis it names", file=sys.stderr
        )
        return 2
    count = settings.worker_processes or usable_cores()
    if count == 1:
        run_one(settings, settings.redis_url, 0, settings.worker_parent_pid)
        return 0
    context = multiprocessing.get_context("spawn")
    children = [
        context.Process(target=run_one, args=(settings, settings.redis_url, index, os.getpid()))
        for index in range(count)
    ]
    for child in children:
        child.start()

    stopping: list[int] = []  # the signal passed on: a child is told to stop only once

    def stop(signum: int, frame: object) -> None:
        if stopping:
            return
        stopping.append(signum)
        for child in children:
            if child.pid is not None and child.is_alive():
                os.kill(child.pid, signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    if settings.worker_parent_pid:
        watch_parent(settings.worker_parent_pid)
    wait([child.sentinel for child in children])
    stop(signal.SIGTERM, None)  # one ended: the others too (unless they were told already)
    for child in children:
        child.join()
    return 1 if any(child.exitcode for child in children) else 0
