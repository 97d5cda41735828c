"""What a decision does to a game's record, for every path that commits one: a client's move
(service/core/moves/applying.py), a bot's turn (service/worker) and a turn clock's timeout (here,
applied lazily by a read or by the workers' sweep): whether this release may play the game at
all (playable), the new record and its history entries (advance), the timeout's step
(timeout_step, enforce_clock), and which bot seat is due."""

from __future__ import annotations

import hashlib
import time
from typing import Any

import msgspec

from service import metrics
from service.bots import Strategy
from service.bots import suggest as bot_suggest
from service.core.game import clocks
from service.core.game.folding import fold_finished
from service.core.game.loaded_game import acting
from service.core.players import lobby, seating
from service.engine import Game, Played
from service.engine import play as engine_play
from service.engine.play import Step, decode_state, encode_state
from service.engine.rng import seed_to_int
from service.games import game_for
from service.refusals import Code, Refused
from service.store import FORMAT, HistoryRecord, Record, RedisStore, UpgradeInProgress
from service.store.records import Outcome
from service.webhooks.events import of_commit as webhook_events

# Timeouts a read or a move applies at most before answering: a game far behind (every bank at
# 0 times out each decision at once) costs the request a bounded few bot decisions; the
# workers' sweep applies the rest, one per game per pass (service/worker).
LAZY_TIMEOUTS = 2


def playable(game_id: str, record: Record, game: Game[Any, Any]) -> None:
    """Refuse unless this release may apply its rules to `record` and write it back (every
    path that commits a decision asks first; docs/reliability.md, "Rolling upgrades"): a
    record in a newer format (a write would drop the fields this release does not know; the
    commit script checks it again, atomically) or created under newer rules of its kind is
    for a newer release (UpgradeInProgress, retryable); one created under rules this release
    no longer has is RULES_CHANGED: a game is played to its end by the rules it began with."""
    if record.format > FORMAT:
        metrics.NEWER_RELEASE.labels("format").inc()
        raise UpgradeInProgress(game_id, f"record format {record.format}, not {FORMAT}")
    if record.rules > game.rules_version:
        metrics.NEWER_RELEASE.labels("rules").inc()
        raise UpgradeInProgress(
            game_id, f"{record.kind} rules {record.rules}, not {game.rules_version}"
        )
    if record.rules < game.rules_version:
        metrics.RULES_CHANGED.labels(record.kind).inc()
        raise Refused(
            Code.RULES_CHANGED,
            f"this game was created under version {record.rules} of the rules of "
            f"{record.kind}, which this release no longer plays (version "
            f"{game.rules_version}): it can be read and abandoned, not played on",
            record.version,
        )


def bot_seed(game_seed: str, state: bytes) -> int:
    """The seed of a bot's decision in the position `state` (the record's encoded state, its
    RNG included): replays and retries agree, and so does the same position met again after a
    takeback, which therefore rerolls no bot's reply (takebacks/policy.py's fair rule)."""
    return seed_to_int(f"{game_seed}:bots:{hashlib.sha256(state).hexdigest()}")


def bot_due(game: Game[Any, Any], state: Any, bots: dict[int, str]) -> int | None:
    """The bot seat that owes a decision now, if any (the first one: one job at a time)."""
    if not bots or game.is_over(state):
        return None
    return next((seat for seat in game.to_act(state) if seat in bots), None)


def fingerprint(game_id: str, seat: int, move: object, expected_version: int | None) -> str:
    """What an idempotency key remembers of its request: the same key with another request
    is refused (Stripe's rule), so a key never silently stands for two different moves."""
    request = msgspec.json.encode([game_id, seat, move, expected_version], order="sorted")
    return hashlib.sha256(request).hexdigest()[:32]


def history_entries(first_version: int, steps: list[Step]) -> list[HistoryRecord]:
    return [
        HistoryRecord(first_version + i, s.seat, msgspec.to_builtins(s.move), s.label, s.forced)
        for i, s in enumerate(steps, start=1)
    ]


