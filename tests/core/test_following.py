"""A subscriber's versions (service/core/reads/following.py, gameEvents): every version after the one
it names, in order and each once, while moves race the catch-up. A cut event connection:
here and through a service process in tests/api/graphql/test_subscriptions.py; a failover:
tests/reliability/test_failover.py."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator

import pytest

from service.core import GameService
from service.refusals import Code, Refused
from service.settings import Settings
from service.store import RedisStore, connect
from service.store.embedded import EmbeddedRedis
from tests.support.following import following, play
from tests.support.proxy import CuttingProxy
from tests.support.waiting import until

SETTINGS = Settings(redis_timeout=5)


@pytest.fixture
def server() -> Iterator[EmbeddedRedis]:
    server = EmbeddedRedis().start()
    try:
        yield server
    finally:
        server.cleanup()


@pytest.fixture
async def service(server: EmbeddedRedis) -> AsyncIterator[GameService]:
    store = RedisStore(connect(SETTINGS, server.url), SETTINGS)
    yield GameService(store)
    await store.close()


async def test_a_subscriber_after_a_version_is_given_every_later_one_then_the_live_ones(
    service: GameService,
) -> None:
    loaded, tokens = await service.create("TREELINGS", 2, "after", None)
    for n in range(4):
        version = await play(service, loaded.id, tokens, f"after-{n}")
    async with following(service, loaded.id, 1) as seen:
        await until(lambda: seen and seen[-1] == version, "the replay")
        for n in range(4, 6):
            version = await play(service, loaded.id, tokens, f"after-{n}")
        await until(lambda: seen[-1] == version, "the live versions")
        assert seen == list(range(2, version + 1))


async def test_an_after_version_the_game_has_not_reached_is_out_of_range(
    service: GameService,
) -> None:
    loaded, _ = await service.create("TREELINGS", 2, "range", None)
    for after in (loaded.record.version + 1, -1):
        with pytest.raises(Refused) as refused:
            async for _ in service.follow(loaded.id, None, after, lambda: None):
                pass
        assert refused.value.code is Code.OUT_OF_RANGE


async def test_subscribers_joining_while_moves_are_committed_miss_none_and_see_none_twice(
    service: GameService,
) -> None:
    """Subscribed first, read second, the live events deduplicated: a version committed while
    the replay is read arrives once, whether in the read or live."""
    loaded, tokens = await service.create("TREELINGS", 2, "race", None)
    async with contextlib.AsyncExitStack() as stack:
        followers = []
        for n in range(12):
            followers.append(await stack.enter_async_context(following(service, loaded.id, 0)))
            version = await play(service, loaded.id, tokens, f"race-{n}")
        await until(lambda: all(f and f[-1] == version for f in followers), "every follower")
        for seen in followers:
            assert seen == list(range(1, version + 1))


async def test_versions_committed_while_the_event_connection_is_cut_are_given_once_it_is_back(
    server: EmbeddedRedis, service: GameService
) -> None:
    """The subscriber's store reaches Redis through a proxy that is cut: the moves made
    meanwhile (straight to Redis) come after the reconnection, in order, none twice."""
    proxy = await CuttingProxy(server.port).start()
    store = RedisStore(connect(SETTINGS, f"redis://127.0.0.1:{proxy.port}/0"), SETTINGS)
    try:
        loaded, tokens = await service.create("TREELINGS", 2, "cut", None)
        async with following(GameService(store), loaded.id, None) as seen:
            await until(lambda: seen == [loaded.record.version], "the subscription")
            proxy.cut()
            for n in range(3):
                version = await play(service, loaded.id, tokens, f"cut-{n}")
            proxy.resume()
            version = await play(service, loaded.id, tokens, "cut-live")
            await until(lambda: seen[-1] == version, "the versions made during the cut")
            assert seen == list(range(loaded.record.version, version + 1))
    finally:
        await store.close()
        await proxy.aclose()
