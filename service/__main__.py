"""`python -m service` (what `make run` calls): start the service, with its own Redis if needed."""

from __future__ import annotations

import contextlib

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


if __name__ == "__main__":
    main()
