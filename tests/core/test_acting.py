"""A tenant acting for a seat of its own games and reissuing seat tokens:
what the tenant sees and does as a seat, what the history says of it, idempotency, bot seats,
and a reissued token ending the old one at once on every replica.
(The caller-by-operation table is tests/core/test_authorization.py.)"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from service.app import create_app
from service.settings import Settings
from tests.conftest import client_for
from tests.support.play import bot_seats, create_game
from tests.support.processes import service_processes
from tests.support.tenants import ACME, GLOBEX, KEYS, post, tenants_app

GAME = """
query G($id: ID!, $as: Int) {
  game(id: $id, asSeat: $as) { version viewer toAct state legalMoves { move label } }
}"""
APPLY = """
mutation A($input: ApplyMoveInput!) {
  applyMove(input: $input) {
    __typename
    ... on MoveApplied { replayed game { version viewer } }
    ... on MoveRejected { code message }
  }
}"""
HISTORY = """
query H($id: ID!) {
  game(id: $id) { status history { version seat label forced event actedBy } }
}"""
REISSUE = """
mutation R($id: ID!, $seat: Int!) { reissueSeatToken(gameId: $id, seat: $seat) { seat token playerId } }
"""
RESIGN = """
mutation Q($id: ID!, $as: Int) {
  resign(gameId: $id, asSeat: $as) { __typename ... on MoveRejected { code } }
}"""


async def _game(http: httpx.AsyncClient, **fields: Any) -> tuple[str, list[str]]:
    payload = await create_game(http, key=ACME, seed="acting", **fields)
    return payload["game"]["id"], [s["token"] for s in payload["seats"]]


async def _seen(
    http: httpx.AsyncClient, game_id: str, key: str | None, token: str | None, seat: int | None
) -> dict[str, Any]:
    body = await post(http, GAME, {"id": game_id, "as": seat}, key, token)
    assert "errors" not in body, body
    seen: dict[str, Any] = body["data"]["game"]
    return seen


async def test_the_tenant_sees_as_a_seat_exactly_what_the_seat_sees(redis_url: str) -> None:
    async with tenants_app(redis_url) as http:
        game_id, tokens = await _game(http, kind="TREELINE", players=3)
        for seat, token in enumerate(tokens):
            assert await _seen(http, game_id, ACME, None, seat) == await _seen(
                http, game_id, None, token, None
            )
        spectator = await _seen(http, game_id, None, None, None)
        assert await _seen(http, game_id, ACME, None, None) == spectator, "no asSeat: as before"
        assert spectator["viewer"] is None and spectator["legalMoves"] == []
        as_one = await _seen(http, game_id, ACME, None, 1)
        assert as_one["state"] != spectator["state"], "seat 1's hidden hand is in its view only"
        # REST: the same view through X-Act-As-Seat
        rest = await http.get(
            f"/v1/games/{game_id}", headers={"x-api-key": ACME, "x-act-as-seat": "1"}
        )
        assert rest.status_code == 200 and rest.json()["state"] == as_one["state"]
        assert rest.json()["viewer"] == 1
        assert "x-act-as-seat" in rest.headers["vary"]


async def test_a_tenants_move_for_a_seat_is_recorded_as_such_and_kept_when_folded(
    redis_url: str,
) -> None:
    async with tenants_app(redis_url) as http:
        game_id, tokens = await _game(http)
        move = (await _seen(http, game_id, ACME, None, 0))["legalMoves"][0]["move"]
        acted = await post(
            http, APPLY, {"input": {"gameId": game_id, "move": move, "asSeat": 0}}, ACME
        )
        assert acted["data"]["applyMove"] == {
            "__typename": "MoveApplied",
            "replayed": False,
            "game": {"version": 1, "viewer": 0},
        }
        move = (await _seen(http, game_id, None, tokens[1], None))["legalMoves"][0]["move"]
        own = await post(http, APPLY, {"input": {"gameId": game_id, "move": move}}, None, tokens[1])
        assert own["data"]["applyMove"]["__typename"] == "MoveApplied"
        history = (await post(http, HISTORY, {"id": game_id}))["data"]["game"]["history"]
        assert [(e["seat"], e["actedBy"]) for e in history] == [(0, "TENANT"), (1, None)]
        rest = (await http.get(f"/v1/games/{game_id}/history")).json()["history"]
        assert [e["actedBy"] for e in rest] == ["TENANT", None]
        # the tenant resigns for seat 1: the game ends and its history is folded
        resigned = await post(http, RESIGN, {"id": game_id, "as": 1}, ACME)
        assert resigned["data"]["resign"]["__typename"] == "MoveApplied"
        folded = (await post(http, HISTORY, {"id": game_id}))["data"]["game"]
        assert folded["status"] == "FINISHED"
        assert [(e["event"], e["actedBy"]) for e in folded["history"]] == [
            (None, "TENANT"),
            (None, None),
            ("RESIGNED", "TENANT"),
        ]


async def test_an_idempotency_key_is_the_seats_whoever_sends_it(redis_url: str) -> None:
    async with tenants_app(redis_url) as http:
        game_id, tokens = await _game(http)
        move = (await _seen(http, game_id, ACME, None, 0))["legalMoves"][0]["move"]
        request = {"gameId": game_id, "move": move, "asSeat": 0, "idempotencyKey": "k-1"}
        first = await post(http, APPLY, {"input": request}, ACME)
        again = await post(http, APPLY, {"input": request}, ACME)
        assert first["data"]["applyMove"]["replayed"] is False
        assert again["data"]["applyMove"] == {**first["data"]["applyMove"], "replayed": True}
        # the seat's own client retrying the same request with the same key: the same move
        by_seat = {"gameId": game_id, "move": move, "idempotencyKey": "k-1"}
        replayed = await post(http, APPLY, {"input": by_seat}, None, tokens[0])
        assert replayed["data"]["applyMove"]["replayed"] is True
        # REST: the same key through X-Act-As-Seat
        rest = await http.post(
            f"/v1/games/{game_id}/moves",
            json={"move": move},
            headers={"x-api-key": ACME, "x-act-as-seat": "0", "idempotency-key": "k-1"},
        )
        assert rest.status_code == 200 and rest.headers["idempotent-replayed"] == "true"
        history = (await post(http, HISTORY, {"id": game_id}))["data"]["game"]["history"]
        assert len(history) == 1


async def test_bot_seats_cannot_be_acted_for_nor_get_a_token(redis_url: str) -> None:
    async with tenants_app(redis_url) as http:
        game_id, _ = await _game(http, bots=bot_seats({1: "RANDOM"}))
        seen = await post(http, GAME, {"id": game_id, "as": 1}, ACME)
        assert seen["errors"][0]["extensions"]["code"] == "FORBIDDEN"
        reissued = await post(http, REISSUE, {"id": game_id, "seat": 1}, ACME)
        assert reissued["errors"][0]["extensions"]["code"] == "FORBIDDEN"
        rest = await http.post(f"/v1/games/{game_id}/seats/1/token", headers={"x-api-key": ACME})
        assert rest.status_code == 403 and rest.json()["code"] == "FORBIDDEN"
        for seat in (2, -1):
            out_of_range = await post(http, REISSUE, {"id": game_id, "seat": seat}, ACME)
            assert out_of_range["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"
        bad = await http.get(
            f"/v1/games/{game_id}", headers={"x-api-key": ACME, "x-act-as-seat": "one"}
        )
        assert bad.status_code == 400 and bad.json()["code"] == "BAD_REQUEST"


async def test_another_tenant_is_told_what_a_missing_game_tells(redis_url: str) -> None:
    """No existence leak: every answer to GLOBEX about ACME's game is the answer about a game
    id that does not exist, message and all."""
    async with tenants_app(redis_url) as http:
        game_id, _ = await _game(http)
        missing = "g-does-not-exist"
        move = (await _seen(http, game_id, ACME, None, 0))["legalMoves"][0]["move"]

        async def answers(target: str) -> list[Any]:
            graphql = [
                await post(http, GAME, {"id": target, "as": 0}, GLOBEX),
                await post(
                    http, APPLY, {"input": {"gameId": target, "move": move, "asSeat": 0}}, GLOBEX
                ),
                await post(http, REISSUE, {"id": target, "seat": 0}, GLOBEX),
                await post(http, RESIGN, {"id": target, "as": 0}, GLOBEX),
            ]
            headers = {"x-api-key": GLOBEX, "x-act-as-seat": "0"}
            rest = [
                await http.get(f"/v1/games/{target}", headers=headers),
                await http.post(f"/v1/games/{target}/moves", json={"move": move}, headers=headers),
                await http.post(f"/v1/games/{target}/seats/0/token", headers=headers),
            ]
            shown = [(r.status_code, r.json()) for r in rest]
            return [str(a).replace(target, "ID") for a in [*graphql, *shown]]

        assert await answers(game_id) == await answers(missing)
        assert "NOT_FOUND" in str(await answers(game_id))


async def test_a_reissued_token_ends_the_old_one_at_once_on_every_replica(redis_url: str) -> None:
    with service_processes(redis_url, 2, {"RULES_API_KEYS": ",".join(KEYS)}) as urls:
        async with (
            httpx.AsyncClient(base_url=urls[0]) as one,
            httpx.AsyncClient(base_url=urls[1]) as two,
        ):
            payload = await create_game(one, key=ACME, playerIds=["ann", "bo"])
            game_id, old = payload["game"]["id"], payload["seats"][0]["token"]
            assert (await _seen(two, game_id, None, old, None))["viewer"] == 0
            reissued = await post(two, REISSUE, {"id": game_id, "seat": 0}, ACME)
            new = reissued["data"]["reissueSeatToken"]
            assert new["seat"] == 0 and new["playerId"] == "ann" and new["token"] != old
            for replica in (one, two):
                refused = await post(replica, GAME, {"id": game_id}, None, old)
                assert refused["errors"][0]["extensions"]["code"] == "UNAUTHORIZED"
                assert (await _seen(replica, game_id, None, new["token"], None))["viewer"] == 0
            move = (await _seen(one, game_id, None, new["token"], None))["legalMoves"][0]["move"]
            stale = await post(one, APPLY, {"input": {"gameId": game_id, "move": move}}, None, old)
            assert stale["data"]["applyMove"]["code"] == "UNAUTHORIZED"
            # REST, and the other seat's token untouched by seat 0's reissues
            rest = await one.post(f"/v1/games/{game_id}/seats/0/token", headers={"x-api-key": ACME})
            assert rest.status_code == 200 and rest.headers["cache-control"] == "no-store"
            newest = rest.json()
            assert newest["seat"] == 0 and newest["playerId"] == "ann"
            for token, status in [(new["token"], 401), (newest["token"], 200)]:
                answer = await two.get(
                    f"/v1/games/{game_id}", headers={"authorization": f"Bearer {token}"}
                )
                assert answer.status_code == status
            seat_one = payload["seats"][1]["token"]
            assert (await _seen(two, game_id, None, seat_one, None))["viewer"] == 1
            applied = await post(
                two, APPLY, {"input": {"gameId": game_id, "move": move}}, None, newest["token"]
            )
            assert applied["data"]["applyMove"]["__typename"] == "MoveApplied"


async def test_reissues_of_two_seats_at_once_both_hold(redis_url: str) -> None:
    """Each seat's reissue sets only its own entry: neither undoes the other."""
    async with tenants_app(redis_url) as http:
        game_id, old = await _game(http, players=2)
        answers = await asyncio.gather(
            *[post(http, REISSUE, {"id": game_id, "seat": s}, ACME) for s in (0, 1)]
        )
        for seat, answer in enumerate(answers):
            token = answer["data"]["reissueSeatToken"]["token"]
            assert (await _seen(http, game_id, None, token, None))["viewer"] == seat
            gone = await post(http, GAME, {"id": game_id}, None, old[seat])
            assert gone["errors"][0]["extensions"]["code"] == "UNAUTHORIZED"


