"""Players through the real app (GraphQL and REST): player tokens issued, minted offline,
revoked and refused; open seats joined by code or id, idempotently and race-free across two
replicas; moves before the start refused; leaving; a player's own games; and a player token
that never sees another seat's view (RULINGS ALL-4)."""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from service.app import create_app
from service.core.players.tokens import AUDIENCE
from service.settings import Settings
from tests.conftest import client_for
from tests.support.processes import service_processes
from tests.support.tenants import ACME, GLOBEX, post
from tests.support.waiting import until

ACME_HS = "acme-offline-secret-of-at-least-32-characters"
ED_KEY = Ed25519PrivateKey.generate()
ED_PUBLIC = base64.urlsafe_b64encode(
    ED_KEY.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
).decode()
SETTINGS = Settings(
    api_keys=(f"acme:{ACME}", f"globex:{GLOBEX}"),
    rate_limit_per_token=0,
    rate_limit_per_address=0,
    player_token_secret="a-server-secret-shared-by-every-replica-0123456789",
    player_keys=(f"acme-1:acme:HS256:{ACME_HS}", f"acme-ed:acme:EdDSA:{ED_PUBLIC}"),
    invite_base_url="https://play.example/join/",
)

CREATE = """
mutation Create($input: CreateGameInput!) {
  createGame(input: $input) { game { id } seats { seat token } joinCode inviteUrl }
}"""
ISSUE = """
mutation Issue($player: String!, $ttl: Int) {
  issuePlayerToken(playerId: $player, ttlSeconds: $ttl) { token playerId expiresAt }
}"""
REVOKE = "mutation R($player: String!) { revokePlayerTokens(playerId: $player) { revokedBefore } }"
JOIN = """
mutation Join($code: String, $id: ID) {
  joinGame(code: $code, gameId: $id) { seat game { id viewer status } }
}"""
LEAVE = "mutation Leave($id: ID!) { leaveGame(gameId: $id) { id } }"
LOBBY = """
query Lobby($id: ID!) {
  lobby(gameId: $id) { joinCode inviteUrl openSeats { seat reserved } started }
}"""
GAME = "query G($id: ID!, $as: Int) { game(id: $id, asSeat: $as) { viewer state toAct version } }"
SEATS = "query S($id: ID!) { game(id: $id) { seats { seat bot } toAct } }"
LEGAL = "query L($id: ID!) { game(id: $id) { legalMoves { move } } }"
MOVE = """
mutation Move($id: ID!, $move: JSON!, $key: String) {
  applyMove(input: {gameId: $id, move: $move, idempotencyKey: $key}) {
    __typename ... on MoveApplied { replayed game { version } }
    ... on MoveRejected { code }
  }
}"""
MINE = "query { myGames { edges { node { id viewer } } } }"


@pytest.fixture(scope="module")
async def http(redis_url: str) -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(create_app(SETTINGS, redis_url)) as client:
        yield client


gql = post  # a GraphQL call with a tenant key, a token, both or neither


def data(body: dict[str, Any]) -> dict[str, Any]:
    assert "errors" not in body, body["errors"]
    found: dict[str, Any] = body["data"]
    return found


def refusal(body: dict[str, Any]) -> tuple[str, str]:
    assert body.get("errors"), body
    error = body["errors"][0]
    return error["extensions"]["code"], error["message"]


async def token_for(http: httpx.AsyncClient, player: str, key: str = ACME) -> str:
    issued = data(await gql(http, ISSUE, {"player": player}, key=key))["issuePlayerToken"]
    assert issued["playerId"] == player
    token: str = issued["token"]
    return token


async def open_game(
    http: httpx.AsyncClient, open_seats: list[dict[str, Any]], players: int = 2, **more: Any
) -> dict[str, Any]:
    given = [{"seat": s} for s in range(players) if s not in {o["seat"] for o in open_seats}]
    ids = [f"host-{time.time_ns()}" if {"seat": s} in given else None for s in range(players)]
    payload: dict[str, Any] = data(
        await gql(
            http,
            CREATE,
            {
                "input": {
                    "kind": "TREELINGS",
                    "players": players,
                    "openSeats": open_seats,
                    "playerIds": ids,
                    **more,
                }
            },
            key=ACME,
        )
    )["createGame"]
    return payload


