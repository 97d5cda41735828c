"""Matchmaking (lobby.py): seeks (seeks.py) matched into games (matches.py)."""

from __future__ import annotations

from weakref import WeakKeyDictionary

from service.core.access.keys import KeyNeeded
from service.core.lobby.lobby import Lobby, PlayerEvent, Status
from service.core.lobby.seeks import DEFAULT_RATING, WINDOW, Seek, seek
from service.store import RedisStore

__all__ = [
    "DEFAULT_RATING",
    "WINDOW",
    "Lobby",
    "PlayerEvent",
    "Seek",
    "Status",
    "lobby_for",
    "matchmaking_tenant",
    "seek",
]

MATCHMAKING_NEEDS_KEY = (
    "matchmaking is asked for by the tenant's backend with its API key (X-API-Key)"
)

_lobbies: WeakKeyDictionary[RedisStore, Lobby] = WeakKeyDictionary()


def lobby_for(store: RedisStore) -> Lobby:
    """The process's matchmaking over `store` (its scripts registered once)."""
    lobby = _lobbies.get(store)
    if lobby is None:
        lobby = _lobbies[store] = Lobby(store)
    return lobby


def matchmaking_tenant(tenant: str | None) -> str:
    """The tenant an X-API-Key named: the caller of matchmaking for its players. A player
    token naming its own (tenant, player id) is the other caller the core's operations take."""
    if tenant is None:
        raise KeyNeeded(MATCHMAKING_NEEDS_KEY)
    return tenant
