"""Finished games waiting for their rating (service/worker/rating.py), as Redis sees them.

A game that ends with an archive is marked for its rating as it is marked for the archive,
in the same script (Archived.mark): its id in the lane's sorted set `rate:{bots-n}` (the lane's
slot, beside `archive:{bots-n}`), scored by when it ended. The workers' rating pass claims
the marks of a lane for a lease (the score pushed on), rates each game, and removes its mark
once the ratings answered; a mark whose rating PostgreSQL did not answer is given back at its
end time, so the next pass tries again and the lag keeps counting from the end.
"""

from __future__ import annotations

from typing import Any

from service.store.commands import Commands
from service.store.jobs import lane_of

# KEYS: a lane's rating marks. ARGV: now, the claim's end, how many at most. The ids due with
# their scores (id, score, id, score...), each claimed until the claim's end.
_CLAIM = """
local due = redis.call('ZRANGE', KEYS[1], '-inf', ARGV[1], 'BYSCORE', 'LIMIT', 0, ARGV[3],
  'WITHSCORES')
for i = 1, #due, 2 do redis.call('ZADD', KEYS[1], ARGV[2], due[i]) end
return due
"""


def rate_key(lane: int) -> str:
    return f"rate:{{bots-{lane}}}"


class RatingMarks:
    """The rating pass's side of a RedisStore: claims, give-backs and removals of marks."""

    def __init__(self, commands: Commands) -> None:
        self.commands = commands
        self._claim = commands.redis.register_script(_CLAIM)

    async def firsts(self, lanes: range) -> dict[int, float]:
        """Each lane's earliest mark (due or claimed), for the lanes that hold one."""

        async def fetch() -> list[Any]:
            async with self.commands.redis.pipeline(transaction=False) as pipe:
                for lane in lanes:
                    pipe.zrange(rate_key(lane), 0, 0, withscores=True)
                replies: list[Any] = await pipe.execute()
                return replies

        replies = await self.commands.timed("rating_firsts", fetch)
        return {lane: reply[0][1] for lane, reply in zip(lanes, replies, strict=True) if reply}

    async def claim(
        self, lane: int, now: float, until: float, count: int
    ) -> list[tuple[str, float]]:
        """Up to `count` games of `lane` that ended by `now`, with their end times, claimed
        until `until`."""
        keys, args = [rate_key(lane)], [now, until, count]
        due: list[bytes] = await self.commands.timed(
            "rating_claim", lambda: self._claim(keys=keys, args=args)
        )
        return [(due[i].decode(), float(due[i + 1])) for i in range(0, len(due), 2)]

    async def give_back(self, lane: int, marks: list[tuple[str, float]]) -> None:
        """Claimed marks due again at once, at their end times (those still there)."""
        if not marks:
            return

        async def add() -> None:
            mapping = {game_id: ended for game_id, ended in marks}
            await self.commands.redis.zadd(rate_key(lane), mapping, xx=True)

        await self.commands.timed("rating_give_back", add)

    async def unmark(self, game_id: str) -> None:
        async def remove() -> None:
            await self.commands.redis.zrem(rate_key(lane_of(game_id)), game_id)

        await self.commands.timed("rating_unmark", remove)
