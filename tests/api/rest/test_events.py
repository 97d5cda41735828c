"""Server-sent events, `GET /v1/games/{id}/events` (service/api/rest/events.py), against real
service processes read by a real HTTP client streaming the answer: every version once and in
order whichever replica commits it, resumed after Last-Event-ID or `?after=`, each caller's own
view and never another seat's secret, a delayed spectator late, the end after the game's end,
one render per audience and version, the subscriptions per address shared with gameEvents, typed
refusals and no traceback, a stopping server ending its streams. In process, with the ASGI
calls driven by hand: the rate limits, the keepalive, a client that stops reading cut, and the
versions a client missed paced."""

from __future__ import annotations

import asyncio
import contextlib
import json
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
import websockets
from starlette.types import Message
from websockets.typing import Subprotocol

from service.api.edge import pacing
from service.api.rest import events
from service.app import create_app
from service.core import GameService
from service.core.game.loaded_game import LoadedGame
from service.settings import Settings
from service.store import RedisStore, connect
from tests.conftest import client_for
from tests.security.hidden import secret_values, values_under
from tests.support.processes import service_processes
from tests.support.waiting import until

# one worker runs the module, so its service processes start once, not once per worker
pytestmark = pytest.mark.xdist_group("rest_events")

KEY = "events-secret"
TENANT = {"x-api-key": KEY}
SUBSCRIPTIONS = 16  # RULES_MAX_SUBSCRIPTIONS_PER_ADDRESS of the replicas
SETTINGS = {
    "RULES_API_KEYS": f"events:{KEY}",
    "RULES_RATE_LIMIT_PER_TOKEN": "0",
    "RULES_RATE_LIMIT_PER_ADDRESS": "0",
    "RULES_MAX_SUBSCRIPTIONS_PER_ADDRESS": str(SUBSCRIPTIONS),
}
WAIT = 30  # seconds: a bound for what should come at once, on a busy machine too
Lines = AsyncIterator[str]


@pytest.fixture(scope="module")
def log() -> Iterator[tempfile._TemporaryFileWrapper[bytes]]:
    with tempfile.NamedTemporaryFile(suffix=".log") as file:
        yield file


@pytest.fixture(scope="module")
def replicas(redis_url: str, log: tempfile._TemporaryFileWrapper[bytes]) -> Iterator[list[str]]:
    with service_processes(redis_url, 2, SETTINGS, log) as urls:
        yield urls


@contextlib.asynccontextmanager
async def _clients(*urls: str) -> AsyncIterator[list[httpx.AsyncClient]]:
    async with contextlib.AsyncExitStack() as stack:
        yield [
            await stack.enter_async_context(httpx.AsyncClient(base_url=url, timeout=WAIT))
            for url in urls
        ]


def _auth(token: str | None) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"} if token else {}


async def _create(http: httpx.AsyncClient, seed: str, **fields: Any) -> tuple[str, list[str]]:
    body = {"kind": "TREELINGS", "players": 2, "seed": seed, **fields}
    response = await http.post("/v1/games", json=body, headers=TENANT)
    assert response.status_code == 201, response.text
    created = response.json()
    return created["game"]["id"], [seat["token"] for seat in created["seats"]]


async def _play(http: httpx.AsyncClient, game_id: str, tokens: list[str]) -> int:
    """The first legal move of the seat to act (the tenant sees the game live); the version
    it made."""
    seat = (await http.get(f"/v1/games/{game_id}", headers=TENANT)).json()["toAct"][0]
    legal = (await http.get(f"/v1/games/{game_id}/legal-moves", headers=_auth(tokens[seat]))).json()
    moved = await http.post(
        f"/v1/games/{game_id}/moves",
        json={"move": legal["legalMoves"][0]["move"]},
        headers={**_auth(tokens[seat]), "if-match": f'"{legal["version"]}"'},
    )
    assert moved.status_code == 200, moved.text
    version: int = moved.json()["game"]["version"]
    return version


async def _block(lines: Lines) -> dict[str, str]:
    """The next block of the stream (fields up to a blank line; a comment under ":")."""
    fields: dict[str, str] = {}
    async with asyncio.timeout(WAIT):
        async for line in lines:
            if not line:
                if fields:
                    return fields
                continue
            name, _, value = line.partition(":")
            fields[name or ":"] = value.removeprefix(" ")
    raise AssertionError(f"the stream ended in the middle of a block: {fields}")


