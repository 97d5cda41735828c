"""A game's parked subscribers: the gameEvents subscriptions of this process that follow the
same game as the same caller, written by one follower instead of a task each.

A subscription on a parked socket (edge/parking.py) follows the game on its own while it
catches up (live.py); once it has sent a live version, it joins its game's `Crowd` for its
caller (token, tenant key) and drops its own follower: the crowd's one `follow`
(service/core/reads/following.py: the same versions, delay, resyncs and reissue checks a
subscriber of that caller gets) renders each version once per audience (`Live.frame`) and
writes that text, behind each member's operation id, to every member's socket in one pass,
with no task woken per socket. A member whose own follower is behind the crowd's keeps
following on its own and tries again at its next live version; one ahead of it is sent only
the versions after its own. So every member gets every version once and in order.

A member's socket that stops reading is written until its transport's buffer is over the
high-water mark; then it may fall RULES_SUBSCRIBER_QUEUE versions further behind, and is
closed with SLOW_CONSUMER (4413), as a subscriber with a task of its own is. A crowd whose own
mailbox overflowed (this process cannot keep up) closes every member so, and they resubscribe
with `afterVersion`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Generator
from contextlib import aclosing
from typing import TYPE_CHECKING, Any

from graphql import GraphQLError

from service import metrics
from service.api.edge.parking import Wire
from service.api.graphql.errors import api_error
from service.api.graphql.types import GameEvent, GameStatus
from service.core import Caller, GameService
from service.refusals import Refused
from service.store import StoreUnavailable

if TYPE_CHECKING:
    from service.api.graphql.live import Audience

SLOW_CONSUMER_CLOSE = 4413  # "fell too far behind its events"; resubscribe and catch up
RETRIES = 5  # a store away: the follower's tries in a row before its members end (UNAVAILABLE)
SLOW_REASON = "SLOW_CONSUMER: fell too far behind; resubscribe and catch up with history"

log = logging.getLogger("service.live")


class Member:
    """One parked subscription: where its frames go, the last version it was sent, how it
    ends (`finish`: the socket's side sends a last `next` if any, then `complete`) and what
    its leaving gives back (`on_close`). It has no task: strawberry's handler keeps it as
    its operation's (sockets.py), so the client's `complete` or the socket's end `cancel`s
    it."""

    __slots__ = (
        "audience", "behind", "closed", "closing", "crowd", "ended", "finish", "last", "prefix",
        "wire",
    )  # fmt: skip

    def __init__(self, audience: Audience, wire: Wire, prefix: bytes, last: int) -> None:
        self.audience, self.wire, self.prefix, self.last = audience, wire, prefix, last
        self.behind = 0  # versions written while its transport was paused
        self.crowd: Crowd | None = None
        self.finish: Callable[[str | None], None] = self._ended_early
        self.ended: tuple[str | None] | None = None  # how, if it ended before `finish` was set
        self.closing: list[Callable[[], None]] = []
        self.closed = False

    def write(self, version: int, payload: bytes, queue: int) -> None:
        if version <= self.last:
            return
        self.last = version
        if self.wire.paused():
            self.behind += 1
            if self.behind > queue:
                self.wire.close(SLOW_CONSUMER_CLOSE, SLOW_REASON)
                return
        else:
            self.behind = 0
        self.wire.parts((self.prefix, payload, b"}"))

    def end(self, last: str | None) -> None:
        """Its crowd ended it: the game is over (`last` None) or following failed (`last`
        the error's frame)."""
        if not self.closed:
            self.finish(last)
            self.cancel()

    def _ended_early(self, last: str | None) -> None:
        """Its crowd ended it before the socket's side took it over, which then finishes it."""
        self.ended = (last,)

    def on_close(self, give_back: Callable[[], None]) -> None:
        if self.closed:
            give_back()
        else:
            self.closing.append(give_back)

    def cancel(self) -> None:
        """It leaves its crowd and gives back what it held; once."""
        if self.closed:
            return
        self.closed = True
        if self.crowd is not None:
            self.crowd.leave(self)
        for give_back in self.closing:
            give_back()
        self.closing.clear()

    def __await__(self) -> Generator[None]:
        """Done at once (strawberry awaits its operations' tasks when the socket ends)."""
        yield from ()


# (audience, event) -> the event's payload for that audience, and an error's
Frame = Callable[["Audience", GameEvent], Awaitable[str]]
Failure = Callable[["Audience", GraphQLError], str]


class Crowd:
    """The members following one game as one caller, and the one follower that writes
    them (see the module's docstring)."""

    def __init__(
        self,
        key: tuple[Any, ...],
        crowds: dict[tuple[Any, ...], Crowd],
        service: GameService,
        caller: Caller,
        after: int,
        frame: Frame,
        failure: Failure,
        queue: int,
    ) -> None:
        self.key, self.crowds, self.queue = key, crowds, queue
        self.game_id: str = key[0]
        self.frame, self.failure = frame, failure
        self.last = after
        self.members: dict[Audience, dict[Member, None]] = {}
        # set once the crowd hears the game (or has ended): its first member's own follower
        # may leave the game's channel then, and the channel is never given up between them
        self.subscribed = asyncio.Event()
        self.task = asyncio.get_running_loop().create_task(self._run(service, caller))
        self.task.add_done_callback(_ended)
        metrics.CROWDS.value += 1

    def join(self, member: Member) -> bool:
        """Whether `member` is in (its own follower may stop); not while it is behind."""
        if member.last < self.last or self.task.done():
            return False
        self.members.setdefault(member.audience, {})[member] = None
        metrics.PARKED.value += 1
        return True

    def leave(self, member: Member) -> None:
        members = self.members.get(member.audience)
        if members is None or member not in members:
            return
        del members[member]
        metrics.PARKED.value -= 1
        if not members:
            del self.members[member.audience]
        if not self.members:
            self._close()

    def _close(self) -> None:
        if self.crowds.get(self.key) is self:
            del self.crowds[self.key]
        self.task.cancel()

    async def _run(self, service: GameService, caller: Caller) -> None:
        """Follow the game for every member. A store that is away is tried again from the
        last version written (so nothing is missed) up to RETRIES times in a row, with
        backoff, before the members end with UNAVAILABLE and resume on their own: a crowd
        that starts while Redis restarts must not end subscriptions that were live."""
        failures = 0
        try:
            while True:
                start = self.last
                try:
                    await self._follow(service, caller)
                except StoreUnavailable as unavailable:
                    failures = 1 if self.last > start else failures + 1
                    if failures > RETRIES:
                        raise unavailable from None
                    await asyncio.sleep(0.1 * 2**failures)
                    continue
                self._end(lambda _: None)
                return
        except asyncio.CancelledError:
            raise
        except Exception as error:  # a refusal while following ends it, as in strawberry
            failed = api_error(error) if isinstance(error, Refused) else error
            if not isinstance(failed, GraphQLError):
                log.exception("a game's live followers failed: %s", self.game_id)
                failed = GraphQLError(str(error), original_error=error)
            self._end(lambda member: self.failure(member.audience, failed))
        finally:
            self.subscribed.set()  # nobody waits for a crowd that ended

    async def _follow(self, service: GameService, caller: Caller) -> None:
        versions = service.follow(
            self.game_id, caller, self.last, self._dropped, self.subscribed.set
        )
        async with aclosing(versions):
            async for seen in versions:
                self.last = seen.version
                event = GameEvent(
                    game_id=self.game_id,  # type: ignore[arg-type]
                    version=seen.version,
                    status=GameStatus(seen.status),
                    catching_up=seen.catching_up,
                )
                for audience in list(self.members):
                    payload = (await self.frame(audience, event)).encode()
                    for member in list(self.members.get(audience, ())):
                        member.write(seen.version, payload, self.queue)

    def _end(self, last: Callable[[Member], str | None]) -> None:
        """Every member ends with `last`, then `complete`."""
        if self.crowds.get(self.key) is self:
            del self.crowds[self.key]
        ended, self.members = self.members, {}
        for members in ended.values():
            metrics.PARKED.value -= len(members)
            for member in members:
                member.end(last(member))

    def _dropped(self) -> None:
        """This crowd's mailbox overflowed: its members resubscribe and catch up."""
        for members in self.members.values():
            for member in members:
                member.wire.close(SLOW_CONSUMER_CLOSE, SLOW_REASON)


def _ended(task: asyncio.Task[None]) -> None:
    metrics.CROWDS.value -= 1
    if not task.cancelled():
        task.exception()  # retrieved: `_run` logged what was not a refusal
