"""A game waiting for players is filled with bots at its tenant's time by the workers' clock
sweep, with nobody reading it (service/core/players/lobby.py, `fill_with_bots`): with a turn
clock (its fill time in the index's clock set) and without one (put there at create); then
its clock starts and the bots play their turns."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

from service.app import create_app
from service.settings import Settings
from service.store import indexes
from service.store.jobs import lane_of
from tests.conftest import client_for
from tests.support.waiting import until
from tests.support.workers import worker_process

pytestmark = pytest.mark.slow

KEY = "fill-secret"
CREATE = """
mutation Create($input: CreateGameInput!) { createGame(input: $input) { game { id } } }"""
LOBBY = "query L($id: ID!) { lobby(gameId: $id) { started openSeats { seat } } }"
GAME = "query G($id: ID!) { game(id: $id) { version seats { seat bot } clock { seat deadline } } }"


@pytest.mark.parametrize("clock", [None, {"perDecisionSeconds": 600}], ids=["no-clock", "clock"])
async def test_the_sweep_fills_open_seats_with_bots_and_starts_the_game(
    redis_url: str, clock: dict[str, int] | None
) -> None:
    settings = Settings(api_keys=(f"filler:{KEY}",), rate_limit_per_address=0)
    headers = {"x-api-key": KEY}
    with worker_process(redis_url, RULES_API_KEYS=f"filler:{KEY}"):
        async with client_for(create_app(settings, redis_url)) as http:

            async def gql(query: str, variables: dict[str, object]) -> dict[str, object]:
                answer = await http.post(
                    "/graphql", json={"query": query, "variables": variables}, headers=headers
                )
                body = answer.json()
                assert "errors" not in body, body
                data: dict[str, object] = body["data"]
                return data

            created = await gql(
                CREATE,
                {
                    "input": {
                        "kind": "TREELINGS",
                        "players": 3,
                        "openSeats": [{"seat": 1}, {"seat": 2}],
                        "fillWithBotsAfterSeconds": 1,
                        "fillWithBotsStrategy": "RANDOM",
                        "clock": clock,
                    }
                },
            )
            game_id = created["createGame"]["game"]["id"]  # type: ignore[index]

            async def started() -> bool:
                # the lobby reads the record without applying anything due: only a worker fills
                lobby = (await gql(LOBBY, {"id": game_id}))["lobby"]
                return bool(lobby["started"])  # type: ignore[index]

            await until(started, "the sweep to fill the open seats", 60)
            game = (await gql(GAME, {"id": game_id}))["game"]
            bots = [seat["bot"] for seat in game["seats"]]  # type: ignore[index]
            assert bots == [None, "RANDOM", "RANDOM"]
            if clock is not None:
                assert game["clock"]["deadline"] is not None  # type: ignore[index]


async def test_an_abandoned_waiting_game_leaves_the_clock_set(redis_url: str) -> None:
    """Its fill time was put in the clock set at create; no commit of a clock takes it out."""
    settings = Settings(api_keys=(f"filler:{KEY}",), rate_limit_per_address=0)
    headers = {"x-api-key": KEY}
    with worker_process(redis_url, RULES_API_KEYS=f"filler:{KEY}"):
        async with client_for(create_app(settings, redis_url)) as http:
            answer = await http.post(
                "/v1/games",
                json={
                    "kind": "TREELINGS",
                    "players": 2,
                    "openSeats": [{"seat": 1}],
                    "fillWithBotsAfterSeconds": 1,
                },
                headers=headers,
            )
            game_id = answer.json()["game"]["id"]
            key = indexes.clock_key(lane_of(game_id), "filler")
            redis = Redis.from_url(redis_url)
            try:
                assert await redis.zscore(key, game_id) is not None
                abandoned = await http.post(f"/v1/games/{game_id}/abandon", headers=headers)
                assert abandoned.status_code == 200, abandoned.text

                async def unclocked() -> bool:
                    return await redis.zscore(key, game_id) is None

                await until(unclocked, "the sweep to drop the abandoned game's entry", 60)
            finally:
                await redis.aclose()
