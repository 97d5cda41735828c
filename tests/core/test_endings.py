"""Resign and abandon: typed refusals, history entries, events, metrics, indexes."""

from __future__ import annotations

import secrets
from typing import Any

import httpx

from service import metrics
from service.settings import Settings
from service.store import RedisStore, connect
from tests.support.gql import ABANDON, RESIGN
from tests.support.play import create_game
from tests.support.tenants import ACME, CREATE, GLOBEX, LIST, post

HISTORY = """
query History($id: ID!) {
  game(id: $id) { status toAct history { version seat move label event } }
}"""


def _ended(reason: str) -> float:
    return metrics.GAMES_ENDED.labels("TREELINGS", reason)._value.get()


async def _game(http: httpx.AsyncClient, player: str) -> tuple[str, list[str]]:
    payload = await create_game(http, document=CREATE, key=ACME, playerIds=[player, None])
    return payload["game"]["id"], [s["token"] for s in payload["seats"]]


async def _listed(http: httpx.AsyncClient, **filter: Any) -> list[str]:
    body = await post(http, LIST, {"filter": filter}, ACME)
    return [edge["node"]["id"] for edge in body["data"]["games"]["edges"]]


async def test_a_seat_resigns_once_and_the_game_is_over_everywhere(
    http: httpx.AsyncClient,
) -> None:
    player = f"p-{secrets.token_hex(4)}"
    game_id, tokens = await _game(http, player)
    before = _ended("RESIGNED")
    stale = await post(http, RESIGN, {"id": game_id, "v": 99}, token=tokens[1])
    assert stale["data"]["resign"]["code"] == "STALE_VERSION"
    for token in (None, "0.garbage"):
        refused = await post(http, RESIGN, {"id": game_id}, token=token)
        assert refused["data"]["resign"]["code"] == "UNAUTHORIZED"
    body = await post(http, RESIGN, {"id": game_id}, token=tokens[1])
    game = body["data"]["resign"]["game"]
    assert game["status"] == "FINISHED" and game["toAct"] == [] and game["legalMoves"] == []
    assert game["outcome"] == {"reason": "RESIGNED", "seat": 1, "winners": [0]}
    assert _ended("RESIGNED") == before + 1
    again = await post(http, RESIGN, {"id": game_id}, token=tokens[0])
    assert again["data"]["resign"]["code"] == "GAME_OVER"
    history = (await post(http, HISTORY, {"id": game_id}))["data"]["game"]["history"]
    assert history[-1] == {
        "version": game["version"],
        "seat": 1,
        "move": None,
        "label": "seat 1 resigned",
        "event": "RESIGNED",
    }
    assert await _listed(http, playerId=player, status="FINISHED") == [game_id]
    assert await _listed(http, toActPlayerId=player) == []
    rest = await http.post(f"/v1/games/{game_id}/moves", json={"move": {"type": "x"}},
                           headers={"authorization": f"Bearer {tokens[0]}"})  # fmt: skip
    assert rest.status_code == 409 and rest.json()["code"] == "GAME_OVER"


async def test_only_the_games_tenant_abandons_it(http: httpx.AsyncClient) -> None:
    player = f"p-{secrets.token_hex(4)}"
    game_id, tokens = await _game(http, player)
    for key, code in ((GLOBEX, "NOT_FOUND"), (None, "UNAUTHORIZED"), ("nope", "UNAUTHORIZED")):
        body = await post(http, ABANDON, {"id": game_id}, key, token=tokens[0])
        assert body["data"]["abandonGame"]["code"] == code
    before = _ended("ABANDONED")
    body = await post(http, ABANDON, {"id": game_id}, ACME)
    game = body["data"]["abandonGame"]["game"]
    assert game == {
        "status": "ABANDONED",
        "outcome": {"reason": "ABANDONED", "seat": None, "winners": []},
    }
    assert _ended("ABANDONED") == before + 1
    again = await post(http, ABANDON, {"id": game_id}, ACME)
    assert again["data"]["abandonGame"]["code"] == "GAME_OVER"
    resigned = await post(http, RESIGN, {"id": game_id}, token=tokens[0])
    assert resigned["data"]["resign"]["code"] == "GAME_OVER"
    history = (await post(http, HISTORY, {"id": game_id}))["data"]["game"]["history"]
    assert history[-1]["event"] == "ABANDONED" and history[-1]["seat"] is None
    assert await _listed(http, playerId=player, status="ABANDONED") == [game_id]
    assert await _listed(http, playerId=player, status="ACTIVE") == []


async def test_rest_resign_and_abandon(http: httpx.AsyncClient) -> None:
    game_id, tokens = await _game(http, "rest-player")
    other = await http.post(f"/v1/games/{game_id}/abandon", headers={"x-api-key": GLOBEX})
    assert other.status_code == 404 and other.json()["code"] == "NOT_FOUND"
    resigned = await http.post(
        f"/v1/games/{game_id}/resign", headers={"authorization": f"Bearer {tokens[0]}"}
    )
    assert resigned.status_code == 200, resigned.text
    assert resigned.json()["game"]["outcome"] == {"reason": "RESIGNED", "seat": 0, "winners": [1]}
    late = await http.post(f"/v1/games/{game_id}/abandon", headers={"x-api-key": ACME})
    assert late.status_code == 409 and late.json()["code"] == "GAME_OVER"
    history = (await http.get(f"/v1/games/{game_id}/history")).json()["history"]
    assert history[-1]["event"] == "RESIGNED" and history[-1]["move"] is None


async def test_a_subscriber_sees_the_abandon_and_the_stream_ends(
    http: httpx.AsyncClient, redis_url: str
) -> None:
    game_id, _ = await _game(http, "watched")
    store = RedisStore(connect(Settings(), redis_url), Settings())
    try:
        async with store.events(game_id) as events:
            await post(http, ABANDON, {"id": game_id}, ACME)
            event = await events.next()
        assert b"ABANDONED" in (event if isinstance(event, bytes) else str(event).encode())
    finally:
        await store.close()
