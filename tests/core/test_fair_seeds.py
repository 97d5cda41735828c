"""Fair seeds: a commitment at create, the seed revealed only once the game is over,
and the whole game replayed from its public history to the very state the service holds.
The commitment of a client's seed is salted too (a guessable seed gave
every hidden card away), and in production only a tenant's key may choose a seed."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from service.app import create_app
from service.engine import replay
from service.games import games
from service.settings import Settings
from service.store import RedisStore, connect
from service.store.jobs import new_game_id
from service.store.records import record_decoder
from tests.conftest import client_for
from tests.support.play import create_game
from tests.support.tenants import ACME, CREATE, KEYS, post

READ = """
query Read($id: ID!) {
  game(id: $id) {
    kind players status state seedCommitment seedReveal { seed salt options typedOptions { __typename } }
    history { seat move forced event }
  }
}"""
MOVE = """
mutation Move($id: ID!, $move: JSON!) {
  applyMove(input: {gameId: $id, move: $move}) { __typename }
}"""
LEGAL = "query Legal($id: ID!) { game(id: $id) { toAct legalMoves { move } } }"
RESIGN = "mutation R($id: ID!) { resign(gameId: $id) { __typename } }"
VIEW = "query View($id: ID!) { game(id: $id) { state } }"
SEEDED = """
mutation Create($input: CreateGameInput!) {
  createGame(input: $input) { game { id } seats { token } }
}"""
# what an attacker tries first: the README's and the docs' seeds, and the usual suspects
GUESSES = ["hello", "docs", "test", "seed", "s", "0", "1", "42", "fixture", "my-own-seed"]
OLD_RECORD = Path(__file__).parents[1] / "store" / "fixtures" / "treelings-format1.msgpack"


async def _read(http: httpx.AsyncClient, game_id: str, token: str | None = None) -> Any:
    return (await post(http, READ, {"id": game_id}, token=token))["data"]["game"]


@pytest.mark.parametrize("seed", [None, "hello"], ids=["server-seed", "chosen-seed"])
async def test_the_seed_shows_only_at_the_end_and_replays_the_game(
    http: httpx.AsyncClient, seed: str | None
) -> None:
    payload = await create_game(http, document=CREATE, key=ACME, playerIds=[], seed=seed)
    game_id, tokens = payload["game"]["id"], [s["token"] for s in payload["seats"]]
    commitment = (await _read(http, game_id))["seedCommitment"]
    for _ in range(6):  # a few decisions, each by the seat to act
        legal = (await post(http, LEGAL, {"id": game_id}))["data"]["game"]
        seat = legal["toAct"][0]
        moves = (await post(http, LEGAL, {"id": game_id}, token=tokens[seat]))["data"]["game"]
        await post(http, MOVE, {"id": game_id, "move": moves["legalMoves"][0]["move"]},
                   token=tokens[seat])  # fmt: skip
        for token in (None, *tokens):
            assert (await _read(http, game_id, token))["seedReveal"] is None
        rest = (await http.get(f"/v1/games/{game_id}")).json()
        assert rest["seedReveal"] is None and rest["seedCommitment"] == commitment
    assert (await post(http, RESIGN, {"id": game_id}, token=tokens[0]))["data"]["resign"][
        "__typename"
    ] == "MoveApplied"
    over = await _read(http, game_id)
    reveal = over["seedReveal"]
    assert len(reveal["salt"]) == 32  # drawn by the server, whoever chose the seed
    assert seed is None or reveal["seed"] == seed
    assert reveal["typedOptions"] == {"__typename": "TreelingsOptions"}
    assert hashlib.sha256((reveal["salt"] + reveal["seed"]).encode()).hexdigest() == commitment
    game = games()[over["kind"]]
    decisions = [
        (e["seat"], e["move"]) for e in over["history"] if not e["forced"] and e["move"] is not None
    ]
    state = replay(game, over["players"], reveal["options"], reveal["seed"], decisions)
    assert msgspec.to_builtins(game.view(state, None)) == over["state"]


async def test_a_clients_seed_is_committed_salted(http: httpx.AsyncClient) -> None:
    variables = {"input": {"kind": "TREELINGS", "players": 2, "seed": "my-own-seed"}}
    body = await post(http, "mutation C($input: CreateGameInput!) { createGame(input: $input) "
                      "{ game { seedCommitment seedReveal { seed } } } }", variables, ACME)  # fmt: skip
    game = body["data"]["createGame"]["game"]
    assert game["seedCommitment"] != hashlib.sha256(b"my-own-seed").hexdigest()
    assert game["seedReveal"] is None


async def _play(http: httpx.AsyncClient, game_id: str, tokens: list[str], decisions: int) -> None:
    """`decisions` decisions, each the first legal move of the seat to act."""
    for _ in range(decisions):
        seat = (await post(http, LEGAL, {"id": game_id}))["data"]["game"]["toAct"][0]
        moves = (await post(http, LEGAL, {"id": game_id}, token=tokens[seat]))["data"]["game"]
        await post(http, MOVE, {"id": game_id, "move": moves["legalMoves"][0]["move"]},
                   token=tokens[seat])  # fmt: skip


async def _seat_view_by_replay(
    http: httpx.AsyncClient, seed: str, history: list[dict[str, Any]], seat: int
) -> Any:
    """What a spectator who knows `seed` learns: its own game with that seed, the public
    history sent again, and `seat`'s private view of it."""
    payload = await create_game(
        http, document=SEEDED, key=ACME, kind="TREETOPIA", players=2, seed=seed
    )
    copy, tokens = payload["game"]["id"], [s["token"] for s in payload["seats"]]
    for entry in history:
        if not entry["forced"] and entry["move"] is not None:
            await post(http, MOVE, {"id": copy, "move": entry["move"]},
                       token=tokens[entry["seat"]])  # fmt: skip
    return (await post(http, VIEW, {"id": copy}, token=tokens[seat]))["data"]["game"]["state"]


