"""Message catalogs as gettext files, read with Babel and checked once, at load
(docs/translating.md).

A catalog directory holds `messages.pot`, the English source, and one `<language>.po` per
translation; its `nouns/` directory holds the game's nouns the same way (`nouns.pot` and
`<language>.po`). In the source, a message's id is its `msgctxt` (`label.takeOne`), its English
its `msgid` (and `msgid_plural`), and each placeholder is declared in an extracted comment:

    #. {count}: INT, plural
    #. {colour}: TEXT, noun colour

that is its type (INT, TEXT or LIST), the kind of noun its values are (`nouns.pot`'s `msgctxt`),
and whether it picks the plural form. A translation gives `msgstr` (or `msgstr[n]`, as many as
its language's Plural-Forms) for the `msgctxt` and `msgid` of the source; an empty or fuzzy one
is not translated yet. Anything else is a `CatalogError`, raised when the catalog loads.
"""

from __future__ import annotations

import gettext
import re
import string
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import NamedTuple

from babel.messages.catalog import Catalog as PoFile
from babel.messages.pofile import read_po

SOURCE = "messages.pot"
NOUNS = "nouns"  # the directory of a catalog's nouns, beside its messages
NOUNS_SOURCE = "nouns.pot"

# What a placeholder holds: a whole number, a word or phrase of the game's vocabulary (a colour,
# a card's name, a cell), or such words joined by ", " ("none" when empty).
PARAM_TYPES = ("INT", "TEXT", "LIST")
_DECLARATION = re.compile(r"\{(?P<name>\w+)\}: (?P<type>[A-Z]+)(?P<rest>(, [a-z]+( \w+)?)*)\s*\Z")


class CatalogError(ValueError):
    """A catalog file that does not say its messages right (found at load, never at a request)."""


class Entry(NamedTuple):
    """A message of the English source."""

    template: str  # English (the singular form of a plural message)
    params: Mapping[str, str]  # placeholder -> type
    plural: str | None = None  # English plural form
    plural_by: str | None = None  # the INT placeholder that picks the plural form
    nouns: Mapping[str, str] = {}  # placeholder -> the kind of noun its values are

    def forms(self) -> tuple[str, ...]:
        return (self.template,) if self.plural is None else (self.template, self.plural)


class Translation(NamedTuple):
    """One language's templates: each translated id's forms, and its plural rule."""

    forms: Mapping[str, tuple[str, ...]]
    plural: Callable[[int], int]  # n -> the index of the form to say


class Nouns(NamedTuple):
    """A catalog's nouns: each kind's English words, and each language's words for them."""

    english: Mapping[str, frozenset[str]]  # kind -> words
    translations: Mapping[str, Mapping[tuple[str, str], str]]  # language -> (kind, word) -> word


class Coverage(NamedTuple):
    translated: int  # message ids a language says itself
    total: int


class Source(NamedTuple):
    entries: dict[str, Entry]  # by key, without the namespace
    translations: dict[str, Translation]  # by language tag
    nouns: Nouns


def placeholders(template: str) -> list[str]:
    """The names of `template`'s placeholders, in order (each `{name}`, no format spec)."""
    names = []
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError as exc:
        raise CatalogError(f"{template!r}: {exc} (write {{{{ and }}}} for a brace)") from exc
    for _, name, spec, conversion in parsed:
        if name is None:
            continue
        if not name.isidentifier() or spec or conversion:
            raise CatalogError(f"placeholder {{{name}}} in {template!r}: a bare name only")
        names.append(name)
    return names


def _read(path: Path) -> PoFile:
    try:
        with path.open("rb") as file:
            return read_po(file, abort_invalid=True)
    except CatalogError:
        raise
    except Exception as exc:  # Babel's PoFileError, a bad encoding, a bad Plural-Forms
        raise CatalogError(f"{path}: {exc}") from exc


def _declared(path: Path, key: str, comments: list[str]) -> dict[str, tuple[str, str | None, bool]]:
    """The placeholders a source message declares: name -> (type, noun kind, plural)."""
    declared = {}
    for comment in comments:
        if not comment.startswith("{"):
            continue  # a note for translators
        found = _DECLARATION.match(comment)
        if found is None or found["type"] not in PARAM_TYPES:
            raise CatalogError(f"{path}: {key}: {comment!r} is not `{{name}}: TYPE[, noun kind]`")
        kind, plural = None, False
        for part in filter(None, found["rest"].split(", ")):
            word, _, value = part.partition(" ")
            if word == "noun" and value:
                kind = value
            elif part == "plural" and found["type"] == "INT":
                plural = True
            else:
                raise CatalogError(f"{path}: {key}: {part!r} (noun <kind>, or plural on an INT)")
        declared[found["name"]] = (found["type"], kind, plural)
    return declared


