"""Fair seeds (issue 19): a commitment at create, the seed revealed only once the game is over,
and the whole game replayed from its public history to the very state the service holds."""

from __future__ import annotations

import hashlib
from typing import Any

import httpx
import msgspec

from service.engine import replay
from service.games import games
from tests.support.play import create_game
from tests.support.tenants import ACME, CREATE, post

READ = """
query Read($id: ID!) {
  game(id: $id) {
    kind players status state seedCommitment seedReveal { seed salt options }
    history { seat move forced event }
  }
}"""
MOVE = """
mutation Move($id: ID!, $move: JSON!) {
  applyMove(input: {gameId: $id, move: $move}) { __typename }
}"""
LEGAL = "query Legal($id: ID!) { game(id: $id) { toAct legalMoves { move } } }"
RESIGN = "mutation R($id: ID!) { resign(gameId: $id) { __typename } }"


async def _read(http: httpx.AsyncClient, game_id: str, token: str | None = None) -> Any:
    return (await post(http, READ, {"id": game_id}, token=token))["data"]["game"]


async def test_the_seed_shows_only_at_the_end_and_replays_the_game(
    http: httpx.AsyncClient,
) -> None:
    payload = await create_game(http, document=CREATE, key=ACME, playerIds=[])
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
    assert len(reveal["salt"]) == 32  # the server drew the seed, so it salted the commitment
    assert hashlib.sha256((reveal["salt"] + reveal["seed"]).encode()).hexdigest() == commitment
    game = games()[over["kind"]]
    decisions = [
        (e["seat"], e["move"]) for e in over["history"] if not e["forced"] and e["move"] is not None
    ]
    state = replay(game, over["players"], reveal["options"], reveal["seed"], decisions)
    assert msgspec.to_builtins(game.view(state, None)) == over["state"]


async def test_a_clients_seed_is_committed_unsalted(http: httpx.AsyncClient) -> None:
    variables = {"input": {"kind": "TREELINGS", "players": 2, "seed": "my-own-seed"}}
    body = await post(http, "mutation C($input: CreateGameInput!) { createGame(input: $input) "
                      "{ game { seedCommitment seedReveal { seed } } } }", variables, ACME)  # fmt: skip
    game = body["data"]["createGame"]["game"]
    assert game["seedCommitment"] == hashlib.sha256(b"my-own-seed").hexdigest()
    assert game["seedReveal"] is None
