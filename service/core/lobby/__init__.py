"""Matchmaking (lobby.py): seeks (seeks.py) matched into games (matches.py), asked for by a
tenant's backend for one of its players or by a player token for its own player (`seeker`)."""

from __future__ import annotations

from weakref import WeakKeyDictionary

import msgspec

from service.core.lobby.lobby import EVENT_TYPES, Lobby, PlayerEvent, Status
from service.core.lobby.seeks import (
    DEFAULT_RATING,
    WINDOW,
    RatingBook,
    Seek,
    check_player_id,
    seek,
)
from service.core.players.tokens import PlayerTokens, looks_like_player_token
from service.engine.texts import COMMON
from service.refusals import Code, Refused
from service.store import RedisStore

__all__ = [
    "DEFAULT_RATING",
    "EVENT_TYPES",
    "WINDOW",
    "Lobby",
    "PlayerEvent",
    "RatingBook",
    "Seek",
    "Seeker",
    "Status",
    "lobby_for",
    "seek",
    "seeker",
]

_lobbies: WeakKeyDictionary[RedisStore, Lobby] = WeakKeyDictionary()


class Seeker(msgspec.Struct, frozen=True):
    """The player a matchmaking request is for, and who asks: its tenant's backend (X-API-Key,
    which may give the seek's rating) or the player itself (a player token, which may not)."""

    tenant: str
    player_id: str
    by_tenant: bool


def lobby_for(store: RedisStore, ratings: RatingBook | None = None) -> Lobby:
    """The process's matchmaking over `store` (its scripts registered once), its seeks placed
    by `ratings` (the archive's, if the server has one)."""
    lobby = _lobbies.get(store)
    if lobby is None:
        lobby = _lobbies[store] = Lobby(store, ratings=ratings)
    return lobby


def refused(code: Code, key: str) -> Refused:
    return Refused(code, COMMON.english(key), localized=COMMON.say(key))


async def seeker(
    tokens: PlayerTokens, token: str | None, tenant: str | None, player_id: object
) -> Seeker:
    """Who a matchmaking request is for. A player token (Authorization: Bearer) is its own
    player: a `player_id` it gives must be that one (FORBIDDEN, whatever the other player's
    state); without one, the tenant an X-API-Key names, for the `player_id` it must give."""
    if token is not None and looks_like_player_token(token):
        player = await tokens.verify(token)  # expired, revoked, forged: UNAUTHORIZED
        if player_id is not None and player_id != player.id:
            raise refused(Code.FORBIDDEN, "refusal.matchmakingOwnPlayer")
        return Seeker(player.tenant, player.id, by_tenant=False)
    if tenant is None:
        raise refused(Code.UNAUTHORIZED, "refusal.matchmakingCaller")
    if player_id is None:
        raise refused(Code.BAD_INPUT, "refusal.matchmakingPlayerNeeded")
    return Seeker(tenant, check_player_id(player_id), by_tenant=True)
