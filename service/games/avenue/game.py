"""The Tree Lined Avenue as an engine Game: thin hooks over rules, scoring and view."""

from __future__ import annotations

from typing import Any, ClassVar

from service.engine import BotHooks, BotTuning, Options, Rng, SaidLabels, Scores
from service.engine.explain import Reasons
from service.engine.texts import Catalog, Said
from service.games.avenue import bots, hidden, rules, scoring
from service.games.avenue.cards import ANIMALS, CARD_NAMES, CELL_NAMES, TILE_ANIMAL, catalog
from service.games.avenue.reasons import REASONS, TURN_RULE
from service.games.avenue.state import (
    AvenueMove,
    AvenueOptions,
    CarryTile,
    ChooseCard,
    DrawProject,
    ExtraTile,
    ExtraTileTo,
    Phase,
    PlaceCard,
    PlaceGardener,
    Redraw,
    RelocateGardener,
    RelocateTo,
    SkipAction,
    SkipGardener,
    State,
    StopCarrying,
    StopTaking,
    TakeTile,
)
from service.games.avenue.texts import TEXTS
from service.games.avenue.view import AvenueView, view

ORDINALS = ("1st", "2nd", "3rd", "4th")


# Bump on any change that could replay a game otherwise (engine contract: Game.rules_version).
RULES_VERSION = 1


class TreeLinedAvenue(BotHooks, SaidLabels):
    kind: ClassVar[str] = "TREE_LINED_AVENUE"
    title: ClassVar[str] = "The Tree Lined Avenue"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    state_type: ClassVar[type[Any]] = State
    move_type: ClassVar[Any] = AvenueMove
    options_type: ClassVar[type[Options]] = AvenueOptions
    view_type: ClassVar[type[Any]] = AvenueView
    reasons: ClassVar[Reasons] = REASONS
    texts: ClassVar[Catalog] = TEXTS
    turn_rule: ClassVar[str] = TURN_RULE
    rules_version: ClassVar[int] = RULES_VERSION
    # The bots (docs/bots.md): 60 SEARCH iterations take ~100 ms (finishing a turn costs ~4 ms);
    # a rollout finishes the turn in progress by GREEDY's one-step policy and stops there, as
    # random play ruins the margin it would score.
    bot_tuning: ClassVar[BotTuning] = BotTuning(
        search_iterations=60, rollout_cap=0, finish_turn=True, margin_scale=12.0
    )

    def normalise(self, move: AvenueMove) -> AvenueMove:
        if isinstance(move, Redraw):
            return Redraw(slots=tuple(sorted(move.slots)))
        return move

    def setup(self, players: int, options: Any, rng: Rng) -> State:
        return rules.setup(players, options, rng)

    def to_act(self, state: State) -> list[int]:
        return rules.to_act(state)

    def legal_moves(self, state: State, seat: int) -> list[AvenueMove]:
        return rules.legal_moves(state, seat)

    def apply(self, state: State, seat: int, move: AvenueMove) -> None:
        rules.apply(state, seat, move)

    def label_said(self, state: State, seat: int, move: AvenueMove) -> Said:
        return label(state, move)

    def view(self, state: State, seat: int | None) -> AvenueView:
        return view(state, seat)

    def scores(self, state: State) -> Scores:
        return scoring.scores(state)

    def is_over(self, state: State) -> bool:
        return state.phase == Phase.OVER

    def determinize(self, state: State, seat: int | None, rng: Rng) -> State:
        """A copy with everything `seat` cannot see re-drawn by `rng` (service.bots)."""
        return hidden.determinize(state, seat, rng)

    def takeback_safe(self, before: State, after: State) -> bool:
        return hidden.unrevealed(before, after)

    def bot_points(self, state: State) -> list[int]:
        """Live scores plus every seat's met projects until the game ends (AV-9: bots.py)."""
        if self.is_over(state):
            return super().bot_points(state)
        return bots.points(state)

    def turn_key(self, state: State) -> tuple[int, ...]:
        """One token's turn: gardener, tiles, card, cell, action."""
        return (state.round, state.turn)

    def catalog(self) -> dict[str, Any]:
        return {**catalog(), "tileAnimals": [ANIMALS[a] for a in TILE_ANIMAL]}


def label(state: State, move: AvenueMove) -> Said:
    """Public text only: a drawn project card is never named (ALL-4)."""
    # Move classes have no subclasses, and `type(move) is` costs a tenth of isinstance, which
    # takes msgspec's metaclass slow path: this runs for every legal move of every answer.
    if type(move) is PlaceGardener:
        return ("label.placeGardener", {"cell": CELL_NAMES[move.cell]})
    if type(move) is SkipGardener:
        return ("label.skipGardener", {})
    if type(move) is TakeTile or type(move) is ExtraTile:
        return ("label.takeTile", {"animal": move.animal, "cell": CELL_NAMES[move.cell]})
    if type(move) is StopTaking:
        return ("label.stopTaking", {})
    if type(move) is ChooseCard:
        card, ordinal = CARD_NAMES[state.row[move.slot]], ORDINALS[move.slot]
        return ("label.chooseCard", {"card": card, "ordinal": ordinal})
    if type(move) is PlaceCard:
        return ("label.placeCard", {"card": CARD_NAMES[state.card], "cell": CELL_NAMES[move.cell]})
    if type(move) is SkipAction:
        return ("label.skipAction", {})
    if type(move) is RelocateGardener:
        return ("label.relocateGardener", {"cell": CELL_NAMES[move.cell]})
    if type(move) is RelocateTo:
        return ("label.relocateTo", {"cell": CELL_NAMES[move.cell]})
    if type(move) is CarryTile:
        return ("label.carryTile", {"animal": move.animal})
    if type(move) is StopCarrying:
        return ("label.stopCarrying", {})
    if type(move) is DrawProject:
        return ("label.drawProject", {})
    if type(move) is Redraw:
        names = [CARD_NAMES[state.next_row[s]] for s in move.slots]
        return ("label.redraw", {"cards": names})
    if type(move) is ExtraTileTo:
        return ("label.extraTileTo", {"cell": CELL_NAMES[move.cell]})
    raise AssertionError(f"unknown move {move!r}")
