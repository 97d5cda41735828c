"""Finished games on their way to the archive (service/archive), as Redis sees them.

A game that ends is marked for the archive: its id in the lane's sorted set
`archive:{bots-n}` (service/store/indexes.py), scored by when it is due (the idempotency grace
after its end: retries of its last moves still find their answers); in the same script, for
its rating (service/store/rating_marks.py), which comes within seconds. The workers claim due
games for a lease (the score pushed on), copy the game's hash to the archive and, once the
archive holds that version, drop it from Redis: its keys, its index members and its mark, in
one script on the game's slot, and only if the game is still at that version. A read that
misses Redis finds the game in the archive and puts its hash back for a short tail
(`restore`), so every read path works on it unchanged.
"""

from __future__ import annotations

from typing import Any

from service.store import indexes
from service.store.commands import Commands
from service.store.jobs import in_lane_slot, lane_of
from service.store.rating_marks import rate_key
from service.store.reading import game_keys
from service.store.records import Record

# KEYS: a lane's archive marks, and its rating marks when the game is rated too. ARGV: when
# the game is due for the archive, when it ended, its id. Neither mark moves if it is there.
_MARK = """
redis.call('ZADD', KEYS[1], 'NX', ARGV[1], ARGV[3])
if #KEYS > 1 then redis.call('ZADD', KEYS[2], 'NX', ARGV[2], ARGV[3]) end
"""

# KEYS: a lane's archive marks. ARGV: now, the claim's end, how many at most. The ids due,
# each claimed until the claim's end.
_CLAIM = """
local due = redis.call('ZRANGE', KEYS[1], '-inf', ARGV[1], 'BYSCORE', 'LIMIT', 0, ARGV[3])
for _, id in ipairs(due) do redis.call('ZADD', KEYS[1], ARGV[2], id) end
return due
"""

# KEYS: the record hash, history, idempotency, checkpoints, then (when they share its slot) the
# archive marks and the index keys. ARGV: the version archived, the game id, its index member,
# the reissued tokens archived ('' if none). Drops the game if the record is at that version
# with those tokens; 1 if it did (or it was gone already).
_DROP = """
local stored = redis.call('HMGET', KEYS[1], 'v', 't')
if stored[1] and (stored[1] ~= ARGV[1] or (stored[2] or '') ~= ARGV[4]) then return 0 end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4])
if #KEYS >= 5 then redis.call('ZREM', KEYS[5], ARGV[2]) end
for i = 6, #KEYS do redis.call('ZREM', KEYS[i], ARGV[3]) end
return 1
"""

# KEYS: the record hash. ARGV: the seconds it stays, then field, value, field, value... Puts an
# archived game's hash back unless Redis holds the game (a newer write wins); 1 if it did.
_RESTORE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('EXPIRE', KEYS[1], ARGV[1])
return 1
"""


def archive_key(lane: int) -> str:
    return f"archive:{{bots-{lane}}}"


class Archived:
    """The archive's side of a RedisStore: marks, claims, copies, drops and restores."""

    def __init__(self, commands: Commands) -> None:
        self.commands = commands
        redis = commands.redis
        self._mark = redis.register_script(_MARK)
        self._claim = redis.register_script(_CLAIM)
        self._drop = redis.register_script(_DROP)
        self._restore = redis.register_script(_RESTORE)

    async def mark(self, game_id: str, due: float, ended: float | None = None) -> None:
        """The game is finished: archive it from `due` on (epoch seconds), and with `ended`
        (when it ended) rate it as soon as a worker can. Both marks are in the lane's slot."""
        lane = lane_of(game_id)
        keys = [archive_key(lane), *([] if ended is None else [rate_key(lane)])]
        args: list[float | str] = [due, ended or 0, game_id]
        await self.commands.timed("archive_mark", lambda: self._mark(keys=keys, args=args))

    async def claim(self, lane: int, now: float, until: float, count: int) -> list[str]:
        """Up to `count` games of `lane` due at `now`, claimed until `until`."""
        keys, args = [archive_key(lane)], [now, until, count]
        due: list[bytes] = await self.commands.timed(
            "archive_claim", lambda: self._claim(keys=keys, args=args)
        )
        return [game_id.decode() for game_id in due]

    async def oldest(self, lanes: range) -> float | None:
        """The earliest mark of `lanes` (due or claimed), None if none: the archive's lag."""

        async def fetch() -> list[Any]:
            async with self.commands.redis.pipeline(transaction=False) as pipe:
                for lane in lanes:
                    pipe.zrange(archive_key(lane), 0, 0, withscores=True)
                replies: list[Any] = await pipe.execute()
                return replies

        firsts = [reply[0][1] for reply in await self.commands.timed("archive_lag", fetch) if reply]
        return min(firsts) if firsts else None

    async def unmark(self, game_id: str) -> None:
        async def remove() -> None:
            await self.commands.redis.zrem(archive_key(lane_of(game_id)), game_id)

        await self.commands.timed("archive_unmark", remove)

    async def fields(self, game_id: str) -> dict[str, bytes]:
        """The game's record hash as stored (empty: gone)."""

        async def read() -> dict[Any, Any]:
            return await self.commands.redis.hgetall(game_keys(game_id)[0])

        raw = await self.commands.timed("archive_read", read)
        return {name.decode(): value for name, value in raw.items()}

    async def drop(self, game_id: str, record: Record, reissued: bytes | None) -> bool:
        """The game's keys, index members and mark gone, if it is still at `record`'s version
        with the `reissued` tokens archived; False if a write came since (a reissued token:
        RedisStore.reissue marks the game again, and it is archived again)."""
        index_keys, _ = indexes.updates(game_id, record)
        member = indexes.member(game_id, record)
        members = [key for key in index_keys if key.startswith("ix:")]
        mark = archive_key(lane_of(game_id))
        args: list[bytes | int | str] = [record.version, game_id, member, reissued or b""]
        together = in_lane_slot(game_id)  # else an earlier release's id: two slots
        keys = [*game_keys(game_id), *([mark, *members] if together else [])]
        done = await self.commands.timed("archive_drop", lambda: self._drop(keys, args))
        if done and not together:
            await self.unmark(game_id)
            for key in members:

                async def remove(key: str = key) -> None:
                    await self.commands.redis.zrem(key, member)

                await self.commands.timed("unlist", remove)
        return bool(done)

    async def restore(self, game_id: str, fields: dict[str, bytes], seconds: int) -> None:
        """An archived game's hash back in Redis for `seconds`, unless Redis holds the game."""
        args: list[Any] = [seconds]
        for name, value in fields.items():
            args += [name, value]
        keys = [game_keys(game_id)[0]]
        await self.commands.timed("archive_restore", lambda: self._restore(keys, args))
