"""Rematches (docs/api.md, "Rematch and challenges"): once a game is over, a seat of it offers
the same game again, and the others consent by taking their seats.

A game has at most one rematch, and its id is a function of the game's id (`rematch_id`), so
whoever offers first, on any replica, creates it and anyone after finds it (the store's
create writes only a new id): two seats offering at once get the same game. It is the old
game's kind, seat count, options, clock, spectator delay, takeback policy and bots, on the
same seats, under the rules of today; its human seats wait open, each reserved for the player
id the old seat had, or, for a seat played by its token alone, for the holder of that token
(`seating.seat_holder`). The offerer takes its seat at once. The others take theirs with
joinGame (a player token) or acceptRematch (the old seat's token, or the tenant acting as the
seat: the new seat's token is answered). Bots consent by being bots. The game starts when its
last seat is taken, and lapses (ABANDONED, "the rematch lapsed") if that has not happened by
its time; declineRematch ends it for everyone while it waits.

A seat's new token is derived from its old token's hash and the rematch's id, so taking a seat
again answers the same token (a seat whose old hash is no token's, one a player joined, gets a
new token each time: the last one counts, as reissueSeatToken's, whose way a token takes once
the rematch is under way).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
from typing import Any

import msgspec

from service.core.access.callers import Caller, viewer
from service.core.access.keys import key_hash, new_token
from service.core.game.creation import new_game
from service.core.players import lobby, news, seating
from service.core.players.challenges import refused
from service.engine import BadSetup
from service.engine.texts import COMMON
from service.games import game_for
from service.refusals import Code, Refused
from service.store import HistoryRecord, Record, RedisStore
from service.store.jobs import derived_game_id
from service.store.records import Clock
from service.webhooks.events import of_commit as webhook_events

DEFAULT_EXPIRY = 3600  # seconds a rematch waits for its players
REMATCH_OF = "rematchOf"  # the lobby field that marks a rematch: the game it follows
TOKEN_HASH_BYTES = 32  # a seat token's hash (sha256); shorter marks are no token's


class Seated(msgspec.Struct, frozen=True):
    """A seat of the rematch taken: the game, the seat and, for a caller without a player
    token, the seat's token."""

    game_id: str
    record: Record
    seat: int
    token: str | None


def rematch_id(game_id: str) -> str:
    """The rematch's game id, derived from the game's id (store/jobs.py)."""
    return derived_game_id(f"rematch:{game_id}")


def _clock_option(clock: Clock | None) -> dict[str, Any] | None:
    if clock is None:
        return None
    option: dict[str, Any] = {"incrementSeconds": clock.increment, "onTimeout": clock.on_timeout}
    if clock.per_decision is not None:
        option["perDecisionSeconds"] = clock.per_decision
    if clock.per_seat_total is not None:
        option["perSeatTotalSeconds"] = clock.per_seat_total
    return option


def planned(old: Record, new_id: str, expires_in: int) -> tuple[Record, list[HistoryRecord]]:
    """The rematch's record, every human seat open and reserved, and its setup's history."""
    humans = [s for s in range(old.players) if s not in old.bots]
    try:
        record, played, tokens = new_game(
            old.tenant, old.kind, old.players, None, old.options, dict(old.bots), [],
            _clock_option(old.clock), old.spectator_delay,
        )  # fmt: skip
        seats = [seating.OpenSeat(s) for s in humans]
        record, _ = seating.opened(record, tokens, seats, expires_in, "GREEDY")
    except BadSetup as exc:
        raise Refused(Code.BAD_INPUT, exc.message) from None
    ids = list(record.player_ids)
    for seat in humans:
        was = old.player_ids[seat] if seat < len(old.player_ids) else None
        keep = was is not None and seating.is_player_id(was)
        ids[seat] = was if keep else seating.seat_holder(new_id, seat)
    record = msgspec.structs.replace(record, player_ids=ids, takebacks=old.takebacks)
    history = [
        HistoryRecord(i, s.seat, msgspec.to_builtins(s.move), s.label, s.forced)
        for i, s in enumerate(played.steps, start=1)
    ]
    return record, history


def seat_token(old: Record, seat: int, new_id: str) -> tuple[str, bytes]:
    """The rematch seat's token (`<seat>.<secret>`, as keys.new_token makes them) and its hash:
    derived from the old seat's token hash, which never leaves Redis, when it has one."""
    old_hash = old.token_hashes[seat]
    if len(old_hash) != TOKEN_HASH_BYTES:
        return new_token(seat)
    mac = hmac.new(old_hash, f"rematch:{new_id}:{seat}".encode(), hashlib.sha256).digest()
    secret = base64.urlsafe_b64encode(mac[:24]).decode()
    return f"{seat}.{secret}", key_hash(secret)


