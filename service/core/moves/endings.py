"""Endings that are no move of the game's rules: a seat resigns (RESIGNED, the best of the
other seats win), the game's tenant abandons it (ABANDONED, no winners). Each is one version
more: a history entry labelled with the outcome's reason, its webhook events and its metric,
in one version-checked commit. A turn clock's timeout is a move: decisions.enforce_clock."""

from __future__ import annotations

import time

import msgspec

from service import metrics
from service.core.access.callers import Caller
from service.core.access.keys import KeyNeeded
from service.core.access.players import is_player_id
from service.core.game.folding import fold_finished
from service.core.game.loaded_game import Applied, LoadedGame
from service.core.moves.applying import stale
from service.core.moves.decisions import playable
from service.core.moves.opening import not_found, open_for_decision
from service.core.players import lobby, seating
from service.engine.play import decode_state
from service.games import game_for
from service.refusals import Code, Refused
from service.store import FORMAT, HistoryRecord, Record, RedisStore
from service.store.records import Outcome
from service.webhooks.events import of_commit as webhook_events

ABANDON_NEEDS_KEY = "abandoning needs the game's API key"


async def resign(
    store: RedisStore,
    tenants_may_act: bool,
    game_id: str,
    caller: Caller,
    expected_version: int | None,
) -> Applied:
    """The caller's seat gives up: the game is over, the best of the other seats win."""
    record, _, seat, by = await open_for_decision(store, game_id, caller, None, tenants_may_act)
    if expected_version is not None and expected_version != record.version:
        raise stale(record.version, expected_version)
    game = game_for(record.kind, record.rules)
    playable(game_id, record, game)
    winners = game.scores(decode_state(game, record.state)).best_of(seat)
    outcome = Outcome("RESIGNED", seat, winners)
    return await end(store, game_id, record, outcome, seat, f"seat {seat} resigned", by)


async def abandon(store: RedisStore, game_id: str, tenant: str | None) -> Applied:
    """The game's tenant calls it off: ABANDONED, no winners. Another tenant's key is
    told there is no such game (it may not learn which games exist)."""
    if tenant is None:
        raise KeyNeeded(ABANDON_NEEDS_KEY)
    record, _ = await store.load(game_id)
    if record is None or record.tenant != tenant:
        raise not_found(game_id)
    digest = ""
    if seating.waiting(record):  # a join makes no version: the seats are compared too
        stored = await lobby.load(store, game_id)
        if stored is None:
            raise not_found(game_id)
        record, digest = stored.record, stored.digest
    outcome = Outcome("ABANDONED", None, [])
    return await end(store, game_id, record, outcome, -1, "abandoned by its tenant", "", digest)


async def end(
    store: RedisStore,
    game_id: str,
    record: Record,
    outcome: Outcome,
    seat: int,
    label: str,
    by: str = "",
    record_digest: str = "",
) -> Applied:
    """One version more that ends the game without a move of its rules: a history entry
    labelled `outcome.reason`, the event, the metric, all in one version-checked commit (and,
    with `record_digest`, checked on the stored record's bytes: store.commit)."""
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
        # a waiting rematch abandoned: its seat-holder marks are no player ids to archive
        player_ids=[p if is_player_id(p) else None for p in record.player_ids],
    )
    entry = HistoryRecord(version, seat, None, label, event=outcome.reason, acted_by=by)
    events = webhook_events(game_id, record, ended_record, [entry])
    committed = await store.commit(
        game_id,
        record.version,
        ended_record,
        [entry],
        None,
        events=events,
        record_digest=record_digest,
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
    await fold_finished(store, game_id, ended_record)
    viewer = seat if seat >= 0 else None
    return Applied(LoadedGame(game_id, ended_record, game_for(record.kind, record.rules), viewer))
