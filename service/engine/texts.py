"""Localizable text: a message is an id and typed parameters; its text comes from a
catalog, in the language a request asks for (docs/translating.md).

A catalog is a directory of TOML files beside the code that says the messages: `en.toml` declares
every id with its English template and the type of each placeholder, and each other `<language>.toml`
gives templates only. Catalogs are read and checked once, when the module that owns them is
imported (the games load theirs as they load their card data); nothing here does I/O after that,
so a game stays pure. English is the fallback of every language and of every id a language
lacks. The pseudo-locale `en-XA` is made from English at load: accented, lengthened, bracketed,
with the placeholders left as they are, so a test can tell text that went through a catalog
from text that did not.

The English text of a label or a score detail is stored and shown as it always was; `parse`
reads such a text back into its message (the English templates are unambiguous, and a test
plays every game to hold that true), which is how a stored history entry or a score item gets
its message without a second stored form.
"""

from __future__ import annotations

import re
import string
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

import msgspec

ENGLISH = "en"
PSEUDO = "en-XA"  # the pseudo-locale: every text of it shows it went through a catalog

# What a placeholder holds: a whole number, a word or phrase of the game's vocabulary (a colour,
# a card's name, a cell) kept as it is, or such words joined by ", " ("none" when empty).
PARAM_TYPES = ("INT", "TEXT", "LIST")


class Param(msgspec.Struct, frozen=True, rename="camel"):
    name: str
    type: str  # one of PARAM_TYPES
    value: str  # as the text shows it


class Message(msgspec.Struct, frozen=True, rename="camel"):
    id: str
    params: tuple[Param, ...] = ()


# What a game's label function gives: a catalog key (without the namespace) and its values, for
# `Catalog.english` (the English-only fields) or `Catalog.say` (the message)
Said = tuple[str, dict[str, Any]]


class Entry(NamedTuple):
    template: str  # English
    params: Mapping[str, str]  # placeholder -> type


class CatalogError(ValueError):
    """A catalog file that does not say its messages right (found at load, never at a request)."""


def placeholders(template: str) -> list[str]:
    """The names of `template`'s placeholders, in order (each `{name}`, no format spec)."""
    names = []
    for _, name, spec, conversion in string.Formatter().parse(template):
        if name is None:
            continue
        if not name.isidentifier() or spec or conversion:
            raise CatalogError(f"placeholder {{{name}}} in {template!r}: a bare name only")
        names.append(name)
    return names


def _flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """TOML tables as dotted ids: `[label] takeColour = ...` is `label.takeColour`. A table with
    a `text` string is an English entry, not a section."""
    flat: dict[str, Any] = {}
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and not isinstance(value.get("text"), str):
            flat.update(_flatten(value, name + "."))
        else:
            flat[name] = value
    return flat


def _english(path: Path) -> dict[str, Entry]:
    entries = {}
    for key, value in _flatten(tomllib.loads(path.read_text("utf-8"))).items():
        if isinstance(value, str):
            value = {"text": value}
        if not isinstance(value, dict) or set(value) - {"text", "params"}:
            raise CatalogError(f"{path}: {key} must be a string or {{ text, params }}")
        params = dict(value.get("params", {}))
        if set(placeholders(value["text"])) != set(params):
            raise CatalogError(f"{path}: {key} declares {sorted(params)}, says {value['text']!r}")
        if any(kind not in PARAM_TYPES for kind in params.values()):
            raise CatalogError(f"{path}: {key} has a parameter type outside {PARAM_TYPES}")
        entries[key] = Entry(value["text"], params)
    return entries


def _translation(path: Path, english: Mapping[str, Entry]) -> dict[str, str]:
    templates = _flatten(tomllib.loads(path.read_text("utf-8")))
    for key, template in templates.items():
        if key not in english:
            raise CatalogError(f"{path}: {key} is not an id of en.toml")
        if not isinstance(template, str):
            raise CatalogError(f"{path}: {key} must be a string")
        if set(placeholders(template)) != set(english[key].params):
            raise CatalogError(f"{path}: {key} must use {sorted(english[key].params)}")
    return templates


_ACCENTS = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "àƀçđéƒĝĥîĵķĺɱñöþǫŕšţûṽŵẋýžÀƁÇĐÉƑĜĤÎĴĶĹṀÑÖÞǪŔŠŢÛṼŴẊÝŽ",
)
PSEUDO_OPEN, PSEUDO_CLOSE = "⟦", "⟧"


def pseudo(template: str) -> str:
    """The pseudo-locale's template: letters accented, vowels doubled (about 30% longer, as many
    languages are), bracketed; placeholders and literal braces left intact."""
    parts = []
    for literal, name, _, _ in string.Formatter().parse(template):
        text = literal.replace("{", "{{").replace("}", "}}")
        text = re.sub(r"([aeiouAEIOU])", r"\1\1", text)
        parts.append(text.translate(_ACCENTS))
        if name is not None:
            parts.append("{" + name + "}")
    return PSEUDO_OPEN + "".join(parts) + PSEUDO_CLOSE


def is_pseudo(text: str) -> bool:
    return text.startswith(PSEUDO_OPEN) and text.endswith(PSEUDO_CLOSE)


def _typed(kind: str, value: Any) -> str:
    if kind == "LIST" and not isinstance(value, str):
        return ", ".join(str(v) for v in value) or "none"
    return str(value)


def _pattern(template: str, params: Mapping[str, str]) -> re.Pattern[str]:
    regex = []
    for literal, name, _, _ in string.Formatter().parse(template):
        regex.append(re.escape(literal))
        if name is not None:
            body = r"-?\d+" if params[name] == "INT" else r".+?"
            regex.append(f"(?P<{name}>{body})")
    return re.compile("".join(regex) + r"\Z", re.DOTALL)


