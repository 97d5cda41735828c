"""The webhook events a commit produces (docs/webhooks.md): computed from the record
before and after the commit and its history entries, written to the tenant's outbox by the same
commit script (service/store/redis_store.py), so an accepted change never loses its events and a
refused one never emits any.

Events carry public information only (RULINGS ALL-4): seats, player ids (the tenant's own), the
version, and at the end the scores every spectator sees.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import msgspec

from service.engine.play import decode_state
from service.engine.texts import COMMON, Message
from service.games import game_for
from service.store.records import HistoryRecord, Record
from service.webhooks.model import TEST_EVENT, Event, timestamp

_EVENT_OF_ENTRY = {
    "RESIGNED": "game.resigned",
    "ABANDONED": "game.abandoned",
    "TIMEOUT": "game.timeout",
}


class SummaryParam(msgspec.Struct, rename="camel"):
    name: str
    type: str  # INT, TEXT or LIST (docs/translating.md)
    value: str


class Summary(msgspec.Struct, rename="camel"):
    """What happened, as a message of the shared catalog: its id and params for a
    receiver to say in its user's language, and the English text."""

    id: str
    params: list[SummaryParam]
    text: str


def _summary(message: Message) -> Summary:
    params = [SummaryParam(p.name, p.type, p.value) for p in message.params]
    return Summary(message.id, params, COMMON.render(message))


class Seat(msgspec.Struct, rename="camel"):
    seat: int
    player_id: str | None  # the tenant's own id of the player (createGame playerIds)


class SeatScore(Seat):
    points: int


class TurnStarted(msgspec.Struct, rename="camel"):
    """turn.started: seats that must decide now and did not have to before this version (a
    seat that keeps deciding, several decisions in a row, gets one event; bot seats none)."""

    game_id: str
    kind: str
    version: int
    seats: list[Seat]
    to_act: list[int]  # every seat that must decide now, bots included
    deadline: str | None  # when the seat on the turn clock times out (ISO 8601), if any
    summary: Summary | None = None  # "seat 1 to act (version 4)"


class SeatHappening(msgspec.Struct, rename="camel"):
    """game.resigned, game.timeout (that seat), game.abandoned (seat null: its tenant)."""

    game_id: str
    kind: str
    version: int  # the version the resignation, timeout or abandon made
    seat: int | None
    player_id: str | None
    summary: Summary | None = None  # "seat 1 resigned"
    reason: str | None = None  # game.abandoned's only: ABANDON_REASONS


class Takeback(msgspec.Struct, rename="camel"):
    """game.takeback: the game went back to the state of `toVersion` as the new `version`
    (service/core/takebacks/policy.py): `seat` asked, `agreedBy` accepted (bots included; empty
    when the seat could take back alone)."""

    game_id: str
    kind: str
    version: int
    seat: int
    player_id: str | None
    to_version: int
    agreed_by: list[int]


class GameFinished(msgspec.Struct, rename="camel"):
    """game.finished: the end by the rules or by a resignation or forfeit on time (an
    abandoned game has game.abandoned only). Points as every spectator sees them."""

    game_id: str
    kind: str
    version: int
    reason: Literal["RULES", "RESIGNED", "TIMEOUT"]
    winners: list[int]
    scores: list[SeatScore]
    summary: Summary | None = None  # "the game is over; winners: 0"


class MatchFound(msgspec.Struct, rename="camel"):
    """match.found: matchmaking put these players in a new game (service/core/lobby), sent
    with the game's creation. Seat tokens are not in it: the tenant reads them with
    `matchmaking(playerId)` or reissues them."""

    game_id: str
    kind: str
    seats: list[Seat]


class ChallengeReceived(msgspec.Struct, rename="camel"):
    """challenge.received: a player challenged others by player id (docs/api.md, "Rematch and
    challenges"), sent with the game's creation; each challenged player accepts with joinGame
    before `expiresAt`, or declines (declineChallenge)."""

    game_id: str
    kind: str
    challenger: Seat
    challenged: list[Seat]
    expires_at: str
    summary: Summary


def challenge_received(
    game_id: str, record: Record, challenger: int, challenged: list[int], expires: float
) -> Event:
    said = _summary(
        COMMON.say("webhook.challengeReceived", challenger=record.player_ids[challenger] or "")
    )
    data = ChallengeReceived(
        game_id, record.kind, _seat(record, challenger), [_seat(record, s) for s in challenged],
        timestamp(expires), said,
    )  # fmt: skip
    return Event(type="challenge.received", timestamp=timestamp(record.created), data=data)


class WebhookTest(msgspec.Struct, rename="camel"):
    """webhook.test: sent by sendTestWebhookEvent to that endpoint only (never listed in
    webhookEvents); its webhook-id starts with `msg_test_`."""

    endpoint_id: str


