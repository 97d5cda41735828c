"""Locust scenarios for a hosted deployment: players who create games and play them to the
end over GraphQL, as an app would. See docs/performance.md for the commands.

Each simulated user holds every seat token of its own game. A turn is: read the game as the
seat to act (`game (read)`), think, send one of the listed moves (`applyMove`) with its
expectedVersion and an idempotency key. At the end it reads the final scores and history
(`game (final)`) and starts a new game (`createGame`). Request names are per operation, so
Locust's tables and CSV files have one row each.

    locust -f loadtests/locustfile.py --host https://rules.example.com \\
        --headless -u 50 -r 5 -t 5m --csv loadtests/results/locust --html loadtests/results/locust.html

Environment: RULES_LOAD_API_KEY is sent as X-API-Key (needed where RULES_API_KEYS is set);
RULES_LOAD_KINDS limits the game kinds (comma-separated GameKind values);
RULES_LOAD_THINK is the think time range in seconds between decisions (default "0.2,1.0").
"""

from __future__ import annotations

import os
import random
import secrets
from typing import Any

from locust import between, task
from locust.contrib.fasthttp import FastHttpUser

KINDS = ("TREELINE", "TREELINGS", "TREETOPIA", "TREE_LINED_AVENUE")
PLAYERS = {
    "TREELINE": (2, 4),
    "TREELINGS": (2, 4),
    "TREETOPIA": (2, 4),
    "TREE_LINED_AVENUE": (2, 4),
}
MAX_DECISIONS = 2000  # a game longer than this is abandoned (a bounded loop)

GAME_FIELDS = "id kind version status toAct viewer state legalMoves { move label }"
CREATE = f"""mutation Create($input: CreateGameInput!) {{
  createGame(input: $input) {{ game {{ {GAME_FIELDS} }} seats {{ seat token }} }}
}}"""
READ = f"query Game($id: ID!) {{ game(id: $id) {{ {GAME_FIELDS} }} }}"
APPLY = f"""mutation Apply($input: ApplyMoveInput!) {{
  applyMove(input: $input) {{
    __typename
    ... on MoveApplied {{ replayed game {{ {GAME_FIELDS} }} }}
    ... on MoveRejected {{ code message currentVersion }}
  }}
}}"""
FINAL = """query Final($id: ID!) { game(id: $id) { status version
  scores { final winners entries { seat points breakdown tiebreak } }
  history { version seat label forced } } }"""


def _kinds() -> list[str]:
    raw = os.environ.get("RULES_LOAD_KINDS", "")
    chosen = [k.strip() for k in raw.split(",") if k.strip()]
    unknown = set(chosen) - set(KINDS)
    if unknown:
        raise ValueError(f"RULES_LOAD_KINDS: unknown kinds {sorted(unknown)}")
    return chosen or list(KINDS)


def _think() -> tuple[float, float]:
    low, _, high = os.environ.get("RULES_LOAD_THINK", "0.2,1.0").partition(",")
    return float(low), float(high or low)


class GraphQLError(Exception):
    pass


class Player(FastHttpUser):
    """One app user at a time playing a whole game, every seat, over GraphQL."""

    wait_time = between(*_think())

    def on_start(self) -> None:
        self.chooser = random.Random()
        self.kinds = _kinds()
        self.api_key = os.environ.get("RULES_LOAD_API_KEY", "")
        self.game: dict[str, Any] | None = None
        self.tokens: list[str] = []
        self.decisions = 0

    def gql(
        self, name: str, query: str, variables: dict[str, Any], token: str | None = None
    ) -> dict[str, Any]:
        headers = {"content-type": "application/json"}
        if token:
            headers["authorization"] = f"Bearer {token}"
        if self.api_key:
            headers["x-api-key"] = self.api_key
        with self.client.post(
            "/graphql",
            json={"query": query, "variables": variables},
            headers=headers,
            name=name,
            catch_response=True,
        ) as response:
            if response.status_code != 200:
                response.failure(f"HTTP {response.status_code}: {(response.text or '')[:200]}")
                raise GraphQLError(name)
            body = response.json()
            if body.get("errors"):
                response.failure(f"GraphQL errors: {str(body['errors'])[:200]}")
                raise GraphQLError(name)
            data: dict[str, Any] = body["data"]
            applied = data.get("applyMove")
            if applied is not None and applied["__typename"] != "MoveApplied":
                response.failure(f"move rejected: {applied.get('code')} {applied.get('message')}")
                raise GraphQLError(name)
            return data

    def new_game(self) -> None:
        kind = self.chooser.choice(self.kinds)
        low, high = PLAYERS[kind]
        players = self.chooser.randint(low, high)
        data = self.gql("createGame", CREATE, {"input": {"kind": kind, "players": players}})[
            "createGame"
        ]
        self.game = data["game"]
        self.tokens = [seat["token"] for seat in data["seats"]]
        self.decisions = 0

    @task
    def decide(self) -> None:
        try:
            if self.game is None or self.decisions >= MAX_DECISIONS:
                self.new_game()
            assert self.game is not None
            if self.game["status"] != "ACTIVE":
                self.gql("game (final)", FINAL, {"id": self.game["id"]})
                self.new_game()
                return
            self.turn(self.game)
        except GraphQLError:
            self.game = None  # start afresh; the failure is already counted

    def turn(self, game: dict[str, Any]) -> None:
        seat = self.chooser.choice(game["toAct"])
        seen = self.gql("game (read)", READ, {"id": game["id"]}, self.tokens[seat])["game"]
        if not seen["legalMoves"]:
            self.game = seen
            return
        move = self.chooser.choice(seen["legalMoves"])["move"]
        variables = {
            "input": {
                "gameId": game["id"],
                "move": move,
                "expectedVersion": seen["version"],
                "idempotencyKey": secrets.token_hex(8),
            }
        }
        result = self.gql("applyMove", APPLY, variables, self.tokens[seat])["applyMove"]
        self.decisions += 1
        self.game = result["game"]
