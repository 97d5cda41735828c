"""A finished game's standing (service/ratings/standings.py): places from the final scores,
teammates rated as one team, a seat that resigned last, and why a game is not rated."""

from __future__ import annotations

import random
from typing import Any

import msgspec

from service.engine.play import encode_state, play, start
from service.games import games
from service.ratings.standings import BOT_SEAT, TAKEBACKS, standing
from service.store import HistoryRecord, Record
from service.store.records import Outcome, TakebackNote


def _finished(kind: str, players: int, seed: str, **fields: Any) -> Record:
    """A game of `kind` played to its end at random, as its record."""
    game = games()[kind]
    state, chooser = start(game, players, None, seed).state, random.Random(seed)
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        move = msgspec.to_builtins(chooser.choice(game.legal_moves(state, seat)))
        state = play(game, state, seat, move).state
    return Record(
        format=4,
        kind=kind,
        players=players,
        version=1,
        finished=True,
        seed=seed,
        token_hashes=[b""] * players,
        state=encode_state(state),
        created=0.0,
        updated=0.0,
        tenant="acme",
        player_ids=[f"p{seat}" for seat in range(players)],
        rules=game.rules_version,
        **fields,
    )


def test_teammates_are_rated_as_one_team_placed_by_their_points() -> None:
    record = _finished("TREELINE", 4, "standing-teams")
    scores = games()["TREELINE"].scores(
        msgspec.msgpack.decode(record.state, type=games()["TREELINE"].state_type)
    )
    found = standing("g", record, [])
    teams = {tuple(sorted(e.team or [])) for e in scores.entries}
    assert sorted(map(sorted, found.teams)) == sorted([f"p{s}" for s in t] for t in teams)
    winners = {f"p{s}" for s in scores.winners}
    for team, rank in zip(found.teams, found.ranks, strict=True):
        assert (rank == 1) == bool(winners & set(team)), (found, scores.winners)


def test_a_seat_that_resigned_is_last_and_the_winners_first() -> None:
    record = _finished("TREELINGS", 4, "standing-resign")
    record = msgspec.structs.replace(record, outcome=Outcome("RESIGNED", 2, [3]))
    found = standing("g", record, [])
    places = {team[0]: rank for team, rank in zip(found.teams, found.ranks, strict=True)}
    assert places["p3"] == 1 and places["p2"] == max(found.ranks) > places["p0"] > 1
    assert found.excluded is None


def test_why_a_game_is_not_rated() -> None:
    record = _finished("TREELINGS", 2, "standing-why")
    assert standing("g", msgspec.structs.replace(record, bots={1: "RANDOM"}), []).excluded == (
        BOT_SEAT
    )
    taken = HistoryRecord(3, 0, None, "", event="TAKEBACK", takeback=TakebackNote("TAKEN", 1, 0))
    asked = HistoryRecord(4, 0, None, "", event="TAKEBACK", takeback=TakebackNote("ASKED", 2, 0))
    found = standing("g", record, [taken, asked, taken])
    assert found.takebacks == 2
    assert found.excluded_by(1) == TAKEBACKS and found.excluded_by(2) is None
