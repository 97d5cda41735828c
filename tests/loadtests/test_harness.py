"""The performance harness (loadtests/) measures what it claims: the floor does one real
commit per move, engine scripts replay move by move on the service, the benchmark drives
every target without an error, the profile attributes samples, and the Locust scenario plays
games to the end."""

from __future__ import annotations

import csv
import importlib.util
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from loadtests.floor import create_floor
from loadtests.memory import measure_game
from loadtests.profiling import analyse
from loadtests.scripts import play_random, record_of
from loadtests.servers import stack
from loadtests.soak import Played, modelled_bytes
from service.core import GameService
from service.games import games
from service.settings import Settings
from service.store import RedisStore, connect
from service.store.records import record_encoder
from tests.conftest import Api

ROOT = Path(__file__).resolve().parents[2]


async def test_floor_commits_one_version_per_move_and_replays_a_repeated_key(
    redis_url: str,
) -> None:
    script, state, version = play_random("TREELINGS", 3, "floor-test", random.Random(1), 5)
    record = record_of("TREELINGS", 3, "floor-test", state, version)
    store = RedisStore(connect(Settings(), redis_url), Settings())
    await store.create("floor-test-game", record, [])
    app = create_floor(Settings(), redis_url)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://floor") as http:
        body = {"move": script.decisions[0].move}
        first = await http.post(
            "/floor/games/floor-test-game/moves", json=body, headers={"idempotency-key": "a"}
        )
        second = await http.post(
            "/floor/games/floor-test-game/moves", json=body, headers={"idempotency-key": "b"}
        )
        again = await http.post(
            "/floor/games/floor-test-game/moves", json=body, headers={"idempotency-key": "b"}
        )
        missing = await http.post("/floor/games/nope/moves", json=body)
    assert (first.json(), second.json(), again.json()) == (
        {"version": version + 1},
        {"version": version + 2},
        {"version": version + 2},
    )
    assert missing.status_code == 404
    stored, _ = await store.load("floor-test-game")
    assert stored is not None and stored.version == version + 2
    assert len(record_encoder.encode(stored)) == len(record_encoder.encode(record))
    assert len(await store.history("floor-test-game")) == 2
    await store.close()


@pytest.mark.parametrize("kind", sorted(games()))
async def test_an_engine_script_is_accepted_by_the_service_move_by_move(
    api: Api, kind: str
) -> None:
    seed = f"script-{kind}"
    script, _, final_version = play_random(kind, 2, seed, random.Random(seed), stop_at=25)
    created = await api.http.post("/v1/games", json={"kind": kind, "players": 2, "seed": seed})
    assert created.status_code == 201, created.text
    game_id = created.json()["game"]["id"]
    tokens = [seat["token"] for seat in created.json()["seats"]]
    answer = created
    for decision in script.decisions:
        answer = await api.http.post(
            f"/v1/games/{game_id}/moves",
            json={"move": decision.move},
            headers={
                "authorization": f"Bearer {tokens[decision.seat]}",
                "if-match": f'"{decision.version}"',
            },
        )
        assert answer.status_code == 200, answer.text
    assert answer.json()["game"]["version"] == final_version


def test_the_benchmark_drives_every_target_without_an_error(tmp_path: Path) -> None:
    plot = importlib.util.find_spec("matplotlib") is not None
    command = [
        sys.executable, "-m", "loadtests.bench", "--clients", "4", "--seconds", "1.5",
        "--warmup", "1", "--initial-moves", "300", "--engine-seconds", "0.05",
        "--memory-games", "1", "--servers", "uvicorn", "--out", str(tmp_path), *([] if plot else ["--no-plot"]),
    ]  # fmt: skip
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=360)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    results = json.loads((tmp_path / "results.json").read_text())
    targets = results["targets"]
    assert set(targets) == {
        "noop", "floor", "graphql-apply", "graphql-apply-lean", "rest-apply",
        "rest-apply-minimal", "graphql-read", "graphql-read-typed", "graphql-read-gzip",
        "graphql-read-br", "rest-read",
    }  # fmt: skip
    for key, row in targets.items():
        for name in ("peak", "half"):
            assert row[name]["errors"] == 0, (key, name, row[name]["first_error"])
            assert row[name]["requests"] > 0, (key, name)
        assert row["peak"]["server_cpu_ms"] > 0
        assert row["ratio_to_floor"] > 0
    assert targets["floor"]["ratio_to_floor"] == 1.0
    replica = results["replica_ack"]  # applyMove on a master + replica, without and with ack
    assert set(replica) == {"0", "1"}
    for row in replica.values():
        assert row["peak"]["errors"] == row["half"]["errors"] == 0, row["peak"]["first_error"]
        assert row["peak"]["requests"] > 0 and row["ratio_to_without"] > 0
    assert "RULES_REPLICA_ACK=1" in done.stdout
    # the run reaches its end: the memory table (once a crash that wrote no results.json)
    assert set(results["memory"]) == set(games()) and "after grace B" in done.stdout
    assert "compact B" in done.stdout
    assert set(results["engine"]) == set(games())
    sizes = results["compression"]
    assert set(sizes) == set(games())
    for kind, sent in sizes.items():  # a view under 1 KiB is sent as it is
        assert sent["identity"] >= sent["gzip"] > 0 and sent["identity"] >= sent["br"] > 0, kind
    largest = max(sizes.values(), key=lambda sent: sent["identity"])
    assert largest["br"] < largest["identity"] / 2
    assert (tmp_path / "latency.png").exists() == plot


