"""`python -m service` (what `make run` runs), as a real process with its own embedded Redis."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect
from websockets.typing import Subprotocol

from service.store.embedded import free_port
from tests.support import gql


@pytest.fixture(scope="module")
def service_url() -> Iterator[str]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    process = subprocess.Popen(
        [sys.executable, "-m", "service"],
        env={**env, "PORT": str(port), "LOG_LEVEL": "warning"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120  # generous: a busy machine starts Python slowly
    while not _answers(url):
        assert process.poll() is None, process.stdout.read() if process.stdout else ""
        assert time.monotonic() < deadline, "the service did not start"
        time.sleep(0.05)
    yield url
    process.send_signal(signal.SIGINT)
    output, _ = process.communicate(timeout=120)
    assert process.returncode == 0, output
    redis_port = int(output.split("redis://127.0.0.1:")[1].split("/")[0])
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", redis_port), timeout=0.5).close()


def _answers(url: str) -> bool:
    try:
        return httpx.get(f"{url}/readyz", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


def _gql(
    url: str, query: str, variables: dict[str, Any], token: str | None = None
) -> dict[str, Any]:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    body = httpx.post(
        f"{url}/graphql", json={"query": query, "variables": variables}, headers=headers
    ).json()
    assert "errors" not in body, body
    data: dict[str, Any] = body["data"]
    return data


@pytest.mark.parametrize("players", [2, 5])
def test_make_run_serves_a_whole_treelings_game(service_url: str, players: int) -> None:
    created = _gql(service_url, gql.CREATE, {"input": {"kind": "TREELINGS", "players": players}})[
        "createGame"
    ]
    game, tokens = created["game"], [s["token"] for s in created["seats"]]
    chooser = random.Random(players)
    while game["status"] == "ACTIVE":
        seat = game["toAct"][0]
        seen = _gql(service_url, gql.GAME, {"id": game["id"]}, tokens[seat])["game"]
        move = chooser.choice(seen["legalMoves"])["move"]
        result = _gql(
            service_url,
            gql.APPLY,
            {"input": {"gameId": game["id"], "move": move, "expectedVersion": seen["version"]}},
            tokens[seat],
        )["applyMove"]
        assert result["__typename"] == "MoveApplied", result
        game = result["game"]
    assert game["scores"]["final"] and game["scores"]["winners"]


def test_make_run_serves_metrics_and_health(service_url: str) -> None:
    metrics = httpx.get(f"{service_url}/metrics")
    assert metrics.status_code == 200 and "rules_requests_in_flight" in metrics.text
    assert httpx.get(f"{service_url}/healthz").status_code == 200


def test_make_run_starts_a_bot_worker_that_plays_bot_seats(service_url: str) -> None:
    created = httpx.post(
        f"{service_url}/v1/games",
        json={"kind": "TREELINGS", "players": 2, "bots": [{"seat": 0, "strategy": "GREEDY"}]},
    ).json()
    deadline = time.monotonic() + 60
    while httpx.get(f"{service_url}/v1/games/{created['game']['id']}").json()["toAct"] != [1]:
        assert time.monotonic() < deadline, "no worker played the bot's turn"
        time.sleep(0.05)


def test_make_run_reads_no_websocket_message_over_a_mebibyte(service_url: str) -> None:
    """uvicorn would buffer 16 MiB per message before the app's 4400 for one over a body's
    size: the server refuses past 1 MiB itself (close 1009, message too big)."""
    ws = service_url.replace("http", "ws") + "/graphql"
    with connect(ws, subprotocols=[Subprotocol("graphql-transport-ws")]) as socket_:
        socket_.send("x" * (2 << 20))
        with pytest.raises(ConnectionClosed) as closed:
            socket_.recv(timeout=60)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
