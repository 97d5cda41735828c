"""Matchmaking with a player token (docs/api.md, "Matchmaking"), through the real ASGI app on a
real Redis: the token's own player enters, sees its status, leaves, follows `playerEvents`
until matched and plays its seat with the same token; another player's id is FORBIDDEN and
tells nothing of that player; another tenant's pools are out of reach; a revoked token is
refused everywhere. The window's rating: the player's mu from the ratings (a real PostgreSQL,
as tests/ratings use), never one a player token sends, and the neutral one, quickly, when
PostgreSQL does not answer."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from starlette.types import ASGIApp, Message

from service import metrics
from service.app import create_app
from service.archive.database import open_pool
from service.core.lobby.lobby import RATING_READ_SECONDS
from service.ratings.ledger import Ledger
from service.ratings.standings import Standing
from service.settings import Settings
from service.store.embedded import free_port
from tests.conftest import client_for
from tests.support import gql

WAIT = 30.0
ENTER = """
mutation Enter($input: MatchmakingInput!) {
  enterMatchmaking(input: $input) { playerId state kind players rating gameId seat seatToken }
}"""
LEAVE = "mutation Leave($p: String) { leaveMatchmaking(playerId: $p) { playerId state } }"
STATUS = "query Status($p: String) { matchmaking(playerId: $p) { playerId state rating } }"
EVENTS = """subscription Events($p: String) {
  playerEvents(playerId: $p) { playerId state gameId seat seatToken type }
}"""
CHALLENGE = (
    """mutation C($input: ChallengeInput!) { createChallenge(input: $input) { game { id } } }"""
)


@dataclass
class Server:
    app: ASGIApp
    http: httpx.AsyncClient
    tenants: list[str]
    keys: list[str]  # the tenants' API keys, in the same order

    async def token(self, player: str, tenant: int = 0) -> str:
        answer = await self.http.post(
            "/v1/player-tokens", json={"playerId": player}, headers={"x-api-key": self.keys[tenant]}
        )
        assert answer.status_code == 201, answer.text
        token: str = answer.json()["token"]
        return token

    async def gql(
        self,
        query: str,
        variables: dict[str, Any],
        token: str | None = None,
        key: str | None = None,
    ) -> dict[str, Any]:
        answer = await self.http.post(
            "/graphql", json={"query": query, "variables": variables}, headers=_auth(token, key)
        )
        assert answer.status_code == 200, answer.text
        body: dict[str, Any] = answer.json()
        return body


def _auth(token: str | None = None, key: str | None = None) -> dict[str, str]:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    return {**headers, "x-api-key": key} if key else headers


def fresh_settings(**more: Any) -> tuple[Settings, list[str], list[str]]:
    """Two tenants of the test's own: their pools are empty whoever shares the Redis."""
    suffix = secrets.token_hex(4)
    tenants, keys = [f"pt-a{suffix}", f"pt-b{suffix}"], [f"ka-{suffix}", f"kb-{suffix}"]
    settings = Settings(
        api_keys=tuple(f"{t}:{k}" for t, k in zip(tenants, keys, strict=True)),
        rate_limit_per_token=0,
        rate_limit_per_address=0,
        **more,
    )
    return settings, tenants, keys


@pytest.fixture
async def server(redis_url: str) -> AsyncIterator[Server]:
    settings, tenants, keys = fresh_settings()
    app = create_app(settings, redis_url)
    async with client_for(app) as http:
        yield Server(app, http, tenants, keys)


def seek(**more: Any) -> dict[str, Any]:
    return {"kind": "TREETOPIA", "players": 2, **more}


def errors_code(body: dict[str, Any]) -> str:
    code: str = body["errors"][0]["extensions"]["code"]
    return code


