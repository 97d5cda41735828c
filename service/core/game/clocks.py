"""Turn clocks: the create option, the deadline after each decision, and the
timeout's due time. The timeout itself is applied by `GameService` (lazily, on a read or a move that
comes after the deadline) and by the workers' sweep (service/worker), both through the same
version-checked commit, so exactly one of them (or a last-second move) wins.

The clock runs for the first seat of `toAct` (the seat "on the clock"; a pending decision of
another seat does not stop it) unless that seat is a bot. `perDecisionSeconds` gives each
decision that long; `perSeatTotalSeconds` gives each seat a bank of time for the whole game,
charged with the time between the decision becoming due and its commit; `incrementSeconds`
is added after each decision of the seat on the clock.

A takeback (`restored`) gives back no time spent. Under perSeatTotalSeconds the seats' banks of
the latest versions are kept (Record.banks, as of each version); under perDecisionSeconds what
the seat on the clock had left of each decision when the game moved on from it (Record.banks,
written by the commit that moved on), so a decision gone back to goes on from there.

Each clock has a floor (MIN_PER_DECISION, MIN_PER_SEAT_TOTAL): every timeout costs a commit
and, for AUTO clocks, a bot decision, so a clock of nanoseconds would let one tenant keep the
workers busy applying timeouts and delay every other tenant's clocks.
"""

from __future__ import annotations

from typing import Any

import msgspec

from service.engine import BadSetup
from service.store.records import Bank, Clock, Record

ON_TIMEOUT = ("AUTO_RANDOM", "AUTO_GREEDY", "FORFEIT")
MAX_SECONDS = 30 * 24 * 3600.0
MIN_PER_DECISION = 1.0  # seconds: the shortest perDecisionSeconds
MIN_PER_SEAT_TOTAL = 10.0  # seconds: the smallest perSeatTotalSeconds bank
# the banks of this many latest versions are kept in the record (Record.banks): a takeback
# further back than that leaves the banks as they are, or under perDecisionSeconds gives a whole
# decision less the turn in hand (`restored`)
BANKS_KEPT = 16


