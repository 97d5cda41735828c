"""Re-drawing what a seat cannot see, for the bots' information-set search (docs/bots.md).

In Treetopia the draw pile's order is secret, but the type on the back of its top card is
public (TT-2); the Eye's cards are seen only by the seat choosing among them. Unseen cards are
sorted; the top of the pile is drawn among those of the type the view shows, the rest are
shuffled and the Eye's share (for the other seats) dealt first. The result depends on the
seat's view and `rng` only.
"""

from __future__ import annotations

import msgspec

from service.engine import Rng
from service.games.treetopia.cards import CARDS
from service.games.treetopia.state import Phase, State

_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(State)


def determinize(state: State, seat: int | None, rng: Rng) -> State:
    sample = _decoder.decode(_encoder.encode(state))
    eye_seen = sample.phase == Phase.EYE and seat == sample.active
    unseen = sorted(sample.pile if eye_seen else [*sample.pile, *sample.eye])
    top: list[int] = []
    if sample.pile:
        top_type = CARDS[sample.pile[-1]].type
        tops = [i for i, card in enumerate(unseen) if CARDS[card].type == top_type]
        top = [unseen.pop(rng.choice(tops))]
    rng.shuffle(unseen)
    if not eye_seen:
        sample.eye, unseen = unseen[: len(sample.eye)], unseen[len(sample.eye) :]
    sample.pile = unseen + top
    sample.rng = Rng(rng.next64())
    return sample


def unrevealed(before: State, after: State) -> bool:
    """Nothing hidden came to light between the two states and nothing random happened (the
    takeback hook, Game.takeback_safe): the draw pile (face down, and the back of its new top
    card shows a type, TT-2), the Eye's cards (seen by the seat choosing) and the Rng (a
    reshuffled discard pile) are as they were."""
    return before.rng == after.rng and before.pile == after.pile and before.eye == after.eye
