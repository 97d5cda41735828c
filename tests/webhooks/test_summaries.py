"""Every webhook event about a game carries a summary: a message of the shared
catalog, with typed params and its English text, for the receiver to say in its user's
language; each event type's summary, made from a real game's commits."""

from __future__ import annotations

import random
import time

import msgspec

from service.core.game.loaded_game import acting
from service.core.moves.decisions import advance
from service.engine import play, start
from service.engine.play import encode_state
from service.engine.texts import COMMON, PSEUDO, Message, Param, is_pseudo
from service.games import games
from service.store.records import FORMAT, HistoryRecord, Outcome, Record
from service.webhooks.events import of_commit


def _record(kind: str, players: int, state: bytes, version: int) -> Record:
    game = games()[kind]
    return Record(
        format=FORMAT,
        kind=kind,
        players=players,
        version=version,
        finished=False,
        seed="summaries",
        token_hashes=[b""] * players,
        state=state,
        created=time.time(),
        updated=time.time(),
        tenant="acme",
        player_ids=["p0", "p1"],
        acting=acting(game, msgspec.msgpack.decode(state, type=game.state_type)),
    )


def _check(summary: dict[str, object]) -> None:
    """The summary is its id's message: its English is `text`, and it is said in en-XA too."""
    params = [Param(**p) for p in summary["params"]]  # type: ignore[arg-type, attr-defined]
    message = Message(str(summary["id"]), tuple(params))
    entry = COMMON.entries[message.id]
    assert {p.name: p.type for p in params} == dict(entry.params)
    assert COMMON.render(message) == summary["text"]
    assert is_pseudo(COMMON.render(message, PSEUDO))


def test_every_game_event_says_what_happened_as_a_message() -> None:
    game, chooser = games()["TREELINGS"], random.Random("summaries")
    played = start(game, 2, {}, "summaries")
    record = _record("TREELINGS", 2, encode_state(played.state), len(played.steps))
    said: dict[str, dict[str, object]] = {}
    state = played.state
    while not game.is_over(state):
        seat = chooser.choice(game.to_act(state))
        step = play(
            game, state, seat, msgspec.to_builtins(chooser.choice(game.legal_moves(state, seat)))
        )
        after, history = advance(record, game, step)
        for event in msgspec.to_builtins(of_commit("g", record, after, history)):
            said[event["type"]] = event["data"]["summary"]
        record, state = after, step.state
    assert said["turn.started"]["id"] == "common.webhook.turnStarted"
    assert said["game.finished"]["id"] == "common.webhook.finished"
    # a resignation and an abandon end a game the same way the service does (service.end)
    live = _record("TREELINGS", 2, encode_state(played.state), len(played.steps))
    for event, reason, seat, key in [
        ("game.resigned", "RESIGNED", 1, "webhook.resigned"),
        ("game.abandoned", "ABANDONED", -1, "webhook.abandoned"),
        ("game.timeout", "TIMEOUT", 0, "webhook.timeout"),
    ]:
        ended = msgspec.structs.replace(
            live, version=live.version + 1, finished=True, acting=[],
            outcome=Outcome(reason, None if seat < 0 else seat, []),
        )  # fmt: skip
        entry = HistoryRecord(ended.version, seat, None, "ended", event=reason)
        events = msgspec.to_builtins(of_commit("g", live, ended, [entry]))
        said[event] = next(e["data"]["summary"] for e in events if e["type"] == event)
        assert said[event]["id"] == f"common.{key}"
    assert said["game.resigned"]["text"] == "seat 1 resigned"
    for summary in said.values():
        _check(summary)