async def _event(lines: Lines) -> dict[str, str]:
    """The next event that carries data (the opening `retry:` and keepalives skipped)."""
    while "data" not in (block := await _block(lines)):
        pass
    return block


async def _until_version(lines: Lines, version: int, seen: list[dict[str, str]]) -> None:
    while not seen or int(seen[-1]["id"]) < version:
        seen.append(await _event(lines))


async def _ended(lines: Lines) -> list[str]:
    """What is left of a stream that ends by itself (nothing but blank lines)."""
    async with asyncio.timeout(WAIT):
        return [line async for line in lines if line]


def _versions(seen: list[dict[str, str]]) -> list[int]:
    return [int(event["id"]) for event in seen]


async def test_a_stream_gets_every_version_made_on_another_replica_once_in_order_then_ends(
    replicas: list[str],
) -> None:
    """Each event comes before the next move is made (flushed one by one, never compressed),
    its data is the game as the seat reads it, and the stream ends after FINISHED."""
    a, b = replicas
    async with _clients(a, b) as (here, there):
        game_id, tokens = await _create(there, "sse-order")
        seat0 = {**_auth(tokens[0]), "accept-encoding": "br, gzip"}
        async with here.stream("GET", f"/v1/games/{game_id}/events", headers=seat0) as response:
            assert response.status_code == 200
            assert response.headers["content-type"] == "text/event-stream; charset=utf-8"
            assert "content-encoding" not in response.headers
            assert response.headers["cache-control"] == "no-store"
            lines = response.aiter_lines()
            assert await _block(lines) == {"retry": "2000"}
            seen = [await _event(lines)]
            for _ in range(4):
                await _until_version(lines, await _play(there, game_id, tokens), seen)
            resigned = await there.post(f"/v1/games/{game_id}/resign", headers=_auth(tokens[1]))
            final = resigned.json()["game"]["version"]
            await _until_version(lines, final, seen)
            assert await _ended(lines) == []
        assert _versions(seen) == list(range(final + 1))
        assert {event["event"] for event in seen} == {"version"}
        games = [json.loads(event["data"]) for event in seen]
        assert [game["version"] for game in games] == _versions(seen)
        assert {game["viewer"] for game in games} == {0}
        assert [game["status"] for game in games] == ["ACTIVE"] * final + ["FINISHED"]
        read = await here.get(f"/v1/games/{game_id}", headers=_auth(tokens[0]))
        assert seen[-1]["data"] == read.text, "the data is GET's answer, byte for byte"


@pytest.mark.parametrize("resume", ["Last-Event-ID", "after", "both"])
async def test_a_stream_resumes_after_the_version_given_then_goes_live(
    replicas: list[str], resume: str
) -> None:
    """Last-Event-ID (what EventSource sends when it reconnects) wins over `after`."""
    a, b = replicas
    async with _clients(a, b) as (here, there):
        game_id, tokens = await _create(there, f"sse-resume-{resume}")
        for _ in range(3):
            version = await _play(there, game_id, tokens)
        headers = {} if resume == "after" else {"last-event-id": "1"}
        params = {"after": "0" if resume == "both" else "1"} if resume != "Last-Event-ID" else {}
        url = f"/v1/games/{game_id}/events"
        async with here.stream("GET", url, headers=headers, params=params) as response:
            lines = response.aiter_lines()
            seen: list[dict[str, str]] = []
            await _until_version(lines, version, seen)
            live = await _play(there, game_id, tokens)
            await _until_version(lines, live, seen)
        assert _versions(seen) == list(range(2, live + 1))


