"""The turn clocks' deadlines in Redis: a tenant's sorted set per lane (service/store/indexes.py,
`clock_key`), written by the commit script and swept by the workers (service/worker): the first
deadline of each set, the games whose clock ran out claimed for a while, a deadline removed or
put back.
"""

from __future__ import annotations

from typing import Any

from service.store import indexes
from service.store.commands import Commands
from service.store.jobs import LANES, lane_of

# KEYS: a lane's clock deadlines. ARGV: now, the claim's end, how many at most. Returns the
# claimed games and their deadlines, earliest first ({game, deadline, game, deadline...}), and
# the lane's first score after the claim (nil: no clock).
_CLAIM = """
local due = redis.call('ZRANGE', KEYS[1], '-inf', ARGV[1], 'BYSCORE', 'LIMIT', 0, ARGV[3],
  'WITHSCORES')
for i = 1, #due, 2 do redis.call('ZADD', KEYS[1], ARGV[2], due[i]) end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {due, first[2] or false}
"""


class Deadlines:
    def __init__(self, commands: Commands) -> None:
        self.commands = commands
        self._claim = commands.redis.register_script(_CLAIM)

    async def first_deadlines(self, tenants: list[str]) -> dict[tuple[int, str], float]:
        """The earliest deadline of each clock set of `tenants` that holds one, by (lane,
        tenant). A sorted set is gone once empty, so one EXISTS per lane over its sets (they
        share its slot) says which lanes hold clocks at all, all lanes pipelined; then one
        ZRANGE per set of those lanes. An idle sweeper's look does not grow with the
        tenants."""
        lanes = range(LANES)

        async def fetch() -> dict[tuple[int, str], float]:
            async with self.commands.redis.pipeline(transaction=False) as pipe:
                for lane in lanes:
                    pipe.execute_command(
                        "EXISTS", *(indexes.clock_key(lane, tenant) for tenant in tenants)
                    )
                counts: list[int] = await pipe.execute()
            sets = [
                (lane, t)
                for lane, count in zip(lanes, counts, strict=True)
                if count
                for t in tenants
            ]
            if not sets:
                return {}
            async with self.commands.redis.pipeline(transaction=False) as pipe:
                for lane, tenant in sets:
                    pipe.zrange(indexes.clock_key(lane, tenant), 0, 0, withscores=True)
                replies: list[Any] = await pipe.execute()
            return {s: float(first[0][1]) for s, first in zip(sets, replies, strict=True) if first}

        return await self.commands.timed("clocks", fetch)

    async def claim_deadlines(
        self, lane: int, tenant: str, now: float, lease: float, count: int
    ) -> tuple[list[tuple[float, str]], float | None]:
        """Up to `count` games of `tenant` in `lane` whose clock ran out by `now` (tenant "":
        the lane's own set, earlier releases' entries), earliest deadline first,
        as (deadline, game id), claimed: their score is pushed `lease` seconds on in the same
        script, so another sweeper skips them until then (and takes them over if this one
        dies); the timeout's commit sets or removes it. With them, when the set's next clock
        is due after the claim (None: no clock in it)."""
        keys = [indexes.clock_key(lane, tenant)]
        args = [repr(now), repr(now + lease), count]
        claimed, first = await self.commands.timed(
            "claim", lambda: self.commands.evalsha(self._claim, keys, args)
        )
        games = [
            (float(deadline), game_id.decode())
            for game_id, deadline in zip(claimed[::2], claimed[1::2], strict=True)
        ]
        return games, None if first is None else float(first)

    async def unclock(self, lane: int, tenant: str, game_id: str) -> None:
        """The deadline of a game that no longer exists (or was set aside), removed from the
        set of `tenant` in `lane`."""
        key = indexes.clock_key(lane, tenant)
        await self.commands.timed("unclock", lambda: self.commands.redis.zrem(key, game_id))

    async def reclock(self, game_id: str, tenant: str, deadline: float) -> None:
        """A game's deadline back among its tenant's clocks in its lane (a game retried from
        quarantine)."""
        key = indexes.clock_key(lane_of(game_id), tenant)
        await self.commands.timed(
            "reclock", lambda: self.commands.redis.zadd(key, {game_id: deadline})
        )
