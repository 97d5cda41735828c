"""Re-drawing what a seat cannot see, for the bots' information-set search (docs/bots.md).

In Treelings only the draw pile's order is secret (ALL-4); the festival card's depth is public
(TG-1), so it stays where it lies. The result depends on the seat's view and `rng` only: the
unseen cards are sorted before they are shuffled, and the state's own Rng is replaced.
"""

from __future__ import annotations

import msgspec

from service.engine import Rng
from service.games.treelings.cards import FESTIVAL
from service.games.treelings.state import State

_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(State)


def determinize(state: State, seat: int | None, rng: Rng) -> State:
    sample = _decoder.decode(_encoder.encode(state))
    guild = sorted(card for card in sample.pile if card != FESTIVAL)
    rng.shuffle(guild)
    if FESTIVAL in sample.pile:
        guild.insert(sample.pile.index(FESTIVAL), FESTIVAL)
    sample.pile = guild
    sample.rng = Rng(rng.next64())
    return sample


def unrevealed(before: State, after: State) -> bool:
    """Nothing hidden came to light between the two states and nothing random happened (the
    takeback hook, Game.takeback_safe): the draw pile (face down, ALL-4; its top card is laid
    open when drawn, so any change to it is a reveal) and the Rng are as they were."""
    return before.rng == after.rng and before.pile == after.pile
