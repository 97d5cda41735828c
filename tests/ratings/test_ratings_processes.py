"""Ratings with real worker processes and a PostgreSQL server of the test's own: the server
stopped mid-run delays the ratings of the games that finish meanwhile, a worker SIGKILLed
mid-run leaves its claims to the next, and every game is rated exactly once in the end."""

from __future__ import annotations

import pytest

from service.app import create_app
from service.archive.database import open_pool
from service.archive.embedded import EmbeddedPostgres
from service.settings import Settings
from tests.archive.test_archive import _finished
from tests.conftest import Api, client_for, own_redis
from tests.support.waiting import until
from tests.support.workers import worker_process

pytestmark = pytest.mark.slow

GAMES = 5


async def test_every_game_is_rated_once_when_the_database_stops_or_a_worker_dies(
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

        async def rated() -> tuple[int, dict[str, int]]:
            """The games rated, and each player's count of rated games."""
            pool = await open_pool(database.url)
            try:
                async with pool.connection() as conn:
                    games = await (
                        await conn.execute(
                            "SELECT count(*) FROM rated_games WHERE outcome = 'RATED'"
                        )
                    ).fetchone()
                    players = await (
                        await conn.execute("SELECT player_id, games FROM ratings")
                    ).fetchall()
            finally:
                await pool.close()
            assert games is not None
            return int(games[0]), {str(p): int(n) for p, n in players}

        async def rated_at_least(count: int) -> bool:
            return (await rated())[0] >= count

        async with client_for(create_app(settings, url)) as http:
            api = Api(http)
            for n in range(GAMES):
                await _finished(api, f"rated-{n}")
            with worker_process(url, **environment) as worker:
                await until(lambda: rated_at_least(GAMES), "the first games rated")
                database.stop()  # mid-run: the next games find it away
                for n in range(GAMES):
                    await _finished(api, f"rated-later-{n}")
                await worker.until_logged("left for a later archive")
                database.start()
                await until(lambda: rated_at_least(GAMES + 1), "the ratings back")
                worker.process.kill()  # SIGKILL, wherever it is
                worker.process.wait(30)
            with worker_process(url, **environment):
                await until(lambda: rated_at_least(2 * GAMES), "every game rated", 120)
        games, players = await rated()
        assert games == 2 * GAMES
        assert players == {"ann": 2 * GAMES, "bob": 2 * GAMES}, "each game once, none lost"
