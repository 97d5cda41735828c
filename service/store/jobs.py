"""Bot turns as jobs on Redis Streams, laid out for Redis Cluster (docs/reliability.md).

A Lua script may only touch keys of one hash slot, the game's, so the stream a commit appends
a job to must share that slot. There are LANES streams, `bots:{bots-<n>}`, each in its own
slot (their slots are spread over the key space); new game ids are drawn so that the id hashes
to one of those slots, so each game's jobs go to the lane of its own slot, atomically with the
commit. A game whose id hashes elsewhere (created before lanes existed) uses the lane
`crc16(id) % LANES`: on one Redis server the script still writes it atomically; on a cluster
the store appends it right after the commit (see RedisStore.commit).

Each lane holds one stream per tenant, `bots:{bots-<n>}:<tenant>` (job_key), so a worker can
serve the tenants in turn and one tenant's backlog does not delay another's bot turns (as the
webhook outboxes do); the lane's own stream `bots:{bots-<n>}` takes the jobs of games without a
tenant (earlier releases) and still holds the jobs those releases queued.

Each job is one stream entry {g: game id, v: version, s: seat}: "at version v, bot seat s is
due". Workers read every (lane, tenant) stream through the consumer group GROUP, acknowledge
and delete each entry when done, and reclaim (XAUTOCLAIM) entries a dead worker left pending.
The commit script also PUBLISHes the stream's key on WAKE (a plain channel: it has no slot and
reaches every node) so idle workers look at once instead of at their next poll.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
import time
from binascii import crc_hqx
from string import ascii_letters, digits
from typing import Any

import msgspec
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ResponseError

LANES = 32
SLOTS = 16384
GROUP = "bots"
WAKE = "bots:wake"

_TAGS = [f"bots-{lane}" for lane in range(LANES)]
LANE_KEYS = [f"bots:{{{tag}}}" for tag in _TAGS]
_LANE_OF_SLOT = {crc_hqx(tag.encode(), 0) % SLOTS: lane for lane, tag in enumerate(_TAGS)}
assert len(_LANE_OF_SLOT) == LANES, "every lane needs a slot of its own"

_URL_SAFE = ascii_letters + digits + "-_"
_SUFFIXES = [(a + b).encode() for a in _URL_SAFE for b in _URL_SAFE]


def job_key(lane: int, tenant: str) -> str:
    """The stream of `tenant`'s bot jobs in `lane` (the lane's own stream for tenant "")."""
    return f"{LANE_KEYS[lane]}:{tenant}" if tenant else LANE_KEYS[lane]


class Job(msgspec.Struct, frozen=True):
    lane: int
    entry: str  # the stream entry id, "<milliseconds>-<n>"
    game_id: str
    version: int
    seat: int
    tenant: str = ""  # whose stream of the lane holds it ("": the lane's own)

    def age(self) -> float:
        return _age(self.entry, time.time())


def _age(entry: str, now: float) -> float:
    """Seconds since the entry was appended (stream ids carry Redis' clock in ms)."""
    return max(now - int(entry.partition("-")[0]) / 1000, 0.0)


def slot(game_id: str) -> int:
    return crc_hqx(game_id.encode(), 0) % SLOTS


def in_lane_slot(game_id: str) -> bool:
    return slot(game_id) in _LANE_OF_SLOT


def lane_of(game_id: str) -> int:
    return _LANE_OF_SLOT.get(slot(game_id), crc_hqx(game_id.encode(), 0) % LANES)


def new_game_id() -> str:
    """A random 16-character URL-safe id whose hash slot is one of the lanes' slots: 14 random
    characters, then the first 2-character suffix that lands in a lane (CRC16 continues over
    the suffix, so each try costs one short crc_hqx; about 512 tries on average)."""
    while True:
        found = _in_a_lane(secrets.token_urlsafe(11)[:14])
        if found is not None:
            return found


def derived_game_id(seed: str) -> str:
    """new_game_id's kind of id, drawn from `seed` instead of at random: the same seed gives
    the same id (a match's game, a game's rematch: whoever makes it first, the others find it).
    Its 14 characters come from a digest of the seed and a try number."""
    tries = 0
    while True:
        digest = hashlib.sha256(f"{seed}:{tries}".encode()).digest()
        found = _in_a_lane(base64.urlsafe_b64encode(digest).decode()[:14])
        if found is not None:
            return found
        tries += 1


def _in_a_lane(stem: str) -> str | None:
    """`stem` and the first 2-character suffix that puts it in a lane's slot, if one does."""
    start = crc_hqx(stem.encode(), 0)
    for suffix in _SUFFIXES:
        if crc_hqx(suffix, start) % SLOTS in _LANE_OF_SLOT:
            return stem + suffix.decode()
    return None


def first_entries(pipe: Any, redis: Any, keys: list[str]) -> None:
    """Queue on `pipe` an XREAD of the first entry of each stream of `keys` (one slot's). On a
    cluster it names the server of that slot: redis-py would otherwise ask a server for the
    keys of every XREAD (`COMMAND GETKEYS`, twice), more than the look itself costs."""
    route = (
        {"target_nodes": redis.get_node_from_key(keys[0])}
        if isinstance(redis, RedisCluster)
        else {}
    )
    pipe.execute_command("XREAD", "COUNT", 1, "STREAMS", *keys, *["0-0"] * len(keys), **route)


def _job(lane: int, tenant: str, entry: Any, fields: dict[bytes, bytes]) -> Job | None:
    try:
        return Job(
            lane,
            _entry(entry),
            fields[b"g"].decode(),
            int(fields[b"v"]),
            int(fields[b"s"]),
            tenant,
        )
    except (KeyError, ValueError):
        return None  # not a job this release understands: acknowledged and dropped by caller


def _entry(entry: Any) -> str:
    return entry.decode() if isinstance(entry, bytes) else str(entry)


class JobQueue:
    """The workers' side of the lanes: read, reclaim, acknowledge, measure; over the streams of
    `tenants` and the lanes' own."""

    def __init__(
        self, redis: Any, consumer: str, reclaim_after_ms: int, tenants: list[str]
    ) -> None:
        self.redis = redis
        self.consumer = consumer
        self.reclaim_after_ms = reclaim_after_ms
        self.tenants = list(dict.fromkeys(["", *tenants]))
        self.keys = [job_key(lane, tenant) for tenant in self.tenants for lane in range(LANES)]
        self._streams = {
            job_key(lane, tenant).encode(): (lane, tenant)
            for tenant in self.tenants
            for lane in range(LANES)
        }

    async def ensure_groups(self) -> None:
        for key in self.keys:
            try:
                await self.redis.xgroup_create(key, GROUP, id="0", mkstream=True)
            except ResponseError as exc:
                if "BUSYGROUP" not in str(exc):
                    raise

    async def read(self, lane: int, tenant: str) -> Job | None:
        """The next new job of `tenant` in `lane` for this consumer, without waiting."""
        try:
            reply = await self.redis.xreadgroup(
                GROUP, self.consumer, {job_key(lane, tenant): ">"}, count=1
            )
        except ResponseError as exc:
            await self._regroup(exc)
            return None
        for _, entries in reply or []:
            for entry, fields in entries:
                return await self._usable(lane, tenant, entry, fields)
        return None

    async def reclaim(self, lane: int, tenant: str) -> Job | None:
        """A job of `tenant` in `lane` left pending by another consumer for longer than the
        timeout."""
        try:
            reply = await self.redis.xautoclaim(
                job_key(lane, tenant), GROUP, self.consumer, self.reclaim_after_ms, "0-0", count=1
            )
        except ResponseError as exc:
            await self._regroup(exc)
            return None
        for entry, fields in reply[1]:
            if fields:  # a deleted entry comes back without fields
                return await self._usable(lane, tenant, entry, fields)
        return None

    async def _regroup(self, exc: ResponseError) -> None:
        """A lane lost its group (Redis restarted empty, or was flushed): every group made
        again, from the start of its stream; any other error raised."""
        if "NOGROUP" not in str(exc):
            raise exc
        await self.ensure_groups()

    async def _usable(
        self, lane: int, tenant: str, entry: Any, fields: dict[bytes, bytes]
    ) -> Job | None:
        job = _job(lane, tenant, entry, fields)
        if job is None:
            await self.done(lane, tenant, _entry(entry))
        return job

    async def done(self, lane: int, tenant: str, entry: str) -> None:
        """Acknowledged and deleted: the stream holds only jobs not yet done."""
        key = job_key(lane, tenant)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.xack(key, GROUP, entry)
            pipe.xdel(key, entry)
            await pipe.execute()

    async def backlog(self) -> tuple[dict[tuple[int, str], int], float]:
        """The jobs not yet done (pending or new) in each stream, as (lane, tenant), that holds
        any, and the age in seconds of the oldest one. A done job is deleted, so a stream
        with a first entry holds a job: one XREAD per lane asks for the first entry of each of
        its streams (they share the lane's slot), all lanes pipelined (one round trip per
        server); the cost does not grow with the tenants. Then XLEN of those that hold one."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for lane in range(LANES):
                first_entries(pipe, self.redis, [job_key(lane, tenant) for tenant in self.tenants])
            replies = await pipe.execute()
        firsts = {
            self._streams[key]: entries[0][0]
            for reply in replies
            for key, entries in reply or []
            if entries
        }
        if not firsts:
            return {}, 0.0
        async with self.redis.pipeline(transaction=False) as pipe:
            for lane, tenant in firsts:
                pipe.xlen(job_key(lane, tenant))
            lengths = await pipe.execute()
        now = time.time()
        oldest = max(_age(_entry(entry), now) for entry in firsts.values())
        return dict(zip(firsts, lengths, strict=True)), oldest
