"""The archive with real processes (service/worker/archiving.py): worker processes archive
finished games into a PostgreSQL server of the test's own; the server stopped mid-run keeps
every game in Redis and readable, a worker SIGKILLed mid-run leaves its claims to the next,
and each game ends in the archive exactly once, reading as it did."""

from __future__ import annotations

import pytest

from service.app import create_app
from service.archive.database import open_pool
from service.archive.embedded import EmbeddedPostgres
from service.settings import Settings
from service.store import RedisStore, connect
from tests.archive.test_archive import _finished, _reads
from tests.conftest import Api, client_for, own_redis
from tests.support.waiting import until
from tests.support.workers import worker_process

pytestmark = pytest.mark.slow

GAMES = 6


async def test_no_game_is_lost_when_the_database_stops_or_an_archiver_dies(
    database_url: str,  # a PostgreSQL can run here (this test starts its own)
) -> None:
    with own_redis() as url, EmbeddedPostgres() as database:
        await (await open_pool(database.url)).close()  # migrated, as a worker would
        settings = Settings(
            rate_limit_per_token=0,
            rate_limit_per_address=0,
            idempotency_grace=0,
            database_url=database.url,
        )
        environment = {
            "DATABASE_URL": database.url,
            "RULES_IDEMPOTENCY_GRACE": "0",
            "RULES_ARCHIVE_LEASE_SECONDS": "2",
        }
        store = RedisStore(connect(settings, url), settings)

        async def in_redis(game_id: str) -> bool:
            return bool(await store.redis.exists(f"g:{{{game_id}}}"))

        async def archived(ids: list[str]) -> bool:
            return not any([await in_redis(game_id) for game_id in ids])

        async with client_for(create_app(settings, url)) as http:
            api = Api(http)
            first = [await _finished(api, f"processes-{n}") for n in range(GAMES)]
            seen = {game_id: await _reads(api, game_id, tokens[0]) for game_id, tokens in first}

            with worker_process(url, **environment) as worker:
                await until(lambda: archived(list(seen)), "the first games archived")
                database.stop()  # mid-run: the next games find it away
                later = [await _finished(api, f"processes-later-{n}") for n in range(GAMES)]
                await worker.until_logged("left for a later archive")
                for game_id, tokens in later:
                    assert await in_redis(game_id), "kept in Redis"
                    seen[game_id] = await _reads(api, game_id, tokens[0])
                database.start()

                async def some_archived() -> bool:
                    return not all([await in_redis(game_id) for game_id, _ in later])

                await until(some_archived, "the archive back")
                worker.process.kill()  # SIGKILL, wherever it is
                worker.process.wait(30)
            with worker_process(url, **environment):
                await until(lambda: archived(list(seen)), "every game archived", 120)
            for game_id, tokens in [*first, *later]:
                assert await _reads(api, game_id, tokens[0]) == seen[game_id], game_id
        await store.close()
        pool = await open_pool(database.url)
        async with pool.connection() as conn:
            rows = await (
                await conn.execute("SELECT game_id, version FROM archived_games")
            ).fetchall()
        await pool.close()
        assert sorted(game_id for game_id, _ in rows) == sorted(seen), "each once, none lost"
