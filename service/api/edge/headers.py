"""Security headers on every HTTP answer (docs/security.md, "Security headers").

Every answer says `nosniff` (a JSON body is never run as a script or rendered as a page), gives
no referrer, and may not be framed (no clickjacking of a page that holds seat tokens). The two
pages the service serves, the playground at /play and GraphiQL (GET /graphql from a browser,
its assets under /graphiql), also get a policy that runs only the service's own script files:
an injected `<script>` or inline handler does not run, and nothing leaves for another origin.

The guard (guard.py) adds them to every answer that passes it, its own refusals too: built
once, as bytes, they cost a path test and one list copy per request. (CORS preflights, answered
outside the guard, are read by the browser only, never shown.) WebSocket upgrades are not HTTP
responses and get none.
"""

from __future__ import annotations

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


def headers_for(path: str, method: str) -> list[tuple[bytes, bytes]]:
    if path.startswith("/play"):
        return PLAYGROUND
    if path.startswith("/graphiql") or (path == "/graphql" and method == "GET"):
        return GRAPHIQL  # the page itself is the answer to a browser's GET of /graphql
    return API
