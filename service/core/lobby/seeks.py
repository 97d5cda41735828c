"""A seek: who waits for which game, checked and normalized before it reaches Redis. The
pool is the tenant's kind, seat count and rules options (normalized: a field left out and its
default make the same pool) hashed into the pool's key; the rating places the seeker in the
pool's rating order.

The rating is the tenant's to give (the seek's `rating`, `rating_of`); a player token's is
ignored, as a player does not choose its own. Without one, the lobby reads the player's `mu`
for the kind from the ratings (`RatingBook`, when the server has an archive) as it enters,
else the seeker starts at DEFAULT_RATING, the neutral rating of the ratings' model
(openskill's mu, 25)."""

from __future__ import annotations

import hashlib
import math
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, Protocol

import msgspec

from service.core.game.creation import MAX_PLAYER_ID
from service.engine import BadSetup, start
from service.engine.play import parse_options
from service.games import games
from service.refusals import Code, Refused
from service.store.lobby import Window

DEFAULT_RATING = 25.0  # openskill's mu: a player without a rating yet
MAX_RATING = 1_000_000.0  # |rating| beyond this is BAD_INPUT
# The window: 2.5 (a tenth of the neutral rating) at once, a quarter point more a second,
# the whole model's scale (25) after 90 s.
WINDOW = Window(base=2.5, growth=0.25, cap=25.0)
CHECKED_POOLS = 1024  # pools whose options a dry setup accepted, kept per process


class Seek(msgspec.Struct, frozen=True):
    kind: str
    players: int
    options: dict[str, Any]  # normalized: every field, defaults included
    player_id: str
    rating: float | None  # None: the player's own from the ratings, else DEFAULT_RATING

    @property
    def pool_json(self) -> str:
        pool = {"kind": self.kind, "players": self.players, "options": self.options}
        return msgspec.json.encode(pool, order="sorted").decode()

    @property
    def pool(self) -> str:
        return hashlib.sha256(self.pool_json.encode()).hexdigest()[:24]


class Rated(Protocol):
    @property
    def mu(self) -> float: ...


class RatingBook(Protocol):
    """A player's ratings per tenant and kind (service/ratings/ledger.py's Ledger)."""

    async def ratings(
        self, tenant: str, player_id: str, kind: str | None = None
    ) -> Sequence[Rated]: ...


_checked: OrderedDict[str, None] = OrderedDict()


def check_player_id(player_id: object) -> str:
    if not isinstance(player_id, str) or not 0 < len(player_id) <= MAX_PLAYER_ID:
        raise Refused(Code.BAD_INPUT, f"a playerId has 1 to {MAX_PLAYER_ID} characters")
    return player_id


def rating_of(rating: object) -> float | None:
    """The rating a seek gives, checked; None when it gives none."""
    if rating is None:
        return None
    if isinstance(rating, bool) or not isinstance(rating, int | float):
        raise Refused(Code.BAD_INPUT, "rating is a number")
    value = float(rating)
    if not math.isfinite(value) or abs(value) > MAX_RATING:
        raise Refused(Code.BAD_INPUT, f"rating is a finite number within ±{MAX_RATING:g}")
    return value


def seek(kind: object, players: object, options: object, player_id: object, rating: object) -> Seek:
    """The checked seek; BAD_INPUT names what is wrong. A pool's options are also set up once
    (a dry run of the game's setup, remembered per process), so a match never fails to
    create its game."""
    game = games().get(kind) if isinstance(kind, str) else None
    if game is None or not isinstance(kind, str):
        raise Refused(Code.BAD_INPUT, f"{kind} is not available on this server")
    if isinstance(players, bool) or not isinstance(players, int):
        raise Refused(Code.BAD_INPUT, "players is a whole number")
    if options is not None and not isinstance(options, dict):
        raise Refused(Code.BAD_INPUT, "options is a JSON object")
    try:
        parsed = parse_options(game, players, options)
    except BadSetup as exc:
        raise Refused(Code.BAD_INPUT, exc.message) from None
    normalized: dict[str, Any] = msgspec.to_builtins(parsed)
    found = Seek(kind, players, normalized, check_player_id(player_id), rating_of(rating))
    _set_up_once(found)
    return found


def _set_up_once(found: Seek) -> None:
    pool = found.pool
    if pool in _checked:
        _checked.move_to_end(pool)
        return
    game = games()[found.kind]
    try:
        start(game, found.players, found.options, "matchmaking-check")
    except BadSetup as exc:
        raise Refused(Code.BAD_INPUT, exc.message) from None
    _checked[pool] = None
    if len(_checked) > CHECKED_POOLS:
        _checked.popitem(last=False)
