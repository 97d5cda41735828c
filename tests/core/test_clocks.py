"""Turn clocks: the deadline in every view, lazy enforcement on a read, the worker
sweep with no client connected, and a timeout racing a last-second move (exactly one wins).
Their cost is bounded: minimums, a few timeouts per read, one per game per sweep."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any

import httpx
import msgspec
import pytest

from service.core import Applied, GameService
from service.core.game import clocks
from service.core.game.creation import new_game
from service.core.moves.decisions import (
    LAZY_TIMEOUTS,
    advance,
    enforce_clock,
    history_entries,
    timeout_step,
)
from service.engine import play as engine_play
from service.engine.play import decode_state
from service.games import games
from service.refusals import Refused
from service.settings import Settings
from service.store import RedisStore, connect, indexes
from service.store.embedded import EmbeddedRedis
from service.store.jobs import LANES, lane_of, new_game_id
from service.worker import CLOCK_BATCH, Worker
from tests.conftest import own_redis
from tests.support.play import create_game
from tests.support.tenants import ACME, KEYS, post, tenants_app
from tests.support.waiting import until
from tests.support.workers import worker_process

CREATE = """
mutation Create($input: CreateGameInput!) {
  createGame(input: $input) {
    game { id version toAct clock { seat deadline perDecisionSeconds onTimeout remainingSeconds } }
    seats { seat token }
  }
}"""
APPLY = """
mutation Apply($id: ID!, $move: JSON!) {
  applyMove(input: {gameId: $id, move: $move}) { __typename ... on MoveRejected { code } }
}"""
READ = """
query Read($id: ID!) {
  game(id: $id) {
    version status toAct clock { seat deadline } outcome { reason seat }
    history { version seat move label event }
  }
}"""


@pytest.fixture
async def store(redis_url: str) -> AsyncIterator[RedisStore]:
    store = RedisStore(connect(Settings(), redis_url), Settings())
    yield store
    await store.close()


def clock(seconds: float, on_timeout: str = "AUTO_RANDOM", total: bool = False) -> dict[str, Any]:
    limit = "perSeatTotalSeconds" if total else "perDecisionSeconds"
    return {limit: seconds, "onTimeout": on_timeout}


async def test_the_deadline_is_in_every_view_and_moves_on_with_each_decision(
    http: httpx.AsyncClient,
) -> None:
    payload = await create_game(http, document=CREATE, key=ACME, clock=clock(3600, "FORFEIT"))
    game = payload["game"]
    assert game["clock"]["seat"] == game["toAct"][0] and game["clock"]["deadline"]
    assert game["clock"]["perDecisionSeconds"] == 3600 and game["clock"]["onTimeout"] == "FORFEIT"
    rest = (await http.get(f"/v1/games/{game['id']}")).json()["clock"]
    assert rest["seat"] == game["toAct"][0] and rest["deadline"] > 0
    banked = await create_game(
        http, document=CREATE, key=ACME, clock={**clock(600, total=True), "incrementSeconds": 5}
    )
    assert banked["game"]["clock"]["remainingSeconds"] == [600.0, 600.0]


@pytest.mark.parametrize(
    "bad",
    [
        {},
        {"perDecisionSeconds": 10, "perSeatTotalSeconds": 10},
        {"perDecisionSeconds": 0},
        {"perDecisionSeconds": -1},
        {"perDecisionSeconds": 1e12},
        {"perDecisionSeconds": 1e-9, "onTimeout": "AUTO_GREEDY"},
        {"perDecisionSeconds": 0.5},
        {"perSeatTotalSeconds": 9},
    ],
)
async def test_a_bad_clock_is_a_typed_refusal(http: httpx.AsyncClient, bad: dict[str, Any]) -> None:
    variables = {"input": {"kind": "TREELINGS", "players": 2, "clock": bad}}
    body = await post(http, CREATE, variables, ACME)
    assert body["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"
    response = await http.post(
        "/v1/games",
        json={"kind": "TREELINGS", "players": 2, "clock": bad},
        headers={"x-api-key": ACME},
    )
    assert response.status_code == 422 and response.json()["code"] == "BAD_USER_INPUT"


@pytest.mark.parametrize(
    ("bad", "least", "minimum"),
    [
        ({"perDecisionSeconds": 1e-9}, {"perDecisionSeconds": 1}, "at least 1 second"),
        ({"perSeatTotalSeconds": 9.99}, {"perSeatTotalSeconds": 10}, "at least 10 seconds"),
    ],
)
async def test_a_clock_below_its_minimum_is_refused_naming_the_minimum(
    http: httpx.AsyncClient, bad: dict[str, Any], least: dict[str, Any], minimum: str
) -> None:
    """Each timeout costs a commit and maybe a bot decision: a clock of nanoseconds would buy
    one tenant the workers' time. The minimum itself is a clock."""
    variables = {"input": {"kind": "TREETOPIA", "players": 4, "clock": bad}}
    assert minimum in (await post(http, CREATE, variables, ACME))["errors"][0]["message"]
    response = await http.post(
        "/v1/games",
        json={"kind": "TREETOPIA", "players": 4, "clock": bad},
        headers={"x-api-key": ACME},
    )
    assert response.status_code == 422 and minimum in response.json()["detail"]
    least = {**least, "onTimeout": "FORFEIT"}
    assert (await create_game(http, document=CREATE, key=ACME, clock=least))["game"]["clock"]


