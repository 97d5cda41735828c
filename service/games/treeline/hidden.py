"""Re-drawing what a seat cannot see, for the bots' information-set search (docs/bots.md).

In Treeline only the glades still Town side up are secret (TL-13): each gets a kind drawn
without replacement from the kinds no Forest-side glade shows. The result depends on the seat's
view and `rng` only: the kinds are drawn from a sorted pool, and the state's Rng is replaced.
"""

from __future__ import annotations

import msgspec

from service.engine import Rng
from service.games.treeline.cards import GLADES
from service.games.treeline.state import State

_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(State)


def determinize(state: State, seat: int | None, rng: Rng) -> State:
    sample = _decoder.decode(_encoder.encode(state))
    shown = {g.kind for g in sample.glades if sample.forest[g.cell]}
    hidden = [g for g in sample.glades if not sample.forest[g.cell]]
    pool = [kind for kind in range(len(GLADES)) if kind not in shown]
    for glade, kind in zip(hidden, rng.sample(pool, len(hidden)), strict=True):
        glade.kind = kind
    sample.rng = Rng(rng.next64())
    return sample


def unrevealed(before: State, after: State) -> bool:
    """Nothing hidden came to light between the two states and nothing random happened (the
    takeback hook, Game.takeback_safe): no glade turned Forest side up (its kind is secret
    while it shows its Town side, TL-13) and the Rng is as it was."""

    def shown(state: State) -> list[tuple[int, bool]]:
        return [(g.kind, state.forest[g.cell]) for g in state.glades]

    return before.rng == after.rng and shown(before) == shown(after)
