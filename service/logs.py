"""What every process of the service logs besides its own lines (issue 29): third-party
loggers that print URLs only speak up from WARNING. httpx logs each request's method and URL at
INFO, and a webhook URL may carry a tenant's token in its query (`?token=...`); httpcore prints
hosts and connections at DEBUG. Called where each process sets up its logging: the worker
(`service/worker/processes.py`), `python -m service` and `uvicorn --factory
service.app:from_env`."""

from __future__ import annotations

import logging

QUIET = ("httpx", "httpcore")


def quiet_third_parties() -> None:
    for name in QUIET:
        logging.getLogger(name).setLevel(logging.WARNING)