def advance(
    record: Record, game: Game[Any, Any], played: Played, now: float | None = None
) -> tuple[Record, list[HistoryRecord]]:
    """The record after `played` and its history entries, ready for one commit (the turn
    clock charged to the seat that decided, if it was on the clock; a pending takeback
    request lapses)."""
    now = time.time() if now is None else now
    new_record = msgspec.structs.replace(
        record,
        format=FORMAT,
        version=record.version + len(played.steps),
        finished=game.is_over(played.state),
        state=encode_state(played.state),
        updated=now,
        acting=acting(game, played.state),
        takeback=None,  # any decision ends a pending takeback request (core/takebacks/policy.py)
    )
    decided = played.steps[0].seat if played.steps else None
    return clocks.charged(record, new_record, decided, now), history_entries(
        record.version, played.steps
    )


def timeout_step(
    record: Record, game: Game[Any, Any], now: float
) -> tuple[Record, list[HistoryRecord]]:
    """What the clock does to the seat on it when its time is up: FORFEIT ends the game
    (outcome TIMEOUT); AUTO_RANDOM / AUTO_GREEDY play that bot's move for it (seeded by the
    game's seed and version, so whoever applies it applies the same). Entries say TIMEOUT."""
    seat, clock = clocks.on_the_clock(record), record.clock
    assert seat is not None and clock is not None
    state = decode_state(game, record.state)
    version = record.version + 1
    if clock.on_timeout == "FORFEIT":
        outcome = Outcome("TIMEOUT", seat, game.scores(state).best_of(seat))
        ended = msgspec.structs.replace(
            record,
            format=FORMAT,
            version=version,
            finished=True,
            updated=now,
            acting=[],
            outcome=outcome,
            deadline=None,
        )
        label = f"seat {seat} ran out of time"
        return ended, [HistoryRecord(version, seat, None, label, event="TIMEOUT")]
    strategy: Strategy = "RANDOM" if clock.on_timeout == "AUTO_RANDOM" else "GREEDY"
    move = bot_suggest(
        game, state, seat, strategy, seed=seed_to_int(f"{record.seed}:timeout:{record.version}")
    )
    new_record, history = advance(
        record, game, engine_play(game, state, seat, msgspec.to_builtins(move)), now
    )
    first = history[0]
    history[0] = msgspec.structs.replace(first, label=f"timeout: {first.label}", event="TIMEOUT")
    return new_record, history


async def enforce_clock(
    store: RedisStore, game_id: str, record: Record, now: float | None = None, *, limit: int
) -> Record | None:
    """The record once the timeouts due by `now` are applied, `limit` of them at most (each
    through the version-checked commit: a move or another sweeper that commits first wins, and
    this one reads again; that try counts too, so the cost stays bounded). The record may still
    be due: the next sweep or read goes on. None if the game is gone. Refused as `playable`
    refuses a game this release may not play."""
    for _ in range(limit):
        at = time.time() if now is None else now
        if not clocks.due(record, at):
            return record
        if seating.waiting(record):  # a waiting game's deadline is its time to fill with bots
            return await lobby.fill_with_bots(store, game_id, record, at)
        game = game_for(record.kind, record.rules)
        playable(game_id, record, game)
        new_record, history = timeout_step(record, game, at)
        new_state = decode_state(game, new_record.state)
        committed = await store.commit(
            game_id,
            record.version,
            new_record,
            history,
            None,
            bot_due=bot_due(game, new_state, record.bots) if not new_record.outcome else None,
            events=webhook_events(game_id, record, new_record, history),
        )
        if committed.outcome == "ok":
            metrics.CLOCK_TIMEOUTS.labels(record.kind, record.clock.on_timeout).inc()  # type: ignore[union-attr]
            if new_record.outcome is not None:
                metrics.GAMES_ENDED.labels(record.kind, "TIMEOUT").inc()
            if new_record.finished:
                await fold_finished(store, game_id, new_record)
            record = new_record
            continue
        reloaded, _ = await store.load(game_id)
        if reloaded is None:
            return None
        record = reloaded
    return record


def ended(record: Record) -> Refused:
    assert record.outcome is not None
    reason = record.outcome.reason.lower()
    return Refused(Code.GAME_OVER, f"the game is over ({reason})", record.version)
