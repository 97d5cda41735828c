"""What a live event sends, rendered once per audience and shared by every connection that
asks: a GraphQL subscription's `next` payload (service/api/graphql/live.py), a server-sent
event (REST). The key names the audience (who sees the same thing: document or route, caller,
language) and the event (game, version, status); a render in progress is awaited, not started
again, and one connection leaving does not cancel a render the others wait for."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable


class Frames:
    """The last `size` renders by key, and the renders in progress."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.done: OrderedDict[Hashable, str] = OrderedDict()
        self.rendering: dict[Hashable, Rendering] = {}

    def kept(self, key: Hashable) -> str | None:
        """The text for `key` if it is made already."""
        return self.done.get(key)

    async def payload(self, key: Hashable, render: Callable[[], str | Awaitable[str]]) -> str:
        """The text for `key`: kept, or rendered now (a render that needs no I/O returns at
        once; one that does is awaited by every caller of the same key)."""
        found = self.done.get(key)
        if found is not None:
            return found
        rendering = self.rendering.get(key)
        if rendering is None:
            made = render()
            if isinstance(made, str):
                self._keep(key, made)
                return made
            rendering = self.rendering[key] = Rendering(asyncio.ensure_future(made))
            rendering.task.add_done_callback(lambda _: self._rendered(key, rendering))
        await rendering.ready.wait()  # a waiter cancelled here leaves the render running
        return rendering.task.result()

    def _rendered(self, key: Hashable, rendering: Rendering) -> None:
        del self.rendering[key]
        rendering.ready.set()
        if not rendering.task.cancelled() and rendering.task.exception() is None:
            self._keep(key, rendering.task.result())

    def _keep(self, key: Hashable, text: str) -> None:
        self.done[key] = text
        if len(self.done) > self.size:
            self.done.popitem(last=False)


class Rendering:
    __slots__ = ("ready", "task")

    def __init__(self, task: asyncio.Future[str]) -> None:
        self.task = task
        self.ready = asyncio.Event()
