"""The chaos run's independent audit, Jepsen style: it reads Redis directly (not
through the service) and replays every game with the engine, reusing the audit of
tests/reliability/players.py, and checks what the clients were told against it:

- every acknowledged move is in its game's history exactly once, at the acknowledged version
  (`lost`: acknowledged but missing; anything else wrong is a `problem`);
- every `MoveApplied` answer, first or replayed, of every client names the version at which
  its move's commit ends in the stored history (tests/reliability/players.py `check_answers`:
  the move sent, by its seat, at expectedVersion + 1, then only forced steps), and the entries
  a solo client read in its answer are the stored ones;
- no game is lost or rolled back (its version is never below one a client was told);
- every subscriber socket saw a gap-free run of versions, and across reconnects too when
  gameEvents resumes (`afterVersion`);
- every webhook event of the stored games (game.finished, game.timeout) arrived at least once;
- every clock fired: each clock game ended on time (TIMEOUT);
- no 5xx answer (nor GraphQL UNAVAILABLE) other than a typed UNAVAILABLE inside a fault window
  (one in the AFTERMATH after a fault is reported apart);
- latency p50/p99 of the requests clear of the fault windows and of those overlapping one.
"""

from __future__ import annotations

import itertools
import statistics
from dataclasses import dataclass, field
from typing import Any

import msgspec
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from loadtests.chaos_traffic import RESUMES, Traffic, acknowledged
from service.store.records import HistoryRecord, Record
from tests.reliability.players import (
    APPLIED,
    REPLAYED,
    Audit,
    _check_game,
    _check_intent,
    _folded,
    _plain,
    _record_key,
    check_answers,
    replay,
)

AFTERMATH = 30.0  # seconds after a fault in which a typed UNAVAILABLE is reported, not failed


@dataclass
class Window:
    """A fault, from its first signal until everything is back (ready, promoted, rejoined)."""

    name: str
    started: float
    ended: float = 0.0


@dataclass
class Loaded:
    record: Record
    history: list[HistoryRecord]
    idem: dict[str, int]


async def load(redis: Redis | RedisCluster, game_id: str) -> Loaded | None:
    key = _record_key(game_id)
    raw = await redis.hget(key, "r")  # type: ignore[misc]
    if raw is None:
        return None
    record = msgspec.msgpack.decode(raw, type=Record)
    history = [
        msgspec.msgpack.decode(item, type=HistoryRecord)
        for item in await redis.lrange(key + ":h", 0, -1)  # type: ignore[misc]
    ] or await _folded(redis, game_id, record)
    idem = {
        k.decode(): int(v)
        for k, v in (await redis.hgetall(key + ":i")).items()  # type: ignore[misc]
        if not k.startswith(b"f:")
    }
    return Loaded(record, history, idem)


def _inside(started: float, ended: float, windows: list[Window]) -> bool:
    """Whether a request overlapped a fault (one in flight when it began counts)."""
    return any(w.started <= ended and started <= (w.ended or float("inf")) for w in windows)


def _percentiles(seconds: list[float]) -> dict[str, float]:
    if len(seconds) < 2:
        return {"count": len(seconds), "p50_ms": 0.0, "p99_ms": 0.0}
    cuts = statistics.quantiles(seconds, n=100)
    return {"count": len(seconds), "p50_ms": round(cuts[49] * 1000, 1),
            "p99_ms": round(cuts[98] * 1000, 1)}  # fmt: skip


@dataclass
class Report:
    figures: dict[str, Any] = field(default_factory=dict)
    lost: list[str] = field(default_factory=list)  # acknowledged moves missing from Redis
    problems: list[str] = field(default_factory=list)  # everything else that must not happen
    late: list[str] = field(default_factory=list)  # typed UNAVAILABLE just after a fault
    tracebacks: list[str] = field(default_factory=list)  # what the processes logged (chaos.py)

    @property
    def passed(self) -> bool:
        return not self.problems and not self.lost


