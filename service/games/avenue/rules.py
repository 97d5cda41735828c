"""The Tree Lined Avenue's rules: setup, the turn as small decisions, the rounds, the end.

A turn (AV-5) is: gardener-or-skip (from round 2), then up to two tiles, then a card of the
current row, then its cell, then the card's action or a skip, then the action token takes the
chosen card's slot, which fixes the seat's place in the next round (AV-4).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from service.engine import BadSetup, Rng
from service.games.avenue.cards import (
    ACTION_ANIMAL,
    ACTION_PROJECT,
    ACTION_REDRAW,
    ACTION_RELOCATE,
    ANIMALS,
    CARDS,
    CELLS,
    NO_ACTION,
    PROJECTS,
    SIZE,
    TILE_ANIMAL,
)
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

EMPTY = -1


def markers(players: int) -> int:
    """Turn-order markers, and so cards per row and turns per round (AV-1)."""
    return 3 if players == 3 else 4


def rounds(players: int) -> int:
    return 10 if players == 3 else 8


def is_edge(cell: int) -> bool:
    r, c = divmod(cell, SIZE)
    return r in (0, SIZE - 1) or c in (0, SIZE - 1)


def line_cells(cell: int) -> list[int]:
    """The 11 cells of the row and column through `cell`, `cell` itself first."""
    r, c = divmod(cell, SIZE)
    return (
        [cell]
        + [r * SIZE + x for x in range(SIZE) if x != c]
        + [y * SIZE + c for y in range(SIZE) if y != r]
    )


def neighbours(cell: int) -> list[int]:
    r, c = divmod(cell, SIZE)
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE:
            out.append((r + dr) * SIZE + c + dc)
    return out


NEIGHBOURS = [neighbours(cell) for cell in range(CELLS)]
LINES: tuple[tuple[int, ...], ...] = tuple(tuple(line_cells(cell)) for cell in range(CELLS))


def draw_row(deck: list[int], size: int) -> list[int]:
    """Draw up to `size` cards and sort them by value; the stable sort keeps draw order for
    equal values (AV-4). A short deck gives a short row (AV-7)."""
    drawn = [deck.pop() for _ in range(min(size, len(deck)))]
    return sorted(drawn, key=lambda card: CARDS[card].value)


def setup(players: int, options: AvenueOptions, rng: Rng) -> State:
    if not 2 <= players <= 4:
        raise BadSetup("The Tree Lined Avenue takes 2 to 4 players")
    park = [EMPTY] * CELLS
    ones = [c.id for c in CARDS if c.value == 1]
    rng.shuffle(ones)
    for i, card in enumerate(ones):
        park[i * (SIZE + 1)] = card  # the diagonal (0,0)..(4,4) (AV-3)
    twos = [c.id for c in CARDS if c.value == 2 and c.tree == CARDS[park[0]].tree]
    park[CELLS - 1] = rng.choice(twos)
    edge = [cell for cell in range(CELLS) if is_edge(cell) and park[cell] == EMPTY]
    order_of_tiles = list(range(len(TILE_ANIMAL)))
    rng.shuffle(order_of_tiles)
    tiles = [0] * len(TILE_ANIMAL)
    for cell, tile in zip(edge, order_of_tiles, strict=True):
        tiles[tile] = cell
    deck = [c.id for c in CARDS if c.id not in park]
    rng.shuffle(deck)
    size = markers(players)
    row = draw_row(deck, size)
    next_row = draw_row(deck, size)
    if options.random_order:
        # Each seat's tokens (two each with 2 players) are dealt the markers at random (AV-1).
        order = [seat for seat in range(players) for _ in range(size // players)]
        rng.shuffle(order)
    else:
        order = [(options.start_seat + i) % players for i in range(size)]
    project_deck = list(range(len(PROJECTS)))
    rng.shuffle(project_deck)
    projects = [[project_deck.pop(), project_deck.pop()] for _ in range(players)]
    gardeners = [[EMPTY] * (3 if players == 2 else 2) for _ in range(players)]
    state = State(
        players=players,
        rng=rng,
        park=park,
        tiles=tiles,
        gardeners=gardeners,
        deck=deck,
        row=row,
        next_row=next_row,
        order=order,
        next_order=[EMPTY] * size,
        projects=projects,
        project_deck=project_deck,
    )
    begin_turn(state)
    return state


# --- who owns what -------------------------------------------------------------------------


def gardener_seats(state: State) -> list[int]:
    """Per cell: the seat whose gardener stands there, or -1."""
    owner = [EMPTY] * CELLS
    for seat, cells in enumerate(state.gardeners):
        for cell in cells:
            if cell != EMPTY:
                owner[cell] = seat
    return owner


def unowned_tiles(state: State, cells: Sequence[int] | None = None) -> list[tuple[int, int]]:
    """Distinct (cell, animal) of tiles not on a card with a gardener (AV-6), optionally only
    on `cells`, sorted by cell then animal. Tiles of one animal on one cell are alike."""
    owner = gardener_seats(state)
    allowed = range(CELLS) if cells is None else cells
    wanted = [False] * CELLS
    for cell in allowed:
        wanted[cell] = owner[cell] == EMPTY
    found = {(cell, TILE_ANIMAL[t]) for t, cell in enumerate(state.tiles) if wanted[cell]}
    return sorted(found)


def tile_at(state: State, cell: int, animal: int) -> int:
    return next(t for t, c in enumerate(state.tiles) if c == cell and TILE_ANIMAL[t] == animal)


def tiles_on(state: State, cell: int) -> list[int]:
    return [t for t, c in enumerate(state.tiles) if c == cell]


def placed_gardeners(state: State, seat: int) -> list[int]:
    return [cell for cell in state.gardeners[seat] if cell != EMPTY]


def free_cards(state: State) -> list[int]:
    """Park cards without a gardener."""
    owner = gardener_seats(state)
    return [c for c in range(CELLS) if state.park[c] != EMPTY and owner[c] == EMPTY]


def open_cells(state: State) -> list[int]:
    """Empty cells orthogonally next to a placed card (AV-5)."""
    park = state.park
    around = {n for cell, card in enumerate(park) if card != EMPTY for n in NEIGHBOURS[cell]}
    return sorted(cell for cell in around if park[cell] == EMPTY)


def take_candidates(state: State) -> list[tuple[int, int]]:
    """Tiles the just-placed gardener may take: unowned, in its row or column (AV-5)."""
    return unowned_tiles(state, LINES[state.cell][1:])


# --- the turn ------------------------------------------------------------------------------


def to_act(state: State) -> list[int]:
    return [] if state.phase == Phase.OVER else [state.order[state.turn]]


def begin_turn(state: State) -> None:
    state.slot = state.card = state.cell = state.dest = state.pick = EMPTY
    state.count = 0
    while True:
        if state.turn >= len(state.order):
            prepare_round(state)
        if any(card != EMPTY for card in state.row):
            break
        state.turn += 1  # no card left for this token: the turn is skipped (AV-7)
    seat = state.order[state.turn]
    gardener_left = EMPTY in state.gardeners[seat]
    state.phase = Phase.GARDENER if state.round >= 2 and gardener_left else Phase.CARD


def prepare_round(state: State) -> None:
    """Tokens slide onto the markers in slot order; the next row moves up (AV-4)."""
    if EMPTY in state.next_order or not state.next_row:
        raise AssertionError("a new round with cards left unplaced")
    state.order = state.next_order
    state.next_order = [EMPTY] * len(state.order)
    state.row = state.next_row
    state.next_row = draw_row(state.deck, len(state.order))
    state.round += 1
    state.turn = 0


def end_turn(state: State) -> None:
    state.next_order[state.slot] = state.order[state.turn]
    if EMPTY not in state.park:
        state.phase = Phase.OVER  # after the turn that places the 36th card (AV-7)
        return
    state.turn += 1
    begin_turn(state)


def has_effect(state: State, seat: int, action: int) -> bool:
    """Whether the action can do anything; one that cannot is skipped (AV-6)."""
    if action == ACTION_RELOCATE:
        return bool(placed_gardeners(state, seat)) and bool(free_cards(state))
    if action == ACTION_PROJECT:
        return bool(state.project_deck)
    if action == ACTION_REDRAW:
        # With the deck empty the same cards would come straight back: nothing changes.
        return bool(state.next_row) and bool(state.deck)
    if action == ACTION_ANIMAL:
        return bool(placed_gardeners(state, seat)) and bool(unowned_tiles(state))
    return False


def legal_moves(state: State, seat: int) -> list[AvenueMove]:
    if seat not in to_act(state):
        return []
    phase = state.phase
    moves: list[AvenueMove] = []
    if phase == Phase.GARDENER:
        moves = [PlaceGardener(cell=c) for c in free_cards(state)]
        moves.append(SkipGardener())
    elif phase == Phase.TILES:
        moves = [TakeTile(cell=c, animal=ANIMALS[a]) for c, a in take_candidates(state)]
        moves.append(StopTaking())
    elif phase == Phase.CARD:
        moves = [ChooseCard(slot=s) for s, card in enumerate(state.row) if card != EMPTY]
    elif phase == Phase.CELL:
        moves = [PlaceCard(cell=c) for c in open_cells(state)]
    elif phase == Phase.ACTION:
        moves = action_moves(state, seat)
        moves.append(SkipAction())
    elif phase == Phase.RELOCATE_TO:
        moves = [RelocateTo(cell=c) for c in free_cards(state)]
    elif phase == Phase.CARRY:
        animals = sorted({TILE_ANIMAL[t] for t in tiles_on(state, state.cell)})
        moves = [CarryTile(animal=ANIMALS[a]) for a in animals]
        moves.append(StopCarrying())
    elif phase == Phase.EXTRA_TO:
        moves = [ExtraTileTo(cell=c) for c in placed_gardeners(state, seat)]
    return moves


def action_moves(state: State, seat: int) -> list[AvenueMove]:
    action = CARDS[state.card].action
    if action == ACTION_RELOCATE:
        return [RelocateGardener(cell=c) for c in placed_gardeners(state, seat)]
    if action == ACTION_PROJECT:
        return [DrawProject()]
    if action == ACTION_REDRAW:
        slots = range(len(state.next_row))
        return [
            Redraw(slots=chosen)
            for k in range(1, len(state.next_row) + 1)
            for chosen in combinations(slots, k)
        ]
    return [ExtraTile(cell=c, animal=ANIMALS[a]) for c, a in unowned_tiles(state)]


def apply(state: State, seat: int, move: AvenueMove) -> None:
    # `type(move) is`, not isinstance: see game.label.
    if type(move) is PlaceGardener:
        state.gardeners[seat][state.gardeners[seat].index(EMPTY)] = move.cell
        state.cell = move.cell
        state.phase = Phase.TILES if take_candidates(state) else Phase.CARD
    elif type(move) is SkipGardener or type(move) is StopTaking:
        state.phase = Phase.CARD
    elif type(move) is TakeTile:
        state.tiles[tile_at(state, move.cell, ANIMALS.index(move.animal))] = state.cell
        state.count += 1
        if state.count == 2 or not take_candidates(state):
            state.phase = Phase.CARD
    elif type(move) is ChooseCard:
        state.slot = move.slot
        state.card = state.row[move.slot]
        state.phase = Phase.CELL
    elif type(move) is PlaceCard:
        state.park[move.cell] = state.card
        state.row[state.slot] = EMPTY
        state.cell = move.cell
        action = CARDS[state.card].action
        if action != NO_ACTION and has_effect(state, seat, action):
            state.phase = Phase.ACTION
        else:
            end_turn(state)
    elif type(move) is RelocateGardener:
        state.cell = move.cell
        state.phase = Phase.RELOCATE_TO
    elif type(move) is RelocateTo:
        gardeners = state.gardeners[seat]
        gardeners[gardeners.index(state.cell)] = move.cell
        state.dest = move.cell
        state.count = 0
        if tiles_on(state, state.cell):
            state.phase = Phase.CARRY
        else:
            end_turn(state)
    elif type(move) is CarryTile:
        state.tiles[tile_at(state, state.cell, ANIMALS.index(move.animal))] = state.dest
        state.count += 1
        if state.count == 2 or not tiles_on(state, state.cell):
            end_turn(state)
    elif type(move) is DrawProject:
        state.projects[seat].append(state.project_deck.pop())
        end_turn(state)
    elif type(move) is Redraw:
        redraw(state, move.slots)
        end_turn(state)
    elif type(move) is ExtraTile:
        state.pick = tile_at(state, move.cell, ANIMALS.index(move.animal))
        state.phase = Phase.EXTRA_TO
    elif type(move) is ExtraTileTo:
        state.tiles[state.pick] = move.cell
        end_turn(state)
    else:  # SkipAction, StopCarrying
        end_turn(state)


def redraw(state: State, slots: tuple[int, ...]) -> None:
    """Chosen next-round cards go back, the deck is shuffled, as many are drawn, and the row is
    sorted again with the kept cards first for ties (AV-6)."""
    kept = [card for s, card in enumerate(state.next_row) if s not in slots]
    state.deck.extend(state.next_row[s] for s in slots)
    state.rng.shuffle(state.deck)
    drawn = [state.deck.pop() for _ in slots]
    state.next_row = sorted(kept + drawn, key=lambda card: CARDS[card].value)
