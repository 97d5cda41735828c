"""Rematches through the real app (GraphQL and REST) on real Redis: two seats offering at once,
on two replicas, get one rematch; it waits for the consent of every human seat and keeps the
old game's settings and bots; a seat played by its token alone claims its new seat with that
token (the same new token on every call); declines, lapses and refusals are typed; a player
token still sees only its own seat (RULINGS ALL-4)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from service.app import create_app
from service.store import RedisStore, connect
from tests.api.test_challenges import abandoned, outbox_of
from tests.api.test_players import SETTINGS, data, gql, refusal, token_for
from tests.conftest import client_for
from tests.support.processes import service_processes
from tests.support.waiting import until

ACME, GLOBEX = "acme-secret", "globex-secret"

CREATE = """
mutation Create($input: CreateGameInput!) {
  createGame(input: $input) { game { id } seats { seat token } }
}"""
RESIGN = """
mutation R($id: ID!) { resign(gameId: $id) { __typename ... on MoveApplied { game { status } } } }
"""
SEATED = "seat seatToken game { id viewer status toAct }"
OFFER = f"""
mutation O($id: ID!, $as: Int, $expires: Int) {{
  offerRematch(gameId: $id, asSeat: $as, expiresInSeconds: $expires) {{ {SEATED} }}
}}"""
ACCEPT = (
    f"mutation A($id: ID!, $as: Int) {{ acceptRematch(gameId: $id, asSeat: $as) {{ {SEATED} }} }}"
)
DECLINE = "mutation D($id: ID!) { declineRematch(gameId: $id) { id status } }"
REMATCH = "query M($id: ID!) { rematch(gameId: $id) { gameId } }"
EXPORT = "query E($id: ID!) { exportGame(gameId: $id) }"
VERIFY = (
    "query V($r: JSON!) { verifyGameRecord(record: $r) { valid difference { reason message } } }"
)
JOIN = "mutation J($id: ID!) { joinGame(gameId: $id) { seat game { id status } } }"
LOBBY = "query L($id: ID!) { lobby(gameId: $id) { openSeats { seat reserved } started } }"
GAME = """
query G($id: ID!, $as: Int) {
  game(id: $id, asSeat: $as) {
    id viewer status version players spectatorDelay takebacks
    clock { perDecisionSeconds onTimeout } seats { seat bot playerId }
    history { label }
  }
}"""
MOVE = """
mutation M($id: ID!, $move: JSON!) {
  applyMove(input: {gameId: $id, move: $move}) {
    __typename ... on MoveApplied { game { version } } ... on MoveRejected { code }
  }
}"""
LEGAL = "query L($id: ID!) { game(id: $id) { legalMoves { move } } }"


@pytest.fixture(scope="module")
async def http(redis_url: str) -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(create_app(SETTINGS, redis_url)) as client:
        yield client


async def finished(
    http: httpx.AsyncClient, players: int = 2, ids: list[str | None] | None = None, **more: Any
) -> tuple[str, list[str]]:
    """A game over (seat 0 resigned) and its seats' tokens by seat (bots: none)."""
    asked = {"kind": "TREELINGS", "players": players, "playerIds": ids or [], **more}
    created = data(await gql(http, CREATE, {"input": asked}, key=ACME))["createGame"]
    game_id = created["game"]["id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    resigned = data(await gql(http, RESIGN, {"id": game_id}, token=tokens[0]))["resign"]
    assert resigned["game"]["status"] == "FINISHED"
    return game_id, [tokens.get(s, "") for s in range(players)]


async def test_two_seats_offering_at_once_on_two_replicas_get_one_rematch(
    http: httpx.AsyncClient, redis_url: str
) -> None:
    async with client_for(create_app(SETTINGS, redis_url)) as other:
        for _ in range(6):
            game_id, tokens = await finished(http)
            answers = await asyncio.gather(
                gql(http, OFFER, {"id": game_id}, token=tokens[0]),
                gql(other, OFFER, {"id": game_id}, token=tokens[1]),
            )
            offered = [data(answer)["offerRematch"] for answer in answers]
            assert offered[0]["game"]["id"] == offered[1]["game"]["id"] != game_id
            assert [o["seat"] for o in offered] == [0, 1]
            new_id = offered[0]["game"]["id"]
            lobby = data(await gql(http, LOBBY, {"id": new_id}, key=ACME))["lobby"]
            assert lobby == {"openSeats": [], "started": True}
            for seat, seated in enumerate(offered):
                seen = data(await gql(http, GAME, {"id": new_id}, token=seated["seatToken"]))
                assert seen["game"]["viewer"] == seat
            found = data(await gql(other, REMATCH, {"id": game_id}, token=tokens[1]))
            assert found["rematch"] == {"gameId": new_id}
            field = "query F($id: ID!) { game(id: $id) { rematch { gameId } } }"
            old = data(await gql(http, field, {"id": game_id}))  # a spectator's read too
            assert old["game"]["rematch"] == {"gameId": new_id}
            assert data(await gql(http, field, {"id": new_id}))["game"]["rematch"] is None


async def test_the_rematch_waits_for_every_human_seat_and_keeps_the_games_settings(
    http: httpx.AsyncClient,
) -> None:
    ann, bob = f"ann-{time.time_ns()}", f"bob-{time.time_ns()}"
    clock = {"perDecisionSeconds": 600, "onTimeout": "AUTO_GREEDY"}
    game_id, _ = await finished(
        http, 3, [ann, bob], bots=[{"seat": 2, "strategy": "RANDOM"}], clock=clock,
        spectatorDelay=1, takebacks="OWN_DECISIONS",
    )  # fmt: skip
    assert data(await gql(http, REMATCH, {"id": game_id}, key=ACME))["rematch"] is None
    ann_token, bob_token = await token_for(http, ann), await token_for(http, bob)
    offered = data(await gql(http, OFFER, {"id": game_id}, token=ann_token))["offerRematch"]
    new_id = offered["game"]["id"]
    assert offered["seat"] == 0 and offered["seatToken"] is None  # ann plays by her token
    lobby = data(await gql(http, LOBBY, {"id": new_id}, key=ACME))["lobby"]
    assert lobby == {"openSeats": [{"seat": 1, "reserved": True}], "started": False}
    legal = data(await gql(http, LEGAL, {"id": new_id}, token=ann_token))["game"]["legalMoves"]
    assert legal == []  # nobody owes a decision before the start
    move = {"type": "takeColour", "colour": "green"}
    early = await gql(http, MOVE, {"id": new_id, "move": move}, token=ann_token)
    assert refusal(early)[0] == "GAME_NOT_STARTED"  # until every human seat is taken
    again = data(await gql(http, OFFER, {"id": game_id}, token=ann_token))["offerRematch"]
    assert again["game"]["id"] == new_id and again["seat"] == 0  # offered: the same answer
    stranger = await token_for(http, f"eve-{time.time_ns()}")
    assert refusal(await gql(http, JOIN, {"id": new_id}, token=stranger))[0] == "GAME_FULL"
    joined = data(await gql(http, JOIN, {"id": new_id}, token=bob_token))["joinGame"]
    assert joined["seat"] == 1
    game = data(await gql(http, GAME, {"id": new_id}, key=ACME))["game"]
    old = data(await gql(http, GAME, {"id": game_id}, key=ACME))["game"]
    for same in ("players", "spectatorDelay", "takebacks", "clock"):
        assert game[same] == old[same], same
    assert [s["bot"] for s in game["seats"]] == [None, None, "RANDOM"]
    assert [s["playerId"] for s in game["seats"]] == [ann, bob, None]
    assert data(await gql(http, LOBBY, {"id": new_id}, key=ACME))["lobby"]["started"]
    # under way, the tenant still gets ann's seat a token (reissued), the same each time
    tokens = [
        data(await gql(http, ACCEPT, {"id": game_id, "as": 0}, key=ACME))["acceptRematch"]
        for _ in range(2)
    ]
    assert tokens[0]["seatToken"] == tokens[1]["seatToken"]
    seen = await gql(http, GAME, {"id": new_id}, token=tokens[0]["seatToken"])
    assert data(seen)["game"]["viewer"] == 0
    assert data(await gql(http, GAME, {"id": new_id}, token=ann_token))["game"]["viewer"] == 0


async def test_a_seat_token_claims_its_rematch_seat_with_the_same_new_token(
    http: httpx.AsyncClient,
) -> None:
    game_id, tokens = await finished(http)
    assert refusal(await gql(http, ACCEPT, {"id": game_id}, token=tokens[1]))[0] == "NOT_FOUND"
    offered = data(await gql(http, OFFER, {"id": game_id}, token=tokens[0]))["offerRematch"]
    new_id = offered["game"]["id"]
    lobby = data(await gql(http, LOBBY, {"id": new_id}, key=ACME))["lobby"]
    assert lobby == {"openSeats": [{"seat": 1, "reserved": True}], "started": False}
    claims = [
        data(await gql(http, ACCEPT, {"id": game_id}, token=tokens[1]))["acceptRematch"]
        for _ in range(2)
    ]
    assert claims[0]["seatToken"] == claims[1]["seatToken"] != tokens[1]
    assert claims[0]["seat"] == 1 and claims[0]["game"]["id"] == new_id
    by_tenant = data(await gql(http, ACCEPT, {"id": game_id, "as": 1}, key=ACME))
    assert by_tenant["acceptRematch"]["seatToken"] == claims[0]["seatToken"]
    mine = data(await gql(http, GAME, {"id": new_id}, token=claims[0]["seatToken"]))["game"]
    assert mine["viewer"] == 1
    # the old token is no key to the new game
    assert refusal(await gql(http, GAME, {"id": new_id}, token=tokens[1]))[0] == "UNAUTHORIZED"
    seats = data(await gql(http, GAME, {"id": new_id}, key=ACME))["game"]["seats"]
    assert [s["playerId"] for s in seats] == [None, None]


async def test_a_player_token_sees_only_its_own_seat_of_the_rematch(
    http: httpx.AsyncClient,
) -> None:
    ann, bob = f"ann-{time.time_ns()}", f"bob-{time.time_ns()}"
    game_id, _ = await finished(http, 2, [ann, bob])
    ann_token, bob_token = await token_for(http, ann), await token_for(http, bob)
    new_id = data(await gql(http, OFFER, {"id": game_id}, token=ann_token))["offerRematch"]
    new_id = new_id["game"]["id"]
    data(await gql(http, JOIN, {"id": new_id}, token=bob_token))
    assert data(await gql(http, GAME, {"id": new_id}, token=ann_token))["game"]["viewer"] == 0
    code, _ = refusal(await gql(http, GAME, {"id": new_id, "as": 1}, token=ann_token))
    assert code == "FORBIDDEN"
    # a fresh seed: the old game's, revealed at its end, tells nothing of the new deal
    seeds = "query S($id: ID!) { game(id: $id) { seedCommitment seedReveal { seed } } }"
    old = data(await gql(http, seeds, {"id": game_id}, key=ACME))["game"]
    new = data(await gql(http, seeds, {"id": new_id}, key=ACME))["game"]
    assert old["seedReveal"]["seed"] and new["seedReveal"] is None
    assert new["seedCommitment"] != old["seedCommitment"]


async def test_declining_ends_the_rematch_for_everyone(http: httpx.AsyncClient) -> None:
    game_id, tokens = await finished(http)
    new_id = data(await gql(http, OFFER, {"id": game_id}, token=tokens[0]))["offerRematch"]
    new_id = new_id["game"]["id"]
    declined = data(await gql(http, DECLINE, {"id": game_id}, token=tokens[1]))["declineRematch"]
    assert declined == {"id": new_id, "status": "ABANDONED"}
    game = data(await gql(http, GAME, {"id": new_id}, key=ACME))["game"]
    assert game["history"][-1]["label"] == "seat 1 declined the rematch"
    for asked in (ACCEPT, OFFER, DECLINE):
        assert refusal(await gql(http, asked, {"id": game_id}, token=tokens[1]))[0] == "GAME_OVER"
    await _verifies(http, new_id)


async def test_a_rematch_nobody_accepts_lapses(http: httpx.AsyncClient) -> None:
    game_id, tokens = await finished(http)
    offered = await gql(http, OFFER, {"id": game_id, "expires": 1}, token=tokens[0])
    new_id = data(offered)["offerRematch"]["game"]["id"]

    async def lapsed() -> bool:
        game = data(await gql(http, GAME, {"id": new_id}, key=ACME))["game"]
        return bool(game["status"] == "ABANDONED")

    await until(lapsed, "the rematch to lapse", 30)
    game = data(await gql(http, GAME, {"id": new_id}, key=ACME))["game"]
    assert game["history"][-1]["label"] == "the rematch lapsed"
    assert [s["bot"] for s in game["seats"]] == [None, None]  # no bots took the seat
    assert refusal(await gql(http, ACCEPT, {"id": game_id}, token=tokens[1]))[0] == "GAME_OVER"
    await _verifies(http, new_id)


async def _verifies(http: httpx.AsyncClient, game_id: str) -> None:
    """The called-off game's record, as every record the service exports, verifies through the
    service's own API."""
    record = data(await gql(http, EXPORT, {"id": game_id}, key=ACME))["exportGame"]
    verified = data(await gql(http, VERIFY, {"r": record}))["verifyGameRecord"]
    assert verified["valid"], verified


async def test_rematch_refusals_are_typed(http: httpx.AsyncClient) -> None:
    created = data(
        await gql(http, CREATE, {"input": {"kind": "TREELINGS", "players": 2}}, key=ACME)
    )["createGame"]
    live, live_token = created["game"]["id"], created["seats"][0]["token"]
    assert refusal(await gql(http, OFFER, {"id": live}, token=live_token))[0] == "GAME_NOT_OVER"
    game_id, tokens = await finished(http)
    stranger = await token_for(http, f"eve-{time.time_ns()}")
    globex = await token_for(http, f"gil-{time.time_ns()}", key=GLOBEX)
    for variables, credentials, code in [
        ({"id": game_id}, {"token": stranger}, "FORBIDDEN"),
        ({"id": game_id}, {"token": globex}, "NOT_FOUND"),
        ({"id": game_id}, {"key": ACME}, "FORBIDDEN"),  # the tenant acts only as a seat
        ({"id": game_id}, {"key": GLOBEX, "as": 0}, "NOT_FOUND"),
        ({"id": game_id}, {}, "FORBIDDEN"),
        ({"id": game_id, "expires": 0}, {"token": tokens[0]}, "BAD_USER_INPUT"),
        ({"id": game_id, "expires": 10**9}, {"token": tokens[0]}, "BAD_USER_INPUT"),
        ({"id": "no-such-game"}, {"token": tokens[0]}, "NOT_FOUND"),
        ({"id": "x" * 5000}, {"token": tokens[0]}, "NOT_FOUND"),
        ({"id": game_id}, {"token": "0.forged"}, "UNAUTHORIZED"),
    ]:
        seat = credentials.pop("as", None)
        asked = {**variables, **({"as": seat} if seat is not None else {})}
        body = await gql(http, OFFER, asked, **credentials)
        assert refusal(body)[0] == code, (variables, credentials)
    assert data(await gql(http, REMATCH, {"id": game_id}, key=ACME))["rematch"] is None


async def test_rest_mirrors_offer_accept_decline_and_the_rematch(http: httpx.AsyncClient) -> None:
    game_id, tokens = await finished(http)
    seat0 = {"authorization": f"Bearer {tokens[0]}"}
    seat1 = {"authorization": f"Bearer {tokens[1]}"}
    none = await http.get(f"/v1/games/{game_id}/rematch", headers=seat0)
    assert none.status_code == 200 and none.json() == {"gameId": None}
    offered = await http.post(f"/v1/games/{game_id}/rematch", headers=seat0)
    assert offered.status_code == 200, offered.text
    new_id = offered.json()["game"]["id"]
    assert offered.json()["seat"] == 0 and offered.json()["seatToken"]
    found = await http.get(f"/v1/games/{game_id}/rematch", headers=seat1)
    assert found.json() == {"gameId": new_id}
    declined = await http.post(f"/v1/games/{game_id}/rematch/decline", headers=seat1)
    assert declined.status_code == 200 and declined.json()["game"]["status"] == "ABANDONED"
    late = await http.post(f"/v1/games/{game_id}/rematch/accept", headers=seat1)
    assert late.status_code == 409 and late.json()["code"] == "GAME_OVER"
    bad = await http.post(
        f"/v1/games/{game_id}/rematch", headers=seat0, json={"expiresInSeconds": "soon"}
    )
    assert bad.status_code == 400 and bad.json()["code"] == "BAD_REQUEST"
    live = data(await gql(http, CREATE, {"input": {"kind": "TREELINGS", "players": 2}}, key=ACME))
    live_id = live["createGame"]["game"]["id"]
    early = await http.post(
        f"/v1/games/{live_id}/rematch", headers={"x-api-key": ACME, "x-act-as-seat": "0"}
    )
    assert early.status_code == 409 and early.json()["code"] == "GAME_NOT_OVER"


@pytest.mark.slow
async def test_offers_racing_on_two_service_processes_make_one_rematch(redis_url: str) -> None:
    """The race on two real replicas (processes): per game, each seat offers on its own
    replica, all at once; each game gets one rematch, both seats in it."""
    env = {
        "RULES_API_KEYS": f"acme:{ACME}",
        "RULES_PLAYER_TOKEN_SECRET": SETTINGS.player_token_secret,
        "RULES_RATE_LIMIT_PER_ADDRESS": "0",
        "RULES_RATE_LIMIT_PER_TOKEN": "0",
    }
    with service_processes(redis_url, 2, env) as bases:
        clients = [httpx.AsyncClient(base_url=base, timeout=60) for base in bases]
        try:
            over = [await finished(clients[0]) for _ in range(10)]
            answers = await asyncio.gather(
                *(
                    gql(clients[seat], OFFER, {"id": game_id}, token=tokens[seat])
                    for game_id, tokens in over
                    for seat in range(2)
                )
            )
        finally:
            for client in clients:
                await client.aclose()
    for g, (game_id, _) in enumerate(over):
        pair = [data(a)["offerRematch"] for a in answers[2 * g : 2 * g + 2]]
        assert pair[0]["game"]["id"] == pair[1]["game"]["id"] != game_id
        assert [p["seat"] for p in pair] == [0, 1]
        assert pair[0]["game"]["status"] == pair[1]["game"]["status"] == "ACTIVE"


async def test_game_abandoned_says_a_rematch_was_declined(
    http: httpx.AsyncClient, redis_url: str
) -> None:
    game_id, tokens = await finished(http, ids=["ann-x", "bob-x"])
    async with outbox_of(redis_url) as events:
        offered = await gql(http, OFFER, {"id": game_id}, token=tokens[0])
        new_id = data(offered)["offerRematch"]["game"]["id"]
        data(await gql(http, DECLINE, {"id": game_id}, token=tokens[1]))
        assert abandoned(await events(new_id)) == (
            "REMATCH_DECLINED",
            1,
            "bob-x",
            "seat 1 declined the rematch",
        )


async def test_a_seat_kept_for_a_seat_token_shows_no_player_id_anywhere(
    http: httpx.AsyncClient, redis_url: str
) -> None:
    """The mark that keeps a token-only seat while the rematch waits is internal: null as a
    playerId in GraphQL, REST and webhooks, and gone from the record an ended rematch leaves
    to the archive and the ratings."""
    store = RedisStore(connect(SETTINGS, redis_url), SETTINGS)
    abandon = "mutation A($id: ID!) { abandonGame(gameId: $id) { __typename } }"
    try:
        async with outbox_of(redis_url) as events:
            for ending in ("decline", "abandon"):
                game_id, tokens = await finished(http)
                offered = await gql(http, OFFER, {"id": game_id}, token=tokens[0])
                new_id = data(offered)["offerRematch"]["game"]["id"]
                seats = data(await gql(http, GAME, {"id": new_id}, key=ACME))["game"]["seats"]
                assert [s["playerId"] for s in seats] == [None, None]
                rest = await http.get(f"/v1/games/{new_id}", headers={"x-api-key": ACME})
                assert [s["playerId"] for s in rest.json()["seats"]] == [None, None], rest.text
                if ending == "decline":
                    data(await gql(http, DECLINE, {"id": game_id}, token=tokens[1]))
                    assert abandoned(await events(new_id))[:3] == ("REMATCH_DECLINED", 1, None)
                else:
                    assert "errors" not in await gql(http, abandon, {"id": new_id}, key=ACME)
                record, _ = await store.load(new_id)
                assert record is not None and record.status() == "ABANDONED"
                assert record.player_ids == [None, None], ending
    finally:
        await store.close()
