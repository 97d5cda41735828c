"""What each commit writes to the tenant's webhook outbox (no worker: the streams are read
straight from Redis): events exactly for accepted changes, the seats whose turn starts, the
end with the scores every spectator sees, resignations, abandons and timeouts, each fitting
its committed schema (no field beyond it: RULINGS ALL-4)."""

from __future__ import annotations

import json
import random
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import msgspec
import pytest

from service.app import create_app
from service.core.moves.decisions import enforce_clock
from service.settings import Settings
from service.store import RedisStore, connect
from service.store.jobs import LANES, lane_of
from service.store.outbox import enabled_key, outbox_key
from service.webhooks.endpoints import EndpointStore
from service.webhooks.model import EVENT_TYPES, Endpoint, endpoint_encoder, endpoints_key
from tests.conftest import client_for, own_redis
from tests.support.gql import ABANDON, RESIGN
from tests.support.play import create_game
from tests.support.tenants import ACME, GLOBEX, KEYS, LEGAL, post
from tests.webhooks.harness import register, sync_flags
from tests.webhooks.test_delivery import CREATE, MOVE

SCHEMAS = {
    kind: json.loads((Path("schema/webhooks") / f"{kind}.json").read_text()) for kind in EVENT_TYPES
}


@pytest.fixture
async def setup() -> AsyncIterator[tuple[httpx.AsyncClient, RedisStore]]:
    with own_redis() as url:
        settings = Settings(api_keys=KEYS, rate_limit_per_token=0, rate_limit_per_address=0)
        store = RedisStore(connect(settings, url), settings)
        async with client_for(create_app(settings, url)) as http:
            yield http, store
        await store.close()


async def events(store: RedisStore, tenant: str, game_id: str) -> list[dict[str, Any]]:
    """The game's events in its outbox, in commit order, each checked against its schema."""
    entries = await store.redis.xrange(outbox_key(lane_of(game_id), tenant))
    found = []
    for _, fields in entries:
        if fields[b"g"].decode() == game_id:
            for event in json.loads(fields[b"e"]):
                jsonschema.validate(event, SCHEMAS[event["type"]])
                found.append(event)
    return found


async def create(http: httpx.AsyncClient, key: str, kind: str, players: int) -> Any:
    ids = [f"player-{seat}" for seat in range(players)]
    return await create_game(
        http, document=CREATE, key=key, kind=kind, players=players, playerIds=ids
    )


@pytest.mark.parametrize("kind", ["TREELINGS", "TREE_LINED_AVENUE"])
async def test_each_accepted_change_writes_its_events_and_nothing_else(
    setup: tuple[httpx.AsyncClient, RedisStore], kind: str
) -> None:
    http, store = setup
    await register(store.redis, "acme", "http://127.0.0.1:9/unused")
    created = await create(http, ACME, kind, 3)
    game, tokens = created["game"], [seat["token"] for seat in created["seats"]]
    chooser, expected = random.Random(kind), []
    acting: list[int] = []
    while True:
        started = [seat for seat in game["toAct"] if seat not in acting]
        if game["status"] == "ACTIVE" and started:
            expected.append(("turn.started", game["version"], started))
        acting = game["toAct"]
        if game["status"] != "ACTIVE":
            break
        seat = chooser.choice(game["toAct"])
        refused = {"id": game["id"], "move": {"type": "NONSENSE"}, "expected": game["version"]}
        answer = (await post(http, MOVE, refused, token=tokens[seat]))["data"]["applyMove"]
        assert answer["__typename"] == "MoveRejected"
        legal = await post(http, LEGAL, {"id": game["id"]}, token=tokens[seat])
        choice = chooser.choice(legal["data"]["game"]["legalMoves"])["move"]
        variables = {"id": game["id"], "move": choice, "expected": game["version"]}
        answer = (await post(http, MOVE, variables, token=tokens[seat]))["data"]["applyMove"]
        game = {**game, **answer["game"]}
    expected.append(("game.finished", game["version"], None))
    found = await events(store, "acme", game["id"])
    assert [
        (e["type"], e["data"]["version"], [s["seat"] for s in e["data"]["seats"]])
        if e["type"] == "turn.started"
        else (e["type"], e["data"]["version"], None)
        for e in found
    ] == expected
    ended = found[-1]["data"]
    assert ended["reason"] == "RULES" and ended["winners"] == game["scores"]["winners"]
    assert [(s["seat"], s["points"]) for s in ended["scores"]] == [
        (e["seat"], e["points"]) for e in game["scores"]["entries"]
    ]
    assert all(s["playerId"] == f"player-{s['seat']}" for s in ended["scores"])


