"""A game is played and replayed only by the rules it was created under (docs/reliability.md,
"Rolling upgrades"): each game package's RULES_VERSION is stored in the record at creation; a
game under newer rules is left for the newer release (UPGRADE_IN_PROGRESS, retryable), one
under rules this release no longer has is refused moves (RULES_CHANGED) and past versions, and
can still be read and abandoned; a folded history whose labels replay otherwise is served
without labels, logged and counted. A rules bump is simulated the way a release makes one:
the running code's `rules_version` raised (and, where the replay must differ, its labels)."""

from __future__ import annotations

import importlib
import logging
import random
import secrets
from collections.abc import AsyncIterator
from typing import Any

import msgspec
import pytest

from service import metrics
from service.core import GameService
from service.games import games
from service.settings import Settings
from service.store import RedisStore, connect
from service.store.records import record_decoder, unfold
from tests.conftest import Api
from tests.support.play import create

KIND = "TREELINGS"
READ = """
query Read($id: ID!) { game(id: $id) { version status legalMoves { move } } }"""
APPLY = """
mutation Apply($input: ApplyMoveInput!) {
  applyMove(input: $input) { __typename ... on MoveApplied { game { version } } }
}"""
STATE_AT = "query At($id: ID!) { game(id: $id) { stateAt(version: 0) } }"
ABANDON = """
mutation Abandon($id: ID!) {
  abandonGame(gameId: $id) { __typename ... on MoveApplied { game { status } } }
}"""


@pytest.fixture
async def store(redis_url: str) -> AsyncIterator[RedisStore]:
    settings = Settings()
    store = RedisStore(connect(settings, redis_url), settings)
    yield store
    await store.close()


def _bump_rules(monkeypatch: pytest.MonkeyPatch, deal_otherwise: bool = False) -> None:
    """The running code's TREELINGS rules one version on, as a release that changed them has
    (its earlier version not kept: retired). With `deal_otherwise` the new rules draw once
    more before the deal, so no game of the old ones replays the same under them; without, a
    game moves forward to them (service/core/game/forward.py)."""
    game = games()[KIND]
    monkeypatch.setattr(type(game), "rules_version", game.rules_version + 1)
    if deal_otherwise:
        setup = type(game).setup

        def drawing_first(self: Any, players: int, options: Any, rng: Any) -> Any:
            rng.next64()
            return setup(self, players, options, rng)

        monkeypatch.setattr(type(game), "setup", drawing_first)


async def _rules_of(store: RedisStore, game_id: str, rules: int) -> None:
    key = f"g:{{{game_id}}}"
    record = record_decoder.decode(await store.redis.hget(key, "r"))
    await store.redis.hset(
        key, "r", msgspec.msgpack.encode(msgspec.structs.replace(record, rules=rules))
    )


async def _move(api: Api, game_id: str, token: str) -> tuple[Any, dict[str, Any]]:
    seen = (await api.gql(READ, {"id": game_id}, token))["game"]
    move = seen["legalMoves"][0]["move"]
    answer = (await api.post(APPLY, {"input": {"gameId": game_id, "move": move}}, token)).json()
    return move, answer


def test_every_game_package_declares_the_rules_version_of_its_game() -> None:
    for kind, game in games().items():
        package = importlib.import_module(type(game).__module__.rpartition(".")[0])
        assert package.RULES_VERSION == game.rules_version >= 1, kind


async def test_a_new_game_records_the_rules_it_is_created_under(
    api: Api, store: RedisStore
) -> None:
    game, _ = await create(api, KIND, 2, seed="rules-at-create")
    record, _ = await store.load(game["id"])
    assert record is not None and record.rules == games()[KIND].rules_version


async def test_a_game_under_newer_rules_is_left_for_the_release_that_has_them(
    api: Api, store: RedisStore
) -> None:
    game, tokens = await create(api, KIND, 2, seed="newer-rules")
    await _rules_of(store, game["id"], games()[KIND].rules_version + 1)
    move, answer = await _move(api, game["id"], tokens[0])
    assert answer["errors"][0]["extensions"]["code"] == "UPGRADE_IN_PROGRESS", answer
    rest = await api.http.post(
        f"/v1/games/{game['id']}/moves",
        json={"move": move},
        headers={"authorization": f"Bearer {tokens[0]}"},
    )
    assert rest.status_code == 503 and rest.json()["code"] == "UPGRADE_IN_PROGRESS"
    assert rest.headers["retry-after"]
    seen = (await api.gql(READ, {"id": game["id"]}, tokens[0]))["game"]
    assert seen["version"] == game["version"] and seen["status"] == "ACTIVE"


