"""The Treetopia game object: thin hooks over rules.py and view.py (the engine contract, docs/architecture.md)."""

from __future__ import annotations

from typing import Any, ClassVar

from service.engine import BotHooks, BotTuning, Options, Rng, SaidLabels, Scores
from service.engine.explain import Reasons
from service.engine.texts import Catalog, Said
from service.games.treetopia import hidden, rules
from service.games.treetopia import view as views
from service.games.treetopia.reasons import REASONS, TURN_RULE
from service.games.treetopia.state import (
    Phase,
    State,
    TreetopiaMove,
    TreetopiaOptions,
    UseWhirlwind,
)
from service.games.treetopia.texts import TEXTS

# Bump on any change that could replay a game otherwise (engine contract: Game.rules_version).
RULES_VERSION = 1


class Treetopia(BotHooks, SaidLabels):
    kind: ClassVar[str] = "TREETOPIA"
    title: ClassVar[str] = "Treetopia"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    state_type: ClassVar[type[Any]] = State
    move_type: ClassVar[Any] = TreetopiaMove
    options_type: ClassVar[type[Options]] = TreetopiaOptions
    view_type: ClassVar[type[Any]] = views.TreetopiaView
    reasons: ClassVar[Reasons] = REASONS
    texts: ClassVar[Catalog] = TEXTS
    turn_rule: ClassVar[str] = TURN_RULE
    rules_version: ClassVar[int] = RULES_VERSION
    # The bots (docs/bots.md): 250 SEARCH iterations take ~100 ms; a rollout plays 40 random
    # decisions.
    bot_tuning: ClassVar[BotTuning] = BotTuning(
        search_iterations=250, rollout_cap=40, finish_turn=False, margin_scale=10.0
    )

    def normalise(self, move: TreetopiaMove) -> TreetopiaMove:
        if isinstance(move, UseWhirlwind):
            return UseWhirlwind(cards=tuple(sorted(move.cards)))
        return move

    def setup(self, players: int, options: TreetopiaOptions, rng: Rng) -> State:
        return rules.setup(players, options.start_seat, rng)

    def to_act(self, state: State) -> list[int]:
        return rules.to_act(state)

    def legal_moves(self, state: State, seat: int) -> list[TreetopiaMove]:
        return rules.legal_moves(state, seat)

    def apply(self, state: State, seat: int, move: TreetopiaMove) -> None:
        rules.apply(state, seat, move)

    def label_said(self, state: State, seat: int, move: TreetopiaMove) -> Said:
        return views.label(state, seat, move)

    def view(self, state: State, seat: int | None) -> views.TreetopiaView:
        return views.view(state, seat)

    def scores(self, state: State) -> Scores:
        return views.scores(state)

    def is_over(self, state: State) -> bool:
        return state.phase == Phase.OVER

    def determinize(self, state: State, seat: int | None, rng: Rng) -> State:
        """A copy with everything `seat` cannot see re-drawn by `rng` (service.bots)."""
        return hidden.determinize(state, seat, rng)

    def takeback_safe(self, before: State, after: State) -> bool:
        return hidden.unrevealed(before, after)

    def turn_key(self, state: State) -> tuple[int, ...]:
        """A turn lasts until the next one starts (after a reward or an extra turn decision)."""
        return (state.active, state.turns)

    def catalog(self) -> dict[str, Any]:
        return views.catalog()
