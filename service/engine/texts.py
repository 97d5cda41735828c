"""Localizable text: a message is an id and typed parameters; its text comes from a
catalog, in the language a request asks for (docs/translating.md).

A catalog is a directory of gettext files beside the code that says the messages (read by
catalogs.py): `messages.pot` declares every id with its English template and the type of each
placeholder, each `<language>.po` translates them, and `nouns/` does the same for the game's
nouns (colours, cards, trees, places), which a placeholder's values are said with. Catalogs are
read and checked once, when the module that owns them is imported (the games load theirs as they
load their card data); nothing here does I/O after that, so a game stays pure. A message a
language lacks falls back to its primary language (`fr-CA` to `fr`), then to English; so does a
noun. The pseudo-locale `en-XA` is made from English at load: accented, lengthened, bracketed,
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
from collections.abc import Iterable, Mapping
from functools import partial
from pathlib import Path
from typing import Any

import msgspec

from service.engine.catalogs import (
    ENGLISH_PLURAL,
    PARAM_TYPES,
    CatalogError,
    Coverage,
    Entry,
    Nouns,
    Translation,
    placeholders,
    read_directory,
)

__all__ = ["PARAM_TYPES", "CatalogError", "Coverage", "Entry", "placeholders"]

ENGLISH = "en"
PSEUDO = "en-XA"  # the pseudo-locale: every text of it shows it went through a catalog
# What a LIST says when it holds nothing (common nouns of kind `empty`)
EMPTY_WORDS = ("none", "nothing")
NO_NOUNS = Nouns({}, {})


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


def fallbacks(language: str) -> list[str]:
    """Where a message or a noun of `language` is looked for, in order: the tag itself, its
    primary language, English (`fr-CA`: fr-CA, fr, en)."""
    chain = [language, language.split("-", 1)[0], ENGLISH]
    return list(dict.fromkeys(chain))


class Catalog:
    """One namespace's messages (a game's package name, or `common`), in every language found
    beside its messages.pot, plus the pseudo-locale, and the nouns its placeholders hold."""

    def __init__(
        self,
        namespace: str,
        english: Mapping[str, Entry],
        translations: Mapping[str, Translation],
        nouns: Nouns = NO_NOUNS,
    ) -> None:
        self.namespace = namespace
        self.entries = {f"{namespace}.{key}": entry for key, entry in english.items()}
        self.nouns = nouns
        # language -> id -> its forms (one, or one per plural category of the language)
        self.forms: dict[str, dict[str, tuple[str, ...]]] = {
            language: {f"{namespace}.{k}": forms for k, forms in t.forms.items()}
            for language, t in translations.items()
        }
        self.forms[PSEUDO] = {
            id_: tuple(pseudo(form) for form in e.forms()) for id_, e in self.entries.items()
        }
        self.plural = {language: t.plural for language, t in translations.items()}
        self.plural[PSEUDO] = self.plural[ENGLISH] = ENGLISH_PLURAL
        # by key without the namespace: the id, the declared types, the English template, the
        # LIST placeholders and the entry (`say` and `english` run for every label of every
        # answer)
        self._keys = {
            key: (
                f"{namespace}.{key}",
                e.params,
                e.template,
                [n for n, t in e.params.items() if t == "LIST"],
                e,
            )
            for key, e in english.items()
        }
        # longest literal text first: "takes the {colour}" is tried before "takes {count} {colour}"
        forms = [(id_, e, form) for id_, e in self.entries.items() for form in set(e.forms())]
        forms.sort(key=lambda item: -len(_literal(item[2])))
        self._patterns = [
            (id_, _pattern(form, e.params), e.params, list(dict.fromkeys(placeholders(form))))
            for id_, e, form in forms
        ]
        self._within = {
            (language, kind): _words_pattern(w for k, w in words if k == kind)
            for language, words in nouns.translations.items()
            for kind in nouns.english
        }

    @classmethod
    def load(cls, namespace: str, directory: Path) -> Catalog:
        source = read_directory(directory)
        return cls(namespace, source.entries, source.translations, source.nouns)

    def say(self, key: str, **values: Any) -> Message:
        """The message `key` (without the namespace) with its parameters, typed as declared."""
        id_, declared, _, _, _ = self._keys[key]
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
        _, _, template, lists, entry = self._keys[key]
        for name in lists:
            if type(values[name]) is not str:
                values[name] = _typed("LIST", values[name])
        if entry.plural is not None and ENGLISH_PLURAL(int(values[entry.plural_by or ""])):
            template = entry.plural
        return template.format_map(values)

    def render(self, message: Message, language: str = ENGLISH) -> str:
        """The message in `language`, or in the first of its fallbacks that says it; its nouns
        in the language of the words around them."""
        entry = self.entries[message.id]
        said, forms = ENGLISH, entry.forms()
        for candidate in fallbacks(language):
            found = self.forms.get(candidate, {}).get(message.id)
            if found is not None:
                said, forms = candidate, found
                break
        values = {p.name: p.value for p in message.params}
        template = forms[0]
        if len(forms) > 1:
            index = self.plural[said](int(values[entry.plural_by or ""]))
            template = forms[min(index, len(forms) - 1)]
        if said != ENGLISH:
            for p in message.params:
                kind = entry.nouns.get(p.name)
                if p.type == "LIST" and p.value in EMPTY_WORDS:
                    values[p.name] = COMMON.word("empty", p.value, said)
                elif kind is not None and p.type == "LIST":
                    words = [self.word(kind, v, said) for v in p.value.split(", ")]
                    values[p.name] = ", ".join(words)
                elif kind is not None:
                    values[p.name] = self.word(kind, p.value, said)
        return template.format_map(values)

    def word(self, kind: str, value: str, language: str) -> str:
        """A value of a noun placeholder in `language` (or its fallbacks): its translation,
        else the value with each noun of that kind it holds translated (`birch 2`)."""
        for candidate in fallbacks(language):
            words = self.nouns.translations.get(candidate)
            if not words:
                continue
            whole = words.get((kind, value))
            if whole is not None:
                return whole
            within = self._within.get((candidate, kind))
            if within is not None and within.search(value):
                return within.sub(partial(_noun, words, kind), value)
        return value

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
        return [ENGLISH, *self.forms, *self.nouns.translations]

    def coverage(self, language: str) -> Coverage:
        total = len(self.entries)
        if language == ENGLISH:
            return Coverage(total, total)
        return Coverage(len(self.forms.get(language, {})), total)


def _noun(words: Mapping[tuple[str, str], str], kind: str, found: re.Match[str]) -> str:
    return words[(kind, found[0])]


def _literal(template: str) -> str:
    return "".join(literal for literal, _, _, _ in string.Formatter().parse(template))


def _words_pattern(words: Iterable[str]) -> re.Pattern[str] | None:
    """Any of `words` standing as whole words, the longest first."""
    ordered = sorted(words, key=len, reverse=True)
    if not ordered:
        return None
    return re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, ordered)) + r")(?!\w)")


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

    def coverage(self, language: str) -> dict[str, Coverage]:
        """The share of each catalog's message ids `language` says itself, by namespace."""
        return {ns: c.coverage(language) for ns, c in self.catalogs.items()}

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


# The shared catalog: engine refusals, generic reasons, the service's own history entries,
# refusal codes and webhook summaries (service/engine/messages/messages.pot).
COMMON = Catalog.load("common", Path(__file__).parent / "messages")