@pytest.mark.parametrize("takebacks", ["NONE", "OWN_DECISIONS"])
def test_a_decision_clock_keeps_the_time_left_of_few_versions_and_only_for_takebacks(
    takebacks: str,
) -> None:
    """Under perDecisionSeconds each decision's commit keeps what the seat on the clock had left
    of the decision it moved on from (clocks.charged), for a takeback back to it: in games with
    takebacks only, and for the latest BANKS_KEPT versions."""
    record, _, _ = new_game("acme", "TREELINGS", 2, "kept", None, {}, [], clock(10, "FORFEIT"))
    record = msgspec.structs.replace(record, takebacks=takebacks)
    game, at = games()["TREELINGS"], record.updated
    for n in range(clocks.BANKS_KEPT + 4):
        state = decode_state(game, record.state)
        seat = game.to_act(state)[0]
        move = msgspec.to_builtins(game.legal_moves(state, seat)[0])
        before, at = record, at + 1
        record = advance(record, game, engine_play(game, state, seat, move), at)[0]
        if takebacks == "NONE":
            assert record.banks == []
            continue
        kept = record.banks[-1]
        assert kept.version == before.version, n
        assert kept.remaining[seat] == pytest.approx(9.0, abs=1e-6), n
    assert len(record.banks) == (0 if takebacks == "NONE" else clocks.BANKS_KEPT)


async def test_a_read_after_the_deadline_applies_the_timeout_itself() -> None:
    """No worker on this Redis: only the read can apply it."""
    server = EmbeddedRedis().start()
    try:
        async with tenants_app(server.url) as http:
            game = (
                await create_game(http, document=CREATE, key=ACME, clock=clock(1, "AUTO_GREEDY"))
            )["game"]
            seat = game["toAct"][0]

            async def applied() -> Any:  # each read checks the deadline
                seen = (await post(http, READ, {"id": game["id"]}))["data"]["game"]
                return seen if seen["version"] > game["version"] else None

            seen = await until(applied, "a read to apply the timeout")
            timed_out = seen["history"][game["version"]]
            assert timed_out["event"] == "TIMEOUT" and timed_out["seat"] == seat
            assert timed_out["label"].startswith("timeout: ") and timed_out["move"] is not None
            assert seen["status"] == "ACTIVE"
            # a move that comes after the deadline: the timeout first, then the move is judged
            payload = await create_game(http, document=CREATE, key=ACME, clock=clock(1, "FORFEIT"))
            forfeit, tokens = payload["game"], [s["token"] for s in payload["seats"]]
            deadline = datetime.fromisoformat(forfeit["clock"]["deadline"]).timestamp()
            await until(lambda: time.time() > deadline, "the wall clock to pass the deadline")
            late = await post(http, APPLY, {"id": forfeit["id"], "move": {"type": "any"}},
                              token=tokens[forfeit["toAct"][0]])  # fmt: skip
            assert late["data"]["applyMove"]["code"] == "GAME_OVER"
            over = (await post(http, READ, {"id": forfeit["id"]}))["data"]["game"]
            assert over["outcome"] == {"reason": "TIMEOUT", "seat": forfeit["toAct"][0]}
    finally:
        server.cleanup()


