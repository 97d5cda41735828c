"""Who may do what (docs/security.md): seat tokens, API keys and the tenants they name.

A seat token is `<seat>.<secret>`; the record keeps only the secret's SHA-256, compared in
constant time (a reissued token's hash overrides it: RedisStore.load). An API key names a
tenant (RULES_API_KEYS); without any key configured every caller is the one default tenant.
A tenant's key may act for a human seat of its own games (`as_seat`, `viewer_of`) and reissue
its token; in production only with RULES_API_KEYS (without them every caller is the default
tenant, which owns every game).

Delayed spectators: a game created with `spectatorDelay` n is shown n versions
behind to whoever is neither one of its seats nor its tenant, while it is ACTIVE
(`spectator_delay` decides who and how far; PastVersions.as_seen applies it to every read).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from service.engine import BadSetup
from service.engine.texts import COMMON
from service.refusals import Code, Refused
from service.store import Record

NOT_A_SEAT = "that token is not a seat of this game"
ACTING_NEEDS_KEY = "acting for a seat needs the game's tenant's API key (X-API-Key)"
ACTING_NEEDS_KEYS = (
    "acting for a seat needs RULES_API_KEYS on this production server (without them no key "
    "names a tenant): send the seat's token instead"
)
DEFAULT_TENANT = "default"  # the tenant of every game when RULES_API_KEYS is not set
TOKEN = re.compile(r"(0|[1-9][0-9]{0,2})\.([A-Za-z0-9_-]{32})")  # seat.secret, as issued


# what a KeyNeeded says in every language: the tenant's key, where UNAUTHORIZED's own sentence
# names a seat token too
KEY_NEEDED = COMMON.say("refusal.keyNeeded")


class KeyNeeded(Refused):
    """UNAUTHORIZED for want of a tenant's API key (X-API-Key), not of a seat's token: REST
    titles it so."""

    def __init__(self, message: str) -> None:
        super().__init__(Code.UNAUTHORIZED, message, localized=KEY_NEEDED)


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


def tenant_seat(
    game_id: str, record: Record, tenant: str | None, tenants_may_act: bool, seat: int
) -> int:
    """`seat` of this game for its tenant (acting for it, reissuing its token): refused
    where tenants may not act (production without RULES_API_KEYS) or without the tenant's
    key, NOT_FOUND for another tenant's game (worded as for a game that
    does not exist, so a key learns nothing of other tenants' games), BAD_INPUT for a seat
    the game does not have, FORBIDDEN for a bot's seat (the server plays it; it has no
    token)."""
    if not tenants_may_act:
        raise Refused(Code.BAD_INPUT, ACTING_NEEDS_KEYS)
    if tenant is None:
        raise Refused(Code.UNAUTHORIZED, ACTING_NEEDS_KEY)
    if record.tenant != tenant:
        raise Refused(Code.NOT_FOUND, f"no game {game_id!r}")
    if not 0 <= seat < record.players:
        raise Refused(Code.BAD_INPUT, f"seat is 0 to {record.players - 1} in this game, not {seat}")
    if seat in record.bots:
        raise Refused(Code.FORBIDDEN, f"seat {seat} is a bot's: the server plays it")
    if not record.token_hashes[seat]:  # an open seat (access/players.py): a player joins it
        raise Refused(Code.FORBIDDEN, f"seat {seat} is open: a player joins it (joinGame)")
    return seat


def viewer_of(
    game_id: str,
    record: Record,
    token: str | None,
    tenant: str | None,
    tenants_may_act: bool,
    as_seat: int | None,
) -> int | None:
    """The seat a request acts as: without `as_seat` the token's (`seat_of`); with it, the
    bearer of that seat's own token, else the game's tenant (`tenant_seat`). A token of
    another seat is FORBIDDEN: a seat never acts for another."""
    if as_seat is None:
        return seat_of(record, token)
    if token is not None:
        seat = seat_of(record, token)
        if seat != as_seat:
            raise Refused(Code.FORBIDDEN, f"a token of seat {seat} cannot act for seat {as_seat}")
        return seat
    return tenant_seat(game_id, record, tenant, tenants_may_act, as_seat)


MAX_SPECTATOR_DELAY = 100  # versions: a create option past it is BAD_INPUT


def check_spectator_delay(delay: int) -> None:
    """createGame's `spectatorDelay`: 0 (live) to MAX_SPECTATOR_DELAY versions."""
    if isinstance(delay, bool) or not isinstance(delay, int):
        raise BadSetup("spectatorDelay is a whole number of versions")
    if not 0 <= delay <= MAX_SPECTATOR_DELAY:
        raise BadSetup(f"spectatorDelay is 0 to {MAX_SPECTATOR_DELAY} versions, not {delay}")


def spectator_delay(record: Record, viewer: int | None, tenant: str | None, keyed: bool) -> int:
    """How many versions behind the live game this viewer sees it (0: live). Only spectators
    wait: a seat sees its own game live, and so does the game's tenant, named by its key of
    RULES_API_KEYS (`keyed`; without them every caller would be the default tenant, so none
    is, and every caller without a seat token waits). A game that is over is shown as it
    ended to everyone: its result is public, and nothing is left to cheat at (docs/api.md,
    "Delayed spectators")."""
    if record.spectator_delay <= 0 or viewer is not None or record.status() != "ACTIVE":
        return 0
    if keyed and tenant is not None and tenant == record.tenant:
        return 0
    return record.spectator_delay
