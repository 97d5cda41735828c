"""Hand-built Treeline positions from a small text picture, for the scripted tests.

One row per line, cells separated by spaces:
  S          a starting tile
  T1 T2 T3   a Town card of that value; Tg a Town glade
  F2:aA      a Forest card of value 2 holding seat 0's Normal (a) and Energized (A) tokens;
             b/B is seat 1, c/C seat 2, d/D seat 3; Fg:... a Forest glade (one space)
Castles get letters in line order (columns first, then rows) unless `tiles` says otherwise.
"""

from __future__ import annotations

from typing import Any

import msgspec

from service.engine import Rng, play
from service.games.treeline import GAME
from service.games.treeline.cards import GLADE_IDS, TOKENS_PER_SEAT
from service.games.treeline.rules import begin_turn
from service.games.treeline.state import Castle, Glade, State, owner, token


def parse_token(ch: str) -> int:
    seat = ord(ch.lower()) - ord("a")
    return token(seat, ch.isupper())


def build(
    picture: str,
    players: int = 2,
    active: int = 0,
    glades: tuple[str, ...] = (),
    tiles: list[int] | None = None,
    stationed: dict[int, list[str]] | None = None,
    supply: list[int] | None = None,
    start_turn: bool = True,
) -> State:
    rows = [line.split() for line in picture.strip().splitlines()]
    cols = len(rows[0])
    land: list[int] = []
    forest: list[bool] = []
    tokens: list[list[int]] = []
    glade_list: list[Glade] = []
    for row in rows:
        assert len(row) == cols, row
        for text in row:
            cell = len(land)
            if text == "S":
                land.append(0)
                forest.append(True)
                tokens.append([])
                continue
            side, rest = text[0], text[1:]
            value, _, toks = rest.partition(":")
            if value == "g":
                glade_list.append(Glade(cell, GLADE_IDS.index(glades[len(glade_list)])))
                value = "1"
            land.append(int(value))
            forest.append(side == "F")
            tokens.append([parse_token(ch) for ch in toks])
    lines = cols + len(rows)
    castles = [Castle(t) for t in (tiles or list(range(lines)))]
    for line, codes in (stationed or {}).items():
        castles[line].stationed = [parse_token(ch) for ch in codes]
        castles[line].owner = castles[line].stationed[0] >> 1
    if supply is None:
        used = [0] * players
        for placed in tokens + [c.stationed for c in castles]:
            for tok in placed:
                used[owner(tok)] += 1
        supply = [TOKENS_PER_SEAT - n for n in used]
    state = State(
        players=players,
        rows=len(rows),
        cols=cols,
        rng=Rng.from_seed("board"),
        full_game=bool(glade_list),
        land=land,
        forest=forest,
        tokens=tokens,
        glades=glade_list,
        castles=castles,
        supply=supply,
        start_seat=active,
    )
    if start_turn:
        begin_turn(state, active)
    return state


def wire(move: Any) -> Any:
    return msgspec.to_builtins(move)


def moves(state: State, seat: int | None = None) -> list[Any]:
    seat = state.actor if seat is None else seat
    return [wire(m) for m in GAME.legal_moves(state, seat)]


def run(state: State, *script: tuple[int, dict[str, Any]]) -> tuple[State, list[str]]:
    """Play (seat, move) rows in order; returns the state and every label (forced included)."""
    labels: list[str] = []
    for seat, move in script:
        played = play(GAME, state, seat, move)
        state = played.state
        labels += [step.label for step in played.steps]
    return state, labels


def cell_tokens(state: State, row: int, col: int) -> str:
    """The tokens on a cell in the picture's letters, e.g. 'aA'."""
    letters = "abcd"
    return "".join(
        letters[t >> 1].upper() if t & 1 else letters[t >> 1]
        for t in state.tokens[row * state.cols + col]
    )