def offline(
    player: str,
    *,
    kid: str = "acme-1",
    key: Any = ACME_HS,
    algorithm: str = "HS256",
    issuer: str = "acme",
    lifetime: float = 600,
    issued: float | None = None,
) -> str:
    now = time.time() if issued is None else issued
    claims = {"iss": issuer, "sub": player, "aud": AUDIENCE, "iat": now, "exp": now + lifetime}
    return jwt.encode(claims, key, algorithm=algorithm, headers={"kid": kid})


async def test_a_join_code_seats_players_and_the_game_starts_with_its_last_seat(
    http: httpx.AsyncClient,
) -> None:
    created = await open_game(http, [{"seat": 1}])
    game_id, host = created["game"]["id"], created["seats"][0]["token"]
    code = created["joinCode"]
    assert len(code) == 6 and created["inviteUrl"] == f"https://play.example/join/{code}"
    assert [s["seat"] for s in created["seats"]] == [0]  # an open seat has no token
    lobby = data(await gql(http, LOBBY, {"id": game_id}, key=ACME))["lobby"]
    assert lobby == {
        "joinCode": code,
        "inviteUrl": created["inviteUrl"],
        "openSeats": [{"seat": 1, "reserved": False}],
        "started": False,
    }
    # nobody owes a decision before the start: no seat to act, no legal moves, moves refused
    assert data(await gql(http, SEATS, {"id": game_id}))["game"]["toAct"] == []
    assert data(await gql(http, LEGAL, {"id": game_id}, token=host))["game"]["legalMoves"] == []
    move = {"type": "takeColour", "colour": "green"}
    assert (
        refusal(await gql(http, MOVE, {"id": game_id, "move": move}, token=host))[0]
        == "GAME_NOT_STARTED"
    )

    bob = await token_for(http, "bob")
    joined = data(await gql(http, JOIN, {"code": code.lower()}, token=bob))["joinGame"]
    assert joined["seat"] == 1 and joined["game"]["viewer"] == 1
    again = data(await gql(http, JOIN, {"id": game_id}, token=bob))["joinGame"]
    assert again["seat"] == 1, "joining twice gives the same seat"
    carol = await token_for(http, "carol")
    assert refusal(await gql(http, JOIN, {"code": code}, token=carol))[0] == "GAME_FULL"
    started = data(await gql(http, LOBBY, {"id": game_id}, key=ACME))["lobby"]
    assert started["started"] and started["openSeats"] == []

    # the game runs: whoever is to act moves, the joined player with its player token
    for _ in range(2):
        to_act = data(await gql(http, SEATS, {"id": game_id}))["game"]["toAct"][0]
        bearer = host if to_act == 0 else bob
        legal = data(await gql(http, LEGAL, {"id": game_id}, token=bearer))["game"]["legalMoves"]
        moved = data(await gql(http, MOVE, {"id": game_id, "move": legal[0]["move"]}, token=bearer))
        assert moved["applyMove"]["__typename"] == "MoveApplied", moved


async def test_a_player_tokens_moves_are_idempotent(http: httpx.AsyncClient) -> None:
    created = await open_game(http, [{"seat": 0}])
    game_id = created["game"]["id"]
    dana = await token_for(http, "dana")
    assert data(await gql(http, JOIN, {"id": game_id}, token=dana))["joinGame"]["seat"] == 0
    to_act = data(await gql(http, SEATS, {"id": game_id}))["game"]["toAct"][0]
    bearer = dana if to_act == 0 else created["seats"][0]["token"]
    legal = data(await gql(http, LEGAL, {"id": game_id}, token=bearer))["game"]["legalMoves"]
    variables = {"id": game_id, "move": legal[0]["move"], "key": "k-1"}
    first = data(await gql(http, MOVE, variables, token=bearer))["applyMove"]
    second = data(await gql(http, MOVE, variables, token=bearer))["applyMove"]
    assert (first["replayed"], second["replayed"]) == (False, True)
    assert first["game"]["version"] == second["game"]["version"]


