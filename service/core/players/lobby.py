"""Join codes and seat changes of games waiting for players, in Redis.

    jc:{<tenant>}:<code>  string: the game id a join code names, for RULES_ACTIVE_TTL
    g:{id} field j        JSON {"code", "fill"}: the game's join code and the strategy of the
                          bots that fill it (service/store/redis_store.py keeps the rest)

A seat change (a join, a leave, the start, the fill with bots) rewrites the record with the
SEAT script, in the game's slot: it writes only if the game's version and stored record are
still those the change was computed from, so of two players racing for the last seat, on any
replicas, one writes and the other reads again and finds the game full. The record's index
entries, the first bot job and the turn webhooks go in the same step, as a commit's do.
A code is a few characters of an alphabet without look-alikes (no 0/O, 1/I/L, U), drawn until
one is free for the tenant (SET NX).
"""

from __future__ import annotations

import hashlib
import logging
import re
import secrets
import time
from collections.abc import Callable
from typing import Any

import msgspec

from service import metrics
from service.core.access.players import Player, held_by
from service.core.game.folding import fold_finished
from service.core.players import news, seating
from service.games import game_for
from service.refusals import Code, Refused
from service.store import FORMAT, HistoryRecord, Record, RedisStore, UpgradeInProgress
from service.store import indexes as store_indexes
from service.store.jobs import job_key, lane_of
from service.store.reading import decode_record, game_keys, with_reissued
from service.store.scripts import _ENQUEUE, _INDEX, _OUTBOX, outbox_keys
from service.webhooks.events import of_commit as webhook_events
from service.webhooks.model import Event

log = logging.getLogger("service.players")

ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
CODE_LENGTH = 6
CODE = re.compile(f"[{ALPHABET}]{{{CODE_LENGTH}}}")
SEAT_TRIES = 8  # a seat change that keeps losing races to others is refused UNAVAILABLE
FILL_STRATEGY = "GREEDY"
LAPSE = "LAPSE"  # the fill of a challenge or a rematch: at its time it ends, ABANDONED, no bots

# KEYS: record, lane, index keys...[, outbox, outbox switch]. ARGV: version, sha1 of the stored
# record the change was computed from, new record, game id, bot seat due ('' for none), index
# member, index flags, index ttl, clock deadline ('' for none), webhook events ('' for none),
# record format.
SEAT = (
    _ENQUEUE
    + _OUTBOX
    + _INDEX
    + """
local stored = redis.call('HMGET', KEYS[1], 'v', 'r', 'w')
if not stored[1] or not stored[2] then return 'gone' end
if stored[1] ~= ARGV[1] or redis.sha1hex(stored[2]) ~= ARGV[2] then return 'stale' end
if stored[3] and tonumber(stored[3]) > tonumber(ARGV[11]) then return 'new' end
redis.call('HSET', KEYS[1], 'r', ARGV[3], 'w', ARGV[11])
enqueue(KEYS[2], ARGV[4], ARGV[1], ARGV[5])
index(3, ARGV[6], ARGV[7], ARGV[8], ARGV[4], ARGV[9])
outbox(3 + #ARGV[7], ARGV[4], ARGV[1], ARGV[10])
return 'ok'
"""
)

# KEYS: record[, the tenant's clock set of the lane]. ARGV: the game's lobby JSON, game id,
# deadline to fill it with bots ('' for none), ttl. A game without a turn clock has no entry in
# the clock set that the workers sweep: its fill time is put there.
REGISTER = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'j', ARGV[1])
if KEYS[2] and ARGV[3] ~= '' then
  redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2])
  redis.call('EXPIRE', KEYS[2], ARGV[4])
