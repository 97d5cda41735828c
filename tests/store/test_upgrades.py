"""Two releases on one Redis (docs/reliability.md, "Rolling upgrades"), in one process: a
record a newer release wrote (one more trailing field, a newer FORMAT, `w` beside it) reads
fine but is never written back by this release, not even by a write that raced the check; a
record of an earlier release (no `w`, no `rules`) is read and written as before. The same with
two real releases side by side: tests/reliability/test_rolling_upgrade.py."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import msgspec
import pytest

from service.settings import Settings
from service.store import FORMAT, HistoryRecord, RedisStore, UpgradeInProgress, connect
from service.store.records import fold, record_decoder
from tests.conftest import Api
from tests.support.play import create

READ = """
query Read($id: ID!) { game(id: $id) { version toAct legalMoves { move } } }"""
APPLY = """
mutation Apply($input: ApplyMoveInput!) {
  applyMove(input: $input) { __typename ... on MoveApplied { game { version } } }
}"""
ABANDON = "mutation Abandon($id: ID!) { abandonGame(gameId: $id) { __typename } }"
NEXT_FIELD = "a field only the next release knows"


@pytest.fixture
async def store(redis_url: str) -> AsyncIterator[RedisStore]:
    settings = Settings()
    store = RedisStore(connect(settings, redis_url), settings)
    yield store
    await store.close()


def _record_key(game_id: str) -> str:
    return f"g:{{{game_id}}}"


async def _written_by_the_next_release(store: RedisStore, game_id: str) -> None:
    """The game's record as a release of the next format writes it: one more field at the end."""
    raw = await store.redis.hget(_record_key(game_id), "r")
    fields = msgspec.msgpack.decode(raw)
    fields[0] = FORMAT + 1
    newer = msgspec.msgpack.encode([*fields, NEXT_FIELD])
    await store.redis.hset(_record_key(game_id), mapping={"r": newer, "w": FORMAT + 1})


async def _stored(store: RedisStore, game_id: str) -> tuple[Any, ...]:
    """Everything a write would change: the record hash and the history."""
    kept = await store.redis.hgetall(_record_key(game_id))
    history = await store.redis.lrange(f"{_record_key(game_id)}:h", 0, -1)
    return tuple(sorted(kept.items())), tuple(history)


async def _first_move(api: Api, game_id: str, token: str) -> Any:
    seen = await api.gql(READ, {"id": game_id}, token)
    return seen["game"]["legalMoves"][0]["move"]


async def test_a_record_a_newer_release_wrote_reads_but_is_never_written(
    api: Api, store: RedisStore
) -> None:
    game, tokens = await create(api, "TREELINGS", 2, seed="next-release")
    await _written_by_the_next_release(store, game["id"])
    before = await _stored(store, game["id"])

    seen = await api.gql(READ, {"id": game["id"]}, tokens[0])  # readers take additive fields
    assert seen["game"]["version"] == game["version"] and seen["game"]["legalMoves"]
    move = seen["game"]["legalMoves"][0]["move"]

    variables = {"input": {"gameId": game["id"], "move": move, "idempotencyKey": "k1"}}
    answer = (await api.post(APPLY, variables, tokens[0])).json()
    assert answer["errors"][0]["extensions"]["code"] == "UPGRADE_IN_PROGRESS", answer
    rest = await api.http.post(
        f"/v1/games/{game['id']}/moves",
        json={"move": move},
        headers={"authorization": f"Bearer {tokens[0]}", "idempotency-key": "k1"},
    )
    assert rest.status_code == 503, rest.text
    assert rest.headers["content-type"] == "application/problem+json"
    assert rest.json()["code"] == "UPGRADE_IN_PROGRESS" and rest.headers["retry-after"]
    abandoned = (await api.post(ABANDON, {"id": game["id"]})).json()  # no rules: the script
    assert abandoned["errors"][0]["extensions"]["code"] == "UPGRADE_IN_PROGRESS", abandoned

    assert await _stored(store, game["id"]) == before, "nothing was written"
    raw = await store.redis.hget(_record_key(game["id"]), "r")
    assert msgspec.msgpack.decode(raw)[-1] == NEXT_FIELD


async def test_the_commit_script_refuses_a_newer_record_whatever_the_caller_checked(
    api: Api, store: RedisStore
) -> None:
    """The write races a newer release's: the record this release loaded was its own, the
    stored format now says newer. The script compares it with the version, atomically."""
    game, _ = await create(api, "TREELINGS", 2, seed="raced")
    record, _ = await store.load(game["id"])
    assert record is not None and record.format == FORMAT
    await store.redis.hset(_record_key(game["id"]), "w", FORMAT + 1)
    before = await _stored(store, game["id"])
    after = msgspec.structs.replace(record, version=record.version + 1)
    entry = HistoryRecord(after.version, -1, None, "abandoned by its tenant", event="ABANDONED")
    with pytest.raises(UpgradeInProgress) as refused:
        await store.commit(game["id"], record.version, after, [entry], None)
    assert refused.value.code == "UPGRADE_IN_PROGRESS"
    assert await _stored(store, game["id"]) == before


async def test_a_history_a_newer_release_wrote_is_not_folded_by_this_one(
    api: Api, store: RedisStore
) -> None:
    game, _ = await create(api, "TREELINGS", 2, seed="not-folded")
    entries = await store.history(game["id"])
    await _written_by_the_next_release(store, game["id"])
    before = await _stored(store, game["id"])
    assert not await store.fold(game["id"], game["version"], fold(entries, True))
    assert await _stored(store, game["id"]) == before


async def test_a_record_of_an_earlier_release_is_written_in_this_releases_format(
    api: Api, store: RedisStore
) -> None:
    game, tokens = await create(api, "TREELINGS", 2, seed="earlier-release")
    key = _record_key(game["id"])
    fields = msgspec.msgpack.decode(await store.redis.hget(key, "r"))
    earlier = msgspec.msgpack.encode([1, *fields[1:-1]])  # format 1: no `rules`, no `w`
    await store.redis.hset(key, "r", earlier)
    await store.redis.hdel(key, "w")

    move = await _first_move(api, game["id"], tokens[0])
    applied = await api.gql(APPLY, {"input": {"gameId": game["id"], "move": move}}, tokens[0])
    assert applied["applyMove"]["__typename"] == "MoveApplied"
    record = record_decoder.decode(await store.redis.hget(key, "r"))
    assert (record.format, record.rules) == (FORMAT, 1)
    assert int(await store.redis.hget(key, "w")) == FORMAT


async def test_this_release_writes_its_format_beside_a_new_record(
    api: Api, store: RedisStore
) -> None:
    game, _ = await create(api, "TREELINGS", 2, seed="own-format")
    key = _record_key(game["id"])
    record = record_decoder.decode(await store.redis.hget(key, "r"))
    assert int(await store.redis.hget(key, "w")) == record.format == FORMAT
