"""A property: generated garbage at every route and frame type gets a typed answer, never a
5xx, and changes nothing in Redis (rate-limit counters excepted)."""

from __future__ import annotations

import json
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from service.app import create_app
from service.settings import Settings
from service.store import connect as connect_redis
from tests.conftest import Api, client_for
from tests.hostile.test_http import typed
from tests.hostile.ws import SUBSCRIBE, connect, receive
from tests.support import gql
from tests.support.play import create
from tests.support.processes import service_processes

PRINTABLE = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=40)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | PRINTABLE,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(PRINTABLE, inner, max_size=4),
    max_leaves=20,
)
ROUTES = [
    "/graphql", "/v1/games", "/v1/games/{id}", "/v1/games/{id}/legal-moves",
    "/v1/games/{id}/moves", "/v1/games/{id}/validate", "/v1/games/{id}/suggest",
    "/v1/games/{id}/scores", "/v1/games/{id}/history", "/v1/{garbage}", "/{garbage}",
    "/v1/webhooks/endpoints", "/v1/webhooks/endpoints/{garbage}",
    "/v1/webhooks/endpoints/{garbage}/deliveries",
    "/v1/webhooks/endpoints/ep_{garbage}/events/{garbage}/redeliver",
]  # fmt: skip
CREATING = {"/v1/games", "/v1/webhooks/endpoints"}
# documents that parse, beside random text: every kind of operation, a fragment alone
DOCUMENTS = st.sampled_from(
    [gql.GAME, gql.APPLY, SUBSCRIBE, "fragment F on Query { catalog { kind } }", "   ", ""]
)
QUERIES = PRINTABLE | DOCUMENTS
BODIES = st.one_of(
    st.binary(max_size=200),
    JSON.map(lambda value: json.dumps(value).encode()),
    st.fixed_dictionaries({"move": JSON}).map(lambda v: json.dumps(v).encode()),
    st.fixed_dictionaries(
        {"query": QUERIES, "variables": JSON}, optional={"operationName": PRINTABLE | st.none()}
    ).map(lambda v: json.dumps(v).encode()),
    st.fixed_dictionaries({"kind": JSON, "players": JSON, "bots": JSON}).map(
        lambda v: json.dumps(v).encode()
    ),
)


async def snapshot(redis_url: str) -> dict[bytes, Any]:
    """Every key but rate-limit counters, with its type and contents."""
    client = connect_redis(Settings(), redis_url)
    try:
        found: dict[bytes, Any] = {}
        async for key in client.scan_iter(count=1000):  # type: ignore[union-attr]
            if key.startswith(b"rl:"):
                continue
            kind = await client.type(key)
            if kind == b"hash":
                found[key] = await client.hgetall(key)
            elif kind == b"list":
                found[key] = await client.lrange(key, 0, -1)  # type: ignore[misc]
            else:
                found[key] = kind
        return found
    finally:
        await client.aclose()


@pytest.fixture(scope="module")
def redis_url(quiet_redis_url: str) -> str:
    """A Redis of the module's own: each example reads every key twice, so a shared one that
    other tests keep filling would make every example dearer than the last."""
    return quiet_redis_url


@pytest.fixture(scope="module")
async def api(redis_url: str) -> AsyncIterator[Api]:
    settings = Settings(rate_limit_per_token=0, rate_limit_per_address=0)
    async with client_for(create_app(settings, redis_url)) as http:
        yield Api(http)


@pytest.fixture(scope="module")
async def waiting_seat(api: Api) -> tuple[str, str]:
    """A game and the token of a seat not to act: nothing it sends may apply."""
    game, tokens = await create(api, "TREELINGS", 2, seed="garbage")
    return game["id"], tokens[1 - game["toAct"][0]]