end
return 1
"""

_lobby_decoder = msgspec.json.Decoder(dict[str, str])
_encoder = msgspec.json.Encoder()


def code_key(tenant: str, code: str) -> str:
    return f"jc:{{{tenant}}}:{code}"


def normal_code(code: str) -> str:
    """A code as typed (lower case, spaces, dashes) in its one spelling; BAD_INPUT if it
    cannot be one."""
    spelled = code.upper().replace("-", "").replace(" ", "")
    if not CODE.fullmatch(spelled):
        raise Refused(
            Code.BAD_INPUT,
            f"a join code is {CODE_LENGTH} characters of {ALPHABET}",
        )
    return spelled


class Stored(msgspec.Struct, frozen=True):
    """A record as read for a seat change (reissued tokens in) and the SHA-1 of its stored
    bytes, which the SEAT script compares with the bytes stored when it runs."""

    record: Record
    digest: str


def _sha1(raw: bytes) -> str:
    return hashlib.sha1(raw, usedforsecurity=False).hexdigest()


async def load(store: RedisStore, game_id: str) -> Stored | None:
    record_key = game_keys(game_id)[0]

    async def read() -> Any:
        return await store.redis.hmget(record_key, ["r", "t"])

    raw, reissued = await store.commands.timed("lobby_load", read)
    if raw is None:
        return None
    record = with_reissued(game_id, decode_record(game_id, raw), reissued)
    return Stored(record, _sha1(raw))


def _clock_set(game_id: str, record: Record) -> list[str]:
    """The tenant's clock set of the game's lane when the index does not name it already (a
    game without a turn clock waiting to be filled with bots)."""
    if record.clock is not None or not record.tenant:
        return []
    return [store_indexes.clock_key(lane_of(game_id), record.tenant)]


async def seat_change(store: RedisStore, game_id: str, stored: Stored, record: Record) -> str:
    """Write `record` if the game is still as `stored` (the SEAT script): "ok", "stale" or
    "gone"; UpgradeInProgress when a newer release wrote it."""
    before = stored.record
    game = game_for(record.kind, record.rules)
    keys_, flags = store_indexes.updates(game_id, record)
    extra = _clock_set(game_id, before)
    if extra:  # the fill time's entry goes once the game no longer waits
        keys_, flags = [*keys_, *extra], flags + ("c" if record.deadline is not None else "x")
    gone = {p for p in before.player_ids if p is not None} - set(record.player_ids)
    for player_id in sorted(gone):  # a player who left, or a reservation bots took over
        lane_number = lane_of(game_id)
        keys_ += [
            store_indexes.player_key(lane_number, record.tenant, player_id),
            store_indexes.acting_key(lane_number, record.tenant, player_id),
        ]
        flags += "--"
    events = webhook_events(game_id, before, record, [])
    lane = [job_key(lane_of(game_id), record.tenant)]
    bot = seating.bot_to_act(record, game) if not seating.waiting(record) else None
    keys = [game_keys(game_id)[0], *lane, *keys_, *outbox_keys(game_id, record, lane, events)]
    args: list[Any] = [
        record.version,
        stored.digest,
        msgspec.msgpack.encode(record),
        game_id,
        "" if bot is None else bot,
        store_indexes.member(game_id, record),
        flags,
        store.index_ttl(),
        "" if record.deadline is None else repr(record.deadline),
        _encoder.encode(events) if events else "",
        FORMAT,
    ]
    # commands.script sends EVALSHA by the script's digest: registering costs a SHA-1 only
    script = store.redis.register_script(SEAT)
    reply = await store.script_acked("seat", script, keys, args, f"{game_keys(game_id)[0]}:w")
    outcome = reply.decode() if isinstance(reply, bytes) else str(reply)
    if outcome == "new":
        raise UpgradeInProgress(game_id, "a newer release wrote the game")
    return outcome


async def register(
    store: RedisStore,
    game_id: str,
    record: Record,
    fill_strategy: str,
    extra: dict[str, str] | None = None,
) -> str:
    """A free join code of the game's tenant, now naming the game, and the game's lobby
    fields (its code, `extra`, and its fill time in the workers' clock set if it has no
    clock)."""
    ttl = store.settings.active_ttl
    while True:
        code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
        key = code_key(record.tenant, code)

        async def claim(key: str = key) -> Any:
            return await store.redis.set(key, game_id, nx=True, ex=ttl)

        if await store.commands.timed("join_code", claim):
            break
    lobby = _encoder.encode({**(extra or {}), "code": code, "fill": fill_strategy})
    keys = [game_keys(game_id)[0], *_clock_set(game_id, record)]
    deadline = "" if record.deadline is None else repr(record.deadline)
    args = [lobby, game_id, deadline, store.index_ttl()]
    registered = store.redis.register_script(REGISTER)
    await store.script_acked("join_code", registered, keys, args, f"{keys[0]}:w")
    return code


async def game_of_code(store: RedisStore, tenant: str, code: str) -> str:
    spelled = normal_code(code)

    async def read() -> Any:
        return await store.redis.get(code_key(tenant, spelled))

    game_id = await store.commands.timed("join_code", read)
    if game_id is None:
        raise Refused(Code.NOT_FOUND, f"no game with the join code {spelled}")
    return str(game_id.decode() if isinstance(game_id, bytes) else game_id)


async def lobby_of(store: RedisStore, game_id: str) -> dict[str, str]:
    """The game's join code and fill strategy ({} for a game created without open seats)."""

    async def read() -> Any:
        return await store.redis.hget(game_keys(game_id)[0], "j")

    raw = await store.commands.timed("lobby", read)
    return {} if raw is None else _lobby_decoder.decode(raw)


