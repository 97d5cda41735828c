"""Endings that are no move of the game's rules: a seat resigns (RESIGNED, the best of the
other seats win), the game's tenant abandons it (ABANDONED, no winners). Each is one version
more: a history entry labelled with the outcome's reason, its webhook events and its metric,
in one version-checked commit. A turn clock's timeout is a move: decisions.enforce_clock."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import msgspec

from service import metrics
from service.core import callers
from service.core.access import KeyNeeded
from service.core.callers import Caller
from service.core.decisions import best_of, playable
from service.core.folding import fold_finished
from service.core.loaded import Applied, LoadedGame
from service.core.loading import load, not_found
from service.core.moves import stale
from service.engine.play import decode_state
from service.games import games
from service.refusals import Code, Refused
from service.store import FORMAT, HistoryRecord, Record
from service.store.records import ACTED_BY_TENANT, Outcome
from service.webhooks.events import of_commit as webhook_events

if TYPE_CHECKING:
    from service.core.service import GameService

ABANDON_NEEDS_KEY = "abandoning needs the game's API key"


async def resign(
    service: GameService, game_id: str, caller: Caller, expected_version: int | None
) -> Applied:
    """The caller's seat gives up: the game is over, the best of the other seats win."""
    record, _ = await load(service.store, game_id, caller, None)
    seat = callers.seat(game_id, record, caller, service.tenants_may_act)
    if expected_version is not None and expected_version != record.version:
        raise stale(record.version, expected_version)
    game = games()[record.kind]
    playable(game_id, record, game)
    winners = best_of(game.scores(decode_state(game, record.state)), exclude=seat)
    outcome = Outcome("RESIGNED", seat, winners)
    by = ACTED_BY_TENANT if caller.for_tenant else ""
    return await end(service, game_id, record, outcome, seat, f"seat {seat} resigned", by)


async def abandon(service: GameService, game_id: str, tenant: str | None) -> Applied:
    """The game's tenant calls it off: ABANDONED, no winners. Another tenant's key is
    told there is no such game (it may not learn which games exist)."""
    if tenant is None:
        raise KeyNeeded(ABANDON_NEEDS_KEY)
    record, _ = await service.store.load(game_id)
    if record is None or record.tenant != tenant:
        raise not_found(game_id)
    outcome = Outcome("ABANDONED", None, [])
    return await end(service, game_id, record, outcome, -1, "abandoned by its tenant")


async def end(
    service: GameService,
    game_id: str,
    record: Record,
    outcome: Outcome,
    seat: int,
    label: str,
    by: str = "",
) -> Applied:
    """One version more that ends the game without a move of its rules: a history entry
    labelled `outcome.reason`, the event, the metric, all in one version-checked commit."""
    if record.finished or record.outcome is not None:
        raise Refused(Code.GAME_OVER, "the game is over", record.version)
    version = record.version + 1
    ended_record = msgspec.structs.replace(
        record,
        format=FORMAT,
        version=version,
        finished=True,
        updated=time.time(),
        acting=[],
        outcome=outcome,
        deadline=None,
    )
    entry = HistoryRecord(version, seat, None, label, event=outcome.reason, acted_by=by)
    events = webhook_events(game_id, record, ended_record, [entry])
    committed = await service.store.commit(
        game_id, record.version, ended_record, [entry], None, events=events
    )
    if committed.outcome == "gone":
        raise not_found(game_id)
    if committed.outcome != "ok":
        raise Refused(
            Code.STALE_VERSION,
            f"another decision was accepted first; the game is at version {committed.version}",
            committed.version,
        )
    metrics.GAMES_ENDED.labels(record.kind, outcome.reason).inc()
    await fold_finished(service.store, game_id, ended_record)
    viewer = seat if seat >= 0 else None
    return Applied(LoadedGame(game_id, ended_record, games()[record.kind], viewer))
