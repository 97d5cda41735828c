"""What is legal and what a legal decision does: the turn as a small state machine.

reforest (active seat) -> isolation flips (automatic) -> deploy by the active seat (card, then
one source per space) -> deploy by the next seat -> claims of the restored lines in priority-
letter order (station, then each other seat energizes) -> end of turn.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from itertools import compress

from service.games.treeline.moves import (
    DeployCard,
    DeployFromCard,
    DeployFromSupply,
    Energize,
    Reforest,
    StationFromSupply,
    StationToken,
    StrategicFlip,
    TreelineMove,
)
from service.games.treeline.state import (
    End,
    Phase,
    State,
    cell_at,
    grid_of,
    influence,
    is_town,
    line_cells,
    lines_with_town,
    neighbours,
    next_seat,
    occupied,
    owner,
    rc,
    seats_after,
    token,
    town_count,
)

# ---- legal moves -------------------------------------------------------------------------


def legal_moves(state: State, seat: int) -> list[TreelineMove]:
    if state.phase == Phase.OVER or seat != state.actor:
        return []
    if state.phase == Phase.STRATEGIC:
        return [StrategicFlip(row=r, col=c) for r, c in _coords(state, strategic_cells(state))]
    if state.phase == Phase.REFOREST:
        return reforest_moves(state)
    if state.phase == Phase.DEPLOY_CARD:
        return [DeployCard(row=r, col=c) for r, c in _coords(state, deploy_cards(state))]
    if state.phase == Phase.DEPLOY_SOURCE:
        return deploy_sources(state, seat)
    if state.phase == Phase.STATION:
        return station_sources(state, seat)
    return energize_moves(state, seat)


def _coords(state: State, cells: list[int]) -> list[tuple[int, int]]:
    return [rc(state, cell) for cell in cells]


def strategic_cells(state: State) -> list[int]:
    """Town cards whose flip isolates no other Town card (TL-12)."""
    return [
        cell
        for cell in range(len(state.land))
        if is_town(state, cell)
        and all(
            any(m != cell and is_town(state, m) for m in neighbours(state, n))
            for n in neighbours(state, cell)
            if is_town(state, n)
        )
    ]


@cache
def _reforest_pairs(rows: int, cols: int) -> tuple[tuple[int, int, Reforest], ...]:
    """Each cell with its neighbour to the right, then below, and the move naming the pair,
    in cell order: built once per grid size (moves are frozen, so they can be shared)."""
    pairs: list[tuple[int, int, Reforest]] = []
    for cell in range(rows * cols):
        row, col = divmod(cell, cols)
        if col + 1 < cols:
            pairs.append((cell, cell + 1, Reforest(row=row, col=col, toward="right")))
        if row + 1 < rows:
            pairs.append((cell, cell + cols, Reforest(row=row, col=col, toward="down")))
    return tuple(pairs)


def reforest_moves(state: State) -> list[TreelineMove]:
    """Every legal pair once (TL-3): a cell and its Town neighbour to the right or below."""
    forest, next_to = state.forest, grid_of(state).neighbours
    touches_forest = [False] * len(forest)
    for cell in compress(range(len(forest)), forest):
        for n in next_to[cell]:
            touches_forest[n] = True
    return [
        move
        for first, second, move in _reforest_pairs(state.rows, state.cols)
        if not (forest[first] or forest[second])
        and (touches_forest[first] or touches_forest[second])
    ]


def deploy_cards(state: State) -> list[int]:
    """Cards flipped this turn that nobody has deployed to yet (TL-5: a different card)."""
    return sorted(cell for cell in state.flipped if cell not in state.deployed)


def _own_tokens(
    state: State, seat: int, cells: Iterable[int], side: bool | None = None
) -> list[tuple[int, bool]]:
    """Distinct (cell, energized) of `seat`'s tokens on `cells` (of one side if given): each
    side once, in the order on the card."""
    normal, energized = token(seat, False), token(seat, True)
    wanted = frozenset((normal, energized) if side is None else (energized if side else normal,))
    tokens = state.tokens
    return [
        (cell, tok == energized)
        for cell in cells
        if not wanted.isdisjoint(tokens[cell])
        for tok in dict.fromkeys(tokens[cell])
        if tok in wanted
    ]


def has_available(state: State, seat: int, besides: int = -1) -> bool:
    """Whether `seat` has a token it could deploy: in supply, or unstationed on a card other
    than `besides`."""
    if state.supply[seat]:
        return True
    normal, energized = token(seat, False), token(seat, True)
    return any(
        normal in toks or energized in toks
        for cell, toks in enumerate(state.tokens)
        if toks and cell != besides
    )


def deploy_sources(state: State, seat: int) -> list[TreelineMove]:
    moves: list[TreelineMove] = [DeployFromSupply()] if state.supply[seat] else []
    cols, target = state.cols, state.target
    moves += [
        DeployFromCard(row=cell // cols, col=cell % cols, energized=energized)
        for cell, energized in _own_tokens(state, seat, occupied(state))
        if cell != target
    ]
    return moves


def station_sources(state: State, seat: int) -> list[TreelineMove]:
    """From the line while the winner has a token there; else from anywhere (TL-8)."""
    in_line = _own_tokens(state, seat, line_cells(state, state.claim_line))
    moves: list[TreelineMove] = []
    if not in_line:
        if state.supply[seat]:
            moves.append(StationFromSupply())
        in_line = _own_tokens(state, seat, occupied(state))
    for cell, energized in in_line:
        row, col = rc(state, cell)
        moves.append(StationToken(row=row, col=col, energized=energized))
    return moves


def energize_moves(state: State, seat: int) -> list[TreelineMove]:
    normal = _own_tokens(state, seat, line_cells(state, state.claim_line), side=False)
    return [Energize(row=r, col=c) for r, c in (rc(state, cell) for cell, _ in normal)]


# ---- applying a decision -------------------------------------------------------------------


def apply(state: State, seat: int, move: TreelineMove) -> None:
    if isinstance(move, StrategicFlip):
        cell = cell_at(state, move.row, move.col)
        state.forest[cell] = True
        placed = min(state.land[cell], state.supply[seat])
        state.tokens[cell] = [token(seat, False)] * placed
        state.supply[seat] -= placed
        state.strategic_queue.pop(0)
        if state.strategic_queue:
            state.actor = state.strategic_queue[0]
        else:
            begin_turn(state, state.start_seat)
    elif isinstance(move, Reforest):
        reforest(state, move)
        state.deploy_stage = 0
        _next_deploy(state)
    elif isinstance(move, DeployCard):
        state.target = cell_at(state, move.row, move.col)
        state.deployed.append(state.target)
        state.phase = Phase.DEPLOY_SOURCE
        _continue_deploy(state)
    elif isinstance(move, DeployFromSupply):
        state.supply[seat] -= 1
        state.tokens[state.target].append(token(seat, False))
        _continue_deploy(state)
    elif isinstance(move, DeployFromCard):
        tok = token(seat, move.energized)
        state.tokens[cell_at(state, move.row, move.col)].remove(tok)
        state.tokens[state.target].append(tok)  # a moved token keeps its side (TL-4)
        _continue_deploy(state)
    elif isinstance(move, StationToken):
        tok = token(seat, move.energized)
        state.tokens[cell_at(state, move.row, move.col)].remove(tok)
        _station(state, tok)
    elif isinstance(move, StationFromSupply):
        state.supply[seat] -= 1
        _station(state, token(seat, False))
    elif isinstance(move, Energize):
        toks = state.tokens[cell_at(state, move.row, move.col)]
        toks[toks.index(token(seat, False))] = token(seat, True)
        state.energize_queue.pop(0)
        _next_energize(state)


def reforest(state: State, move: Reforest) -> None:
    """Flip the pair, then every Town card left with no Town neighbour (TL-3; no cascade)."""
    first = cell_at(state, move.row, move.col)
    second = first + 1 if move.toward == "right" else first + state.cols
    state.forest[first] = state.forest[second] = True
    state.flipped = [first, second]
    forest, next_to = state.forest, grid_of(state).neighbours
    touches_town = [False] * len(forest)
    for cell, up in enumerate(forest):
        if not up:
            for n in next_to[cell]:
                touches_town[n] = True
    isolated = [cell for cell, up in enumerate(forest) if not up and not touches_town[cell]]
    for cell in isolated:
        state.forest[cell] = True
    state.flipped += isolated


def _next_deploy(state: State) -> None:
    """The active seat's deploy, then the next seat's (TL-5). A deployer with no available
    token skips (TL-4); so does one left without a card, which a reforest never causes."""
    while state.deploy_stage < 2:
        seat = state.active if state.deploy_stage == 0 else next_seat(state, state.active)
        if deploy_cards(state) and has_available(state, seat):
            state.phase = Phase.DEPLOY_CARD
            state.actor = seat
            return
        state.deploy_stage += 1
    _start_claims(state)


def _continue_deploy(state: State) -> None:
    """Fill until the card is full or the deployer has no token left to bring (TL-4)."""
    target = state.target
    if len(state.tokens[target]) < state.land[target] and has_available(state, state.actor, target):
        return
    state.target = -1
    state.deploy_stage += 1
    _next_deploy(state)


def _start_claims(state: State) -> None:
    still_town = lines_with_town(state)
    restored = [line for line in state.open_lines if line not in still_town]
    state.claims = sorted(restored, key=lambda line: state.castles[line].tile)  # TL-6
    _next_claim(state)


def claim_winner(state: State, line: int) -> tuple[int, bool]:
    """The seat that claims `line` and whether it won a tie (TL-7)."""
    totals = [0] * state.players
    for cell in line_cells(state, line):
        for tok in state.tokens[cell]:
            totals[owner(tok)] += influence(tok)
    best = max(totals)
    order = [state.active, *seats_after(state, state.active)]
    winner = next(seat for seat in order if totals[seat] == best)
    return winner, totals.count(best) > 1


def _next_claim(state: State) -> None:
    if not state.claims:
        state.claim_line = -1
        _end_turn(state)
        return
    line = state.claims.pop(0)
    winner, tie = claim_winner(state, line)
    state.castles[line].owner = winner  # claimed for good (rulebook p.5)
    state.claim_line = line
    state.station_left = 2 if tie else 1
    state.phase = Phase.STATION
    state.actor = winner
    _continue_station(state)


def _station(state: State, tok: int) -> None:
    state.castles[state.claim_line].stationed.append(tok)
    state.station_left -= 1
    _continue_station(state)


def _continue_station(state: State) -> None:
    # TL-8: with no unstationed token at all the castle is claimed with fewer stationed.
    if state.station_left > 0 and has_available(state, state.actor):
        return
    state.station_left = 0
    state.energize_queue = seats_after(state, state.actor)
    _next_energize(state)


def _next_energize(state: State) -> None:
    """Each other seat, in turn order after the winner, with a Normal token there (TL-9)."""
    line = line_cells(state, state.claim_line)
    while state.energize_queue:
        seat = state.energize_queue[0]
        normal = token(seat, False)
        if any(normal in state.tokens[cell] for cell in line):
            state.phase = Phase.ENERGIZE
            state.actor = seat
            return
        state.energize_queue.pop(0)
    _next_claim(state)


def _end_turn(state: State) -> None:
    if town_count(state) <= 4:  # TL-10, glades still Town side up included
        state.phase = Phase.OVER
        state.end = End.FEW_TOWNS
        return
    begin_turn(state, next_seat(state, state.active))


def begin_turn(state: State, seat: int) -> None:
    state.turn += 1
    state.active = state.actor = seat
    state.flipped, state.deployed, state.claims = [], [], []
    state.deploy_stage, state.target, state.claim_line = 0, -1, -1
    state.open_lines = lines_with_town(state)
    state.phase = Phase.REFOREST
    if not reforest_moves(state):  # TL-10: a seat to act with no legal reforest ends the game
        state.phase = Phase.OVER
        state.end = End.NO_REFOREST