async def test_each_stream_is_its_callers_own_view_and_never_another_seats_secret(
    redis_url: str, replicas: list[str]
) -> None:
    """ALL-4 for event streams: each seat's (and a spectator's) data on every event, replayed
    and live, is exactly the engine's view for that viewer at that version, without the
    project cards of the other seats (TREE_LINED_AVENUE hides them)."""
    a, b = replicas
    settings = Settings()
    store = RedisStore(connect(settings, redis_url), settings)
    try:
        async with _clients(a, b) as (here, there), contextlib.AsyncExitStack() as stack:
            game_id, tokens = await _create(there, "sse-view", kind="TREE_LINED_AVENUE")
            for _ in range(3):
                await _play(there, game_id, tokens)
            viewers: list[tuple[int | None, str | None]] = [(0, tokens[0]), (1, tokens[1]), (None, None)]  # fmt: skip
            streams = []
            for _, token in viewers:
                response = await stack.enter_async_context(
                    here.stream("GET", f"/v1/games/{game_id}/events?after=0", headers=_auth(token))
                )
                streams.append(response.aiter_lines())
            version = await _play(there, game_id, tokens)
            seen: list[list[dict[str, str]]] = [[] for _ in viewers]
            for lines, events_seen in zip(streams, seen, strict=True):
                await _until_version(lines, version, events_seen)
        current = await GameService(store).read(game_id, None)
        checked = 0
        for (viewer, _), events_seen in zip(viewers, seen, strict=True):
            assert _versions(events_seen) == list(range(1, version + 1))
            for event in events_seen:
                data = json.loads(event["data"])
                then = await GameService(store).at_version(current, int(event["id"]))
                seen_by = LoadedGame(game_id, then.record, then.game, viewer, then.state)
                assert data["version"] == int(event["id"]) and data["viewer"] == viewer
                assert data["state"] == msgspec.json.decode(msgspec.json.encode(seen_by.view()))
                for key, hidden in secret_values("TREE_LINED_AVENUE", then.state, viewer).items():
                    assert not values_under(data["state"], key) & set(hidden)
                    checked += len(hidden)
        assert checked > 0, "the other seats' projects were checked"
    finally:
        await store.close()


async def test_a_delayed_spectator_is_that_many_versions_late_and_the_tenant_live(
    replicas: list[str],
) -> None:
    a, b = replicas
    async with _clients(a, b) as (here, there), contextlib.AsyncExitStack() as stack:
        game_id, tokens = await _create(there, "sse-late", spectatorDelay=2)
        for _ in range(3):
            live = await _play(there, game_id, tokens)
        url = f"/v1/games/{game_id}/events"
        callers = {"spectator": {}, "tenant": TENANT, "seat": _auth(tokens[0])}
        lines = {}
        for name, headers in callers.items():
            response = await stack.enter_async_context(here.stream("GET", url, headers=headers))
            lines[name] = response.aiter_lines()
        first = {name: await _event(stream) for name, stream in lines.items()}
        assert _versions(list(first.values())) == [live - 2, live, live]
        assert json.loads(first["spectator"]["data"])["spectatorDelay"] == 2
        await _play(there, game_id, tokens)
        late = await _event(lines["spectator"])
        assert int(late["id"]) == live - 1 and json.loads(late["data"])["version"] == live - 1
        assert int((await _event(lines["tenant"]))["id"]) == live + 1
        resigned = await there.post(f"/v1/games/{game_id}/resign", headers=_auth(tokens[0]))
        final = resigned.json()["game"]["version"]
        rest = [late]
        await _until_version(lines["spectator"], final, rest)
        assert await _ended(lines["spectator"]) == []
    assert _versions(rest) == list(range(live - 1, final + 1)), "every version left, at the end"
    assert json.loads(rest[-1]["data"])["status"] == "FINISHED"


async def test_a_game_that_is_over_replays_and_ends_and_its_last_version_answers_204(
    replicas: list[str],
) -> None:
    """204 tells EventSource to stop reconnecting after the stream it read to the end."""
    a, _ = replicas
    async with _clients(a) as (http,):
        game_id, tokens = await _create(http, "sse-over")
        await _play(http, game_id, tokens)
        final = (await http.post(f"/v1/games/{game_id}/resign", headers=_auth(tokens[0]))).json()
        url, last = f"/v1/games/{game_id}/events", final["game"]["version"]
        for headers, expected in [({}, [last]), ({"last-event-id": "0"}, list(range(1, last + 1)))]:
            async with http.stream("GET", url, headers=headers) as response:
                lines = response.aiter_lines()
                seen = [await _event(lines)]
                await _until_version(lines, last, seen)
                assert await _ended(lines) == []
            assert _versions(seen) == expected
        done = await http.get(url, headers={"last-event-id": str(last)})
        assert done.status_code == 204 and done.content == b""
        head = await http.head(url)
        assert head.status_code == 200 and head.headers["content-type"].startswith("text/event-")


