"""Open seats, as records (docs/api.md, "Players"): a game created with open seats waits for
its players, who join by code or id (lobby.py), and starts when the last seat is filled, by
a player or, after the tenant's `fillWithBotsAfterSeconds`, by bots.

While it waits a game owes no decision (`acting` empty: no turn in the listings, no turn
webhook, no bot job) and its clock does not run: its `deadline` is the time to fill it with
bots, if any, which the workers' clock sweep and lazy reads find as they find a timeout
(service/core/moves/decisions.py hands such a game to `lobby.fill_with_bots`). Once started,
its clock starts as a new game's does. Nothing here does I/O.
"""

from __future__ import annotations

from typing import Any

import msgspec

from service.bots import STRATEGIES
from service.core.access.players import JOINED, is_open, open_seats
from service.core.access.players import MAX_PLAYER_ID as MAX_PLAYER_ID
from service.core.access.players import is_player_id as is_player_id
from service.core.game import clocks
from service.core.game.loaded_game import acting
from service.engine import BadSetup, Game
from service.engine.play import decode_state
from service.store import FORMAT, HistoryRecord, Record
from service.store.records import Outcome

JOINED_RESERVED = b"joined-reserved"  # a reserved seat its player joined: kept on leaving
MIN_FILL_SECONDS = 1
MAX_FILL_SECONDS = 7 * 24 * 3600
SEAT_HOLDER = "~seat-holder:"


def seat_holder(game_id: str, seat: int) -> str:
    """The mark a rematch's seat keeps in `player_ids` for whoever holds the old game's seat by
    its token: reserved, so no player joins it, and no player token can name it. Never shown
    (`is_player_id`) and never kept once the game ends (`ended`)."""
    return f"{SEAT_HOLDER}{seat}:{game_id}".ljust(MAX_PLAYER_ID + 1, "~")


class OpenSeat(msgspec.Struct, frozen=True):
    seat: int
    reserved_for: str | None = None


def waiting(record: Record) -> bool:
    """Whether the game still waits for players (moves are GAME_NOT_STARTED)."""
    return record.status() == "ACTIVE" and bool(open_seats(record))


def opened(
    record: Record,
    tokens: dict[int, str],
    seats: list[OpenSeat],
    fill_after: float | None,
    fill_strategy: str,
) -> tuple[Record, dict[int, str]]:
    """A new game's record with `seats` left open (their tokens withdrawn, reserved player ids
    set), waiting: no seat acts, and the deadline is the time to fill it with bots."""
    numbers = [open_seat.seat for open_seat in seats]
    if len(set(numbers)) != len(numbers) or any(s not in range(record.players) for s in numbers):
        raise BadSetup("openSeats name distinct seats of the game")
    if any(s in record.bots for s in numbers):
        raise BadSetup("a seat is a bot's or open, not both")
    if fill_strategy not in STRATEGIES:
        raise BadSetup(f"fillWithBotsStrategy is one of {', '.join(STRATEGIES)}")
    player_ids = list(record.player_ids)
    for open_seat in seats:
        if player_ids[open_seat.seat] is not None:
            raise BadSetup("an open seat's player comes as its reservedFor, not in playerIds")
        if open_seat.reserved_for is not None and not 0 < len(open_seat.reserved_for) <= 128:
            raise BadSetup("reservedFor is a player id of 1 to 128 characters")
        player_ids[open_seat.seat] = open_seat.reserved_for
    if fill_after is not None:
        if not seats:
            raise BadSetup("fillWithBotsAfterSeconds needs open seats")
        if not MIN_FILL_SECONDS <= fill_after <= MAX_FILL_SECONDS:
            raise BadSetup(f"fillWithBotsAfterSeconds is {MIN_FILL_SECONDS} to {MAX_FILL_SECONDS}")
    if not seats:
        return record, tokens
    hashes = [b"" if s in numbers else h for s, h in enumerate(record.token_hashes)]
    waiting_record = msgspec.structs.replace(
        record,
        token_hashes=hashes,
        player_ids=player_ids,
        acting=[],
        deadline=None if fill_after is None else record.created + fill_after,
    )
    return waiting_record, {s: t for s, t in tokens.items() if s not in numbers}


def seat_for(record: Record, player_id: str) -> int | None:
    """The open seat a joining player takes: one reserved for it first, else an unreserved
    one; None when none is left for it."""
    candidates = open_seats(record)
    reserved = [s for s in candidates if record.player_ids[s] == player_id]
    free = [s for s in candidates if record.player_ids[s] is None]
    chosen = reserved or free
    return chosen[0] if chosen else None


def joined(record: Record, seat: int, player_id: str) -> Record:
    mark = JOINED_RESERVED if record.player_ids[seat] == player_id else JOINED
    hashes = list(record.token_hashes)
    hashes[seat] = mark
    player_ids = list(record.player_ids)
    player_ids[seat] = player_id
    return msgspec.structs.replace(record, token_hashes=hashes, player_ids=player_ids)


def left(record: Record, seat: int) -> Record:
    """The seat open again; a reserved one stays reserved for the player who left it."""
    hashes = list(record.token_hashes)
    player_ids = list(record.player_ids)
    if hashes[seat] != JOINED_RESERVED:
        player_ids[seat] = None
    hashes[seat] = b""
    return msgspec.structs.replace(record, token_hashes=hashes, player_ids=player_ids)


def was_joined(record: Record, seat: int) -> bool:
    return record.token_hashes[seat] in (JOINED, JOINED_RESERVED)


def filled_with_bots(record: Record, strategy: str) -> Record:
    """Every open seat a bot's (its reservation dropped)."""
    seats = [s for s in range(record.players) if is_open(record, s)]
    player_ids = [None if s in seats else p for s, p in enumerate(record.player_ids)]
    bots = {**record.bots, **dict.fromkeys(seats, strategy)}
    return msgspec.structs.replace(record, bots=bots, player_ids=player_ids)


def started(record: Record, game: Game[Any, Any], now: float) -> Record:
    """A game whose seats are all filled, started now: its seats to act owe their decision and
    its clock starts from now."""
    state = decode_state(game, record.state)
    begun = msgspec.structs.replace(record, acting=acting(game, state), updated=now, deadline=None)
    return clocks.started(begun)


def ended(record: Record, now: float, label: str) -> tuple[Record, HistoryRecord]:
    """A waiting challenge or rematch called off (it lapsed, or a seat declined it): ABANDONED,
    no winners, one version more whose history entry says why (`label`). The entry is the
    tenant's abandon (seat -1), as a portable record's ABANDONED step must be (records/replay.py),
    so the game's record verifies; who declined is in its label and its webhook event. Its
    seat-holder marks dropped, so no archive row, rating or webhook of the ended game holds one
    as a player id."""
    version = record.version + 1
    over = msgspec.structs.replace(
        record,
        player_ids=[p if is_player_id(p) else None for p in record.player_ids],
        format=FORMAT,
        version=version,
        finished=True,
        updated=now,
        acting=[],
        outcome=Outcome("ABANDONED", None, []),
        deadline=None,
    )
    return over, HistoryRecord(version, -1, None, label, event="ABANDONED")


def bot_to_act(record: Record, game: Game[Any, Any]) -> int | None:
    """The bot seat that owes the first decision, if any (decisions.bot_due's rule)."""
    state = decode_state(game, record.state)
    if not record.bots or game.is_over(state):
        return None
    return next((seat for seat in game.to_act(state) if seat in record.bots), None)
