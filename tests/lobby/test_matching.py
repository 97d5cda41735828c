"""Matchmaking's core over a real Redis (service/core/lobby, service/store/lobby.py): who is
matched with whom, in which order, as windows widen with an injected clock, and a match whose
maker died before its game existed."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator

import pytest

from service.core.lobby import Lobby, Seek, seek
from service.core.lobby.matches import matched_game_id, seat_token
from service.core.lobby.seeks import WINDOW
from service.settings import Settings
from service.store import RedisStore, connect
from service.store.lobby import LobbyStore

SETTINGS = Settings(rate_limit_per_token=0, rate_limit_per_address=0)


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def store(redis_url: str) -> AsyncIterator[RedisStore]:
    store = RedisStore(connect(SETTINGS, redis_url), SETTINGS)
    try:
        yield store
    finally:
        await store.close()


def tenant() -> str:
    return f"t{secrets.token_hex(4)}"  # every test a tenant of its own: keys never shared


def treeline(player: str, rating: float | None = None, players: int = 2) -> Seek:
    return seek("TREELINE", players, None, player, rating)


async def test_oldest_fitting_seekers_are_matched_first(store: RedisStore) -> None:
    clock, who = Clock(), tenant()
    lobby = Lobby(store, clock)
    for i, rating in enumerate([25.0, 26.0, 24.5]):
        clock.now += 1
        status = await lobby.enter(who, treeline(f"p{i}", rating, players=4))
        assert status.state == "WAITING"
    clock.now += 1
    matched = await lobby.enter(who, treeline("late", 25.5))
    assert matched.state == "WAITING"  # another pool: 2 seats
    clock.now += 1
    fourth = await lobby.enter(who, treeline("p3", 25.2, players=4))
    assert fourth.state == "MATCHED"
    for i in range(3):
        status = await lobby.status(who, f"p{i}")
        assert status.state == "MATCHED" and status.game_id == fourth.game_id
    assert (await lobby.status(who, "late")).state == "WAITING"


@pytest.mark.parametrize("first", ["x", "y"])
async def test_fifo_the_older_of_two_fitting_seekers_gets_the_newcomer(
    store: RedisStore, first: str
) -> None:
    clock, who = Clock(), tenant()
    lobby = Lobby(store, clock)
    ratings = {"x": 23.0, "y": 27.0}  # 2 from the newcomer each, 4 from each other
    second = "y" if first == "x" else "x"
    await lobby.enter(who, treeline(first, ratings[first]))
    clock.now += 1
    await lobby.enter(who, treeline(second, ratings[second]))
    clock.now += 1
    newcomer = await lobby.enter(who, treeline("new", 25.0))
    assert newcomer.state == "MATCHED"
    older = await lobby.status(who, first)
    assert older.state == "MATCHED" and older.game_id == newcomer.game_id
    assert (await lobby.status(who, second)).state == "WAITING"


async def test_fifo_the_sweep_lets_the_oldest_seeker_choose_first(store: RedisStore) -> None:
    clock, who = Clock(), tenant()
    lobby = Lobby(store, clock)
    for player, rating in [("a", 20.0), ("b", 25.0), ("c", 30.0)]:
        assert (await lobby.enter(who, treeline(player, rating))).state == "WAITING"
        clock.now += 1
    clock.now += 10  # windows a 5.75, b 5.5, c 5.25: a-b and b-c fit, a-c do not
    assert await lobby.sweep(who) == 1
    a, b = await lobby.status(who, "a"), await lobby.status(who, "b")
    assert a.state == b.state == "MATCHED" and a.game_id == b.game_id
    assert (await lobby.status(who, "c")).state == "WAITING"


async def test_windows_widen_with_waiting_time(store: RedisStore) -> None:
    clock, who = Clock(), tenant()
    lobby = Lobby(store, clock)
    await lobby.enter(who, treeline("low", 20.0))
    await lobby.enter(who, treeline("high", 30.0))
    assert await lobby.sweep(who) == 0  # 10 apart, windows of 2.5
    waiting = await lobby.status(who, "low")
    assert waiting.state == "WAITING" and waiting.window == WINDOW.base
    clock.now += 29  # 2.5 + 0.25 * 29 = 9.75: not yet
    assert await lobby.sweep(who) == 0
    assert (await lobby.status(who, "high")).window == pytest.approx(9.75)
    clock.now += 1  # 10.0: both windows reach the other's rating
    assert await lobby.sweep(who) == 1
    low, high = await lobby.status(who, "low"), await lobby.status(who, "high")
    assert low.state == high.state == "MATCHED"
    assert low.game_id == high.game_id and {low.seat, high.seat} == {0, 1}


async def test_window_is_capped(store: RedisStore) -> None:
    clock, who = Clock(), tenant()
    lobby = Lobby(store, clock)
    await lobby.enter(who, treeline("far-low", 0.0))
    await lobby.enter(who, treeline("far-high", 26.0))
    clock.now += 3000
    assert (await lobby.status(who, "far-low")).window == WINDOW.cap
    assert await lobby.sweep(who) == 0


async def test_a_narrow_newcomer_does_not_take_a_seeker_outside_its_own_window(
    store: RedisStore,
) -> None:
    clock, who = Clock(), tenant()
    lobby = Lobby(store, clock)
    await lobby.enter(who, treeline("old", 20.0))
    clock.now += 100  # the old seeker's window: 25
    fresh = await lobby.enter(who, treeline("new", 30.0))
    assert fresh.state == "WAITING"  # 10 apart: inside the old window, not the new one


async def test_seeks_lapse_after_the_longest_wait(store: RedisStore) -> None:
    clock, who = Clock(), tenant()
    lobby = Lobby(store, clock)
    await lobby.enter(who, treeline("patient", 25.0))
    clock.now += 3601
    await lobby.sweep(who)
    assert (await lobby.status(who, "patient")).state == "NONE"


async def test_a_match_whose_maker_died_is_finished_by_another(store: RedisStore) -> None:
    clock, who = Clock(), tenant()
    maker = Lobby(store, clock, consumer="maker-that-dies")
    rooms = LobbyStore(store)
    a = treeline("a", 25.0)
    b = treeline("b", 25.0)
    await maker.enter(who, a)
    # the maker's script makes the match, then the maker dies before creating the game
    entered = await rooms.enter(
        who, b.pool, b.pool_json, "b", 25.0, 2, int(clock.now * 1000), WINDOW, 64,
        "match-of-a-dead-maker", "maker-that-dies",
    )  # fmt: skip
    assert entered.made is not None
    assert (await maker.status(who, "a")).state == "MATCHING"
    game_id = matched_game_id("match-of-a-dead-maker")
    record, _ = await store.load(game_id)
    assert record is None
    worker = Lobby(store, clock, consumer="worker")
    assert await worker.recover(who, idle_seconds=60) == 0  # not idle long enough yet
    assert await worker.recover(who, idle_seconds=0) == 1
    record, _ = await store.load(game_id)
    assert record is not None and record.tenant == who
    assert sorted(p or "" for p in record.player_ids) == ["a", "b"]
    a_now = await maker.status(who, "a")
    assert a_now.state == "MATCHED" and a_now.game_id == game_id
    assert a_now.seat is not None
    assert a_now.seat_token == seat_token("match-of-a-dead-maker", a_now.seat)[0]
    # the dead maker, back, cannot settle what the worker holds; nothing is left to recover
    assert await worker.recover(who, idle_seconds=0) == 0


async def test_creating_a_match_twice_creates_one_game_with_the_same_tokens(
    store: RedisStore,
) -> None:
    clock, who = Clock(), tenant()
    lobby = Lobby(store, clock, consumer="one")
    rooms = LobbyStore(store)
    a, b = treeline("a", 25.0), treeline("b", 25.0)
    await lobby.enter(who, a)
    entered = await rooms.enter(
        who, b.pool, b.pool_json, "b", 25.0, 2, int(clock.now * 1000), WINDOW, 64,
        "twice", "one",
    )  # fmt: skip
    assert entered.made is not None
    first = await lobby.finish(who, entered.made)
    again = await Lobby(store, clock, consumer="two").finish(who, entered.made)
    assert first == again
    assert (await lobby.status(who, "b")).seat_token in first.tokens


async def test_enters_and_sweeps_racing_on_two_replicas_match_each_player_once(
    store: RedisStore,
) -> None:
    clock, who = Clock(), tenant()
    replicas = [Lobby(store, clock, consumer="one"), Lobby(store, clock, consumer="two")]
    # every script loaded first: a cold script met by a burst of calls on a cluster is a
    # NOSCRIPT and a SCRIPT LOAD each (Commands.script), which this test is not about
    for lobby in replicas:
        await lobby.enter(who, treeline(f"warm-{lobby.consumer}", -100.0))
        await lobby.sweep(who)
    early = [(f"early{i}", 25.0 + 3 * i) for i in range(60)]  # 3 apart: none fit at once
    await asyncio.gather(
        *(replicas[i % 2].enter(who, treeline(p, r, players=3)) for i, (p, r) in enumerate(early))
    )
    clock.now += 100  # the early windows at their cap now: the sweeps find groups
    late = [(f"late{i}", 26.0 + 6 * i) for i in range(20)]  # each 1 from an early one
    made = await asyncio.gather(
        *(replicas[i % 2].sweep(who) for i in range(6)),
        *(replicas[i % 2].enter(who, treeline(p, r, players=3)) for i, (p, r) in enumerate(late)),
    )
    assert sum(made[:6]) > 0  # type: ignore[arg-type]  # the sweeps made matches too
    matched: dict[str, str] = {}
    for player, _ in early + late:
        status = await replicas[0].status(who, player)
        assert status.state in ("WAITING", "MATCHED"), status
        if status.game_id is not None:
            matched[player] = status.game_id
    seated: list[str] = []
    for game_id in set(matched.values()):
        record, _ = await store.load(game_id)
        assert record is not None and len(set(record.player_ids)) == 3
        seated += [p or "" for p in record.player_ids]
    assert sorted(seated) == sorted(matched)  # no one in two games
    assert any(player.startswith("late") for player in matched)  # the enters made some too
