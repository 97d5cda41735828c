"""Score breakdowns are machine-readable: every item names its seat and what it is
(castle letter, glade id, colour, card, project, tree type), where it is, and the numbers its
points come from, so a checker can verify the points without parsing the `detail` text."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from service.engine import ScoreItem, Scores, play, start
from service.games import games
from service.games.treeline.cards import CASTLES, GLADES

TERMS = {
    "TREELINGS": lambda t: t["height"] if t["height"] >= max(t["left"], t["right"]) else 0,
    "TREETOPIA": lambda t: t["hope"] + t["group"] + t["symbiosis"],
    "TREE_LINED_AVENUE": lambda t: t["count"] * (t["tiles"] + 1) if t["count"] >= 3 else 0,
}


def _finished(kind: str, players: int, seed: str, options: dict[str, Any]) -> Scores:
    game, chooser = games()[kind], random.Random(seed)
    state = start(game, players, options, seed).state
    while not game.is_over(state):
        seat = chooser.choice(game.to_act(state))
        move = chooser.choice(game.legal_moves(state, seat))
        state = play(game, state, seat, msgspec.to_builtins(move)).state
    return game.scores(state)


def _check_item(kind: str, item: ScoreItem) -> None:
    terms = {t.name: t.value for t in item.terms}
    if kind in TERMS and item.source != "project":
        assert TERMS[kind](terms) == item.points, item
    if item.source == "castle":
        letters = {c.letter: c.points for c in CASTLES}
        assert letters[item.id or ""] == item.points and item.cells, item
    if item.source == "glade":
        assert item.id in {g.id for g in GLADES} and len(item.cells) == 1, item


CASES = [
    (kind, players, options)
    for kind, game in sorted(games().items())
    for players in range(game.min_players, game.max_players + 1)
    for options in ([{}, {"fullGame": True}] if kind == "TREELINE" else [{}])
]


@pytest.mark.parametrize(("kind", "players", "options"), CASES)
def test_every_item_names_its_seat_and_adds_up_from_its_terms(
    kind: str, players: int, options: dict[str, Any]
) -> None:
    for n in range(3):
        scores = _finished(kind, players, f"details-{n}", options)
        for entry in scores.entries:
            assert entry.points == sum(i.points for i in entry.breakdown)
            assert all(i.seat is not None and i.id for i in entry.breakdown), entry
            for item in entry.breakdown:
                _check_item(kind, item)
            if entry.team is None:
                assert {i.seat for i in entry.breakdown} <= {entry.seat}
                assert entry.seat_points is None
            else:
                own = [i for i in entry.breakdown if i.seat == entry.seat]
                assert entry.seat in entry.team and {i.seat for i in entry.breakdown} <= set(
                    entry.team
                )
                assert entry.seat_points == sum(i.points for i in own)
        teams = {tuple(e.team) for e in scores.entries if e.team}
        for team in teams:
            shares = [e.seat_points for e in scores.entries if e.seat in team]
            total = {e.points for e in scores.entries if e.seat in team}
            assert total == {sum(s or 0 for s in shares)}
