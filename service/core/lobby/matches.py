"""The game of a match, created idempotently: everything a retry needs is a function of the
match id, which never leaves Redis. The game id (in a lane's slot, as `new_game_id` draws
them), the seat order and the seats' tokens are derived from it, so whoever creates the game
(the replica that made the match, or a worker that claimed it after the maker died) creates
the same one, a second create finds it there, and a token handed out once stays valid.

The game is created as createGame creates one (creation.new_game, the store's create script
with its webhook events), with the players' ids on their seats and the tenant's name; its
`match.found` webhook event goes to the tenant's outbox in the same script."""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
from typing import Any

import msgspec

from service import metrics
from service.core.access.keys import key_hash
from service.core.game.creation import new_game
from service.core.moves.decisions import history_entries
from service.store import RedisStore
from service.store.jobs import derived_game_id
from service.store.lobby import Made
from service.webhooks.events import MatchFound, Seat
from service.webhooks.events import of_commit as webhook_events
from service.webhooks.model import Event, timestamp


class MatchedGame(msgspec.Struct, frozen=True):
    game_id: str
    kind: str
    players: list[str]  # player id by seat
    tokens: list[str]  # seat token by seat


def matched_game_id(match: str) -> str:
    """The match's game id, derived from the match id (store/jobs.py)."""
    return derived_game_id(f"game:{match}")


def seat_token(match: str, seat: int) -> tuple[str, bytes]:
    """The seat's token (`<seat>.<32 URL-safe characters>`, as keys.new_token makes them) and
    the hash the record keeps."""
    mac = hmac.new(match.encode(), f"seat:{seat}".encode(), hashlib.sha256).digest()
    secret = base64.urlsafe_b64encode(mac[:24]).decode()
    return f"{seat}.{secret}", key_hash(secret)


def seat_order(made: Made) -> list[str]:
    """The players by seat: an order drawn from the match id, not by age (seat 0 starts)."""
    ids = [player for player, _, _ in made.players]
    return sorted(ids, key=lambda p: hashlib.sha256(f"{made.match}:{p}".encode()).digest())


async def create_game(store: RedisStore, tenant: str, made: Made) -> MatchedGame:
    """The match's game, created now or found created by an earlier try."""
    pool: dict[str, Any] = msgspec.json.decode(made.pool)
    kind, seats = pool["kind"], pool["players"]
    players = seat_order(made)
    tokens = [seat_token(made.match, seat) for seat in range(seats)]
    game_id = matched_game_id(made.match)
    record, played, _ = new_game(tenant, kind, seats, None, pool["options"], {}, [*players], None)
    record = msgspec.structs.replace(record, token_hashes=[digest for _, digest in tokens])
    history = history_entries(0, played.steps)
    found = MatchFound(game_id, kind, [Seat(s, p) for s, p in enumerate(players)])
    events = [
        Event(type="match.found", timestamp=timestamp(time.time()), data=found),
        *webhook_events(game_id, None, record, history),
    ]
    if await store.create(game_id, record, history, None, events):
        metrics.GAMES_CREATED.labels(kind).inc()
    else:
        existing, _ = await store.load(game_id)
        if existing is None or existing.tenant != tenant or existing.player_ids != players:
            raise RuntimeError(f"match {made.match}: game {game_id} is not the match's game")
    return MatchedGame(game_id, kind, players, [token for token, _ in tokens])