async def test_a_reserved_seat_waits_for_its_player(http: httpx.AsyncClient) -> None:
    created = await open_game(http, [{"seat": 1, "reservedFor": "erin"}])
    code = created["joinCode"]
    lobby = data(await gql(http, LOBBY, {"id": created["game"]["id"]}))["lobby"]
    assert lobby["openSeats"] == [{"seat": 1, "reserved": True}]
    assert lobby["joinCode"] is None, "the code is for the game's tenant and its players"
    frank = await token_for(http, "frank")
    assert refusal(await gql(http, JOIN, {"code": code}, token=frank))[0] == "GAME_FULL"
    erin = await token_for(http, "erin")
    assert data(await gql(http, JOIN, {"code": code}, token=erin))["joinGame"]["seat"] == 1


async def test_leaving_before_the_start_opens_the_seat_again(http: httpx.AsyncClient) -> None:
    created = await open_game(http, [{"seat": 1}, {"seat": 2}], players=3)
    game_id = created["game"]["id"]
    gina, hank = await token_for(http, "gina"), await token_for(http, "hank")
    assert data(await gql(http, JOIN, {"id": game_id}, token=gina))["joinGame"]["seat"] == 1
    data(await gql(http, LEAVE, {"id": game_id}, token=gina))
    assert data(await gql(http, MINE, token=gina))["myGames"]["edges"] == []
    lobby = data(await gql(http, LOBBY, {"id": game_id}, key=ACME))["lobby"]
    assert [s["seat"] for s in lobby["openSeats"]] == [1, 2]
    assert refusal(await gql(http, LEAVE, {"id": game_id}, token=gina))[0] == "FORBIDDEN"
    for player in (gina, hank):
        data(await gql(http, JOIN, {"id": game_id}, token=player))
    code, message = refusal(await gql(http, LEAVE, {"id": game_id}, token=hank))
    assert code == "FORBIDDEN" and "resign" in message


async def test_a_player_token_sees_only_its_own_seat(http: httpx.AsyncClient) -> None:
    """RULINGS ALL-4: the private view of the player's seat, never another seat's."""
    created = await open_game(http, [{"seat": 1}])
    game_id, host = created["game"]["id"], created["seats"][0]["token"]
    ivy = await token_for(http, "ivy")
    data(await gql(http, JOIN, {"id": game_id}, token=ivy))
    as_ivy = data(await gql(http, GAME, {"id": game_id}, token=ivy))["game"]
    assert as_ivy["viewer"] == 1
    seat_one = data(await gql(http, GAME, {"id": game_id, "as": 1}, key=ACME))["game"]
    seat_zero = data(await gql(http, GAME, {"id": game_id}, token=host))["game"]
    assert as_ivy["state"] == seat_one["state"] and as_ivy["state"] != seat_zero["state"]
    code, _ = refusal(await gql(http, GAME, {"id": game_id, "as": 0}, token=ivy))
    assert code == "FORBIDDEN"
    mine = data(await gql(http, MINE, token=ivy))["myGames"]["edges"]
    assert [(e["node"]["id"], e["node"]["viewer"]) for e in mine] == [(game_id, 1)]


async def test_a_player_token_is_no_tenant(http: httpx.AsyncClient) -> None:
    created = await open_game(http, [{"seat": 1}])
    jack = await token_for(http, "jack")
    tenant_only: list[tuple[str, dict[str, Any]]] = [
        (CREATE, {"input": {"kind": "TREELINGS", "players": 2}}),
        (ISSUE, {"player": "jack"}),
        ("query { games { edges { cursor } } }", {}),
    ]
    for document, variables in tenant_only:
        assert refusal(await gql(http, document, variables, token=jack))[0] == "UNAUTHORIZED"
    abandon = "mutation A($id: ID!) { abandonGame(gameId: $id) { ... on MoveRejected { code } } }"
    refused = data(await gql(http, abandon, {"id": created["game"]["id"]}, token=jack))
    assert refused["abandonGame"]["code"] == "UNAUTHORIZED"
    # another tenant's player finds nothing of acme's
    kim = await token_for(http, "kim", key=GLOBEX)
    code, _ = refusal(await gql(http, JOIN, {"code": created["joinCode"]}, token=kim))
    assert code == "NOT_FOUND"
    code, _ = refusal(await gql(http, JOIN, {"id": created["game"]["id"]}, token=kim))
    assert code == "NOT_FOUND"
    assert data(await gql(http, GAME, {"id": created["game"]["id"]}, token=kim))["game"] is None


