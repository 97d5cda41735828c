"""Matchmaking in Redis (service/core/lobby says what it means; docs/architecture.md,
"Matchmaking"). Every key of one tenant's matchmaking shares the hash tag `{mm-<tenant>}`, so
each step is one atomic script on one server of a cluster, and a player is in at most one of
the tenant's pools without a lock:

    mm:{T}:p:<player>   hash: the player's seek or match. s = W (waiting: pool, at = entered
                        ms, rating), C (a match made, its game being created: match) or M
                        (matched: match, game, seat, token), kept KEPT seconds
    mm:{T}:q:<pool>     sorted set: player -> entered ms (first in, first matched)
    mm:{T}:r:<pool>     sorted set: player -> rating (the candidates near a rating)
    mm:{T}:d:<pool>     string: the pool's JSON {kind, players, options}
    mm:{T}:pools        set: the pools that hold seekers (the sweep's list)
    mm:{T}:m:<match>    hash: a match made and not settled yet: pool (JSON), players (JSON
                        [[player, rating, entered ms], ...], oldest first), at
    mm:{T}:made         stream: {m: match id} per match made, consumer group `lobby`: the
                        maker holds the entry until its game exists (`settle`); a worker
                        claims what a dead maker left (`claim`)
    mm:{T}:e:<player>   channel: the player's events (SPUBLISH on a cluster), one JSON each
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

import msgspec

from service.store.events import Subscriber
from service.store.lobby_scripts import ENTER, LEAVE, MATCH_GROUP, SETTLE, SWEEP
from service.store.redis_store import RedisStore

KEPT = 24 * 3600  # seconds a seek, a match record or a player's match is kept
_SIMPLE = re.compile(r"[A-Za-z0-9_.-]{1,64}")


class Window(msgspec.Struct, frozen=True):
    """A seeker's rating window: `base + growth * waited seconds`, at most `cap`."""

    base: float
    growth: float
    cap: float

    def at(self, waited: float) -> float:
        return min(self.base + self.growth * max(waited, 0.0), self.cap)


class Made(msgspec.Struct, frozen=True):
    """A match the scripts made: its id, its stream entry, the players oldest first as
    (player id, rating, entered ms), and its pool's JSON."""

    match: str
    entry: str
    players: list[tuple[str, float, float]]
    pool: str


class Entered(msgspec.Struct, frozen=True):
    """What entering answered: `outcome` is waiting (the same seek, entered at `at`), queued
    (in the pool `pool` already), matching (`match` being made), entered or matched (`made`)."""

    outcome: str
    at: float = 0.0
    pool: str = ""
    match: str = ""
    made: Made | None = None


class Seat(msgspec.Struct, frozen=True):
    """One seat of a match as settled: the player's seat, token and event."""

    player: str
    seat: int
    token: str
    event: bytes


def tag(tenant: str) -> str:
    """The hash tag of a tenant's matchmaking keys: its id, or a digest of an id with
    characters that could end a hash tag early."""
    if _SIMPLE.fullmatch(tenant):
        return f"mm-{tenant}"
    return f"mm-{hashlib.sha256(tenant.encode()).hexdigest()[:16]}"


def prefix(tenant: str) -> str:
    return f"mm:{{{tag(tenant)}}}:"


def player_key(tenant: str, player: str) -> str:
    return f"{prefix(tenant)}p:{player}"


def events_channel(tenant: str, player: str) -> str:
    return f"{prefix(tenant)}e:{player}"


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _made(values: Sequence[Any]) -> Made:
    match, entry, players, pool = (_text(v) for v in values)
    listed = msgspec.json.decode(players, type=list[tuple[str, float, float]])
    return Made(match, entry, listed, pool)


