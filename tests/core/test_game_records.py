"""Portable game records through the real app: a game that is over exported over
GraphQL and REST alike, verified on the server with no stored game read, and refused before
the end (the record reveals the seed: RULINGS ALL-4); games with takebacks of every kind,
taken alone, with consent, declined or agreed by a bot, round trip too. The replay's own checks, step by step,
are in test_game_record_tampering.py."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import msgspec
import pytest

from service.app import create_app
from service.core import GameService
from service.core.records.compact import pack, unpack
from service.core.records.format import MAX_RECORD_BYTES, MAX_STEPS, GameRecord
from service.games import games
from service.settings import Settings
from service.store import Record, RedisStore, connect
from service.store.jobs import new_game_id
from service.store.records import record_decoder
from tests.conftest import Api, client_for
from tests.core.takeback_records import SCENES, scenes, takeback_game, takeback_steps
from tests.support import gql
from tests.support.play import apply, create, create_game, play_to_end
from tests.support.waiting import until

SCHEMA = json.loads((Path(__file__).parents[2] / "schema" / "game-record.json").read_text())
EXPORT = "query E($id: ID!) { exportGame(gameId: $id) }"
VERIFY = """
query V($record: JSON!) {
  verifyGameRecord(record: $record) {
    valid kind version scores difference { version reason message } signature keyId
  }
}"""
SCORES = "query S($id: ID!) { game(id: $id) { version status scores { final winners entries { seat points breakdown tiebreak team seatPoints } } } }"
CLOCKED = """
mutation C($input: CreateGameInput!) {
  createGame(input: $input) { game { id version status toAct clock { deadline } } seats { token } }
}"""


@pytest.fixture(scope="module")
def redis_url(quiet_redis_url: str) -> str:
    """Bot seats here wait for the test (tests/conftest.py, `quiet_redis_url`)."""
    return quiet_redis_url


@pytest.fixture(scope="module")
async def api(redis_url: str) -> AsyncIterator[Api]:
    """The app as `make run` starts it: RULES_MAX_BODY_BYTES as shipped (64 KiB), which a
    game record to verify may exceed on both APIs (up to MAX_RECORD_BYTES)."""
    settings = Settings(rate_limit_per_token=0, rate_limit_per_address=0)
    async with client_for(create_app(settings, redis_url)) as http:
        yield Api(http)


async def exported(api: Api, game_id: str, token: str | None = None) -> dict[str, Any]:
    """The game's record over GraphQL, checked to be REST's too and valid by the schema."""
    record: dict[str, Any] = (await api.gql(EXPORT, {"id": game_id}, token))["exportGame"]
    headers = {"authorization": f"Bearer {token}"} if token else {}
    rest = await api.http.get(f"/v1/games/{game_id}/record", headers=headers)
    assert rest.status_code == 200, rest.text
    assert rest.json() == record
    jsonschema.validate(record, SCHEMA)
    document = msgspec.convert(record, GameRecord)  # and it packs (compact.py) to itself
    assert unpack(pack(document), game_id) == document
    return record


async def verified(api: Api, record: Any) -> dict[str, Any]:
    """verifyGameRecord's answer, checked to be REST's too."""
    answer: dict[str, Any] = (await api.gql(VERIFY, {"record": record}))["verifyGameRecord"]
    rest = await api.http.post("/v1/game-records/verify", json=record)
    assert rest.status_code == 200, rest.text
    assert rest.json() == answer
    return answer


@pytest.mark.parametrize("kind", list(games()))
async def test_a_finished_game_of_every_kind_exports_and_verifies(api: Api, kind: str) -> None:
    game, tokens = await create(api, kind, games()[kind].min_players, seed=f"records-{kind}")
    over = await play_to_end(api, game, tokens, seed=f"records-{kind}")
    record = await exported(api, game["id"])
    assert record["kind"] == kind and record["players"] == over["players"]
    assert [s["version"] for s in record["steps"]] == list(range(1, over["version"] + 1))
    assert record["result"]["status"] == "FINISHED" and record["result"]["outcome"] is None
    assert "playerIds" not in json.dumps(record)  # never in a record (docs/api.md)
    answer = await verified(api, record)
    assert answer["valid"] and answer["difference"] is None, answer["difference"]
    assert answer["kind"] == kind and answer["version"] == over["version"]
    assert answer["scores"] == over["scores"] == record["result"]["scores"]
    # every seat and a spectator get the same record: it hides nothing any more
    assert await exported(api, game["id"], tokens[0]) == record


async def test_a_resigned_game_records_the_resignation_and_its_winners(api: Api) -> None:
    game, tokens = await create(api, "TREELINGS", 3, seed="records-resign")
    seen = (await api.gql(gql.GAME, {"id": game["id"]}, tokens[game["toAct"][0]]))["game"]
    await apply(api, game["id"], tokens[game["toAct"][0]], seen["legalMoves"][0]["move"])
    resigned = (await api.gql(gql.RESIGN, {"id": game["id"]}, tokens[1]))["resign"]
    assert resigned["__typename"] == "MoveApplied"
    record = await exported(api, game["id"])
    last = record["steps"][-1]
    assert last["event"] == "RESIGNED" and last["seat"] == 1 and "move" not in last
    assert record["result"]["outcome"] == resigned["game"]["outcome"]
    answer = await verified(api, record)
    assert answer["valid"], answer


async def test_an_abandoned_game_records_the_tenants_ending(api: Api) -> None:
    game, _ = await create(api, "TREETOPIA", 2, seed="records-abandon")
    assert (await api.gql(gql.ABANDON, {"id": game["id"]}))["abandonGame"]["__typename"] == (
        "MoveApplied"
    )
    record = await exported(api, game["id"])
    assert record["steps"][-1] == {**record["steps"][-1], "seat": -1, "event": "ABANDONED"}
    assert record["result"]["status"] == "ABANDONED"
    assert (await verified(api, record))["valid"]


async def test_timeouts_are_recorded_and_verify(api: Api) -> None:
    """An AUTO_RANDOM timeout plays a move for the seat (a decision marked TIMEOUT); a FORFEIT
    one ends the game with no move. Both replay."""
    for on_timeout in ("AUTO_RANDOM", "FORFEIT"):
        clock = {"perDecisionSeconds": 1, "onTimeout": on_timeout}
        payload = await create_game(api.http, document=CLOCKED, kind="TREELINE", clock=clock)
        game, tokens = payload["game"], [s["token"] for s in payload["seats"]]

        async def timed_out(game_id: str = game["id"], version: int = game["version"]) -> Any:
            seen = (await api.gql(SCORES, {"id": game_id}))["game"]  # each read checks the clock
            return seen if seen["version"] > version else None

        await until(timed_out, f"the {on_timeout} timeout")
        if on_timeout == "AUTO_RANDOM":  # over by a resignation, after the timeout's move
            await api.gql(gql.RESIGN, {"id": game["id"]}, tokens[0])
        record = await exported(api, game["id"])
        timeouts = [s for s in record["steps"] if s.get("event") == "TIMEOUT"]
        assert timeouts and (("move" in timeouts[0]) == (on_timeout == "AUTO_RANDOM"))
        assert record["clock"]["onTimeout"] == on_timeout
        assert (await verified(api, record))["valid"], on_timeout
        # the clock's move is the one its onTimeout plays, and only a clock times out
        version = timeouts[0]["version"]
        other = "FORFEIT" if on_timeout == "AUTO_RANDOM" else "AUTO_GREEDY"
        for tampered in (
            {**record, "clock": {**record["clock"], "onTimeout": other}},
            {**record, "clock": None},
        ):
            answer = await verified(api, tampered)
            assert answer["difference"]["version"] == version
            assert answer["difference"]["reason"] == "TIMEOUT_MISMATCH"
        if on_timeout == "AUTO_RANDOM":
            steps = [dict(s) for s in record["steps"]]
            steps[version - 1]["move"] = {"type": "deployFromSupply"}
            answer = await verified(api, {**record, "steps": steps})
            assert answer["difference"]["reason"] == "TIMEOUT_MISMATCH"


async def test_a_game_that_is_not_over_has_no_record_yet(api: Api) -> None:
    """RULINGS ALL-4: the record reveals the seed, and with it every hidden card."""
    game, tokens = await create(api, "TREETOPIA", 2, seed="records-early")
    for token in (None, tokens[0]):
        answer = (await api.post(EXPORT, {"id": game["id"]}, token)).json()
        assert answer["data"] is None
        assert answer["errors"][0]["extensions"]["code"] == "GAME_NOT_OVER"
        headers = {"authorization": f"Bearer {token}"} if token else {}
        rest = await api.http.get(f"/v1/games/{game['id']}/record", headers=headers)
        assert rest.status_code == 409 and rest.json()["code"] == "GAME_NOT_OVER"


async def test_export_is_refused_like_a_read(api: Api) -> None:
    missing = (await api.post(EXPORT, {"id": "nope"})).json()
    assert missing["errors"][0]["extensions"]["code"] == "NOT_FOUND"
    assert (await api.http.get("/v1/games/nope/record")).json()["code"] == "NOT_FOUND"
    game, _ = await create(api, "TREELINGS", 2, seed="records-token")
    bad = {"authorization": "Bearer 0.not-a-token"}
    assert (await api.http.get(f"/v1/games/{game['id']}/record", headers=bad)).status_code == 401


async def test_a_tampered_record_fails_at_its_first_differing_step_on_both_apis(
    api: Api,
) -> None:
    game, tokens = await create(api, "TREELINGS", 2, seed="records-tampered")
    await play_to_end(api, game, tokens, seed="records-tampered")
    record = await exported(api, game["id"])
    decision = next(s for s in record["steps"] if not s.get("forced") and s["version"] > 3)
    other = decision["version"]
    tampered = json.loads(json.dumps(record))
    step = tampered["steps"][other - 1]
    legal_elsewhere = next(
        s["move"] for s in record["steps"] if s.get("move") and s["move"] != step["move"]
    )
    step["move"] = legal_elsewhere
    answer = await verified(api, tampered)
    assert answer["valid"] is False and answer["scores"] is None
    assert answer["difference"]["version"] == other
    assert answer["difference"]["reason"] in {"ILLEGAL_MOVE", "STATE_MISMATCH"}


# Hostile input: a typed answer on both APIs, never a 500.
async def test_what_is_no_game_record_is_malformed(api: Api) -> None:
    for document in (5, "record", [], {}, {"format": "tree-games/game-record", "formatVersion": 1}):
        answer = await verified(api, document)
        assert answer["valid"] is False
        assert answer["difference"]["reason"] in {"MALFORMED", "UNSUPPORTED_FORMAT"}, document
    record = {"format": "tree-games/game-record", "formatVersion": 1, "steps": "many"}
    assert (await verified(api, record))["difference"]["reason"] == "MALFORMED"


async def test_a_record_with_too_many_steps_is_not_replayed(api: Api) -> None:
    step = {"version": 1, "seat": 0, "digest": "0" * 64}
    record = {
        "format": "tree-games/game-record",
        "formatVersion": 1,
        "steps": [step] * (MAX_STEPS + 1),
    }
    answer = await verified(api, record)
    assert answer["difference"] == {
        "version": 0,
        "reason": "TOO_LONG",
        "message": f"a record has at most {MAX_STEPS} steps here",
    }


async def test_a_record_over_the_size_limit_is_refused_unread(api: Api) -> None:
    huge = {"format": "tree-games/game-record", "padding": "x" * MAX_RECORD_BYTES}
    rest = await api.http.post("/v1/game-records/verify", json=huge)
    assert rest.status_code == 413 and rest.json()["code"] == "PAYLOAD_TOO_LARGE"
    graphql = await api.post(VERIFY, {"record": huge})
    assert graphql.status_code == 413
    assert graphql.json()["errors"][0]["extensions"]["code"] == "PAYLOAD_TOO_LARGE"


async def test_a_deeply_nested_record_is_a_bad_request(api: Api) -> None:
    deep: Any = 1
    for _ in range(200):
        deep = [deep]
    body = json.dumps({"format": "tree-games/game-record", "steps": deep})
    rest = await api.http.post(
        "/v1/game-records/verify", content=body, headers={"content-type": "application/json"}
    )
    assert rest.status_code == 400 and rest.json()["code"] == "BAD_REQUEST"
    graphql = (await api.post(VERIFY, {"record": json.loads(body)})).json()
    assert graphql["errors"][0]["extensions"]["code"] == "BAD_REQUEST"
    not_json = await api.http.post("/v1/game-records/verify", content=b"{nope")
    assert not_json.status_code == 400 and not_json.json()["code"] == "BAD_REQUEST"


async def test_a_record_over_the_body_limit_verifies_on_graphql_and_nothing_else_that_size(
    api: Api,
) -> None:
    """A four-seat Treetopia game's record is larger than RULES_MAX_BODY_BYTES (64 KiB): it
    verifies over GraphQL as over REST. A body that large asking anything else, a document
    over the limit itself, or a body that is not JSON is 413 PAYLOAD_TOO_LARGE."""
    limit = Settings().max_body_bytes
    game, tokens = await create(api, "TREETOPIA", 4, seed="size-TREETOPIA-4")
    await play_to_end(api, game, tokens, seed="size-TREETOPIA-4")
    record = await exported(api, game["id"])
    assert len(json.dumps({"query": VERIFY, "variables": {"record": record}})) > limit
    answer = await verified(api, record)
    assert answer["valid"] and answer["kind"] == "TREETOPIA", answer

    def refused(response: httpx.Response) -> None:
        assert response.status_code == 413, response.text
        assert response.json()["errors"][0]["extensions"]["code"] == "PAYLOAD_TOO_LARGE"

    refused(await api.post(gql.GAME, {"id": "x" * (limit + 1)}))
    both = "query B($record: JSON!, $id: ID!) { verifyGameRecord(record: $record) { valid } game(id: $id) { version } }"
    refused(await api.post(both, {"record": record, "id": game["id"]}))
    padded = VERIFY + "#" + "x" * limit  # the document itself over the limit
    refused(await api.post(padded, {"record": {"format": "tree-games/game-record"}}))
    body = json.dumps({"query": VERIFY, "variables": {"record": record}})
    refused(await api.http.post("/graphql", content=body, headers={"content-type": "text/plain"}))
    # a record-sized body of anything else, under a persisted query's hash alone, too
    hashed = {"persistedQuery": {"version": 1, "sha256Hash": "0" * 64}}
    refused(
        await api.http.post("/graphql", json={"extensions": hashed, "variables": {"r": record}})
    )


OLD_RECORD = Path(__file__).parents[1] / "store" / "fixtures" / "treelings-format1.msgpack"


async def _stored(redis_url: str, record: Record) -> str:
    settings = Settings()
    store = RedisStore(connect(settings, redis_url), settings)
    game_id = new_game_id()
    try:
        assert await store.create(game_id, record, [])
    finally:
        await store.close()
    return game_id


async def test_a_game_this_release_cannot_replay_has_no_record(api: Api, redis_url: str) -> None:
    """An earlier release's game without its options, or one under retired rules: refused
    with the code that says why, never a record that would not verify."""
    old = msgspec.structs.replace(record_decoder.decode(OLD_RECORD.read_bytes()), finished=True)
    assert old.options is None
    retired = msgspec.structs.replace(old, options={}, rules=0)
    for record, graphql_code, status, rest_code in (
        (old, "BAD_USER_INPUT", 400, "BAD_REQUEST"),
        (retired, "RULES_CHANGED", 409, "RULES_CHANGED"),
    ):
        game_id = await _stored(redis_url, record)
        answer = (await api.post(EXPORT, {"id": game_id})).json()
        assert answer["errors"][0]["extensions"]["code"] == graphql_code
        rest = await api.http.get(f"/v1/games/{game_id}/record")
        assert rest.status_code == status and rest.json()["code"] == rest_code


@pytest.fixture(scope="module")
async def service(redis_url: str) -> AsyncIterator[GameService]:
    """The game service on the app's Redis: the takeback scenes are played on it."""
    settings = Settings()
    store = RedisStore(connect(settings, redis_url), settings)
    yield GameService(store)
    await store.close()


