"""The archive of finished games (service/archive/archive.py, service/worker/archiving.py,
service/store/archived.py) on a real Redis and a real PostgreSQL: a finished game past its
grace is archived and leaves Redis; every read of it answers as before (the same JSON, the same
ETags, the same access rules), listings keep it once with the same cursors; archiving is
idempotent when workers race or one dies, and a PostgreSQL that does not answer keeps the game
in Redis, served from there."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import msgspec
import pytest

from service import metrics
from service.app import create_app
from service.archive.archive import Archive, ArchivedGame
from service.archive.database import open_pool
from service.core.records.compact import unpack
from service.settings import Settings
from service.store.archived import archive_key
from service.store.jobs import lane_of
from service.worker import Worker
from service.worker.archiving import Archiver
from tests.conftest import Api, client_for, own_redis
from tests.support import gql
from tests.support.play import apply, create, create_game, play_to_end


@dataclass
class Setup:
    api: Api
    worker: Worker
    archiver: Archiver
    archive: Archive
    settings: Settings
    redis_url: str


@pytest.fixture
async def setup(database_url: str) -> AsyncIterator[Setup]:
    """The API and an in-process worker (its loops not started: the test runs the archive's
    polls) on a Redis of their own and the session's PostgreSQL; no grace: a finished game is
    due at once."""
    settings = Settings(
        rate_limit_per_token=0,
        rate_limit_per_address=0,
        idempotency_grace=0,
        database_url=database_url,
    )
    with own_redis() as url:
        async with client_for(create_app(settings, url)) as http:
            worker = await _worker(settings, url, "archive-test")
            assert worker.archiver is not None and worker.archiver.archive is not None
            async with worker.archiver.archive.pool.connection() as conn:
                await conn.execute("TRUNCATE archived_games")  # the tests share the server
            yield Setup(Api(http), worker, worker.archiver, worker.archiver.archive, settings, url)
            await _close(worker)


async def _worker(settings: Settings, url: str, name: str) -> Worker:
    worker = Worker(settings, url, name)
    assert worker.archiver is not None
    worker.archiver.archive = Archive(await open_pool(settings.database_url))
    return worker


async def _close(worker: Worker) -> None:
    if worker.archiver is not None and worker.archiver.archive is not None:
        await worker.archiver.archive.pool.close()
    await worker.store.close()


async def _finished(api: Api, seed: str, kind: str = "TREELINGS") -> tuple[str, list[str]]:
    """A 2-seat game with a few moves, resigned by seat 1 (players "ann" and "bob"): its id
    and tokens."""
    created = await create_game(api.http, kind=kind, players=2, seed=seed, playerIds=["ann", "bob"])
    game_id, tokens = created["game"]["id"], [s["token"] for s in created["seats"]]
    for _ in range(3):
        seen = (await api.gql(gql.GAME, {"id": game_id}, tokens[0]))["game"]
        seat = seen["toAct"][0]
        view = (await api.gql(gql.GAME, {"id": game_id}, tokens[seat]))["game"]
        await apply(api, game_id, tokens[seat], view["legalMoves"][0]["move"])
    resigned = (await api.gql(gql.RESIGN, {"id": game_id}, tokens[1]))["resign"]
    assert resigned["__typename"] == "MoveApplied"
    return game_id, tokens


READS = ("", "/history", "/state?version=1", "/state?version=4", "/scores", "/record")


async def _reads(api: Api, game_id: str, token: str) -> dict[str, Any]:
    """What REST answers about the game, to a seat and to a spectator, with its ETags."""
    answers: dict[str, Any] = {}
    for path in READS:
        for who, headers in (("seat", {"authorization": f"Bearer {token}"}), ("anyone", {})):
            response = await api.http.get(f"/v1/games/{game_id}{path}", headers=headers)
            answers[f"{who} {path}"] = (
                response.status_code,
                response.json(),
                response.headers.get("etag"),
            )
    answers["graphql"] = await api.gql(gql.HISTORY, {"id": game_id}, token)
    return answers


async def _in_redis(worker: Worker, game_id: str) -> bool:
    return bool(await worker.store.redis.exists(f"g:{{{game_id}}}"))


async def test_a_finished_game_is_archived_and_every_read_answers_as_before(
    setup: Setup,
) -> None:
    api, worker = setup.api, setup.worker
    game_id, tokens = await _finished(api, "archive-reads")
    before = await _reads(api, game_id, tokens[0])
    listed = (await api.http.get("/v1/games", params={"first": 10})).json()

    assert await setup.archiver.one(game_id) == "archived"

    assert not await _in_redis(worker, game_id), "it left Redis"
    assert not await worker.store.redis.zscore(archive_key(lane_of(game_id)), game_id)
    assert await _reads(api, game_id, tokens[0]) == before, "the same answers and ETags"
    assert await _in_redis(worker, game_id), "read back into Redis for the tail"
    ttl = await worker.store.redis.ttl(f"g:{{{game_id}}}")
    assert 0 < ttl <= Settings().archive_tail_seconds
    assert (await api.http.get("/v1/games", params={"first": 10})).json() == listed
    # its compact record is the record the service exports
    async with setup.archive.pool.connection() as conn:
        row = await (
            await conn.execute("SELECT compact FROM archived_games WHERE game_id = %s", (game_id,))
        ).fetchone()
    assert row is not None
    exported = msgspec.to_builtins(unpack(row[0], game_id))
    assert exported == before["anyone /record"][1]


async def test_a_game_over_by_its_rules_keeps_no_history_its_record_gives_back(
    setup: Setup,
) -> None:
    """Its folded history comes back from the compact record byte for byte (no resign, no
    takeback: the labels are the engine's), so the row leaves it and the checkpoints out; the
    reads answer as before all the same (records/stored.py)."""
    api = setup.api
    game, tokens = await create(api, "TREELINGS", 2, seed="archive-by-rules")
    over = await play_to_end(api, game, tokens, seed="archive-by-rules")
    assert over["status"] == "FINISHED"
    before = await _reads(api, game["id"], tokens[0])
    hash_before = await setup.worker.store.archived.fields(game["id"])

    assert await setup.archiver.one(game["id"]) == "archived"

    async with setup.archive.pool.connection() as conn:
        query = "SELECT record, compact FROM archived_games WHERE game_id = %s"
        row = await (await conn.execute(query, (game["id"],))).fetchone()
    assert row is not None
    kept = msgspec.msgpack.decode(row[0])
    assert "h" not in kept and "c" not in kept and len(row[0]) + len(row[1]) < 1024
    assert await _reads(api, game["id"], tokens[0]) == before
    again = await setup.worker.store.archived.fields(game["id"])
    assert again["h"] == hash_before["h"], "the history given back byte for byte"


async def test_a_token_is_checked_against_the_archived_game_as_before(
    setup: Setup,
) -> None:
    api = setup.api
    game_id, tokens = await _finished(api, "archive-access")
    assert await setup.archiver.one(game_id) == "archived"
    wrong = {"authorization": "Bearer 0." + "x" * 32}
    response = await api.http.get(f"/v1/games/{game_id}/state?version=1", headers=wrong)
    assert response.status_code == 401, response.text
    mine = {"authorization": f"Bearer {tokens[1]}"}
    answer = await api.http.get(f"/v1/games/{game_id}/state?version=1", headers=mine)
    assert answer.status_code == 200, answer.text
    missing = await api.http.get("/v1/games/NoSuchGame000000")
    assert missing.status_code == 404


LISTINGS = (
    {},
    {"kind": "TREETOPIA"},
    {"status": "FINISHED"},
    {"playerId": "bob"},
    {"playerId": "nobody"},
    {"kind": "TREELINGS", "playerId": "ann"},
)


async def _pages(api: Api, only: dict[str, str]) -> list[Any]:
    """Every page of the listing, two games a page, as a client pages."""
    pages: list[Any] = []
    after: dict[str, str] = {}
    while True:
        page = (await api.http.get("/v1/games", params={"first": 2, **only, **after})).json()
        pages.append(page)
        cursor = page.get("nextCursor")
        if cursor is None:
            return pages
        after = {"after": cursor}


async def test_listings_keep_archived_games_once_with_the_same_cursors(setup: Setup) -> None:
    api, archiver = setup.api, setup.archiver
    ids = [
        (await _finished(api, f"archive-list-{n}", kind))[0]
        for n, kind in enumerate(["TREELINGS", "TREETOPIA", "TREELINGS", "TREETOPIA", "TREELINGS"])
    ]
    live = await create_game(api.http, kind="TREETOPIA", seed="archive-live", playerIds=["bob"])
    before = {str(only): await _pages(api, only) for only in LISTINGS}
    assert sum(len(page["games"]) for page in before["{}"]) == 6
    # two archived and gone from Redis, one archived but still in Redis (its worker stopped
    # before the drop), the live game and the rest in Redis alone
    for game_id in ids[:2]:
        assert await archiver.one(game_id) == "archived"
    fields = await setup.worker.store.archived.fields(ids[3])
    record, _ = await setup.worker.store.load(ids[3])
    assert record is not None
    await setup.archive.put(ArchivedGame.of(ids[3], record, fields, b""))

    for only in LISTINGS:
        assert await _pages(api, only) == before[str(only)], only
    assert live["game"]["id"] not in ids


async def test_two_workers_archive_a_game_once(setup: Setup) -> None:
    game_id, _ = await _finished(setup.api, "archive-race")
    other = await _worker(setup.settings, setup.redis_url, "archive-other")
    assert other.archiver is not None
    try:
        outcomes = await asyncio.gather(setup.archiver.one(game_id), other.archiver.one(game_id))
    finally:
        await _close(other)
    assert "archived" in outcomes and set(outcomes) <= {"archived", "gone"}, outcomes
    async with setup.archive.pool.connection() as conn:
        query = "SELECT count(*), max(version) FROM archived_games WHERE game_id = %s"
        count = await (await conn.execute(query, (game_id,))).fetchone()
    assert count is not None and count[0] == 1
    assert not await _in_redis(setup.worker, game_id)


async def test_an_archive_that_does_not_answer_keeps_the_game_in_redis(
    setup: Setup,
) -> None:
    api, worker, archiver = setup.api, setup.worker, setup.archiver
    game_id, tokens = await _finished(api, "archive-down")
    before = await _reads(api, game_id, tokens[0])
    working = archiver.archive
    # a PostgreSQL nobody listens on: connections are refused
    from service.archive.archive import lazy_pool
    from service.store.embedded import free_port

    dead = lazy_pool(f"postgresql://nobody@127.0.0.1:{free_port()}/none", timeout=1)
    await dead.open(wait=False)
    archiver.archive = Archive(dead)
    try:
        unavailable = metrics.ARCHIVED.labels("unavailable")._value.get()
        await archiver.once()  # claims it, and finds the archive away
        assert metrics.ARCHIVED.labels("unavailable")._value.get() == unavailable + 1
    finally:
        archiver.archive = working
        await dead.close()
    assert await _in_redis(worker, game_id), "kept in Redis"
    assert await _reads(api, game_id, tokens[0]) == before
    # claimed until the lease lapses, then archived by the next poll
    mark = await worker.store.redis.zscore(archive_key(lane_of(game_id)), game_id)
    assert mark is not None and mark > time.time()
    await worker.store.redis.zadd(archive_key(lane_of(game_id)), {game_id: 0})
    await archiver.once()
    assert not await _in_redis(worker, game_id)


async def test_without_a_database_nothing_is_marked() -> None:
    settings = Settings(rate_limit_per_token=0, rate_limit_per_address=0, idempotency_grace=0)
    with own_redis() as url:
        async with client_for(create_app(settings, url)) as http:
            game_id, _ = await _finished(Api(http), "archive-off")
            worker = Worker(settings, url, "no-archive")
            try:
                assert worker.archiver is None
                assert not await worker.store.redis.zscore(archive_key(lane_of(game_id)), game_id)
            finally:
                await worker.store.close()