async def test_without_api_keys_only_a_development_server_lets_callers_act(
    redis_url: str,
) -> None:
    """Without RULES_API_KEYS every caller is the one default tenant, which owns every game:
    in development it may act for seats (as docs/api.md shows), in production nobody may."""
    for env, code in [("development", None), ("production", "BAD_USER_INPUT")]:
        settings = Settings(env=env, rate_limit_per_token=0, rate_limit_per_address=0)
        async with client_for(create_app(settings, redis_url)) as http:
            payload = await create_game(http)
            body = await post(http, GAME, {"id": payload["game"]["id"], "as": 1})
            if code is None:
                assert body["data"]["game"]["viewer"] == 1
            else:
                assert body["errors"][0]["extensions"]["code"] == code


async def test_the_tenant_sends_a_typed_move_for_a_seat(redis_url: str) -> None:
    typed = """
    query T($id: ID!) { game(id: $id, asSeat: 0) { legalMoves { typedMove {
      __typename ... on TreelingsTakeColour { colour } } } } }"""
    async with tenants_app(redis_url) as http:
        game_id, _ = await _game(http)
        legal = (await post(http, typed, {"id": game_id}, ACME))["data"]["game"]["legalMoves"]
        colour = next(m["typedMove"]["colour"] for m in legal if "colour" in m["typedMove"])
        move = {"treelingsTakeColour": {"colour": colour}}
        request = {"gameId": game_id, "typedMove": move, "asSeat": 0}
        applied = await post(http, APPLY, {"input": request}, ACME)
        assert applied["data"]["applyMove"]["game"] == {"version": 1, "viewer": 0}
        history = (await post(http, HISTORY, {"id": game_id}))["data"]["game"]["history"]
        assert history[0]["actedBy"] == "TENANT"


