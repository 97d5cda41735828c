"""RULINGS ALL-4 for webhooks: the events a commit sends are the same for every twin of the
game's state (a copy that differs only in what a spectator may not see), at every decision of
random games of every kind before the end, so no payload can carry hidden information. (The
final game.finished counts every secret in its scores, as the API shows them once over.)"""

from __future__ import annotations

import random
import time

import msgspec
import pytest

from service.core.game.loaded_game import acting
from service.core.moves.decisions import advance
from service.engine import play, start
from service.engine.play import encode_state
from service.games import games
from service.store.records import FORMAT, Record
from service.webhooks.events import of_commit
from tests.security.hidden import TWINS


@pytest.mark.parametrize("kind", sorted(games()))
def test_all4_webhook_events_are_the_same_for_every_twin_of_the_state(kind: str) -> None:
    game = games()[kind]
    chooser = random.Random(kind)
    players = game.max_players
    played = start(game, players, {}, f"webhooks-{kind}")
    record = Record(
        format=FORMAT,
        kind=kind,
        players=players,
        version=len(played.steps),
        finished=False,
        seed="hidden",
        token_hashes=[b""] * players,
        state=encode_state(played.state),
        created=time.time(),
        updated=time.time(),
        tenant="acme",
        player_ids=[f"p{seat}" for seat in range(players)],
        acting=acting(game, played.state),
    )
    state, compared = played.state, 0
    while not game.is_over(state):
        seat = chooser.choice(game.to_act(state))
        move = chooser.choice(game.legal_moves(state, seat))
        step = play(game, state, seat, msgspec.to_builtins(move))
        after, history = advance(record, game, step)
        sent = msgspec.json.encode(of_commit("g", record, after, history))
        # at the end every secret is revealed (the final scores count them): no twin then
        for _ in range(0 if after.finished else 2):
            twin = TWINS[kind](step.state, None, chooser)
            twin_record = msgspec.structs.replace(after, state=encode_state(twin))
            assert msgspec.json.encode(of_commit("g", record, twin_record, history)) == sent
            compared += 1
        record, state = after, step.state
    assert compared > 20 and b"game.finished" in sent
    final = game.scores(state)
    assert msgspec.json.decode(sent)[-1]["data"]["scores"] == [
        {"seat": e.seat, "playerId": f"p{e.seat}", "points": e.points} for e in final.entries
    ]
