"""The Redis store. Keys of one game share the hash tag {id}, so it runs on Redis Cluster.

    g:{id}         hash: v = version, r = msgpack Record, w = the record's format (the
                   oldest release that may write it; absent in records of earlier releases),
                   h = the FoldedHistory of a finished game (zlib; records.fold), written
                   once when the game ends, t = JSON {"<seat>": "<sha256 hex>"} of the
                   seats whose token the tenant reissued, which overrides the record's
                   token_hashes (`load`, `reissue`)
    g:{id}:h       list: msgpack HistoryRecord, one per version, oldest first; removed
                   when the game ends and its history is folded into g:{id} h
    g:{id}:i       hash: "<seat>:<idempotency key>" -> version after that move, and
                   "f:<seat>:<idempotency key>" -> the request's fingerprint (entries of
                   earlier releases have none; a separate field keeps their readers working)
    g:{id}:c       hash: slot n -> msgpack Checkpoint, the state at the first committed version
                   at or past n * CHECKPOINT_EVERY (records.py), for past states; lives as
                   long as the record; folded into g:{id} c (zlib) when the game ends
    g:{id}:events  channel: one JSON event per new version
    g:{id}:q       string: a bot job re-queued lately (games from before the lanes only)
    g:{id}:w       string: a marker a replayed answer waits for (RULES_REPLICA_ACK), 1 s
    bots:{bots-n}:<tenant>  stream: the tenant's bot turns due, one lane per slot
                   (service/store/jobs.py); bots:{bots-n}: those of games without a tenant
    ix:{bots-n}:*  sorted sets: a tenant's games, a player's, where a player must act, per
                   lane (service/store/indexes.py), written by the same scripts
    clocks:{bots-n}:<tenant>  sorted set: turn-clock deadlines of the tenant's games in the
                   lane (same scripts); clocks:{bots-n}: those earlier releases wrote
    wh:{bots-n}:o:<tenant>  stream: the tenant's webhook events of the lane's games, written by
                   the same scripts while wh:{bots-n}:on:<tenant> exists (service/webhooks)

On a cluster (`redis+cluster://` URL or `?cluster=true`) the events are sharded pub/sub
(SPUBLISH/SSUBSCRIBE, Redis 7+): they stay on the shard that owns the game's slot instead of
being broadcast over the cluster bus to every node. Subscribers share one pub/sub connection
per process and server (service/store/events.py).

A move costs two round trips: `load` (record and idempotency entry in one pipeline) and
`commit` (one Lua script: version check, record write, history append, idempotency entry,
TTLs, one published event per new version, the bot job if a bot seat is due; all or nothing).

During a rolling upgrade two releases share the games. The commit script refuses to write a
record whose stored format `w` is newer than the writer's (records.FORMAT): an older release
would drop the fields it does not know. `commit` raises UpgradeInProgress then, and nothing
is written (docs/reliability.md, "Rolling upgrades").

When a game ends, `fold` replaces its history list with one compressed value in the record's
hash and shortens the idempotency hash's life to RULES_IDEMPOTENCY_GRACE: a finished game then
costs its record and the folded history (docs/performance.md, "Memory"). It runs after the
final commit, once per game; a game left unfolded (the process died in between) still reads
and expires as before.

The store's parts: its scripts (service/store/scripts.py), how its commands reach Redis and
follow a cluster's failover (commands.py), the replicas' acknowledgement of its writes with
RULES_REPLICA_ACK (replicas.py), the turn clocks' deadlines (deadlines.py) and the reads of
stored values and of a game's past (reading.py). RedisStore is the one object the rest of the
service uses.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

import msgspec
from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript

from service import metrics
from service.settings import Settings
from service.store import indexes, reading
from service.store.archived import Archived
from service.store.cold import Cold
from service.store.commands import Command, Commands
from service.store.connection import (
    Client,
    NotReplicated,
    StoreUnavailable,
    UnreadableRecord,
    UpgradeInProgress,
)
from service.store.deadlines import Deadlines
from service.store.events import EventHub, Subscriber, events_channel
from service.store.jobs import WAKE, in_lane_slot, job_key, lane_of
from service.store.reading import decode_record, decoded, game_keys, with_reissued
from service.store.records import FORMAT, Checkpoint, HistoryRecord, Record
from service.store.replicas import CHANGE_NOT_REPLICATED as CHANGE_NOT_REPLICATED
from service.store.replicas import ReplicaAcks
from service.store.scripts import (
    COMMIT_TEMPLATE,
    CREATE,
    EVENTS,
    FOLD,
    REISSUE,
    checkpoint_args,
    outbox_keys,
)

log = logging.getLogger("service.store")


class Committed(msgspec.Struct, frozen=True):
    outcome: str  # "ok", "stale", "dup" or "gone" ("new" becomes UpgradeInProgress)
    version: int


class Done(msgspec.Struct, frozen=True):
    """An idempotency entry: the version its move produced, the request's fingerprint (None
    in entries written by earlier releases) and the field it was read under ("<seat>:<key>";
    a replayed answer confirms that the master still holds it, `confirm_replicated`)."""

    version: int
    fingerprint: str | None = None
    field: str = ""


_events_encoder = msgspec.json.Encoder()


def _same_entry(entry: list[bytes | None], done: Done) -> bool:
    """Whether an idempotency entry read again (version, fingerprint) is the one `done` was."""
    version, fingerprint = entry
    if version is None or int(version) != done.version:
        return False
    return done.fingerprint is None or (fingerprint or b"").decode() == done.fingerprint


class RedisStore:
    def __init__(self, redis: Client, settings: Settings) -> None:
        self.redis = redis
        self.settings = settings
        self.cluster = isinstance(redis, RedisCluster)
        self._publish = "SPUBLISH" if self.cluster else "PUBLISH"
        self.commands = Commands(redis, settings)
        self.direct = self.commands.direct
        self.acks = ReplicaAcks(self.commands, settings, self._publish)
        self.replica_ack = self.acks.replica_ack
        events = "" if self.replica_ack else EVENTS.replace("$PUBLISH", self._publish)
        self._create = redis.register_script(CREATE)
        self._commit = redis.register_script(COMMIT_TEMPLATE.replace("$EVENTS", events))
        self._fold = redis.register_script(FOLD)
        self._reissue = redis.register_script(REISSUE)
        self.deadlines = Deadlines(self.commands)
        self.archived = Archived(self.commands)
        self.cold: Cold | None = None  # the archive of finished games, if there is one
        self.hub = EventHub(redis, settings.subscriber_queue, settings.redis_timeout)

    def ttl(self, finished: bool) -> int:
        return self.settings.finished_ttl if finished else self.settings.active_ttl

    def index_ttl(self) -> int:
        """An index key outlives every game it lists (service/store/indexes.py)."""
        return max(self.settings.finished_ttl, self.settings.active_ttl)

    async def ping(self) -> bool:
        """Redis answers; on a cluster, every master answers (one down leaves slots unserved)."""
        redis = self.redis

        async def every_master() -> Any:
            assert isinstance(redis, RedisCluster)
            return await redis.execute_command("PING", target_nodes=RedisCluster.PRIMARIES)

        try:
            if isinstance(redis, RedisCluster):
                return bool(await self.commands.timed("ping", every_master))
            return bool(await self.commands.timed("ping", redis.ping))
        except StoreUnavailable:
            return False

    async def create(
        self,
        game_id: str,
        record: Record,
        history: list[HistoryRecord],
        bot_due: int | None = None,
        events: Sequence[msgspec.Struct] = (),
    ) -> bool:
        """Store a new game; with `bot_due`, that bot seat's job at its version too (new ids
        come from jobs.new_game_id(), so the lane shares the game's slot); `events` go to the
        tenant's webhook outbox (service/webhooks/events.py)."""
        lane = self._lane(game_id, record.tenant)
        index_keys, flags = indexes.updates(game_id, record) if lane else ([], "")
        keys = [
            *game_keys(game_id)[:2],
            *lane,
            *index_keys,
            *outbox_keys(game_id, record, lane, events),
        ]
        args: list[bytes | int | str] = [
            record.version,
            msgspec.msgpack.encode(record),
            self.ttl(record.finished),
            game_id,
            "" if bot_due is None else bot_due,
            indexes.member(game_id, record),
            flags,
            self.index_ttl(),
            "" if record.deadline is None else repr(record.deadline),
            _events_encoder.encode(events) if events else "",
            FORMAT,
            *(msgspec.msgpack.encode(h) for h in history),
        ]
        created, confirmed = await self.commands.timed(
            "create", lambda: self.acks.evalsha_acked(self._create, keys, args)
        )
        if created and bot_due is not None and not lane:
            await self._enqueue_after(game_id, record.tenant, record.version, bot_due)
        if created:
            self.acks.confirmed("create", confirmed)
        return bool(created)

    def queues_after_commit(self, game_id: str) -> bool:
        """Whether this game's bot jobs are appended after its commits instead of by them."""
        return self.cluster and not in_lane_slot(game_id)

    async def requeue(
        self, game_id: str, tenant: str, version: int, seat: int, every: float
    ) -> None:
        """Append the job (version, seat) again, at most once per `every` seconds per game."""
        marker = f"g:{{{game_id}}}:q"
        fresh = await self.commands.timed(
            "requeue", lambda: self.redis.set(marker, version, nx=True, px=int(every * 1000))
        )
        if fresh:
            await self._enqueue_after(game_id, tenant, version, seat)

    def _lane(self, game_id: str, tenant: str) -> list[str]:
        """The tenant's job stream of the game's lane, as a script key, when the script may
        write it (same slot, or one server where slots do not matter); else nothing."""
        if self.queues_after_commit(game_id):
            return []
        return [job_key(lane_of(game_id), tenant)]

    async def load(
        self, game_id: str, idempotency: str | None = None
    ) -> tuple[Record | None, Done | None]:
        """The record (its reissued tokens in `token_hashes`) and, if asked, what an earlier
        move with that key left (one round trip)."""
        record_key, _, idem_key, _ = game_keys(game_id)

        async def fetch() -> list[Any]:
            if self.direct is not None:
                commands: list[tuple[str, ...]] = [("HMGET", record_key, "r", "t")]
                if idempotency is not None:
                    commands.append(("HMGET", idem_key, idempotency, f"f:{idempotency}"))
                return await self.direct.execute(commands)
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.hmget(record_key, ["r", "t"])
                if idempotency is not None:
                    pipe.hmget(idem_key, [idempotency, f"f:{idempotency}"])
                replies: list[Any] = await pipe.execute()
                return replies

        replies = await self.commands.timed("load", fetch)
        raw, reissued = replies[0]
        if raw is None and self.cold is not None:
            raw, reissued = await self._from_archive(game_id)
        record = None if raw is None else decode_record(game_id, raw)
        if record is not None:
            record = with_reissued(game_id, record, reissued)
        if idempotency is None or replies[1][0] is None:
            return record, None
        version, fingerprint = replies[1]
        return record, decoded(
            game_id,
            "idempotency",
            lambda: Done(int(version), fingerprint.decode() if fingerprint else None, idempotency),
        )

    async def _from_archive(self, game_id: str) -> tuple[bytes | None, bytes | None]:
        """The record and reissued tokens of an archived game, its hash put back in Redis for
        RULES_ARCHIVE_TAIL_SECONDS so that the reads after this one find it there."""
        assert self.cold is not None
        fields = await self.cold.load(game_id)
        if fields is None:
            return None, None
        await self.archived.restore(game_id, fields, self.settings.archive_tail_seconds)
        return fields.get("r"), fields.get("t")

    async def commit(
        self,
        game_id: str,
        expected: int,
        record: Record,
        history: list[HistoryRecord],
        idempotency: str | None,
        fingerprint: str = "",
        bot_due: int | None = None,
        events: Sequence[msgspec.Struct] = (),
        record_digest: str = "",
    ) -> Committed:
        """The version-checked write; with `bot_due`, that bot seat's job at the new version;
        `events` go to the tenant's webhook outbox (service/webhooks/events.py); with
        `record_digest`, only over the stored record of that SHA-1 ('stale' else). Raises
        UpgradeInProgress, writing nothing, when a newer release wrote the record last."""
        lane = self._lane(game_id, record.tenant)
        index_keys, flags = indexes.updates(game_id, record) if lane else ([], "")
        keys = [
            *game_keys(game_id),
            *lane,
            *index_keys,
            *outbox_keys(game_id, record, lane, events),
        ]
        args: list[bytes | int | str] = [
            expected,
            record.version,
            msgspec.msgpack.encode(record),
            idempotency or "",
            self.ttl(record.finished),
            game_id,
            record.status(),
            fingerprint,
            "" if bot_due is None else bot_due,
            indexes.member(game_id, record),
            flags,
            self.index_ttl(),
            "" if record.deadline is None else repr(record.deadline),
            _events_encoder.encode(events) if events else "",
            *checkpoint_args(expected, record),
            FORMAT,
            record_digest,
            *(msgspec.msgpack.encode(h) for h in history),
        ]
        reply, confirmed = await self.commands.timed(
            "commit", lambda: self.acks.evalsha_acked(self._commit, keys, args)
        )
        committed = Committed(reply[0].decode(), int(reply[1]))
        if committed.outcome == "new":
            metrics.NEWER_RELEASE.labels("commit").inc()
            raise UpgradeInProgress(game_id, f"record format {committed.version}, not {FORMAT}")
        if committed.outcome == "ok" and bot_due is not None and not lane:
            await self._enqueue_after(game_id, record.tenant, record.version, bot_due)
        if committed.outcome == "ok":
            try:
                self.acks.confirmed("commit", confirmed)
            except NotReplicated:
                self.acks.follow_up(
                    game_id, record.version, lambda: self.confirmed_version(game_id)
                )
                raise
            await self.announce(game_id, record.version, record.status())
        return committed

    # The replicas' acknowledgements other layers ask for (service/store/replicas.py).

    async def announce(self, game_id: str, version: int, status: str) -> None:
        await self.acks.announce(game_id, version, status)

    async def confirm_replicated(
        self, game_id: str, version: int, status: str, done: Done | None = None
    ) -> None:
        """With RULES_REPLICA_ACK: return once enough replicas hold every write the game's
        master made so far (a replayed answer's move among them), else NotReplicated; then
        announce the game's `version` (the first try may have been refused unannounced). WAIT
        counts only its own connection's writes, so it follows a short-lived marker in the
        game's slot, written on that connection: a replica reaches it after all before it.
        What the answer rests on is read first on that connection: the record's version
        (below `version`, the answer was read from a master a failover has since replaced
        without it) and, for a replayed answer, its idempotency entry `done`, which must be
        there as it was read. A version alone does not tell the move: a promoted replica that
        never got the replayed move may since have taken another one at that version. Either
        missing is UNAVAILABLE: the retry finds no entry and decides the move anew (against
        its expectedVersion, STALE_VERSION if the game moved on)."""
        record_key, _, idem_key, _ = game_keys(game_id)
        reads: list[Command] = [("HGET", record_key, "v")]
        if done is not None and done.field:
            reads.append(("HMGET", idem_key, done.field, f"f:{done.field}"))
        replies = await self.acks.confirm_marked("replicated", f"{record_key}:w", "", *reads)
        if replies is None:  # without RULES_REPLICA_ACK nothing is waited for or announced
            return
        stored = replies[0]
        if stored is None or int(stored) < version:
            raise StoreUnavailable(f"{game_id} is behind v{version} on its master now")
        if len(replies) > 1 and done is not None and not _same_entry(replies[1], done):
            raise StoreUnavailable(f"{game_id}: {done.field} is not on its master now")
        await self.announce(game_id, version, status)

    async def confirmed_version(self, game_id: str) -> tuple[int, str] | None:
        """The game's version and status as its master has them, once its replicas hold them
        (read on the connection that writes the marker and WAITs; None: expired or
        unreadable); NotReplicated when they do not yet."""
        record_key = game_keys(game_id)[0]
        read = ("HGET", record_key, "r")
        replies = await self.acks.confirm_marked("replicated", f"{record_key}:w", "", read)
        raw = None if replies is None else replies[0]
        try:
            record = None if raw is None else decode_record(game_id, raw)
        except UnreadableRecord:
            return None
        return None if record is None else (record.version, record.status())

    async def confirm_marked(self, command: str, marker: str, message: str) -> None:
        await self.acks.confirm_marked(command, marker, message)

    async def script_acked(
        self, command: str, script: AsyncScript, keys: Sequence[str], args: list[Any], marker: str
    ) -> Any:
        return await self.acks.script_acked(command, script, keys, args, marker)

    async def write_each_acked(
        self, command: str, writes: Sequence[Command], acknowledged: bool = True
    ) -> None:
        await self.acks.write_each_acked(command, writes, acknowledged)

    async def _enqueue_after(self, game_id: str, tenant: str, version: int, seat: int) -> None:
        """A game from before the lanes, on a cluster: its slot holds no lane, so the job is
        appended right after the commit. Not atomic with it: if this process dies in between,
        the next read of the game after the reclaim timeout queues it again (GameService.read)."""
        key = job_key(lane_of(game_id), tenant)
        fields: dict[Any, Any] = {"g": game_id, "v": version, "s": seat}

        async def append() -> None:
            await self.redis.xadd(key, fields)
            await self.redis.publish(WAKE, key)

        await self.commands.timed("enqueue", append)

    # The turn clocks' deadlines (service/store/deadlines.py).

    async def first_deadlines(self, tenants: list[str]) -> dict[tuple[int, str], float]:
        return await self.deadlines.first_deadlines(tenants)

    async def claim_deadlines(
        self, lane: int, tenant: str, now: float, lease: float, count: int
    ) -> tuple[list[tuple[float, str]], float | None]:
        return await self.deadlines.claim_deadlines(lane, tenant, now, lease, count)

    async def unclock(self, lane: int, tenant: str, game_id: str) -> None:
        await self.deadlines.unclock(lane, tenant, game_id)

    async def reclock(self, game_id: str, tenant: str, deadline: float) -> None:
        await self.deadlines.reclock(game_id, tenant, deadline)

    # Reads of stored values and of a game's past (service/store/reading.py).

    async def listed(
        self, reads: list[tuple[str, str | None]], floor: str | None, count: int
    ) -> list[list[str]]:
        return await reading.listed(self.commands, reads, floor, count)

    async def records(self, game_ids: list[str]) -> list[Record | UnreadableRecord | None]:
        return await reading.records(self.commands, game_ids)

    async def unlist(self, entries: list[tuple[str, str]]) -> None:
        """Index members of games that expired, removed (each key on its own: a member's key is
        in its game's slot, and nothing else in that slot must change with it)."""
        for member, key in entries:

            async def remove(key: str = key, member: str = member) -> None:
                await self.redis.zrem(key, member)

            await self.commands.timed("unlist", remove)

    async def history(
        self, game_id: str, after: int = 0, until: int | None = None
    ) -> list[HistoryRecord]:
        """Entries of versions after `after` up to `until` (inclusive; None: the latest);
        the labels of a folded history may be "" (see read_history)."""
        entries, _ = await self.read_history(game_id, after, until)
        return entries

    async def read_history(
        self, game_id: str, after: int = 0, until: int | None = None
    ) -> tuple[list[HistoryRecord], bytes | None]:
        return await reading.read_history(self.commands, game_id, after, until)

    async def checkpoints(self, game_id: str) -> list[Checkpoint]:
        return await reading.checkpoints(self.commands, game_id)

    async def checkpoint(self, game_id: str, version: int) -> Checkpoint | None:
        return await reading.checkpoint(self.commands, game_id, version)

    async def fold(
        self, game_id: str, version: int, folded: bytes, checkpoints: bytes = b""
    ) -> bool:
        """Fold a finished game's history (records.fold of every entry up to `version`) and
        its checkpoints (records.fold_checkpoints, read before) into its record and let its
        idempotency entries go after the grace; False if the game is not at that version, its
        history was folded already, or a newer release wrote it."""
        keys = game_keys(game_id)
        args: list[bytes | int | str] = [
            version,
            folded,
            self.settings.idempotency_grace,
            checkpoints,
            FORMAT,
        ]
        done = await self.commands.timed(
            "fold", lambda: self.commands.evalsha(self._fold, keys, args)
        )
        return bool(done)

    async def reissue(self, game_id: str, seat: int, token_hash: bytes) -> bool:
        """The seat's token is now the one hashing to `token_hash` (the record's own and any
        earlier reissued one stop working with the next load); False if the game is gone.
        With RULES_REPLICA_ACK, NotReplicated until replicas confirm it (a failover must not
        bring back a token the tenant replaced: a retry reissues again, the last one counts)."""
        keys, args = [game_keys(game_id)[0]], [seat, token_hash.hex()]
        done, confirmed = await self.commands.timed(
            "reissue", lambda: self.acks.evalsha_acked(self._reissue, keys, args)
        )
        if done:
            self.acks.confirmed("reissue", confirmed, CHANGE_NOT_REPLICATED)
            await self._tell(game_id, {"gameId": game_id, "reissued": seat})
            if self.cold is not None:  # a finished game's archived tokens are stale now
                await self.archived.mark(game_id, time.time())
        return bool(done)

    async def _tell(self, game_id: str, event: dict[str, object]) -> None:
        """An event that is no version (a seat's token reissued) to the game's subscribers on
        every replica; failing to publish fails nothing (service/core/reads/following.py)."""
        channel = events_channel(game_id)
        data = msgspec.json.encode(event)
        try:
            await self.commands.timed(
                "announce", lambda: self.commands.execute([(self._publish, channel, data)], channel)
            )
        except StoreUnavailable as exc:
            log.warning("event %s of %s not published (%s)", event, game_id, exc)

    def events(
        self, game_id: str, on_drop: Callable[[], None] = lambda: None
    ) -> AbstractAsyncContextManager[Subscriber]:
        """A subscriber of one game's events (service/store/events.py); `on_drop` runs if it
        falls too far behind."""
        return self.hub.subscribe(game_id, on_drop)

    async def close(self) -> None:
        await self.acks.close()
        await self.commands.close()
        await self.hub.close()
        if self.direct is not None:
            await self.direct.close()
        await self.redis.aclose()
