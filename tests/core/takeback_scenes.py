"""Positions for the takeback tests, found by the engine for any game: a seeded game of random
legal decisions, and in it a decision its seat may take back alone (nothing revealed, nothing
random: the game's own `takeback_safe`), one it may not (a reveal or a random event), one
followed by another seat's decision, and one a bot's safe reply follows, with the bot's turn
played as the worker plays it."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import msgspec

from service.bots import Strategy, suggest
from service.core.access.keys import DEFAULT_TENANT
from service.core.moves.decisions import bot_seed
from service.engine import Game, play, start
from service.engine.play import encode_state
from service.games import games
from service.store.jobs import lane_of
from service.worker import Worker


@dataclass
class Decision:
    seat: int
    move: Any  # JSON builtins
    safe: bool  # takeback_safe of the states before and after its commit


# Treeline hides something only in the Full Game: its glades (TL-13)
OPTIONS: dict[str, dict[str, Any]] = {"TREELINE": {"fullGame": True}}


def decisions(kind: str, players: int, seed: str, count: int = 200) -> list[Decision]:
    """The first `count` decisions of a seeded game (fewer if it ends), each with whether it
    is safe to take back alone."""
    game: Game[Any, Any] = games()[kind]
    state = start(game, players, OPTIONS.get(kind), seed).state
    chooser, made = random.Random(seed), []
    while len(made) < count and not game.is_over(state):
        seat = game.to_act(state)[0]
        move = msgspec.to_builtins(chooser.choice(game.legal_moves(state, seat)))
        after = play(game, state, seat, move).state
        made.append(Decision(seat, move, game.takeback_safe(state, after)))
        state = after
    return made


def first(made: list[Decision], safe: bool) -> int:
    """The index of the first decision that is (not) `safe`."""
    return next(i for i, d in enumerate(made) if d.safe == safe)


def first_answered(made: list[Decision]) -> int:
    """The index of the first decision another seat's decision follows."""
    return next(i for i, d in enumerate(made[:-1]) if made[i + 1].seat != d.seat)


BOT = 1  # the bot's seat in a game against a bot; seat 0 is the human's


def against_a_bot(
    kind: str, strategy: Strategy, iterations: int | None = None, tries: int = 20
) -> tuple[str, list[Decision], int]:
    """A seed of a 2-seat game of seat 0 (random decisions) against a bot of `strategy` in seat
    BOT that decides as the worker does (its seed is the position's, decisions.bot_seed, and
    `iterations` the worker's RULES_BOT_ITERATIONS); the decisions up to a human one that is
    safe to take back and that a safe bot reply follows, and that human decision's index."""
    game: Game[Any, Any] = games()[kind]
    for n in range(tries):
        seed = f"tb-vs-{strategy}-{kind}-{n}"
        state = start(game, 2, OPTIONS.get(kind), seed).state
        chooser, made = random.Random(seed), []
        while len(made) < 60 and not game.is_over(state):
            seat = game.to_act(state)[0]
            if seat == BOT:
                position = bot_seed(seed, encode_state(state))
                chosen = suggest(game, state, seat, strategy, seed=position, iterations=iterations)
                move = msgspec.json.decode(msgspec.json.encode(chosen))  # as history holds it
            else:
                move = msgspec.to_builtins(chooser.choice(game.legal_moves(state, seat)))
            after = play(game, state, seat, move).state
            made.append(Decision(seat, move, game.takeback_safe(state, after)))
            state = after
            replied = len(made) > 1 and made[-2].seat != BOT and made[-1].seat == BOT
            if replied and made[-2].safe and made[-1].safe:
                return seed, made, len(made) - 2
    raise AssertionError(f"no seed of {kind} has a safe decision a safe {strategy} reply follows")


async def bot_turn(worker: Worker, game_id: str) -> None:
    """The bot's job of `game_id` (just enqueued) played by `worker`, a worker whose loops are
    not started: the worker's own path, decided and committed. Jobs before it in the lane are
    played too: stale by now (a takeback's version leaves its game's job behind) or another
    test's business."""
    lane = lane_of(game_id)
    while (job := await worker.queue.read(lane, DEFAULT_TENANT)) is not None:
        if await worker.play(job) == "played" and job.game_id == game_id:
            return
    raise AssertionError(f"no bot job of game {game_id}")
