"""The HTTP surface: operational routes, bad requests, the committed SDL, metrics."""

from __future__ import annotations

import httpx

from service.app import create_app
from service.settings import Settings
from service.store.embedded import free_port
from tests.conftest import Api, client_for
from tests.support import gql
from tests.support.play import apply, create


async def test_health_and_readiness(api: Api) -> None:
    assert (await api.http.get("/healthz")).status_code == 200
    ready = await api.http.get("/readyz")
    assert ready.status_code == 200 and ready.text == "ready"


async def test_malformed_json_is_a_400_not_a_500(api: Api) -> None:
    response = await api.http.post(
        "/graphql", content=b'{"query": ', headers={"content-type": "application/json"}
    )
    assert response.status_code == 400


async def test_invalid_graphql_is_a_validation_error(api: Api) -> None:
    response = await api.post("{ game(id: 1) { nope } }")
    assert response.status_code == 200
    assert "nope" in response.json()["errors"][0]["message"]


async def test_oversized_body_is_refused_before_it_is_read(api: Api) -> None:
    big = "x" * (70 * 1024)
    response = await api.post(gql.GAME, {"id": big})
    assert response.status_code == 413
    assert response.json()["errors"][0]["extensions"]["code"] == "PAYLOAD_TOO_LARGE"


async def test_get_answers_queries_and_refuses_mutations(api: Api) -> None:
    """tests/api/graphql/test_persisted_get.py has the rest."""
    response = await api.http.get("/graphql", params={"query": "{ catalog { kind } }"})
    assert response.status_code == 200 and response.json()["data"]["catalog"]
    mutation = 'mutation { resign(gameId: "x") { __typename } }'
    refused = await api.http.get("/graphql", params={"query": mutation})
    assert refused.status_code == 405
    assert refused.json()["errors"][0]["extensions"]["code"] == "METHOD_NOT_ALLOWED"


async def test_metrics_count_moves_and_time_operations(api: Api) -> None:
    game, tokens = await create(api, "TREELINGS", 2, seed="metrics")
    await apply(api, game["id"], tokens[1], {"type": "takeSingletons"})
    response = await api.http.get("/metrics")
    assert response.status_code == 200
    text = response.text
    assert 'rules_moves_total{game="TREELINGS",outcome="NOT_YOUR_TURN"}' in text
    assert 'rules_games_created_total{game="TREELINGS"}' in text
    assert 'rules_request_seconds_count{operation="applyMove"}' in text
    assert 'rules_store_seconds_count{command="load"}' in text
    assert "rules_requests_in_flight" in text
    assert tokens[1] not in text


def _store_calls(text: str) -> dict[str, float]:
    calls: dict[str, float] = {}
    for line in text.splitlines():
        if line.startswith("rules_store_seconds_count"):
            command = line.split('"')[1]
            calls[command] = float(line.rsplit(" ", 1)[1])
    return calls


async def test_an_accepted_move_costs_exactly_two_store_round_trips(api: Api) -> None:
    game, tokens = await create(api, "TREELINGS", 2, seed="two-trips")
    seen = (await api.gql(gql.GAME, {"id": game["id"]}, tokens[0]))["game"]
    before = _store_calls((await api.http.get("/metrics")).text)
    result = await apply(api, game["id"], tokens[0], seen["legalMoves"][0]["move"])
    assert result["__typename"] == "MoveApplied"
    after = _store_calls((await api.http.get("/metrics")).text)
    spent = {k: after[k] - before.get(k, 0) for k in after if after[k] != before.get(k, 0)}
    assert spent == {"load": 1, "commit": 1}


async def test_metrics_have_a_port_of_their_own_and_none_on_the_clients_port_in_production(
    redis_url: str,
) -> None:
    """Per-kind counters are the operator's: with RULES_METRICS_PORT they are served there and
    not on the port clients reach; in production without it, nowhere on that port."""
    port = free_port()
    settings = Settings(env="production", metrics_port=port, rate_limit_per_token=0)
    async with client_for(create_app(settings, redis_url)) as http:
        assert (await http.get("/metrics")).status_code == 404
        async with httpx.AsyncClient() as scraper:
            scraped = await scraper.get(f"http://127.0.0.1:{port}/metrics")
        assert scraped.status_code == 200 and "rules_requests_in_flight" in scraped.text
    production = Settings(env="production", rate_limit_per_token=0)
    async with client_for(create_app(production, redis_url)) as http:
        assert (await http.get("/metrics")).status_code == 404
