"""The engine's sequencing, on a toy game: ordered checks, forced decisions (ALL-3), purity."""

from __future__ import annotations

import random
from typing import Any, ClassVar

import msgspec
import pytest

from service.engine import (
    BadSetup,
    BotHooks,
    IllegalMove,
    Move,
    Options,
    Rng,
    ScoreEntry,
    ScoreItem,
    Scores,
    Wire,
    encode_state,
    play,
    start,
)
from service.engine.explain import VALUE_NOT_ALLOWED, WRONG_DECISION, Reason, Reasons, explain
from service.engine.play import copy_state
from service.engine.texts import Catalog, Entry, Message, Said
from service.games import games
from service.refusals import Code


class Add(Move, frozen=True):
    amount: int


class Pair(Move, frozen=True):  # only for explain's tests
    a: int
    b: int


class Other(Move, frozen=True):
    pass


class Count(msgspec.Struct):
    total: int
    seat: int
    rng: Rng


class CountView(Wire):
    total: int


_VALUE = {"value": "TEXT", "allowed": "LIST"}
# The toy games' catalog (a real game's is its package's messages/messages.pot)
TEXTS = Catalog(
    "race",
    {
        "label.add": Entry("adds {amount}", {"amount": "INT"}),
        "reason.add.amount": Entry("adding {value} passes 5 (allowed: {allowed})", _VALUE),
        "reason.pair.a,b": Entry("no pair {value}: {allowed}", _VALUE),
        "reason.add": Entry("adding is over (now: {owed})", {"owed": "LIST"}),
    },
    {},
)


class Race(BotHooks):
    """Players take turns adding 1 or 2; the one who reaches 5 wins. At 4 only +1 is left,
    so that decision is forced."""

    kind: ClassVar[str] = "RACE"
    title: ClassVar[str] = "Race"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 3
    state_type: ClassVar[type[Any]] = Count
    move_type: ClassVar[Any] = Add
    options_type: ClassVar[type[Options]] = Options
    view_type: ClassVar[type[Any]] = CountView
    reasons: ClassVar[Reasons] = {("add", ("amount",)): Reason("PAST_FIVE", "RACE-1")}
    turn_rule: ClassVar[str] = "RACE-1"
    texts: ClassVar[Catalog] = TEXTS

    def normalise(self, move: Add) -> Add:
        return move

    def setup(self, players: int, options: Any, rng: Rng) -> Count:
        return Count(0, options.start_seat, rng)

    def to_act(self, state: Count) -> list[int]:
        return [] if self.is_over(state) else [state.seat]

    def legal_moves(self, state: Count, seat: int) -> list[Add]:
        if seat not in self.to_act(state):
            return []
        return [Add(amount=a) for a in (1, 2) if state.total + a <= 5]

    def apply(self, state: Count, seat: int, move: Add) -> None:
        state.total += move.amount
        if state.total < 5:
            state.seat = (seat + 1) % 2

    def label(self, state: Count, seat: int, move: Add) -> str:
        return TEXTS.render(self.label_message(state, seat, move))

    def label_message(self, state: Count, seat: int, move: Add) -> Message:
        return TEXTS.say("label.add", amount=move.amount)

    def label_said(self, state: Count, seat: int, move: Add) -> Said:
        return ("label.add", {"amount": move.amount})

    def view(self, state: Count, seat: int | None) -> CountView:
        return CountView(total=state.total)

    def scores(self, state: Count) -> Scores:
        winner = [state.seat] if self.is_over(state) else []
        entries = [
            ScoreEntry(
                seat=s,
                points=int(s in winner),
                breakdown=[ScoreItem(source="race", points=int(s in winner))],
                tiebreak=[],
            )
            for s in range(2)
        ]
        return Scores(final=self.is_over(state), winners=winner, entries=entries)

    def is_over(self, state: Count) -> bool:
        return state.total >= 5

    def catalog(self) -> dict[str, Any]:
        return {}


RACE = Race()


def test_checks_come_in_a_fixed_order() -> None:
    state = start(RACE, 2, None, "s").state
    with pytest.raises(IllegalMove) as refused:
        play(RACE, state, 1, "not even a move")
    assert refused.value.code == Code.NOT_YOUR_TURN, "seat before shape"
    with pytest.raises(IllegalMove) as refused:
        play(RACE, state, 0, {"type": "add", "amount": "two"})
    assert refused.value.code == Code.MALFORMED_MOVE
    with pytest.raises(IllegalMove) as refused:
        play(RACE, state, 0, {"type": "add", "amount": 3})
    assert refused.value.code == Code.ILLEGAL_MOVE


