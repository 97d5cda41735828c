"""`make topology` starts the production shape and leaves nothing behind; the short
chaos run (every kind of fault under mixed traffic through the load balancer) passes its
independent audit with RULES_REPLICA_ACK=1; and the audit itself catches what it must (a lost
acknowledged move, a rolled-back game, a gap, an untyped 5xx)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from loadtests.chaos import chaos, print_report
from loadtests.chaos_audit import Window, audit
from loadtests.chaos_traffic import Answer, Followed, Traffic
from service.app import create_app
from service.settings import Settings
from service.store import connect
from service.store.records import HistoryRecord
from tests.conftest import client_for
from tests.reliability.players import GAME, Audit, Intent, Request, check_answers
from tests.support.waiting import until

ROOT = Path(__file__).resolve().parents[2]
needs_haproxy = pytest.mark.skipif(
    shutil.which("haproxy") is None and os.environ.get("RULES_REQUIRE_ALL_TESTS") != "1",
    reason="needs HAProxy (apt-get install haproxy; .ci/run installs it)",
)


def _descendants(pid: int) -> set[int]:
    found: set[int] = set()
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as children:
                for child in children.read().split():
                    found |= {int(child), *_descendants(int(child))}
    except OSError:
        pass
    return found


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.slow
@needs_haproxy
@pytest.mark.parametrize(
    "stop", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL], ids=lambda s: s.name
)
async def test_make_topology_prints_every_process_and_stops_them_all(stop: signal.Signals) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "loadtests.topology"], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        line = await asyncio.wait_for(asyncio.to_thread(process.stdout.readline), 300)
        assert line.startswith("TOPOLOGY "), line
        shown = json.loads(line.removeprefix("TOPOLOGY "))
        pids = shown["pids"]
        assert (len(pids["api"]), len(pids["worker"]), len(pids["lb"])) == (3, 2, 1)
        roles = sorted(node["role"] for node in shown["redis"])
        assert roles == ["master"] * 3 + ["replica"] * 3
        async with httpx.AsyncClient(base_url=shown["url"], timeout=30) as http:
            assert (await http.get("/readyz")).status_code == 200
            create = "mutation { createGame(input: {kind: TREELINGS, players: 2}) { game { id } seats { token } } }"
            created = await http.post(
                "/graphql", json={"query": create}, headers={"x-api-key": "chaos-secret"}
            )
            game = created.json()["data"]["createGame"]
        ws = shown["url"].replace("http://", "ws://") + "/graphql"
        async with websockets.connect(ws, subprotocols=["graphql-transport-ws"]) as socket:  # type: ignore[list-item]
            token = game["seats"][0]["token"]
            await socket.send(json.dumps({"type": "connection_init",
                                          "payload": {"authorization": f"Bearer {token}"}}))  # fmt: skip
            assert json.loads(await asyncio.wait_for(socket.recv(), 60))["type"] == "connection_ack"
        started = _descendants(process.pid)
        listed = {*pids["api"], *pids["worker"], *pids["lb"], *(n["pid"] for n in shown["redis"])}
        assert listed <= started
        process.send_signal(stop)
        # SIGKILL: no clean-up of its own; the kernel (PR_SET_PDEATHSIG) and the Redis
        # watchdogs stop the rest
        assert await asyncio.to_thread(process.wait, 120) == (
            -stop if stop == signal.SIGKILL else 0
        )
        await until(lambda: not any(_running(pid) for pid in started), "every process gone", 60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


@pytest.mark.slow
@needs_haproxy
async def test_a_short_chaos_run_loses_no_acknowledged_move() -> None:
    report = await chaos(seconds=40, replica_ack=True, roll_all=False)
    print_report(report)
    figures = report.figures
    assert report.passed, (report.lost, report.problems[:20], figures["faults"])
    assert [f["name"] for f in figures["faults"]] == [
        "kill an API replica", "kill a worker", "kill a Redis master",
        "kill a Redis master while its replica lags", "pause a Redis master",
        "rolling restart",
    ]  # fmt: skip
    assert figures["moves_acknowledged"] >= 100, figures
    assert figures["clocks_fired"] >= 3 and figures["webhooks_expected"] >= 3, figures
    assert figures["subscriber_sockets"] >= 3 and figures["resumes_after_version"], figures
    assert figures["unavailable_answers"] >= 1, "the faults were felt"


async def _play(traffic: Traffic, game_id: str, tokens: list[str], moves: int) -> list[Intent]:
    intents = []
    for _ in range(moves):
        _, data = await traffic.players.post(0, "read", GAME, {"id": game_id}, tokens[0])
        assert data is not None
        seat = data["game"]["toAct"][0]
        _, data = await traffic.players.post(0, "read", GAME, {"id": game_id}, tokens[seat])
        assert data is not None
        seen = data["game"]
        move = seen["legalMoves"][0]["move"]
        intent = Intent(
            game_id,
            seat,
            move,
            f"k{len(traffic.players.record.intents)}",
            seen["version"],
            seen["version"],
        )
        traffic.players.record.intents.append(intent)
        assert (await traffic.players.send(intent, 0, tokens[seat])).outcome == "APPLIED"
        intents.append(intent)
    return intents


async def test_the_audit_finds_a_lost_move_a_rollback_a_gap_and_an_untyped_error(
    redis_url: str,
) -> None:
    settings = Settings(api_keys=("chaos:chaos-secret",), rate_limit_per_token=0,
                        rate_limit_per_address=0)  # fmt: skip
    redis = connect(Settings(), redis_url)
    traffic = Traffic("http://rules.test")
    await traffic.players.aclose()
    try:
        async with client_for(create_app(settings, redis_url)) as http:
            traffic.players.http = [http, http]
            game = await traffic.players.create("TREELINGS", 2, "audit-seed")
            assert game is not None
            traffic.human.append(game)
            await _play(traffic, game.id, game.tokens, 2)
            key = f"g:{{{game.id}}}"
            before = await redis.hgetall(key)  # type: ignore[misc]
            (last,) = await _play(traffic, game.id, game.tokens, 1)
        clean = await audit(redis, traffic, [], replica_ack=True)
        assert clean.passed, (clean.lost, clean.problems)

        # A failover that loses the last move: the game as it was before it, and a subscriber
        # that missed a version, and a 502 the load balancer made up outside any fault.
        await redis.hset(key, mapping=before)  # type: ignore[misc]
        await redis.rpop(key + ":h")  # type: ignore[misc]
        await redis.hdel(key + ":i", f"{last.seat}:{last.key}", f"f:{last.seat}:{last.key}")  # type: ignore[misc]
        followed = Followed(game)
        followed.sockets = [[1, 2], [2, 4]]
        traffic.followed.append(followed)
        traffic.players.errors += [
            Answer(3.0, 4.5, 503, "UNAVAILABLE", ""),  # in flight as the fault began
            Answer(50.0, 50.1, 502, "", ""),
            Answer(50.0, 50.1, 200, "UNAVAILABLE", ""),  # outside any fault
            Answer(7.0, 7.1, 200, "UNAVAILABLE", ""),  # just after one: reported apart
        ]
        found = await audit(redis, traffic, [Window("kill", 4.0, 6.0)], replica_ack=True)
    finally:
        await redis.aclose()
    assert found.lost == [f"{last.key}: acknowledged but not in the history"]
    assert any("rolled back" in p for p in found.problems), found.problems
    assert any("gaps across resumed" in p for p in found.problems), found.problems
    assert any("1 gaps in the versions a subscriber socket saw" in p for p in found.problems)
    untyped = [p for p in found.problems if p.startswith("HTTP")]
    assert len(untyped) == 2 and "502" in untyped[0], found.problems
    assert len(found.late) == 1 and found.figures["unavailable_just_after_faults"] == 1


def test_every_answer_is_checked_against_the_history_forced_steps_included() -> None:
    """The answer of a move names the version after the forced steps the server applied
    behind it (a TREELINGS seat left one colour to take: `forced: true`, the other seat's), so
    the entry AT the answer's version may be another seat's forced move; the move is where the
    commit begins, at expectedVersion + 1. A move acknowledged and then replaced by another
    at its version (lost in a failover) is found, replayed answers as well as first ones."""
    yellow, brown = (
        {"type": "takeColour", "colour": "yellow"},
        {"type": "takeColour", "colour": "brown"},
    )
    history = [
        HistoryRecord(1, 0, {"type": "place"}, "a"),
        HistoryRecord(2, 1, yellow, "b"),
        HistoryRecord(3, 0, brown, "c", forced=True),  # the commit of v2 ends at v3
        HistoryRecord(4, 0, {"type": "place"}, "d"),
    ]

    def told(move: Any, seat: int, expected: int, version: int, outcome: str) -> Intent:
        intent = Intent("g", seat, move, "k", expected, expected)
        intent.attempts.append(Request("apply", 0, 0.0, 0.0, outcome, version))
        return intent

    clean = Audit()
    check_answers(clean, told(yellow, 1, 1, 3, "APPLIED"), history)
    check_answers(clean, told(yellow, 1, 1, 3, "REPLAYED"), history)
    check_answers(clean, told({"type": "place"}, 0, 3, 4, "APPLIED"), history)
    assert (clean.answers, clean.problems) == (3, [])

    for wrong in (
        told(brown, 0, 1, 3, "REPLAYED"),  # another move holds that version: lost
        told(yellow, 1, 1, 2, "APPLIED"),  # a version inside the commit's run, not its end
        told(yellow, 1, 0, 3, "APPLIED"),  # not at expectedVersion + 1
        told(yellow, 1, 1, 5, "APPLIED"),  # beyond the game
    ):
        found = Audit()
        check_answers(found, wrong, history)
        assert len(found.problems) == 1, (wrong, found.problems)
