"""`python -m service` (what `make run` calls): start the service, with its own Redis if needed."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator

import uvicorn

from service.app import create_app
from service.settings import Settings
from service.store.embedded import EmbeddedRedis


def main() -> None:
    settings = Settings.from_env()
    with contextlib.ExitStack() as stack:
        redis_url = settings.redis_url
        if redis_url is None:
            server = EmbeddedRedis().start()
            stack.callback(server.cleanup)
            redis_url = server.url
            print(f"Started an embedded Redis at {redis_url} (set REDIS_URL to use your own)")
        if settings.run_workers > 0:
            stack.enter_context(_workers(redis_url, settings.run_workers))
            print(f"Bot workers: {settings.run_workers} (RULES_RUN_WORKERS)")
        base = f"http://{settings.host}:{settings.port}"
        print(f"GraphQL:  {base}/graphql")
        if not settings.production:
            print(f"GraphiQL: {base}/graphql (open it in a browser)")
        print(f"Metrics:  {base}/metrics   Health: {base}/healthz   Ready: {base}/readyz")
        uvicorn.run(
            create_app(settings, redis_url),
            host=settings.host,
            port=settings.port,
            loop="uvloop",
            http="httptools",
            log_level=settings.log_level,
            proxy_headers=False,  # the app trusts FORWARDED_ALLOW_IPS only (service/app.py)
        )


@contextlib.contextmanager
def _workers(redis_url: str, count: int) -> Iterator[None]:
    """`python -m service.worker` beside the API, so that bot seats play out of the box."""
    environment = {**os.environ, "REDIS_URL": redis_url, "RULES_WORKER_PROCESSES": str(count)}
    worker = subprocess.Popen([sys.executable, "-m", "service.worker"], env=environment)
    try:
        yield
    finally:
        worker.terminate()
        worker.wait(30)


if __name__ == "__main__":
    main()
