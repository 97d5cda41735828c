"""Finished games' histories, folded into their records (docs/performance.md).

When a game ends, its history list (one entry per version, each with its label) becomes one
compressed value in the record's hash (RedisStore.fold) without the labels: they are
deterministic from the seed and the moves, so the engine gives them back by replaying the
game when the history is first read, and the labels of the latest games read are kept
(finished games never change). Replaying at the fold to check them would cost the engine's
time for the whole game on its last move; a digest of the labels is kept instead, so a
replay that does not give the labels shown (the rules changed since: a release bumped its
kind's RULES_VERSION, or changed the rules without bumping it, a bug) is caught: logged,
counted (rules_replay_mismatches_total) and the history served without labels, never with
labels its players did not see (docs/reliability.md, "Rolling upgrades"). A record without
its create options (earlier releases) cannot be replayed and keeps its labels, and so does a
history with an entry that is not one of the game's moves, and a game this release's rules
would not replay (created under another RULES_VERSION).
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from typing import Any

import msgspec

from service import metrics
from service.engine import BadSetup, Game, IllegalMove, Step
from service.engine import play as engine_play
from service.engine import start as engine_start
from service.engine.play import parse_move
from service.games import game_for
from service.store import HistoryRecord, Record, RedisStore, StoreUnavailable, UnreadableRecord
from service.store.records import fold, fold_checkpoints, label_digest

log = logging.getLogger("service.folding")

CACHED_GAMES = 256


def replayed_steps(
    game: Game[Any, Any], record: Record, entries: list[HistoryRecord]
) -> list[Step] | None:
    """Every step of the game replayed from its seed and the decisions of `entries`, or
    None if it cannot be replayed (no create options, or the rules refuse a move)."""
    if record.options is None:
        return None
    try:
        played = engine_start(game, record.players, record.options, record.seed)
        state, steps = played.state, list(played.steps)
        for entry in entries:
            if not entry.forced:
                played = engine_play(game, state, entry.seat, entry.move, copy=False)
                state = played.state
                steps += played.steps
    except (IllegalMove, BadSetup):
        return None
    return steps


def replayable(game: Game[Any, Any], record: Record, entries: list[HistoryRecord]) -> bool:
    """Whether the engine can give the labels back: the game's create options are known, it
    was played under this release's rules, and every entry is one of the game's moves as the
    engine labels it (an entry with an event keeps its label: a resignation or abandon is no
    move, a timeout's label says so)."""
    if record.options is None or record.rules != game.rules_version:
        return False
    if any(entry.event for entry in entries):
        return False
    try:
        for entry in entries:
            parse_move(game, entry.move)
    except IllegalMove:
        return False
    return True


async def fold_finished(store: RedisStore, game_id: str, record: Record) -> None:
    """Fold the history and the checkpoints of a game that `record` (just committed)
    finished, and with an archive mark it for its rating and the archive
    (service/store/archived.py). Not part of the move: if Redis fails here the history stays a
    list, which reads the same (and the game expires after RULES_FINISHED_TTL unarchived)."""
    try:
        entries = await store.history(game_id, 0, record.version)
        if len(entries) == record.version:  # else folded already
            labelled = not replayable(game_for(record.kind, record.rules), record, entries)
            checkpoints = await store.checkpoints(game_id)
            folded = fold_checkpoints(checkpoints) if checkpoints else b""
            await store.fold(game_id, record.version, fold(entries, labelled), folded)
        if store.settings.database_url:  # rated at once, archived once the grace is over
            ended = time.time()
            await store.archived.mark(game_id, ended + store.settings.idempotency_grace, ended)
    except (StoreUnavailable, UnreadableRecord) as exc:  # read as it is (or refused) later
        log.warning("history of %s left unfolded or unmarked: %s", game_id, exc)


class Labels:
    """Labels of folded histories, replayed once per game and kept for the latest games."""

    def __init__(self, store: RedisStore, size: int = CACHED_GAMES) -> None:
        self.store = store
        self.size = size
        self._labels: OrderedDict[tuple[str, float], list[str]] = OrderedDict()

    async def relabel(
        self, game_id: str, record: Record, entries: list[HistoryRecord], digest: bytes
    ) -> list[HistoryRecord]:
        """`entries` of a folded history whose labels have `digest`, with their labels: those
        the engine replays, if they are the labels played (else none, "")."""
        if not entries:
            return entries
        key = (game_id, record.created)
        labels = self._labels.get(key)
        if labels is None:
            everything = await self.store.history(game_id)
            game = game_for(record.kind, record.rules)
            steps = replayed_steps(game, record, everything) or []
            labels = [step.label for step in steps]
            if label_digest(labels) != digest:
                metrics.REPLAY_MISMATCHES.labels(record.kind).inc()
                log.warning(
                    "labels of %s do not replay (created under rules %d of %s, these are %d): "
                    "served without labels",
                    game_id,
                    record.rules,
                    record.kind,
                    game.rules_version,
                )
                labels = []
            self._labels[key] = labels
            while len(self._labels) > self.size:
                self._labels.popitem(last=False)
        self._labels.move_to_end(key)
        return [
            msgspec.structs.replace(e, label=labels[e.version - 1])
            if e.version - 1 < len(labels)
            else e
            for e in entries
        ]
