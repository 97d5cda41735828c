"""Challenges by player id (docs/api.md, "Rematch and challenges"): a game whose first seat is
the challenger's and whose other seats are open and reserved for the challenged players.

Accepting is joining (lobby.join, with the challenged player's token); the game starts when
the last of them joins. It never fills with bots: at its time (`expiresInSeconds`) a challenge
not accepted by all lapses, ABANDONED with the history entry "the challenge lapsed", through
the workers' clock sweep as a fill time does (lobby.LAPSE). Any of its players, the
challenger too, may decline it while it waits, which ends it for everyone (ABANDONED, "seat
<n> declined the challenge"). The challenged are told on their channel (news.py) and by the
`challenge.received` webhook event, written with the game.
"""

from __future__ import annotations

from typing import Any

import msgspec

from service.core.access.players import Player, held_by, open_seats
from service.core.game.creation import new_game
from service.core.players import lobby, news, seating
from service.engine import BadSetup
from service.engine.texts import COMMON
from service.refusals import Code, Refused
from service.store import HistoryRecord, Record, RedisStore
from service.store.jobs import new_game_id
from service.webhooks.events import challenge_received
from service.webhooks.events import of_commit as webhook_events

MAX_OPPONENTS = 4
DEFAULT_EXPIRY = 3600  # seconds a challenge waits for its players
CHALLENGE = "challenge"  # the lobby field that marks a challenge (its challenger's seat)


class Challenge(msgspec.Struct, frozen=True):
    """What a challenge asks for: createGame's kind, options, clock, spectator delay and
    takeback policy, the challenged player ids (seats 1, 2, ... in this order) and how long it
    waits for them."""

    kind: str
    opponents: list[str]
    options: Any = None
    clock: Any = None
    spectator_delay: int = 0
    takebacks: str = "NONE"
    expires_in: int = DEFAULT_EXPIRY


def refused(code: Code, key: str, version: int | None = None, **values: Any) -> Refused:
    """A refusal worded by the common catalog (its English, and the message to localize)."""
    return Refused(
        code, COMMON.english(key, **values), version, localized=COMMON.say(key, **values)
    )


def _checked(challenger: str, asked: Challenge) -> None:
    opponents = asked.opponents
    if (
        not 0 < len(opponents) <= MAX_OPPONENTS
        or len(set(opponents)) != len(opponents)
        or challenger in opponents
        or not all(0 < len(p) <= seating.MAX_PLAYER_ID for p in opponents)
    ):
        raise refused(Code.BAD_INPUT, "refusal.challengeOpponents")
    low, high = seating.MIN_FILL_SECONDS, seating.MAX_FILL_SECONDS
    if not low <= asked.expires_in <= high:
        raise refused(Code.BAD_INPUT, "refusal.expiresInSeconds", low=low, high=high)


def _setup_history(steps: list[Any]) -> list[HistoryRecord]:
    """The entries of what setup played (decisions.history_entries, from version 0)."""
    return [
        HistoryRecord(i, s.seat, msgspec.to_builtins(s.move), s.label, s.forced)
        for i, s in enumerate(steps, start=1)
    ]


async def create(
    store: RedisStore, tenant: str, challenger: str, asked: Challenge
) -> tuple[str, Record, str]:
    """The challenge's game, waiting for the challenged, and the challenger's seat token."""
    _checked(challenger, asked)
    players = 1 + len(asked.opponents)
    try:
        record, played, tokens = new_game(
            tenant, asked.kind, players, None, asked.options, {}, [challenger], asked.clock,
            asked.spectator_delay,
        )  # fmt: skip
        seats = [seating.OpenSeat(s, p) for s, p in enumerate(asked.opponents, start=1)]
        record, tokens = seating.opened(record, tokens, seats, asked.expires_in, "GREEDY")
    except BadSetup as exc:
        raise Refused(Code.BAD_INPUT, exc.message) from None
    record = msgspec.structs.replace(record, takebacks=asked.takebacks)
    history = _setup_history(played.steps)
    challenged = list(range(1, players))
    fields = {CHALLENGE: "0", "lapsed": COMMON.english("history.challengeLapsed")}
    while True:
        game_id = new_game_id()
        events = [
            *webhook_events(game_id, None, record, history),
            challenge_received(game_id, record, 0, challenged, record.created + asked.expires_in),
        ]
        if await lobby.created(store, game_id, record, history, events, fields):
            break
    told = [
        news.News(news.CHALLENGE_RECEIVED, p, game_id, record.kind, players, s)
        for s, p in enumerate(asked.opponents, start=1)
    ]
    await news.tell(store, tenant, told)
    return game_id, record, tokens[0]


def is_challenge(fields: dict[str, str]) -> bool:
    return CHALLENGE in fields


def pending_for(record: Record, player_id: str) -> int | None:
    """The seat a challenge waiting for `player_id` keeps for it (None: not waiting for it)."""
    if not seating.waiting(record) or held_by(record, player_id):
        return None
    return next((s for s in open_seats(record) if record.player_ids[s] == player_id), None)


async def decline(store: RedisStore, game_id: str, player: Player) -> Record:
    """The challenge ended for everyone by one of its players, while it waits."""
    fields = await lobby.lobby_of(store, game_id)

    def declining(record: Record) -> tuple[str, int, str]:
        if record.tenant != player.tenant:
            raise Refused(Code.NOT_FOUND, f"no game {game_id!r}")
        if not is_challenge(fields):
            raise refused(Code.FORBIDDEN, "refusal.notAChallenge")
        seats = [s for s, p in enumerate(record.player_ids) if p == player.id]
        if not seats:
            raise refused(Code.FORBIDDEN, "refusal.notChallenged")
        if record.status() != "ACTIVE":
            raise refused(Code.GAME_OVER, "refusal.challengeOver", record.version)
        if not seating.waiting(record):
            raise refused(Code.FORBIDDEN, "refusal.challengeOver", record.version)
        label = COMMON.english("history.challengeDeclined", seat=seats[0])
        return label, seats[0], "CHALLENGE_DECLINED"

    return await lobby.call_off(store, game_id, declining)
