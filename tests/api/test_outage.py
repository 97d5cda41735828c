"""A Redis outage: typed UNAVAILABLE answers, a failing /readyz, recovery without a restart.

This test owns a private redis-server (never the shared test one), so it can stop it.
"""

from __future__ import annotations

import time

from service.app import create_app
from service.settings import Settings
from service.store.embedded import EmbeddedRedis
from tests.conftest import Api, client_for
from tests.support import gql
from tests.support.play import create


async def test_requests_during_an_outage_fail_fast_and_typed_then_recover() -> None:
    server = EmbeddedRedis().start()
    try:
        app = create_app(Settings(redis_timeout=1.0), server.url)
        async with client_for(app) as http:
            api = Api(http)
            game, tokens = await create(api, "TREELINGS", 2, seed="outage")
            server.stop()

            started = time.monotonic()
            for query, variables in [
                (gql.GAME, {"id": game["id"]}),
                (gql.APPLY, {"input": {"gameId": game["id"], "move": {"type": "takeSingletons"}}}),
                (gql.CREATE, {"input": {"kind": "TREELINGS", "players": 2}}),
            ]:
                response = await api.post(query, variables, tokens[0])
                body = response.json()
                assert response.status_code == 200
                assert body["errors"][0]["extensions"]["code"] == "UNAVAILABLE", body
                assert "redis://" not in response.text and tokens[0] not in response.text
            assert time.monotonic() - started < 3, "outage answers must come fast"
            assert (await http.get("/readyz")).status_code == 503
            assert (await http.get("/healthz")).status_code == 200

            server.start()
            assert (await http.get("/readyz")).status_code == 200
            again, _ = await create(api, "TREELINGS", 2, seed="after-outage")
            assert again["status"] == "ACTIVE"
    finally:
        server.cleanup()