@pytest.mark.parametrize(
    ("token", "code", "said"),
    [
        (lambda: offline("lee", lifetime=-120, issued=time.time() - 600), "UNAUTHORIZED", "expired"),
        (lambda: offline("lee", key="x" * 45), "UNAUTHORIZED", "signature"),
        (lambda: offline("lee", kid="nobody"), "UNAUTHORIZED", "key id"),
        (lambda: offline("lee", issuer="globex"), "FORBIDDEN", "issuer"),
        (lambda: offline("lee", lifetime=3 * 24 * 3600), "UNAUTHORIZED", "at most"),
        (lambda: offline("lee", kid="rules", key="guessed-" * 6), "UNAUTHORIZED", "signature"),
        (lambda: jwt.encode({"sub": "lee"}, "", algorithm="none"), "UNAUTHORIZED", "key id"),
        (lambda: "eyJ.garbage.here", "UNAUTHORIZED", "header"),
    ],
    ids=["expired", "forged", "unknown-kid", "wrong-tenant", "too-long", "server-kid", "alg-none",
         "garbage"],
)  # fmt: skip
async def test_bad_player_tokens_are_refused_with_their_reason(
    http: httpx.AsyncClient, token: Any, code: str, said: str
) -> None:
    created = await open_game(http, [{"seat": 1}])
    bearer = token()
    found, message = refusal(await gql(http, JOIN, {"code": created["joinCode"]}, token=bearer))
    assert (found, said in message) == (code, True), message
    assert ACME_HS not in message and "secret" not in message
    response = await http.post(
        "/v1/games/join",
        json={"code": created["joinCode"]},
        headers={"authorization": f"Bearer {bearer}"},
    )
    assert response.json()["code"] == code
    assert response.status_code == (401 if code == "UNAUTHORIZED" else 403)


async def test_tokens_minted_offline_join_hs256_and_eddsa(http: httpx.AsyncClient) -> None:
    created = await open_game(http, [{"seat": 1}, {"seat": 2}], players=3)
    game_id = created["game"]["id"]
    hs = offline("mia")
    ed = offline("ned", kid="acme-ed", key=ED_KEY, algorithm="EdDSA")
    assert data(await gql(http, JOIN, {"id": game_id}, token=hs))["joinGame"]["seat"] == 1
    assert data(await gql(http, JOIN, {"id": game_id}, token=ed))["joinGame"]["seat"] == 2


async def test_revoked_tokens_are_refused_on_every_replica(
    http: httpx.AsyncClient, redis_url: str
) -> None:
    created = await open_game(http, [{"seat": 1}])
    old, offline_old = await token_for(http, "olga"), offline("olga", issued=time.time() - 5)
    async with client_for(create_app(SETTINGS, redis_url)) as other:
        data(await gql(other, REVOKE, {"player": "olga"}, key=ACME))
    for token in (old, offline_old):
        code, message = refusal(await gql(http, JOIN, {"code": created["joinCode"]}, token=token))
        assert (code, "revoked" in message) == ("UNAUTHORIZED", True)
    fresh = await token_for(http, "olga")
    assert data(await gql(http, JOIN, {"code": created["joinCode"]}, token=fresh))["joinGame"]


async def test_two_players_for_the_last_seat_on_two_replicas(
    http: httpx.AsyncClient, redis_url: str
) -> None:
    async with client_for(create_app(SETTINGS, redis_url)) as other:
        for round_ in range(8):
            created = await open_game(http, [{"seat": 1}, {"seat": 2}], players=3)
            game_id = created["game"]["id"]
            first = await token_for(http, f"p-{round_}")
            data(await gql(http, JOIN, {"id": game_id}, token=first))
            racers = [await token_for(http, f"r{i}-{round_}") for i in range(2)]
            answers = await asyncio.gather(
                gql(http, JOIN, {"code": created["joinCode"]}, token=racers[0]),
                gql(other, JOIN, {"code": created["joinCode"]}, token=racers[1]),
            )
            won = [a for a in answers if "errors" not in a]
            lost = [refusal(a)[0] for a in answers if "errors" in a]
            assert len(won) == 1 and lost == ["GAME_FULL"], answers
            assert won[0]["data"]["joinGame"]["seat"] == 2
            seats = data(await gql(http, LOBBY, {"id": game_id}, key=ACME))["lobby"]
            assert seats["started"] and seats["openSeats"] == []


