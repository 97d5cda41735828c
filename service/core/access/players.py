"""A player (a tenant's own user id, named by a player token: service/core/players/tokens.py)
and the seats it holds in a game: a player token acts for any seat of its player id, as a seat
token does for its one seat, and sees nothing a seat of another player would (RULINGS ALL-4).

A seat is open while nobody holds it: a human seat (not a bot's) whose token hash is empty.
Joining writes JOINED there, which no token hashes to, so a joined seat is played with its
player's token (or a token its tenant reissues)."""

from __future__ import annotations

import msgspec

from service.refusals import Code, Refused
from service.store import Record

JOINED = b"joined"  # the token hash of a seat a player joined: no secret hashes to 6 bytes
MAX_PLAYER_ID = 128  # characters of a player id (creation.MAX_PLAYER_ID, tokens.MAX_PLAYER_ID)


class Player(msgspec.Struct, frozen=True):
    """A player id of a tenant, as a verified player token names it."""

    tenant: str
    id: str


def is_player_id(player_id: str | None) -> bool:
    """A player id a tenant gave, not a mark the service keeps in `player_ids` (a rematch's seat
    kept for a seat token's holder, players/seating.py: longer than any player id), which is
    never shown."""
    return player_id is not None and len(player_id) <= MAX_PLAYER_ID


def is_open(record: Record, seat: int) -> bool:
    return seat not in record.bots and not record.token_hashes[seat]


def open_seats(record: Record) -> list[int]:
    return [seat for seat in range(record.players) if is_open(record, seat)]


def held_by(record: Record, player_id: str) -> list[int]:
    """The seats `player_id` holds (joined, or given it at create); not those only reserved."""
    ids = record.player_ids
    return [
        seat
        for seat in range(min(record.players, len(ids)))
        if ids[seat] == player_id and seat not in record.bots and not is_open(record, seat)
    ]


def player_seat(game_id: str, record: Record, player: Player, as_seat: int | None) -> int | None:
    """The seat a player acts as: `as_seat` if it holds it, else the first of its seats that
    owes a decision, else its first seat; None (a spectator) when it holds none. Another
    tenant's game is NOT_FOUND, worded as for a game that does not exist."""
    if record.tenant != player.tenant:
        raise Refused(Code.NOT_FOUND, f"no game {game_id!r}")
    held = held_by(record, player.id)
    if as_seat is not None:
        if as_seat not in held:
            raise Refused(Code.FORBIDDEN, f"this player holds no seat {as_seat} in this game")
        return as_seat
    acting = [seat for seat in record.acting if seat in held]
    chosen = acting or held
    return chosen[0] if chosen else None
