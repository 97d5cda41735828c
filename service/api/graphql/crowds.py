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
from collections.abc import Awaitable, Callable
from contextlib import aclosing
from typing import TYPE_CHECKING, Any

from graphql import GraphQLError

from service import metrics
from service.api.edge.parking import Wire
from service.api.graphql.errors import api_error
from service.api.graphql.types import GameEvent, GameStatus
from service.core import Caller, GameService
from service.refusals import Refused

if TYPE_CHECKING:
    from service.api.graphql.live import Audience

SLOW_CONSUMER_CLOSE = 4413
SLOW_REASON = "SLOW_CONSUMER: fell too far behind; resubscribe and catch up with history"

log = logging.getLogger("service.live")


class Member:
    """One parked subscription: where its frames go, the last version it was sent, and how
    it ends (`ended`: None, completed; else the text of a last `next`, an error)."""

    __slots__ = ("audience", "behind", "crowd", "ended", "last", "prefix", "wire")

    def __init__(self, audience: Audience, wire: Wire, prefix: bytes, last: int) -> None:
        self.audience, self.wire, self.prefix, self.last = audience, wire, prefix, last
        self.behind = 0  # versions written while its transport was paused
        self.crowd: Crowd | None = None
        self.ended: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()

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
        if not self.ended.done():
            self.ended.set_result(last)


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
        self.task = asyncio.get_running_loop().create_task(self._run(service, caller, after))
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

    async def _run(self, service: GameService, caller: Caller, after: int) -> None:
        versions = service.follow(self.game_id, caller, after, self._dropped)
        try:
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
        except asyncio.CancelledError:
            raise
        except Exception as error:  # a refusal while following ends it, as in strawberry
            failed = api_error(error) if isinstance(error, Refused) else error
            if not isinstance(failed, GraphQLError):
                log.exception("a game's live followers failed: %s", self.game_id)
                failed = GraphQLError(str(error), original_error=error)
            self._end(lambda member: self.failure(member.audience, failed))
        else:
            self._end(lambda _: None)

    def _end(self, last: Callable[[Member], str | None]) -> None:
        """Every member ends (its own task sends `last` and the `complete`)."""
        if self.crowds.get(self.key) is self:
            del self.crowds[self.key]
        for members in self.members.values():
            metrics.PARKED.value -= len(members)
            for member in members:
                member.end(last(member))
        self.members.clear()

    def _dropped(self) -> None:
        """This crowd's mailbox overflowed: its members resubscribe and catch up."""
        for members in self.members.values():
            for member in members:
                member.wire.close(SLOW_CONSUMER_CLOSE, SLOW_REASON)


def _ended(task: asyncio.Task[None]) -> None:
    metrics.CROWDS.value -= 1
    if not task.cancelled():
        task.exception()  # retrieved: `_run` logged what was not a refusal