def _seconds(raw: dict[str, Any], name: str, default: float | None) -> float | None:
    value = raw.get(name, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise BadSetup(f"clock.{name} is a number of seconds")
    if not 0 <= value <= MAX_SECONDS:
        raise BadSetup(f"clock.{name} is 0 to {MAX_SECONDS:.0f} seconds")
    return float(value)


def parse_clock(raw: object) -> Clock | None:
    """The `clock` create option (JSON, camelCase) as a Clock; BadSetup when malformed."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise BadSetup("clock is an object")
    known = {"perDecisionSeconds", "perSeatTotalSeconds", "incrementSeconds", "onTimeout"}
    if set(raw) - known:
        raise BadSetup(f"clock has only {', '.join(sorted(known))}")
    per_decision = _seconds(raw, "perDecisionSeconds", None)
    per_seat_total = _seconds(raw, "perSeatTotalSeconds", None)
    if (per_decision is None) == (per_seat_total is None):
        raise BadSetup("clock needs exactly one of perDecisionSeconds and perSeatTotalSeconds")
    if per_decision is not None and per_decision < MIN_PER_DECISION:
        raise BadSetup(f"clock.perDecisionSeconds is at least {MIN_PER_DECISION:g} second")
    if per_seat_total is not None and per_seat_total < MIN_PER_SEAT_TOTAL:
        raise BadSetup(f"clock.perSeatTotalSeconds is at least {MIN_PER_SEAT_TOTAL:g} seconds")
    on_timeout = raw.get("onTimeout", "AUTO_RANDOM")
    if on_timeout not in ON_TIMEOUT:
        raise BadSetup(f"clock.onTimeout is one of {', '.join(ON_TIMEOUT)}")
    increment = _seconds(raw, "incrementSeconds", 0.0) or 0.0
    return Clock(per_decision, per_seat_total, increment, on_timeout)


def on_the_clock(record: Record) -> int | None:
    """The seat whose time runs now, if any."""
    if record.clock is None or record.finished or not record.acting:
        return None
    seat = record.acting[0]
    return None if seat in record.bots else seat


def started(record: Record) -> Record:
    """A new game's clock: each seat's bank, and the first deadline."""
    if record.clock is None:
        return record
    bank = record.clock.per_seat_total
    remaining = [bank] * record.players if bank is not None else []
    return _with_deadline(record, remaining, record.updated)


def charged(before: Record, after: Record, decided: int | None, now: float) -> Record:
    """`after` (the record a commit writes) with the clock moved on: the seat that was on the
    clock pays for its time if it decided (`decided`), gets the increment, and the next seat's
    deadline is set. Under perDecisionSeconds the time left of the decision moved on from is
    kept for a takeback back to it."""
    if after.clock is None:
        return after
    remaining = list(before.remaining)
    seat = on_the_clock(before)
    if seat is not None and seat == decided and remaining:
        remaining[seat] = max(remaining[seat] - (now - before.updated), 0.0)
        remaining[seat] += after.clock.increment
    per_decision = after.clock.per_decision
    if per_decision is not None and seat is not None and after.takebacks != "NONE":
        left = [per_decision] * before.players
        left[seat] = _left(before, now, per_decision)
        after = _kept(after, Bank(before.version, left))
    return _with_deadline(after, remaining, now)


def _left(record: Record, now: float, per_decision: float) -> float:
    """What the seat on the clock has left of its decision at `now` (perDecisionSeconds)."""
    return per_decision if record.deadline is None else max(record.deadline - now, 0.0)


def _kept(record: Record, bank: Bank) -> Record:
    return msgspec.structs.replace(record, banks=[*record.banks[-(BANKS_KEPT - 1) :], bank])


def _with_deadline(
    record: Record, remaining: list[float], now: float, left: float | None = None
) -> Record:
    """`record` with the deadline of the seat on the clock: its bank from `now`, or under
    perDecisionSeconds `left` (a whole decision's time when None)."""
    seat = on_the_clock(record)
    deadline = None
    if seat is not None and record.clock is not None:
        if record.clock.per_decision is not None:
            deadline = now + (record.clock.per_decision if left is None else left)
        else:
            deadline = now + remaining[seat]
    if remaining:  # perSeatTotal: remember the banks as of this version, for a takeback
        record = _kept(record, Bank(record.version, list(remaining)))
    return msgspec.structs.replace(record, remaining=remaining, deadline=deadline)


def restored(
    before: Record, after: Record, to_version: int, now: float, undone: dict[int, int]
) -> Record:
    """`after` (a takeback's record, back to the state of `to_version`) with the clock going on:
    time spent stays spent. The seat on the clock pays for the turn in hand, as a decision
    would; each seat gives back the increments of its `undone` decisions (seat -> how many);
    and no seat keeps more than it had at `to_version` (a version older than the banks kept:
    the banks as they are). The seat on the clock then has its bank from now. Under
    perDecisionSeconds, `_decision_restored`."""
    if after.clock is None:
        return after
    if after.clock.per_decision is not None:
        return _decision_restored(before, after, to_version, now, after.clock.per_decision)
    remaining = list(before.remaining)
    seat = on_the_clock(before)
    if seat is not None and remaining:
        remaining[seat] = max(remaining[seat] - (now - before.updated), 0.0)
    for decided, count in undone.items():
        if 0 <= decided < len(remaining):
            remaining[decided] = max(remaining[decided] - count * after.clock.increment, 0.0)
    then = [bank for bank in before.banks if bank.version <= to_version]
    if then and remaining:
        remaining = [
            min(left, was) for left, was in zip(remaining, then[-1].remaining, strict=True)
        ]
    return _with_deadline(after, remaining, now)


def _decision_restored(
    before: Record, after: Record, to_version: int, now: float, per_decision: float
) -> Record:
    """Under perDecisionSeconds a decision gone back to gets no fresh time: the seat on the
    clock there (the same seat as then: the state is the same) has what it had left of it when
    the game moved on from it, less what it used of the turn in hand if that was its turn too
    (a turn itself gone back to carries what was used before, so time used stays used however
    many decisions are taken back in a row). The time another seat was on the clock for is
    nobody's: that decision is gone. A version older than the banks kept: a whole decision's
    time, less the turn in hand as above."""
    seat = on_the_clock(after)
    if seat is None:
        return _with_deadline(after, [], now)
    then = [bank for bank in before.banks if bank.version == to_version]
    left = then[-1].remaining[seat] if then and seat < len(then[-1].remaining) else per_decision
    if on_the_clock(before) == seat:
        left -= per_decision - _left(before, now, per_decision)
    return _with_deadline(after, [], now, max(left, 0.0))


def due(record: Record, now: float) -> bool:
    """The seat on the clock has run out of time."""
    return record.deadline is not None and not record.finished and now >= record.deadline


def clock_json(record: Record) -> dict[str, Any] | None:
    """The clock as the API shows it (every viewer: clients draw it)."""
    clock = record.clock
    if clock is None:
        return None
    return {
        "perDecisionSeconds": clock.per_decision,
        "perSeatTotalSeconds": clock.per_seat_total,
        "incrementSeconds": clock.increment,
        "onTimeout": clock.on_timeout,
        "seat": on_the_clock(record),
        "deadline": record.deadline,
        "remainingSeconds": record.remaining or None,
    }
