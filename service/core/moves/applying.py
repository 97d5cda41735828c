"""applyMove's decision, once the game is open and the seat known (moves/opening.py): the
idempotency key, the expected version, an ending, whether this release may play the game,
then the engine and one version-checked commit. A key used already answers the game as of the
version its move made (`replayed`, which the takeback steps share)."""

from __future__ import annotations

from typing import Any

import msgspec

from service import metrics
from service.core.game.folding import fold_finished
from service.core.game.loaded_game import Applied, LoadedGame
from service.core.game.past_versions import PastVersions
from service.core.moves.decisions import advance, bot_due, ended, fingerprint, playable
from service.core.moves.opening import Opened, not_found
from service.engine import Game, IllegalMove, casing
from service.engine import play as engine_play
from service.engine.play import decode_state
from service.games import game_for
from service.refusals import Code, Refused
from service.store import Done, Record, RedisStore
from service.webhooks.events import of_commit as webhook_events


def refused(exc: IllegalMove, version: int) -> Refused:
    return Refused(exc.code, exc.message, version, exc.reason, exc.rule, exc.localized)


def stale(version: int, expected: int) -> Refused:
    return Refused(Code.STALE_VERSION, f"the game is at version {version}, not {expected}", version)


async def decide(
    store: RedisStore,
    past_versions: PastVersions,
    game_id: str,
    opened: Opened,
    move: object,
    expected_version: int | None,
    idempotency_key: str | None,
) -> Applied | None:
    """The move played on the opened record and committed; None when another request with
    the same idempotency key won the race or, without an expected version, another move did
    (the caller opens the game again)."""
    record, done, seat, by = opened
    game = game_for(record.kind, record.rules)
    if idempotency_key is not None:  # "GREEN" and "green" are one move (engine/casing.py)
        move = casing.json_move(game.move_type, move)
    asked = fingerprint(game_id, seat, move, expected_version)
    if done is not None:
        return await replayed(store, past_versions, game_id, record, game, seat, done, asked)
    if expected_version is not None and expected_version != record.version:
        raise stale(record.version, expected_version)
    if record.outcome is not None:
        raise ended(record)
    playable(game_id, record, game)
    state = decode_state(game, record.state)
    try:
        played = engine_play(game, state, seat, move, copy=False)
    except IllegalMove as exc:
        raise refused(exc, record.version) from None
    new_record, history = advance(record, game, played)
    if by:  # the decision's entry; the forced steps after it are nobody's
        history[0] = msgspec.structs.replace(history[0], acted_by=by)
    field_key = None if idempotency_key is None else f"{seat}:{idempotency_key}"
    committed = await store.commit(
        game_id,
        record.version,
        new_record,
        history,
        field_key,
        asked,
        bot_due=bot_due(game, played.state, record.bots),
        events=webhook_events(game_id, record, new_record, history),
    )
    if committed.outcome == "ok":
        if new_record.finished:
            await fold_finished(store, game_id, new_record)
        moves = played.options.get(seat)
        return Applied(LoadedGame(game_id, new_record, game, seat, played.state, moves))
    if committed.outcome == "gone":
        raise not_found(game_id)
    if committed.outcome == "dup":
        return None  # another request with this key won the race; load its result
    metrics.VERSION_CONFLICTS.labels(record.kind).inc()
    if expected_version is not None:
        raise Refused(
            Code.STALE_VERSION,
            f"another move was accepted first; the game is at version {committed.version}",
            committed.version,
        )
    return None


async def replayed(
    store: RedisStore,
    past_versions: PastVersions,
    game_id: str,
    record: Record,
    game: Game[Any, Any],
    seat: int,
    done: Done,
    asked: str,
) -> Applied:
    """The first answer to a key already used: the game as of the version its move made.
    Entries of earlier releases have no fingerprint and records of earlier releases no
    options: those answer the game as it is now, as those releases did; so do games created
    under other rules than this release's (no replay by other rules). With
    RULES_REPLICA_ACK it too waits for the replicas (the first try may have answered
    UNAVAILABLE because they had not confirmed the move), and only while the game's master
    still holds the entry as it was read (a failover may have replaced the master it was read
    from with a replica that never got the move)."""
    if done.fingerprint is not None and done.fingerprint != asked:
        raise Refused(
            Code.IDEMPOTENCY_KEY_REUSED,
            "this idempotencyKey was used with a different request; use a new key",
            record.version,
        )
    await store.confirm_replicated(game_id, record.version, record.status(), done)
    loaded = LoadedGame(game_id, record, game, seat)
    if (
        done.fingerprint is None
        or record.options is None
        or record.rules != game.rules_version
        or done.version == record.version
    ):
        return Applied(loaded, replayed=True)
    return Applied(await past_versions.then(loaded, done.version), True)