HOSTILE = [
    ({"last-event-id": "abc"}, {}, 400, "BAD_REQUEST"),
    ({"last-event-id": "-1"}, {}, 400, "BAD_REQUEST"),
    ({"last-event-id": "99999"}, {}, 400, "BAD_REQUEST"),
    ({"last-event-id": "9" * 400}, {}, 400, "BAD_REQUEST"),
    ({"last-event-id": "1.5"}, {}, 400, "BAD_REQUEST"),
    ({}, {"after": "\u00b2"}, 400, "BAD_REQUEST"),
    ({}, {"after": "-1"}, 400, "BAD_REQUEST"),
    ({}, {"after": ""}, 400, "BAD_REQUEST"),
    ({}, {"after": str(2**63)}, 400, "BAD_REQUEST"),
    ({}, {"messages": "maybe"}, 400, "BAD_REQUEST"),
    ({"authorization": "Bearer garbage"}, {}, 401, "UNAUTHORIZED"),
    ({"authorization": "Basic Z2FyYmFnZQ=="}, {}, 401, "UNAUTHORIZED"),
    ({"x-act-as-seat": "one"}, {}, 400, "BAD_REQUEST"),
    ({"x-api-key": KEY, "x-act-as-seat": "7"}, {}, 422, "BAD_USER_INPUT"),
]  # fmt: skip


async def test_hostile_inputs_get_typed_problems_before_any_stream_and_no_traceback(
    replicas: list[str], log: tempfile._TemporaryFileWrapper[bytes]
) -> None:
    a, _ = replicas
    async with _clients(a) as (http,):
        game_id, tokens = await _create(http, "sse-hostile")
        await _play(http, game_id, tokens)
        cases = [(f"/v1/games/{game_id}/events", *case) for case in HOSTILE]
        cases.append(("/v1/games/no-such-game/events", {}, {}, 404, "NOT_FOUND"))
        for url, headers, params, status, code in cases:
            answer = await http.get(url, headers=headers, params=params)
            assert answer.status_code == status, (headers, params, answer.text)
            assert answer.headers["content-type"] == "application/problem+json"
            assert answer.json()["code"] == code, (headers, params, answer.text)
    assert "Traceback" not in Path(log.name).read_text(errors="replace")


async def test_a_reissued_token_is_refused_and_ends_the_stream_it_opened_with_a_problem(
    replicas: list[str],
) -> None:
    a, b = replicas
    async with _clients(a, b) as (here, there):
        game_id, tokens = await _create(there, "sse-reissued")
        url = f"/v1/games/{game_id}/events"
        async with here.stream("GET", url, headers=_auth(tokens[0])) as response:
            lines = response.aiter_lines()
            await _event(lines)
            reissued = await there.post(f"/v1/games/{game_id}/seats/0/token", headers=TENANT)
            assert reissued.status_code == 200, reissued.text
            await _play(there, game_id, [reissued.json()["token"], tokens[1]])
            problem = await _event(lines)
            assert problem["event"] == "problem" and "id" not in problem
            assert json.loads(problem["data"])["code"] == "UNAUTHORIZED"
            assert await _ended(lines) == []
        refused = await here.get(url, headers=_auth(tokens[0]))
        assert refused.status_code == 401 and refused.json()["code"] == "UNAUTHORIZED"


async def _metric(http: httpx.AsyncClient, name: str) -> float:
    text = (await http.get("/metrics")).text
    line = next(line for line in text.splitlines() if line.startswith(f"{name} "))
    return float(line.split()[-1])


async def test_many_streams_of_one_audience_cost_one_render_per_version(
    replicas: list[str],
) -> None:
    """10 spectators and 3 streams of seat 0: 2 renders a version (one per audience), not 13;
    every stream of an audience gets the same text. Open streams are not requests in flight."""
    a, b = replicas
    async with _clients(a, b) as (here, there), contextlib.AsyncExitStack() as stack:
        game_id, tokens = await _create(there, "sse-once")
        before = await _metric(here, "rules_live_renders_total")
        callers = [None] * 10 + [tokens[0]] * 3
        streams = []
        for token in callers:
            response = await stack.enter_async_context(
                here.stream("GET", f"/v1/games/{game_id}/events", headers=_auth(token))
            )
            streams.append(response.aiter_lines())
        for _ in range(3):
            version = await _play(there, game_id, tokens)
        seen: list[list[dict[str, str]]] = [[] for _ in callers]
        for lines, events_seen in zip(streams, seen, strict=True):
            await _until_version(lines, version, events_seen)
        renders = await _metric(here, "rules_live_renders_total") - before
        # a stream is a request until it starts: the gauge counts only the /metrics request
        assert await _metric(here, "rules_requests_in_flight") == 1
    assert all(events_seen == seen[0] for events_seen in seen[:10]), "the spectators' texts"
    assert all(events_seen == seen[10] for events_seen in seen[10:]), "seat 0's texts"
    assert seen[0] != seen[10], "a seat's view is not the spectators'"
    assert renders == 2 * (version + 1)


