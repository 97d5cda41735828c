"""Cache-Control and Vary on every HTTP answer (docs/api.md, "Caching").

What a spectator sees (no seat token, no API key) is the same for every spectator: a GET of
it may be kept by shared caches (a CDN) for `RULES_PUBLIC_MAX_AGE` seconds, and says `Vary:
Authorization, X-API-Key` so that a cache never hands it to a seat or a tenant. Anything asked
with a credential, or as a seat (REST's X-Act-As-Seat, GraphQL's `asSeat` in a GET's query,
which a development server without API keys honours with no key), is `private, no-store`: a
seat's view holds its hidden information (RULINGS ALL-4). Everything else (writes, refusals, errors, health and metrics) is `no-store`.
An answer that sets its own Cache-Control keeps it.
"""

from __future__ import annotations

from urllib.parse import unquote_to_bytes

from starlette.types import Scope

CREDENTIALS = (b"authorization", b"x-api-key", b"x-act-as-seat")
UNCACHED_PATHS = {"/healthz", "/readyz", "/metrics"}
# set in the scope by an answer that is an error although its status is 200 (GraphQL's errors)
ERRORS = "rules.errors"
PRIVATE = b"private, no-store"
NO_STORE = b"no-store"
VARY = (b"Authorization", b"X-API-Key", b"Accept-Language")


class Caching:
    def __init__(self, public_max_age: int) -> None:
        self.public = f"public, max-age={public_max_age}".encode()
        self.shares = public_max_age > 0

    def headers(
        self, scope: Scope, status: int, headers: list[tuple[bytes, bytes]]
    ) -> list[tuple[bytes, bytes]]:
        """The answer's headers with its Cache-Control and, if caches may share it, its Vary."""
        if any(name.lower() == b"cache-control" for name, _ in headers):
            return headers
        if any(name in CREDENTIALS for name, _ in scope["headers"]) or _as_seat(scope):
            return [*headers, (b"cache-control", PRIVATE)]
        if not (self.shares and _spectators_read(scope, status)):
            return [*headers, (b"cache-control", NO_STORE)]
        vary = [v.strip() for n, vs in headers if n.lower() == b"vary" for v in vs.split(b",")]
        vary += [name for name in VARY if name.lower() not in {v.lower() for v in vary}]
        kept = [(n, v) for n, v in headers if n.lower() != b"vary"]
        return [*kept, (b"cache-control", self.public), (b"vary", b", ".join(vary))]


def _spectators_read(scope: Scope, status: int) -> bool:
    return (
        scope["method"] in ("GET", "HEAD")
        and status in (200, 304)
        and scope["path"] not in UNCACHED_PATHS
        and not scope.get(ERRORS)
    )


def _as_seat(scope: Scope) -> bool:
    """A GraphQL GET whose query names `asSeat` (any spelling of it in the query string)."""
    return b"asseat" in unquote_to_bytes(scope.get("query_string", b"")).lower()
