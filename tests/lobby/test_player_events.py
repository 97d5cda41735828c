"""`playerEvents` over graphql-transport-ws against real service processes: a player
subscribed on one replica is told of the match made when its rival enters on the other."""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets
from websockets.typing import Subprotocol

from tests.support.processes import service_processes

pytestmark = pytest.mark.slow  # two service processes

SUBSCRIBE = """subscription P($p: String!) {
  playerEvents(playerId: $p) { playerId state gameId seat seatToken }
}"""
WAIT = 30.0


@pytest.fixture(scope="module")
def replicas(redis_url: str) -> Iterator[list[str]]:
    with service_processes(redis_url, 2) as urls:
        yield urls


async def _next(socket: Any) -> dict[str, Any]:
    async with asyncio.timeout(WAIT):
        message = json.loads(await socket.recv())
    assert message["type"] == "next", message
    assert "errors" not in message["payload"], message
    event: dict[str, Any] = message["payload"]["data"]["playerEvents"]
    return event


async def test_a_player_subscribed_on_one_replica_is_told_its_match_made_on_another(
    replicas: list[str],
) -> None:
    a, b = replicas
    who, rival = f"p-{secrets.token_hex(4)}", f"p-{secrets.token_hex(4)}"
    rating = 40_000.0 + secrets.randbelow(10_000)  # a rating range of this test's own
    async with (
        websockets.connect(
            a.replace("http", "ws") + "/graphql",
            subprotocols=[Subprotocol("graphql-transport-ws")],
        ) as socket,
        httpx.AsyncClient(base_url=b, timeout=WAIT) as http,
    ):
        await socket.send(json.dumps({"type": "connection_init", "payload": {}}))
        assert json.loads(await socket.recv())["type"] == "connection_ack"
        await socket.send(
            json.dumps({"id": "1", "type": "subscribe",
                        "payload": {"query": SUBSCRIBE, "variables": {"p": who}}})
        )  # fmt: skip
        assert (await _next(socket))["state"] == "NONE"
        seek = {"kind": "TREELINGS", "players": 2, "rating": rating}
        waiting = await http.post("/v1/matchmaking", json={**seek, "playerId": who})
        assert waiting.json()["state"] == "WAITING", waiting.text
        matched = (await http.post("/v1/matchmaking", json={**seek, "playerId": rival})).json()
        assert matched["state"] == "MATCHED", matched
        told = await _next(socket)
        assert told["state"] == "MATCHED" and told["gameId"] == matched["gameId"]
        assert told["seat"] == 1 - matched["seat"] and told["seatToken"] != matched["seatToken"]
        game = await http.get(
            f"/v1/games/{told['gameId']}", headers={"authorization": f"Bearer {told['seatToken']}"}
        )
        assert game.status_code == 200 and game.json()["viewer"] == told["seat"], game.text
