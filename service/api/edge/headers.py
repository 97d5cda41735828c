"""Security headers on every HTTP response (docs/security.md, "Security headers").

Every answer says `nosniff` (a JSON body is never run as a script or rendered as a page), gives
no referrer, and may not be framed (no clickjacking of a page that holds seat tokens). The two
pages the service serves, the playground at /play and GraphiQL (GET /graphql from a browser,
its assets under /graphiql), also get a policy that runs only the service's own script files:
an injected `<script>` or inline handler does not run, and nothing leaves for another origin.

The headers are built once, as bytes; per request this costs a path test and one list copy.
WebSocket upgrades are not HTTP responses and pass untouched.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

COMMON = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer")]


def _page(style: str, font: str) -> list[tuple[bytes, bytes]]:
    """A page's headers. `'self'` in connect-src also covers ws: and wss: to the same host for
    graphql-transport-ws (CSP Level 3; seen in Chromium by tests/clients/test_csp.py); img-src
    data: is for the pages' empty icon (`data:,`)."""
    policy = (
        f"default-src 'self'; script-src 'self'; style-src {style}; img-src 'self' data:; "
        f"font-src {font}; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
        "form-action 'none'; object-src 'none'"
    )
    return [(b"content-security-policy", policy.encode()), *COMMON]


API = [(b"content-security-policy", b"frame-ancestors 'none'"), *COMMON]
PLAYGROUND = _page("'self'", "'self'")
# GraphiQL's stylesheet embeds its fonts as data: URLs, and its dialogs (settings, shortcuts)
# add a <style> element when they open (the scroll lock of its Radix dialogs); its scripts are
# still only its own files. GraphiQL is not served in production.
GRAPHIQL = _page("'self' 'unsafe-inline'", "'self' data:")


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        added = API
        if path.startswith("/play"):
            added = PLAYGROUND
        elif path.startswith("/graphiql") or (path == "/graphql" and scope["method"] == "GET"):
            added = GRAPHIQL  # the page itself is the answer to a browser's GET of /graphql

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *added]
            await send(message)

        await self.app(scope, receive, send_with_headers)
