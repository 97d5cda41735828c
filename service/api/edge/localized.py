"""Every text an answer shows, as a message of a catalog in the language the request asks for
(docs/translating.md): shared by GraphQL and REST so both say the same.

Labels of legal moves come from the game as messages; a stored label (history) and a score
item's detail are English texts that the catalogs read back into their messages
(`Catalog.parse`); a refusal carries the engine's message, or gets its code's sentence.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

import msgspec
from babel import Locale, UnknownLocaleError

from service.engine import Game, Wire
from service.engine.texts import (
    COMMON,
    ENGLISH,
    PSEUDO,
    Catalog,
    Message,
    Said,
    Texts,
    pseudo,
)
from service.games import games
from service.refusals import Refused


@cache
def texts() -> Texts:
    """The shared catalog and every game's."""
    return Texts([COMMON, *(game.texts for game in games().values())])


def language(accept: str | None, argument: str | None = None) -> str:
    """The language to answer in: a `language` argument first, else Accept-Language; English
    when neither names a language the catalogs have."""
    return texts().negotiate(argument or accept)


@lru_cache(maxsize=16384)
def message_json(message: Message, language: str = ENGLISH) -> dict[str, Any]:
    """The message as both APIs give it. Cached (a Message is immutable, and the same labels
    and details come back on every read of a game): callers must not change the dict."""
    return {
        "id": message.id,
        "params": [{"name": p.name, "type": p.type, "value": p.value} for p in message.params],
        "text": texts().render(message, language),
    }


@lru_cache(maxsize=16384)
def message_raw(message: Message, language: str = ENGLISH) -> msgspec.Raw:
    """`message_json` encoded once, for answers encoded by msgspec (REST): the same bytes,
    without walking the dict on every read."""
    return msgspec.Raw(msgspec.json.encode(message_json(message, language)))


def said_raw(catalog: Catalog, said: Said, language: str = ENGLISH) -> msgspec.Raw:
    """A legal move's label message (`Game.label_said`, as `label_message` says it), encoded.
    Cached by the key and its values when each is a str or an int (as a label's almost always
    are), whose text is fixed by their value; any other value makes the message anew."""
    key, values = said
    items = tuple(values.items())
    if all(type(value) is str or type(value) is int for _, value in items):
        return _said_raw(catalog.namespace, key, items, language)
    return message_raw(catalog.say(key, **values), language)


@lru_cache(maxsize=16384)
def _said_raw(
    namespace: str, key: str, items: tuple[tuple[str, Any], ...], language: str
) -> msgspec.Raw:
    return message_raw(texts().catalogs[namespace].say(key, **dict(items)), language)


def said_label(game: Game[Any, Any], label: str) -> Message:
    """A history entry's stored English label as its message: a move's (the game's `label.`
    ids) or an entry the service wrote (`common.history.`); one no catalog says (an earlier
    release's wording) is `common.history.verbatim`."""
    return _said_label(game.texts.namespace, label)


@lru_cache(maxsize=16384)
def _said_label(namespace: str, label: str) -> Message:
    """Cached: a history is read back entry by entry on every read of it, and parsing tries
    the catalog's patterns one by one (a Message is immutable)."""
    places = [(namespace, "label."), (COMMON.namespace, "history.")]
    message = texts().parse(label, *places)
    return message if message is not None else COMMON.say("history.verbatim", text=label)


@lru_cache(maxsize=16384)
def label_raw(namespace: str, label: str, language: str = ENGLISH) -> msgspec.Raw:
    """`message_raw(said_label(...))` in one lookup by plain strings (a history read asks it
    for every entry; hashing a Message costs more than hashing its text)."""
    return message_raw(_said_label(namespace, label), language)


@lru_cache(maxsize=8192)
def detail_raw(namespace: str, detail: str, language: str = ENGLISH) -> msgspec.Raw:
    """`message_raw(said_detail(...))` in one lookup, as `label_raw`."""
    return message_raw(_said_detail(namespace, detail), language)


def said_detail(game: Game[Any, Any], detail: str) -> Message:
    """A score item's English detail as its message (the game's `score.` ids)."""
    return _said_detail(game.texts.namespace, detail)


@lru_cache(maxsize=8192)
def _said_detail(namespace: str, detail: str) -> Message:
    """Cached: the same items are scored on every read of a game (a Message is immutable)."""
    message = texts().parse(detail, (namespace, "score."))
    return message if message is not None else COMMON.say("history.verbatim", text=detail)


def refusal_message(refused: Refused, public_code: str) -> Message:
    """What a refusal says: the engine's message, else the sentence of its public code."""
    if isinstance(refused.localized, Message):
        return refused.localized
    return code_message(public_code)


def code_message(public_code: str) -> Message:
    key = f"refused.{public_code}"
    if f"{COMMON.namespace}.{key}" not in COMMON.entries:
        key = "refused.BAD_USER_INPUT"
    return COMMON.say(key)


class CatalogCoverage(Wire, kw_only=True):
    catalog: str  # the shared catalog, `common`, or a game's package name
    game: str | None  # the catalog's game kind; None for the shared catalog
    translated: int  # message ids the language says itself (the others fall back)
    total: int
    coverage: float  # translated / total


class Language(Wire, kw_only=True):
    tag: str  # as Accept-Language or `language` names it
    name: str  # in English
    native_name: str  # in the language itself
    pseudo: bool  # the pseudo-locale, made from English (docs/translating.md)
    translated: int
    total: int
    coverage: float
    catalogs: list[CatalogCoverage]


class Languages(Wire, kw_only=True):
    languages: list[Language]


def _share(translated: int, total: int) -> float:
    return round(translated / total, 4) if total else 1.0


def _names(tag: str) -> tuple[str, str]:
    if tag == PSEUDO:
        return "Pseudo-locale", pseudo("Pseudo-locale")
    try:
        locale = Locale.parse(tag, sep="-")
    except (UnknownLocaleError, ValueError):
        return tag, tag
    return locale.get_display_name("en") or tag, locale.get_display_name() or tag


@cache
def languages() -> Languages:
    """Each language the catalogs have, with the share of message ids it translates, overall
    and per catalog (a game's or the shared one); English and the pseudo-locale say them all."""
    every = texts()
    kinds = {game.texts.namespace: game.kind for game in games().values()}
    listed = []
    for tag in every.languages:
        by_catalog = [
            CatalogCoverage(
                catalog=namespace,
                game=kinds.get(namespace),
                translated=coverage.translated,
                total=coverage.total,
                coverage=_share(coverage.translated, coverage.total),
            )
            for namespace, coverage in every.coverage(tag).items()
        ]
        translated = sum(c.translated for c in by_catalog)
        total = sum(c.total for c in by_catalog)
        name, native = _names(tag)
        listed.append(
            Language(
                tag=tag,
                name=name,
                native_name=native,
                pseudo=tag == PSEUDO,
                translated=translated,
                total=total,
                coverage=_share(translated, total),
                catalogs=by_catalog,
            )
        )
    return Languages(languages=listed)