# the takeback steps of each scene (takeback_records.py), in order
STEPS = {
    "ALONE": ["TAKEN"],
    "BOTS": ["TAKEN"],
    "WITH_CONSENT": ["ASKED", "DECLINED", "ASKED", "TAKEN"],
    "DECLINED": ["ASKED", "DECLINED", "ASKED"],
    "THREE_SEATS": ["ASKED", "ACCEPTED", "TAKEN"],
}


@pytest.mark.parametrize("scene", SCENES)
@pytest.mark.parametrize("kind", list(games()))
async def test_a_game_with_takebacks_exports_and_verifies(
    api: Api, service: GameService, redis_url: str, kind: str, scene: str
) -> None:
    """Every takeback step is in the record with who asked and who agreed, under the game's
    policy; the replay judges each as the service did and a TAKEN step restores the state of
    its toVersion byte for byte (its digest is that version's)."""
    if scene not in scenes(kind):
        pytest.skip(f"{kind} has no {scene} scene")
    game_id = await takeback_game(service, kind, scene, redis_url)
    record = await exported(api, game_id)
    assert record["takebacks"] == ("OWN_DECISIONS" if scene == "ALONE" else "WITH_CONSENT")
    steps = [s["takeback"]["step"] for s in record["steps"] if "takeback" in s]
    assert steps == STEPS[scene]
    assert all(
        s["event"] == "TAKEBACK" and "move" not in s for s in record["steps"] if "takeback" in s
    )
    for taken in takeback_steps(record):
        note, to_version = taken["takeback"], taken["takeback"]["toVersion"]
        assert taken["seat"] == note["askedBy"]
        others = sorted(set(range(record["players"])) - {note["askedBy"]})
        assert note["agreedBy"] == ([] if scene == "ALONE" else others)
        if to_version > 0:
            assert taken["digest"] == record["steps"][to_version - 1]["digest"]
    answer = await verified(api, record)
    assert answer["valid"] and answer["difference"] is None, answer["difference"]
    assert answer["version"] == record["result"]["version"]
    assert answer["scores"] == record["result"]["scores"]
