"""The Treelings game object: metadata plus the engine hooks, each delegating to one module."""

from __future__ import annotations

from typing import Any, ClassVar

from service.engine import BotHooks, BotTuning, Options, Rng, SaidLabels, Scores
from service.engine.explain import Reasons
from service.engine.texts import Catalog, Said
from service.games.treelings import hidden, rules, scoring
from service.games.treelings.cards import CARDS
from service.games.treelings.reasons import REASONS, TURN_RULE
from service.games.treelings.state import State, TreelingsMove, TreelingsOptions
from service.games.treelings.texts import TEXTS
from service.games.treelings.view import TreelingsView, view

# Bump on any change that could replay a game otherwise (engine contract: Game.rules_version).
RULES_VERSION = 1


class Treelings(BotHooks, SaidLabels):
    kind: ClassVar[str] = "TREELINGS"
    title: ClassVar[str] = "Treelings"
    min_players: ClassVar[int] = 2  # TG-1
    max_players: ClassVar[int] = 5
    state_type: ClassVar[type[Any]] = State
    move_type: ClassVar[Any] = TreelingsMove
    options_type: ClassVar[type[Options]] = TreelingsOptions
    view_type: ClassVar[type[Any]] = TreelingsView
    reasons: ClassVar[Reasons] = REASONS
    texts: ClassVar[Catalog] = TEXTS
    turn_rule: ClassVar[str] = TURN_RULE
    rules_version: ClassVar[int] = RULES_VERSION
    # The bots (docs/bots.md): 500 SEARCH iterations take ~100 ms; a rollout plays 60 random
    # decisions, usually to the end.
    bot_tuning: ClassVar[BotTuning] = BotTuning(
        search_iterations=500, rollout_cap=60, finish_turn=False, margin_scale=6.0
    )

    def normalise(self, move: TreelingsMove) -> TreelingsMove:
        return move

    def setup(self, players: int, options: TreelingsOptions, rng: Rng) -> State:
        return rules.new_game(players, options.start_seat, rng)

    def to_act(self, state: State) -> list[int]:
        return [] if state.over else [state.seat]

    def legal_moves(self, state: State, seat: int) -> list[TreelingsMove]:
        if state.over or seat != state.seat:
            return []
        return rules.legal_moves(state)

    def apply(self, state: State, seat: int, move: TreelingsMove) -> None:
        rules.apply(state, move)

    def label_said(self, state: State, seat: int, move: TreelingsMove) -> Said:
        return rules.label(state, move)

    def view(self, state: State, seat: int | None) -> TreelingsView:
        return view(state, seat)

    def scores(self, state: State) -> Scores:
        return scoring.scores(state)

    def is_over(self, state: State) -> bool:
        return state.over

    def determinize(self, state: State, seat: int | None, rng: Rng) -> State:
        """A copy with everything `seat` cannot see re-drawn by `rng` (service.bots)."""
        return hidden.determinize(state, seat, rng)

    def takeback_safe(self, before: State, after: State) -> bool:
        return hidden.unrevealed(before, after)

    def turn_key(self, state: State) -> tuple[int, ...]:
        """A turn is the seat's take and its placements."""
        return (state.seat,)

    def catalog(self) -> dict[str, Any]:
        return {
            "colours": [{"name": c.name, "count": c.count} for c in CARDS.colours],
            "guildCards": sum(c.count for c in CARDS.colours),
            "festivalDepth": CARDS.festival_depth,
            "marketSize": CARDS.market_size,
            "dealPerSeat": CARDS.deal_per_seat,
            "sides": list(rules.SIDES),
        }