async def audit(
    redis: Redis | RedisCluster, traffic: Traffic, windows: list[Window], replica_ack: bool
) -> Report:
    report = Report()
    start = min((r.started for r in traffic.players.record.requests), default=0.0)
    intents = traffic.players.record.intents
    told: dict[str, int] = {}  # game id -> the highest version a client was told was applied
    for intent in acknowledged(intents):
        for attempt in intent.attempts:
            if attempt.outcome in (APPLIED, REPLAYED) and attempt.version is not None:
                told[intent.game_id] = max(told.get(intent.game_id, 0), attempt.version)

    # Human games: the full audit of tests/reliability (every commit under one known key).
    result = Audit()
    by_key = {intent.key: intent for intent in intents}
    games: dict[str, Loaded] = {}
    every = [*traffic.human, *traffic.solo, *(f.game for f in traffic.followed), *traffic.clocked]
    for game in every:
        loaded = await load(redis, game.id)
        if loaded is None:
            report.problems.append(f"{game.id}: the game is gone")
            continue
        games[game.id] = loaded
        if loaded.record.version < told.get(game.id, 0):
            report.problems.append(
                f"{game.id}: rolled back to v{loaded.record.version} below v{told[game.id]}"
            )
    for game in [*traffic.human, *traffic.solo]:
        if game.id in games:
            g = games[game.id]
            _check_game(result, game, g.record, g.history, g.idem, by_key)
    # Bot and clock games: the replay (bot and timeout commits carry no key).
    for game in [*(f.game for f in traffic.followed), *traffic.clocked]:
        if game.id in games:
            g = games[game.id]
            ends = replay(result.problems, game.id, g.record, g.history)
            if ends is not None:
                result.commits += len(ends)
    for intent in intents:
        if intent.game_id in games:
            _check_intent(result, intent, games[intent.game_id].idem)
            check_answers(result, intent, games[intent.game_id].history)
    # What a solo client read in its answer (strawberry's document): the stored entries.
    for answer in traffic.solo_answers:
        stored = games.get(answer.intent.game_id)
        if stored is None:
            continue
        for entry in answer.entries:
            at = entry["version"]
            held = stored.history[at - 1] if 1 <= at <= len(stored.history) else None
            if held is None or (held.seat, _plain(held.move), held.forced) != (
                entry["seat"], entry["move"], entry["forced"]
            ):  # fmt: skip
                result.problems.append(
                    f"{answer.intent.key}: its answer read v{at} as {entry}, stored "
                    f"{None if held is None else (held.seat, _plain(held.move), held.forced)}"
                )
    report.lost = [p for p in result.problems if p.endswith("acknowledged but not in the history")]
    lost_keys = {p.partition(":")[0] for p in report.lost}
    report.problems += [  # a lost move's "told vN, stored otherwise" is the same loss
        p for p in result.problems if p not in report.lost and p.partition(":")[0] not in lost_keys
    ]

    # Clocks: each clock game timed out (FORFEIT: it ended with a TIMEOUT).
    clocks_fired = 0
    for game in traffic.clocked:
        outcome = games[game.id].record.outcome if game.id in games else None
        if outcome is not None and outcome.reason == "TIMEOUT":
            clocks_fired += 1
        elif game.id in games:
            report.problems.append(f"{game.id}: its clock did not fire")

    # Webhooks: the events of the stored games, each at least once.
    expected = set()
    for game_id, g in games.items():
        for entry in g.history:
            if entry.event == "TIMEOUT":
                expected.add(f"msg_{game_id}.{entry.version}.game.timeout")
        if g.record.status() == "FINISHED":
            expected.add(f"msg_{game_id}.{g.record.version}.game.finished")
    received = traffic.receiver.ids if traffic.receiver else set()
    missing = sorted(expected - received)
    report.problems += [f"webhook {m} never arrived" for m in missing]

    # Subscribers: versions one by one on each socket, and across sockets when resumed.
    gaps = resumed_gaps = 0
    for followed in traffic.followed:
        for seen in followed.sockets:
            gaps += sum(1 for a, b in itertools.pairwise(seen) if b != a + 1)
        every_version = [v for seen in followed.sockets for v in seen]
        resumed_gaps += sum(1 for a, b in itertools.pairwise(every_version) if b != a + 1)
    if gaps:
        report.problems.append(f"{gaps} gaps in the versions a subscriber socket saw")
    if RESUMES and resumed_gaps:
        report.problems.append(f"{resumed_gaps} gaps across resumed subscriptions")

    # Server errors (5xx, or a GraphQL UNAVAILABLE): only a typed UNAVAILABLE, only in a fault.
    # One in a fault's aftermath (the first write of a process to a slot that moved, up to
    # AFTERMATH seconds after the cluster is whole again) is reported apart, not failed.
    aftermath = [(w.ended, w.ended + AFTERMATH) for w in windows if w.ended]
    late, untyped = [], []
    for e in traffic.players.errors:
        if e.code == "UNAVAILABLE" and _inside(e.at, e.ended, windows):
            continue
        typed_late = e.code == "UNAVAILABLE" and any(a <= e.at <= b for a, b in aftermath)
        (late if typed_late else untyped).append(e)
    report.late = [f"UNAVAILABLE at {e.at - start:.1f}-{e.ended - start:.1f} s" for e in late]
    report.problems += [
        f"HTTP {e.status} {e.code or '(untyped)'} at {e.at - start:.1f}-{e.ended - start:.1f} s: "
        f"{e.body!r}"
        for e in untyped
    ]

    requests = traffic.players.record.requests
    inside = [r.seconds for r in requests if _inside(r.started, r.started + r.seconds, windows)]
    outside = [
        r.seconds for r in requests if not _inside(r.started, r.started + r.seconds, windows)
    ]
    acked = acknowledged(intents)
    solo_ids = {game.id for game in traffic.solo}
    report.figures = {
        "replica_ack": replica_ack,
        "games": len(games),
        "human_games": len(traffic.human),
        "solo_games": len(traffic.solo),
        "answers_checked": result.answers,
        "answers_replayed": sum(1 for i in intents for a in i.attempts if a.outcome == REPLAYED),
        "solo_moves_acknowledged": sum(1 for i in acked if i.game_id in solo_ids),
        "solo_answers_with_entries": len(traffic.solo_answers),
        "bot_games": len(traffic.followed),
        "clock_games": len(traffic.clocked),
        "commits": result.commits,
        "requests": len(requests),
        "moves_sent": len(intents),
        "moves_acknowledged": len(acked),
        "acknowledged_lost": len(report.lost),
        "unknown_outcome_applied": result.applied_unknown,
        "clocks_fired": clocks_fired,
        "webhooks_expected": len(expected),
        "webhooks_missing": len(missing),
        "webhook_deliveries": traffic.receiver.deliveries if traffic.receiver else 0,
        "subscriber_sockets": sum(len(f.sockets) for f in traffic.followed),
        "subscriber_reconnects": sum(f.reconnects for f in traffic.followed),
        "subscriber_gaps": gaps,
        "gaps_across_reconnects": resumed_gaps,
        "resumes_after_version": RESUMES,
        "server_errors": len(traffic.players.errors),  # HTTP 5xx or UNAVAILABLE-like
        "server_errors_untyped_or_outside_faults": len(untyped),
        "unavailable_just_after_faults": len(late),
        "unavailable_answers": sum(1 for r in requests if r.outcome == "UNAVAILABLE"),
        "latency_outside_faults": _percentiles(outside),
        "latency_inside_faults": _percentiles(inside),
        "faults": [
            {
                "name": w.name,
                "at": round(w.started - start, 1),
                "seconds": round(w.ended - w.started, 1),
            }
            for w in windows
        ],
        "problems": len(report.problems),
    }
    return report