class Socket:
    """A graphql-transport-ws socket on the ASGI app, driven by hand (httpx speaks no
    websockets): the player token in connection_init, as a browser sends it."""

    def __init__(self, app: ASGIApp) -> None:
        self.incoming: asyncio.Queue[Message] = asyncio.Queue()
        self.outgoing: asyncio.Queue[Message] = asyncio.Queue()
        scope = {
            "type": "websocket", "asgi": {"version": "3.0"}, "http_version": "1.1",
            "scheme": "ws", "path": "/graphql", "raw_path": b"/graphql", "query_string": b"",
            "root_path": "", "client": ("127.0.0.1", 4321), "server": ("test", 80),
            "headers": [(b"host", b"test"), (b"sec-websocket-protocol", b"graphql-transport-ws")],
            "subprotocols": ["graphql-transport-ws"], "state": {},
        }  # fmt: skip
        self.task = asyncio.ensure_future(app(scope, self.incoming.get, self.outgoing.put))

    async def open(self, token: str) -> None:
        await self.incoming.put({"type": "websocket.connect"})
        assert (await self._message())["type"] == "websocket.accept"
        await self.send(
            {"type": "connection_init", "payload": {"authorization": f"Bearer {token}"}}
        )
        assert (await self.receive())["type"] == "connection_ack"

    async def subscribe(self, variables: dict[str, Any]) -> None:
        payload = {"query": EVENTS, "variables": variables}
        await self.send({"id": "1", "type": "subscribe", "payload": payload})

    async def send(self, message: dict[str, Any]) -> None:
        await self.incoming.put({"type": "websocket.receive", "text": json.dumps(message)})

    async def receive(self) -> dict[str, Any]:
        message = await self._message()
        assert message["type"] == "websocket.send", message
        received: dict[str, Any] = json.loads(message["text"])
        return received

    async def status(self) -> dict[str, Any]:
        message = await self.receive()
        assert message["type"] == "next" and "errors" not in message["payload"], message
        status: dict[str, Any] = message["payload"]["data"]["playerEvents"]
        return status

    async def _message(self) -> Message:
        return await asyncio.wait_for(self.outgoing.get(), WAIT)

    async def close(self) -> None:
        await self.incoming.put({"type": "websocket.disconnect", "code": 1000})
        await asyncio.wait_for(self.task, WAIT)


async def test_a_player_token_enters_leaves_is_matched_and_plays_its_seat_with_the_same_token(
    server: Server,
) -> None:
    ann, bob = f"ann-{secrets.token_hex(3)}", f"bob-{secrets.token_hex(3)}"
    ann_token, bob_token = await server.token(ann), await server.token(bob)

    entered = await server.gql(ENTER, {"input": seek()}, ann_token)  # no playerId: its own
    assert entered["data"]["enterMatchmaking"]["playerId"] == ann
    assert entered["data"]["enterMatchmaking"]["state"] == "WAITING"
    mine = await server.http.get("/v1/player/matchmaking", headers=_auth(ann_token))
    assert mine.status_code == 200 and mine.json()["state"] == "WAITING", mine.text
    assert mine.json()["playerId"] == ann
    named = await server.http.get(f"/v1/matchmaking/{ann}", headers=_auth(ann_token))
    assert named.json()["state"] == "WAITING"
    asked = await server.gql(STATUS, {}, ann_token)
    assert asked["data"]["matchmaking"] == {"playerId": ann, "state": "WAITING", "rating": 25.0}
    left = await server.http.delete("/v1/matchmaking", headers=_auth(ann_token))
    assert left.status_code == 200 and left.json()["state"] == "NONE", left.text

    socket = Socket(server.app)
    try:
        await socket.open(ann_token)
        await socket.subscribe({})
        now = await socket.status()
        assert (now["state"], now["type"]) == ("NONE", None)
        again = await server.http.post("/v1/matchmaking", json=seek(), headers=_auth(ann_token))
        assert again.status_code == 200 and again.json()["state"] == "WAITING", again.text
        matched = await server.gql(ENTER, {"input": seek(playerId=bob)}, bob_token)
        rival = matched["data"]["enterMatchmaking"]
        assert rival["state"] == "MATCHED", matched
        told = await socket.status()
        assert told["state"] == "MATCHED" and told["playerId"] == ann
        assert told["gameId"] == rival["gameId"] and told["seat"] == 1 - rival["seat"]
        assert told["type"] == "MATCHED" and told["seatToken"]
        asked = {"kind": "TREELINGS", "opponents": [ann]}
        challenged = await server.gql(CHALLENGE, {"input": asked}, bob_token)
        news = await socket.status()  # typed apart: no match, no seat token
        assert (news["type"], news["seat"], news["seatToken"]) == ("CHALLENGE_RECEIVED", 1, None)
        assert news["gameId"] == challenged["data"]["createChallenge"]["game"]["id"]
    finally:
        await socket.close()

    game_id, tokens = told["gameId"], {told["seat"]: ann_token, rival["seat"]: bob_token}
    for _ in range(20):  # bob's decisions first if its seat starts, then ann's own
        seen = (await server.gql(gql.GAME, {"id": game_id}, ann_token))["data"]["game"]
        assert seen["viewer"] == told["seat"], seen  # the player token is its seat
        acting = seen["toAct"][0]
        own = (await server.gql(gql.GAME, {"id": game_id}, tokens[acting]))["data"]["game"]
        move = own["legalMoves"][0]["move"]
        applied = await server.gql(
            gql.APPLY,
            {"input": {"gameId": game_id, "move": move, "expectedVersion": own["version"]}},
            tokens[acting],
        )
        assert applied["data"]["applyMove"]["__typename"] == "MoveApplied", applied
        if acting == told["seat"]:
            break
    else:
        pytest.fail("ann's seat never came to act")


