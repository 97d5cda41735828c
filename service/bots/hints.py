"""Hints (suggestMove) in a bounded pool of child processes, never on the event loop's process.

A SEARCH hint is pure CPU for up to RULES_MAX_SUGGEST_MS, and CPU in the API process holds the
GIL against every other request of the replica. So each replica keeps at most
`size` child processes, each thinking about one hint at a time:

- a hint asked while all of them are busy is refused at once with HintsBusy("HINTS_BUSY"):
  typed and retryable (HTTP 503 with Retry-After on REST), never queued;
- the child stops thinking at the request's budget whatever `iterations` says, and a child
  still silent `grace` seconds after that is killed and replaced (HintsBusy("HINT_TIMEOUT")).

Children are started with "spawn" (no fork of a process running an event loop and threads) on
first use, and each waits on its pipe; they exit when the pipe closes.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

import msgspec

from service import metrics
from service.refusals import Code, Refused

STARTUP_SECONDS = 60  # a generous bound for a new child to import the games


class HintsBusy(Refused):
    """No hint now: all hint processes are busy (HINTS_BUSY) or this one ran out of time
    (HINT_TIMEOUT). Both are worth retrying a moment later."""


class HintRequest(msgspec.Struct, array_like=True, frozen=True):
    kind: str
    state: bytes  # the game's State, msgpack, as stored
    seat: int
    strategy: str
    seed: str  # a client's seed may exceed 64 bits (msgpack's integers); the bots read it as text
    iterations: int | None
    budget_ms: int
    rules: int = 0  # the game's rules version (0: the newest)


def _think(connection: Connection) -> None:
    """A child's life: answer hint requests on `connection` until it closes."""
    from service.bots import suggest
    from service.engine.play import decode_state
    from service.games import game_for

    decoder = msgspec.msgpack.Decoder(HintRequest)
    connection.send_bytes(b"ready")  # the time cap starts with the request, not the start-up
    while True:
        try:
            request = decoder.decode(connection.recv_bytes())
        except (EOFError, OSError):
            return
        game = game_for(request.kind, request.rules)
        state = decode_state(game, request.state)
        ends = time.monotonic() + request.budget_ms / 1000
        move = suggest(
            game,
            state,
            request.seat,
            request.strategy,  # type: ignore[arg-type]  # checked by GameService.suggest
            seed=int(request.seed),
            iterations=request.iterations,
            deadline=lambda ends=ends: time.monotonic() > ends,  # type: ignore[misc]
        )
        label = game.label(state, request.seat, move)
        connection.send_bytes(msgspec.msgpack.encode((msgspec.to_builtins(move), label)))


class _Child:
    def __init__(self) -> None:
        context = multiprocessing.get_context("spawn")
        self.connection, theirs = context.Pipe()
        self.process: BaseProcess = context.Process(
            target=_think, args=(theirs,), name="rules-hint", daemon=True
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

    def ask(self, request: HintRequest, kill_after: float) -> tuple[Any, str] | None:
        """The answer, or None if none came within `kill_after` seconds (then the child is
        dead)."""
        try:
            self.connection.send_bytes(msgspec.msgpack.encode(request))
            if self.connection.poll(kill_after):
                move, label = msgspec.msgpack.decode(self.connection.recv_bytes())
                return move, str(label)
        except (EOFError, OSError):
            pass  # the child died: replaced like a stuck one
        self.stop()
        return None

    def stop(self) -> None:
        self.process.kill()
        self.process.join(5)
        self.connection.close()


class HintPool:
    def __init__(self, size: int, grace_ms: int = 1000) -> None:
        self.size = max(size, 1)
        self.grace = grace_ms / 1000
        self._idle: list[_Child] = []
        self._busy = 0

    async def suggest(self, request: HintRequest) -> tuple[Any, str]:
        """The move (JSON builtins) and its label, thought about in a child process."""
        if self._busy >= self.size:
            metrics.HINTS.labels("HINTS_BUSY").inc()
            raise HintsBusy(Code.HINTS_BUSY, "every hint process of this replica is busy; retry")
        self._busy += 1
        metrics.HINTS_IN_FLIGHT.inc()
        try:
            answer = await asyncio.to_thread(self._ask, request)
        finally:
            self._busy -= 1
            metrics.HINTS_IN_FLIGHT.dec()
        if answer is None:
            metrics.HINTS.labels("HINT_TIMEOUT").inc()
            raise HintsBusy(Code.HINT_TIMEOUT, "the hint took too long and was stopped; retry")
        metrics.HINTS.labels("OK").inc()
        return answer

    def _ask(self, request: HintRequest) -> tuple[Any, str] | None:
        child = self._idle.pop() if self._idle else _Child()
        if not child.started():
            return None
        answer = child.ask(request, request.budget_ms / 1000 + self.grace)
        if answer is not None:
            self._idle.append(child)
        return answer

    def close(self) -> None:
        while self._idle:
            self._idle.pop().stop()
