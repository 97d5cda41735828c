"""Enum values in both casings (service/engine/casing.py): over whole games
of every kind, each legal move's JSON with its enum strings given as the typed names (as
`legalMoves { typedMoveInput }` spells them) parses to that very move."""

from __future__ import annotations

import random

import msgspec
import pytest

from service.engine.casing import convert, move_structs
from service.engine.play import parse_move, play, start
from service.games import games


@pytest.mark.parametrize("kind", sorted(games()))
def test_every_legal_move_spelled_with_typed_enum_names_is_that_move(kind: str) -> None:
    game, chooser = games()[kind], random.Random(kind)
    structs = {s.cls: s for s in move_structs(game.move_type)}
    state = start(game, game.max_players, None, f"casing-{kind}").state
    renamed = 0
    while not game.is_over(state):
        seat = chooser.choice(game.to_act(state))
        moves = game.legal_moves(state, seat)
        for move in moves:
            json = msgspec.json.decode(msgspec.json.encode(move))
            named = convert(structs[type(move)], json, to_names=True)
            renamed += named != json
            assert parse_move(game, named) == parse_move(game, json) == move
            assert convert(structs[type(move)], named, to_names=False) == json
        state = play(game, state, seat, msgspec.to_builtins(chooser.choice(moves))).state
    assert renamed, "no move of the game has an enum field: the test proves nothing"