async def _subscribe(url: str, game_id: str) -> Any:
    """A gameEvents subscription over graphql-transport-ws, its first event received."""
    socket = await websockets.connect(
        url.replace("http", "ws") + "/graphql", subprotocols=[Subprotocol("graphql-transport-ws")]
    )
    await socket.send(json.dumps({"type": "connection_init", "payload": {}}))
    assert json.loads(await socket.recv())["type"] == "connection_ack"
    query = "subscription($id: ID!) { gameEvents(gameId: $id) { version } }"
    subscribe = {"query": query, "variables": {"id": game_id}}
    await socket.send(json.dumps({"id": "1", "type": "subscribe", "payload": subscribe}))
    async with asyncio.timeout(WAIT):
        assert json.loads(await socket.recv())["type"] == "next"
    return socket


async def test_streams_and_subscriptions_share_the_limit_per_address_and_leaving_frees_it(
    replicas: list[str], log: tempfile._TemporaryFileWrapper[bytes]
) -> None:
    """Clients going away mid-stream, while versions are being sent, give their slots back
    and write no traceback."""
    a, b = replicas
    async with _clients(a, b) as (here, there):
        game_id, tokens = await _create(there, "sse-limit")
        url = f"/v1/games/{game_id}/events"
        socket = await _subscribe(a, game_id)
        async with contextlib.AsyncExitStack() as stack:
            open_streams = []  # an iterator dropped half read closes its connection
            for _ in range(SUBSCRIPTIONS - 1):
                response = await stack.enter_async_context(here.stream("GET", url))
                open_streams.append(lines := response.aiter_lines())
                await _event(lines)
            refused = await here.get(url)
            assert refused.status_code == 429, refused.text
            assert refused.json()["code"] == "TOO_MANY_SUBSCRIPTIONS"
            for _ in range(3):
                await _play(there, game_id, tokens)  # the streams leave with versions on the way
        await socket.close()

        async def admitted() -> bool:
            async with here.stream("GET", url) as response:
                return response.status_code == 200

        async def all_admitted() -> bool:
            async with contextlib.AsyncExitStack() as stack:
                for _ in range(SUBSCRIPTIONS):
                    response = await stack.enter_async_context(here.stream("GET", url))
                    if response.status_code != 200:
                        return False
            return True

        await until(all_admitted, "every slot given back")
    assert "Traceback" not in Path(log.name).read_text(errors="replace")


async def test_a_stopping_server_ends_its_streams_at_once(redis_url: str) -> None:
    """SIGTERM: each stream ends cleanly (its client resumes elsewhere), and the graceful
    shutdown does not wait for the games to end (service_processes waits 10 s at most)."""
    with contextlib.ExitStack() as running:
        (url,) = running.enter_context(service_processes(redis_url, 1, SETTINGS))
        async with _clients(url) as (http,):
            game_id, _ = await _create(http, "sse-stop")
            async with http.stream("GET", f"/v1/games/{game_id}/events") as response:
                lines = response.aiter_lines()
                await _event(lines)
                started = time.monotonic()
                await asyncio.to_thread(running.close)
                assert await _ended(lines) == []
    assert time.monotonic() - started < WAIT


# In process: the ASGI app called by hand, to be a client that stops reading.


def _scope(url: str) -> dict[str, Any]:
    path, _, query = url.partition("?")
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [(b"host", b"test")],
        "client": ("127.0.0.1", 40000),
        "server": ("test", 80),
    }


class Client:
    """One request's ASGI calls: what it was sent, and whether it left."""

    def __init__(self, app: Any, path: str, stall_at: int | None = None) -> None:
        self.sent: list[Message] = []
        self.left = asyncio.Event()
        self.stall_at = stall_at  # the number of the version frame it stops reading at
        self.requested = False
        self.task = asyncio.ensure_future(app(_scope(path), self.receive, self.send))

    async def receive(self) -> Message:
        if not self.requested:
            self.requested = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await self.left.wait()
        return {"type": "http.disconnect"}

    async def send(self, message: Message) -> None:
        frame = message.get("body", b"").startswith(b"id: ")
        if self.stall_at is not None and len(self.frames()) + frame >= self.stall_at:
            self.stall_at = 0  # from this send on, nothing is read
            await asyncio.Event().wait()
        self.sent.append(message)

    def frames(self) -> list[bytes]:
        return [m["body"] for m in self.sent if m.get("body", b"").startswith(b"id: ")]

    def completed(self) -> bool:
        return any(m.get("more_body") is False for m in self.sent)


