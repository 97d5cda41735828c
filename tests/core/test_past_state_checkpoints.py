"""Past states with bounded cost: `stateAt` replays from the latest
checkpoint at or below the version asked, not from the seed, and answers byte for byte what
the full replay from the seed answers, for every version of games of every kind, active or
finished (folded)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import msgspec
import pytest

from service.core import GameService
from service.core.game.loaded_game import LoadedGame
from service.engine import encode_state, replay
from service.games import games
from service.settings import Settings
from service.store import HistoryRecord, RedisStore, connect
from service.store.records import CHECKPOINT_EVERY, checkpoint_decoder

ACTIVE_TTL, FINISHED_TTL = 5000, 3000


class CountingStore(RedisStore):
    """The real store, counting the history entries each read answers."""

    read: list[int]

    async def read_history(
        self, game_id: str, after: int = 0, until: int | None = None
    ) -> tuple[list[HistoryRecord], bytes | None]:
        entries, digest = await super().read_history(game_id, after, until)
        self.read.append(len(entries))
        return entries, digest


@pytest.fixture
async def service(redis_url: str) -> AsyncIterator[GameService]:
    settings = Settings(active_ttl=ACTIVE_TTL, finished_ttl=FINISHED_TTL)
    store = CountingStore(connect(settings, redis_url), settings)
    store.read = []
    yield GameService(store)
    await store.close()


def _full_replay(loaded: LoadedGame, entries: list[HistoryRecord], version: int) -> bytes:
    """The oracle: the state at `version` replayed from the seed over every decision before it,
    as stateAt answered before checkpoints (a version inside a run of forced steps answers the
    state before the decision that started it)."""
    record = loaded.record
    decided = [e for e in entries if e.version <= version and not e.forced and e.move is not None]
    if any(e.version == version + 1 and e.forced for e in entries) and decided:
        decided.pop()
    decisions = [(e.seat, e.move) for e in decided]
    state = replay(loaded.game, record.players, record.options, record.seed, decisions)
    return encode_state(state)


async def _play(service: GameService, kind: str, seed: str, until: int | None = None) -> Any:
    """A 4-seat game of `kind` played with random legal moves to its end, or to the first
    version past `until`; its id, tokens and the game as loaded then."""
    loaded, tokens = await service.create(kind, 4, seed, None)
    game, chooser = games()[kind], random.Random(seed)
    while not game.is_over(loaded.state) and (until is None or loaded.record.version <= until):
        seat = game.to_act(loaded.state)[0]
        move = msgspec.to_builtins(chooser.choice(game.legal_moves(loaded.state, seat)))
        loaded = (await service.apply(loaded.id, tokens[seat], move, None, None)).game
    return loaded.id, tokens, await service.read(loaded.id, None)


async def _assert_every_version_as_replayed(service: GameService, loaded: LoadedGame) -> None:
    entries = await service.store.history(loaded.id)
    for version in range(loaded.record.version + 1):
        then = await service.at_version(loaded, version)
        assert then.record.state == _full_replay(loaded, entries, version), version
        if version < loaded.record.version:  # else the game as it is (a resignation ended it)
            assert then.record.finished == loaded.game.is_over(then.state), version


@pytest.mark.parametrize("kind", sorted(games()))
async def test_every_version_answers_what_the_full_replay_answers(
    service: GameService, kind: str
) -> None:
    game_id, tokens, loaded = await _play(service, kind, f"checkpoints-{kind}", until=40)
    await _assert_every_version_as_replayed(service, loaded)  # active: checkpoints in g:{id}:c
    seat = loaded.game.to_act(loaded.state)[0]
    if kind == "TREELINGS":  # also a game ended by a resignation, an event entry
        ended = (await service.resign(game_id, tokens[seat], None)).game
    else:
        game_id, _, ended = await _play(service, kind, f"checkpoints-{kind}")
    assert await service.store.redis.exists(f"g:{{{game_id}}}:h") == 0, "folded"
    await _assert_every_version_as_replayed(service, ended)


async def test_a_game_past_32_versions_keeps_the_committed_state_at_each_multiple(
    service: GameService,
) -> None:
    _, _, loaded = await _play(service, "TREETOPIA", "kept", until=3 * CHECKPOINT_EVERY)
    raw = await service.store.redis.hgetall(f"g:{{{loaded.id}}}:c")
    checkpoints = {int(slot): checkpoint_decoder.decode(value) for slot, value in raw.items()}
    assert sorted(checkpoints) == [1, 2, 3]
    for slot, checkpoint in checkpoints.items():
        assert slot * CHECKPOINT_EVERY <= checkpoint.version < (slot + 1) * CHECKPOINT_EVERY
        past = await service.at_version(loaded, checkpoint.version)
        assert checkpoint.state == past.record.state


async def test_a_late_version_reads_at_most_one_checkpoints_worth_of_history(
    service: GameService,
) -> None:
    store = service.store
    assert isinstance(store, CountingStore)
    for until in (6 * CHECKPOINT_EVERY, None):  # active, then finished and folded
        _, _, loaded = await _play(service, "TREETOPIA", "late", until=until)
        late = loaded.record.version - 3
        assert late > 5 * CHECKPOINT_EVERY
        store.read.clear()
        await service.at_version(loaded, late)
        assert store.read and max(store.read) <= CHECKPOINT_EVERY + 1, store.read


async def test_checkpoints_live_and_go_with_the_game(service: GameService) -> None:
    redis = service.store.redis
    game_id, tokens, loaded = await _play(service, "TREETOPIA", "ttl", until=CHECKPOINT_EVERY)
    record_key, checkpoints_key = f"g:{{{game_id}}}", f"g:{{{game_id}}}:c"
    assert ACTIVE_TTL - 5 <= await redis.ttl(checkpoints_key) <= ACTIVE_TTL
    # an hour later (as far as the TTLs tell), a move that writes no checkpoint
    await redis.expire(record_key, 60)
    await redis.expire(checkpoints_key, 60)
    seat = loaded.game.to_act(loaded.state)[0]
    move = msgspec.to_builtins(loaded.game.legal_moves(loaded.state, seat)[0])
    moved = (await service.apply(game_id, tokens[seat], move, None, None)).game
    assert moved.record.version // CHECKPOINT_EVERY == loaded.record.version // CHECKPOINT_EVERY
    assert ACTIVE_TTL - 5 <= await redis.ttl(checkpoints_key) <= ACTIVE_TTL
    await service.resign(game_id, tokens[moved.to_act[0]], None)
    assert await redis.exists(checkpoints_key) == 0, "folded into the record"
    assert await redis.hexists(record_key, "c")
    assert FINISHED_TTL - 5 <= await redis.ttl(record_key) <= FINISHED_TTL