async def _old_seat(
    store: RedisStore, tenants_may_act: bool, game_id: str, caller: Caller
) -> tuple[Record, int]:
    """The game that is over and the caller's seat in it."""
    old, _ = await store.load(game_id)
    if old is None:
        raise Refused(Code.NOT_FOUND, f"no game {game_id!r}")
    seat = viewer(game_id, old, caller, tenants_may_act)
    if seat is None or seat in old.bots:
        raise refused(Code.FORBIDDEN, "refusal.notYourRematch")
    if old.status() == "ACTIVE":
        raise refused(Code.GAME_NOT_OVER, "refusal.rematchBeforeEnd", old.version)
    return old, seat


def _checked_expiry(expires_in: int) -> None:
    low, high = seating.MIN_FILL_SECONDS, seating.MAX_FILL_SECONDS
    if not low <= expires_in <= high:
        raise refused(Code.BAD_INPUT, "refusal.expiresInSeconds", low=low, high=high)


async def offer(
    store: RedisStore, tenants_may_act: bool, game_id: str, caller: Caller, expires_in: int
) -> Seated:
    """The game's rematch, created if nobody offered it yet, with the caller's seat taken."""
    _checked_expiry(expires_in)
    old, seat = await _old_seat(store, tenants_may_act, game_id, caller)
    new_id = rematch_id(game_id)
    existing, _ = await store.load(new_id)
    if existing is None:
        record, history = planned(old, new_id, expires_in)
        events = webhook_events(new_id, None, record, history)
        fields = {REMATCH_OF: game_id, "lapsed": COMMON.english("history.rematchLapsed")}
        if await lobby.created(store, new_id, record, history, events, fields):
            told = [
                news.News(news.REMATCH_OFFERED, p, new_id, record.kind, record.players, s)
                for s, p in enumerate(record.player_ids)
                if p is not None and s != seat and seating.is_player_id(p)
            ]
            await news.tell(store, record.tenant, told)
    return await _take(store, new_id, old, seat, caller)


async def accept(store: RedisStore, tenants_may_act: bool, game_id: str, caller: Caller) -> Seated:
    """The caller's seat of the rematch offered, taken."""
    old, seat = await _old_seat(store, tenants_may_act, game_id, caller)
    new_id = rematch_id(game_id)
    existing, _ = await store.load(new_id)
    if existing is None:
        raise refused(Code.NOT_FOUND, "refusal.noRematch")
    return await _take(store, new_id, old, seat, caller)


async def decline(store: RedisStore, tenants_may_act: bool, game_id: str, caller: Caller) -> Record:
    """The rematch ended for everyone, by a seat of the old game, while it waits."""
    _, seat = await _old_seat(store, tenants_may_act, game_id, caller)
    new_id = rematch_id(game_id)

    def declining(record: Record) -> tuple[str, int, str]:
        if record.status() != "ACTIVE":
            raise refused(Code.GAME_OVER, "refusal.rematchOver", record.version)
        if not seating.waiting(record):
            raise refused(Code.FORBIDDEN, "refusal.rematchOver", record.version)
        return COMMON.english("history.rematchDeclined", seat=seat), seat, "REMATCH_DECLINED"

    try:
        return await lobby.call_off(store, new_id, declining)
    except Refused as refusal:
        if refusal.code is Code.NOT_FOUND:
            raise refused(Code.NOT_FOUND, "refusal.noRematch") from None
        raise


async def _take(store: RedisStore, new_id: str, old: Record, seat: int, caller: Caller) -> Seated:
    """The seat taken: by the caller's player (a join), else by the old seat's holder, whose
    new token is answered."""
    if caller.player is not None:
        record, taken = await lobby.join(store, new_id, caller.player)
        return Seated(new_id, record, taken, None)
    token, digest = seat_token(old, seat, new_id)
    began = reissue = False

    def take(record: Record) -> tuple[Record | None, int | None]:
        nonlocal began, reissue
        began = reissue = False
        if record.status() != "ACTIVE":
            raise refused(Code.GAME_OVER, "refusal.rematchOver", record.version)
        if record.token_hashes[seat] == digest:
            return None, seat  # taken already, with this very token
        if not seating.waiting(record):
            # under way, moves commit the record: the token goes where reissueSeatToken's do
            reissue = True
            return None, seat
        hashes = list(record.token_hashes)
        hashes[seat] = digest
        ids = list(record.player_ids)
        if ids[seat] is not None and not seating.is_player_id(ids[seat] or ""):
            ids[seat] = None
        after = msgspec.structs.replace(record, token_hashes=hashes, player_ids=ids)
        if seating.waiting(record) and not seating.waiting(after):
            after = seating.started(after, game_for(after.kind, after.rules), time.time())
            began = True
        return after, seat

    record, _ = await lobby.changed(store, new_id, take)
    if reissue and not await store.reissue(new_id, seat, digest):
        raise Refused(Code.NOT_FOUND, f"no game {new_id!r}")
    if began:
        await lobby.tell_started(store, new_id, record)
    return Seated(new_id, record, seat, token)


async def rematch_of(store: RedisStore, game_id: str) -> str | None:
    """The id of the game's rematch, once offered."""
    new_id = rematch_id(game_id)
    found, _ = await store.load(new_id)
    return None if found is None else new_id
