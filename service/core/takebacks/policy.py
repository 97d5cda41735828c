"""Takebacks under a fair policy (docs/architecture.md "The path of a takeback"): the
policy, what a takeback would undo and whether a seat may take it back alone. The steps of a
takeback, each a commit, are steps.py; game records judge theirs with this module too
(records/replay.py).

A game's `takebacks` create option (Record.takebacks) is NONE, OWN_DECISIONS or WITH_CONSENT.
A seat asks to take back its own last decision: the game goes back to the version just before
it, as a NEW version whose state equals that one (versions only grow, so subscribers and
webhooks see it like any other change). Asking again goes one more decision back.

Alone, a seat may take back only while, since that version, nothing hidden was revealed to
anyone and nothing random happened (each game's `takeback_safe` hook, written from its
rulebook, checked commit by commit) and no other seat decided (a forced step, RULINGS ALL-3, is
no decision; a timeout's move is the service's, not the seat's). Beyond that:

- OWN_DECISIONS refuses, TAKEBACK_NOT_ALLOWED;
- WITH_CONSENT records a request (Record.takeback, a version of its own with an ASKED entry)
  that every other human seat must accept (answerTakeback); bot seats accept at once. It lapses
  after RULES_TAKEBACK_SECONDS (GameService.takeback_seconds) or when anyone decides
  (decisions.advance clears it): a request is about the game as it was asked, so any change
  voids it. A decline ends it.

The fair rule, for every kind: a takeback must give no seat a second look at chance. Past a
reveal or a random event, the restored state (its RNG included) would deal the same cards
again, so a seat could peek, take back and decide otherwise. No seat may do that alone, and
bots agree to no such takeback (`bots_decline`): with a bot at the table it is refused, and
only human seats, who saw what was revealed too, can agree to it. A bot's reply is a function
of the game's seed and the position (decisions.bot_seed), so taking back a decision and making
it again meets the same reply: a takeback rerolls nothing either.

A takeback never shows anyone a state they could not see: its state is one they saw at that
version, and the hook refuses going alone past anything revealed (ALL-4).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

import msgspec

from service.engine import Game, IllegalMove
from service.engine import play as engine_play
from service.refusals import Code, Refused
from service.store import HistoryRecord, Record
from service.store.records import MAX_STEPS, TakebackNote, TakebackRequest

POLICIES = ("NONE", "OWN_DECISIONS", "WITH_CONSENT")
EVENT = "TAKEBACK"  # the `event` of every takeback entry: no move of the game's (replays skip it)
ASKED, ACCEPTED, DECLINED, TAKEN = "ASKED", "ACCEPTED", "DECLINED", "TAKEN"
STEPS = (ASKED, ACCEPTED, DECLINED, TAKEN)  # TakebackNote.step


def parse_policy(raw: object) -> str:
    """The `takebacks` create option; BAD_INPUT names the values."""
    if raw is None:
        return "NONE"
    if raw not in POLICIES:
        raise Refused(Code.BAD_INPUT, f"takebacks is one of {', '.join(POLICIES)}")
    return str(raw)


def pending(record: Record, now: float) -> TakebackRequest | None:
    """The request waiting for answers now, if any: none once it lapsed (its time ran out, or
    a later version than its last step exists: someone decided) or the game is over."""
    request = record.takeback
    if request is None or record.finished or record.outcome is not None:
        return None
    if request.asked != record.version or now >= request.expires:
        return None
    return request


def waiting_for(record: Record, request: TakebackRequest) -> list[int]:
    """The human seats whose answer the request still needs."""
    return [
        seat
        for seat in range(record.players)
        if seat != request.seat and seat not in record.bots and seat not in request.accepted
    ]


def live(entries: list[HistoryRecord]) -> list[HistoryRecord]:
    """The entries whose steps the game's state is made of now: every TAKEN takeback drops
    the entries after the version it went back to; takeback entries themselves change
    nothing (their state is one of a version before)."""
    line: list[HistoryRecord] = []
    for entry in entries:
        note = entry.takeback
        if note is None:
            line.append(entry)
        elif note.step == TAKEN:
            line = [e for e in line if e.version <= note.to_version]
    return line


def own_decision(entry: HistoryRecord) -> bool:
    """A decision of its seat (its token or its tenant for it): not forced, not the service's
    (a timeout's move), no takeback step."""
    return not entry.forced and not entry.event and entry.move is not None


def _own(entry: HistoryRecord, seat: int) -> bool:
    return entry.seat == seat and own_decision(entry)


class Plan(msgspec.Struct, frozen=True):
    """A takeback of `seat`'s last decision: the version whose state it restores, the
    decisions it undoes (in order, each with the forced steps after it) and whether another
    seat (or the service, on a timeout) decided since."""

    seat: int
    to_version: int
    undone: list[HistoryRecord]
    others_decided: bool


def plan(entries: list[HistoryRecord], seat: int) -> Plan:
    line = live(entries)
    own = [e for e in line if _own(e, seat)]
    if not own:
        raise Refused(
            Code.TAKEBACK_NOT_ALLOWED,
            f"seat {seat} has no decision to take back",
            entries[-1].version if entries else None,
        )
    to_version = own[-1].version - 1
    undone = [e for e in line if e.version > to_version]
    others = any(not e.forced and not _own(e, seat) for e in undone)
    return Plan(seat, to_version, undone, others)


def unsafe_step(game: Game[Any, Any], state: Any, undone: list[HistoryRecord]) -> int | None:
    """The version of the first undone commit that revealed something hidden or drew on
    chance (`takeback_safe` of the states before and after it), None if none did. `state` is
    the state at the takeback's version; the undone decisions are played again from it."""
    for entry in undone:
        if entry.forced:
            continue  # played with the decision before it, in its commit
        try:
            played = engine_play(game, state, entry.seat, entry.move)
        except IllegalMove:
            return entry.version  # cannot be replayed: not provably safe
        if not game.takeback_safe(state, played.state):
            return entry.version
        state = played.state
    return None


def not_alone(game: Game[Any, Any], state: Any, chosen: Plan) -> str | None:
    """Why the seat may not take `chosen` back alone (None: it may): `state` is the state at
    its version. Game records judge their takeback steps with it too (records/replay.py)."""
    if chosen.others_decided:
        return "another seat decided since"
    unsafe = unsafe_step(game, state, chosen.undone)
    if unsafe is not None:
        return f"version {unsafe} revealed hidden information or drew on chance"
    return None


def bots_decline(game: Game[Any, Any], state: Any, chosen: Plan, bots: Iterable[int]) -> str | None:
    """Why the game's other bot seats decline `chosen` (None: they agree, or there are none):
    a bot agrees to no takeback past a reveal or a random event (the fair rule above).
    `state` is the state at its version."""
    if not set(bots) - {chosen.seat}:
        return None
    unsafe = unsafe_step(game, state, chosen.undone)
    if unsafe is None:
        return None
    return (
        f"version {unsafe} revealed hidden information or drew on chance, and bots agree to "
        "no takeback past that"
    )


# No game of any kind runs longer than this many steps from any position (random play peaks
# near 610, a 4-seat Treetopia: tests/core/test_takebacks.py measures every kind)
LONGEST_GAME = 1000


def room_for(record: Record) -> bool:
    """Whether a takeback leaves room for the game to end within MAX_STEPS versions, its
    request's answers and the longest game from there included: so every record the service
    exports is one it verifies (records/format.py), however often a seat takes back."""
    return record.version + record.players + 1 + LONGEST_GAME <= MAX_STEPS


def takes_at_once(policy: str, players: int, bots: Iterable[int], seat: int) -> bool:
    """Whether a takeback that needs consent is taken at once: WITH_CONSENT and no other
    human seat to ask (bots accept)."""
    humans = [s for s in range(players) if s != seat and s not in set(bots)]
    return policy == "WITH_CONSENT" and not humans


def request_json(record: Record, now: float | None = None) -> dict[str, Any] | None:
    """The pending request as both APIs show it (public: who asked, back to which version,
    who agreed, who must still answer, when it lapses)."""
    request = pending(record, time.time() if now is None else now)
    if request is None:
        return None
    return {
        "seat": request.seat,
        "toVersion": request.to_version,
        "acceptedBy": request.accepted,
        "waitingFor": waiting_for(record, request),
        "expires": request.expires,
    }


def note_json(note: TakebackNote | None) -> dict[str, Any] | None:
    """A history entry's takeback, as both APIs show it."""
    if note is None:
        return None
    return {
        "step": note.step,
        "toVersion": note.to_version,
        "askedBy": note.asked_by,
        "agreedBy": note.agreed_by,
    }
