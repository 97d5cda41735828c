"""The service's app as granian starts it, with its lifespan messages written to a file
($RULES_LIFESPAN_LOG), so a test sees that granian ran the startup and the shutdown hooks
(service/app.py: the shutdown closes the rate limiter, the store and the hint pool)."""

from __future__ import annotations

import os

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.app import from_env as service_from_env


def from_env() -> ASGIApp:
    app = service_from_env()
    log = os.environ["RULES_LIFESPAN_LOG"]

    async def probe(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "lifespan":
            await app(scope, receive, send)
            return

        async def noted(message: Message) -> None:
            with open(log, "a") as out:
                out.write(message["type"] + "\n")
            await send(message)

        await app(scope, receive, noted)

    return probe
