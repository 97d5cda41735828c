"""openapi-python-client generates a client from schema/openapi.json as committed (no edits),
and a whole game of each kind is played through the generated code, as is docs/api.md's
example of it."""

from __future__ import annotations

import importlib
import os
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from service.api.contracts import SCHEMA_DIR
from tests.clients.conftest import KINDS, Service
from tests.support.processes import service_processes

# The generator's own names, as a user gets them from docs/api.md's command; the one option:
# no formatter run after generating.
CONFIG = "post_hooks: []\n"
PACKAGE = "tree_games_rules_service_client"  # from info.title
DOC = Path(__file__).parents[2] / "docs" / "api.md"
DOC_EXAMPLE = re.compile(r"### A generated client\n.*?```python\n(.*?)```", re.S)


@pytest.fixture(scope="module")
def rules_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    out = tmp_path_factory.mktemp("generated")
    (out / "config.yaml").write_text(CONFIG)
    generator = Path(sys.executable).parent / "openapi-python-client"
    run = subprocess.run(
        [generator, "generate", "--path", SCHEMA_DIR / "openapi.json",
         "--output-path", out / "client", "--config", out / "config.yaml", "--fail-on-warning"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    sys.path.insert(0, str(out / "client"))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(out / "client"))
        for name in [m for m in sys.modules if m.split(".")[0] == PACKAGE]:
            del sys.modules[name]


def _module(client: ModuleType, name: str) -> Any:
    return importlib.import_module(f"{client.__name__}.{name}")


@pytest.mark.parametrize("kind", KINDS)
def test_the_generated_client_plays_a_whole_game(
    rules_client: ModuleType, service: Service, kind: str
) -> None:
    models = _module(rules_client, "models")
    create = _module(rules_client, "api.default.create_game")
    legal_moves = _module(rules_client, "api.default.get_legal_moves")
    apply_move = _module(rules_client, "api.default.apply_move")
    body = models.CreateGame(kind=models.CreateGameKind(kind), players=2, seed=f"opc-{kind}")
    created = create.sync(client=rules_client.Client(base_url=service.url), body=body)
    assert isinstance(created, models.CreatedGame), created
    seats = {
        s.seat: rules_client.AuthenticatedClient(base_url=service.url, token=s.token)
        for s in created.seats
    }
    game, chooser = created.game, random.Random(kind)
    while game.status.value == "ACTIVE":
        seat = seats[game.to_act[0]]
        legal = legal_moves.sync(game.id, client=seat)
        assert isinstance(legal, models.LegalMoves), legal
        move = chooser.choice(legal.legal_moves).move  # a typed model of this game's move
        applied = apply_move.sync(
            game.id, client=seat, body=models.MoveBody(move=move), if_match=f'"{legal.version}"'
        )
        assert isinstance(applied, models.MoveApplied), applied
        assert applied.game.version > legal.version
        game = applied.game
    assert game.scores.final and game.scores.winners


def test_the_generated_client_revalidates_with_its_own_etag_only(
    rules_client: ModuleType, service: Service
) -> None:
    """An ETag is the viewer's own, on the game, legal moves, scores and history;
    the same seat's If-None-Match gets 304, another seat's 200 and its own view."""
    models = _module(rules_client, "models")
    create = _module(rules_client, "api.default.create_game")
    body = models.CreateGame(kind=models.CreateGameKind.TREELINE, players=2, seed="opc-etags")
    created = create.sync(client=rules_client.Client(base_url=service.url), body=body)
    assert isinstance(created, models.CreatedGame), created
    seats = [
        rules_client.AuthenticatedClient(base_url=service.url, token=s.token) for s in created.seats
    ]
    game_id = created.game.id
    for name in ("get_game", "get_legal_moves", "get_scores", "get_history"):
        route = _module(rules_client, f"api.default.{name}")
        first = route.sync_detailed(game_id, client=seats[0])
        assert first.status_code == 200 and first.parsed is not None, name
        tag = first.headers["etag"]
        again = route.sync_detailed(game_id, client=seats[0], if_none_match=tag)
        assert (again.status_code, again.content) == (304, b""), name
        other = route.sync_detailed(game_id, client=seats[1], if_none_match=tag)
        assert other.status_code == 200 and other.headers["etag"] != tag, name
        assert other.parsed is not None, name
    view = _module(rules_client, "api.default.get_game").sync(game_id, client=seats[1])
    assert isinstance(view, models.Game) and view.viewer == 1


def test_the_generated_client_manages_a_webhook_endpoint(
    rules_client: ModuleType, service: Service
) -> None:
    models = _module(rules_client, "models")
    client = rules_client.Client(base_url=service.url)  # no RULES_API_KEYS: the default tenant
    create = _module(rules_client, "api.default.create_webhook_endpoint")
    body = models.CreateWebhookEndpoint(
        url="https://93.184.215.14/hook", events=[models.WebhookEventType("game.finished")]
    )
    created = create.sync(client=client, body=body)
    assert isinstance(created, models.WebhookEndpointWithSecret), created
    assert created.secret.startswith("whsec_")
    endpoint_id = created.endpoint.id
    update = _module(rules_client, "api.default.update_webhook_endpoint")
    changed = update.sync(
        endpoint_id, client=client, body=models.UpdateWebhookEndpoint(enabled=False)
    )
    assert isinstance(changed, models.WebhookEndpoint) and changed.status.value == "DISABLED"
    deliveries = _module(rules_client, "api.default.list_webhook_deliveries")
    log = deliveries.sync(endpoint_id, client=client, last=5)
    assert isinstance(log, models.WebhookDeliveries) and log.deliveries == []
    delete = _module(rules_client, "api.default.delete_webhook_endpoint")
    assert delete.sync_detailed(endpoint_id, client=client).status_code == 204
    missing = _module(rules_client, "api.default.get_webhook_endpoint").sync(
        endpoint_id, client=client
    )
    assert isinstance(missing, models.Problem) and missing.code.value == "NOT_FOUND"


def test_the_documented_example_runs_with_the_generated_package(
    rules_client: ModuleType, redis_url: str
) -> None:
    """Against a server with RULES_API_KEYS, as in production: creating needs the key in
    X-API-Key (the example passed a `Client` without it)."""
    found = DOC_EXAMPLE.search(DOC.read_text())
    assert found, "docs/api.md has no Python example under 'A generated client'"
    assert rules_client.__file__ is not None
    package_dir = str(Path(rules_client.__file__).parents[1])
    keyed = {"RULES_API_KEYS": "docs:docs-secret", "RULES_RATE_LIMIT_PER_ADDRESS": "0"}
    with service_processes(redis_url, 1, keyed) as (url,):
        run = subprocess.run(
            [sys.executable, "-c", found[1]],
            env={**os.environ, "BASE": url, "PYTHONPATH": package_dir, "API_KEY": "docs-secret"},
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    version, replayed = run.stdout.split()
    assert int(version) >= 1 and replayed == "False", run.stdout
