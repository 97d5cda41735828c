"""Bot workers: play the bot turns queued on the lanes (service/store/jobs.py, docs/bots.md).

A worker takes one job at a time, from the tenants in turn (round-robin over the tenants of
RULES_API_KEYS and the lanes' own streams of games without a tenant), so one tenant's backlog
delays another tenant's bot turn by one job per tenant, not by the whole backlog. It loads
the game, and if the game is still at the job's version with that bot seat to act, it decides
(the bot's strategy, seeded from the game's seed and the version, seeing only the seat's view)
and commits through the same version-checked script as any client, expected version = the
job's version. That commit queues the next bot job if another bot is due. A job whose game
has moved on is stale: acknowledged and dropped. A job is acknowledged only after its commit,
so a worker that dies mid-decision leaves it pending, and another worker takes it over
(XAUTOCLAIM) after RULES_WORKER_RECLAIM_SECONDS; if both end up committing, the version check
lets exactly one through.

Beside the bot turns, each worker delivers the tenants' webhooks (service/webhooks/deliverer.py):
its own task on the same event loop, woken by the same channel.

When the first deadline comes (a poll interval at the latest), the workers also sweep the turn
clocks (`clocks:{bots-n}:<tenant>`, one per lane and tenant): a game whose deadline passed is
claimed atomically and its timeout applied through the same commit, so clocks run out even when
no client ever comes back (service/core/clocks.py); one timeout per game per pass, the tenants
in turn, each tenant's earliest deadline first across the lanes.

A job or a clock whose game fails to decode or to play (a damaged record, one from another
release, a bug) is set aside with its reason (service/store/quarantine.py), logged in one line
and counted, and the loop goes on with the next; a failure of Redis is retried as before. A
game a newer release wrote (a rolling upgrade, or a rollback) is left for a worker of that
release: its job stays pending (taken over after RULES_WORKER_RECLAIM_SECONDS, by any worker)
and its clock claimed until the claim lapses; logged once per game, counted, nothing dropped.
Each loop beats a heartbeat per iteration that the liveness probe checks (heartbeat.py).

The decision runs on a thread beside the event loop, one at a time: a worker process is one
core's worth of bot thinking, and `python -m service.worker` starts one per core.

SIGTERM (or SIGINT) drains a worker: it takes no new job, finishes the one in hand (decision,
commit, acknowledgement) within RULES_WORKER_DRAIN_SECONDS, stops its other loops and exits 0.
A job the drain cuts short stays pending and is reclaimed by another worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import signal
import threading
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar, cast

import msgspec
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import RedisError

from service import metrics
from service.bots import Strategy, suggest
from service.core.access import tenant_names
from service.core.decisions import advance, bot_due, bot_seed, enforce_clock, playable
from service.core.folding import fold_finished
from service.engine import Played
from service.engine import play as engine_play
from service.engine.play import decode_state
from service.games import games
from service.refusals import Refused
from service.settings import Settings
from service.store import RedisStore, StoreUnavailable, UpgradeInProgress, connect
from service.store.jobs import LANES, WAKE, Job, JobQueue, job_key
from service.store.quarantine import set_aside
from service.webhooks.deliverer import Deliverer
from service.webhooks.events import of_commit as webhook_events
from service.worker.heartbeat import Heartbeat

log = logging.getLogger("service.worker")
CLOCK_BATCH = 4  # due clocks a pass claims per lane and tenant
LEFT_REMEMBERED = 10_000  # games left for a newer release that a worker logs only once
T = TypeVar("T")


class Worker:
    def __init__(
        self, settings: Settings, redis_url: str, name: str, heartbeat: Heartbeat | None = None
    ) -> None:
        self.settings = settings
        self.heartbeat = heartbeat or Heartbeat(settings.worker_stall_seconds)
        self.store = RedisStore(connect(settings, redis_url), settings)
        tenants = tenant_names(settings.api_keys)
        reclaim_ms = int(settings.worker_reclaim_seconds * 1000)
        self.queue = JobQueue(self.store.redis, name, reclaim_ms, tenants)
        self.tenants = self.queue.tenants  # "" first: the lanes' own streams
        self.due = {tenant: set(range(LANES)) for tenant in self.tenants}  # lanes worth a look
        self.served = 0  # the index of the tenant served last
        self.clocks_served = 0  # the index of the tenant whose clocks a pass served first
        self.reclaimed: list[Job] = []
        self.rung = asyncio.Event()  # set when a lane may hold a job, or to stop
        self.stopping = asyncio.Event()
        self.webhooks = Deliverer(self.store, settings, name, tenants)
        self.left: set[str] = set()  # games left for a newer release, logged already

    def stop(self) -> None:
        """Take no new job, finish the one in hand (within RULES_WORKER_DRAIN_SECONDS), then
        return from run()."""
        self.stopping.set()
        self.rung.set()

    async def run(self) -> None:
        async def groups() -> bool:
            await self.queue.ensure_groups()
            return True

        while not self.stopping.is_set() and not await self._redis_call(groups):
            self.heartbeat.beat("jobs")  # Redis is not there yet
        background = [
            asyncio.create_task(self._listen()),
            asyncio.create_task(self._sweep()),
            asyncio.create_task(self._clock_sweep()),
            asyncio.create_task(self.webhooks.run(self.stopping)),
        ]
        try:
            while not self.stopping.is_set():
                self.heartbeat.beat("jobs")
                job = await self._redis_call(self._next)
                if job is None:
                    self.rung.clear()
                    if not (any(self.due.values()) or self.reclaimed or self.stopping.is_set()):
                        await self.rung.wait()  # a wake-up, the next sweep, or stop()
                    continue
                await self._finish(job)
                self.due[job.tenant].add(job.lane)  # its commit may have queued the next turn there
        finally:
            # The sweepers and the deliverer end by themselves once stopping is set (redis-py
            # may swallow a cancellation in the middle of a command); the listener waits on a
            # socket.
            background[0].cancel()
            self.webhooks.rung.set()
            grace = self.settings.redis_timeout * 3 + self.settings.webhook_timeout_seconds
            await asyncio.wait(background, timeout=grace)
            await self.store.close()

    async def _finish(self, job: Job) -> None:
        """Play `job`; once stop() is called, for at most RULES_WORKER_DRAIN_SECONDS more. A job
        cut short is not acknowledged (its commit is one script: made or not), so another
        worker reclaims it and the version check makes the replay harmless."""
        playing = asyncio.ensure_future(self._redis_call(functools.partial(self.play, job)))
        stopped = asyncio.ensure_future(self.stopping.wait())
        try:
            await asyncio.wait([playing, stopped], return_when=asyncio.FIRST_COMPLETED)
            if not playing.done():
                await asyncio.wait([playing], timeout=self.settings.worker_drain_seconds)
        finally:
            stopped.cancel()
            if not playing.done():
                playing.cancel()
                log.warning(
                    "job %s %s v%d seat %d: not finished within the drain (%g s); left pending",
                    job.entry,
                    job.game_id,
                    job.version,
                    job.seat,
                    self.settings.worker_drain_seconds,
                )
        with contextlib.suppress(asyncio.CancelledError):
            await playing

    async def _redis_call(self, call: Callable[[], Awaitable[T]]) -> T | None:
        """`call()`, or None after a Redis failure, logged in one line and followed by a
        pause of one poll interval (or until stop()). A job cut short by it stays pending and
        is reclaimed."""
        try:
            return await call()
        except (RedisError, StoreUnavailable) as exc:
            log.warning("redis unavailable (%s: %s); retrying", type(exc).__name__, exc)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stopping.wait(), self.settings.worker_poll_seconds)
            return None

    async def _next(self) -> Job | None:
        """A reclaimed job, else the next job of the tenant after the one served last that has
        one in a due lane."""
        if self.reclaimed:
            return self.reclaimed.pop()
        for step in range(1, len(self.tenants) + 1):
            turn = (self.served + step) % len(self.tenants)
            tenant, due = self.tenants[turn], self.due[self.tenants[turn]]
            while due:
                job = await self.queue.read(due.pop(), tenant)
                if job is not None:
                    self.served = turn
                    return job
        return None

    async def _sweep(self) -> None:
        """Every poll interval: export the backlog, reclaim jobs of dead workers and look at
        every stream that holds a job (a wake-up may have been lost); over every tenant's
        streams."""
        while not self.stopping.is_set():
            await self._redis_call(self._sweep_once)
            self.heartbeat.beat("sweep")
            # jittered: a worker that leaves a job pending (a newer release's game) reclaims it
            # again each time it has been idle long enough; two workers polling in lockstep
            # would hand it back to the same one every time
            pause = self.settings.worker_poll_seconds * random.uniform(0.75, 1.25)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stopping.wait(), pause)

    async def _sweep_once(self) -> None:
        """One pipelined XLEN per stream says which hold a job at all (pending or new): only
        those are reclaimed from and read, so an idle worker's sweep is one command per
        stream in one round trip per server."""
        held, oldest = await self.queue.backlog()
        metrics.BOT_JOBS_PENDING.set(sum(held.values()))
        metrics.BOT_OLDEST_JOB_SECONDS.set(oldest)
        for lane, tenant in held:
            job = await self.queue.reclaim(lane, tenant)
            if job is not None:
                log.info("reclaimed job %s of %s v%d", job.entry, job.game_id, job.version)
                self.reclaimed.append(job)
            self.due[tenant].add(lane)
        self.rung.set()

    async def _clock_sweep(self) -> None:
        """The turn clocks: a pass when the next one is due (see _clocks), a poll interval
        later at the latest (a clock set meanwhile by another process)."""
        poll = self.settings.worker_poll_seconds
        while not self.stopping.is_set():
            upcoming = await self._redis_call(self._clocks)
            self.heartbeat.beat("clocks")
            wait = poll if upcoming is None else min(max(upcoming - time.time(), 0.0), poll)
            if wait > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.stopping.wait(), wait)

    async def _clocks(self) -> float:
        """Turn clocks that ran out with no client there: each due game is claimed for one
        reclaim interval (exactly one sweeper takes it) and one timeout applied through the
        version-checked commit (a last-second move that commits first wins). One per game per
        pass: a game still due is back in its tenant's set with its next deadline (the commit
        writes it), behind the games due before it. A pass claims CLOCK_BATCH games of each
        tenant in each lane and serves the tenants in turn, one game each, starting after the
        tenant served first last pass, each tenant's earliest deadline first; so one tenant's
        backlog delays another tenant's timeout by one game per tenant, and a pass applies at
        most tenants * LANES * CLOCK_BATCH timeouts. A game that fails for another reason than
        Redis is set aside and the pass goes on. Returns when the next pass is due: at once
        after a pass that found games due (their next deadlines may have come already), else
        at the first deadline (the poll interval without one)."""
        lease, now = self.settings.worker_reclaim_seconds, time.time()
        firsts: dict[tuple[int, str], float | None] = {}
        firsts.update(await self.store.first_deadlines(self.tenants))
        claimed: dict[str, list[tuple[float, int, str]]] = {tenant: [] for tenant in self.tenants}
        for (lane, tenant), first in firsts.items():
            if first is not None and first <= now:  # else nothing to claim: no script runs
                batch, firsts[lane, tenant] = await self.store.claim_deadlines(
                    lane, tenant, now, lease, CLOCK_BATCH
                )
                claimed[tenant] += [(deadline, lane, game_id) for deadline, game_id in batch]
        # per tenant, latest deadline first
        queues = [sorted(claimed[tenant], reverse=True) for tenant in self.tenants]
        self.clocks_served = (self.clocks_served + 1) % len(self.tenants)
        turns = [(self.clocks_served + step) % len(self.tenants) for step in range(len(queues))]
        found = any(queues)
        while any(queues):
            for turn in turns:
                if queues[turn]:
                    _, lane, game_id = queues[turn].pop()
                    await self._clock_of(lane, self.tenants[turn], game_id, now)
        if found:
            return now
        upcoming = [first for first in firsts.values() if first is not None]
        return min(upcoming, default=now + self.settings.worker_poll_seconds)

    async def _clock_of(self, lane: int, tenant: str, game_id: str, now: float) -> None:
        try:
            await self._clock(lane, tenant, game_id, now)
        except (RedisError, StoreUnavailable):
            raise
        except UpgradeInProgress as newer:  # claimed until the lease lapses, then any sweeper's
            self._leave("clock", newer)
        except Exception as exc:  # this game only: the sweep goes on
            await self._set_aside("clock", game_id, exc)
            await self.store.unclock(lane, tenant, game_id)

    async def _clock(self, lane: int, tenant: str, game_id: str, now: float) -> None:
        record, _ = await self.store.load(game_id)
        if record is None:  # expired: nothing will ever commit its clock away
            await self.store.unclock(lane, tenant, game_id)
            return
        await enforce_clock(self.store, game_id, record, now, limit=1)
        log.info("clock of %s swept at v%d", game_id, record.version)

    async def _set_aside(self, loop: str, game_id: str, exc: Exception) -> None:
        """A game that fails in `loop` for another reason than Redis: set aside with its
        reason, in one log line (no traceback: the reason names the fault) and one count."""
        reason = str(exc) if isinstance(exc, Refused) else f"{type(exc).__name__}: {exc}"
        log.warning("game %s set aside by the %s loop: %s", game_id, loop, reason)
        metrics.SET_ASIDE.labels(loop).inc()
        await set_aside(self.store.redis, game_id, loop, reason)

    def _leave(self, loop: str, newer: UpgradeInProgress) -> None:
        """A game a newer release wrote, left for a worker of that release: logged once per
        game (it may come back every reclaim interval while no such worker runs), counted."""
        metrics.LEFT_FOR_NEWER.labels(loop).inc()
        if newer.game_id not in self.left:
            if len(self.left) >= LEFT_REMEMBERED:
                self.left.clear()
            self.left.add(newer.game_id)
            log.warning("%s loop left game %s for a newer release: %s", loop, newer.game_id, newer)

    async def _listen(self) -> None:
        while not self.stopping.is_set():
            await self._redis_call(self._listen_once)

    async def _listen_once(self) -> None:
        redis = self.store.redis
        if isinstance(redis, RedisCluster):
            await redis.initialize()
        pubsub = redis.pubsub()
        stream_of_key = {
            job_key(lane, tenant).encode(): (lane, tenant)
            for tenant in self.tenants
            for lane in range(LANES)
        }
        try:
            await pubsub.subscribe(WAKE)
            while True:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=None)
                data = message.get("data") if message else None
                if data in stream_of_key:
                    lane, tenant = stream_of_key[data]
                    self.due[tenant].add(lane)
                    self.rung.set()
                elif isinstance(data, bytes) and data.startswith(b"wh:{bots-"):  # an outbox
                    self.webhooks.wake(int(data[9:].partition(b"}")[0]))
        finally:
            await pubsub.aclose()  # type: ignore[no-untyped-call]

    async def play(self, job: Job) -> str:
        """Play one job; its outcome: "played", "stale", "set_aside" (the game failed) or
        "left" (for a newer release: left pending, not acknowledged)."""
        try:
            outcome, strategy = await self._decide_and_commit(job)
        except (RedisError, StoreUnavailable):
            raise  # left pending, and reclaimed
        except UpgradeInProgress as newer:
            self._leave("job", newer)
            metrics.BOT_JOBS.labels("left").inc()
            return "left"  # pending: a worker reclaims it after RULES_WORKER_RECLAIM_SECONDS
        except Exception as exc:  # this game only: acknowledged, the loop goes on
            await self._set_aside("job", job.game_id, exc)
            outcome, strategy = "set_aside", ""
        await self.queue.done(job.lane, job.tenant, job.entry)
        metrics.BOT_JOBS.labels(outcome).inc()
        if outcome == "played":
            metrics.BOT_DECISIONS.labels(strategy).inc()
            metrics.BOT_JOB_SECONDS.labels(strategy).observe(job.age())
        log.info(
            "job %s %s v%d seat %d: %s", job.entry, job.game_id, job.version, job.seat, outcome
        )
        return outcome

    async def _decide_and_commit(self, job: Job) -> tuple[str, str]:
        record, _ = await self.store.load(job.game_id)
        if record is None or record.version != job.version or record.finished:
            return "stale", ""
        game = games()[record.kind]
        state = decode_state(game, record.state)
        if bot_due(game, state, record.bots) != job.seat:
            return "stale", ""
        playable(job.game_id, record, game)
        strategy = cast(Strategy, record.bots[job.seat])
        seed, iterations = bot_seed(record.seed, record.version), self.settings.bot_iterations

        def decide() -> Played:
            move = suggest(
                game, state, job.seat, strategy, seed=seed, iterations=iterations or None
            )
            return engine_play(game, state, job.seat, msgspec.to_builtins(move))

        # On a thread: the event loop keeps reading Redis replies (a reply left unread for a
        # whole decision would look like a timeout) and wake-ups meanwhile.
        log.debug("job %s %s v%d seat %d: deciding", job.entry, job.game_id, job.version, job.seat)
        played = await on_daemon_thread(decide)
        new_record, history = advance(record, game, played)
        committed = await self.store.commit(
            job.game_id,
            job.version,
            new_record,
            history,
            None,
            bot_due=bot_due(game, played.state, record.bots),
            events=webhook_events(job.game_id, record, new_record, history),
        )
        if committed.outcome == "ok" and new_record.finished:
            await fold_finished(self.store, job.game_id, new_record)
        return ("played" if committed.outcome == "ok" else "stale"), strategy


async def on_daemon_thread(call: Callable[[], T]) -> T:
    """`call()` on a thread of its own, awaited. A daemon thread, unlike asyncio.to_thread's,
    does not hold up the process's exit: a drain that runs out of time exits with the
    decision unfinished."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[T] = loop.create_future()

    def settle(outcome: Callable[[], None]) -> None:
        if not answer.done():  # else the await was cancelled meanwhile
            outcome()

    def run() -> None:
        try:
            result = call()
        except BaseException as exc:  # handed to the awaiting task
            settle_later = functools.partial(settle, functools.partial(answer.set_exception, exc))
        else:
            settle_later = functools.partial(settle, functools.partial(answer.set_result, result))
        with contextlib.suppress(RuntimeError):  # the loop closed: nobody waits any more
            loop.call_soon_threadsafe(settle_later)

    threading.Thread(target=run, name="decision", daemon=True).start()
    return await answer


async def serve(settings: Settings, redis_url: str, name: str, heartbeat: Heartbeat) -> None:
    """Run one worker until SIGTERM or SIGINT: a drain (the job in hand is finished first)."""
    worker = Worker(settings, redis_url, name, heartbeat)

    def stop() -> None:
        if not worker.stopping.is_set():
            log.info(
                "worker %s draining: no new job, the one in hand finished within %g s",
                name,
                settings.worker_drain_seconds,
            )
        worker.stop()

    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop)
    await worker.run()
    log.info("worker %s stopped", name)
