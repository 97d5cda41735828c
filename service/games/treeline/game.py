"""The Treeline game object: thin hooks over rules, scoring and view."""

from __future__ import annotations

from typing import Any, ClassVar

from service.engine import BotHooks, BotTuning, Options, Rng, SaidLabels, Scores
from service.engine.explain import Reasons
from service.engine.texts import Catalog, Said
from service.games.treeline import hidden, rules
from service.games.treeline.cards import CASTLES, DATA, GLADES, TOKENS_PER_SEAT
from service.games.treeline.moves import (
    DeployCard,
    DeployFromCard,
    DeployFromSupply,
    Energize,
    Reforest,
    StationFromSupply,
    StationToken,
    StrategicFlip,
    TreelineMove,
)
from service.games.treeline.reasons import REASONS, TURN_RULE
from service.games.treeline.scoring import scores
from service.games.treeline.setup import setup
from service.games.treeline.state import Phase, State, TreelineOptions, rc
from service.games.treeline.texts import TEXTS
from service.games.treeline.view import TreelineView, view


def _side(energized: bool) -> str:
    return "Energized" if energized else "Normal"


def _label(state: State, move: TreelineMove) -> Said:
    """Public text; never names a glade (TL-13), only cells."""
    castle = CASTLES[state.castles[state.claim_line].tile].letter if state.claim_line >= 0 else ""
    target = "({},{})".format(*rc(state, state.target)) if state.target >= 0 else ""
    if isinstance(move, StrategicFlip):
        return ("label.strategicFlip", {"row": move.row, "col": move.col})
    if isinstance(move, Reforest):
        other = (move.row, move.col + 1) if move.toward == "right" else (move.row + 1, move.col)
        return (
            "label.reforest",
            {"row": move.row, "col": move.col, "row2": other[0], "col2": other[1]},
        )
    if isinstance(move, DeployCard):
        return ("label.deployCard", {"row": move.row, "col": move.col})
    if isinstance(move, DeployFromSupply):
        return ("label.deployFromSupply", {"target": target})
    if isinstance(move, DeployFromCard):
        side = _side(move.energized)
        return (
            "label.deployFromCard",
            {"side": side, "row": move.row, "col": move.col, "target": target},
        )
    if isinstance(move, StationToken):
        side = _side(move.energized)
        return (
            "label.stationToken",
            {"side": side, "row": move.row, "col": move.col, "castle": castle},
        )
    if isinstance(move, StationFromSupply):
        return ("label.stationFromSupply", {"castle": castle})
    if isinstance(move, Energize):
        return ("label.energize", {"row": move.row, "col": move.col, "castle": castle})
    raise AssertionError(move)


# Bump on any change that could replay a game otherwise (engine contract: Game.rules_version).
RULES_VERSION = 1


class Treeline(BotHooks, SaidLabels):
    kind: ClassVar[str] = "TREELINE"
    title: ClassVar[str] = "Treeline"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    state_type: ClassVar[type[Any]] = State
    move_type: ClassVar[Any] = TreelineMove
    options_type: ClassVar[type[Options]] = TreelineOptions
    view_type: ClassVar[type[Any]] = TreelineView
    reasons: ClassVar[Reasons] = REASONS
    texts: ClassVar[Catalog] = TEXTS
    turn_rule: ClassVar[str] = TURN_RULE
    rules_version: ClassVar[int] = RULES_VERSION
    # The bots (docs/bots.md): 250 SEARCH iterations take ~100 ms (the legal-move lists are
    # dear); a rollout plays 24 random decisions, about three turns.
    bot_tuning: ClassVar[BotTuning] = BotTuning(
        search_iterations=250, rollout_cap=24, finish_turn=False, margin_scale=6.0
    )

    def normalise(self, move: TreelineMove) -> TreelineMove:
        return move

    def setup(self, players: int, options: TreelineOptions, rng: Rng) -> State:
        return setup(players, options, rng)

    def to_act(self, state: State) -> list[int]:
        return [] if state.phase == Phase.OVER else [state.actor]

    def legal_moves(self, state: State, seat: int) -> list[TreelineMove]:
        return rules.legal_moves(state, seat)

    def apply(self, state: State, seat: int, move: TreelineMove) -> None:
        rules.apply(state, seat, move)

    def label_said(self, state: State, seat: int, move: TreelineMove) -> Said:
        return _label(state, move)

    def view(self, state: State, seat: int | None) -> TreelineView:
        return view(state, seat)

    def scores(self, state: State) -> Scores:
        return scores(state)

    def is_over(self, state: State) -> bool:
        return state.phase == Phase.OVER

    def determinize(self, state: State, seat: int | None, rng: Rng) -> State:
        """A copy with everything `seat` cannot see re-drawn by `rng` (service.bots)."""
        return hidden.determinize(state, seat, rng)

    def takeback_safe(self, before: State, after: State) -> bool:
        return hidden.unrevealed(before, after)

    def opponents(self, state: State, seat: int) -> list[int]:
        """With four players, the other team: seats 0+2 play 1+3 (TL-10)."""
        players = state.players
        if players == 4:
            return [s for s in range(players) if s % 2 != seat % 2]
        return [s for s in range(players) if s != seat]

    def turn_key(self, state: State) -> tuple[int, ...]:
        """The active seat's turn, up to the next begin_turn (reforest, deploys, claims)."""
        return (state.active, state.turn)

    def catalog(self) -> dict[str, Any]:
        return {
            "grids": {str(p): {"rows": r, "cols": c} for p, (r, c) in DATA.grids.items()},
            "landValues": {str(v): n for v, n in DATA.land_values.items()},
            "removedPerValueBelowFourPlayers": DATA.removed_per_value_below_four_players,
            "tokensPerSeat": TOKENS_PER_SEAT,
            "castles": [{"letter": c.letter, "points": c.points} for c in CASTLES],
            "glades": [{"id": g.id, "name": g.name, "text": g.text} for g in GLADES],
            "options": {
                "fullGame": "bool: three glades replace three value-1 Town cards (TL-13)",
                "gladeCells": "list of three [row, col] value-1 cells for the glades",
                "strategicStart": "bool: each seat flips and fills one card first (TL-12)",
                "startSeat": "int: the seat that takes the first turn",
            },
        }