async def test_rest_mirrors_tokens_codes_joins_and_the_players_games(
    http: httpx.AsyncClient,
) -> None:
    acme = {"x-api-key": ACME}
    issued = await http.post("/v1/player-tokens", json={"playerId": "pat"}, headers=acme)
    assert issued.status_code == 201 and issued.headers["cache-control"] == "no-store"
    pat = {"authorization": f"Bearer {issued.json()['token']}"}
    created = await http.post(
        "/v1/games",
        json={"kind": "TREELINGS", "players": 2, "openSeats": [{"seat": 0}]},
        headers=acme,
    )
    assert created.status_code == 201, created.text
    code, game_id = created.json()["joinCode"], created.json()["game"]["id"]
    assert [s["seat"] for s in created.json()["seats"]] == [1]
    bad = await http.post("/v1/games/join", json={"code": "0OIL1U"}, headers=pat)
    assert (bad.status_code, bad.json()["code"]) == (422, "BAD_USER_INPUT")
    unknown = await http.post("/v1/games/join", json={"code": "ZZZZZZ"}, headers=pat)
    assert (unknown.status_code, unknown.json()["code"]) == (404, "NOT_FOUND")
    both = await http.post("/v1/games/join", json={"code": code, "gameId": game_id}, headers=pat)
    assert both.status_code == 422
    joined = await http.post("/v1/games/join", json={"code": f"{code[:3]}-{code[3:]}"}, headers=pat)
    assert joined.status_code == 200, joined.text
    assert joined.json()["seat"] == 0 and joined.json()["game"]["viewer"] == 0
    again = await http.post(f"/v1/games/{game_id}/join", headers=pat)
    assert again.json()["seat"] == 0
    lobby = await http.get(f"/v1/games/{game_id}/lobby", headers=pat)
    assert lobby.json()["joinCode"] == code and lobby.json()["started"] is True
    mine = await http.get("/v1/player/games", headers=pat)
    assert [g["id"] for g in mine.json()["games"]] == [game_id]
    no_token = await http.get("/v1/player/games")
    assert (no_token.status_code, no_token.json()["code"]) == (401, "UNAUTHORIZED")
    revoked = await http.post("/v1/player-tokens/revoke", json={"playerId": "pat"}, headers=acme)
    assert revoked.status_code == 200 and revoked.json()["playerId"] == "pat"
    after = await http.get("/v1/player/games", headers=pat)
    assert after.status_code == 401 and "revoked" in after.json()["detail"]


async def test_bad_create_options_for_open_seats_are_typed(http: httpx.AsyncClient) -> None:
    cases: list[tuple[list[dict[str, int]], dict[str, Any]]] = [
        ([{"seat": 5}], {}),
        ([{"seat": 1}, {"seat": 1}], {}),
        ([{"seat": 1}], {"bots": [{"seat": 1, "strategy": "RANDOM"}]}),
        ([{"seat": 1}], {"fillWithBotsAfterSeconds": 0}),
        ([], {"fillWithBotsAfterSeconds": 10}),
    ]
    for open_seats, more in cases:
        body = await gql(
            http,
            CREATE,
            {"input": {"kind": "TREELINGS", "players": 2, "openSeats": open_seats, **more}},
            key=ACME,
        )
        assert refusal(body)[0] == "BAD_USER_INPUT", (open_seats, more)


async def test_open_seats_fill_with_bots_after_the_tenants_wait(http: httpx.AsyncClient) -> None:
    created = await open_game(
        http, [{"seat": 1}], fillWithBotsAfterSeconds=1, fillWithBotsStrategy="RANDOM"
    )
    game_id = created["game"]["id"]

    async def filled() -> bool:
        # a read after the fill time fills the game (as a read applies a due timeout)
        seats = data(await gql(http, SEATS, {"id": game_id}, key=ACME))["game"]["seats"]
        return bool(seats[1]["bot"])

    await until(filled, "the open seat filled with a bot", 30)
    lobby = data(await gql(http, LOBBY, {"id": game_id}, key=ACME))["lobby"]
    assert lobby["started"] and lobby["openSeats"] == []
    late = await token_for(http, "quinn")
    assert refusal(await gql(http, JOIN, {"id": game_id}, token=late))[0] == "GAME_FULL"