def _not_found(game_id: str) -> Refused:
    return Refused(Code.NOT_FOUND, f"no game {game_id!r}")


async def changed(
    store: RedisStore,
    game_id: str,
    change: Callable[[Record], tuple[Record | None, int | None]],
) -> tuple[Record, int | None]:
    """`change` applied to the game as it is now and written, read again while it loses
    races; its answer: the record to write (None: nothing to write) and the seat."""
    for _ in range(SEAT_TRIES):
        stored = await load(store, game_id)
        if stored is None:
            raise _not_found(game_id)
        record, seat = change(stored.record)
        if record is None:
            return stored.record, seat
        outcome = await seat_change(store, game_id, stored, record)
        if outcome == "ok":
            return record, seat
        if outcome == "gone":
            raise _not_found(game_id)
    raise Refused(Code.UNAVAILABLE, "other seat changes kept winning the race: try again")


def _open_to(game_id: str, record: Record, player: Player) -> None:
    if record.tenant != player.tenant:
        raise _not_found(game_id)  # as if there were no such game: nothing of another tenant
    if record.status() != "ACTIVE":
        raise Refused(Code.GAME_OVER, "the game is over", record.version)


async def join(store: RedisStore, game_id: str, player: Player) -> tuple[Record, int]:
    """The player's seat in the game: one it holds already (a join is idempotent), else an
    open seat reserved for it or free; the game starts with its last seat (GAME_FULL: none is
    left for this player)."""

    began = False

    def take(record: Record) -> tuple[Record | None, int | None]:
        nonlocal began
        began = False
        _open_to(game_id, record, player)
        held = held_by(record, player.id)
        if held:
            return None, held[0]
        seat = seating.seat_for(record, player.id)
        if seat is None:
            raise Refused(Code.GAME_FULL, "every open seat of this game is taken", record.version)
        after = seating.joined(record, seat, player.id)
        if not seating.waiting(after):
            after = seating.started(after, game_for(after.kind, after.rules), time.time())
            began = True
        return after, seat

    record, seat = await changed(store, game_id, take)
    assert seat is not None
    if began:
        await tell_started(store, game_id, record)
    return record, seat


async def tell_started(store: RedisStore, game_id: str, record: Record) -> None:
    """The game's players told on their channels that it started: a join makes no version, so
    a gameEvents subscriber of the waiting game hears of the start only with the first move."""
    told = [
        news.News(news.GAME_STARTED, player, game_id, record.kind, record.players, seat)
        for seat, player in enumerate(record.player_ids)
        if player is not None and seating.is_player_id(player)
    ]
    await news.tell(store, record.tenant, told)


async def created(
    store: RedisStore,
    game_id: str,
    record: Record,
    history: list[HistoryRecord],
    events: list[Event],
    fields: dict[str, str],
) -> bool:
    """A challenge's or a rematch's new game stored and, while it waits, registered to lapse
    (LAPSE, `fields` beside its code); False when a game of that id exists already."""
    game = game_for(record.kind, record.rules)
    bot = seating.bot_to_act(record, game) if not seating.waiting(record) else None
    if not await store.create(game_id, record, history, bot, events):
        return False
    metrics.GAMES_CREATED.labels(record.kind).inc()
    if seating.waiting(record):
        await register(store, game_id, record, LAPSE, fields)
    return True