@contextlib.asynccontextmanager
async def _app(redis_url: str, **settings: Any) -> AsyncIterator[tuple[Any, httpx.AsyncClient]]:
    app = create_app(
        Settings(rate_limit_per_token=0, rate_limit_per_address=0, **settings), redis_url
    )
    async with client_for(app) as http:
        yield app, http


async def _game(http: httpx.AsyncClient, seed: str) -> tuple[str, list[str]]:
    response = await http.post("/v1/games", json={"kind": "TREELINGS", "players": 2, "seed": seed})
    created = response.json()
    return created["game"]["id"], [seat["token"] for seat in created["seats"]]


async def test_a_stream_is_admitted_by_the_rate_limits_as_a_request(redis_url: str) -> None:
    app = create_app(Settings(rate_limit_per_token=0, rate_limit_per_address=4), redis_url)
    async with client_for(app) as http:
        game_id, tokens = await _game(http, "sse-limited")  # 1
        await http.post(f"/v1/games/{game_id}/resign", headers=_auth(tokens[0]))  # 2
        answers = [await http.get(f"/v1/games/{game_id}/events") for _ in range(3)]
    assert [answer.status_code for answer in answers] == [200, 200, 429]
    assert answers[-1].json()["code"] == "RATE_LIMITED"


async def test_an_idle_stream_sends_a_keepalive_comment(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(events, "KEEPALIVE_SECONDS", 0.05)
    async with _app(redis_url) as (app, http):
        game_id, _ = await _game(http, "sse-keepalive")
        client = Client(app, f"/v1/games/{game_id}/events")
        await until(lambda: b": keepalive\n\n" in [m.get("body") for m in client.sent], "one")
        client.left.set()
        async with asyncio.timeout(WAIT):
            await client.task
    assert client.sent[0]["status"] == 200 and len(client.frames()) == 1
    assert not client.completed(), "nothing is sent to a client that left"


async def test_a_client_whose_send_blocks_is_cut_and_its_slot_freed(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A send that cannot complete within SEND_TIMEOUT_SECONDS ends the stream, unfinished
    (uvicorn then closes the connection); the address's one subscription is free again."""
    monkeypatch.setattr(events, "SEND_TIMEOUT_SECONDS", 0.2)
    async with _app(redis_url, max_subscriptions_per_address=1) as (app, http):
        game_id, _ = await _game(http, "sse-stalled")
        stalled = Client(app, f"/v1/games/{game_id}/events", stall_at=1)
        async with asyncio.timeout(WAIT):
            await stalled.task
        assert stalled.frames() == [] and not stalled.completed()
        next_one = Client(app, f"/v1/games/{game_id}/events")
        await until(lambda: next_one.frames(), "the next stream's first frame")
        next_one.left.set()
        await next_one.task


async def test_a_client_too_far_behind_its_versions_is_cut(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stream whose follower falls RULES_SUBSCRIBER_QUEUE versions behind (its client
    stopped reading; the send bound is far off) ends at once."""
    monkeypatch.setattr(events, "SEND_TIMEOUT_SECONDS", 600.0)
    monkeypatch.setattr(events, "CLOSE_SECONDS", 0.1)
    async with _app(redis_url, subscriber_queue=2) as (app, http):
        game_id, tokens = await _game(http, "sse-behind")
        behind = Client(app, f"/v1/games/{game_id}/events", stall_at=2)
        await until(lambda: behind.frames(), "the first frame")
        for _ in range(6):
            await _play(http, game_id, tokens)
        async with asyncio.timeout(WAIT):
            await behind.task
        assert len(behind.frames()) == 1, "the stream ended instead of waiting on its client"


async def test_the_versions_a_stream_missed_are_paced_and_the_live_ones_are_not(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With gameEvents' pacing (edge/pacing.py): each version replayed is charged, every one
    the client missed but the game's version when it came; a live one is not."""
    paced: list[float] = []

    async def charged(self: pacing.Replay, seconds: float) -> None:
        paced.append(seconds)

    monkeypatch.setattr(pacing.Replay, "paced", charged)
    async with _app(redis_url) as (app, http):
        game_id, tokens = await _game(http, "sse-paced")
        for _ in range(4):
            version = await _play(http, game_id, tokens)
        client = Client(app, f"/v1/games/{game_id}/events?after=0")
        await until(lambda: len(client.frames()) == version, "the versions missed")
        live = await _play(http, game_id, tokens)
        await until(lambda: len(client.frames()) == live, "the live version")
        client.left.set()
        await client.task
    assert len(paced) == version - 1
