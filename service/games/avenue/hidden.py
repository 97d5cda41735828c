"""Re-drawing what a seat cannot see, for the bots' information-set search (docs/bots.md).

Secret in the Tree Lined Avenue (ALL-4, AV-9): the deck's order, the project pile, and the
project cards of the other seats until the game ends. The other seats keep their counts; the
seat's own projects stay. The result depends on the seat's view and `rng` only: unseen cards
are sorted before they are shuffled, and the state's Rng is replaced.
"""

from __future__ import annotations

import msgspec

from service.engine import Rng
from service.games.avenue.state import Phase, State

_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(State)


def determinize(state: State, seat: int | None, rng: Rng) -> State:
    sample = _decoder.decode(_encoder.encode(state))
    deck = sorted(sample.deck)
    rng.shuffle(deck)
    sample.deck = deck
    if sample.phase != Phase.OVER:
        others = [s for s in range(sample.players) if s != seat]
        pool = sorted([p for s in others for p in sample.projects[s]] + sample.project_deck)
        rng.shuffle(pool)
        for s in others:
            n = len(sample.projects[s])
            sample.projects[s], pool = pool[:n], pool[n:]
        sample.project_deck = pool
    sample.rng = Rng(rng.next64())
    return sample


def unrevealed(before: State, after: State) -> bool:
    """Nothing hidden came to light between the two states and nothing random happened (the
    takeback hook, Game.takeback_safe): the face-down deck, the project pile, every seat's
    secret projects (AV-9: a drawn or handed-in project changes them) and the Rng are as they
    were."""
    return (
        before.rng == after.rng
        and before.deck == after.deck
        and before.project_deck == after.project_deck
        and before.projects == after.projects
    )