async def test_another_players_id_with_my_token_is_forbidden_and_tells_nothing_of_it(
    server: Server,
) -> None:
    me, other = f"me-{secrets.token_hex(3)}", f"other-{secrets.token_hex(3)}"
    token = await server.token(me)
    key = server.keys[0]
    waiting = await server.http.post(
        "/v1/matchmaking", json=seek(playerId=other, rating=-40.0), headers={"x-api-key": key}
    )
    assert waiting.json()["state"] == "WAITING"
    http, headers = server.http, _auth(token)

    for answer in (
        await http.post("/v1/matchmaking", json=seek(playerId=other), headers=headers),
        await http.delete("/v1/matchmaking", params={"playerId": other}, headers=headers),
        await http.get(f"/v1/matchmaking/{other}", headers=headers),
        await http.get(f"/v1/players/{other}/events", headers=headers),
    ):
        assert answer.status_code == 403 and answer.json()["code"] == "FORBIDDEN", answer.text
        assert "own player" in answer.json()["detail"] and "WAITING" not in answer.text
    for query, variables in (
        (ENTER, {"input": seek(playerId=other)}),
        (LEAVE, {"p": other}),
        (STATUS, {"p": other}),
    ):
        body = await server.gql(query, variables, token)
        assert errors_code(body) == "FORBIDDEN" and body["data"] is None, body
    socket = Socket(server.app)
    try:
        await socket.open(token)
        await socket.subscribe({"p": other})
        refused = await socket.receive()
        assert refused["type"] == "next", refused
        assert refused["payload"]["errors"][0]["extensions"]["code"] == "FORBIDDEN"
    finally:
        await socket.close()
    still = await http.get(f"/v1/matchmaking/{other}", headers={"x-api-key": key})
    assert still.json()["state"] == "WAITING"  # nothing of it was changed
    own = await server.gql(STATUS, {"p": me}, token)  # its own id given: allowed
    assert own["data"]["matchmaking"]["state"] == "NONE"


