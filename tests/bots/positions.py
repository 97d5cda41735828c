"""Positions of random 2- and 3-player games for every kind, and hidden-part disguises."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import msgspec

from service.engine import Game, Rng, encode_state, play, start
from service.engine.play import copy_state
from service.games import games
from service.games.treeline.cards import GLADES
from service.games.treelings.cards import FESTIVAL
from service.games.treetopia.cards import CARDS as TOPIA_CARDS
from service.games.treetopia.state import Phase as TreetopiaPhase
from tests.games.twins import package_twin

KINDS = list(games())
OPTIONS = {"TREELINE": {"fullGame": True}}  # three hidden glades (TL-13)


def positions(game: Game[Any, Any], players: int, seed: str, every: int) -> Iterator[Any]:
    """Every `every`-th position of a random game, up to its end (not included)."""
    chooser = random.Random(seed)
    state = start(game, players, OPTIONS.get(game.kind), seed).state
    n = 0
    while not game.is_over(state):
        if n % every == 0:
            yield state
        seat = game.to_act(state)[0]
        move = chooser.choice(game.legal_moves(state, seat))
        state = play(game, state, seat, msgspec.to_builtins(move)).state
        n += 1


def disguise(game: Game[Any, Any], state: Any, seat: int, salt: int) -> Any:
    """The same table as `seat` sees it with the hidden parts changed, written independently of
    the samplers, the way each game's own hidden-information tests do it."""
    twin = copy_state(game, state)
    chooser = random.Random(salt)
    twin.rng = Rng(state.rng.state ^ (0x5DEECE66D + salt))
    if game.kind == "TREELINGS":
        guild = [c for c in twin.pile if c != FESTIVAL]
        chooser.shuffle(guild)
        if FESTIVAL in twin.pile:
            guild.insert(twin.pile.index(FESTIVAL), FESTIVAL)
        twin.pile = guild
    elif game.kind == "TREELINE":
        hidden = [g for g in twin.glades if not twin.forest[g.cell]]
        shown = [g.kind for g in twin.glades if twin.forest[g.cell]]
        unused = [k for k in range(len(GLADES)) if k not in shown]
        for glade, kind in zip(hidden, chooser.sample(unused, len(hidden)), strict=True):
            glade.kind = kind
    elif game.kind == "TREETOPIA":
        eye_hidden = twin.phase == TreetopiaPhase.EYE and seat != twin.active
        if eye_hidden and twin.pile:
            mixed = twin.eye + twin.pile[:-1]
            chooser.shuffle(mixed)
            twin.eye, twin.pile[:-1] = mixed[: len(twin.eye)], mixed[len(twin.eye) :]
        if len(twin.pile) > 1:
            top = twin.pile.pop()
            chooser.shuffle(twin.pile)
            same = [
                i for i, c in enumerate(twin.pile) if TOPIA_CARDS[c].type == TOPIA_CARDS[top].type
            ]
            if same:
                i = chooser.choice(same)
                twin.pile[i], top = top, twin.pile[i]
            twin.pile.append(top)
    elif game.kind == "TREE_LINED_AVENUE":
        chooser.shuffle(twin.deck)
        if not game.is_over(twin):
            others = [s for s in range(twin.players) if s != seat]
            pool = [p for s in others for p in twin.projects[s]] + twin.project_deck
            chooser.shuffle(pool)
            for s in others:
                n = len(twin.projects[s])
                twin.projects[s], pool = pool[:n], pool[n:]
            twin.project_deck = pool
    else:  # a game's own twin (tests/games/<package>/twin.py), if it has one
        own = package_twin(game)
        assert own is not None, f"no disguise for {game.kind}"
        twin = own(twin, seat, chooser)
    return twin


def hidden_parts_differ(game: Game[Any, Any], one: Any, two: Any) -> bool:
    """True if the two states differ in more than their rng."""
    same_rng = copy_state(game, two)
    same_rng.rng = Rng(one.rng.state)
    return encode_state(one) != encode_state(same_rng)


def same_view(game: Game[Any, Any], one: Any, two: Any, seat: int) -> bool:
    return bool(
        msgspec.json.encode(game.view(one, seat)) == msgspec.json.encode(game.view(two, seat))
    )


def copy(game: Game[Any, Any], state: Any) -> Any:
    return copy_state(game, state)