async def test_hostile_inputs_are_typed_refusals(http: httpx.AsyncClient) -> None:
    """Bad ids, lifetimes and codes: BAD_USER_INPUT or NOT_FOUND, never a 500."""
    issues: list[dict[str, Any]] = [
        {"player": "x" * 129},
        {"player": ""},
        {"player": "p", "ttl": 10},
    ]
    for variables in issues:
        body = await gql(http, ISSUE, variables, key=ACME)
        assert refusal(body)[0] == "BAD_USER_INPUT", variables
    ruth = await token_for(http, "ruth")
    for variables, code in [
        ({}, "BAD_USER_INPUT"),
        ({"code": "ABC"}, "BAD_USER_INPUT"),
        ({"code": "ÄBCDEF"}, "BAD_USER_INPUT"),
        ({"code": "A" * 10_000}, "BAD_USER_INPUT"),
        ({"code": "22222Z"}, "NOT_FOUND"),
        ({"id": "no-such-game"}, "NOT_FOUND"),
    ]:
        assert refusal(await gql(http, JOIN, variables, token=ruth))[0] == code, variables
    for seat_token in ["0.abc", "eyJhbGciOiJIUzI1NiJ9.e30." + "A" * 5000]:
        assert refusal(await gql(http, MINE, token=seat_token))[0] == "UNAUTHORIZED"


@pytest.mark.slow
async def test_players_racing_for_last_seats_on_two_service_processes(redis_url: str) -> None:
    """The race on two real replicas (processes): per game, one player per replica for the
    last seat, all at once; every game gets exactly one of them, the other GAME_FULL."""
    env = {
        "RULES_API_KEYS": f"acme:{ACME}",
        "RULES_PLAYER_TOKEN_SECRET": SETTINGS.player_token_secret,
        "RULES_RATE_LIMIT_PER_ADDRESS": "0",
    }
    with service_processes(redis_url, 2, env) as bases:
        clients = [httpx.AsyncClient(base_url=base, timeout=60) for base in bases]
        try:
            games = [await open_game(clients[0], [{"seat": 1}]) for _ in range(10)]
            racers = [
                [await token_for(clients[0], f"x{g}-{i}") for i in range(2)] for g in range(10)
            ]
            answers = await asyncio.gather(
                *(
                    gql(clients[i], JOIN, {"code": game["joinCode"]}, token=racers[g][i])
                    for g, game in enumerate(games)
                    for i in range(2)
                )
            )
        finally:
            for client in clients:
                await client.aclose()
    for g in range(10):
        pair = answers[2 * g : 2 * g + 2]
        assert sorted("errors" in a for a in pair) == [False, True], pair
        assert [refusal(a)[0] for a in pair if "errors" in a] == ["GAME_FULL"]


async def test_a_game_nobody_joined_is_not_left_to_bots_alone(http: httpx.AsyncClient) -> None:
    """createGame's rule holds at the fill time too: at least one seat stays human."""
    created = await open_game(http, [{"seat": 0}, {"seat": 1}], fillWithBotsAfterSeconds=1)
    game_id, since = created["game"]["id"], time.time()
    await until(lambda: time.time() > since + 1.2, "the fill time to pass", 30)
    seats = data(await gql(http, SEATS, {"id": game_id}, key=ACME))["game"]["seats"]
    assert [seat["bot"] for seat in seats] == [None, None]
    lobby = data(await gql(http, LOBBY, {"id": game_id}, key=ACME))["lobby"]
    assert not lobby["started"] and len(lobby["openSeats"]) == 2
    late = await token_for(http, "sam")
    assert data(await gql(http, JOIN, {"id": game_id}, token=late))["joinGame"]["seat"] == 0


async def test_a_production_server_without_a_token_secret_issues_none(redis_url: str) -> None:
    """Each replica would draw its own secret: its tokens would fail on the others."""
    settings = dataclasses.replace(SETTINGS, env="production", player_token_secret="")
    async with client_for(create_app(settings, redis_url)) as http:
        code, message = refusal(await gql(http, ISSUE, {"player": "tia"}, key=ACME))
        assert code == "BAD_USER_INPUT" and "RULES_PLAYER_KEYS" in message
        created = await open_game(http, [{"seat": 1}])
        joined = await gql(http, JOIN, {"code": created["joinCode"]}, token=offline("tia"))
        assert data(joined)["joinGame"]["seat"] == 1, "tokens minted offline still work"
