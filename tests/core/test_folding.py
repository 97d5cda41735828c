"""Finished games cost at most 4 KiB: the history is folded into the record without
its labels, which the engine gives back; idempotency keys stay for a grace period only."""

from __future__ import annotations

import random
import secrets
from collections.abc import AsyncIterator
from typing import Any

import msgspec
import pytest

from service.core import GameService
from service.core.game.folding import replayable
from service.engine import start
from service.games import games
from service.settings import Settings
from service.store import FORMAT, HistoryRecord, Record, RedisStore, connect
from service.store.records import fold, unfold
from tests.conftest import Api
from tests.support import gql
from tests.support.play import apply, create

FINISHED_BYTES = 4096
GRACE = 600


@pytest.fixture
async def service(redis_url: str) -> AsyncIterator[GameService]:
    settings = Settings(idempotency_grace=GRACE)
    store = RedisStore(connect(settings, redis_url), settings)
    yield GameService(store)
    await store.close()


async def _finish(service: GameService, kind: str, players: int, seed: str) -> str:
    """A game played to its end with random legal moves, an idempotency key on every one."""
    loaded, tokens = await service.create(kind, players, seed, None)
    game, state, chooser = games()[kind], loaded.state, random.Random(seed)
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        move = msgspec.to_builtins(chooser.choice(game.legal_moves(state, seat)))
        applied = await service.apply(loaded.id, tokens[seat], move, None, secrets.token_hex(16))
        state = applied.game.state
    return loaded.id


@pytest.mark.parametrize("kind", sorted(games()))
async def test_a_finished_game_takes_at_most_4_kib_once_its_keys_grace_is_over(
    service: GameService, kind: str
) -> None:
    game_id = await _finish(service, kind, 4, f"fold-{kind}")
    redis = service.store.redis
    record, history, keys = f"g:{{{game_id}}}", f"g:{{{game_id}}}:h", f"g:{{{game_id}}}:i"
    assert await redis.exists(history) == 0, "the history list is folded into the record"
    assert 0 < await redis.ttl(keys) <= GRACE, "idempotency keys go after the grace"
    kept = await redis.memory_usage(record, samples=0)
    assert kept <= FINISHED_BYTES, f"{kind}: {kept} bytes"


async def test_history_reads_the_same_before_and_after_the_fold(api: Api) -> None:
    game, tokens = await create(api, "TREELINGS", 2, seed="fold-history")
    chooser, before = random.Random(7), None
    while game["status"] == "ACTIVE":
        seen = (await api.gql(gql.HISTORY, {"id": game["id"]}))["game"]
        before = seen["history"]
        seat = chooser.choice(game["toAct"])
        state = (await api.gql(gql.GAME, {"id": game["id"]}, tokens[seat]))["game"]
        move = chooser.choice(state["legalMoves"])["move"]
        result = await apply(
            api, game["id"], tokens[seat], move, idempotencyKey=f"k{seat}-{len(before)}"
        )
        game = result["game"]
    after = (await api.gql(gql.HISTORY, {"id": game["id"]}))["game"]["history"]
    assert before is not None and after[: len(before)] == before
    assert [e["version"] for e in after] == list(range(1, game["version"] + 1))
    assert all(e["label"] for e in after)
    tail = (await api.gql(gql.HISTORY, {"id": game["id"], "after": len(before)}))["game"]
    assert tail["history"] == after[len(before) :]
    rest = (await api.http.get(f"/v1/games/{game['id']}/history")).json()["history"]
    for entry in rest:  # REST's message of each label: read back from the folded history too
        assert entry.pop("labelMessage")["text"] == entry["label"]
    assert rest == after


async def test_a_key_used_before_the_end_still_replays_its_first_answer(api: Api) -> None:
    game, tokens = await create(api, "TREELINGS", 2, seed="fold-replay")
    chooser, first, sent = random.Random(3), None, None
    while game["status"] == "ACTIVE":
        seat = game["toAct"][0]
        state = (await api.gql(gql.GAME, {"id": game["id"]}, tokens[seat]))["game"]
        move = chooser.choice(state["legalMoves"])["move"]
        key = f"move-{game['version']}"
        result: dict[str, Any] = await apply(
            api, game["id"], tokens[seat], move, idempotencyKey=key
        )
        if first is None:
            first, sent = result, (seat, move, key)
        game = result["game"]
    assert first is not None and sent is not None
    seat, move, key = sent
    again = await apply(api, game["id"], tokens[seat], move, idempotencyKey=key)
    assert again["replayed"] is True
    assert again["game"] == first["game"]


def test_a_history_with_an_entry_the_engine_did_not_make_keeps_its_labels() -> None:
    game = games()["TREELINGS"]
    record = Record(FORMAT, "TREELINGS", 2, 2, True, "s", [], b"", 0.0, 0.0, {}, {})
    seat, move = 0, msgspec.to_builtins(game.legal_moves(start(game, 2, {}, "s").state, 0)[0])
    entries = [HistoryRecord(1, seat, move, "a move"), HistoryRecord(2, 1, {"type": "leave"}, "x")]
    assert replayable(game, record, entries[:1])
    assert not replayable(game, record, entries)
    assert not replayable(game, msgspec.structs.replace(record, options=None), entries[:1])


def test_entries_with_an_event_keep_their_labels_and_events_through_the_fold() -> None:
    """A resignation has no move and a timeout's label says it was one: the
    engine cannot give those labels back, so the fold keeps them, with the events."""
    game = games()["TREELINGS"]
    record = Record(FORMAT, "TREELINGS", 2, 2, True, "s", [], b"", 0.0, 0.0, {}, {})
    move = msgspec.to_builtins(game.legal_moves(start(game, 2, {}, "s").state, 0)[0])
    entries = [
        HistoryRecord(1, 0, move, "timeout: a move", event="TIMEOUT"),
        HistoryRecord(2, 1, None, "seat 1 resigned", event="RESIGNED"),
    ]
    assert not replayable(game, record, entries[:1])
    assert unfold(fold(entries, labelled=True)) == (entries, None)
    plain = [HistoryRecord(1, 0, move, "a move")]
    assert unfold(fold(plain, labelled=True)) == (plain, None)
