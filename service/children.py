"""A bounded pool of child processes for CPU-bound work, never on the event loop's process
(hints: service/bots/hints.py; game records to verify: service/api/edge/verifying.py).

CPU in the API process holds the GIL against every other request of the replica, so such work
runs in at most `size` children, one request each at a time:

- a request while every child is busy is refused at once (`Busy`), never queued;
- a child still silent `seconds` after a request is killed and replaced (`run` answers None).

A child runs `target` ("module:function", bytes in, bytes out) on each request from its pipe.
Children are started with "spawn" (no fork of a process running an event loop and threads) on
first use; they exit when the pipe closes.
"""

from __future__ import annotations

import asyncio
import importlib
import multiprocessing
import os
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess

STARTUP_SECONDS = 60  # a generous bound for a new child to import what it needs


class Busy(Exception):
    """Every child of the pool is busy."""


def _serve(connection: Connection, target: str, niceness: int) -> None:
    """A child's life: answer the requests on `connection` with `target` until it closes, at
    `niceness` (above 0: the machine's cores go to the API's requests first)."""
    if niceness:
        os.nice(niceness)
    module, _, name = target.partition(":")
    answer: Callable[[bytes], bytes] = getattr(importlib.import_module(module), name)
    connection.send_bytes(b"ready")  # the time bound starts with the request, not the start-up
    while True:
        try:
            request = connection.recv_bytes()
        except (EOFError, OSError):
            return
        connection.send_bytes(answer(request))


class _Child:
    def __init__(self, target: str, name: str, niceness: int) -> None:
        context = multiprocessing.get_context("spawn")
        self.connection, theirs = context.Pipe()
        self.process: BaseProcess = context.Process(
            target=_serve, args=(theirs, target, niceness), name=name, daemon=True
        )
        self.process.start()
        theirs.close()
        self.ready = False

    def started(self) -> bool:
        """Whether the child is ready, waiting up to STARTUP_SECONDS for a new one (a child
        not ready by then is stopped)."""
        if self.ready:
            return True
        try:
            if self.connection.poll(STARTUP_SECONDS) and self.connection.recv_bytes() == b"ready":
                self.ready = True
                return True
        except (EOFError, OSError):
            pass
        self.stop()
        return False

    def ask(self, request: bytes, kill_after: float) -> bytes | None:
        """The answer, or None if none came within `kill_after` seconds (then the child is
        dead)."""
        try:
            self.connection.send_bytes(request)
            if self.connection.poll(kill_after):
                return self.connection.recv_bytes()
        except (EOFError, OSError):
            pass  # the child died: replaced like a stuck one
        self.stop()
        return None

    def stop(self) -> None:
        self.process.kill()
        self.process.join(5)
        self.connection.close()


class Pool:
    def __init__(self, target: str, size: int, name: str, niceness: int = 0) -> None:
        self.target, self.name, self.niceness = target, name, niceness
        self.size = max(size, 1)
        self.busy = 0
        self._idle: list[_Child] = []

    async def run(self, request: bytes, seconds: float) -> bytes | None:
        """`target`'s answer to `request` from a child; None if it took over `seconds` (the
        child is killed); Busy if every child is busy."""
        if self.busy >= self.size:
            raise Busy
        self.busy += 1
        try:
            return await asyncio.to_thread(self._ask, request, seconds)
        finally:
            self.busy -= 1

    def _ask(self, request: bytes, seconds: float) -> bytes | None:
        child = self._idle.pop() if self._idle else _Child(self.target, self.name, self.niceness)
        if not child.started():
            return None
        answer = child.ask(request, seconds)
        if answer is not None:
            self._idle.append(child)
        return answer

    def close(self) -> None:
        while self._idle:
            self._idle.pop().stop()
