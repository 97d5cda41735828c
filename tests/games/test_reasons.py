"""Every reason code of every game is produced by a refusal in real play.

Random games of each kind are played; at every position the seat to act sends, for each entry
of its game's reason table, a move built to break exactly that part: a kind of decision it does
not owe now (an example of that kind seen earlier), or a legal move with those fields set to a
value no legal move has. Each refusal must be ILLEGAL_MOVE with a reason, a rule and a sentence,
and every reason of the table (and the generic WRONG_DECISION) must come up, with its rule.
"""

from __future__ import annotations

import random
import re
from typing import Any

import msgspec
import pytest

from service.engine import Game, IllegalMove, check, encode_state, play, start
from service.engine.explain import GENERIC_REASONS, WRONG_DECISION
from service.games import games
from service.games.avenue.state import Redraw
from service.games.treetopia.state import WHIRLWIND
from service.refusals import Code
from tests.games.docs import rules_doc

GAMES = 40
# Positions the random games reach too rarely, set up by their create options.
OPTIONS = {"TREELINE": [{}, {"fullGame": True}, {"strategicStart": True}]}


def _broken(
    move: dict[str, Any], fields: tuple[str, ...], seen: dict[str, set[Any]], chooser: random.Random
) -> list[dict[str, Any]]:
    """Variants of `move` with `fields` changed to a few values seen elsewhere, or odd ones."""
    variants = []
    for field in fields:
        known = sorted(seen.get(field, ()), key=repr)
        for value in [*chooser.sample(known, min(3, len(known))), 99, (0, 1, 2, 3, 4), True]:
            variants.append({**move, field: list(value) if isinstance(value, tuple) else value})
    return variants


def _refusal(game: Game[Any, Any], state: Any, seat: int, move: object) -> tuple[str, str] | None:
    """The refusal's reason and rule, if `move` is refused as ILLEGAL_MOVE."""
    try:
        check(game, state, seat, move)
    except IllegalMove as exc:
        if exc.code == Code.ILLEGAL_MOVE:
            assert exc.reason and exc.rule and exc.message, exc
            return exc.reason, exc.rule
    return None


def _probes(
    game: Game[Any, Any],
    legal: list[dict[str, Any]],
    examples: dict[str, dict[str, Any]],
    seen: dict[str, set[Any]],
    chooser: random.Random,
) -> list[dict[str, Any]]:
    owed = {move["type"] for move in legal}
    probes = [move for tag, move in examples.items() if tag not in owed]
    for tag, fields in game.reasons:
        same = [move for move in legal if move["type"] == tag]
        for move in chooser.sample(same, min(2, len(same))) if fields else []:
            probes += _broken(move, fields, seen, chooser)
    return probes


@pytest.mark.parametrize("kind", sorted(games()))
def test_every_reason_of_the_game_is_produced_by_a_refusal(kind: str) -> None:
    game = games()[kind]
    # a code with two rules (TOKEN_ALREADY_ACTIVE: TT-3 and TT-6) must come up with each
    expected = {(r.code, r.rule) for r in game.reasons.values()} | {
        (WRONG_DECISION, game.turn_rule)
    }
    produced: set[tuple[str, str] | None] = set()
    examples: dict[str, dict[str, Any]] = {}
    seen: dict[str, set[Any]] = {}
    options = OPTIONS.get(kind, [{}])
    for n in range(GAMES):
        chooser = random.Random(n)
        players = game.min_players + n % (game.max_players - game.min_players + 1)
        state = start(game, players, options[n % len(options)], f"reasons-{n}").state
        while not game.is_over(state):
            seat = chooser.choice(game.to_act(state))
            legal = [msgspec.to_builtins(m) for m in game.legal_moves(state, seat)]
            for move in legal:
                examples.setdefault(move["type"], move)
                for field, value in move.items():
                    seen.setdefault(field, set()).add(
                        tuple(value) if isinstance(value, list) else value
                    )
            for probe in _probes(game, legal, examples, seen, chooser):
                produced.add(_refusal(game, state, seat, probe))
            state = play(game, state, seat, chooser.choice(legal)).state
        if expected <= produced:
            break
    produced.discard(None)
    assert expected <= produced, f"never produced: {sorted(expected - produced)}"
    generic = {(code, game.turn_rule) for code in GENERIC_REASONS}
    assert produced <= expected | generic, sorted(map(str, produced))


def test_reason_tables_name_real_move_kinds_and_fields() -> None:
    for game in games().values():
        kinds = {t.__struct_config__.tag: t for t in game.move_type.__args__}
        for (tag, fields), reason in game.reasons.items():
            assert tag in kinds, (game.kind, tag)
            assert set(fields) <= set(kinds[tag].__struct_fields__), (game.kind, tag, fields)
            assert reason.code.isupper() and reason.rule, reason


@pytest.mark.parametrize("kind", sorted(games()))
def test_every_reason_is_documented_with_its_rule(kind: str) -> None:
    doc = rules_doc(kind)
    text = doc.read_text()
    for reason in [*games()[kind].reasons.values()]:
        assert f"| `{reason.code}` | {reason.rule} |" in text, reason.code
    for code in GENERIC_REASONS:
        assert f"`{code}`" in text, code
    refusals = text.split("\n## Refusals\n")[1].split("\n## ")[0]
    listed = set(re.findall(r"^\| `([A-Z_]+)` \|", refusals, re.M))
    given = {reason.code for reason in games()[kind].reasons.values()} | set(GENERIC_REASONS)
    assert listed == given, f"documented, never given: {sorted(listed - given)}"


def test_set_valued_moves_are_accepted_in_any_order_and_recorded_sorted() -> None:
    """Treetopia's Whirlwind cards and the Avenue's Redraw slots are sets."""
    game = games()["TREETOPIA"]
    state = start(game, 2, {}, "whirl").state
    seat = game.to_act(state)[0]
    state.tokens[seat][WHIRLWIND] = True  # an active Whirlwind token, as after a B turn
    cards = sorted(state.hands[seat])[:2]
    played = play(game, state, seat, {"type": "useWhirlwind", "cards": cards[::-1]})
    assert played.steps[0].move.cards == tuple(cards)
    assert encode_state(played.state) == encode_state(
        play(game, state, seat, {"type": "useWhirlwind", "cards": cards}).state
    )
    assert games()["TREE_LINED_AVENUE"].normalise(Redraw(slots=(2, 0))) == Redraw(slots=(0, 2))