async def test_a_clock_runs_out_with_no_client_connected(
    http: httpx.AsyncClient, store: RedisStore, redis_url: str
) -> None:
    """A worker that knows the tenants (RULES_API_KEYS, as the API) sweeps their clocks."""
    with worker_process(redis_url, RULES_API_KEYS=",".join(KEYS)) as worker:
        game = (await create_game(http, document=CREATE, key=ACME, clock=clock(1, "FORFEIT")))[
            "game"
        ]
        async with store.events(game["id"]) as events:
            while True:  # the worker's commit publishes the end; nobody reads the game meanwhile
                event = json.loads(await asyncio.wait_for(events.next(), 60))
                if event["status"] != "ACTIVE":
                    break
        assert event["status"] == "FINISHED"
        seen = (await post(http, READ, {"id": game["id"]}))["data"]["game"]
        seat = game["toAct"][0]
        assert seen["outcome"] == {"reason": "TIMEOUT", "seat": seat}
        assert seen["history"][-1]["event"] == "TIMEOUT" and seen["clock"]["deadline"] is None
        await worker.until_logged(f"clock of {game['id']} swept")  # logged after the commit


async def test_a_timeout_racing_a_last_second_move_lets_exactly_one_win(
    http: httpx.AsyncClient, store: RedisStore
) -> None:
    service, winners = GameService(store), set()
    for round_ in range(10):
        payload = await create_game(http, document=CREATE, key=ACME, clock=clock(3600, "FORFEIT"))
        game_id, tokens = payload["game"]["id"], [s["token"] for s in payload["seats"]]
        record, _ = await store.load(game_id)
        assert record is not None and record.deadline is not None
        seat = record.acting[0]
        rules = games()[record.kind]
        move = rules.legal_moves(decode_state(rules, record.state), seat)[0]
        late = record.deadline  # the sweeper says time is up; a move now sets a later one

        async def sweeper(game_id: str = game_id, late: float = late) -> Any:
            loaded, _ = await store.load(game_id)  # as the worker: load, then commit
            assert loaded is not None
            return await enforce_clock(store, game_id, loaded, late, limit=1)

        racers = [
            service.apply(game_id, tokens[seat], msgspec.to_builtins(move), record.version, None),
            sweeper(),
        ]
        if round_ % 2:
            racers.reverse()
        results = await asyncio.gather(*racers, return_exceptions=True)
        applied = next(r for r in results if isinstance(r, Applied | Refused))
        after, _ = await store.load(game_id)
        assert after is not None
        entries = await store.history(game_id, record.version)
        if isinstance(applied, Applied):  # the move won: the timeout found a fresh deadline
            assert after.outcome is None and entries[0].event == "" and after.deadline
        else:  # the timeout won: the move was refused as stale, nothing of it applied
            assert applied.code.value == "STALE_VERSION"
            assert after.outcome is not None and after.outcome.reason == "TIMEOUT"
            assert [e.event for e in entries] == ["TIMEOUT"]
        assert after.version == record.version + len(entries)
        winners.add("move" if isinstance(applied, Applied) else "timeout")
    print(f"winners seen: {sorted(winners)}")


async def test_an_auto_timeout_is_the_same_move_whoever_applies_it(
    http: httpx.AsyncClient, store: RedisStore
) -> None:
    """Workers and readers derive the timeout's move from the seed and version alone."""
    game_id = (
        await create_game(http, document=CREATE, key=ACME, clock=clock(3600, "AUTO_GREEDY"))
    )["game"]["id"]
    record, _ = await store.load(game_id)
    assert record is not None and record.deadline is not None
    rules = games()[record.kind]
    first = timeout_step(record, rules, record.deadline)
    second = timeout_step(record, rules, record.deadline + 5)
    assert [e.move for e in first[1]] == [e.move for e in second[1]]
    assert first[1][0].event == "TIMEOUT" and first[0].outcome is None


async def _far_behind(
    store: RedisStore, lane: int | None = None, late: float = 0.0, tenant: str = "acme"
) -> str:
    """A 4-player Treetopia game (in `lane` if given) whose every bank is empty, as a long game's
    may be, due since `late` seconds: each of its decisions times out at once, so a clock
    cannot be further behind. Stored as created, with its deadline in its tenant's clocks."""
    record, played, _ = new_game(
        tenant, "TREETOPIA", 4, None, None, {}, [], clock(10, "AUTO_GREEDY", total=True)
    )
    record = msgspec.structs.replace(record, remaining=[0.0] * 4, deadline=record.updated - late)
    game_id = new_game_id()
    while lane is not None and lane_of(game_id) != lane:
        game_id = new_game_id()
    assert await store.create(game_id, record, history_entries(0, played.steps))
    return game_id


