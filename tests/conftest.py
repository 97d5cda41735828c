"""Shared fixtures: a real Redis server process, a real PostgreSQL, and the real ASGI app.

Tests use `TEST_REDIS_URL` when it is set, else a throwaway redis-server on a free loopback
port (never the machine's own Redis on 6379), and `TEST_DATABASE_URL`, else a throwaway
PostgreSQL started for the first test that asks for `database_url` (never the machine's own
on 5432). Game ids are random, so tests never collide.

`make test` runs the suite on pytest-xdist workers (`-n 4 --dist loadgroup`: tests are handed
out one by one, so a module fixture may be set up once per worker; tests that share a costly
one carry `pytest.mark.xdist_group(name)` and run on one worker). Rules for new tests, so that
they parallelize and stay steady on a busy machine:
- Session fixtures are per worker: `redis_url` is one Redis per worker. Anything a test
  starts itself (a Redis, a service process, a browser) gets a free port (`free_port()`), a
  fresh temp dir, and is stopped in a `finally`; nothing may depend on another test file.
- Never a fixed port, a shared file, a global Redis key, or the machine's Redis on 6379.
- Wait for events (a readiness probe, a message, a log line), polling with a generous bound
  (30-60 s); never `sleep` and hope, never a tight deadline. Timing claims belong in loadtests/.
- A tool that may be missing (node, chromium) skips with a reason, unless
  RULES_REQUIRE_ALL_TESTS=1 (CI) makes it a failure.
- An async test that hangs fails after HANG_LIMIT with every pending task's stack (`watchdog`).
- A test of more than a few seconds' wall time is `slow` (`@pytest.mark.slow`, or listed in
  SLOW below): `make test` leaves it out, `make test-all` and CI run it. Keep a cheap test of
  the same behaviour in the fast tier where one can exist.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import inspect
import os
import sys
from collections import deque
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import httpx
import pytest

from service.app import create_app
from service.archive.embedded import EmbeddedPostgres, postgres_binaries
from service.settings import Settings
from service.store.embedded import EmbeddedRedis, EmbeddedRedisCluster
from tests.support.workers import WorkerProcess, worker_process

# Service processes the tests start inherit this: a replica stopped by a test goes at once
# instead of serving on, not ready, for RULES_SHUTDOWN_DELAY_SECONDS (its own test sets it).
os.environ.setdefault("RULES_SHUTDOWN_DELAY_SECONDS", "0")

HANG_LIMIT = 600.0  # seconds; far above any test's time under `make test-stress`


def _bark(test: str) -> None:
    print(f"\nwatchdog: {test} still running after {HANG_LIMIT}s; pending tasks:", file=sys.stderr)
    for task in asyncio.all_tasks():
        task.print_stack(file=sys.stderr)
    for task in asyncio.all_tasks():
        task.cancel()


@pytest.fixture
async def watchdog(request: pytest.FixtureRequest) -> AsyncIterator[None]:
    """A test that waits on something that never comes fails, showing what it waited on,
    instead of sitting idle until CI gives up."""
    handle = asyncio.get_running_loop().call_later(HANG_LIMIT, _bark, request.node.nodeid)
    yield
    handle.cancel()


# The slow tier, by node id prefix: each takes many seconds of wall time on a quiet 2-core
# machine (a browser, node, generated clients, a fuzzer, builds and downloads, whole service
# processes killed and restarted, thousands of random games). The fast tier keeps a cheaper
# test of each behaviour: one player count, one Kubernetes version, one process.
SLOW = (
    "tests/clients/test_browser.py",
    "tests/clients/test_csp.py",
    "tests/clients/test_playground.py",
    "tests/clients/test_gql.py",
    "tests/clients/test_node.py",
    "tests/clients/test_openapi_client.py",
    "tests/api/graphql/test_typed_codegen.py",
    "tests/security/test_fuzz.py",
    "tests/hostile/test_fanout.py",
    "tests/hostile/test_sockets.py::test_one_pubsub_connection_serves_every_subscriber",
    "tests/hostile/test_sockets.py::test_socket_operations_on_one_replica_use_up_the_allowance",
    "tests/test_main.py",
    "tests/test_embedded_cleanup.py",
    "tests/loadtests/test_harness.py",
    "tests/reliability/test_cluster.py",
    "tests/reliability/test_failover.py",
    "tests/reliability/test_linearizable_moves.py",
    "tests/reliability/test_redis_outage.py",
    "tests/reliability/test_worker_outage.py",
    "tests/reliability/test_lifecycle.py",
    "tests/deploy/test_dockerfile.py::test_image_",
    "tests/deploy/test_lock.py::test_every_locked_runtime_package_has_a_wheel_for",
    "tests/deploy/test_lock.py::test_a_lock_that_disagrees_with_pyproject_is_refused",
    "tests/deploy/test_manifests.py::test_every_rendered_object_matches_its_schema[overlays/dev-1.30",
    "tests/deploy/test_manifests.py::test_every_rendered_object_matches_its_schema[overlays/prod-1.30",
    "tests/deploy/test_manifests.py::test_every_rendered_object_matches_its_schema[monitoring-1.30",
    "tests/worker/test_bot_worker.py::test_a_decision_taken_by_two_workers",
    # an endpoint that holds each request for 4 s, or a held delivery waited out until another
    # worker reclaims it; the fast tier keeps a dead worker's outbox entry fanned out by
    # another, and a broken endpoint that leaves the tenant's others delivering
    "tests/webhooks/test_delivery.py::test_a_worker_killed_mid_delivery_leaves_it_to_another",
    "tests/webhooks/test_delivery.py::test_a_slow_endpoint_holds_neither_moves_nor_other_tenants",
    "tests/webhooks/test_delivery.py::test_a_tenant_with_slow_endpoints_takes_half_of",
    # a SEARCH decision of seconds of CPU, so that the SIGTERM lands mid-decision; the fast tier
    # keeps the drain that leaves an unfinished job pending
    "tests/worker/test_drain.py::test_sigterm_finishes_the_job_in_hand",
    "tests/api/graphql/test_typed.py::test_random_games_typed_fields_equal_the_json_and_fit_the_schemas[TREELINE]",
    "tests/api/graphql/test_typed.py::test_random_games_typed_fields_equal_the_json_and_fit_the_schemas[TREETOPIA]",
    "tests/api/graphql/test_typed.py::test_random_games_typed_fields_equal_the_json_and_fit_the_schemas[TREE_LINED_AVENUE]",
    "tests/games/test_reasons.py::test_every_reason_of_the_game_is_produced_by_a_refusal[TREETOPIA]",
    "tests/security/test_hidden_api.py::test_all4_api_answers_hold_no_secret_and_one_history_for_all[TREELINE-4",
    "tests/security/test_hidden_api.py::test_all4_api_answers_hold_no_secret_and_one_history_for_all[TREETOPIA-4",
    "tests/security/test_hidden_api.py::test_all4_api_answers_hold_no_secret_and_one_history_for_all[TREELINGS-5",
    "tests/security/test_hidden_api.py::test_all4_api_answers_hold_no_secret_and_one_history_for_all[TREE_LINED_AVENUE-4",
    "tests/api/test_docs.py::test_every_documented_example_runs",
    # every id said by random games until each kind's catalog is covered: the fast tier keeps
    # two kinds, and tests/engine/test_texts.py's scan of every id the code says
    "tests/games/test_texts.py::test_every_label_refusal_and_score_detail_of_the_game_goes_through_its_catalog[TREETOPIA]",
    "tests/games/test_texts.py::test_every_label_refusal_and_score_detail_of_the_game_goes_through_its_catalog[TREELINE]",
    # a service process behind a cutting proxy; the fast tier keeps every refusal of every
    # operation through the SDK in process (test_python_sdk_errors.py)
    "tests/clients/test_python_sdk_live.py",
    "tests/core/test_bot_seats.py::test_one_human_plays_a_whole_game_against_bots",
    "tests/api/graphql/test_graphql_games.py::test_whole_game_with_only_the_returned_tokens[TREETOPIA-4]",
    "tests/api/graphql/test_graphql_games.py::test_whole_game_with_only_the_returned_tokens[TREELINE-4]",
    "tests/bots/test_bots.py::test_suggested_moves_are_legal_for_every_strategy_in_many_states[TREELINE]",
    "tests/bots/test_bots.py::test_suggested_moves_are_legal_for_every_strategy_in_many_states[TREETOPIA]",
    "tests/bots/test_bots.py::test_suggested_moves_are_legal_for_every_strategy_in_many_states[TREE_LINED_AVENUE]",
    "tests/bots/test_bots.py::test_suggestions_ignore_hidden_parts_the_seat_cannot_see[TREELINE]",
    "tests/bots/test_bots.py::test_suggestions_ignore_hidden_parts_the_seat_cannot_see[TREETOPIA]",
    "tests/bots/test_bots.py::test_suggestions_ignore_hidden_parts_the_seat_cannot_see[TREE_LINED_AVENUE]",
    "tests/bots/test_bots.py::test_same_seed_and_iterations_give_the_same_move[TREELINE]",
    "tests/bots/test_bots.py::test_same_seed_and_iterations_give_the_same_move[TREETOPIA]",
    "tests/bots/test_bots.py::test_same_seed_and_iterations_give_the_same_move[TREE_LINED_AVENUE]",
    "tests/games/treeline/test_golden.py::test_seeded_games_play_exactly_as_recorded",
    "tests/games/treetopia/test_conformance.py",
    "tests/games/treetopia/test_hidden.py::test_pile_order_never_shows_in_views_moves_labels_or_errors",
    "tests/games/treetopia/test_cards.py::test_every_part_of_a_combined_need_matters",
    "tests/games/avenue/test_conformance.py",
    "tests/games/test_reasons.py::test_every_reason_of_the_game_is_produced_by_a_refusal[TREELINE]",
    "tests/games/treeline/test_conformance.py::test_conformance_more_seeds",
    "tests/games/treeline/test_conformance.py::test_conformance[full-strategic-",
    "tests/games/treeline/test_conformance.py::test_conformance[strategic-4]",
    "tests/games/treeline/test_conformance.py::test_conformance[full-4]",
    "tests/security/test_hidden_engine.py::test_all4_no_viewer_can_tell_a_state_from_its_twin[TREELINE-",
    "tests/security/test_hidden_engine.py::test_all4_no_viewer_can_tell_a_state_from_its_twin[TREETOPIA-3",
    "tests/security/test_hidden_engine.py::test_all4_no_viewer_can_tell_a_state_from_its_twin[TREETOPIA-4",
    "tests/security/test_hidden_engine.py::test_all4_no_viewer_can_tell_a_state_from_its_twin[TREE_LINED_AVENUE-3",
    "tests/security/test_hidden_engine.py::test_all4_no_viewer_can_tell_a_state_from_its_twin[TREE_LINED_AVENUE-4",
)


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by mark
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid.startswith(SLOW):
            item.add_marker(pytest.mark.slow)
        # Every async test gets the watchdog (not autouse: hypothesis refuses function-scoped
        # fixtures on its sync tests).
        if isinstance(item, pytest.Function) and inspect.iscoroutinefunction(item.obj):
            item.fixturenames.append("watchdog")


def pytest_collection_finish(session: pytest.Session) -> None:
    """On an xdist worker under --dist loadgroup, every xdist_group mark must have reached the
    node id: pytest 9.2 silently dropped them (pytest-xdist #1386), so tests sharing a costly
    fixture were spread over workers and set it up once each."""
    if getattr(session.config.option, "loadgroup", False):
        for item in session.items:
            if item.get_closest_marker("xdist_group") and "@" not in item.nodeid:
                raise pytest.UsageError(f"{item.nodeid}: its xdist_group mark is ignored")


class _SpareClusters:
    """Clusters started ahead on threads: a new cluster master serves no write for its first
    2 s (Redis's CLUSTER_WRITABLE_DELAY), so a test that wants a cluster of its own takes one
    started while earlier tests ran, and its stop is not waited for."""

    AHEAD = 2

    def __init__(self) -> None:
        self.threads = ThreadPoolExecutor(self.AHEAD + 1, thread_name_prefix="spare-cluster")
        self.spares: deque[Future[EmbeddedRedisCluster]] = deque()

    def take(self) -> EmbeddedRedisCluster:
        taken = self.spares.popleft() if self.spares else self._started()
        while len(self.spares) < self.AHEAD:
            self.spares.append(self._started())
        return taken.result()

    def _started(self) -> Future[EmbeddedRedisCluster]:
        return self.threads.submit(EmbeddedRedisCluster().start)

    def give_back(self, cluster: EmbeddedRedisCluster) -> None:
        self.threads.submit(cluster.cleanup)

    def close(self) -> None:
        for spare in self.spares:
            spare.result().cleanup()
        self.threads.shutdown()


SPARE_CLUSTERS = _SpareClusters()
atexit.register(SPARE_CLUSTERS.close)


@contextmanager
def own_redis() -> Iterator[str]:
    """A Redis server process of its own (a 3-master cluster in the cluster pass)."""
    if os.environ.get("TEST_REDIS_CLUSTER"):
        cluster = SPARE_CLUSTERS.take()
        try:
            yield cluster.url
        finally:
            SPARE_CLUSTERS.give_back(cluster)
        return
    server = EmbeddedRedis().start()
    try:
        yield server.url
    finally:
        server.cleanup()


@pytest.fixture(scope="module")
def quiet_redis_url() -> Iterator[str]:
    """A Redis of the module's own, which no bot worker watches: the session's `bot_worker`
    plays the bot seats of the shared one, racing a test that waits with a bot seat to act.
    A module uses it by overriding `redis_url` with it."""
    with own_redis() as url:
        yield url


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    url = os.environ.get("TEST_REDIS_URL")
    if url:
        yield url
        return
    with own_redis() as url:
        yield url


@pytest.fixture(scope="session")
def database_url() -> Iterator[str]:
    """A PostgreSQL (the archive's): `TEST_DATABASE_URL`, else a throwaway server of this
    worker's own, started when a test first asks for one. Without a PostgreSQL server to run,
    a skip (a failure under RULES_REQUIRE_ALL_TESTS=1)."""
    url = os.environ.get("TEST_DATABASE_URL")
    if url:
        yield url
        return
    try:
        binaries = postgres_binaries()
    except RuntimeError as missing:
        if os.environ.get("RULES_REQUIRE_ALL_TESTS") == "1":
            pytest.fail(f"{missing}; RULES_REQUIRE_ALL_TESTS=1 needs every test")
        pytest.skip(str(missing))
    with EmbeddedPostgres(binaries=binaries) as server:
        yield server.url


class Api:
    """A GraphQL client over the real ASGI app."""

    def __init__(self, http: httpx.AsyncClient) -> None:
        self.http = http

    async def post(
        self, query: str, variables: dict[str, Any] | None = None, token: str | None = None
    ) -> httpx.Response:
        headers = {"authorization": f"Bearer {token}"} if token else {}
        return await self.http.post(
            "/graphql", json={"query": query, "variables": variables or {}}, headers=headers
        )

    async def gql(
        self, query: str, variables: dict[str, Any] | None = None, token: str | None = None
    ) -> dict[str, Any]:
        response = await self.post(query, variables, token)
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        assert "errors" not in body, body["errors"]
        data: dict[str, Any] = body["data"]
        return data


@contextlib.asynccontextmanager
async def client_for(app: Any) -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP client on the ASGI app, with the app's lifespan run around it (as uvicorn does),
    so its Redis connections and background tasks are closed afterwards."""
    messages: asyncio.Queue[dict[str, str]] = asyncio.Queue()
    sent: asyncio.Queue[dict[str, str]] = asyncio.Queue()
    await messages.put({"type": "lifespan.startup"})
    lifespan = asyncio.create_task(
        app({"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}, messages.get, sent.put)
    )
    assert (await sent.get())["type"] == "lifespan.startup.complete"
    try:
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://test"
        ) as http:
            yield http
    finally:
        await messages.put({"type": "lifespan.shutdown"})
        assert (await sent.get())["type"] == "lifespan.shutdown.complete"
        await lifespan


@pytest.fixture(scope="session")
async def api(redis_url: str) -> AsyncIterator[Api]:
    # a hint child starved on a busy machine is given a minute past its budget, not a second
    settings = Settings(rate_limit_per_token=0, rate_limit_per_address=0, hint_grace_ms=60_000)
    app = create_app(settings, redis_url)
    async with client_for(app) as http:
        yield Api(http)


@pytest.fixture(scope="session")
def bot_worker(redis_url: str) -> Iterator[WorkerProcess]:
    """One bot worker process playing the bot seats of the shared Redis, as `make run` starts
    one beside the API."""
    with worker_process(redis_url) as worker:
        yield worker
