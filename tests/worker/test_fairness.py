"""A fair share of a worker for each tenant's bot turns (service/worker): one tenant's
backlog does not hold back another tenant's bot turn, and jobs an earlier release queued on a
lane's own stream are still played. One real worker process; on one Redis and on a cluster."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import pytest

from service.engine import start as engine_start
from service.engine.play import encode_state
from service.games import games
from service.settings import Settings
from service.store import FORMAT, Record, RedisStore, connect
from service.store.jobs import LANE_KEYS, lane_of, new_game_id
from tests.conftest import own_redis
from tests.support.waiting import until
from tests.support.workers import worker_process

SETTINGS = Settings()
TENANTS = {"RULES_API_KEYS": "acme:acme-secret,globex:globex-secret"}
BACKLOG = 40  # acme's games, each with three bot turns to play


@pytest.fixture
async def store() -> AsyncIterator[tuple[str, RedisStore]]:
    """A Redis of its own: only this test's worker takes its jobs."""
    with own_redis() as url:
        store = RedisStore(connect(SETTINGS, url), SETTINGS)
        yield url, store
        await store.close()


def _game_id(players: int, lane: int | None = None) -> str:
    """A game id (in `lane`, if given) whose TREELINGS game (seeded by the id) starts with seat 0 to act:
    about one seed in thousands makes the first player's first turn a forced step."""
    game = games()["TREELINGS"]
    while True:
        game_id = new_game_id()
        start = engine_start(game, players, None, game_id)
        if lane in (None, lane_of(game_id)) and game.to_act(start.state) == [0]:
            return game_id


async def _bot_game(
    store: RedisStore, game_id: str, tenant: str, players: int, bots: int, queued: bool = True
) -> None:
    """A TREELINGS game of `tenant` whose first `bots` seats are GREEDY bots, the first to act,
    stored as the service creates it: its first bot turn queued (unless not `queued`)."""
    game = games()["TREELINGS"]
    played = engine_start(game, players, None, game_id)
    assert game.to_act(played.state) == [0]
    state = encode_state(played.state)
    record = Record(
        FORMAT, "TREELINGS", players, 0, False, game_id, [b""] * players, state, 1.0, 1.0
    )
    record.tenant, record.bots = tenant, dict.fromkeys(range(bots), "GREEDY")
    assert await store.create(game_id, record, [], 0 if queued else None)


async def test_one_tenants_backlog_does_not_hold_back_anothers_bot_turn(
    store: tuple[str, RedisStore],
) -> None:
    """acme's 40 games queued in one lane before globex's one: the worker plays globex's bot
    turn among its first few jobs, not after acme's backlog."""
    url, redis_store = store
    acme = [_game_id(4, lane=7) for _ in range(BACKLOG)]
    for game_id in acme:
        await _bot_game(redis_store, game_id, "acme", 4, 3)
    globex = _game_id(2, lane=7)
    await _bot_game(redis_store, globex, "globex", 2, 1)
    with worker_process(url, **TENANTS) as worker:
        await worker.until_logged(f"{globex} v0 seat 0: played")
        log = worker.stop()
    played = re.findall(r"job \S+ (\S+) v\d+ seat \d+: played", log)
    before = played[: played.index(globex)]
    assert set(before) <= set(acme) and len(before) <= 2, log


async def test_a_job_queued_on_a_lanes_own_stream_is_still_played(
    store: tuple[str, RedisStore],
) -> None:
    """A job an earlier release queued (on `bots:{bots-n}`, for a game with a tenant) before the
    upgrade: the new worker plays it, and the game's next bot turn after it."""
    url, redis_store = store
    game_id = _game_id(3)
    await _bot_game(redis_store, game_id, "acme", 3, 2, queued=False)
    await redis_store.redis.xadd(LANE_KEYS[lane_of(game_id)], {"g": game_id, "v": 0, "s": 0})
    with worker_process(url, **TENANTS) as worker:
        await worker.until_logged(f"{game_id} v0 seat 0: played")
        successor = re.compile(rf"{re.escape(game_id)} v1 seat \d: played")  # on its own stream
        await until(lambda: successor.search(worker.output()), "the next bot turn played")
