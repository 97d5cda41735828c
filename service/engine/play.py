"""Sequencing shared by every game: the ordered checks, forced decisions, and the steps record.

The checks run in a fixed order, each failure a named code (like boardgame.io's reducer):
game over, seat to act, move well-formed, move legal. Only then does the game's hook run, on a
private copy, so a rejected move never changes anything.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec

from service.engine import casing
from service.engine.contract import Game
from service.engine.errors import BadSetup, IllegalMove
from service.engine.explain import explain
from service.engine.rng import Rng
from service.engine.texts import COMMON
from service.refusals import Code


class Step(msgspec.Struct, array_like=True, frozen=True):
    """One applied decision, as the history records it."""

    seat: int
    move: Any  # the game's move Struct
    label: str
    forced: bool = False


class Played(msgspec.Struct, frozen=True):
    state: Any
    steps: list[Step]
    # the legal moves of each seat to act in `state`, as the forced-decision check found them
    # (an answer lists the mover's again: it need not work them out a second time)
    options: dict[int, list[Any]] = {}


_encoder = msgspec.msgpack.Encoder()


def encode_state(state: msgspec.Struct) -> bytes:
    return _encoder.encode(state)


def decode_state(game: Game[Any, Any], data: bytes) -> Any:
    return msgspec.msgpack.decode(data, type=game.state_type)


def copy_state(game: Game[Any, Any], state: Any) -> Any:
    return decode_state(game, encode_state(state))


def parse_options(game: Game[Any, Any], players: int, raw: object) -> Any:
    if not game.min_players <= players <= game.max_players:
        raise BadSetup(
            f"{game.title} takes {game.min_players} to {game.max_players} players, not {players}"
        )
    try:
        options = msgspec.convert(raw or {}, type=game.options_type)
    except msgspec.ValidationError as exc:
        raise BadSetup(f"invalid options: {exc}") from None
    if not 0 <= options.start_seat < players:
        raise BadSetup(f"startSeat must be a seat from 0 to {players - 1}")
    return options


def start(game: Game[Any, Any], players: int, raw_options: object, seed: str) -> Played:
    """A new game: setup, then any decisions that are forced from the start (RULINGS ALL-3)."""
    options = parse_options(game, players, raw_options)
    state = game.setup(players, options, Rng.from_seed(seed))
    steps: list[Step] = []
    return Played(state, steps, _apply_forced(game, state, steps))


def replay(
    game: Game[Any, Any],
    players: int,
    raw_options: object,
    seed: str,
    decisions: list[tuple[int, object]],
) -> Any:
    """The state after `decisions` (each non-forced (seat, move) of a history, in order): the
    engine re-derives every forced step, so the same seed gives the same state."""
    return resume(game, start(game, players, raw_options, seed).state, decisions)


def resume(game: Game[Any, Any], state: Any, decisions: list[tuple[int, object]]) -> Any:
    """The state after `decisions` played on `state` (a state of a committed version, which
    is played on in place), as `replay` does from the seed."""
    for seat, move in decisions:
        state = play(game, state, seat, move, copy=False).state
    return state


def to_move(game: Game[Any, Any], raw: object) -> Any:
    """`msgspec.convert(raw, type=game.move_type)`, 25x cheaper: msgspec keeps what it learns of
    a Struct type on the class, but works out a union of Structs again on every call."""
    try:
        holder: Any = msgspec.convert({"move": raw}, type=_holder(game.move_type))
        return holder.move
    except msgspec.ValidationError as exc:
        message = str(exc).replace(" - at `$.move`", "").replace("`$.move", "`$")
        raise msgspec.ValidationError(message) from None


@cache
def _holder(move_type: Any) -> type[msgspec.Struct]:
    return msgspec.defstruct("MoveHolder", [("move", move_type)])


def parse_move(game: Game[Any, Any], raw: object) -> Any:
    """A JSON move as its Struct; its enum strings may also be the typed names (`"GREEN"` for
    `"green"`, service/engine/casing.py), tried only once the JSON values did not fit."""
    try:
        return to_move(game, raw)
    except msgspec.ValidationError as exc:
        renamed = casing.json_move(game.move_type, raw)
        if renamed != raw:
            try:
                return to_move(game, renamed)
            except msgspec.ValidationError:
                pass
        said = COMMON.say("refusal.malformedMove", game=game.title, error=str(exc))
        raise IllegalMove(Code.MALFORMED_MOVE, COMMON.render(said), localized=said) from None


def check(game: Game[Any, Any], state: Any, seat: int, raw_move: object) -> Any:
    """The ordered checks; returns the parsed legal move or raises IllegalMove."""
    if game.is_over(state):
        said = COMMON.say("refusal.gameOver")
        raise IllegalMove(Code.GAME_OVER, COMMON.render(said), localized=said)
    if seat not in game.to_act(state):
        said = COMMON.say("refusal.notYourTurn", seat=seat)
        raise IllegalMove(Code.NOT_YOUR_TURN, COMMON.render(said), localized=said)
    move = game.normalise(parse_move(game, raw_move))
    legal = game.legal_moves(state, seat)
    if move not in legal:
        refusal = explain(move, legal, game.reasons, game.turn_rule, game.texts)
        raise IllegalMove(
            Code.ILLEGAL_MOVE, refusal.message, refusal.reason, refusal.rule, refusal.localized
        )
    return move


def play(
    game: Game[Any, Any], state: Any, seat: int, raw_move: object, copy: bool = True
) -> Played:
    """Apply one decision of `seat` and then every forced one. `state` is left untouched,
    unless the caller says it needs no copy (a state it decoded for this move alone)."""
    move = check(game, state, seat, raw_move)
    if copy:
        state = copy_state(game, state)
    steps = [Step(seat, move, game.label(state, seat, move))]
    game.apply(state, seat, move)
    return Played(state, steps, _apply_forced(game, state, steps))


def _apply_forced(game: Game[Any, Any], state: Any, steps: list[Step]) -> dict[int, list[Any]]:
    """Apply every decision that has exactly one option (RULINGS ALL-3); the options of each
    seat to act once none is forced (none once the game is over)."""
    while not game.is_over(state):
        seats = game.to_act(state)
        if not seats:
            raise AssertionError(f"{game.title}: nobody acts but the game is not over")
        options = {}
        for seat in seats:
            moves = options[seat] = game.legal_moves(state, seat)
            if not moves:
                raise AssertionError(f"{game.title}: seat {seat} must act but has no option")
            if len(moves) == 1:
                steps.append(Step(seat, moves[0], game.label(state, seat, moves[0]), True))
                game.apply(state, seat, moves[0])
                break
        else:
            return options
    return {}
