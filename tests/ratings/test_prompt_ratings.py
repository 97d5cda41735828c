"""Ratings within seconds of a game's end (service/worker/rating.py RatingPass,
service/store/rating_marks.py) on a real Redis and a real PostgreSQL, through the real ASGI
app and a worker: with the default hour of grace a finished game is rated by a running worker
within a poll and stays in Redis; its mark goes once the ratings answered; the archive's pass
does not rate it again (and still rates one the rating pass has not); a PostgreSQL that does
not answer gives the mark back at the game's end time and the game is rated once it answers;
one game that cannot be read or scored stops no other; without an archive nothing is marked;
and a worker process rates within seconds, and again once a stopped PostgreSQL is back."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
import msgspec
import pytest

from service import metrics
from service.app import create_app
from service.archive.archive import Archive, lazy_pool
from service.archive.database import open_pool
from service.archive.embedded import EmbeddedPostgres
from service.ratings.ledger import Ledger
from service.settings import Settings
from service.store import connect
from service.store.archived import archive_key
from service.store.embedded import free_port
from service.store.jobs import LANES, lane_of
from service.store.rating_marks import rate_key
from service.store.records import record_encoder
from service.worker import Worker
from service.worker.archiving import Archiver
from service.worker.rating import RatingPass
from tests.conftest import client_for, own_redis
from tests.support import gql
from tests.support.play import create_game
from tests.support.waiting import until
from tests.support.workers import worker_process

GRACE = Settings().idempotency_grace  # the default: an hour


@dataclass
class Setup:
    http: httpx.AsyncClient
    worker: Worker
    archiver: Archiver
    rating: RatingPass
    ledger: Ledger
    key: str
    tenant: str

    async def resigned(self, players: list[str]) -> str:
        """A 2-seat TREELINGS game its seat 1 resigns (seat 0 wins)."""
        created = await create_game(self.http, key=self.key, seed="prompt", playerIds=players)
        game_id, last = created["game"]["id"], created["seats"][-1]["token"]
        answer = await self.http.post(
            "/graphql",
            json={"query": gql.RESIGN, "variables": {"id": game_id}},
            headers={"authorization": f"Bearer {last}"},
        )
        assert answer.json()["data"]["resign"]["__typename"] == "MoveApplied", answer.text
        return game_id

    async def verdict(self, game_id: str) -> tuple[str, str] | None:
        return await self.ledger.verdict(self.tenant, game_id)

    async def games_rated(self, player: str) -> int:
        ratings = await self.ledger.ratings(self.tenant, player, "TREELINGS")
        return ratings[0].games if ratings else 0

    async def rate_mark(self, game_id: str) -> float | None:
        score: float | None = await self.worker.store.redis.zscore(
            rate_key(lane_of(game_id)), game_id
        )
        return score

    async def archive_mark(self, game_id: str) -> float | None:
        score: float | None = await self.worker.store.redis.zscore(
            archive_key(lane_of(game_id)), game_id
        )
        return score

    async def in_redis(self, game_id: str) -> bool:
        return bool(await self.worker.store.redis.exists(f"g:{{{game_id}}}"))


@pytest.fixture
async def setup(database_url: str) -> AsyncIterator[Setup]:
    """The API with a tenant of this test's own (fresh names keep each test's ratings apart on
    the shared PostgreSQL) and an in-process worker, its loops not started: the test runs its
    rating and archive passes, or runs the worker. The default grace: nothing is due for the
    archive within the test."""
    suffix = secrets.token_hex(4)
    tenant, key = f"prompt{suffix}", f"p-{suffix}"
    settings = Settings(
        api_keys=(f"{tenant}:{key}",),
        rate_limit_per_token=0,
        rate_limit_per_address=0,
        database_url=database_url,
    )
    assert settings.idempotency_grace == GRACE
    with own_redis() as url:
        async with client_for(create_app(settings, url)) as http:
            worker = Worker(settings, url, "prompt-test")
            assert worker.archiver is not None and worker.rating is not None
            pool = await open_pool(database_url)
            worker.archiver.archive = Archive(pool)
            try:
                yield Setup(http, worker, worker.archiver, worker.rating, Ledger(pool), key, tenant)
            finally:
                await pool.close()
                await worker.store.close()


def _counted(outcome: str, reason: str = "") -> float:
    value: float = metrics.RATED_GAMES.labels(outcome, reason)._value.get()
    return value


async def test_a_running_worker_rates_a_finished_game_within_a_poll_and_keeps_it_in_redis(
    database_url: str,
) -> None:
    suffix = secrets.token_hex(4)
    tenant, key = f"prompt{suffix}", f"p-{suffix}"
    settings = Settings(
        api_keys=(f"{tenant}:{key}",),
        rate_limit_per_token=0,
        rate_limit_per_address=0,
        database_url=database_url,
    )
    with own_redis() as url:
        async with client_for(create_app(settings, url)) as http:
            worker = Worker(settings, url, "prompt-running")
            running = asyncio.create_task(worker.run())
            pool = await open_pool(database_url)
            try:
                await until(lambda: worker.archiver and worker.archiver.archive, "the archive")
                setup = Setup(http, worker, *_passes(worker), Ledger(pool), key, tenant)
                game_id = await setup.resigned(["ann", "bob"])
                ended = time.monotonic()

                assert await until(lambda: setup.verdict(game_id), "the rating", 30) == (
                    "RATED",
                    "",
                )
                took = time.monotonic() - ended
                await until(lambda: _gone(setup, game_id), "the rating mark removed", 30)
                assert await setup.games_rated("ann") == await setup.games_rated("bob") == 1
                assert await setup.in_redis(game_id), "rated, not archived"
                due = await setup.archive_mark(game_id)
                assert due is not None and due > time.time() + GRACE / 2, "archived in an hour"
                print(f"rated {took:.2f} s after the resign answered")
            finally:
                worker.stop()
                await asyncio.wait_for(running, 30)
                await pool.close()


def _passes(worker: Worker) -> tuple[Archiver, RatingPass]:
    assert worker.archiver is not None and worker.rating is not None
    return worker.archiver, worker.rating


async def _gone(setup: Setup, game_id: str) -> bool:
    return await setup.rate_mark(game_id) is None


async def test_the_end_marks_the_game_for_its_rating_at_its_end_time(setup: Setup) -> None:
    before = time.time()
    game_id = await setup.resigned(["cy", "di"])
    ended = await setup.rate_mark(game_id)
    assert ended is not None and before <= ended <= time.time()
    due = await setup.archive_mark(game_id)
    assert due == pytest.approx(ended + GRACE), "the same script, the same end"
    assert await setup.verdict(game_id) is None, "rated by a worker, not by the request"


async def test_a_game_rated_promptly_is_not_rated_again_by_the_archive_pass(setup: Setup) -> None:
    rated = _counted("rated")
    game_id = await setup.resigned(["ed", "flo"])

    assert await setup.rating.once() is False

    assert await setup.verdict(game_id) == ("RATED", "")
    assert await setup.rate_mark(game_id) is None, "the mark goes once the ratings answered"
    assert _counted("rated") == rated + 1
    await setup.worker.store.redis.zadd(archive_key(lane_of(game_id)), {game_id: 0})  # due
    assert await setup.archiver.one(game_id) == "archived"
    assert _counted("rated") == rated + 1
    assert await setup.games_rated("ed") == await setup.games_rated("flo") == 1


async def test_the_archive_pass_rates_a_game_the_rating_pass_missed_and_its_mark_then_goes(
    setup: Setup,
) -> None:
    rated = _counted("rated")
    game_id = await setup.resigned(["gus", "hal"])
    await setup.worker.store.redis.zadd(archive_key(lane_of(game_id)), {game_id: 0})

    assert await setup.archiver.one(game_id) == "archived"
    assert await setup.verdict(game_id) == ("RATED", "") and not await setup.in_redis(game_id)
    assert await setup.rate_mark(game_id) is not None

    await setup.rating.once()  # finds it gone: rated before it was archived

    assert await setup.rate_mark(game_id) is None
    assert _counted("rated") == rated + 1
    assert await setup.games_rated("gus") == 1


async def test_a_database_that_does_not_answer_gives_the_mark_back_and_loses_no_rating(
    setup: Setup,
) -> None:
    game_id = await setup.resigned(["ivy", "jo"])
    ended = await setup.rate_mark(game_id)
    dead = lazy_pool(f"postgresql://nobody@127.0.0.1:{free_port()}/none", timeout=1)
    await dead.open(wait=False)
    away = RatingPass(setup.worker.store, setup.worker.shared, lambda: Ledger(dead))
    try:
        assert await away.once() is False
        assert await away.once() is False
    finally:
        await dead.close()
    assert await setup.verdict(game_id) is None
    assert await setup.rate_mark(game_id) == ended, "due again at once, its lag kept"
    assert metrics.RATING_LAG_SECONDS._value.get() > 0

    await setup.rating.once()  # PostgreSQL answers again

    assert await setup.verdict(game_id) == ("RATED", "")
    assert await setup.rate_mark(game_id) is None and await setup.in_redis(game_id)
    await setup.rating.once()
    assert metrics.RATING_LAG_SECONDS._value.get() == 0


async def test_a_game_that_cannot_be_read_or_scored_stops_no_other(setup: Setup) -> None:
    unread, unscored, fine = [await setup.resigned([f"k{n}", f"l{n}"]) for n in range(3)]
    redis = setup.worker.store.redis
    await redis.hset(f"g:{{{unread}}}", "r", b"\x00 not a record")
    record, _ = await setup.worker.store.load(unscored)
    assert record is not None
    broken = msgspec.structs.replace(record, state=b"\x00 not a state")
    await redis.hset(f"g:{{{unscored}}}", "r", record_encoder.encode(broken))
    set_aside = _counted("set_aside", "error")

    await setup.rating.once()

    assert await setup.verdict(fine) == ("RATED", "")
    assert await setup.verdict(unread) is None, "left to the archive's pass, which contains it"
    verdict = await setup.verdict(unscored)
    assert verdict is not None and verdict[0] == "SET_ASIDE"
    assert _counted("set_aside", "error") == set_aside + 1
    assert [await setup.rate_mark(g) for g in (unread, unscored, fine)] == [None] * 3


async def test_without_an_archive_no_game_is_marked_for_its_rating() -> None:
    settings = Settings(rate_limit_per_token=0, rate_limit_per_address=0)
    with own_redis() as url:
        async with client_for(create_app(settings, url)) as http:
            created = await create_game(http, seed="prompt", playerIds=["mo", "ned"])
            game_id, last = created["game"]["id"], created["seats"][-1]["token"]
            answer = await http.post(
                "/graphql",
                json={"query": gql.RESIGN, "variables": {"id": game_id}},
                headers={"authorization": f"Bearer {last}"},
            )
            assert answer.json()["data"]["resign"]["__typename"] == "MoveApplied"
            worker = Worker(settings, url, "no-archive")
            try:
                assert worker.rating is None
                marks: list[Any] = []
                for lane in range(LANES):
                    marks += await worker.store.redis.zrange(rate_key(lane), 0, -1)
                    marks += await worker.store.redis.zrange(archive_key(lane), 0, -1)
                assert marks == []
            finally:
                await worker.store.close()


async def _resigned_anonymously(http: httpx.AsyncClient, players: list[str]) -> str:
    created = await create_game(http, seed="prompt", playerIds=players)
    game_id, last = created["game"]["id"], created["seats"][-1]["token"]
    answer = await http.post(
        "/graphql",
        json={"query": gql.RESIGN, "variables": {"id": game_id}},
        headers={"authorization": f"Bearer {last}"},
    )
    assert answer.json()["data"]["resign"]["__typename"] == "MoveApplied", answer.text
    return game_id


@pytest.mark.slow
async def test_a_worker_process_rates_within_seconds_and_once_a_stopped_database_is_back(
    database_url: str,  # a PostgreSQL can run here (this test starts its own)
) -> None:
    with own_redis() as url, EmbeddedPostgres() as database:
        await (await open_pool(database.url)).close()  # migrated, as a worker would

        async def outcome(game_id: str) -> str | None:
            pool = await open_pool(database.url)
            try:
                async with pool.connection() as conn:
                    query = "SELECT outcome FROM rated_games WHERE game_id = %s"
                    row = await (await conn.execute(query, (game_id,))).fetchone()
            finally:
                await pool.close()
            return None if row is None else str(row[0])

        settings = Settings(
            rate_limit_per_token=0, rate_limit_per_address=0, database_url=database.url
        )
        async with client_for(create_app(settings, url)) as http:
            with worker_process(url, DATABASE_URL=database.url) as worker:
                first = await _resigned_anonymously(http, ["ann", "bob"])
                assert await until(lambda: outcome(first), "the worker up", 60) == "RATED"
                second = await _resigned_anonymously(http, ["ann", "bob"])
                ended = time.monotonic()
                assert await until(lambda: outcome(second), "the rating", 30) == "RATED"
                took = time.monotonic() - ended

                database.stop()
                third = await _resigned_anonymously(http, ["ann", "bob"])
                await worker.until_logged("left for a later pass")
                database.start()
                back = time.monotonic()
                assert await until(lambda: outcome(third), "the rating, back", 60) == "RATED"
                late = time.monotonic() - back
            redis = connect(settings, url)
            try:
                for game_id in (first, second, third):
                    assert await redis.exists(f"g:{{{game_id}}}"), "rated, not archived"
            finally:
                await redis.aclose()
        print(f"rated {took:.2f} s after its end; {late:.2f} s after PostgreSQL was back")