class Catalog:
    """One namespace's messages (a game's package name, or `common`), in every language found
    beside its en.toml, plus the pseudo-locale."""

    def __init__(
        self,
        namespace: str,
        english: Mapping[str, Entry],
        translations: Mapping[str, Mapping[str, str]],
    ) -> None:
        self.namespace = namespace
        self.entries = {f"{namespace}.{key}": entry for key, entry in english.items()}
        english_templates = {id_: e.template for id_, e in self.entries.items()}
        self.templates: dict[str, dict[str, str]] = {ENGLISH: english_templates}
        for language, templates in translations.items():
            self.templates[language] = {f"{namespace}.{k}": t for k, t in templates.items()}
        self.templates[PSEUDO] = {id_: pseudo(t) for id_, t in english_templates.items()}
        # by key without the namespace: the id, the declared types, the English template and
        # the LIST placeholders (`say` and `english` run for every label of every answer)
        self._keys = {
            key: (
                f"{namespace}.{key}",
                e.params,
                e.template,
                [n for n, t in e.params.items() if t == "LIST"],
            )
            for key, e in english.items()
        }
        # longest literal text first: "takes the {colour}" is tried before "takes {count} {colour}"
        ordered = sorted(self.entries.items(), key=lambda item: -len(_literal(item[1].template)))
        self._patterns = [
            (
                id_,
                _pattern(e.template, e.params),
                e.params,
                list(dict.fromkeys(placeholders(e.template))),
            )
            for id_, e in ordered
        ]

    @classmethod
    def load(cls, namespace: str, directory: Path) -> Catalog:
        english = _english(directory / "en.toml")
        translations = {
            path.stem: _translation(path, english)
            for path in sorted(directory.glob("*.toml"))
            if path.stem not in (ENGLISH, PSEUDO)
        }
        return cls(namespace, english, translations)

    def say(self, key: str, **values: Any) -> Message:
        """The message `key` (without the namespace) with its parameters, typed as declared."""
        id_, declared, _, _ = self._keys[key]
        params = [
            Param(n, declared[n], v if type(v) is str else _typed(declared[n], v))
            for n, v in values.items()
        ]
        return Message(id_, tuple(params))

    def english(self, key: str, **values: Any) -> str:
        """`say(key, **values)` as English text (what the English-only fields show), without
        making the message: this runs for every label and score item of every answer."""
        return self.text(key, values)

    def text(self, key: str, values: dict[str, Any]) -> str:
        """`english` of a key and values as a game's label function gives them (`Said`)."""
        _, _, template, lists = self._keys[key]
        for name in lists:
            if type(values[name]) is not str:
                values[name] = _typed("LIST", values[name])
        return template.format_map(values)

    def render(self, message: Message, language: str = ENGLISH) -> str:
        templates = self.templates.get(language) or self.templates[ENGLISH]
        template = templates.get(message.id) or self.templates[ENGLISH][message.id]
        return template.format_map({p.name: p.value for p in message.params})

    def parse(self, text: str, section: str = "") -> Message | None:
        """The message of `section` (e.g. `label.`) whose English text is `text`, if this
        catalog says it."""
        prefix = f"{self.namespace}.{section}"
        for id_, pattern, params, names in self._patterns:
            if not id_.startswith(prefix):
                continue
            found = pattern.match(text)
            if found is not None:
                values = found.groupdict()
                return Message(id_, tuple(Param(n, params[n], values[n]) for n in names))
        return None

    def languages(self) -> list[str]:
        return list(self.templates)


def _literal(template: str) -> str:
    return "".join(literal for literal, _, _, _ in string.Formatter().parse(template))


class Texts:
    """Every catalog of the service, to render any message by its id's namespace."""

    def __init__(self, catalogs: Iterable[Catalog]) -> None:
        self.catalogs = {c.namespace: c for c in catalogs}
        self.languages = sorted({lang for c in self.catalogs.values() for lang in c.languages()})

    def catalog(self, message_id: str) -> Catalog:
        return self.catalogs[message_id.split(".", 1)[0]]

    def render(self, message: Message, language: str = ENGLISH) -> str:
        return self.catalog(message.id).render(message, language)

    def parse(self, text: str, *places: tuple[str, str]) -> Message | None:
        """`text` read back as a message of the first of `places` (namespace, section) that
        says it."""
        for namespace, section in places:
            message = self.catalogs[namespace].parse(text, section)
            if message is not None:
                return message
        return None

    def negotiate(self, accept: str | None) -> str:
        """The language to answer in, from an Accept-Language value or a `language` argument:
        the supported language with the highest q (an exact tag, else its primary language, so
        `en-GB` is English), English when none is supported."""
        if not accept:
            return ENGLISH
        ranked = []
        for index, part in enumerate(accept.split(",")[:20]):
            tag, _, rest = part.strip().partition(";")
            q = 1.0
            match = re.search(r"q=([0-9.]+)", rest)
            if match:
                try:
                    q = float(match.group(1))
                except ValueError:
                    q = 0.0
            ranked.append((-q, index, tag.strip()))
        by_lower = {lang.lower(): lang for lang in self.languages}
        for negative_q, _, tag in sorted(ranked):
            if negative_q >= 0:
                break
            lowered = tag.lower()
            if lowered in by_lower:
                return by_lower[lowered]
            primary = lowered.split("-", 1)[0]
            if primary in by_lower:
                return by_lower[primary]
        return ENGLISH


# The shared catalog: engine refusals, generic reasons, the service's own history entries and
# refusal codes (service/engine/messages/en.toml).
COMMON = Catalog.load("common", Path(__file__).parent / "messages")
