"""Turn clocks (issue 19): the deadline in every view, lazy enforcement on a read, the worker
sweep with no client connected, and a timeout racing a last-second move (exactly one wins)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any

import httpx
import msgspec
import pytest

from service.core import Applied, GameService
from service.core.decisions import enforce_clock, timeout_step
from service.engine.play import decode_state
from service.games import games
from service.refusals import Refused
from service.settings import Settings
from service.store import RedisStore, connect
from service.store.embedded import EmbeddedRedis
from tests.support.play import create_game
from tests.support.tenants import ACME, post, tenants_app
from tests.support.waiting import until
from tests.support.workers import WorkerProcess

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


async def test_a_read_after_the_deadline_applies_the_timeout_itself() -> None:
    """No worker on this Redis: only the read can apply it."""
    server = EmbeddedRedis().start()
    try:
        async with tenants_app(server.url) as http:
            game = (
                await create_game(http, document=CREATE, key=ACME, clock=clock(0.05, "AUTO_GREEDY"))
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
            payload = await create_game(
                http, document=CREATE, key=ACME, clock=clock(0.05, "FORFEIT")
            )
            forfeit, tokens = payload["game"], [s["token"] for s in payload["seats"]]
            deadline = datetime.fromisoformat(forfeit["clock"]["deadline"]).timestamp()
            while time.time() <= deadline:  # the wall clock passing it is the event
                await asyncio.sleep(0.01)
            late = await post(http, APPLY, {"id": forfeit["id"], "move": {"type": "any"}},
                              token=tokens[forfeit["toAct"][0]])  # fmt: skip
            assert late["data"]["applyMove"]["code"] == "GAME_OVER"
            over = (await post(http, READ, {"id": forfeit["id"]}))["data"]["game"]
            assert over["outcome"] == {"reason": "TIMEOUT", "seat": forfeit["toAct"][0]}
    finally:
        server.cleanup()


@pytest.mark.xdist_group("bot_worker")
async def test_a_clock_runs_out_with_no_client_connected(
    http: httpx.AsyncClient, store: RedisStore, bot_worker: WorkerProcess
) -> None:
    game = (await create_game(http, document=CREATE, key=ACME, clock=clock(0.3, "FORFEIT")))["game"]
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
    await bot_worker.until_logged(f"clock of {game['id']} swept")  # logged after the commit


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
            return await enforce_clock(store, game_id, loaded, late)

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