async def test_after_a_rules_bump_a_game_created_before_it_is_read_and_abandoned_not_played(
    api: Api, store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, tokens = await create(api, KIND, 2, seed="retired-rules")
    _, played = await _move(api, game["id"], tokens[0])  # version 1: a past to ask for
    assert played["data"]["applyMove"]["__typename"] == "MoveApplied", played
    _bump_rules(monkeypatch, deal_otherwise=True)
    move, answer = await _move(api, game["id"], tokens[1])
    assert answer["errors"][0]["extensions"]["code"] == "RULES_CHANGED", answer
    rest = await api.http.post(
        f"/v1/games/{game['id']}/moves",
        json={"move": move},
        headers={"authorization": f"Bearer {tokens[1]}"},
    )
    assert rest.status_code == 409 and rest.json()["code"] == "RULES_CHANGED", rest.text
    past = (await api.post(STATE_AT, {"id": game["id"]}, tokens[0])).json()
    assert past["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT", past  # no replay

    abandoned = await api.gql(ABANDON, {"id": game["id"]})
    assert abandoned["abandonGame"]["game"]["status"] == "ABANDONED"
    folded = await store.redis.hget(f"g:{{{game['id']}}}", "h")
    entries, digest = unfold(folded)
    assert digest is None, "folded with its labels: this release would not replay them"
    assert all(entry.label for entry in entries)


async def test_a_folded_history_that_replays_otherwise_is_served_without_labels(
    redis_url: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    settings = Settings()
    service = GameService(RedisStore(connect(settings, redis_url), settings))
    loaded, tokens = await service.create(KIND, 2, "replays-otherwise", None)
    game, state, chooser = loaded.game, loaded.state, random.Random(1)
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        move = msgspec.to_builtins(chooser.choice(game.legal_moves(state, seat)))
        state = (await service.apply(loaded.id, tokens[seat], move, None, None)).game.state
    _, digest = await service.store.read_history(loaded.id)
    assert digest is not None, "folded without its labels"

    label = type(game).label  # the rules change: the same moves now labelled otherwise
    _bump_rules(monkeypatch)
    monkeypatch.setattr(type(game), "label", lambda *args: f"{label(*args)} (v2)")
    mismatches = metrics.REPLAY_MISMATCHES.labels(KIND)._value.get()
    with caplog.at_level(logging.WARNING, logger="service.folding"):
        finished = await service.read(loaded.id, tokens[0])
        entries = await service.history(finished, 0)
    assert entries and all(entry.label == "" for entry in entries), (
        "no label it was not played with"
    )
    assert metrics.REPLAY_MISMATCHES.labels(KIND)._value.get() == mismatches + 1
    assert f"labels of {loaded.id} do not replay" in caplog.text
    await service.store.close()


async def test_a_move_of_a_game_under_this_releases_rules_is_played(
    api: Api, store: RedisStore
) -> None:
    game, tokens = await create(api, KIND, 2, seed=secrets.token_hex(4))
    _, answer = await _move(api, game["id"], tokens[0])
    assert answer["data"]["applyMove"]["__typename"] == "MoveApplied", answer


async def test_after_a_rules_bump_that_plays_the_same_a_game_moves_forward(
    api: Api, store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its history replays to the same state under the new rules: its next decision is played
    and written under them (docs/architecture.md, "Rules versions")."""
    game, tokens = await create(api, KIND, 2, seed="forward-rules")
    _, played = await _move(api, game["id"], tokens[0])
    assert played["data"]["applyMove"]["__typename"] == "MoveApplied", played
    _bump_rules(monkeypatch)
    _, answer = await _move(api, game["id"], tokens[1])
    assert answer["data"]["applyMove"]["__typename"] == "MoveApplied", answer
    record, _ = await store.load(game["id"])
    assert record is not None and record.rules == games()[KIND].rules_version
