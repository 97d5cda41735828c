"""What every process of the service logs besides its own lines: chatty third-party
loggers only speak up from WARNING. httpx logs each request's method and URL at INFO, and a
webhook URL may carry a tenant's token in its query (`?token=...`); httpcore prints hosts and
connections at DEBUG; redis-py logs a line per new connection at DEBUG on servers older than its
maintenance notifications (Redis < 8.2). Called where each process sets up its logging: the
worker (`service/worker/processes.py`), `python -m service` and `uvicorn --factory
service.app:from_env`."""

from __future__ import annotations

import logging

QUIET = ("httpx", "httpcore", "redis")


def quiet_third_parties() -> None:
    for name in QUIET:
        logging.getLogger(name).setLevel(logging.WARNING)