async def _timeouts(store: RedisStore, game_id: str) -> int:
    return [entry.event for entry in await store.history(game_id)].count("TIMEOUT")


async def test_a_read_of_a_game_far_behind_applies_a_bounded_few_timeouts() -> None:
    """No worker on this Redis. An anonymous read pays for LAZY_TIMEOUTS bot decisions at
    most (it once paid for 64); the game answered is still due: the sweep goes on."""
    with own_redis() as url:
        store = RedisStore(connect(Settings(), url), Settings())
        try:
            game_id = await _far_behind(store)
            async with tenants_app(url) as http:
                response = await http.get(f"/v1/games/{game_id}")
                assert response.status_code == 200
                assert await _timeouts(store, game_id) == LAZY_TIMEOUTS
                await http.get(f"/v1/games/{game_id}")
            assert await _timeouts(store, game_id) == 2 * LAZY_TIMEOUTS
            record, _ = await store.load(game_id)
            assert record is not None and clocks.due(record, time.time())
        finally:
            await store.close()


async def test_a_sweep_applies_one_timeout_per_game_earliest_deadline_first(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Two games far behind, the one due earlier in the last lane: one pass of a worker's
    clock sweep times each out once, that one first, and leaves each in its lane with its next
    deadline (due again at once: the next pass's)."""
    with own_redis() as url:
        store = RedisStore(connect(Settings(), url), Settings())
        worker = Worker(Settings(api_keys=KEYS), url, "sweeper")
        try:
            later = await _far_behind(store, lane=0, late=1)
            earlier = await _far_behind(store, lane=LANES - 1, late=100)
            with caplog.at_level(logging.INFO, "service.worker"):
                await worker._clocks()  # one pass
            swept = [r.args[0] for r in caplog.records if r.msg == "clock of %s swept at v%d"]
            assert swept == [earlier, later]
            for game_id in swept:
                assert await _timeouts(store, game_id) == 1
                record, _ = await store.load(game_id)
                assert record is not None and record.deadline is not None
                lane = indexes.clock_key(lane_of(game_id), "acme")
                assert await store.redis.zscore(lane, game_id) == record.deadline
                assert clocks.due(record, time.time())
        finally:
            await worker.store.close()
            await store.close()


async def test_a_sweep_serves_the_tenants_clocks_in_turn(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """acme has more games due long ago in globex's game's lane than a pass claims there;
    globex's clock ran out just now. One pass times out globex's game, among the first
    (unfair clocks once made it wait behind every one of acme's)."""
    with own_redis() as url:
        store = RedisStore(connect(Settings(), url), Settings())
        worker = Worker(Settings(api_keys=KEYS), url, "sweeper")
        try:
            backlog = [
                await _far_behind(store, lane=5, late=100 + n) for n in range(2 * CLOCK_BATCH)
            ]
            other = await _far_behind(store, lane=5, tenant="globex")
            with caplog.at_level(logging.INFO, "service.worker"):
                await worker._clocks()  # one pass
            swept = [r.args[0] for r in caplog.records if r.msg == "clock of %s swept at v%d"]
            assert other in swept[:2], swept
            assert len(swept) == CLOCK_BATCH + 1 and set(swept) - {other} <= set(backlog)
            assert await _timeouts(store, other) == 1
        finally:
            await worker.store.close()
            await store.close()


async def test_a_sweep_still_claims_the_clocks_earlier_releases_wrote() -> None:
    """A deadline in the lane's own set (where releases before the tenants' sets wrote it) is
    swept, and the timeout's commit moves the game to its tenant's set."""
    with own_redis() as url:
        store = RedisStore(connect(Settings(), url), Settings())
        worker = Worker(Settings(api_keys=KEYS), url, "sweeper")
        try:
            game_id = await _far_behind(store, lane=2)
            ours, legacy = indexes.clock_key(2, "acme"), indexes.clock_key(2, "")
            deadline = await store.redis.zscore(ours, game_id)
            await store.redis.zrem(ours, game_id)
            await store.redis.zadd(legacy, {game_id: deadline})  # as an earlier release wrote it
            await worker._clocks()  # one pass
            assert await _timeouts(store, game_id) == 1
            record, _ = await store.load(game_id)
            assert record is not None
            assert await store.redis.zscore(ours, game_id) == record.deadline
            assert await store.redis.zscore(legacy, game_id) is None
        finally:
            await worker.store.close()
            await store.close()
