"""Who asks, and which seat of a game that makes them: the authorisation every `GameService`
operation on a game starts with. keys.viewer_of decides; a caller without a seat there is a
spectator, who may read but not decide."""

from __future__ import annotations

import msgspec

from service.core.access.keys import viewer_of
from service.core.access.players import Player, player_seat
from service.refusals import Code, Refused
from service.store import Record

MOVES_NEED_TOKEN = "moves need a seat token, or the game's tenant's API key and asSeat"


class Caller(msgspec.Struct, frozen=True):
    """Who asks: a seat token, and the tenant its X-API-Key names (None: no or an unknown
    key) with the seat it acts for (`as_seat`; keys.viewer_of). Neither: a spectator."""

    token: str | None = None
    tenant: str | None = None
    as_seat: int | None = None
    # the player a player token names, once verified (service/core/players/tokens.py); the
    # token itself is then left out
    player: Player | None = None

    @property
    def for_tenant(self) -> bool:
        """The tenant acts for a seat (no token): its decisions are recorded as such."""
        return self.as_seat is not None and self.token is None and self.player is None


def caller_of(caller: Caller | str | None) -> Caller:
    """A bare token (or None) is the caller with that token and nothing else."""
    return caller if isinstance(caller, Caller) else Caller(token=caller)


def viewer(game_id: str, record: Record, caller: Caller, tenants_may_act: bool) -> int | None:
    """The seat `caller` acts as in this game; None for a spectator."""
    if caller.player is not None:
        return player_seat(game_id, record, caller.player, caller.as_seat)
    return viewer_of(game_id, record, caller.token, caller.tenant, tenants_may_act, caller.as_seat)


def seat(game_id: str, record: Record, caller: Caller, tenants_may_act: bool) -> int:
    """The seat a decision is made for."""
    found = viewer(game_id, record, caller, tenants_may_act)
    if found is None and caller.player is not None:
        raise Refused(Code.FORBIDDEN, "this player holds no seat in this game")
    if found is None:
        raise Refused(Code.UNAUTHORIZED, MOVES_NEED_TOKEN)
    return found