async def test_every_route_that_acts_as_a_seat_declares_its_answer_to_a_seat_the_game_lacks(
    redis_url: str,
) -> None:
    """X-Act-As-Seat names a seat the game does not have: a read answers 422 BAD_USER_INPUT,
    and every route taking the header answers with a status its OpenAPI operation declares (a
    generated client knows it)."""
    async with tenants_app(redis_url) as http:
        game_id, _ = await _game(http)
        document = (await http.get("/openapi.json")).json()
        acting = [
            (method, path)
            for path, operations in document["paths"].items()
            for method, operation in operations.items()
            if any(p.get("name") == "X-Act-As-Seat" for p in operation.get("parameters", []))
        ]
        assert len(acting) >= 10
        headers = {"x-api-key": ACME, "x-act-as-seat": "7"}
        for method, path in acting:
            if path.endswith("/events"):
                continue  # a stream: its refusal is the same, tested in tests/api/rest
            url = path.replace("{gameId}", game_id)
            answer = await http.request(method, url, headers=headers, json={"move": {}})
            declared = document["paths"][path][method]["responses"]
            assert str(answer.status_code) in declared, (method, path, answer.text)
            if method == "get":
                assert answer.status_code == 422, (path, answer.text)
                assert answer.json()["code"] == "BAD_USER_INPUT"
