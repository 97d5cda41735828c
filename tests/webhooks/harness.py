"""What the webhook tests share: a receiver process, a worker process and the API on a Redis of
their own, two tenants, and endpoints registered the way the API stores them."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from service.app import create_app
from service.settings import Settings
from service.store import RedisStore, connect
from service.webhooks.endpoints import EndpointStore
from service.webhooks.model import (
    Attempt,
    Endpoint,
    attempt_decoder,
    endpoint_encoder,
    endpoints_key,
    log_key,
)
from tests.conftest import client_for, own_redis
from tests.support.tenants import KEYS
from tests.support.waiting import until
from tests.support.workers import WorkerProcess, serving_worker, worker_process

# the worker's settings: quick retries and reclaims, receivers on loopback allowed
WORKER = {
    "RULES_API_KEYS": ",".join(KEYS),
    "RULES_WEBHOOK_ALLOW_PRIVATE": "1",
    "RULES_WEBHOOK_RETRY_SECONDS": "0.2,0.2,0.2",
    "RULES_WEBHOOK_TIMEOUT_SECONDS": "30",
    "RULES_WORKER_RECLAIM_SECONDS": "1",
}
SETTINGS = Settings(
    api_keys=KEYS, rate_limit_per_token=0, rate_limit_per_address=0, webhook_allow_private=True
)


class Receiver:
    """tests/webhooks/receiver.py as a process; what it logged, read back."""

    def __init__(self, tls: tuple[str, str] | None = None) -> None:
        """`tls`: (certificate, key) files to serve https with, as `localhost`. The receiver
        binds a port the system chooses and tells it (`ready()` reads it): a port probed free
        here could be taken by another test's server before the receiver bound it."""
        self.tls = tls
        self.port = 0  # known once ready()
        self.path = Path(tempfile.mkdtemp()) / "received.jsonl"
        self.path.touch()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.webhooks.receiver", "0", str(self.path), *(tls or ())],
            env=os.environ.copy(),
        )

    @property
    def base(self) -> str:
        assert self.port, "the receiver's port is known once ready() returned"
        return f"https://localhost:{self.port}" if self.tls else f"http://127.0.0.1:{self.port}"

    def url(self, path: str) -> str:
        return f"{self.base}{path}"

    def refuse(self, flag: str, text: str) -> None:
        """`/refuse/<flag>` answers 500 to the bodies that hold `text` from now on."""
        (self.path.parent / flag).write_text(text)

    def down(self, flag: str, down: bool) -> None:
        """Start or end the outage of `/down/<flag>`."""
        path = self.path.parent / flag
        if down:
            path.touch()
        else:
            path.unlink()

    def lines(self, phase: str = "arrived") -> list[dict[str, Any]]:
        # the receiver may be writing a line as we read: only whole lines count
        text = self.path.read_text()
        whole = text[: text.rfind("\n") + 1]
        lines = [json.loads(line) for line in whole.splitlines() if line]
        return [line for line in lines if line["phase"] == phase and line["path"] != "/probe"]

    async def until(
        self,
        check: Callable[[list[dict[str, Any]]], bool],
        what: str,
        phase: str = "arrived",
        seconds: float = 60,
    ) -> list[dict[str, Any]]:
        """The lines of `phase` once `check` holds for them (a minute at most, by default)."""

        def held() -> tuple[list[dict[str, Any]]] | None:
            lines = self.lines(phase)
            return (lines,) if check(lines) else None

        try:
            (lines,) = await until(held, what, seconds)
        except AssertionError as failed:
            raise AssertionError(f"{failed}; received: {self.lines(phase)}") from None
        return lines

    async def ready(self) -> None:
        told = self.path.parent / "port"
        async with asyncio.timeout(60):
            while not told.exists():
                assert self.process.poll() is None, "the receiver exited before it listened"
                await asyncio.sleep(0.02)
        self.port = int(told.read_text())
        async with asyncio.timeout(60), httpx.AsyncClient(verify=False) as client:
            while True:
                try:
                    await client.post(f"{self.base.replace('localhost', '127.0.0.1')}/probe")
                    return
                except httpx.TransportError:
                    await asyncio.sleep(0.05)

    def stop(self) -> None:
        self.process.kill()
        self.process.wait(30)


@dataclass
class Hooks:
    http: httpx.AsyncClient  # the API (tenants acme and globex)
    redis: Any
    receiver: Receiver
    worker: WorkerProcess
    redis_url: str
    metrics_port: int = 0  # hooks(metrics=True)

    def bodies(self, phase: str = "arrived") -> list[dict[str, Any]]:
        return [json.loads(line["body"]) for line in self.receiver.lines(phase)]

    async def log(self, tenant: str, endpoint: str, settled: int = 0) -> list[Attempt]:
        """The endpoint's delivery log, oldest first, once it has `settled` lines (a worker
        settles an attempt just after the receiver answered it)."""
        async with asyncio.timeout(60):
            while True:
                raw = await self.redis.lrange(log_key(tenant, endpoint), 0, -1)
                if len(raw) >= settled:
                    return [attempt_decoder.decode(line) for line in reversed(raw)]
                await asyncio.sleep(0.05)


async def register(redis: Any, tenant: str, url: str, events: list[str] | None = None) -> Endpoint:
    """An endpoint stored as createWebhookEndpoint stores it, its tenant's outbox switched on,
    but with no check of its URL (to test the one the worker makes)."""
    now = time.time()
    endpoint = Endpoint(
        id="ep_" + secrets.token_hex(8),
        url=url,
        events=events or [],
        secret="whsec_" + base64.b64encode(secrets.token_bytes(24)).decode(),
        created=now,
        updated=now,
    )
    await redis.hset(endpoints_key(tenant), endpoint.id, endpoint_encoder.encode(endpoint))
    await sync_flags(redis, tenant)
    return endpoint


async def sync_flags(redis: Any, tenant: str) -> None:
    await EndpointStore(RedisStore(redis, Settings()), Settings()).sync_flags(tenant)


@contextmanager
def receiver_process(tls: tuple[str, str] | None = None) -> Iterator[Receiver]:
    receiver = Receiver(tls)
    try:
        yield receiver
    finally:
        receiver.stop()


@asynccontextmanager
async def hooks(
    tls: tuple[str, str] | None = None, metrics: bool = False, **worker_settings: str
) -> AsyncIterator[Hooks]:
    """`metrics`: the worker serves its metrics, on `Hooks.metrics_port`."""
    with own_redis() as url, receiver_process(tls) as receiver:
        await receiver.ready()
        redis = connect(Settings(), url)
        settings = {**WORKER, **worker_settings}
        try:
            async with client_for(create_app(SETTINGS, url)) as http:
                if metrics:
                    async with serving_worker(url, **settings) as (worker, port):
                        yield Hooks(http, redis, receiver, worker, url, port)
                else:
                    with worker_process(url, **settings) as worker:
                        yield Hooks(http, redis, receiver, worker, url)
        finally:
            await redis.aclose()
