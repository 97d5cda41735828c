"""Twins for the hidden-information proofs (RULINGS ALL-4): a copy of a game state that differs
only in what one viewer may not see, for each of the four games (a new game's is in its test
package, tests/games/<package>/twin.py).

A twin keeps everything a viewer sees and redraws the rest at random among the values the
viewer cannot rule out: the order of face-down piles (keeping what their backs or the rules
make public), other seats' secret cards, unflipped glade identities, and the RNG state.
"""

from __future__ import annotations

import random
from typing import Any

from service.engine import Rng
from service.engine.play import copy_state
from service.games import games
from service.games.treeline.cards import GLADES
from service.games.treelings.cards import FESTIVAL
from service.games.treetopia.cards import CARDS as TREETOPIA_CARDS
from service.games.treetopia.state import Phase as TreetopiaPhase
from tests.games.avenue.test_hidden import disguise as avenue_disguise
from tests.games.twins import Twin, package_twin


def new_rng(chooser: random.Random) -> Rng:
    """A different RNG state with 19 or 20 digits, so a leak is found by searching for it."""
    return Rng(chooser.getrandbits(64) | (1 << 63))


def treelings_twin(state: Any, viewer: int | None, chooser: random.Random) -> Any:
    """The draw pile reordered; the festival card keeps its public depth (TG-1)."""
    twin = copy_state(games()["TREELINGS"], state)
    guild = [card for card in twin.pile if card != FESTIVAL]
    chooser.shuffle(guild)
    if FESTIVAL in twin.pile:
        guild.insert(twin.pile.index(FESTIVAL), FESTIVAL)
    twin.pile = guild
    twin.rng = new_rng(chooser)
    return twin


def treetopia_twin(state: Any, viewer: int | None, chooser: random.Random) -> Any:
    """The pile reordered with a top card of the same type (card backs show it, TT-2); the
    Eye's cards, while their drawer chooses, redrawn for every other viewer."""
    twin = copy_state(games()["TREETOPIA"], state)
    eye_hidden = twin.phase == TreetopiaPhase.EYE and viewer != twin.active
    unseen = list(twin.pile) + (list(twin.eye) if eye_hidden else [])
    chooser.shuffle(unseen)
    top = None
    if twin.pile:
        top_type = TREETOPIA_CARDS[twin.pile[-1]].type
        same = [card for card in unseen if TREETOPIA_CARDS[card].type == top_type]
        top = chooser.choice(same)
        unseen.remove(top)
    if eye_hidden:
        twin.eye, unseen = unseen[: len(twin.eye)], unseen[len(twin.eye) :]
    twin.pile = unseen + ([] if top is None else [top])
    twin.rng = new_rng(chooser)
    return twin


def treeline_twin(state: Any, viewer: int | None, chooser: random.Random) -> Any:
    """Glades still Town side up re-dealt among themselves and the glades left in the box."""
    twin = copy_state(games()["TREELINE"], state)
    hidden = [glade for glade in twin.glades if not twin.forest[glade.cell]]
    shown = {glade.kind for glade in twin.glades if twin.forest[glade.cell]}
    unseen = [kind for kind in range(len(GLADES)) if kind not in shown]
    for glade, kind in zip(hidden, chooser.sample(unseen, len(hidden)), strict=True):
        glade.kind = kind
    twin.rng = new_rng(chooser)
    return twin


def avenue_twin(state: Any, viewer: int | None, chooser: random.Random) -> Any:
    """The deck reordered; other seats' projects and the project pile re-dealt (AV-9)."""
    twin = avenue_disguise(state, viewer, chooser)
    twin.rng = new_rng(chooser)
    return twin


TWINS: dict[str, Twin] = {
    "TREELINGS": treelings_twin,
    "TREETOPIA": treetopia_twin,
    "TREELINE": treeline_twin,
    "TREE_LINED_AVENUE": avenue_twin,
}
# any other game's twin is its test package's (tests/games/<package>/twin.py)
TWINS |= {
    kind: twin
    for kind, game in games().items()
    if kind not in TWINS and (twin := package_twin(game)) is not None
}


def secret_values(kind: str, state: Any, viewer: int | None) -> dict[str, list[int]]:
    """The hidden values, by the view JSON field that would carry them if they leaked."""
    if kind == "TREE_LINED_AVENUE":
        others = [p for s, ps in enumerate(state.projects) if s != viewer for p in ps]
        return {"projects": others}
    if kind == "TREETOPIA" and state.phase == TreetopiaPhase.EYE and viewer != state.active:
        return {"eyeCards": list(state.eye)}
    if kind == "TREELINE":
        return {"glade": [g.kind for g in state.glades if not state.forest[g.cell]]}
    return {}


def values_under(value: Any, key: str) -> set[Any]:
    """Every value stored under `key` in a JSON answer, at any depth, lists flattened: what
    an answer shows of a kind of thing, to check against `secret_values`."""
    found: set[Any] = set()
    if isinstance(value, dict):
        for k, v in value.items():
            if k == key:
                found |= set(v) if isinstance(v, list) else {v}
            found |= values_under(v, key)
    elif isinstance(value, list):
        for item in value:
            found |= values_under(item, key)
    return found
