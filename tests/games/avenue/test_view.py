"""The turn's working fields of an Avenue view are shown only in the phases they describe
(docs/rules/avenue.md, AvenueView): never a stale value from an earlier phase."""

from __future__ import annotations

import random

import msgspec

from service.engine import play, start
from service.games.avenue import GAME
from service.games.avenue.state import Phase, State
from service.games.avenue.view import view

AFTER_CHOICE = {"cell", "action", "relocate_to", "carry", "extra_to"}
# field -> (the phases it is shown in, its value in every other phase)
SHOWN = {
    "chosenSlot": (AFTER_CHOICE, -1),
    "chosenCard": (AFTER_CHOICE, -1),
    "cell": ({"tiles", "action", "relocate_to", "carry", "extra_to"}, -1),
    "dest": ({"carry"}, -1),
    "pickedTile": ({"extra_to"}, -1),
    "tilesMoved": ({"tiles", "carry"}, 0),
}
WORKING = {"chosenSlot": "slot", "chosenCard": "card", "dest": "dest", "pickedTile": "pick"}


def _states(games: int) -> list[State]:
    states = []
    for n in range(games):
        chooser = random.Random(n)
        state: State = start(GAME, 2 + n % 3, {}, f"view-{n}").state
        while state.phase != Phase.OVER:
            states.append(state)
            seat = chooser.choice(GAME.to_act(state))
            move = chooser.choice(GAME.legal_moves(state, seat))
            state = play(GAME, state, seat, msgspec.to_builtins(move)).state
        states.append(state)
    return states


def test_turn_fields_are_cleared_outside_the_phases_they_describe() -> None:
    stale = {field: 0 for field in SHOWN}  # states whose working value would have leaked
    for state in _states(6):
        shown = msgspec.to_builtins(view(state, None))
        phase = shown["phase"]
        for field, (phases, empty) in SHOWN.items():
            if phase in phases:
                continue
            assert shown[field] == empty, (phase, field, shown[field])
            kept = (
                state.count if field == "tilesMoved" else getattr(state, WORKING.get(field, "cell"))
            )
            stale[field] += kept != empty
    # the states met keep working values past their phase, so the checks above are not idle
    assert stale["tilesMoved"] and stale["cell"] and stale["chosenCard"], stale
