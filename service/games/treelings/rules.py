"""Setup, the market, the take and the placement of a Treelings turn, and the end of the game."""

from __future__ import annotations

from service.engine import Rng
from service.engine.texts import Said
from service.games.treelings.cards import (
    CARDS,
    COLOUR_INDEX,
    COLOURS,
    FESTIVAL,
)
from service.games.treelings.state import (
    Place,
    Side,
    State,
    TakeColour,
    TakeSingletons,
    Tree,
    TreelingsMove,
)

SIDES: tuple[Side, ...] = ("left", "right")


def new_game(players: int, start_seat: int, rng: Rng) -> State:
    deck = [colour for colour, c in enumerate(CARDS.colours) for _ in range(c.count)]
    rng.shuffle(deck)
    dealt: list[list[int]] = [[] for _ in range(players)]
    # Dealt one card at a time clockwise from the start seat, from the top (end) of the deck.
    for _ in range(CARDS.deal_per_seat):
        for offset in range(players):
            dealt[(start_seat + offset) % players].append(deck.pop())
    depth = CARDS.festival_depth
    state = State(
        rng=rng,
        players=players,
        start_seat=start_seat,
        seat=start_seat,
        pile=[*deck[:depth], FESTIVAL, *deck[depth:]],  # TG-1
        market=[0] * len(COLOURS),
        districts=[plant_dealt(cards) for cards in dealt],
    )
    fill_market(state, revealer=-1)
    return state


def plant_dealt(cards: list[int]) -> list[Tree]:
    """TG-2: dealt cards form trees in deal order, left to right; repeats join their tree."""
    trees: list[Tree] = []
    for colour in cards:
        tree = _tree_of(trees, colour)
        if tree is None:
            trees.append(Tree(colour, 1))
        else:
            tree.height += 1
    return trees


def fill_market(state: State, revealer: int) -> None:
    """TG-3: draw one at a time up to 5 guild cards; the festival is set aside and starts the
    final round; an empty pile leaves the market short."""
    while sum(state.market) < CARDS.market_size and state.pile:
        card = state.pile.pop()
        if card == FESTIVAL:
            state.festival_revealed = True
            state.festival_seat = revealer
        else:
            state.market[card] += 1


def legal_moves(state: State) -> list[TreelingsMove]:
    if state.to_place:
        return [
            Place(colour=COLOURS[tree.colour], side=side)
            for tree in state.to_place
            for side in SIDES
        ]
    moves: list[TreelingsMove] = [
        TakeColour(colour=COLOURS[colour]) for colour, n in enumerate(state.market) if n
    ]
    # With a single singleton colour, takeSingletons would be that colour's takeColour.
    if len(singletons(state)) >= 2:
        moves.append(TakeSingletons())
    return moves


def singletons(state: State) -> list[int]:
    return [colour for colour, n in enumerate(state.market) if n == 1]


def apply(state: State, move: TreelingsMove) -> None:
    if isinstance(move, TakeColour):
        colour = COLOUR_INDEX[move.colour]
        taken = [Tree(colour, state.market[colour])]
    elif isinstance(move, TakeSingletons):
        taken = [Tree(colour, 1) for colour in singletons(state)]
    else:
        _place(state, move)
        return
    district = state.districts[state.seat]
    for cards in taken:
        state.market[cards.colour] = 0
        tree = _tree_of(district, cards.colour)
        if tree is None:
            state.to_place.append(cards)
        else:
            tree.height += cards.height
    if not state.to_place:
        end_turn(state)


def _place(state: State, move: Place) -> None:
    """TG-5: one new colour at a time, at the end the seat chooses; the order of these
    decisions is the order the rulebook's move lists the colours in."""
    colour = COLOUR_INDEX[move.colour]
    tree = next(t for t in state.to_place if t.colour == colour)
    state.to_place.remove(tree)
    district = state.districts[state.seat]
    if move.side == "left":
        district.insert(0, tree)
    else:
        district.append(tree)
    if not state.to_place:
        end_turn(state)


def end_turn(state: State) -> None:
    following = (state.seat + 1) % state.players
    if state.festival_revealed and following == state.start_seat:
        state.over = True  # TG-6: the game ends before the start seat plays again
        return
    start_turn(state, following)


def start_turn(state: State, seat: int) -> None:
    state.seat = seat
    fill_market(state, revealer=seat)
    if not any(state.market):
        # Gap: pile and market both empty leaves no possible take, so the game ends here.
        state.over = True


def turns_left(state: State) -> int | None:
    """Turns still to play, this one included, once the final round has begun."""
    if not state.festival_revealed or state.over:
        return None
    return (state.start_seat - state.seat) % state.players or state.players


def label(state: State, move: TreelingsMove) -> Said:
    """The label's catalog key and values (texts.py: said in English or as a message)."""
    if isinstance(move, TakeColour):
        n = state.market[COLOUR_INDEX[move.colour]]
        if n > 1:
            return ("label.takeMany", {"count": n, "colour": move.colour})
        return ("label.takeOne", {"colour": move.colour})
    if isinstance(move, TakeSingletons):
        return ("label.takeSingletons", {"colours": [COLOURS[c] for c in singletons(state)]})
    tree = next(t for t in state.to_place if COLOURS[t.colour] == move.colour)
    return ("label.place", {"colour": move.colour, "height": tree.height, "side": move.side})


def _tree_of(trees: list[Tree], colour: int) -> Tree | None:
    return next((t for t in trees if t.colour == colour), None)
