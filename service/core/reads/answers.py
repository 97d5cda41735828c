"""Answers about a game that change nothing: a move's dry run (validateMove), a hint for the
seat to act (suggestMove, from the hint processes of service/bots/hints.py) and its history
entries, labelled again if its history was folded under other labels (folding.Labels)."""

from __future__ import annotations

from typing import Any

from service.bots import STRATEGIES
from service.bots.hints import HintPool, HintRequest
from service.core.access.callers import Caller
from service.core.game.folding import Labels
from service.core.game.loaded_game import LoadedGame
from service.core.moves import applying
from service.core.moves.decisions import bot_seed, ended
from service.core.moves.opening import open_for_decision
from service.engine import IllegalMove, check
from service.engine.play import decode_state, to_move
from service.games import game_for
from service.refusals import Code, Refused
from service.store import HistoryRecord, Record, RedisStore

DEFAULT_BUDGET_MS = 100
MAX_SUGGEST_ITERATIONS = 5000


async def validate(
    store: RedisStore, tenants_may_act: bool, game_id: str, caller: Caller, move: object
) -> Refused | None:
    """A dry run of `apply`: the refusal it would give now, or None. Writes nothing."""
    try:
        record, _, seat, _ = await open_for_decision(store, game_id, caller, None, tenants_may_act)
    except Refused as refused:
        if refused.code not in (Code.NOT_FOUND, Code.UNAUTHORIZED):
            raise  # the store's faults (UNAVAILABLE, UNREADABLE_RECORD) are no verdict
        return refused
    if record.outcome is not None:
        return ended(record)
    game = game_for(record.kind, record.rules)
    try:
        check(game, decode_state(game, record.state), seat, move)
    except IllegalMove as exc:
        return applying.refused(exc, record.version)
    return None


async def suggest(
    hints: HintPool,
    max_suggest_ms: int,
    record: Record,
    seat: int,
    strategy: str,
    budget_ms: int | None,
    iterations: int | None,
    seed: int | None,
) -> tuple[int, Any, str]:
    """A hint for the caller's seat: the seat, a legal move and its label. With `iterations`
    the answer is reproducible; else SEARCH stops after `budget_ms` (capped)."""
    game = game_for(record.kind, record.rules)
    state = decode_state(game, record.state)
    if game.is_over(state) or record.outcome is not None:
        raise Refused(Code.GAME_OVER, "the game is over", record.version)
    if seat not in game.to_act(state):
        raise Refused(Code.NOT_YOUR_TURN, f"seat {seat} does not act now", record.version)
    if strategy not in STRATEGIES:
        raise Refused(Code.MALFORMED_MOVE, f"strategy is one of {STRATEGIES}")
    budget_ms = max(min(budget_ms or DEFAULT_BUDGET_MS, max_suggest_ms), 1)
    if iterations is not None:
        iterations = min(max(iterations, 1), MAX_SUGGEST_ITERATIONS)
        budget_ms = max_suggest_ms  # iterations, but never past the time cap
    request = HintRequest(
        record.kind,
        record.state,
        seat,
        strategy,
        str(seed if seed is not None else bot_seed(record.seed, record.state)),
        iterations,
        budget_ms,
        record.rules,
    )
    move, label = await hints.suggest(request)
    return seat, to_move(game, move), label


async def history(
    store: RedisStore, labels: Labels, loaded: LoadedGame, after: int | None
) -> list[HistoryRecord]:
    """Entries after `after` up to the game's version (a replayed answer is an earlier
    version of the game than the one stored)."""
    after = min(max(after or 0, 0), loaded.record.version)
    if after == loaded.record.version:
        return []
    entries, digest = await store.read_history(loaded.id, after, loaded.record.version)
    if digest is None:
        return entries
    return await labels.relabel(loaded.id, loaded.record, entries, digest)