async def leave(store: RedisStore, game_id: str, player: Player) -> Record:
    """The player's joined seats open again, before the game starts (after: resign)."""

    def free(record: Record) -> tuple[Record | None, int | None]:
        _open_to(game_id, record, player)
        held = held_by(record, player.id)
        if not held:
            raise Refused(Code.FORBIDDEN, "this player holds no seat in this game")
        if not seating.waiting(record):
            raise Refused(Code.FORBIDDEN, "the game has started: resign instead", record.version)
        joined = [seat for seat in held if seating.was_joined(record, seat)]
        if not joined:
            raise Refused(Code.FORBIDDEN, "a seat given at create cannot be left: resign it")
        for seat in joined:
            record = seating.left(record, seat)
        return record, None

    record, _ = await changed(store, game_id, free)
    return record


async def fill_with_bots(store: RedisStore, game_id: str, record: Record, now: float) -> Record:
    """A waiting game whose fill time has come, its open seats the bots' and started (or the
    game as it is now, when a join or another sweeper came first)."""
    found = await lobby_of(store, game_id)
    strategy = found.get("fill", FILL_STRATEGY)
    if strategy == LAPSE:
        return await _lapsed(store, game_id, record, found, now)

    def fill(current: Record) -> tuple[Record | None, int | None]:
        if not seating.waiting(current) or current.deadline is None or current.deadline > now:
            return None, None
        filled = seating.filled_with_bots(current, strategy)
        if len(filled.bots) == filled.players:
            # nobody came: no game of bots alone (createGame's rule), it waits on, unswept
            return msgspec.structs.replace(current, deadline=None), None
        return seating.started(filled, game_for(filled.kind, filled.rules), now), None

    try:
        filled, _ = await changed(store, game_id, fill)
    except Refused as refused:
        if refused.code is not Code.NOT_FOUND:
            raise
        return record
    log.info("game %s: its fill time came (%s bots)", game_id, strategy)
    return filled


async def _lapsed(
    store: RedisStore, game_id: str, record: Record, found: dict[str, str], now: float
) -> Record:
    """A challenge or rematch whose time came before every seat was taken, ended."""
    label = found.get("lapsed", "")
    # the lobby field a challenge carries (challenges.CHALLENGE); a rematch carries rematchOf
    reason = "CHALLENGE_LAPSED" if "challenge" in found else "REMATCH_LAPSED"

    def lapsing(current: Record) -> tuple[str, int, str] | None:
        if not seating.waiting(current) or current.deadline is None or current.deadline > now:
            return None
        return label, -1, reason

    try:
        return await call_off(store, game_id, lapsing)
    except Refused as refused:
        if refused.code is not Code.NOT_FOUND:
            raise
        return record


async def call_off(
    store: RedisStore, game_id: str, decide: Callable[[Record], tuple[str, int, str] | None]
) -> Record:
    """The game ended ABANDONED (seating.ended) with the history label, seat and reason (the
    game.abandoned webhook's, webhooks.events.ABANDON_REASONS) `decide` gives
    for the game as it is now, in one commit checked on the version and the stored record (a
    join makes no version: the seats compared too), read again while it loses races; the game
    as it is when `decide` gives None. `decide` may refuse."""
    for _ in range(SEAT_TRIES):
        stored = await load(store, game_id)
        if stored is None:
            raise _not_found(game_id)
        record = stored.record
        said = decide(record)
        if said is None:
            return record
        label, seat, reason = said
        over, entry = seating.ended(record, time.time(), label)
        events = webhook_events(game_id, record, over, [entry], abandoned=reason, declined_by=seat)
        committed = await store.commit(
            game_id, record.version, over, [entry], None, events=events, record_digest=stored.digest
        )
        if committed.outcome == "gone":
            raise _not_found(game_id)
        if committed.outcome == "ok":
            metrics.GAMES_ENDED.labels(record.kind, "ABANDONED").inc()
            await fold_finished(store, game_id, over)
            log.info("game %s: %s", game_id, label)
            return over
    raise Refused(Code.UNAVAILABLE, "other changes of the game kept winning the race: try again")