async def test_resign_abandon_and_timeout_have_their_events(
    setup: tuple[httpx.AsyncClient, RedisStore],
) -> None:
    http, store = setup
    await register(store.redis, "acme", "http://127.0.0.1:9/unused")
    resigned = await create(http, ACME, "TREELINGS", 2)
    await post(http, RESIGN, {"id": resigned["game"]["id"]}, token=resigned["seats"][1]["token"])
    found = await events(store, "acme", resigned["game"]["id"])
    assert [e["type"] for e in found] == ["turn.started", "game.resigned", "game.finished"]
    assert found[1]["data"]["seat"] == 1 and found[1]["data"]["playerId"] == "player-1"
    assert found[2]["data"]["reason"] == "RESIGNED" and found[2]["data"]["winners"] == [0]

    abandoned = await create(http, ACME, "TREELINGS", 2)
    await post(http, ABANDON, {"id": abandoned["game"]["id"]}, ACME)
    found = await events(store, "acme", abandoned["game"]["id"])
    assert [e["type"] for e in found] == ["turn.started", "game.abandoned"]
    assert found[1]["data"]["seat"] is None and found[1]["data"]["playerId"] is None

    variables = {
        "input": {
            "kind": "TREELINGS",
            "players": 2,
            "playerIds": ["a", "b"],
            "clock": {"perDecisionSeconds": 3600, "onTimeout": "FORFEIT"},
        }
    }
    clocked = (await post(http, CREATE, variables, ACME))["data"]["createGame"]["game"]
    record, _ = await store.load(clocked["id"])
    assert record is not None
    await enforce_clock(store, clocked["id"], record, time.time() + 7200, limit=1)
    found = await events(store, "acme", clocked["id"])
    assert [e["type"] for e in found] == ["turn.started", "game.timeout", "game.finished"]
    assert found[0]["data"]["deadline"] is not None
    assert found[2]["data"]["reason"] == "TIMEOUT"


async def test_only_a_tenant_with_an_enabled_endpoint_fills_an_outbox(
    setup: tuple[httpx.AsyncClient, RedisStore],
) -> None:
    http, store = setup
    await register(store.redis, "acme", "http://127.0.0.1:9/unused")
    disabled = await register(store.redis, "globex", "http://127.0.0.1:9/unused")
    disabled = msgspec.structs.replace(disabled, enabled=False)
    await store.redis.hset(endpoints_key("globex"), disabled.id, endpoint_encoder.encode(disabled))
    await sync_flags(store.redis, "globex")
    for key in (ACME, GLOBEX):
        await create(http, key, "TREELINGS", 2)
    acme = [await store.redis.xlen(outbox_key(lane, "acme")) for lane in range(LANES)]
    globex = [await store.redis.exists(outbox_key(lane, "globex")) for lane in range(LANES)]
    assert sum(acme) == 1 and sum(globex) == 0


async def test_a_takeback_has_its_event(setup: tuple[httpx.AsyncClient, RedisStore]) -> None:
    """game.takeback: who asked, back to which version, who agreed; then the turn
    of the seat that took back starts again."""
    http, store = setup
    await register(store.redis, "acme", "http://127.0.0.1:9/unused")
    created = await create_game(
        http,
        document=CREATE,
        key=ACME,
        kind="TREELINGS",
        players=2,
        seed="tb-TREELINGS",
        playerIds=["a", "b"],
        takebacks="OWN_DECISIONS",
    )
    game_id, token = created["game"]["id"], created["seats"][0]["token"]
    version = created["game"]["version"]
    legal = await post(http, LEGAL, {"id": game_id}, token=token)
    move = {"type": "takeColour", "colour": "green"}  # draws nothing: seat 0 goes on
    assert {"move": move} in legal["data"]["game"]["legalMoves"]
    await post(http, MOVE, {"id": game_id, "move": move, "expected": version}, token=token)
    asked = await post(http, TAKEBACK, {"id": game_id}, token=token)
    assert asked["data"]["requestTakeback"]["__typename"] == "MoveApplied", asked

    found = await events(store, "acme", game_id)
    taken = [e for e in found if e["type"] == "game.takeback"]
    assert len(taken) == 1
    assert taken[0]["data"] == {
        "gameId": game_id,
        "kind": "TREELINGS",
        "version": version + 2,
        "seat": 0,
        "playerId": "a",
        "toVersion": version,
        "agreedBy": [],
    }


