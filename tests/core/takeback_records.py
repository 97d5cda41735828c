"""Games with takebacks played on the game service and resigned, for the game record tests
(issue 32): a takeback taken alone, one taken with the other seat's consent after a declined
request, and one bots agree to at once. Positions from takeback_scenes.py."""

from __future__ import annotations

from typing import Any

from service.core import GameService
from service.core.takebacks import TAKEN
from tests.core.takeback_scenes import OPTIONS, Decision, decisions, first, first_answered

SCENES = ("ALONE", "WITH_CONSENT", "DECLINED")


async def takeback_game(service: GameService, kind: str, scene: str) -> str:
    """A 2-seat game of `kind` with the `scene`'s takeback steps, over by a resignation."""
    seed = f"records-tb-{kind}"
    made = decisions(kind, 2, seed)
    policy = "OWN_DECISIONS" if scene == "ALONE" else "WITH_CONSENT"
    loaded, tokens = await service.create(kind, 2, seed, OPTIONS.get(kind), takeback_policy=policy)
    game_id = loaded.id

    async def play(some: list[Decision]) -> None:
        for d in some:
            await service.apply(game_id, tokens[d.seat], d.move, None, None)

    if scene == "ALONE":  # a decision that revealed nothing, taken back and made again
        i = first(made, safe=True)
        await play(made[: i + 1])
        await service.request_takeback(game_id, tokens[made[i].seat], None, None)
        await play(made[i : i + 2])
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
    to_act = loaded.record.acting[0] if loaded.record.acting else 0
    await service.resign(game_id, tokens[to_act], None)
    return game_id


def takeback_steps(record: dict[str, Any], step: str = TAKEN) -> list[dict[str, Any]]:
    """The record's takeback steps of kind `step`."""
    return [s for s in record["steps"] if (s.get("takeback") or {}).get("step") == step]