@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH"]),
    route=st.sampled_from(ROUTES),
    garbage=PRINTABLE.map(lambda text: text.replace("/", "").replace("?", "").replace("#", "")),
    authorization=st.one_of(
        st.none(), PRINTABLE, PRINTABLE.map("Bearer {}".format), st.just("WAITING")
    ),
    headers=st.dictionaries(
        st.sampled_from(["if-match", "idempotency-key", "prefer", "x-api-key"]),
        PRINTABLE,
        max_size=3,
    ),
    content_type=st.one_of(st.none(), st.just("application/json"), PRINTABLE),
    after=st.none() | PRINTABLE,
    body=BODIES,
)
@example(  # once a masked INTERNAL_SERVER_ERROR and a traceback: a subscription over HTTP
    method="POST",
    route="/graphql",
    garbage="",
    authorization=None,
    headers={},
    content_type="application/json",
    after=None,
    body=json.dumps({"query": SUBSCRIBE, "variables": {"id": "x"}}).encode(),
)
async def test_garbage_over_http_gets_a_typed_answer_and_changes_nothing(
    api: Api,
    waiting_seat: tuple[str, str],
    redis_url: str,
    method: str,
    route: str,
    garbage: str,
    authorization: str | None,
    headers: dict[str, str],
    content_type: str | None,
    after: str | None,
    body: bytes,
) -> None:
    game_id, waiting = waiting_seat
    if content_type is not None:  # JSON mostly, so that garbage gets past the media type
        headers = {**headers, "content-type": content_type}
    if authorization == "WAITING":
        authorization = f"Bearer {waiting}"
    if authorization is not None:
        headers = {**headers, "authorization": authorization}
    path = route.format(id=game_id, garbage=garbage)
    params = {"after": after} if after is not None else None
    before = await snapshot(redis_url)
    response = await api.http.request(method, path, headers=headers, content=body, params=params)
    assert response.status_code < 500, response.text
    if response.status_code >= 400 or _has_errors(response):
        assert typed(response) != "INTERNAL_SERVER_ERROR", "garbage is the client's fault"
    if method == "POST" and route in CREATING and response.status_code == 201:
        return  # garbage that happens to be valid: a new game (or endpoint), nothing else touched
    after_keys = await snapshot(redis_url)
    assert after_keys == before or (
        response.status_code == 200 and "createGame" in response.text
    ), "garbage changed a game"


def _has_errors(response: httpx.Response) -> bool:
    """Whether a GraphQL answer holds errors (`data` may come first)."""
    if "json" not in response.headers.get("content-type", "") or not response.content:
        return False
    answer = response.json()
    return isinstance(answer, dict) and "errors" in answer


FRAMES = st.one_of(
    st.binary(max_size=100),
    PRINTABLE,
    JSON.map(json.dumps),
    st.fixed_dictionaries({"type": st.sampled_from(["connection_init", "ping", "pong", "subscribe", "complete", "next"]), "id": JSON, "payload": JSON}).map(json.dumps),
    st.fixed_dictionaries({"type": st.just("subscribe"), "id": PRINTABLE, "payload": st.fixed_dictionaries({"query": QUERIES, "variables": JSON}, optional={"operationName": PRINTABLE | st.none()})}).map(json.dumps),
)  # fmt: skip


@pytest.fixture(scope="module")
def log() -> Iterator[tempfile._TemporaryFileWrapper[bytes]]:
    with tempfile.NamedTemporaryFile() as file:
        yield file


@pytest.fixture(scope="module")
def replica(redis_url: str, log: tempfile._TemporaryFileWrapper[bytes]) -> Iterator[str]:
    with service_processes(redis_url, 1, {"RULES_RATE_LIMIT_PER_ADDRESS": "0"}, log) as urls:
        yield urls[0]


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(frames=st.lists(FRAMES, min_size=1, max_size=3))
@example(frames=['{"type": "complete", "id": [{}, {}]}'])  # once a TypeError in strawberry
async def test_garbage_frames_get_a_protocol_answer_and_change_nothing(
    replica: str,
    redis_url: str,
    log: tempfile._TemporaryFileWrapper[bytes],
    frames: list[str | bytes],
) -> None:
    before = await snapshot(redis_url)
    socket = await connect(replica)
    try:
        for frame in frames:
            await socket.send(frame)
        await socket.send(json.dumps({"type": "ping"}))
        while True:  # until the pong after the garbage, or the close the garbage earned
            message = await receive(socket)
            if message.get("type") == "pong":
                break
            payload = message.get("payload")
            errors = payload if message.get("type") == "error" else []
            if message.get("type") == "next":
                errors = payload.get("errors") or []
            codes = [error["extensions"]["code"] for error in errors or []]
            assert all(codes) and "INTERNAL_SERVER_ERROR" not in codes, message
    except websockets.ConnectionClosed as closed:
        code = closed.rcvd.code if closed.rcvd else None
        assert code is not None and 4400 <= code < 4500, (code, frames)
    await socket.close()
    assert await snapshot(redis_url) == before
    async with httpx.AsyncClient(base_url=replica) as http:
        assert (await http.get("/healthz")).status_code == 200
    text = Path(log.name).read_text(errors="replace")
    assert "Traceback" not in text, (frames, text[-3000:])
