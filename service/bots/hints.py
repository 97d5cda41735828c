"""Hints (suggestMove) in a bounded pool of child processes, never on the event loop's process.

A SEARCH hint is pure CPU for up to RULES_MAX_SUGGEST_MS, and CPU in the API process holds the
GIL against every other request of the replica. So each replica keeps at most
`size` child processes, each thinking about one hint at a time:

- a hint asked while all of them are busy is refused at once with HintsBusy("HINTS_BUSY"):
  typed and retryable (HTTP 503 with Retry-After on REST), never queued;
- the child stops thinking at the request's budget whatever `iterations` says, and a child
  still silent `grace` seconds after that is killed and replaced (HintsBusy("HINT_TIMEOUT")).

The children are service/children.py's (spawned on first use, each running `think`).
"""

from __future__ import annotations

import time
from typing import Any

import msgspec

from service import metrics
from service.children import Busy, Pool
from service.refusals import Code, Refused


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


def think(request: bytes) -> bytes:
    """A child's answer to one hint request (service/children.py runs it): the move, as
    builtins, and its label."""
    from service.bots import suggest
    from service.engine.play import decode_state
    from service.games import game_for

    asked = _decoder.decode(request)
    game = game_for(asked.kind, asked.rules)
    state = decode_state(game, asked.state)
    ends = time.monotonic() + asked.budget_ms / 1000
    move = suggest(
        game,
        state,
        asked.seat,
        asked.strategy,  # type: ignore[arg-type]  # checked by GameService.suggest
        seed=int(asked.seed),
        iterations=asked.iterations,
        deadline=lambda: time.monotonic() > ends,
    )
    label = game.label(state, asked.seat, move)
    return msgspec.msgpack.encode((msgspec.to_builtins(move), label))


_decoder = msgspec.msgpack.Decoder(HintRequest)


class HintPool:
    def __init__(self, size: int, grace_ms: int = 1000) -> None:
        self.pool = Pool("service.bots.hints:think", size, "rules-hint")
        self.grace = grace_ms / 1000

    @property
    def size(self) -> int:
        return self.pool.size

    async def suggest(self, request: HintRequest) -> tuple[Any, str]:
        """The move (JSON builtins) and its label, thought about in a child process."""
        try:
            metrics.HINTS_IN_FLIGHT.inc()
            try:
                answer = await self.pool.run(
                    msgspec.msgpack.encode(request), request.budget_ms / 1000 + self.grace
                )
            finally:
                metrics.HINTS_IN_FLIGHT.dec()
        except Busy:
            metrics.HINTS.labels("HINTS_BUSY").inc()
            raise HintsBusy(
                Code.HINTS_BUSY, "every hint process of this replica is busy; retry"
            ) from None
        if answer is None:
            metrics.HINTS.labels("HINT_TIMEOUT").inc()
            raise HintsBusy(Code.HINT_TIMEOUT, "the hint took too long and was stopped; retry")
        metrics.HINTS.labels("OK").inc()
        move, label = msgspec.msgpack.decode(answer)
        return move, str(label)

    def close(self) -> None:
        self.pool.close()