PAYLOADS: dict[str, type[msgspec.Struct]] = {
    "turn.started": TurnStarted,
    "game.finished": GameFinished,
    "game.timeout": SeatHappening,
    "game.resigned": SeatHappening,
    "game.abandoned": SeatHappening,
    "game.takeback": Takeback,
    "match.found": MatchFound,
    "challenge.received": ChallengeReceived,
    TEST_EVENT: WebhookTest,
}


_SAID: dict[str, Callable[[int | None], Summary]] = {
    "game.resigned": lambda seat: _summary(COMMON.say("webhook.resigned", seat=seat)),
    "game.timeout": lambda seat: _summary(COMMON.say("webhook.timeout", seat=seat)),
}

# Why a game was abandoned (game.abandoned's `reason`) and its summary's catalog key: the
# tenant's abandonGame, or a waiting challenge or rematch that lapsed or a seat declined.
ABANDON_REASONS = {
    "TENANT": "webhook.abandoned",
    "CHALLENGE_LAPSED": "webhook.challengeLapsed",
    "CHALLENGE_DECLINED": "webhook.challengeDeclined",
    "REMATCH_LAPSED": "webhook.rematchLapsed",
    "REMATCH_DECLINED": "webhook.rematchDeclined",
}


def _seat(record: Record, seat: int) -> Seat:
    ids = record.player_ids
    return Seat(seat, ids[seat] if 0 <= seat < len(ids) else None)


def of_commit(
    game_id: str,
    before: Record | None,
    after: Record,
    history: list[HistoryRecord],
    abandoned: str = "TENANT",
    declined_by: int = -1,
) -> list[Event]:
    """The events of one commit, in the order a receiver should see them: what happened
    (timeout, resignation, abandon, takeback), then the end or whose turn it is now; an
    abandon says why (`abandoned`, of ABANDON_REASONS) and, declined, by which seat
    (`declined_by`).
    Nothing for games without a tenant (earlier releases)."""
    if not after.tenant:
        return []
    events: list[tuple[str, msgspec.Struct]] = []
    for entry in history:
        kind = _EVENT_OF_ENTRY.get(entry.event)
        if kind is not None:
            seat = entry.seat if entry.seat >= 0 else None  # -1: the tenant's abandon
            if kind == "game.abandoned" and declined_by >= 0:
                seat = declined_by  # the seat that declined a challenge or a rematch
            player = None if seat is None else _seat(after, seat).player_id
            if kind == "game.abandoned":
                by = {"seat": seat} if abandoned.endswith("_DECLINED") else {}
                said = _summary(COMMON.say(ABANDON_REASONS[abandoned], **by))
                happening = SeatHappening(
                    game_id, after.kind, entry.version, seat, player, said, abandoned
                )
            else:
                said = _SAID[kind](seat)
                happening = SeatHappening(game_id, after.kind, entry.version, seat, player, said)
            events.append((kind, happening))
        note = entry.takeback
        if note is not None and note.step == "TAKEN":
            player = _seat(after, note.asked_by).player_id
            taken = Takeback(
                game_id, after.kind, entry.version, note.asked_by, player, note.to_version,
                note.agreed_by,
            )  # fmt: skip
            events.append(("game.takeback", taken))
    if after.status() == "FINISHED":
        events.append(("game.finished", _finished(game_id, after)))
    elif not after.finished:
        was_acting = set(before.acting) if before is not None else set()
        started = [s for s in after.acting if s not in was_acting and s not in after.bots]
        if started:
            deadline = None if after.deadline is None else timestamp(after.deadline)
            seats = [_seat(after, s) for s in started]
            said = _summary(COMMON.say("webhook.turnStarted", seats=started, version=after.version))
            turn = TurnStarted(
                game_id, after.kind, after.version, seats, after.acting, deadline, said
            )
            events.append(("turn.started", turn))
    if not events:
        return []
    when = timestamp(after.updated)
    return [Event(type=kind, timestamp=when, data=data) for kind, data in events]


def _finished(game_id: str, record: Record) -> GameFinished:
    game = game_for(record.kind, record.rules)
    scores = game.scores(decode_state(game, record.state))
    outcome = record.outcome
    winners = scores.winners if outcome is None else outcome.winners
    return GameFinished(
        game_id,
        record.kind,
        record.version,
        "RULES" if outcome is None else outcome.reason,  # type: ignore[arg-type]
        winners,
        [SeatScore(e.seat, _seat(record, e.seat).player_id, e.points) for e in scores.entries],
        _summary(COMMON.say("webhook.finished", winners=winners)),
    )