TAKEBACK = """
mutation Takeback($id: ID!) { requestTakeback(gameId: $id) { __typename } }"""


async def test_the_workers_repair_sets_switches_and_never_clears_them(
    setup: tuple[httpx.AsyncClient, RedisStore],
) -> None:
    """The workers' repair reads a tenant's endpoints, then writes the lanes' switches: a clear
    from a read made just before the tenant's first endpoint was saved would switch its events
    off until the next repair (a CI run's game lost the events of its moves that way). So the
    repair only sets them; the API clears them when the last enabled endpoint goes."""
    _, store = setup
    endpoints = EndpointStore(store, store.settings)
    switches = [enabled_key(lane, "acme") for lane in range(LANES)]
    await store.redis.set(switches[0], "1")  # as the API's save of a first endpoint left it
    await endpoints.sync_flags("acme", repair=True)  # a repair that read no endpoint
    assert await store.redis.exists(*switches) == 1
    await register(store.redis, "acme", "http://127.0.0.1:9/unused")
    await endpoints.sync_flags("acme", repair=True)
    assert await store.redis.exists(*switches) == LANES
    await store.redis.delete(endpoints_key("acme"))
    await endpoints.sync_flags("acme")  # the API's, after the last endpoint went
    assert await store.redis.exists(*switches) == 0


async def test_a_clear_never_undoes_the_switches_of_an_endpoint_saved_meanwhile(
    setup: tuple[httpx.AsyncClient, RedisStore],
) -> None:
    """The API clears the switches when a tenant's last enabled endpoint goes. Another process
    may save a first endpoint meanwhile: the clear's list read just before that save, its
    deletes landing after the save's sets would leave the new endpoint without events until
    the next repair. A clear deletes only the values it read before listing, so the save's
    sets stay."""
    _, store = setup
    switches = [enabled_key(lane, "acme") for lane in range(LANES)]
    other = EndpointStore(store, store.settings)  # another API process
    await register(store.redis, "acme", "http://127.0.0.1:9/old")
    await other.sync_flags("acme")
    assert await store.redis.exists(*switches) == LANES
    await store.redis.delete(endpoints_key("acme"))  # the last endpoint deleted

    class Racing(EndpointStore):
        """The deleting process: while its list is read, the other saves an endpoint."""

        async def list(self, tenant: str) -> list[Endpoint]:
            found = await super().list(tenant)
            if tenant == "acme" and not found:
                await register(store.redis, "acme", "http://127.0.0.1:9/new")
                await other.sync_flags("acme")
            return found

    await Racing(store, store.settings).sync_flags("acme")
    assert await store.redis.exists(*switches) == LANES
    # and with nobody racing, the last endpoint's going clears them
    await store.redis.delete(endpoints_key("acme"))
    await other.sync_flags("acme")
    assert await store.redis.exists(*switches) == 0


async def test_a_repair_during_a_clear_leaves_the_switches_to_it(
    setup: tuple[httpx.AsyncClient, RedisStore],
) -> None:
    """The workers' repair may run between a clear's read of the switches and its deletes, on
    a list read while the last endpoint still existed: it sets only a switch that is missing
    (NX), so the clear still deletes the switches it read and none stays on for nobody."""
    _, store = setup
    switches = [enabled_key(lane, "acme") for lane in range(LANES)]
    worker = EndpointStore(store, store.settings)
    await register(store.redis, "acme", "http://127.0.0.1:9/last")
    await worker.sync_flags("acme")
    assert await store.redis.exists(*switches) == LANES

    class Racing(EndpointStore):
        """The API process deleting the last endpoint: the repair runs right after it read the
        switches, while the endpoint is still there, then the endpoint goes."""

        async def _flags(self, keys: list[str]) -> list[bytes | None]:
            held = await super()._flags(keys)
            await worker.sync_flags("acme", repair=True)
            await store.redis.delete(endpoints_key("acme"))
            return held

    await Racing(store, store.settings).sync_flags("acme")
    assert await store.redis.exists(*switches) == 0
    # a switch lost (a failover) is set again by the repair
    await register(store.redis, "acme", "http://127.0.0.1:9/again")
    await worker.sync_flags("acme", repair=True)
    assert await store.redis.exists(*switches) == LANES