async def _live_game(http: httpx.AsyncClient, seed: str) -> tuple[str, list[str]]:
    payload = await create_game(
        http, document=SEEDED, key=ACME, kind="TREETOPIA", players=2, seed=seed
    )
    game_id, tokens = payload["game"]["id"], [s["token"] for s in payload["seats"]]
    await _play(http, game_id, tokens, 4)
    return game_id, tokens


async def test_a_spectator_cannot_recover_a_chosen_seed_from_its_commitment(
    http: httpx.AsyncClient,
) -> None:
    """The attack: the seed "hello" of a live game guessed from its commitment."""
    game_id, _ = await _live_game(http, "hello")
    seen = await _read(http, game_id)  # a spectator: no token
    commitment = seen["seedCommitment"]
    assert commitment != hashlib.sha256(b"hello").hexdigest()
    guessed = [g for g in GUESSES if hashlib.sha256(g.encode()).hexdigest() == commitment]
    assert guessed == [], "the commitment gives the seed away"
    assert seen["seedReveal"] is None


async def test_whoever_knows_the_seed_knows_every_hidden_card(http: httpx.AsyncClient) -> None:
    """Why the commitment must not give the seed away (docs/security.md): with it, a replay
    of the public history shows seat 1's private view exactly as the real seat sees it."""
    game_id, tokens = await _live_game(http, "hello")
    history = (await _read(http, game_id))["history"]
    real = (await post(http, VIEW, {"id": game_id}, token=tokens[1]))["data"]["game"]["state"]
    spectator = (await post(http, VIEW, {"id": game_id}))["data"]["game"]["state"]
    assert real != spectator, "seat 1 has hidden cards"
    assert await _seat_view_by_replay(http, "hello", history, 1) == real


async def test_an_earlier_releases_unsalted_record_still_verifies(
    http: httpx.AsyncClient, redis_url: str
) -> None:
    """A record written before every seed was salted keeps its salt "" and still checks out."""
    old = msgspec.structs.replace(record_decoder.decode(OLD_RECORD.read_bytes()), finished=True)
    assert old.salt == ""
    settings = Settings()
    store = RedisStore(connect(settings, redis_url), settings)
    game_id = new_game_id()
    try:
        assert await store.create(game_id, old, [])
    finally:
        await store.close()
    seen = await _read(http, game_id)
    reveal = seen["seedReveal"]
    assert reveal["salt"] == "" and reveal["seed"] == old.seed
    assert old.options is None and reveal["typedOptions"] is None  # its options were not kept
    assert hashlib.sha256(reveal["seed"].encode()).hexdigest() == seen["seedCommitment"]


CREATE_REST = {"kind": "TREELINGS", "players": 2, "seed": "hello"}


async def _create_both_ways(http: httpx.AsyncClient, key: str | None) -> tuple[Any, Any]:
    """createGame with a seed over GraphQL (its answer) and REST (the response)."""
    headers = {"x-api-key": key} if key else {}
    variables = {"input": CREATE_REST}
    graphql = await http.post(
        "/graphql", json={"query": SEEDED, "variables": variables}, headers=headers
    )
    return graphql.json(), await http.post("/v1/games", json=CREATE_REST, headers=headers)


async def test_production_takes_a_chosen_seed_from_a_tenants_key_only(redis_url: str) -> None:
    open_server = Settings(env="production", rate_limit_per_token=0, rate_limit_per_address=0)
    async with client_for(create_app(open_server, redis_url)) as http:
        graphql, rest = await _create_both_ways(http, None)
        assert graphql["data"] is None
        (error,) = graphql["errors"]
        assert error["extensions"]["code"] == "BAD_USER_INPUT"
        assert "API key" in error["message"] and "leave `seed` out" in error["message"]
        assert rest.status_code == 422 and rest.json()["code"] == "BAD_USER_INPUT"
        assert rest.headers["content-type"] == "application/problem+json"
        # without a seed anyone may still create here
        unseeded = await http.post("/v1/games", json={"kind": "TREELINGS", "players": 2})
        assert unseeded.status_code == 201
    keyed = Settings(
        env="production", api_keys=KEYS, rate_limit_per_token=0, rate_limit_per_address=0
    )
    async with client_for(create_app(keyed, redis_url)) as http:
        graphql, rest = await _create_both_ways(http, ACME)
        assert "errors" not in graphql and graphql["data"]["createGame"]["game"]["id"]
        assert rest.status_code == 201
        graphql, rest = await _create_both_ways(http, None)
        assert graphql["errors"][0]["extensions"]["code"] == "UNAUTHORIZED"
        assert rest.status_code == 401


async def test_development_lets_anyone_choose_a_seed(redis_url: str) -> None:
    """`make run` and the README's examples: no key, a chosen seed."""
    settings = Settings(rate_limit_per_token=0, rate_limit_per_address=0)
    async with client_for(create_app(settings, redis_url)) as http:
        graphql, rest = await _create_both_ways(http, None)
        assert "errors" not in graphql and rest.status_code == 201
