"""The record a request on a game acts on: read in one round trip with the caller's seat's
idempotency entry, its due timeouts applied first (the time ran out before the request came),
NOT_FOUND when there is no such game; for a decision, with the seat the caller decides for."""

from __future__ import annotations

import time
from typing import NamedTuple

from service.core.access import callers
from service.core.access.callers import Caller
from service.core.access.keys import seat_token
from service.core.access.players import open_seats
from service.core.game import clocks
from service.core.game.forward import forward
from service.core.moves.decisions import LAZY_TIMEOUTS, enforce_clock
from service.core.players import seating
from service.refusals import Code, Refused
from service.store import Done, Record, RedisStore
from service.store.records import ACTED_BY_TENANT

MAX_IDEMPOTENCY_KEY = 200

# what decisions.playable refuses: a game this release may read but not play
UNPLAYABLE = (Code.UPGRADE_IN_PROGRESS, Code.RULES_CHANGED)


class Opened(NamedTuple):
    """A game opened for one decision: its record, the caller's seat's entry for the
    request's idempotency key (None: not used yet), the seat and who decides (the
    HistoryRecord's `acted_by`)."""

    record: Record
    done: Done | None
    seat: int
    by: str


def check_idempotency_key(idempotency_key: str | None) -> None:
    if idempotency_key is not None and not 0 < len(idempotency_key) <= MAX_IDEMPOTENCY_KEY:
        raise Refused(
            Code.MALFORMED_MOVE,
            f"idempotencyKey must have 1 to {MAX_IDEMPOTENCY_KEY} characters",
        )


def not_found(game_id: str) -> Refused:
    return Refused(Code.NOT_FOUND, f"no game {game_id!r}")


async def load(
    store: RedisStore, game_id: str, caller: Caller, idempotency_key: str | None
) -> tuple[Record, Done | None]:
    """The record, its due timeouts applied (LAZY_TIMEOUTS at most: a game still due then is
    taken as it is, the workers catch up), and with a key the caller's seat's entry for it
    (the same entry whether the seat's token or its tenant made the move)."""
    parsed = seat_token(caller.token) if caller.token else None
    seat = parsed[0] if parsed is not None else caller.as_seat
    field_key = None
    if idempotency_key is not None and seat is not None:
        field_key = f"{seat}:{idempotency_key}"
    record, done = await store.load(game_id, field_key)
    if record is not None and clocks.due(record, time.time()):
        # the time ran out before this request came: the timeout first, then the request
        record = await timeouts(store, game_id, record)
    if record is None:
        raise not_found(game_id)
    return record, done


async def open_for_decision(
    store: RedisStore,
    game_id: str,
    caller: Caller,
    idempotency_key: str | None,
    tenants_may_act: bool,
) -> Opened:
    """The game loaded (`load`), moved forward to its kind's newest rules if its history
    replays the same there (game/forward.py), and the seat the caller decides for
    (UNAUTHORIZED: none)."""
    record, done = await load(store, game_id, caller, idempotency_key)
    record = await forward(store, game_id, record)
    seat = callers.seat(game_id, record, caller, tenants_may_act)
    if seating.waiting(record):
        missing = len(open_seats(record))
        raise Refused(
            Code.GAME_NOT_STARTED,
            f"the game waits for {missing} more player(s) to join (joinGame)",
            record.version,
        )
    if caller.player is not None and caller.as_seat is None and idempotency_key is not None:
        # a player token names its seat only once the record is read: its entry read now
        _, done = await store.load(game_id, f"{seat}:{idempotency_key}")
    return Opened(record, done, seat, ACTED_BY_TENANT if caller.for_tenant else "")


async def timeouts(store: RedisStore, game_id: str, record: Record) -> Record | None:
    """The record once its due timeouts are applied, LAZY_TIMEOUTS at most; a game this
    release may not play (decisions.playable) is taken as it is: its clock is left to a
    release that may (the request itself is refused, or answered if it only reads)."""
    try:
        return await enforce_clock(store, game_id, record, limit=LAZY_TIMEOUTS)
    except Refused as refused:
        if refused.code not in UNPLAYABLE:
            raise
        return record
