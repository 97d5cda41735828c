"""Every user-visible text of every game goes through a catalog (docs/translating.md).

Random games of every kind are played; under the pseudo-locale (en-XA) every label of every legal
move and every step, every refusal (the probes of test_reasons, plus the engine's own checks)
and every score detail must come out as pseudo-text, and its English must be the text the
English-only fields show. Each catalog id is used by some text, and the params a message
carries are the placeholders its id declares.
"""

from __future__ import annotations

import random
import string
from typing import Any

import msgspec
import pytest

from service.api.edge.localized import said_detail, said_label, texts
from service.api.edge.problems import PROBLEMS
from service.engine import Game, IllegalMove, check, play, start
from service.engine.texts import (
    COMMON,
    ENGLISH,
    PSEUDO,
    Message,
    is_pseudo,
    placeholders,
)
from service.games import games
from tests.games.test_reasons import OPTIONS, _probes

# test_reasons' options, and four-player Treeline without a strategic start (its team details)
TEXT_OPTIONS = {**OPTIONS, "TREELINE": [*OPTIONS["TREELINE"], {}]}
GAMES = 40  # at most: a kind stops once every id of its catalog was said


def _said_well(message: Message, english: str, used: set[str]) -> None:
    """`message` is its id's, its English is `english`, and en-XA turns it into pseudo-text."""
    entry = texts().catalog(message.id).entries[message.id]
    assert {p.name: p.type for p in message.params} == dict(entry.params), message
    assert len(message.params) == len(entry.params), message
    assert texts().render(message, ENGLISH) == english, message
    pseudo = texts().render(message, PSEUDO)
    assert is_pseudo(pseudo) and pseudo != english, (message, pseudo)
    for param in message.params:
        assert param.value in pseudo, (param, pseudo)  # params are left intact
    used.add(message.id)


def _refusals(game: Game[Any, Any], state: Any, seat: int, probes: list[Any]) -> list[IllegalMove]:
    refused = []
    for probe in probes:
        try:
            check(game, state, seat, probe)
        except IllegalMove as exc:
            refused.append(exc)
    return refused


@pytest.mark.parametrize("kind", sorted(games()))
def test_every_label_refusal_and_score_detail_of_the_game_goes_through_its_catalog(
    kind: str,
) -> None:
    game = games()[kind]
    used: set[str] = set()
    examples: dict[str, dict[str, Any]] = {}
    seen: dict[str, set[Any]] = {}
    options = TEXT_OPTIONS.get(kind, [{}])
    for n in range(GAMES):  # the games of test_reasons, which say every reason
        chooser = random.Random(n)
        players = game.min_players + n % (game.max_players - game.min_players + 1)
        played = start(game, players, options[n % len(options)], f"reasons-{n}")
        state, steps = played.state, list(played.steps)
        while not game.is_over(state):
            seat = chooser.choice(game.to_act(state))
            moves = game.legal_moves(state, seat)
            for move in moves:
                label = game.label(state, seat, move)
                _said_well(game.label_message(state, seat, move), label, used)
                # what answers with both make them from (LoadedGame.said_moves), in that order
                key, values = game.label_said(state, seat, move)
                assert game.texts.text(key, values) == label
                assert game.texts.say(key, **values) == game.label_message(state, seat, move)
            legal = [msgspec.to_builtins(m) for m in moves]
            for move in legal:
                examples.setdefault(move["type"], move)
                for field, value in move.items():
                    seen.setdefault(field, set()).add(
                        tuple(value) if isinstance(value, list) else value
                    )
            others = [s for s in range(players) if s not in game.to_act(state)]
            probes = [*_probes(game, legal, examples, seen, chooser), {"type": "noSuchMove"}]
            for exc in _refusals(game, state, seat, probes):
                assert isinstance(exc.localized, Message), exc
                _said_well(exc.localized, exc.message, used)
            for exc in _refusals(game, state, others[0], legal[:1]) if others else []:
                assert isinstance(exc.localized, Message)
                _said_well(exc.localized, exc.message, used)
            for entry in game.scores(state).entries:
                for item in entry.breakdown:
                    _said_well(said_detail(game, item.detail), item.detail, used)
            played = play(game, state, seat, chooser.choice(legal))
            state, steps = played.state, steps + played.steps
        for entry in game.scores(state).entries:
            for item in entry.breakdown:
                _said_well(said_detail(game, item.detail), item.detail, used)
        for step in steps:  # a history's labels are read back from their English
            _said_well(said_label(game, step.label), step.label, used)
        with pytest.raises(IllegalMove) as over:
            check(game, state, 0, legal[0])
        assert isinstance(over.value.localized, Message)
        _said_well(over.value.localized, over.value.message, used)
        if set(game.texts.entries) <= used:
            break
    own = set(game.texts.entries)
    assert own <= used, f"never said: {sorted(own - used)}"
    assert COMMON.namespace + ".history.verbatim" not in used, "a text no catalog says"


