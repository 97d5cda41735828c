"""The job loop: one bot turn at a time, the tenants in turn, each decided and committed."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from typing import cast

import msgspec
from redis.exceptions import RedisError

from service import metrics
from service.bots import Strategy, suggest
from service.core.game.folding import fold_finished
from service.core.game.forward import forward
from service.core.moves.decisions import advance, bot_due, bot_seed, playable
from service.engine import Played
from service.engine import play as engine_play
from service.engine.play import decode_state
from service.games import game_for
from service.store import RedisStore, StoreUnavailable, UpgradeInProgress
from service.store.jobs import LANES, Job, JobQueue
from service.webhooks.events import of_commit as webhook_events
from service.worker.shared import Shared
from service.worker.threads import on_daemon_thread

log = logging.getLogger("service.worker")


class Due:
    """What the job loop looks at next, told by the sweep and the wake-ups (sweep.py)."""

    def __init__(self, tenants: list[str]) -> None:
        self.lanes = {tenant: set(range(LANES)) for tenant in tenants}  # lanes worth a look
        self.reclaimed: list[Job] = []
        self.rung = asyncio.Event()  # set when a lane may hold a job, or to stop


class Jobs:
    """The bot jobs of one worker, played one at a time until stopping is set."""

    def __init__(self, store: RedisStore, queue: JobQueue, due: Due, shared: Shared) -> None:
        self.store = store
        self.queue = queue
        self.tenants = queue.tenants  # "" first: the lanes' own streams
        self.due = due
        self.shared = shared
        self.served = 0  # the index of the tenant served last

    async def run(self) -> None:
        """One job at a time until stopping is set, waiting for the bell when no due lane
        holds one."""
        due, stopping = self.due, self.shared.stopping
        while not stopping.is_set():
            self.shared.heartbeat.beat("jobs")
            job = await self.shared.redis_call(self._next)
            if job is None:
                due.rung.clear()
                if not (any(due.lanes.values()) or due.reclaimed or stopping.is_set()):
                    await due.rung.wait()  # a wake-up, the next sweep, or stop()
                continue
            await self._finish(job)
            due.lanes[job.tenant].add(job.lane)  # its commit may have queued the next turn there

    async def _finish(self, job: Job) -> None:
        """Play `job`; once stop() is called, for at most RULES_WORKER_DRAIN_SECONDS more. A job
        cut short is not acknowledged (its commit is one script: made or not), so another
        worker reclaims it and the version check makes the replay harmless."""
        playing = asyncio.ensure_future(self.shared.redis_call(functools.partial(self.play, job)))
        stopped = asyncio.ensure_future(self.shared.stopping.wait())
        try:
            await asyncio.wait([playing, stopped], return_when=asyncio.FIRST_COMPLETED)
            if not playing.done():
                await asyncio.wait([playing], timeout=self.shared.settings.worker_drain_seconds)
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
                    self.shared.settings.worker_drain_seconds,
                )
        with contextlib.suppress(asyncio.CancelledError):
            await playing

    async def _next(self) -> Job | None:
        """A reclaimed job, else the next job of the tenant after the one served last that has
        one in a due lane."""
        if self.due.reclaimed:
            return self.due.reclaimed.pop()
        for step in range(1, len(self.tenants) + 1):
            turn = (self.served + step) % len(self.tenants)
            tenant, due = self.tenants[turn], self.due.lanes[self.tenants[turn]]
            while due:
                job = await self.queue.read(due.pop(), tenant)
                if job is not None:
                    self.served = turn
                    return job
        return None

    async def play(self, job: Job) -> str:
        """Play one job; its outcome: "played", "stale", "set_aside" (the game failed) or
        "left" (for a newer release: left pending, not acknowledged)."""
        try:
            outcome, strategy = await self._decide_and_commit(job)
        except (RedisError, StoreUnavailable):
            raise  # left pending, and reclaimed
        except UpgradeInProgress as newer:
            self.shared.containment.leave("job", newer)
            metrics.BOT_JOBS.labels("left").inc()
            return "left"  # pending: a worker reclaims it after RULES_WORKER_RECLAIM_SECONDS
        except Exception as exc:  # this game only: acknowledged, the loop goes on
            await self.shared.containment.set_aside("job", job.game_id, exc)
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
        record = await forward(self.store, job.game_id, record)  # newer rules that play the same
        game = game_for(record.kind, record.rules)
        state = decode_state(game, record.state)
        if bot_due(game, state, record.bots) != job.seat:
            return "stale", ""
        playable(job.game_id, record, game)
        strategy = cast(Strategy, record.bots[job.seat])
        seed = bot_seed(record.seed, record.state)
        iterations = self.shared.settings.bot_iterations

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