def test_profile_analysis_shares_busy_samples_by_area_and_function() -> None:
    collapsed = "\n".join(
        [
            f"<module> (uvicorn/__main__.py:4);GameService.apply ({ROOT}/service/core/service.py:9);"
            f"play ({ROOT}/service/engine/play.py:3);apply (/x/service/games/avenue/rules.py:7) 30",
            "<module> (uvicorn/__main__.py:4);validate (/v/site-packages/graphql/validation/validate.py:1) 70",
        ]
    )
    analysis = analyse(collapsed)
    assert analysis["samples"] == 100
    assert dict(analysis["areas"]) == {
        "graphql-core validation": 70.0,
        "rules (service/games)": 30.0,
    }
    inclusive = dict(analysis["inclusive"])
    assert inclusive["play (service/engine/play.py)"] == 30.0
    assert inclusive["<module> (uvicorn/__main__.py)"] == 100.0


def test_locust_players_create_games_and_play_them_to_the_end(tmp_path: Path) -> None:
    if importlib.util.find_spec("locust") is None:  # importing it here would monkeypatch
        pytest.skip("locust is in the `load` extra: `make bench` installs it")
    with stack(with_floor=False) as servers:
        env = {**os.environ, "RULES_LOAD_KINDS": "TREELINGS", "RULES_LOAD_THINK": "0,0"}
        command = [
            sys.executable, "-m", "locust", "-f", "loadtests/locustfile.py",
            "--host", servers.service.url, "--headless", "-u", "4", "-r", "4", "-t", "12s",
            "--csv", str(tmp_path / "locust"), "--only-summary",
        ]  # fmt: skip
        done = subprocess.run(
            command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
        )
    assert done.returncode == 0, done.stderr[-2000:]
    with open(tmp_path / "locust_stats.csv") as stats:
        rows = {row["Name"]: row for row in csv.DictReader(stats)}
    for name in ("createGame", "game (read)", "applyMove", "game (final)"):
        assert int(rows[name]["Request Count"]) > 0, name
    assert int(rows["Aggregated"]["Failure Count"]) == 0


async def test_memory_measure_counts_every_key_of_a_game(redis_url: str) -> None:
    settings = Settings()
    store = RedisStore(connect(settings, redis_url), settings)
    row = await measure_game(GameService(store), "TREELINGS", 2, "memory-test")
    await store.close()
    assert row["finished_keys"]["history"] == 0, "folded into the record"
    assert row["finished_keys"]["idempotency"] > 0, "kept for the grace"
    assert 0 < row["finished_bytes_after_grace"] <= 4096
    assert row["active_bytes_before_last_move"] > row["finished_bytes_after_grace"]
    assert row["bytes_per_decision"] > 0
    assert 0 < row["compact_bytes"] < row["finished_bytes_after_grace"] < row["record_json_bytes"]
    assert row["compact_header_bytes"] < row["compact_bytes"]


def test_the_soak_model_counts_finished_games_without_their_keys_after_the_grace() -> None:
    sizes = {
        "TREELINGS": {
            "decisions": 11,
            "bytes_per_decision": 100.0,
            "active_bytes_before_last_move": 2000,
            "finished_bytes": 3000,
            "finished_bytes_after_grace": 900,
        }
    }
    played = Played(active={"a": ("TREELINGS", 4)}, finished=[("TREELINGS", 0.0)])
    start = 2000 - 100 * 10
    assert modelled_bytes(played, sizes, grace=60, now=10) == start + 400 + 3000
    assert modelled_bytes(played, sizes, grace=60, now=100) == start + 400 + 900


@pytest.mark.slow
def test_the_soak_plays_every_kind_and_watches_memory(tmp_path: Path) -> None:
    command = [
        sys.executable, "-m", "loadtests.soak", "--seconds", "8", "--clients", "2",
        "--interval", "2", "--json", str(tmp_path / "soak.json"),
    ]  # fmt: skip
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    result = json.loads((tmp_path / "soak.json").read_text())
    assert result["moves"] > 0 and result["errors"] == 0
    assert result["service_leaks"] is False
    assert set(result["sizes"]) == set(games())