def test_the_shared_catalog_says_every_refusal_and_history_entry_the_service_writes() -> None:
    """Its refusal codes are REST's and GraphQL's public codes; its history entries are those
    service/core writes (resign, abandon, timeouts)."""
    codes = {i.split(".")[-1] for i in COMMON.entries if i.startswith("common.refused.")}
    assert codes == set(PROBLEMS)
    treelings = games()["TREELINGS"]
    for text, key in [
        ("seat 1 resigned", "history.resigned"),
        ("abandoned by its tenant", "history.abandoned"),
        ("seat 0 ran out of time", "history.ranOutOfTime"),
        ("timeout: takes the red", "history.timedOutMove"),
    ]:
        message = said_label(treelings, text)
        assert message.id == f"common.{key}", text
        assert is_pseudo(texts().render(message, PSEUDO))
    unknown = said_label(treelings, "an earlier release's words")
    assert unknown.id == "common.history.verbatim"
    assert texts().render(unknown) == "an earlier release's words"


def test_a_language_falls_back_to_english_and_is_negotiated_by_q() -> None:
    every = texts()
    assert every.negotiate(None) == every.negotiate("tlh") == ENGLISH
    assert every.negotiate("en-GB,en;q=0.8") == ENGLISH
    assert every.negotiate("tlh;q=0.9, en-XA;q=0.5") == PSEUDO
    assert every.negotiate("en-xa") == PSEUDO
    assert every.negotiate("en-XA;q=0, en") == ENGLISH
    message = COMMON.say("refusal.notYourTurn", seat=2)
    assert every.render(message, "tlh") == "seat 2 does not act now"


def test_the_pseudo_locale_keeps_placeholders_and_brackets_the_text() -> None:
    (template,) = COMMON.forms[PSEUDO]["common.reason.VALUE_NOT_ALLOWED"]
    assert is_pseudo(template)
    assert placeholders(template) == ["field", "value", "allowed"]
    literal = "".join(t for t, *_ in string.Formatter().parse(template))
    assert not set("aeiou") & set(literal), literal  # every letter accented
    english = COMMON.entries["common.reason.VALUE_NOT_ALLOWED"].template
    assert len(template) >= len(english) * 1.2


@pytest.mark.parametrize("kind", sorted(games()))
def test_french_says_every_label_of_the_game_with_its_nouns_in_french(kind: str) -> None:
    """Every game is in French, its nouns too: no label of a legal move in a few games' first
    turns is its English, nor holds an English noun of the game's catalog."""
    every = texts()
    assert every.negotiate("fr-CA, en;q=0.5") == "fr"
    game = games()[kind]
    catalog = game.texts
    nouns = {(kind_of, w) for kind_of, words in catalog.nouns.english.items() for w in words}
    assert set(catalog.nouns.translations["fr"]) == nouns, "every noun in French"
    for n in range(3):
        chooser = random.Random(n)
        played = start(game, game.min_players, TEXT_OPTIONS.get(kind, [{}])[0], f"fr-{n}")
        state = played.state
        for _ in range(12):
            if game.is_over(state):
                break
            seat = chooser.choice(game.to_act(state))
            moves = game.legal_moves(state, seat)
            for move in moves:
                message = game.label_message(state, seat, move)
                french = every.render(message, "fr")
                assert french != game.label(state, seat, move), french
                for param in message.params:
                    kind_of = catalog.entries[message.id].nouns.get(param.name)
                    if kind_of is None:
                        continue
                    for value in param.value.split(", "):
                        assert catalog.word(kind_of, value, "fr") in french, (message, french)
            state = play(game, state, seat, chooser.choice(moves)).state
    assert every.render(COMMON.say("refusal.notYourTurn", seat=1), "fr") == (
        "le siège 1 ne joue pas maintenant"
    )
    treelings = games()["TREELINGS"]
    label = treelings.texts.say("label.takeOne", colour="green")
    assert every.render(label, "fr") == "prend la carte de couleur verte"
