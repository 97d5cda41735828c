"""What one bot lane costs, for the capacity model of the 32 lanes (docs/reliability.md,
"How many lanes").

    python -m loadtests.lanes [--games 600] [--idle-seconds 10] [--tenants 1,10]

It starts a private redis-server and the service (uvicorn, as the container runs it), then:

1. job path: `--games` 4-player Treelings games whose seats 0-2 are RANDOM bots (a decision
   costs next to nothing, so what is measured is the path of a job, not thinking) are queued
   before one worker process starts; the worker plays the backlog. It prints the jobs per second
   of that one process, and per job the Redis commands and Redis CPU (`INFO`), and the
   worker's CPU;
2. idle: one worker process with no job, for each tenant count of `--tenants` (RULES_API_KEYS),
   polling every second: Redis commands and CPU per second. That is what every lane costs
   every worker whether or not it holds work.

Results go to --out/lanes.json (git-ignored).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import redis

from loadtests.servers import SERVICE_APP, asgi, cpu_seconds
from service.store.embedded import EmbeddedRedis, free_port
from service.store.jobs import LANES

CREATE = """mutation C($input: CreateGameInput!) { createGame(input: $input) { game { id } } }"""
BOTS = [{"seat": seat, "strategy": "RANDOM"} for seat in range(3)]


def redis_counters(client: redis.Redis) -> tuple[int, float]:
    """Commands processed and CPU seconds used by the server so far."""
    stats, cpu = client.info("stats"), client.info("cpu")
    return int(stats["total_commands_processed"]), cpu["used_cpu_user"] + cpu["used_cpu_sys"]


def backlog(client: redis.Redis) -> int:
    return sum(int(client.xlen(key)) for key in client.scan_iter("bots:*", _type="stream"))


def played(port: int) -> float:
    text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text
    for line in text.splitlines():
        if line.startswith('rules_bot_jobs_total{outcome="played"}'):
            return float(line.split()[-1])
    return 0.0


@contextmanager
def worker(redis_url: str, port: int, **settings: str) -> Iterator[subprocess.Popen[bytes]]:
    env = {**os.environ, "REDIS_URL": redis_url, "RULES_WORKER_PROCESSES": "1",
           "RULES_WORKER_METRICS_PORT": str(port), "LOG_LEVEL": "warning", **settings}  # fmt: skip
    process = subprocess.Popen([sys.executable, "-m", "service.worker"], env=env)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=1)
                break
            except httpx.HTTPError:
                assert process.poll() is None and time.monotonic() < deadline, "no worker"
                time.sleep(0.05)
        yield process
    finally:
        process.terminate()
        process.wait(60)


def job_path(redis_url: str, api: str, client: redis.Redis, games: int) -> dict[str, Any]:
    with httpx.Client(base_url=api, timeout=60) as http:
        for _ in range(games):
            variables = {"input": {"kind": "TREELINGS", "players": 4, "bots": BOTS}}
            answer = http.post("/graphql", json={"query": CREATE, "variables": variables})
            assert "errors" not in answer.json(), answer.text
    port = free_port()
    with worker(redis_url, port) as process:
        while played(port) == 0:  # measured from the first job played, start-up left out
            time.sleep(0.01)
        start, jobs0 = time.monotonic(), played(port)
        commands0, cpu0 = redis_counters(client)
        worker_cpu0 = cpu_seconds(process.pid)
        while backlog(client):
            time.sleep(0.05)
        elapsed, jobs = time.monotonic() - start, played(port) - jobs0
        commands, cpu = redis_counters(client)
        worker_cpu = cpu_seconds(process.pid) - worker_cpu0
    return {
        "jobs": jobs,
        "seconds": round(elapsed, 2),
        "jobs_per_second": round(jobs / elapsed, 1),
        "redis_commands_per_job": round((commands - commands0) / jobs, 1),
        "redis_cpu_us_per_job": round((cpu - cpu0) / jobs * 1e6, 1),
        "worker_cpu_ms_per_job": round(worker_cpu / jobs * 1000, 2),
    }


def idle(redis_url: str, client: redis.Redis, tenants: int, seconds: float) -> dict[str, Any]:
    keys = ",".join(f"t{index}:secret-{index}" for index in range(tenants))
    with worker(redis_url, free_port(), RULES_API_KEYS=keys, RULES_WORKER_POLL_SECONDS="1"):
        time.sleep(3)  # past start-up (group creation)
        commands0, cpu0 = redis_counters(client)
        time.sleep(seconds)
        commands, cpu = redis_counters(client)
    return {
        "tenants": tenants,
        "streams_per_tenant_set": LANES,
        "redis_commands_per_second": round((commands - commands0) / seconds, 1),
        "redis_cpu_percent": round((cpu - cpu0) / seconds * 100, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--idle-seconds", type=float, default=10)
    parser.add_argument("--tenants", default="1,10")
    parser.add_argument("--out", default="loadtests/results")
    args = parser.parse_args()
    server = EmbeddedRedis().start()
    try:
        client = redis.Redis.from_url(server.url)
        with asgi("service", SERVICE_APP, server.url) as api:
            results: dict[str, Any] = {"lanes": LANES}
            results["job_path"] = job_path(server.url, api.url, client, args.games)
            print("job path, one worker:", results["job_path"], flush=True)
        results["idle"] = []
        for tenants in (int(t) for t in args.tenants.split(",")):
            results["idle"].append(idle(server.url, client, tenants, args.idle_seconds))
            print("idle, one worker:", results["idle"][-1], flush=True)
        client.close()
    finally:
        server.cleanup()
    Path(args.out).mkdir(parents=True, exist_ok=True)
    Path(args.out, "lanes.json").write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
