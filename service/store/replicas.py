"""The replicas' acknowledgement of the game store's writes (RULES_REPLICA_ACK).

With RULES_REPLICA_ACK = n > 0, `create` and `commit` send `WAIT n RULES_REPLICA_ACK_TIMEOUT_MS`
right behind the script, in the same round trip and on the same connection (WAIT counts the
replicas that have this connection's own writes; on another one it does not wait for this
write), on a cluster to the node that owns the game's slot. Fewer confirmations: NotReplicated
(UNAVAILABLE), the write stays on the master. `RedisStore.confirm_replicated` does the same for
a replayed answer, whose write another connection made: it writes a short-lived marker in the
game's slot (g:{id}:w) and waits for that, which the replicas only reach after every earlier
write.
`reissue` waits like `commit`. The writes of a tenant's webhook endpoints (service/webhooks)
go through `script_acked`, `confirm_marked` and `write_each_acked`: the same WAIT on the
writing connection, behind a marker in their own slot.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import msgspec
from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript

from service import metrics
from service.settings import Settings
from service.store.commands import Command, Commands
from service.store.connection import NotReplicated, StoreUnavailable

log = logging.getLogger("service.store")
MARKER_MS = 1000  # life of the marker a replayed answer waits for (RedisStore.confirm_replicated)
# NotReplicated's message for a write that is not a move (a reissued token, a webhook endpoint)
CHANGE_NOT_REPLICATED = "the change was saved but not yet copied to a standby store; retry it"
# the pauses (s) before each of the store's own tries to announce an unconfirmed commit (~31 s
# in all), and how many games one process follows up at once (beyond: the next version does)
FOLLOW_UP_PAUSES = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0)
MAX_FOLLOW_UPS = 256
# a game's version and status as its master has them, once its replicas do (None: expired)
Confirmed = Callable[[], Awaitable[tuple[int, str] | None]]


def key_of(write: Command) -> str:
    """The key a single-key write names: a script's first key, else the command's first argument."""
    return str(write[3] if str(write[0]).upper() in ("EVAL", "EVALSHA") else write[1])


class ReplicaAcks:
    def __init__(self, commands: Commands, settings: Settings, publish: str) -> None:
        self.replica_ack = settings.replica_ack
        timeout_ms = settings.replica_ack_timeout_ms
        if self.replica_ack < 0:
            raise ValueError("RULES_REPLICA_ACK is a number of replicas, 0 or more")
        if self.replica_ack and not 0 < timeout_ms < settings.redis_timeout * 1000:
            raise ValueError("RULES_REPLICA_ACK_TIMEOUT_MS must be above 0 and below REDIS_TIMEOUT")
        self._wait: Command = ("WAIT", self.replica_ack, timeout_ms)
        self.commands = commands
        self._publish = publish
        self._follow_ups: set[asyncio.Task[None]] = set()

    async def evalsha_acked(
        self, script: AsyncScript, keys: Sequence[str], args: list[Any]
    ) -> tuple[Any, int]:
        """The script's reply and how many replicas confirmed its writes (WAIT on the same
        connection, RULES_REPLICA_ACK); without the setting, the reply and 0."""
        if not self.replica_ack:
            return await self.commands.evalsha(script, keys, args), 0
        reply, confirmed = await self.commands.script(script, keys, args, (self._wait,))
        return reply, int(confirmed)

    def confirmed(self, command: str, confirmed: int, message: str = "") -> None:
        """NotReplicated when fewer replicas than RULES_REPLICA_ACK confirmed a write."""
        if confirmed < self.replica_ack:
            metrics.REPLICA_ACK_MISSES.labels(command).inc()
            raise NotReplicated(self.replica_ack, confirmed, message)

    async def announce(self, game_id: str, version: int, status: str) -> None:
        """With RULES_REPLICA_ACK, the event of a confirmed version (the commit script leaves
        it out): one event of the latest version, since a subscriber is given every version
        up to the one an event names (service/core/reads/following.py). A write whose confirmation
        timed out is announced by its retry (`confirm_replicated`), by the store's own
        `follow_up`, or with the game's next version. Failing to publish fails nothing: the
        write stands, acknowledged; a subscriber catches up with the next event or when it
        resumes."""
        if not self.replica_ack:
            return
        channel = f"g:{{{game_id}}}:events"
        event = msgspec.json.encode({"gameId": game_id, "version": version, "status": status})
        try:
            await self.commands.timed(
                "announce",
                lambda: self.commands.execute([(self._publish, channel, event)], channel),
            )
        except StoreUnavailable as exc:
            log.warning("event of %s v%d not published (%s)", game_id, version, exc)

    def follow_up(self, game_id: str, version: int, confirmed: Confirmed) -> None:
        """A commit answered NotReplicated stands on the master: if its client never retries,
        nobody would hear of it before the game's next version (a seat waiting for its turn).
        So the store tries again itself, in the background: on one connection to the slot's
        master it reads the record, writes the marker and WAITs, so the version it read is
        the one the replicas confirmed, and announces it; a version a failover lost is never
        announced (the master's record is behind it then). `confirmed` is that read and wait
        (RedisStore.confirmed_version)."""
        if len(self._follow_ups) >= MAX_FOLLOW_UPS:
            return
        task = asyncio.create_task(self._announce_when_confirmed(game_id, version, confirmed))
        self._follow_ups.add(task)
        task.add_done_callback(self._follow_ups.discard)

    async def _announce_when_confirmed(
        self, game_id: str, version: int, confirmed: Confirmed
    ) -> None:
        for pause in FOLLOW_UP_PAUSES:
            await asyncio.sleep(pause)
            try:
                now = await confirmed()
            except StoreUnavailable:
                continue  # NotReplicated too: the replica is not back yet
            if now is not None and now[0] >= version:  # else expired, or lost in a failover
                await self.announce(game_id, *now)
            return

    async def close(self) -> None:
        for task in list(self._follow_ups):
            task.cancel()
        await asyncio.gather(*self._follow_ups, return_exceptions=True)

    async def confirm_marked(
        self, command: str, marker: str, message: str, *reads: Command
    ) -> list[Any] | None:
        """With RULES_REPLICA_ACK: return once enough replicas hold every write made so far on
        the master of `marker`'s slot, which a short-lived marker written there and WAIT on
        its connection tell; else NotReplicated with `message` ("": a move's). `reads` of keys
        in that slot go first on the same connection: their replies, which the replicas hold
        then, are returned (None without the setting: nothing was read)."""
        if not self.replica_ack:
            return None
        commands: list[Command] = [*reads, ("SET", marker, 1, "PX", MARKER_MS), self._wait]
        replies = await self.commands.timed(
            command, lambda: self.commands.execute(commands, marker)
        )
        self.confirmed(command, int(replies[-1]), message)
        return replies[: len(reads)]

    async def script_acked(
        self, command: str, script: AsyncScript, keys: Sequence[str], args: list[Any], marker: str
    ) -> Any:
        """The reply of another layer's script (a webhook endpoint's change), acknowledged like
        a move: with RULES_REPLICA_ACK a marker in the script's slot (`marker`) and WAIT
        follow it on its connection, and fewer confirmations raise NotReplicated whatever it
        answered: an answer that wrote nothing ("no such endpoint") may rest on an earlier
        write of another connection, which the marker's confirmation covers too."""
        if not self.replica_ack:
            return await self.commands.timed(
                command, lambda: self.commands.evalsha(script, keys, args)
            )
        then: tuple[Command, ...] = (("SET", marker, 1, "PX", MARKER_MS), self._wait)
        reply, _, confirmed = await self.commands.timed(
            command, lambda: self.commands.script(script, keys, args, then)
        )
        self.confirmed(command, int(confirmed), CHANGE_NOT_REPLICATED)
        return reply

    async def write_each_acked(
        self, command: str, writes: Sequence[Command], acknowledged: bool = True
    ) -> None:
        """Single-key writes of another layer (a tenant's webhook switch in every lane), each
        server's share on one connection with WAIT behind it when RULES_REPLICA_ACK asks and
        `acknowledged` (on a cluster: the master of each key's slot, the servers at once);
        NotReplicated if any server's replicas confirm fewer."""
        redis = self.commands.redis
        if not (self.replica_ack and acknowledged):

            async def pipelined() -> None:
                async with redis.pipeline(transaction=False) as pipe:
                    for write in writes:
                        pipe.execute_command(*write)
                    await pipe.execute()

            await self.commands.timed(command, pipelined)
            return

        async def acked(share: list[Command]) -> int:
            replies = await self.commands.execute([*share, self._wait], key_of(share[0]))
            return int(replies[-1])

        async def every_server() -> list[int]:
            shares: dict[str, list[Command]] = {}
            for write in writes:
                node = (
                    redis.get_node_from_key(key_of(write))
                    if isinstance(redis, RedisCluster)
                    else None
                )
                shares.setdefault("" if node is None else node.name, []).append(write)
            return list(await asyncio.gather(*(acked(share) for share in shares.values())))

        confirmed = await self.commands.timed(command, every_server)
        self.confirmed(command, min(confirmed, default=self.replica_ack), CHANGE_NOT_REPLICATED)