def test_a_refusal_names_its_reason_the_rule_and_what_is_allowed() -> None:
    state = play(RACE, start(RACE, 2, None, "s").state, 0, {"type": "add", "amount": 2}).state
    state = play(RACE, state, 1, {"type": "add", "amount": 1}).state  # total 3: +2 left
    with pytest.raises(IllegalMove) as refused:
        play(RACE, state, 0, {"type": "add", "amount": 5})
    assert (refused.value.reason, refused.value.rule) == ("PAST_FIVE", "RACE-1")
    assert refused.value.message == "adding 5 passes 5 (allowed: 1, 2)"


def test_fields_without_a_reason_get_the_generic_ones() -> None:
    legal = [Pair(a=1, b=2), Pair(a=2, b=1)]
    assert explain(Pair(a=3, b=1), legal, {}, "X-1", TEXTS)[:3] == (
        VALUE_NOT_ALLOWED,
        "X-1",
        "a 3 is not allowed now (allowed: 1, 2)",
    )
    assert explain(Pair(a=1, b=1), legal, {}, "X-1", TEXTS)[:3] == (
        VALUE_NOT_ALLOWED,
        "X-1",
        "b 1 is not allowed now (allowed: 2)",
    )
    assert explain(Add(amount=1), legal, {}, "X-1", TEXTS)[:3] == (
        WRONG_DECISION, "X-1", "add is not a decision you owe now (now: pair)"
    )  # fmt: skip
    grouped = {("pair", ("a", "b")): Reason("NO_PAIR", "X-2")}
    assert explain(Pair(a=1, b=1), legal, grouped, "X-1", TEXTS)[:3] == (
        "NO_PAIR", "X-2", "no pair (1, 1): (1, 2), (2, 1)"
    )  # fmt: skip


def test_a_legal_move_has_no_refusal_to_explain() -> None:
    """Every field is checked, so no "each field fine, not together" reason exists (each documented reason is one a refusal can give)."""
    legal = [Pair(a=1, b=2), Pair(a=2, b=1)]
    with pytest.raises(ValueError, match="is legal"):
        explain(Pair(a=2, b=1), legal, {}, "X-1", TEXTS)


def test_a_reason_for_a_kind_of_decision_holds_only_beside_its_siblings() -> None:
    reasons = {("add", ()): Reason("NO_ADD", "X-3", frozenset({"pair"}))}
    assert explain(Add(amount=1), [Pair(a=1, b=2)], reasons, "X-1", TEXTS).reason == "NO_ADD"
    assert explain(Add(amount=1), [Other()], reasons, "X-1", TEXTS).reason == WRONG_DECISION


def test_a_single_option_is_played_by_the_engine_and_recorded() -> None:
    state = start(RACE, 2, None, "s").state
    state = play(RACE, state, 0, {"type": "add", "amount": 2}).state
    played = play(RACE, state, 1, {"type": "add", "amount": 2})
    assert [(s.seat, s.label, s.forced) for s in played.steps] == [
        (1, "adds 2", False),
        (0, "adds 1", True),
    ]
    assert RACE.is_over(played.state)
    with pytest.raises(IllegalMove) as refused:
        play(RACE, played.state, 0, {"type": "add", "amount": 1})
    assert refused.value.code == Code.GAME_OVER


def test_play_never_changes_the_state_it_is_given() -> None:
    state = start(RACE, 2, None, "s").state
    before = msgspec.msgpack.encode(state)
    play(RACE, state, 0, {"type": "add", "amount": 1})
    with pytest.raises(IllegalMove):
        play(RACE, state, 0, {"type": "add", "amount": 9})
    assert msgspec.msgpack.encode(state) == before


@pytest.mark.parametrize("kind", sorted(games()))
def test_play_hands_back_the_options_of_every_seat_to_act_and_needs_no_copy(kind: str) -> None:
    """Played.options is what legal_moves says for each seat to act next (an answer lists the
    mover's from it), and copy=False plays the same steps to the same state."""
    game, chooser = games()[kind], random.Random(kind)
    state = start(game, game.max_players, None, f"options-{kind}").state
    while not game.is_over(state):
        seat = chooser.choice(game.to_act(state))
        move = msgspec.to_builtins(chooser.choice(game.legal_moves(state, seat)))
        played = play(game, state, seat, move)
        owned = play(game, copy_state(game, state), seat, move, copy=False)
        assert encode_state(owned.state) == encode_state(played.state)
        assert owned.steps == played.steps
        after = played.state
        seats = [] if game.is_over(after) else game.to_act(after)
        assert played.options == {s: game.legal_moves(after, s) for s in seats}
        state = after


def test_setup_refuses_bad_player_counts_and_options() -> None:
    with pytest.raises(BadSetup, match="2 to 3 players"):
        start(RACE, 4, None, "s")
    with pytest.raises(BadSetup, match="startSeat"):
        start(RACE, 2, {"startSeat": 2}, "s")
    with pytest.raises(BadSetup, match="invalid options"):
        start(RACE, 2, {"start_seat": 1}, "s")
    assert start(RACE, 2, {"startSeat": 1}, "s").state.seat == 1
