"""What the adapters ask of the ratings, for the caller's tenant only (X-API-Key): a
leaderboard page, a player's ratings, and the tenant's takeback policy. Both protocols call
these, so they check and refuse alike. Without an archive (no DATABASE_URL) nothing is ever
rated: the leaderboards are empty and the policy cannot be set."""

from __future__ import annotations

from service.core import GameService
from service.core.access.keys import KeyNeeded
from service.core.game.creation import MAX_PLAYER_ID
from service.games import games
from service.ratings.ledger import (
    DEFAULT_MAX_TAKEBACKS,
    Board,
    Ledger,
    Rating,
    checked_page,
    checked_takebacks,
)
from service.refusals import Code, Refused

RATINGS_NEED_KEY = "ratings are read and set with the tenant's API key (X-API-Key)"
NO_ARCHIVE = "ratings need the archive (DATABASE_URL), which this server does not have"


def _tenant(service: GameService, api_key: str | None) -> str:
    tenant = service.tenant_of(api_key)
    if tenant is None:
        raise KeyNeeded(RATINGS_NEED_KEY)
    return tenant


def _kind(kind: str) -> str:
    if kind not in games():
        raise Refused(Code.OUT_OF_RANGE, f"kind is one of {', '.join(games())}")
    return kind


async def leaderboard(
    service: GameService, api_key: str | None, kind: str, first: int, after: str | None
) -> Board:
    tenant, ledger = _tenant(service, api_key), Ledger.of(service.store)
    kind = _kind(kind)
    checked_page(first, after)  # refused alike with or without an archive
    if ledger is None:
        return Board([], None, False)
    return await ledger.leaderboard(tenant, kind, first, after)


async def ratings(
    service: GameService, api_key: str | None, player_id: str, kind: str | None = None
) -> list[Rating]:
    tenant, ledger = _tenant(service, api_key), Ledger.of(service.store)
    if not 0 < len(player_id) <= MAX_PLAYER_ID:
        raise Refused(Code.OUT_OF_RANGE, f"a playerId has 1 to {MAX_PLAYER_ID} characters")
    kind = None if kind is None else _kind(kind)
    if ledger is None:
        return []
    return await ledger.ratings(tenant, player_id, kind)


async def max_takebacks(service: GameService, api_key: str | None) -> int:
    tenant, ledger = _tenant(service, api_key), Ledger.of(service.store)
    return DEFAULT_MAX_TAKEBACKS if ledger is None else await ledger.max_takebacks(tenant)


async def set_max_takebacks(service: GameService, api_key: str | None, count: int) -> int:
    tenant, ledger = _tenant(service, api_key), Ledger.of(service.store)
    checked_takebacks(count)
    if ledger is None:
        raise Refused(Code.BAD_INPUT, NO_ARCHIVE)
    return await ledger.set_max_takebacks(tenant, count)
