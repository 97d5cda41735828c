"""What a seat may do now, and what each decision does (RULINGS TT-3, TT-4, TT-6, TT-8, TT-9).

A turn is a chain of small decisions by the active seat: START (A or B), the draw, then KEEP
(pool or plant) and CELL, then REWARD decisions owed by other seats after a group of four,
then END (Extra Turn) when that token is active. `finish_turn` refills the pool.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from service.engine import Rng
from service.games.treetopia import sanctuary
from service.games.treetopia.cards import CARDS, SYMBIOSES, plantable
from service.games.treetopia.state import (
    EXTRA_TURN,
    EYE,
    HAND,
    POOL,
    TOKENS,
    WHIRLWIND,
    ActivateToken,
    DeclineToken,
    DrawFromPile,
    EndTurn,
    KeepEyeCard,
    Phase,
    Plant,
    PlantAt,
    PutInPool,
    SkipTurn,
    State,
    TakeFromPool,
    TreetopiaMove,
    UseExtraTurn,
    UseEye,
    UseWhirlwind,
)

EYE_DRAW = 3


def setup(players: int, start_seat: int, rng: Rng) -> State:
    pile = list(range(len(CARDS)))
    rng.shuffle(pile)
    hands = [[pile.pop() for _ in range(HAND)] for _ in range(players)]
    pool = [pile.pop() for _ in range(POOL)]
    symbiosis = rng.below(len(SYMBIOSES))  # TT-2: one of the 6 type pairs, at random
    return State(
        players=players,
        rng=rng,
        symbiosis=symbiosis,
        pile=pile,
        pool=pool,
        hands=hands,
        tokens=[[True, False, False] for _ in range(players)],
        active=start_seat,
    )


def to_act(state: State) -> list[int]:
    if state.phase == Phase.OVER:
        return []
    if state.phase == Phase.REWARD:
        return [state.rewards[0]]
    return [state.active]


def drawable(state: State) -> int:
    """Cards the draw pile can still give: the pile plus the discard pile it is rebuilt from."""
    return len(state.pile) + len(state.discard)


def _draw_options(state: State) -> list[TreetopiaMove]:
    # TT-8: a draw that needs cards that do not exist is not offered.
    moves: list[TreetopiaMove] = []
    if drawable(state):
        moves.append(DrawFromPile())
        if state.tokens[state.active][EYE]:
            moves.append(UseEye())
    moves += [TakeFromPool(card=c) for c in state.pool]
    return moves


def legal_moves(state: State, seat: int) -> list[TreetopiaMove]:
    if seat not in to_act(state):
        return []
    return _OPTIONS[state.phase](state, seat)


def _start_options(state: State, seat: int) -> list[TreetopiaMove]:
    tokens = state.tokens[seat]
    moves: list[TreetopiaMove] = []
    if tokens[WHIRLWIND]:
        cards = sorted(state.hands[seat])
        moves = [
            UseWhirlwind(cards=c) for k in range(1, len(cards) + 1) for c in combinations(cards, k)
        ]
    moves += _draw_options(state)
    # TT-3: B turns one inactive token active; not offered when all three are active.
    moves += [SkipTurn(token=t) for t, active in zip(TOKENS, tokens, strict=True) if not active]
    return moves


def _keep_options(state: State, seat: int) -> list[TreetopiaMove]:
    hand = state.hands[seat]
    moves: list[TreetopiaMove] = [PutInPool(card=c) for c in hand]
    moves += [Plant(card=c) for c in plantable(hand)]
    return moves


def _reward_options(state: State, seat: int) -> list[TreetopiaMove]:
    tokens = state.tokens[seat]
    moves: list[TreetopiaMove] = [
        ActivateToken(token=t) for t, active in zip(TOKENS, tokens, strict=True) if not active
    ]
    return [*moves, DeclineToken()]


# The decisions of each phase, looked up once: Python 3.11 reads an enum member through
# EnumType.__getattr__, so a chain of `phase == Phase.X` tests costs ~75 ns a test.
_OPTIONS: dict[Phase, Callable[[State, int], list[TreetopiaMove]]] = {
    Phase.START: _start_options,
    Phase.DRAW: lambda state, _: _draw_options(state),
    Phase.EYE: lambda state, _: [KeepEyeCard(card=c) for c in state.eye],
    Phase.KEEP: _keep_options,
    Phase.CELL: lambda state, _: [PlantAt(row=r, col=c) for r, c in sanctuary.legal_cells(state)],
    Phase.REWARD: _reward_options,
    Phase.END: lambda *_: [UseExtraTurn(), EndTurn()],
    Phase.OVER: lambda *_: [],
}


def draw(state: State) -> int:
    """The top card of the pile; an empty pile is first rebuilt from the shuffled discard."""
    if not state.pile:
        state.pile, state.discard = state.discard, []
        state.rng.shuffle(state.pile)  # TT-8
    return state.pile.pop()


def apply(state: State, seat: int, move: TreetopiaMove) -> None:
    hand = state.hands[seat]
    if isinstance(move, UseWhirlwind):
        state.tokens[seat][WHIRLWIND] = False
        for card in move.cards:
            hand.remove(card)
            state.discard.append(card)
        hand.extend(draw(state) for _ in move.cards)
        state.phase = Phase.DRAW
    elif isinstance(move, DrawFromPile):
        hand.append(draw(state))
        state.phase = Phase.KEEP
    elif isinstance(move, TakeFromPool):
        state.pool.remove(move.card)
        hand.append(move.card)
        state.phase = Phase.KEEP
    elif isinstance(move, UseEye):
        state.tokens[seat][EYE] = False
        state.eye = [draw(state) for _ in range(min(EYE_DRAW, drawable(state)))]
        state.phase = Phase.EYE
    elif isinstance(move, KeepEyeCard):
        hand.append(move.card)
        state.discard.extend(c for c in state.eye if c != move.card)
        state.eye = []
        state.phase = Phase.KEEP
    elif isinstance(move, PutInPool):
        hand.remove(move.card)
        state.pool.append(move.card)
        _after_action(state)
    elif isinstance(move, Plant):
        state.planting = move.card
        state.phase = Phase.CELL
    elif isinstance(move, PlantAt):
        _plant(state, seat, move)
    elif isinstance(move, SkipTurn):
        state.tokens[seat][TOKENS.index(move.token)] = True
        finish_turn(state, extra=False)
    elif isinstance(move, ActivateToken | DeclineToken):
        if isinstance(move, ActivateToken):
            state.tokens[seat][TOKENS.index(move.token)] = True
        state.rewards.pop(0)
        if not state.rewards:
            _after_action(state)
    elif isinstance(move, UseExtraTurn | EndTurn):
        extra = isinstance(move, UseExtraTurn)
        if extra:
            state.tokens[seat][EXTRA_TURN] = False
        finish_turn(state, extra=extra)


def _plant(state: State, seat: int, move: PlantAt) -> None:
    card = state.planting
    state.hands[seat].remove(card)
    state.planting = -1
    tree = sanctuary.plant(state, seat, card, move.row, move.col)
    if sanctuary.is_full(state):
        state.phase = Phase.OVER  # TT-9: the game ends at once; no reward, no extra turn
        return
    if sanctuary.completes_four(state, tree):
        others = [(seat + i) % state.players for i in range(1, state.players)]
        state.rewards = [s for s in others if not all(state.tokens[s])]
    if state.rewards:
        state.phase = Phase.REWARD
    else:
        _after_action(state)


def _after_action(state: State) -> None:
    """The A action is done: offer the Extra Turn if that token is active, else end the turn."""
    if state.tokens[state.active][EXTRA_TURN]:
        state.phase = Phase.END
    else:
        finish_turn(state, extra=False)


def finish_turn(state: State, extra: bool) -> None:
    """Refill the pool to 2 (TT-8) and pass the turn (to the same seat after an Extra Turn)."""
    while len(state.pool) < POOL and drawable(state):
        state.pool.append(draw(state))
    state.turns += 1
    if not extra:
        state.active = (state.active + 1) % state.players
    state.phase = Phase.START
