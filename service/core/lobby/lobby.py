"""Matchmaking: a tenant's players wait in pools (kind, seat count, rules options) and are
matched by rating, first in first out, into new games (docs/architecture.md, "Matchmaking").

Every operation is about one player of one tenant, `(tenant, player_id)`: the tenant's backend
names the player with its API key, a player token names its own (`seeker`, __init__.py).

A seek without a rating is placed at the player's `mu` for the kind, read from the ratings as
it enters (one primary-key read, `RATING_READ_SECONDS` at most); a PostgreSQL that does not
answer leaves the neutral rating, and the next `RATINGS_REST_SECONDS` skip the read.

Matches are made in Redis, one script per attempt (service/store/lobby.py): by the replica a
player enters on, at once, and by the workers' sweep (`sweep`), as windows widen with time.
The script takes the group out of its pool atomically, so no two replicas match a player
twice. The maker then creates the game (matches.py) and settles the match: each player's
status says MATCHED with its seat and token, and its channel tells it. A maker that dies in
between leaves the match pending in the tenant's stream of matches; a worker claims it after
`RECLAIM_SECONDS` (`recover`) and creates the same game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import AsyncGenerator, Callable
from typing import Literal

import msgspec

from service import metrics
from service.core.lobby.matches import MatchedGame, create_game
from service.core.lobby.seeks import DEFAULT_RATING, WINDOW, RatingBook, Seek, check_player_id
from service.refusals import Code, Refused
from service.store import RedisStore, StoreUnavailable
from service.store.lobby import Entered, LobbyStore, Made, Seat, Window

log = logging.getLogger("service.lobby")

NEAR = 64  # candidates read on each side of a seeker's rating per attempt
SWEEP_STRETCH = 32  # seekers one sweep script heads at most: a script blocks Redis ~3 ms
# seekers of one pool a pass heads, oldest first: younger ones try on enter and in later passes
SWEEP_SEEKERS = 1024
LONGEST_WAIT_SECONDS = 3600.0  # a seek that waited this long lapses (the player enters again)
RECLAIM_SECONDS = 10.0  # a match its maker left unsettled this long is a worker's to finish
CLAIMED_AT_ONCE = 16
RATING_READ_SECONDS = 1.0  # a seek waits this long at most for the player's rating
RATINGS_REST_SECONDS = 5.0  # after a read that failed, seeks take the neutral rating this long

State = Literal["NONE", "WAITING", "MATCHING", "MATCHED"]


class Status(msgspec.Struct, frozen=True, rename="camel"):
    """A player's matchmaking now: NONE, WAITING (since, window now, the pool), MATCHING (a
    match was made, its game is being created) or MATCHED (the game, the seat and its token)."""

    player_id: str
    state: State
    kind: str | None = None
    players: int | None = None
    options: dict[str, object] | None = None
    rating: float | None = None
    waiting_since: float | None = None  # epoch seconds
    window: float | None = None  # the rating window now
    game_id: str | None = None
    seat: int | None = None
    seat_token: str | None = None
    type: str | None = None  # on a player's stream: what it tells (EVENT_TYPES), None: a status


# What a player's channel carries (service/core/players/news.py), as playerEvents types it.
EVENT_TYPES = {
    "MATCHED": "MATCHED",
    "challenge.received": "CHALLENGE_RECEIVED",
    "rematch.offered": "REMATCH_OFFERED",
    "game.started": "GAME_STARTED",
}


class PlayerEvent(msgspec.Struct, frozen=True, rename="camel"):
    """What a player's channel carries: MATCHED, with the player's own seat and token only, or
    news of a game for the player (news.py: its seat, an empty token)."""

    type: str
    player_id: str
    game_id: str
    kind: str
    players: int
    seat: int
    seat_token: str


_event_decoder = msgspec.json.Decoder(PlayerEvent)


class Lobby:
    def __init__(
        self,
        store: RedisStore,
        clock: Callable[[], float] = time.time,
        consumer: str = "",
        window: Window = WINDOW,
        ratings: RatingBook | None = None,
    ) -> None:
        self.rooms = LobbyStore(store)
        self.store = store
        self.clock = clock
        self.consumer = consumer or f"maker-{secrets.token_hex(6)}"
        self.window = window
        self.ratings = ratings
        self._ratings_back_at = 0.0  # when a failed read lets the next one try

    def _now_ms(self) -> int:
        return int(self.clock() * 1000)

    async def enter(self, tenant: str, seek: Seek) -> Status:
        """The player waits in the seek's pool, or is matched at once. Entering the same pool
        again is the same seek (its place kept); another pool while waiting: ALREADY_QUEUED."""
        rating = await self.rating(tenant, seek)
        entered: Entered = await self.rooms.enter(
            tenant, seek.pool, seek.pool_json, seek.player_id, rating, seek.players,
            self._now_ms(), self.window, NEAR, secrets.token_hex(16), self.consumer,
        )  # fmt: skip
        if entered.outcome == "queued":
            raise Refused(
                Code.ALREADY_QUEUED,
                f"player {seek.player_id!r} already waits for another kind of game: "
                "leaveMatchmaking first",
            )
        if entered.made is not None:
            with contextlib.suppress(StoreUnavailable):  # a worker finishes it (recover)
                await self.finish(tenant, entered.made)
        return await self.status(tenant, seek.player_id)

    async def rating(self, tenant: str, seek: Seek) -> float:
        """The seek's rating: the one it gives, else the player's mu for the kind (mu, not
        the leaderboard's ordinal: the window compares skills, and a newcomer's is 25, as
        the neutral rating's), else the neutral one."""
        if seek.rating is not None:
            return seek.rating
        if self.ratings is None:
            return DEFAULT_RATING
        if self.clock() < self._ratings_back_at:
            metrics.MATCHMAKING_RATINGS.labels("unavailable").inc()
            return DEFAULT_RATING
        try:
            async with asyncio.timeout(RATING_READ_SECONDS):
                found = await self.ratings.ratings(tenant, seek.player_id, seek.kind)
        except (StoreUnavailable, TimeoutError) as exc:
            self._ratings_back_at = self.clock() + RATINGS_REST_SECONDS
            metrics.MATCHMAKING_RATINGS.labels("unavailable").inc()
            log.warning("matchmaking takes the neutral rating: the ratings failed (%r)", exc)
            return DEFAULT_RATING
        metrics.MATCHMAKING_RATINGS.labels("rated" if found else "unrated").inc()
        return found[0].mu if found else DEFAULT_RATING

    async def leave(self, tenant: str, player_id: str) -> Status:
        """The player's seek is withdrawn; NOT_QUEUED when it waits in no pool (never
        entered, lapsed, or matched already: a match is not undone)."""
        player_id = check_player_id(player_id)
        outcome = await self.rooms.leave(tenant, player_id)
        if outcome != "left":
            shown = {"": "waits in no pool", "C": "was matched", "M": "was matched"}[outcome]
            raise Refused(Code.NOT_QUEUED, f"player {player_id!r} {shown}: nothing to leave")
        return Status(player_id, "NONE")

    async def status(self, tenant: str, player_id: str) -> Status:
        player_id = check_player_id(player_id)
        found = await self.rooms.status(tenant, player_id)
        state = found.get("s")
        if state == "W":
            at = int(found["at"]) / 1000
            pool = await self.rooms.pool(tenant, found["pool"])
            return Status(
                player_id, "WAITING",
                kind=pool.get("kind"), players=pool.get("players"), options=pool.get("options"),
                rating=float(found["rating"]), waiting_since=at,
                window=self.window.at(self.clock() - at),
            )  # fmt: skip
        if state == "C":
            return Status(player_id, "MATCHING")
        if state == "M":
            return Status(
                player_id, "MATCHED", game_id=found["game"], seat=int(found["seat"]),
                seat_token=found["token"],
            )  # fmt: skip
        return Status(player_id, "NONE")

    async def follow(
        self, tenant: str, player_id: str, on_drop: Callable[[], None]
    ) -> AsyncGenerator[Status, None]:
        """The player's status now, then each match as it is made (subscribed first, so none
        falls between); a broken event connection reads the status again."""
        player_id = check_player_id(player_id)
        async with self.rooms.events(tenant, player_id, on_drop) as subscriber:
            yield await self.status(tenant, player_id)
            while True:
                data = await subscriber.next()
                if not data:  # RESYNC: events may have been missed
                    yield await self.status(tenant, player_id)
                    continue
                event = _event_decoder.decode(data)
                told = EVENT_TYPES.get(event.type)
                if told is None:
                    log.warning("a player's channel told %r: not followed", event.type)
                    continue
                if told == "MATCHED":
                    yield Status(
                        player_id, "MATCHED", kind=event.kind, players=event.players,
                        game_id=event.game_id, seat=event.seat, seat_token=event.seat_token,
                        type=told,
                    )  # fmt: skip
                    continue
                # news leave matchmaking as it is: its state now, the news' game and seat
                now = await self.status(tenant, player_id)
                yield Status(
                    player_id, now.state, kind=event.kind, players=event.players,
                    game_id=event.game_id, seat=event.seat, type=told,
                )  # fmt: skip

    async def finish(self, tenant: str, made: Made) -> MatchedGame:
        """The match's game created (or found), then the match settled: statuses, events."""
        game = await create_game(self.store, tenant, made)
        seats = []
        for seat, player in enumerate(game.players):
            token = game.tokens[seat]
            told = PlayerEvent(
                "MATCHED", player, game.game_id, game.kind, len(game.players), seat, token
            )
            seats.append(Seat(player, seat, token, msgspec.json.encode(told)))
        await self.rooms.settle(tenant, made, self.consumer, game.game_id, seats)
        return game

    async def sweep(self, tenant: str) -> int:
        """Every pool of the tenant, each seeker heading a group oldest first, windows as wide
        as their waits made them; the matches' games created. How many matches were made."""
        made_count = 0
        for pool in await self.rooms.pools(tenant):
            first = 0
            while 0 <= first < SWEEP_SEEKERS:
                first, made = await self.rooms.sweep(
                    tenant, pool, self._now_ms(), self.window, NEAR, first, SWEEP_STRETCH,
                    secrets.token_hex(16), self.consumer, int(LONGEST_WAIT_SECONDS * 1000),
                )  # fmt: skip
                for match in made:
                    await self.finish(tenant, match)
                made_count += len(made)
        return made_count

    async def recover(self, tenant: str, idle_seconds: float = RECLAIM_SECONDS) -> int:
        """Matches a dead maker left unsettled, claimed and finished; how many."""
        claimed = await self.rooms.claim(
            tenant, self.consumer, int(idle_seconds * 1000), CLAIMED_AT_ONCE
        )
        for match in claimed:
            if isinstance(match, str):
                await self.rooms.drop(tenant, match)
                continue
            log.info("finishing match %s a maker left", match.match)
            await self.finish(tenant, match)
        return len(claimed)
