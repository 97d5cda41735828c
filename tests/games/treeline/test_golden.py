"""Seeded random games give exactly the same observable sequence as when the digest was recorded.

Guards refactors (e.g. speed work) that must not change behaviour: for every decision, the
legal moves of every seat, their labels, the msgpack state, every seat's and a spectator's
view, the scores and the applied steps are hashed in order; so is what every glade scorer
would give on each glade's cell and on every fifth cell, active or not (glades are rarely
active in random play). If the rules change on purpose, re-record the digest (print
`golden_digest()`) and say why in the commit.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import msgspec

from service.engine import Scores, encode_state, play, start
from service.games.treeline import GAME
from service.games.treeline.glades import SCORERS

MODES: list[dict[str, Any]] = [
    {},
    {"strategicStart": True},
    {"fullGame": True},
    {"fullGame": True, "strategicStart": True, "startSeat": 1},
]
SEEDS = ["golden0", "golden1"]
RECORDED = "2f1c7d078e5af48cbae88c02e7760a8a0a57f2bc7d55870d13afe5472fa3784e"
RECORDED_FEW = "80d5a38c990c0c390f6809e5d250b4c5d73f7133f910e51a25ccc7160ed7bd4a"


def _feed(digest: Any, thing: object) -> None:
    digest.update(msgspec.json.encode(thing))
    digest.update(b"\n")


def _observe(digest: Any, state: Any) -> None:
    _feed(digest, encode_state(state).hex())
    for seat in range(state.players):
        moves = GAME.legal_moves(state, seat)
        _feed(digest, [[msgspec.to_builtins(m), GAME.label(state, seat, m)] for m in moves])
    for viewer in [None, *range(state.players)]:
        _feed(digest, GAME.view(state, viewer))
    _feed(digest, _scores_as_recorded(GAME.scores(state)))
    _feed(digest, GAME.to_act(state))
    if state.glades:
        cells = [glade.cell for glade in state.glades] + list(range(0, len(state.land), 5))
        _feed(digest, [[score(state, cell) for cell in cells] for score in SCORERS.values()])


def _scores_as_recorded(scores: Scores) -> dict[str, Any]:
    """Scores in the shape they had when the digest was recorded: the typed details added
    since (ids, seats, cells, terms, team totals) are checked by test_scoring."""
    return {
        "final": scores.final,
        "winners": scores.winners,
        "entries": [
            {
                "seat": e.seat,
                "points": e.points,
                "breakdown": [
                    {"source": i.source, "points": i.points, "detail": i.detail}
                    for i in e.breakdown
                ],
                "tiebreak": e.tiebreak,
            }
            for e in scores.entries
        ],
    }


def golden_digest(
    player_counts: tuple[int, ...] = (2, 3, 4), modes: tuple[int, ...] = (0, 1, 2, 3)
) -> str:
    digest = hashlib.sha256()
    for players in player_counts:
        for index, options in enumerate(MODES):
            if index not in modes:
                continue
            for seed in SEEDS:
                name = f"{seed}-{players}-{index}"
                chooser = random.Random(name)
                played = start(GAME, players, options, name)
                state = played.state
                _feed(digest, played.steps)
                _observe(digest, state)
                while not GAME.is_over(state):
                    seat = chooser.choice(GAME.to_act(state))
                    move = chooser.choice(GAME.legal_moves(state, seat))
                    played = play(GAME, state, seat, msgspec.to_builtins(move))
                    state = played.state
                    _feed(digest, played.steps)
                    _observe(digest, state)
    return digest.hexdigest()


def test_seeded_games_play_exactly_as_recorded() -> None:
    assert golden_digest() == RECORDED


def test_a_few_seeded_games_play_exactly_as_recorded() -> None:
    """The fast tier's share of the above (which is slow): two-player games, the first and
    last mode, recorded while the whole digest above matched."""
    assert golden_digest((2,), (0, 3)) == RECORDED_FEW


if __name__ == "__main__":
    print(golden_digest(), golden_digest((2,), (0, 3)))