async def test_a_player_token_reaches_only_its_own_tenants_pools(server: Server) -> None:
    sam = f"sam-{secrets.token_hex(3)}"
    other_key = server.keys[1]
    theirs = await server.http.post(  # the other tenant's player of the same id, rating 25
        "/v1/matchmaking", json=seek(playerId=sam), headers={"x-api-key": other_key}
    )
    assert theirs.json()["state"] == "WAITING"
    token = await server.token(sam)  # the first tenant's sam
    mine = await server.http.get("/v1/player/matchmaking", headers=_auth(token))
    assert (mine.json()["playerId"], mine.json()["state"]) == (sam, "NONE")
    gone = await server.http.delete("/v1/matchmaking", headers=_auth(token))
    assert gone.status_code == 409 and gone.json()["code"] == "NOT_QUEUED"
    tia = await server.token(f"tia-{secrets.token_hex(3)}")
    alone = await server.http.post("/v1/matchmaking", json=seek(), headers=_auth(tia))
    assert alone.json()["state"] == "WAITING"  # the same pool and rating, another tenant
    kept = await server.http.get(f"/v1/matchmaking/{sam}", headers={"x-api-key": other_key})
    assert kept.json()["state"] == "WAITING"
    both = await server.http.get(  # a token and another tenant's key: the token's player
        "/v1/matchmaking/" + sam, headers=_auth(token, other_key)
    )
    assert both.json()["state"] == "NONE"


async def test_a_revoked_token_is_refused_by_every_matchmaking_operation(server: Server) -> None:
    rae = f"rae-{secrets.token_hex(3)}"
    token = await server.token(rae)
    entered = await server.http.post("/v1/matchmaking", json=seek(), headers=_auth(token))
    assert entered.json()["state"] == "WAITING"
    revoked = await server.http.post(
        "/v1/player-tokens/revoke", json={"playerId": rae}, headers={"x-api-key": server.keys[0]}
    )
    assert revoked.status_code == 200, revoked.text
    http, headers = server.http, _auth(token)

    for answer in (
        await http.post("/v1/matchmaking", json=seek(), headers=headers),
        await http.delete("/v1/matchmaking", headers=headers),
        await http.get(f"/v1/matchmaking/{rae}", headers=headers),
        await http.get("/v1/player/matchmaking", headers=headers),
        await http.get(f"/v1/players/{rae}/events", headers=headers),
    ):
        assert answer.status_code == 401 and answer.json()["code"] == "UNAUTHORIZED", answer.text
        assert "revoked" in answer.json()["detail"]
    for query, variables in ((ENTER, {"input": seek()}), (LEAVE, {}), (STATUS, {})):
        body = await server.gql(query, variables, token)
        assert errors_code(body) == "UNAUTHORIZED", body
        assert "revoked" in body["errors"][0]["message"]
    socket = Socket(server.app)
    try:
        await socket.open(token)
        await socket.subscribe({})
        refused = await socket.receive()
        assert refused["payload"]["errors"][0]["extensions"]["code"] == "UNAUTHORIZED", refused
    finally:
        await socket.close()
    still = await http.get(f"/v1/matchmaking/{rae}", headers={"x-api-key": server.keys[0]})
    assert still.json()["state"] == "WAITING"  # the refused leave changed nothing


async def test_the_tenants_key_still_names_the_player_and_nobody_else_may_ask(
    server: Server,
) -> None:
    key = server.keys[0]
    nameless = await server.http.post("/v1/matchmaking", json=seek(), headers={"x-api-key": key})
    assert nameless.status_code == 422 and nameless.json()["code"] == "BAD_USER_INPUT"
    assert "playerId" in nameless.json()["detail"]
    body = await server.gql(STATUS, {}, key=key)
    assert errors_code(body) == "BAD_USER_INPUT", body
    nobody = await server.http.get("/v1/player/matchmaking")
    assert nobody.status_code == 401 and nobody.json()["code"] == "UNAUTHORIZED"
    french = await server.http.delete("/v1/matchmaking", headers={"accept-language": "fr"})
    assert french.status_code == 401 and "jeton du joueur" in french.text


def _counted(outcome: str) -> float:
    value: float = metrics.MATCHMAKING_RATINGS.labels(outcome)._value.get()
    return value


