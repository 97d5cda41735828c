"""`make deprecate-rules` and `make retire-rules` (tools/retire_rules.py): a frozen rules
version gets a notice beside its modules, and is deleted only once the notice has run and no
live game of its kind and version is left in Redis. Each test works on a copy of Treelings
frozen as version 1 (tools/freeze_rules.py) with version 2 next, and on a Redis of this module
alone, where games are created through the real app."""

from __future__ import annotations

import importlib.util
import shutil
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import msgspec
import pytest

from service.app import create_app
from service.archive.archive import Archive
from service.archive.database import open_pool
from service.games import NOTICE, Retirement
from service.settings import Settings
from service.store import RedisStore, connect
from service.worker import Worker
from tests.conftest import Api, client_for, own_redis
from tests.support.play import create
from tests.support.processes import service_processes

ROOT = Path(__file__).parents[2]
ANNOUNCED = date(2026, 12, 6)
ABANDON = """
mutation Abandon($id: ID!) {
  abandonGame(gameId: $id) { __typename ... on MoveApplied { game { status } } }
}"""


def _tool(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


FREEZE, TOOL = _tool("freeze_rules"), _tool("retire_rules")


@pytest.fixture(scope="module")
def redis_url(quiet_redis_url: str) -> str:
    """Games of this module's alone: another test's live Treelings game would hold version 1."""
    return quiet_redis_url


@pytest.fixture(scope="module")
async def api(redis_url: str) -> AsyncIterator[Api]:
    settings = Settings(rate_limit_per_token=0, rate_limit_per_address=0)
    async with client_for(create_app(settings, redis_url)) as http:
        yield Api(http)


@pytest.fixture
async def store(redis_url: str) -> AsyncIterator[RedisStore]:
    settings = Settings()
    store = RedisStore(connect(settings, redis_url), settings)
    yield store
    await store.close()


@pytest.fixture
def games(tmp_path: Path) -> Path:
    """service/games with Treelings frozen as version 1, its package at version 2."""
    games = tmp_path / "games"
    shutil.copytree(
        ROOT / "service" / "games" / "treelings",
        games / "treelings",
        ignore=shutil.ignore_patterns("__pycache__", "earlier"),
    )
    FREEZE.freeze("treelings", games)
    game = games / "treelings" / "game.py"
    game.write_text(game.read_text().replace("\nRULES_VERSION = 1\n", "\nRULES_VERSION = 2\n"))
    return games


def test_a_notice_runs_at_least_the_notice_period_beside_the_frozen_version(games: Path) -> None:
    shortest = ANNOUNCED + timedelta(days=TOOL.NOTICE_DAYS)
    with pytest.raises(SystemExit, match="at least 90 days"):
        TOOL.deprecate("treelings", 1, shortest - timedelta(days=1), ANNOUNCED, games)
    notice = TOOL.deprecate("treelings", 1, shortest, ANNOUNCED, games)

    assert notice == games / "treelings" / "earlier" / "v1" / NOTICE
    read = msgspec.toml.decode(notice.read_bytes(), type=Retirement)
    assert read == Retirement(announced=ANNOUNCED, retire_after=shortest)
    assert read.ends() == datetime(2027, 3, 7, tzinfo=UTC), "the day after, from midnight UTC"
    with pytest.raises(SystemExit, match="newest"):
        TOOL.deprecate("treelings", 2, shortest, ANNOUNCED, games)
    with pytest.raises(SystemExit, match="no frozen version 3"):
        TOOL.deprecate("treelings", 3, shortest, ANNOUNCED, games)


async def test_retiring_is_refused_without_a_notice_and_while_it_runs(
    games: Path, store: RedisStore
) -> None:
    frozen = games / "treelings" / "earlier" / "v1"
    with pytest.raises(SystemExit, match="no notice"):
        await TOOL.retire("treelings", 1, store, ANNOUNCED + timedelta(days=1000), games)
    notice = TOOL.deprecate("treelings", 1, date(2027, 3, 6), ANNOUNCED, games)
    with pytest.raises(SystemExit, match="under notice until 2027-03-06"):
        await TOOL.retire("treelings", 1, store, date(2027, 3, 6), games)
    assert notice.is_file() and (frozen / "game.py").is_file()

    assert await TOOL.retire("treelings", 1, store, date(2027, 3, 7), games) == frozen
    assert not frozen.exists()
    assert (games / "treelings" / "earlier" / "__init__.py").is_file(), "other versions' home"


async def test_retiring_is_refused_while_a_live_game_uses_the_version(
    games: Path, api: Api, store: RedisStore
) -> None:
    """A game of version 1 that is ACTIVE holds it; one of another kind, or over, does not."""
    after = date(2027, 3, 7)
    TOOL.deprecate("treelings", 1, date(2027, 3, 6), ANNOUNCED, games)
    live, _ = await create(api, "TREELINGS", 2, seed="retire-live")
    await create(api, "TREETOPIA", 2, seed="retire-other-kind")  # version 1 of another kind
    assert await TOOL.live_games(store, "TREELINGS", 1) == [live["id"]]

    with pytest.raises(SystemExit, match=f"1 live game\\(s\\) .* version 1: {live['id']}$"):
        await TOOL.retire("treelings", 1, store, after, games)
    assert (games / "treelings" / "earlier" / "v1" / "game.py").is_file()
    assert await TOOL.live_games(store, "TREELINGS", 2) == [], "version 2 has none"

    abandoned = await api.gql(ABANDON, {"id": live["id"]})
    assert abandoned["abandonGame"]["game"]["status"] == "ABANDONED"
    assert await TOOL.retire("treelings", 1, store, after, games)
    assert not (games / "treelings" / "earlier" / "v1").exists()


CATALOG = "{ catalog { kind rulesVersions deprecatedRulesVersions { version retireAfter } } }"
GAME = "query G($id: ID!) { game(id: $id) { status rulesVersion legalMoves { move } } }"
APPLY = """
mutation A($input: ApplyMoveInput!) {
  applyMove(input: $input) { __typename ... on MoveApplied { game { version } } }
}"""


def _next_release(into: Path) -> Path:
    """This tree with Treelings frozen as version 1 and version 2 changing a rule (the
    Festival card on top of the pile: TG-1 changed), version 1 under a notice that has run."""
    shutil.copytree(
        ROOT / "service", into / "service", ignore=shutil.ignore_patterns("__pycache__")
    )
    games = into / "service" / "games"
    shutil.rmtree(games / "treelings" / "earlier", ignore_errors=True)
    FREEZE.freeze("treelings", games)
    package = games / "treelings"
    game, rules = package / "game.py", package / "rules.py"
    game.write_text(game.read_text().replace("\nRULES_VERSION = 1\n", "\nRULES_VERSION = 2\n"))
    changed = rules.read_text().replace("depth = CARDS.festival_depth", "depth = 0")
    assert changed != rules.read_text(), "rules.py changed shape: update this test's patch"
    rules.write_text(changed)
    today = datetime.now(UTC).date()
    TOOL.deprecate("treelings", 1, today - timedelta(days=1), today - timedelta(days=100), games)
    return games


async def _treelings(http: httpx.AsyncClient, url: str) -> Any:
    catalog = (await http.post(f"{url}/graphql", json={"query": CATALOG})).json()["data"]
    return next(kind for kind in catalog["catalog"] if kind["kind"] == "TREELINGS")


async def _moved(http: httpx.AsyncClient, url: str, game_id: str, token: str) -> Any:
    """The first legal move of the seat `token` holds (the seat to act): applyMove's data, or
    the whole answer when it is an error."""
    auth = {"authorization": f"Bearer {token}"}
    query = {"query": GAME, "variables": {"id": game_id}}
    seen = (await http.post(f"{url}/graphql", json=query, headers=auth)).json()["data"]["game"]
    variables = {"input": {"gameId": game_id, "move": seen["legalMoves"][0]["move"]}}
    answer = (
        await http.post(
            f"{url}/graphql", json={"query": APPLY, "variables": variables}, headers=auth
        )
    ).json()
    return answer if "errors" in answer else answer["data"]["applyMove"]


@pytest.mark.slow
async def test_a_retired_version_leaves_its_games_readable_not_playable(
    tmp_path: Path, database_url: str
) -> None:
    """The next release plays version 1 under notice (the catalog says until when) and the
    tool refuses while this release's game of it is live; once that game ends (it is
    archived), the version is retired. A release without it reads games of version 1, the
    archived one and one an older replica created meanwhile (a rolling upgrade), refuses a
    move RULES_CHANGED, and no longer exports the archived game's record (RULES_CHANGED)."""
    games = _next_release(tmp_path)
    release, today = str(tmp_path), datetime.now(UTC).date()
    env = {
        "DATABASE_URL": database_url,
        "RULES_IDEMPOTENCY_GRACE": "0",
        "RULES_RATE_LIMIT_PER_TOKEN": "0",
        "RULES_RATE_LIMIT_PER_ADDRESS": "0",
    }
    settings = Settings(
        rate_limit_per_token=0,
        rate_limit_per_address=0,
        idempotency_grace=0,
        database_url=database_url,
    )
    with own_redis() as url:
        store = RedisStore(connect(Settings(), url), Settings())
        async with (
            client_for(create_app(settings, url)) as this_http,
            httpx.AsyncClient(timeout=60) as http,
        ):
            this = Api(this_http)
            ended, ended_tokens = await create(this, "TREELINGS", 2, seed="retired-ended")
            with service_processes(url, 1, env, release=release) as (following,):
                treelings = await _treelings(http, following)
                assert treelings["rulesVersions"] == [1, 2]
                notice = datetime.combine(today, datetime.min.time(), UTC).isoformat()
                assert treelings["deprecatedRulesVersions"] == [
                    {"version": 1, "retireAfter": notice}
                ]
                assert await _moved(http, following, ended["id"], ended_tokens[0]) == {
                    "__typename": "MoveApplied",
                    "game": {"version": 1},
                }, "played under version 1 while its notice runs"
                with pytest.raises(SystemExit, match=f"1 live game.*{ended['id']}"):
                    await TOOL.retire("treelings", 1, store, today, games)
            abandoned = await this.gql(ABANDON, {"id": ended["id"]})
            assert abandoned["abandonGame"]["game"]["status"] == "ABANDONED"
            await _archive(settings, url, ended["id"])
            assert not await store.redis.exists(f"g:{{{ended['id']}}}"), "it left Redis"
            await TOOL.retire("treelings", 1, store, today, games)
            await store.close()
            live, tokens = await create(this, "TREELINGS", 2, seed="retired-live")

            with service_processes(url, 1, env, release=release) as (following,):
                treelings = await _treelings(http, following)
                assert treelings["rulesVersions"] == [2]
                assert treelings["deprecatedRulesVersions"] == []
                seen = ((ended["id"], "ABANDONED", ""), (live["id"], "ACTIVE", tokens[0]))
                for game_id, status, token in seen:
                    read = await http.post(
                        f"{following}/graphql",
                        json={"query": GAME, "variables": {"id": game_id}},
                        headers={"authorization": f"Bearer {token}"} if token else {},
                    )
                    game = read.json()["data"]["game"]
                    assert (game["status"], game["rulesVersion"]) == (status, 1), read.text
                refused = await _moved(http, following, live["id"], tokens[0])
                assert refused["errors"][0]["extensions"]["code"] == "RULES_CHANGED"
                move = game["legalMoves"][0]["move"]
                rest = await http.post(
                    f"{following}/v1/games/{live['id']}/moves",
                    json={"move": move},
                    headers={"authorization": f"Bearer {tokens[0]}"},
                )
                assert rest.status_code == 409 and rest.json()["code"] == "RULES_CHANGED"
                record = await http.get(f"{following}/v1/games/{ended['id']}/record")
                assert record.status_code == 409 and record.json()["code"] == "RULES_CHANGED"


async def _archive(settings: Settings, url: str, game_id: str) -> None:
    """The game archived by a worker of this release, its loops not started."""
    worker = Worker(settings, url, "retire-rules")
    assert worker.archiver is not None
    worker.archiver.archive = Archive(await open_pool(settings.database_url))
    try:
        assert await worker.archiver.one(game_id) == "archived"
    finally:
        await worker.archiver.archive.pool.close()
        await worker.store.close()
