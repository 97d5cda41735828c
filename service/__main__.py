"""`python -m service` (what `make run` calls): start the service, with its own Redis and
PostgreSQL if needed."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import signal
import subprocess
import sys
import types
from collections.abc import Iterator

import uvicorn

from service import logs
from service.api.edge.parking import PROTOCOL
from service.app import create_app
from service.archive.embedded import EmbeddedPostgres
from service.settings import Settings
from service.store.embedded import EmbeddedRedis


class Stopped(BaseException):
    """SIGTERM, turned into an exception so that the `with` in `serve` cleans up on its way out."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _stopped(signum: int, _frame: types.FrameType | None) -> None:
    raise Stopped(signum)


def main() -> None:
    # uvicorn drains on SIGTERM, then re-raises it; with the default action that would end the
    # process before the embedded Redis is stopped. (SIGINT raises KeyboardInterrupt, which
    # uvicorn.run swallows after draining.) Once cleaned up, the process still ends "by SIGTERM".
    signal.signal(signal.SIGTERM, _stopped)
    try:
        serve(Settings.from_env())
    except Stopped as stopped:
        signal.signal(stopped.signum, signal.SIG_DFL)
        signal.raise_signal(stopped.signum)


# uvicorn reads a whole WebSocket message (16 MiB by default) before the app may refuse one
# larger than RULES_MAX_BODY_BYTES with 4400: a bound on that memory, as the Dockerfile sets.
WS_MAX_SIZE = 1 << 20


def serve(settings: Settings) -> None:
    with contextlib.ExitStack() as stack:
        redis_url = settings.redis_url
        if redis_url is None:
            server = EmbeddedRedis().start()
            stack.callback(server.cleanup)
            redis_url = server.url
            print(f"Started an embedded Redis at {redis_url} (set REDIS_URL to use your own)")
        if not settings.database_url:
            database = EmbeddedPostgres().start()
            stack.callback(database.cleanup)
            settings = dataclasses.replace(settings, database_url=database.url)
            print(
                f"Started an embedded PostgreSQL at {settings.database_url} "
                "(set DATABASE_URL to use your own)"
            )
        if settings.run_workers > 0:
            stack.enter_context(_workers(redis_url, settings))
            print(f"Bot workers: {settings.run_workers} (RULES_RUN_WORKERS)")
        base = f"http://{settings.host}:{settings.port}"
        print(f"GraphQL:  {base}/graphql")
        if not settings.production:
            print(f"GraphiQL: {base}/graphql (open it in a browser)")
        if settings.serves_playground:
            print(f"Playground: {base}/play (create and play games in a browser)")
        print(f"Metrics:  {base}/metrics   Health: {base}/healthz   Ready: {base}/readyz")
        logs.quiet_third_parties()
        uvicorn.run(
            create_app(settings, redis_url),
            host=settings.host,
            port=settings.port,
            loop="uvloop",
            http="httptools",
            ws=PROTOCOL,  # wsproto's, parking sockets (docs/performance.md, "Live updates")
            log_level=settings.log_level,
            proxy_headers=False,  # the app trusts FORWARDED_ALLOW_IPS only (service/app.py)
            ws_max_size=WS_MAX_SIZE,
        )


@contextlib.contextmanager
def _workers(redis_url: str, settings: Settings) -> Iterator[None]:
    """`python -m service.worker` beside the API, so that bot seats play out of the box."""
    environment = {
        **os.environ,
        "REDIS_URL": redis_url,
        "DATABASE_URL": settings.database_url,
        "RULES_WORKER_PROCESSES": str(settings.run_workers),
        "RULES_WORKER_PARENT_PID": str(os.getpid()),  # a SIGKILL here must not orphan them
    }
    worker = subprocess.Popen([sys.executable, "-m", "service.worker"], env=environment)
    try:
        yield
    finally:
        worker.terminate()
        # a drain: the job in hand within RULES_WORKER_DRAIN_SECONDS, then its loops stop
        drain = (
            settings.worker_drain_seconds
            + 3 * settings.redis_timeout
            + settings.webhook_timeout_seconds
        )
        try:
            worker.wait(drain + 10)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()


if __name__ == "__main__":
    main()
