"""The workers' matchmaking (service/worker/lobby.py): a pass finishes the matches a dead maker
left and matches seekers whose windows widened; a real worker process does both by itself."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import AsyncIterator
from functools import partial

import pytest

from service.core.lobby import Lobby, seek
from service.core.lobby.seeks import WINDOW
from service.settings import Settings
from service.store import RedisStore, connect
from service.store.lobby import LobbyStore
from service.worker.containment import Containment
from service.worker.heartbeat import Heartbeat
from service.worker.lobby import Matchmaker
from service.worker.shared import Shared
from tests.support.tenants import KEYS
from tests.support.waiting import until
from tests.support.workers import worker_process

SETTINGS = Settings(api_keys=KEYS, rate_limit_per_token=0, rate_limit_per_address=0)


@pytest.fixture
async def store(redis_url: str) -> AsyncIterator[RedisStore]:
    store = RedisStore(connect(SETTINGS, redis_url), SETTINGS)
    try:
        yield store
    finally:
        await store.close()


async def dead_makers_match(store: RedisStore, tenant: str, rating: float) -> tuple[str, str]:
    """Two players matched by a maker that died before their game existed."""
    first, second = f"p-{secrets.token_hex(4)}", f"p-{secrets.token_hex(4)}"
    await Lobby(store).enter(tenant, seek("TREELINGS", 2, None, first, rating))
    asked = seek("TREELINGS", 2, None, second, rating)
    made = await LobbyStore(store).enter(
        tenant, asked.pool, asked.pool_json, second, rating, 2, int(time.time() * 1000), WINDOW,
        64, secrets.token_hex(16), "a-maker-that-died",
    )  # fmt: skip
    assert made.made is not None
    return first, second


async def test_a_pass_finishes_what_a_dead_maker_left(store: RedisStore) -> None:
    first, second = await dead_makers_match(store, "acme", 100.0 + secrets.randbelow(900_000))
    lobby = Lobby(store)
    assert (await lobby.status("acme", first)).state == "MATCHING"
    shared = Shared(
        Settings(api_keys=KEYS, worker_reclaim_seconds=0.0),
        Heartbeat(60),
        Containment(store),
        asyncio.Event(),
    )
    assert await Matchmaker(store, ["", "acme", "globex"], shared, "test").once() >= 1
    one, two = await lobby.status("acme", first), await lobby.status("acme", second)
    assert one.state == two.state == "MATCHED" and one.game_id == two.game_id


@pytest.mark.slow  # a worker process, and a window that widens in real time (~3 s)
async def test_a_worker_process_matches_and_recovers_by_itself(
    store: RedisStore, redis_url: str
) -> None:
    base = -900_000.0 - secrets.randbelow(90_000)  # a rating range of this test's own
    lobby = Lobby(store)
    low, high = f"p-{secrets.token_hex(4)}", f"p-{secrets.token_hex(4)}"
    await lobby.enter("globex", seek("TREELINGS", 2, None, low, base))
    await lobby.enter("globex", seek("TREELINGS", 2, None, high, base + 3.0))  # fits after 2 s
    first, _ = await dead_makers_match(store, "globex", base + 500)
    with worker_process(
        redis_url, RULES_API_KEYS=",".join(KEYS), RULES_WORKER_RECLAIM_SECONDS="0.5"
    ) as worker:

        async def matched(player: str) -> bool:
            return (await lobby.status("globex", player)).state == "MATCHED"

        for player in (low, high, first):
            try:
                await until(partial(matched, player), f"{player} matched", 60)
            except AssertionError:
                raise AssertionError(worker.output()) from None
    assert (await lobby.status("globex", low)).game_id == (
        await lobby.status("globex", high)
    ).game_id
