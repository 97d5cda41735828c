"""Matchmaking (lobby.py): seeks (seeks.py) matched into games (matches.py)."""

from __future__ import annotations

from weakref import WeakKeyDictionary

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
    "seek",
]

_lobbies: WeakKeyDictionary[RedisStore, Lobby] = WeakKeyDictionary()


def lobby_for(store: RedisStore) -> Lobby:
    """The process's matchmaking over `store` (its scripts registered once)."""
    lobby = _lobbies.get(store)
    if lobby is None:
        lobby = _lobbies[store] = Lobby(store)
    return lobby
