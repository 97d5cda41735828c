"""Delayed spectators (service/core/access/keys.py `spectator_delay`, applied by
GameService.read): over random games of every kind, played to their end, a spectator is shown
exactly the game as of `spectatorDelay` versions ago (its version, view, toAct, scores, history,
past states), never a newer version, in reads and in its events; seats and the game's keyed
tenant see it live; once the game is over everyone sees how it ended."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Iterator
from typing import Any

import msgspec
import pytest

from service.core import Caller, GameService, LoadedGame
from service.core.reads.listing import GameFilter
from service.games import games
from service.refusals import Code, Refused
from service.settings import Settings
from service.store import RedisStore, connect
from service.store.embedded import EmbeddedRedis
from tests.support.waiting import until

SETTINGS = Settings(redis_timeout=5)
KEYS = ("acme:acme-secret", "globex:globex-secret")
SPECTATOR = Caller()
TENANT, OTHER_TENANT = Caller(tenant="acme"), Caller(tenant="globex")
GAMES_PER_KIND = 3


@pytest.fixture(scope="module")
def server() -> Iterator[EmbeddedRedis]:
    server = EmbeddedRedis().start()
    try:
        yield server
    finally:
        server.cleanup()


@pytest.fixture
async def service(server: EmbeddedRedis) -> AsyncIterator[GameService]:
    """The game service of a server with two tenants (RULES_API_KEYS)."""
    store = RedisStore(connect(SETTINGS, server.url), SETTINGS)
    yield GameService(store, api_keys=KEYS)
    await store.close()


def wire(obj: object) -> bytes:
    return msgspec.json.encode(obj)


async def assert_shown_as_of(
    service: GameService, seen: LoadedGame, live: LoadedGame, allowed: int
) -> None:
    """`seen` (a spectator's read) is the game as of `allowed` exactly, and nothing later."""
    assert seen.viewer is None
    assert seen.record.version == allowed
    then = await service.at_version(LoadedGame(live.id, live.record, live.game, None), allowed)
    assert wire(seen.view()) == wire(then.view())
    assert seen.to_act == then.to_act and seen.legal_moves() == []
    assert wire(seen.scores()) == wire(then.scores())
    assert seen.status() == "ACTIVE" and seen.seed_reveal() is None
    history = await service.history(seen, 0)
    assert [e.version for e in history][-1:] == ([allowed] if allowed else [])
    with pytest.raises(Refused) as refused:  # a later version is the future to a spectator
        await service.at_version(seen, allowed + 1)
    assert refused.value.code is Code.OUT_OF_RANGE


# one game of each kind in the fast tier, the others in the slow one (whole games cost seconds)
@pytest.mark.parametrize(
    "kind, n",
    [
        pytest.param(kind, n, marks=[pytest.mark.slow] if n else [])
        for kind in sorted(games())
        for n in range(GAMES_PER_KIND)
    ],
)
async def test_a_spectator_never_sees_a_version_newer_than_its_delay_allows(
    service: GameService, kind: str, n: int
) -> None:
    game = games()[kind]
    chooser = random.Random(f"{kind}-{n}")
    players = chooser.randint(game.min_players, game.max_players)
    delay = chooser.randint(1, 6)
    loaded, tokens = await service.create(
        kind, players, f"delay-{kind}-{n}", None, "acme-secret", spectator_delay=delay
    )
    first = loaded.record.version
    assert loaded.record.spectator_delay == delay
    while True:
        live = await service.read(loaded.id, TENANT)
        seen = await service.read(loaded.id, SPECTATOR)
        if live.status() != "ACTIVE":
            break
        assert live.delay == 0 and seen.delay == delay
        allowed = max(live.record.version - delay, 0)
        await assert_shown_as_of(service, seen, live, allowed)
        stranger = await service.read(loaded.id, OTHER_TENANT)  # another tenant's key
        assert stranger.record.version == allowed
        seat = chooser.choice(live.to_act)
        mine = await service.read(loaded.id, Caller(token=tokens[seat]))
        assert (mine.record.version, mine.delay) == (live.record.version, 0)
        move = chooser.choice(game.legal_moves(mine.state, seat))
        await service.apply(loaded.id, tokens[seat], msgspec.to_builtins(move), None, None)
    # over: the delay lifts, everyone sees how it ended
    assert live.record.version > first
    assert (seen.record.version, seen.status(), seen.delay) == (
        live.record.version,
        "FINISHED",
        0,
    )
    assert wire(seen.view()) == wire(live.view())


async def test_the_delay_lifts_when_a_seat_resigns_or_the_tenant_abandons(
    service: GameService,
) -> None:
    for end in ("resign", "abandon"):
        loaded, tokens = await service.create(
            "TREELINGS", 2, f"end-{end}", None, "acme-secret", spectator_delay=50
        )
        for _ in range(3):
            live = await service.read(loaded.id, TENANT)
            seat = live.to_act[0]
            move = live.game.legal_moves(live.state, seat)[0]
            await service.apply(loaded.id, tokens[seat], msgspec.to_builtins(move), None, None)
        assert (await service.read(loaded.id, SPECTATOR)).record.version == 0
        if end == "resign":
            ended = (await service.resign(loaded.id, tokens[0], None)).game
        else:
            ended = (await service.abandon(loaded.id, "acme")).game
        seen = await service.read(loaded.id, SPECTATOR)
        assert (seen.record.version, seen.status()) == (ended.record.version, ended.status())
        assert seen.outcome() is not None and seen.seed_reveal() is not None


async def test_without_api_keys_every_caller_without_a_seat_token_is_delayed(
    server: EmbeddedRedis,
) -> None:
    """Without RULES_API_KEYS every caller is the default tenant: no key tells the game's
    tenant apart, so none sees it live but through a seat."""
    store = RedisStore(connect(SETTINGS, server.url), SETTINGS)
    try:
        service = GameService(store)
        loaded, tokens = await service.create("TREELINGS", 2, "keyless", None, spectator_delay=2)
        for _ in range(3):
            live = await service.read(loaded.id, tokens[0])
            seat = live.to_act[0]
            move = live.game.legal_moves(live.state, seat)[0]
            await service.apply(loaded.id, tokens[seat], msgspec.to_builtins(move), None, None)
        live = await service.read(loaded.id, tokens[0])
        for caller in (SPECTATOR, Caller(tenant="default")):
            seen = await service.read(loaded.id, caller)
            assert seen.record.version == live.record.version - 2
        page = await service.list_games("default", _everything(), 100, None)
        listed = {game.id: game for _, game in page.games}
        assert listed[loaded.id].record.version == live.record.version - 2
    finally:
        await store.close()


def _everything() -> GameFilter:
    return GameFilter()


async def test_the_tenants_listing_is_live(service: GameService) -> None:
    loaded, tokens = await service.create(
        "TREELINGS", 2, "listing", None, "acme-secret", spectator_delay=3
    )
    live = await service.read(loaded.id, TENANT)
    move = live.game.legal_moves(live.state, live.to_act[0])[0]
    await service.apply(loaded.id, tokens[live.to_act[0]], msgspec.to_builtins(move), None, None)
    page = await service.list_games("acme", _everything(), 100, None)
    listed = {game.id: game for _, game in page.games}
    assert listed[loaded.id].record.version == live.record.version + 1
    assert listed[loaded.id].delay == 0


@pytest.mark.parametrize("delay", [-1, 101, True, "3"])
async def test_a_delay_out_of_bounds_is_bad_input(service: GameService, delay: Any) -> None:
    with pytest.raises(Refused) as refused:
        await service.create("TREELINGS", 2, None, None, "acme-secret", spectator_delay=delay)
    assert refused.value.code is Code.BAD_INPUT
    assert "spectatorDelay" in refused.value.message


async def test_a_spectators_events_are_each_version_delay_behind_and_all_at_the_end(
    service: GameService,
) -> None:
    delay = 3
    loaded, tokens = await service.create(
        "TREELINGS", 2, "events", None, "acme-secret", spectator_delay=delay
    )
    spectator: list[tuple[int, str]] = []
    tenant: list[tuple[int, str]] = []

    async def collect(caller: Caller, into: list[tuple[int, str]], after: int | None) -> None:
        async for event in service.follow(loaded.id, caller, after, lambda: None):
            into.append((event.version, event.status))

    first = loaded.record.version
    beyond = max(first - delay, 0) + 1
    with pytest.raises(Refused) as refused:  # past what a spectator may see: the future
        async for _ in service.follow(loaded.id, SPECTATOR, beyond, lambda: None):
            pass
    assert refused.value.code is Code.OUT_OF_RANGE
    tasks = [
        asyncio.create_task(collect(SPECTATOR, spectator, None)),
        asyncio.create_task(collect(TENANT, tenant, None)),
    ]
    try:
        await until(lambda: spectator and tenant, "both subscribed")
        chooser = random.Random(5)
        while True:
            live = await service.read(loaded.id, TENANT)
            if live.status() != "ACTIVE":
                break
            version = live.record.version
            await until(lambda v=version: tenant[-1][0] == v, f"the tenant's event {version}")
            allowed = max(version - delay, 0)
            await until(lambda v=allowed: spectator[-1][0] == v, f"the spectator's event {allowed}")
            assert all(v <= allowed for v, _ in spectator)
            seat = chooser.choice(live.to_act)
            move = chooser.choice(live.game.legal_moves(live.state, seat))
            await service.apply(loaded.id, tokens[seat], msgspec.to_builtins(move), None, None)
        await asyncio.wait_for(asyncio.gather(*tasks), 60)  # both streams end with the game
    finally:
        for task in tasks:
            task.cancel()
    final = live.record.version
    assert [v for v, _ in spectator] == list(range(max(first - delay, 0), final + 1))
    assert [v for v, _ in tenant] == list(range(first, final + 1))
    assert spectator[-1] == tenant[-1] == (final, "FINISHED")


async def test_a_delayed_listing_does_not_tell_whose_turn_it_is_live(server: EmbeddedRedis) -> None:
    """Without RULES_API_KEYS a listing is a spectator's: `toActPlayerId` (answered by the live
    index) leaves out a delayed game whose seat to act, as seen, is not that player's."""
    store = RedisStore(connect(SETTINGS, server.url), SETTINGS)
    try:
        service = GameService(store)
        loaded, tokens = await service.create(
            "TREELINGS", 2, "turns", None, player_ids=["ann", "bob"], spectator_delay=1
        )
        for _ in range(20):
            live = await service.read(loaded.id, tokens[0])
            seen = await service.read(loaded.id, SPECTATOR)
            if seen.to_act and live.to_act and seen.to_act[0] != live.to_act[0]:
                break
            seat = live.to_act[0]
            move = live.game.legal_moves(live.state, seat)[0]
            await service.apply(loaded.id, tokens[seat], msgspec.to_builtins(move), None, None)
        else:
            pytest.fail("the seat to act never changed")
        acting_now = ["ann", "bob"][live.to_act[0]]
        page = await service.list_games(
            "default", GameFilter(to_act_player_id=acting_now), 100, None
        )
        assert loaded.id not in {game.id for _, game in page.games}
        page = await service.list_games("default", GameFilter(player_id=acting_now), 100, None)
        listed = {game.id: game for _, game in page.games}
        assert listed[loaded.id].to_act == seen.to_act != live.to_act
    finally:
        await store.close()
