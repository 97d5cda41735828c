"""Who may do what (docs/security.md): seat tokens, API keys and the tenants they name.

A seat token is `<seat>.<secret>`; the record keeps only the secret's SHA-256, compared in
constant time. An API key names a tenant (RULES_API_KEYS); without any key configured every
caller is the one default tenant.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from service.refusals import Code, Refused
from service.store import Record

NOT_A_SEAT = "that token is not a seat of this game"
DEFAULT_TENANT = "default"  # the tenant of every game when RULES_API_KEYS is not set
TOKEN = re.compile(r"(0|[1-9][0-9]{0,2})\.([A-Za-z0-9_-]{32})")  # seat.secret, as issued


class KeyNeeded(Refused):
    """UNAUTHORIZED for want of a tenant's API key (X-API-Key), not of a seat's token: REST
    titles it so (issue 31)."""

    def __init__(self, message: str) -> None:
        super().__init__(Code.UNAUTHORIZED, message)


def seat_token(token: str) -> tuple[int, str] | None:
    """The seat and secret of a token in its one canonical form `<seat>.<secret>`, else None.
    Seats are canonical decimals (no sign, no leading zero) so one credential has one
    spelling, and a rate limit keyed on it cannot be dodged by respelling it."""
    match = TOKEN.fullmatch(token)
    return (int(match[1]), match[2]) if match else None


def key_hash(secret: str) -> bytes:
    return hashlib.sha256(secret.encode()).digest()


def parse_api_keys(entries: tuple[str, ...]) -> list[tuple[str, bytes]]:
    """RULES_API_KEYS entries as (tenant id, sha256 of the secret). An entry is `id:secret`,
    or `id:sha256:<hex digest>` to keep only the hash at rest; an entry without an id (an
    earlier release's) is a tenant named by its hash's first 12 hex digits."""
    tenants = []
    for entry in entries:
        tenant, colon, secret = entry.partition(":")
        if not colon:
            digest = key_hash(entry)
            tenants.append((f"key-{digest.hex()[:12]}", digest))
        elif secret.startswith("sha256:"):
            tenants.append((tenant, bytes.fromhex(secret.removeprefix("sha256:"))))
        else:
            tenants.append((tenant, key_hash(secret)))
    return tenants


def tenant_names(entries: tuple[str, ...]) -> list[str]:
    """Every tenant RULES_API_KEYS names, or the default tenant alone."""
    return [tenant for tenant, _ in parse_api_keys(entries)] or [DEFAULT_TENANT]


class Tenants:
    def __init__(self, api_keys: tuple[str, ...]) -> None:
        self.keys = parse_api_keys(api_keys)

    @property
    def keyed(self) -> bool:
        """Whether every tenant is named by a key of RULES_API_KEYS (not the default tenant)."""
        return bool(self.keys)

    def of(self, api_key: str | None) -> str | None:
        """The tenant an X-API-Key names (every key compared, in constant time); None for no
        or an unknown key. Without RULES_API_KEYS every caller is the one default tenant."""
        if not self.keys:
            return DEFAULT_TENANT
        offered = key_hash(api_key or "")
        found = None
        for tenant, known in self.keys:
            if hmac.compare_digest(offered, known):
                found = tenant
        return found


def new_token(seat: int) -> tuple[str, bytes]:
    secret = secrets.token_urlsafe(24)
    return f"{seat}.{secret}", key_hash(secret)


def seat_of(record: Record, token: str | None) -> int | None:
    """The seat `token` names in this game; None for no token (a spectator); refused for any
    other token, so a bad credential is never read as a spectator (docs/security.md)."""
    if token is None:
        return None
    parsed = seat_token(token)
    if parsed is None or parsed[0] >= len(record.token_hashes):
        raise Refused(Code.UNAUTHORIZED, NOT_A_SEAT)
    seat, secret = parsed
    if not hmac.compare_digest(record.token_hashes[seat], key_hash(secret)):
        raise Refused(Code.UNAUTHORIZED, NOT_A_SEAT)
    return seat