class LobbyStore:
    """The tenant-slotted keys above, through the game store's commands (timed, every Redis
    failure a StoreUnavailable) and its event hub."""

    def __init__(self, store: RedisStore) -> None:
        self.store = store
        self.commands = store.commands
        redis = store.redis
        self._enter = redis.register_script(ENTER)
        self._leave = redis.register_script(LEAVE)
        self._sweep = redis.register_script(SWEEP)
        self._settle = redis.register_script(SETTLE)
        self._publish = "SPUBLISH" if store.cluster else "PUBLISH"

    async def enter(
        self,
        tenant: str,
        pool: str,
        pool_json: str,
        player: str,
        rating: float,
        seats: int,
        now_ms: int,
        window: Window,
        near: int,
        match: str,
        consumer: str,
    ) -> Entered:
        base = prefix(tenant)
        keys = [
            player_key(tenant, player),
            f"{base}q:{pool}",
            f"{base}r:{pool}",
            f"{base}d:{pool}",
            f"{base}pools",
        ]
        args: list[Any] = [
            base, pool, pool_json, player, repr(rating), now_ms,
            repr(window.base), repr(window.growth), repr(window.cap),
            near, seats, match, consumer, KEPT,
        ]  # fmt: skip
        reply = await self.commands.timed(
            "lobby_enter", lambda: self.commands.evalsha(self._enter, keys, args)
        )
        outcome = _text(reply[0])
        if outcome in ("waiting", "entered"):
            return Entered(outcome, at=float(reply[1]))
        if outcome == "queued":
            return Entered(outcome, pool=_text(reply[1]))
        if outcome == "matching":
            return Entered(outcome, match=_text(reply[1]))
        return Entered(outcome, made=_made(reply[1:5]))

    async def leave(self, tenant: str, player: str) -> str:
        """ "left", or the status of a player who waits in no pool ("", "C", "M")."""
        keys, args = [player_key(tenant, player)], [prefix(tenant)]
        reply = await self.commands.timed(
            "lobby_leave", lambda: self.commands.evalsha(self._leave, keys, args)
        )
        return "left" if _text(reply[0]) == "left" else _text(reply[1])

    async def status(self, tenant: str, player: str) -> dict[str, str]:
        """The player's hash (empty: neither waiting nor matched lately)."""
        key = player_key(tenant, player)
        raw: dict[Any, Any] = await self.commands.timed(
            "lobby_status", lambda: self.store.redis.hgetall(key)
        )
        return {_text(k): _text(v) for k, v in raw.items()}

    async def pool(self, tenant: str, pool: str) -> dict[str, Any]:
        """A pool's description {kind, players, options} ({} once it lapsed)."""
        key = f"{prefix(tenant)}d:{pool}"
        raw = await self.commands.timed("lobby_pool", lambda: self.store.redis.get(key))
        found: dict[str, Any] = msgspec.json.decode(raw) if raw else {}
        return found

    async def pools(self, tenant: str) -> list[str]:
        key = f"{prefix(tenant)}pools"
        members: set[Any] = await self.commands.timed(
            "lobby_pools", lambda: self.store.redis.smembers(key)
        )
        return sorted(_text(m) for m in members)

    async def sweep(
        self,
        tenant: str,
        pool: str,
        now_ms: int,
        window: Window,
        near: int,
        first: int,
        count: int,
        match: str,
        consumer: str,
        longest_wait_ms: int,
    ) -> tuple[int, list[Made]]:
        """One stretch of a pool's sweep: the next rank (-1 at the end) and the matches made."""
        base = prefix(tenant)
        keys = [f"{base}q:{pool}", f"{base}r:{pool}", f"{base}d:{pool}", f"{base}pools"]
        args: list[Any] = [
            base, pool, now_ms, repr(window.base), repr(window.growth), repr(window.cap),
            near, first, count, match, consumer, KEPT, longest_wait_ms,
        ]  # fmt: skip
        reply = await self.commands.timed(
            "lobby_sweep", lambda: self.commands.evalsha(self._sweep, keys, args)
        )
        made = [_made(reply[i : i + 4]) for i in range(1, len(reply), 4)]
        return int(reply[0]), made

    async def settle(
        self, tenant: str, made: Made, consumer: str, game_id: str, seats: list[Seat]
    ) -> bool:
        """The match's players are matched, told, and its entry done; False when another
        consumer holds the entry now (it settles the match itself)."""
        base = prefix(tenant)
        keys = [f"{base}made", f"{base}m:{made.match}"]
        args: list[Any] = [base, made.match, made.entry, consumer, game_id, KEPT, self._publish]
        for seat in seats:
            args += [seat.player, seat.seat, seat.token, seat.event]
        done = await self.commands.timed(
            "lobby_settle", lambda: self.commands.evalsha(self._settle, keys, args)
        )
        return bool(done)

    async def claim(self, tenant: str, consumer: str, idle_ms: int, count: int) -> list[Made | str]:
        """Matches whose maker left them unsettled for `idle_ms`, now `consumer`'s: each as
        made, or its entry id alone when its record is gone (acknowledge it: `drop`)."""
        base = prefix(tenant)
        stream = f"{base}made"
        redis = self.store.redis

        async def take() -> list[Made | str]:
            if not await redis.exists(stream):
                return []
            reply = await redis.xautoclaim(stream, MATCH_GROUP, consumer, idle_ms, "0-0", count)
            claimed: list[Made | str] = []
            for entry, fields in reply[1]:
                match = _text((fields or {}).get(b"m", b""))
                record = await redis.hmget(f"{base}m:{match}", ["pool", "players"])
                entry_id = _text(entry)
                if record[0] is None or record[1] is None:
                    claimed.append(entry_id)
                    continue
                claimed.append(_made([match, entry_id, record[1], record[0]]))
            return claimed

        return await self.commands.timed("lobby_claim", take)

    async def drop(self, tenant: str, entry: str) -> None:
        stream = f"{prefix(tenant)}made"
        redis = self.store.redis

        async def done() -> None:
            await redis.xack(stream, MATCH_GROUP, entry)
            await redis.xdel(stream, entry)

        await self.commands.timed("lobby_drop", done)

    def events(
        self, tenant: str, player: str, on_drop: Callable[[], None]
    ) -> AbstractAsyncContextManager[Subscriber]:
        """A subscriber of the player's channel, confirmed by Redis before it is handed out."""
        return self.store.hub.subscribe("", on_drop, channel_name=events_channel(tenant, player))