async def test_a_postgresql_that_does_not_answer_leaves_the_neutral_rating_quickly(
    redis_url: str,
) -> None:
    # a pool that would wait 60 s for a connection: the seek waits RATING_READ_SECONDS
    dead = f"postgresql://nobody@127.0.0.1:{free_port()}/none"
    settings, _, keys = fresh_settings(database_url=dead, redis_timeout=30.0)
    async with client_for(create_app(settings, redis_url)) as http:
        unavailable = _counted("unavailable")
        headers = {"x-api-key": keys[0]}
        started = time.monotonic()
        first = await asyncio.wait_for(
            http.post("/v1/matchmaking", json=seek(playerId="uma"), headers=headers), WAIT
        )
        assert first.status_code == 200 and first.json()["rating"] == 25.0, first.text
        assert time.monotonic() - started < 10 * RATING_READ_SECONDS
        second = await http.post(
            "/v1/matchmaking", json=seek(playerId="vic", players=3), headers=headers
        )
        assert second.json()["state"] == "WAITING" and second.json()["rating"] == 25.0
        assert _counted("unavailable") == unavailable + 2


@dataclass
class Rated:
    server: Server
    ledger: Ledger


@pytest.fixture
async def rated(redis_url: str, database_url: str) -> AsyncIterator[Rated]:
    """The app on the real PostgreSQL (migrated as a worker opens it), its first tenant's ann
    and bob rated by one TREETOPIA game ann won."""
    settings, tenants, keys = fresh_settings(database_url=database_url)
    pool = await open_pool(database_url)
    try:
        ledger = Ledger(pool)
        won = Standing(
            game_id=f"won-{secrets.token_hex(4)}", tenant=tenants[0], kind="TREETOPIA",
            teams=[["ann"], ["bob"]], ranks=[1, 2], takebacks=0, excluded=None,
        )  # fmt: skip
        assert await ledger.record(won) == ("RATED", "")
        app = create_app(settings, redis_url)
        async with client_for(app) as http:
            yield Rated(Server(app, http, tenants, keys), ledger)
    finally:
        await pool.close()


async def test_the_window_takes_the_players_mu_from_the_ratings_never_a_player_tokens_own(
    rated: Rated,
) -> None:
    server, tenant = rated.server, rated.server.tenants[0]
    (ann,) = await rated.ledger.ratings(tenant, "ann", "TREETOPIA")
    (bob,) = await rated.ledger.ratings(tenant, "bob", "TREETOPIA")
    assert ann.mu > 25.0 > bob.mu
    counted = _counted("rated"), _counted("unrated")

    token = await server.token("ann")
    sent = await server.gql(ENTER, {"input": seek(rating=1000.0)}, token)  # ignored
    assert sent["data"]["enterMatchmaking"]["rating"] == ann.mu, sent
    key = {"x-api-key": server.keys[0]}
    by_key = await server.http.post(
        "/v1/matchmaking", json=seek(playerId="bob", players=3), headers=key
    )
    assert by_key.json()["rating"] == bob.mu  # no rating given: the ledger's
    given = await server.http.post(
        "/v1/matchmaking", json=seek(playerId="cyd", players=4, rating=12.5), headers=key
    )
    assert given.json()["rating"] == 12.5  # the tenant may still give one
    newcomer = await server.token("dee")
    fresh = await server.http.post(
        "/v1/matchmaking", json=seek(kind="TREELINE"), headers=_auth(newcomer)
    )
    assert fresh.json()["rating"] == 25.0  # not rated yet: the neutral rating
    assert (_counted("rated"), _counted("unrated")) == (counted[0] + 2, counted[1] + 1)
    elsewhere = await server.token("ann", tenant=1)  # the other tenant's ann is not rated
    theirs = await server.http.post("/v1/matchmaking", json=seek(), headers=_auth(elsewhere))
    assert theirs.json()["rating"] == 25.0
