"""Games with takebacks played on the game service and resigned, for the game record tests: a takeback taken alone, one taken with the other seat's consent after a declined
request, a request voided by a decision, a bot's safe reply taken back with the bot's agreement
at once (its turns played by a worker, as in production), and one two other seats of three
accept in turn. Positions from takeback_scenes.py."""

from __future__ import annotations

from typing import Any

from service.core import GameService
from service.core.takebacks.policy import TAKEN
from service.settings import Settings
from service.worker import Worker
from tests.core.takeback_scenes import (
    BOT,
    OPTIONS,
    Decision,
    against_a_bot,
    bot_turn,
    decisions,
    first,
    first_answered,
)

SCENES = ("ALONE", "WITH_CONSENT", "DECLINED", "BOTS", "THREE_SEATS")


def scenes(kind: str) -> list[str]:
    """The scenes a game of `kind` can play: in Treelings every turn ends with a draw, so no
    bot reply is safe to take back and bots agree to no takeback (takebacks/policy.py)."""
    return [scene for scene in SCENES if scene != "BOTS" or kind != "TREELINGS"]


async def takeback_game(service: GameService, kind: str, scene: str, redis_url: str) -> str:
    """A 2-seat game of `kind` with the `scene`'s takeback steps, over by a resignation."""
    seed, made, j = f"records-tb-{kind}", [], 0
    players = 3 if scene == "THREE_SEATS" else 2
    bots: dict[int, str] = {}
    if scene == "BOTS":  # the bot's safe reply taken back, at once: the bot agrees
        seed, made, j = against_a_bot(kind, "RANDOM")
        bots = {BOT: "RANDOM"}
    else:
        made = decisions(kind, players, seed)
    policy = "OWN_DECISIONS" if scene == "ALONE" else "WITH_CONSENT"
    loaded, tokens = await service.create(
        kind, players, seed, OPTIONS.get(kind), bots=bots, takeback_policy=policy
    )
    game_id = loaded.id

    async def play(some: list[Decision]) -> None:
        for d in some:
            await service.apply(game_id, tokens[d.seat], d.move, None, None)

    if scene == "ALONE":  # a decision that revealed nothing, taken back and made again
        i = first(made, safe=True)
        await play(made[: i + 1])
        await service.request_takeback(game_id, tokens[made[i].seat], None, None)
        await play(made[i : i + 2])
    elif scene == "BOTS":
        worker = Worker(Settings(), redis_url, "records")
        await worker.queue.ensure_groups()
        try:
            for d in made[: j + 2]:
                await (bot_turn(worker, game_id) if d.seat == BOT else play([d]))
        finally:
            await worker.store.close()
        await service.request_takeback(game_id, tokens[made[j].seat], None, None)
        await play(made[j : j + 1])
    elif scene == "THREE_SEATS":  # ASKED, ACCEPTED by one, TAKEN with the last acceptance
        k = first_answered(made)
        asker = made[k].seat
        await play(made[: k + 2])
        await service.request_takeback(game_id, tokens[asker], None, None)
        for seat in sorted(set(range(players)) - {asker}, reverse=True):
            await service.answer_takeback(game_id, tokens[seat], True, None, None)
        await play(made[k : k + 1])
    else:  # the other seat decided since: a request, declined, then asked again
        k = first_answered(made)
        asker, other = made[k].seat, made[k + 1].seat
        await play(made[: k + 2])
        await service.request_takeback(game_id, tokens[asker], None, None)
        await service.answer_takeback(game_id, tokens[other], False, None, None)
        await service.request_takeback(game_id, tokens[asker], None, None)
        if scene == "WITH_CONSENT":
            await service.answer_takeback(game_id, tokens[other], True, None, None)
            await play(made[k : k + 2])
        else:  # anyone's decision voids the second request
            await play(made[k + 2 : k + 3])
    loaded = await service.read(game_id, None)
    human = [seat for seat in tokens if seat not in bots]
    await service.resign(game_id, tokens[human[0]], None)
    return game_id


def takeback_steps(record: dict[str, Any], step: str = TAKEN) -> list[dict[str, Any]]:
    """The record's takeback steps of kind `step`."""
    return [s for s in record["steps"] if (s.get("takeback") or {}).get("step") == step]
