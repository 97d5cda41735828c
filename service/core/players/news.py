"""News for players on their own channel: the per-player channel matchmaking tells a match on
(`playerEvents`, service/store/lobby.py), here also a challenge received, a rematch offered
and the start of a game the player waits in (docs/api.md, "Rematch and challenges").

An event keeps the shape of matchmaking's (type, playerId, gameId, kind, players, seat,
seatToken), so every follower of the channel reads it; `type` says what it is and
`seatToken` is empty (the player plays with its player token). Publishing is best effort, as a
game's own events are: the game, `myGames` and the webhooks stay the record.
"""

from __future__ import annotations

import logging
from functools import partial

import msgspec

from service.store import RedisStore, StoreUnavailable
from service.store.lobby import events_channel

log = logging.getLogger("service.players")

CHALLENGE_RECEIVED = "challenge.received"
REMATCH_OFFERED = "rematch.offered"
GAME_STARTED = "game.started"


class News(msgspec.Struct, frozen=True, rename="camel"):
    type: str
    player_id: str
    game_id: str
    kind: str
    players: int
    seat: int
    seat_token: str = ""  # a match's only: news carry none


async def tell(store: RedisStore, tenant: str, news: list[News]) -> None:
    """Each item published on its player's channel, on every replica."""
    command = "SPUBLISH" if store.cluster else "PUBLISH"
    for item in news:
        channel = events_channel(tenant, item.player_id)
        sent = [(command, channel, msgspec.json.encode(item))]
        try:
            await store.commands.timed(
                "player_news", partial(store.commands.execute, sent, channel)
            )
        except StoreUnavailable as exc:
            log.warning("%s for a player of %s not published (%s)", item.type, item.game_id, exc)