def read_source(path: Path, kinds: frozenset[str]) -> dict[str, Entry]:
    """The English messages of a `messages.pot`; `kinds` are the noun kinds they may name."""
    entries = {}
    for message in _read(path):
        if not message.id:
            continue  # the header
        key = message.context
        if not key:
            raise CatalogError(f"{path}:{message.lineno}: a message needs its id as msgctxt")
        if key in entries:
            raise CatalogError(f"{path}: {key} twice")
        declared = _declared(path, key, message.auto_comments)
        forms = _forms(message.id)
        for form in forms:
            if set(placeholders(form)) != set(declared):
                raise CatalogError(f"{path}: {key} declares {sorted(declared)}, says {form!r}")
        counts = [name for name, (_, _, plural) in declared.items() if plural]
        if len(forms) == 2 and len(counts) != 1:
            raise CatalogError(f"{path}: {key} is plural: one INT placeholder is `plural`")
        if len(forms) == 1 and counts:
            raise CatalogError(f"{path}: {key} has a `plural` placeholder but no msgid_plural")
        nouns = {name: kind for name, (_, kind, _) in declared.items() if kind is not None}
        if set(nouns.values()) - kinds:
            raise CatalogError(f"{path}: {key} names a noun kind nouns.pot lacks: {nouns}")
        entries[key] = Entry(
            forms[0],
            {name: type_ for name, (type_, _, _) in declared.items()},
            forms[1] if len(forms) == 2 else None,
            counts[0] if counts else None,
            nouns,
        )
    return entries


def _forms(said: object) -> tuple[str, ...]:
    """A Babel message's id or string as its forms (one, or one per plural form)."""
    if isinstance(said, list | tuple):
        return tuple(str(form) for form in said)
    return (said,) if isinstance(said, str) else ()


def _translated(message_string: object, fuzzy: bool) -> tuple[str, ...] | None:
    forms = _forms(message_string)
    return None if fuzzy or not forms or not all(forms) else forms


def read_translation(path: Path, english: Mapping[str, Entry]) -> Translation:
    """A `<language>.po`: the source's messages it translates, each with the source's
    placeholders (a plural form may leave out the count it is chosen by)."""
    po = _read(path)
    forms = {}
    for message in po:
        if not message.id:
            continue
        key = message.context or ""
        entry = english.get(key)
        if entry is None:
            raise CatalogError(f"{path}: {key!r} is not an id of {SOURCE}")
        source = _forms(message.id)
        if source != entry.forms():
            raise CatalogError(f"{path}: {key}'s msgid is not {SOURCE}'s: update it from there")
        said = _translated(message.string, message.fuzzy)
        if said is None:
            continue
        wanted = po.num_plurals if entry.plural is not None else 1
        if len(said) != wanted:
            raise CatalogError(f"{path}: {key} needs {wanted} form(s), has {len(said)}")
        for form in said:
            used = set(placeholders(form))
            needed = set(entry.params) - ({entry.plural_by} if len(said) > 1 else set())
            if not needed <= used <= set(entry.params):
                raise CatalogError(f"{path}: {key} must use {sorted(entry.params)}: {form!r}")
        forms[key] = said
    try:
        rule = gettext.c2py(po.plural_expr)
    except ValueError as exc:
        raise CatalogError(f"{path}: Plural-Forms {po.plural_expr!r}: {exc}") from exc
    return Translation(forms, rule)


def read_nouns(directory: Path) -> Nouns:
    """A catalog's `nouns/`: `nouns.pot` (msgctxt the kind, msgid the English word) and its
    translations. No directory: no nouns."""
    source = directory / NOUNS_SOURCE
    if not source.exists():
        return Nouns({}, {})
    english: dict[str, set[str]] = {}
    for message in _read(source):
        if message.id:
            if not message.context or not isinstance(message.id, str):
                raise CatalogError(f"{source}: {message.id!r}: a noun has a kind and one form")
            english.setdefault(message.context, set()).add(message.id)
    translations = {}
    for path in sorted(directory.glob("*.po")):
        words = {}
        for message in _read(path):
            if not message.id:
                continue
            if message.id not in english.get(message.context or "", ()):
                raise CatalogError(f"{path}: {message.context} {message.id!r} is not in nouns.pot")
            said = _translated(message.string, message.fuzzy)
            if said is not None:
                words[(message.context or "", str(message.id))] = said[0]
        translations[path.stem] = words
    return Nouns({kind: frozenset(words) for kind, words in english.items()}, translations)


def read_directory(directory: Path) -> Source:
    nouns = read_nouns(directory / NOUNS)
    entries = read_source(directory / SOURCE, frozenset(nouns.english))
    translations = {
        path.stem: read_translation(path, entries) for path in sorted(directory.glob("*.po"))
    }
    return Source(entries, translations, nouns)


ENGLISH_PLURAL: Callable[[int], int] = gettext.c2py("(n != 1)")
