"""Message catalogs as gettext files (service/engine/catalogs.py, texts.py; docs/translating.md):
what a translator may and may not write, plural forms, nouns, the fallback of a message a
language lacks, the translator's check for a new language, and the ids the code says."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from babel import Locale
from babel.messages.pofile import read_po, write_po

from service.api.edge.localized import texts
from service.api.edge.problems import PROBLEMS
from service.engine.catalogs import CatalogError, placeholders
from service.engine.texts import COMMON, ENGLISH, PSEUDO, Catalog, Texts, is_pseudo
from service.engine.translating import check, directories
from service.games import games

ROOT = Path(__file__).parents[2]
HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'


def _po(language: str | None, body: str) -> str:
    if language is None:
        return HEADER + "\n" + body
    plural = {"fr": "nplurals=2; plural=(n > 1);", "de": "nplurals=2; plural=(n != 1);"}
    forms = f'"Language: {language}\\n"\n"Plural-Forms: {plural.get(language[:2], "")}\\n"\n'
    return HEADER + forms + "\n" + body


SOURCE = """
#. {count}: INT, plural
#. {colour}: TEXT, noun colour
msgctxt "label.take"
msgid "takes {count} {colour}"
msgid_plural "takes {count} {colour}"
msgstr[0] ""
msgstr[1] ""

#. {colours}: LIST, noun colour
msgctxt "label.each"
msgid "takes one each of {colours}"
msgstr ""

#. {card}: TEXT, noun colour
msgctxt "label.card"
msgid "plays {card}"
msgstr ""

msgctxt "label.pass"
msgid "passes"
msgstr ""
"""
NOUNS = """
msgctxt "colour"
msgid "red"
msgstr ""

msgctxt "colour"
msgid "blue"
msgstr ""
"""
FRENCH = """
msgctxt "label.take"
msgid "takes {count} {colour}"
msgid_plural "takes {count} {colour}"
msgstr[0] "prend {count} carte {colour}"
msgstr[1] "prend {count} cartes {colour}"

msgctxt "label.each"
msgid "takes one each of {colours}"
msgstr "prend une de chaque : {colours}"

msgctxt "label.card"
msgid "plays {card}"
msgstr "joue {card}"
"""
FRENCH_NOUNS = """
msgctxt "colour"
msgid "red"
msgstr "rouge"

msgctxt "colour"
msgid "blue"
msgstr "bleue"
"""


def _catalog(directory: Path, files: dict[str, str]) -> Catalog:
    for name, text in files.items():
        (directory / name).parent.mkdir(parents=True, exist_ok=True)
        (directory / name).write_text(text, "utf-8")
    return Catalog.load("toy", directory)


def _toy(directory: Path, **more: str) -> Catalog:
    files = {
        "messages.pot": _po(None, SOURCE),
        "nouns/nouns.pot": _po(None, NOUNS),
        "fr.po": _po("fr", FRENCH),
        "nouns/fr.po": _po("fr", FRENCH_NOUNS),
    }
    return _catalog(directory, {**files, **more})


def test_a_plural_message_takes_the_form_its_language_picks(tmp_path: Path) -> None:
    toy = _toy(tmp_path)
    assert toy.english("label.take", count=1, colour="red") == "takes 1 red"
    assert toy.english("label.take", count=3, colour="red") == "takes 3 red"
    assert toy.render(toy.say("label.take", count=1, colour="red"), "fr") == "prend 1 carte rouge"
    assert toy.render(toy.say("label.take", count=0, colour="red"), "fr") == "prend 0 carte rouge"
    said = toy.say("label.take", count=2, colour="blue")
    assert toy.render(said, "fr") == "prend 2 cartes bleue"
    assert toy.render(said) == "takes 2 blue"
    assert toy.parse("takes 2 blue") == said  # an English text reads back as its message


def test_nouns_are_said_in_the_language_of_the_words_around_them(tmp_path: Path) -> None:
    toy = _toy(tmp_path)
    each = toy.say("label.each", colours=["red", "blue"])
    assert toy.render(each, "fr") == "prend une de chaque : rouge, bleue"
    assert toy.render(each, ENGLISH) == "takes one each of red, blue"
    none = toy.say("label.each", colours=[])
    assert toy.render(none, "fr") == "prend une de chaque : aucun"  # a common noun
    # a value the nouns do not hold whole has each noun it holds translated
    assert toy.render(toy.say("label.card", card="red 7"), "fr") == "joue rouge 7"
    assert toy.render(toy.say("label.card", card="reddish 7"), "fr") == "joue reddish 7"
    # a message French lacks is English, nouns and all; the pseudo-locale keeps the values
    assert toy.render(toy.say("label.pass"), "fr") == "passes"
    pseudo = toy.render(each, PSEUDO)
    assert is_pseudo(pseudo) and pseudo.endswith("red, blue⟧"), pseudo


def test_a_regional_language_falls_back_to_its_primary_language_then_english(
    tmp_path: Path,
) -> None:
    canadian = """
msgctxt "label.card"
msgid "plays {card}"
msgstr "joue la carte {card}"
"""
    toy = _toy(tmp_path, **{"fr-CA.po": _po("fr-CA", canadian)})
    every = Texts([COMMON, toy])
    assert every.negotiate("fr-CA") == "fr-CA"
    assert every.negotiate("fr-BE, en;q=0.5") == "fr"
    assert every.negotiate("de-AT, fr-CA;q=0.4") == "fr-CA"
    card = toy.say("label.card", card="red")
    assert every.render(card, "fr-CA") == "joue la carte rouge"  # its own
    assert every.render(toy.say("label.each", colours=["red"]), "fr-CA") == (
        "prend une de chaque : rouge"  # French's
    )
    assert every.render(toy.say("label.pass"), "fr-CA") == "passes"  # English's
    assert toy.coverage("fr-CA") == (1, 4) and toy.coverage("fr") == (3, 4)
    shipped = texts()
    assert shipped.negotiate("fr-CA") == "fr"
    assert shipped.render(COMMON.say("refusal.notYourTurn", seat=1), "fr-CA") == (
        "le siège 1 ne joue pas maintenant"
    )


@pytest.mark.parametrize(
    ("files", "complaint"),
    [
        (
            {"messages.pot": _po(None, SOURCE.replace("#. {card}: TEXT", "#. {cards}: TEXT"))},
            "declares",
        ),
        ({"messages.pot": _po(None, SOURCE.replace("INT, plural", "INT"))}, "plural"),
        ({"messages.pot": _po(None, SOURCE.replace("noun colour", "noun shape"))}, "noun kind"),
        ({"messages.pot": _po(None, SOURCE.replace("TEXT, noun colour", "WORD"))}, "TYPE"),
        ({"messages.pot": _po(None, SOURCE.replace('msgctxt "label.pass"\n', ""))}, "msgctxt"),
        ({"fr.po": _po("fr", FRENCH.replace("joue {card}", "joue {carte}"))}, "must use"),
        ({"fr.po": _po("fr", FRENCH.replace("label.card", "label.cards"))}, "not an id"),
        ({"fr.po": _po("fr", FRENCH.replace('"plays {card}"', '"plays the {card}"'))}, "msgid"),
        ({"fr.po": _po("fr", FRENCH.replace('msgstr[1] "prend', 'msgstr[2] "prend'))}, "plural"),
        ({"fr.po": _po("fr", FRENCH.replace("carte {colour}", "carte {colour"))}, "brace"),
        ({"nouns/fr.po": _po("fr", FRENCH_NOUNS.replace('"red"', '"green"'))}, "nouns.pot"),
    ],
)
def test_a_catalog_that_does_not_say_its_messages_right_is_refused_at_load(
    tmp_path: Path, files: dict[str, str], complaint: str
) -> None:
    with pytest.raises(CatalogError, match=complaint):
        _toy(tmp_path, **files)


def test_an_untranslated_or_fuzzy_message_is_not_translated(tmp_path: Path) -> None:
    fuzzy = FRENCH.replace('msgctxt "label.card"', '#, fuzzy\nmsgctxt "label.card"')
    toy = _toy(tmp_path, **{"fr.po": _po("fr", fuzzy.replace('"prend une de chaque', '"'))})
    assert toy.render(toy.say("label.card", card="red"), "fr") == "plays red"
    assert toy.coverage("fr") == (2, 4)


def _german(directory: Path, broken: bool = False) -> int:
    """German for every other message of the catalog in `directory`, and every noun, as a
    translator makes it with Babel (`pybabel init`): the number of messages translated."""
    translated = 0
    for source, target in [("messages.pot", "de.po"), ("nouns/nouns.pot", "nouns/de.po")]:
        if not (directory / source).exists():
            continue
        with (directory / source).open("rb") as file:
            po = read_po(file)
        po.locale = Locale.parse("de")
        for index, message in enumerate(po):
            if not message.id or (target == "de.po" and index % 2):
                continue
            forms = message.id if isinstance(message.id, tuple) else (message.id,)
            german = [f"[de] {form}" for form in forms]
            if broken:
                german = [form.replace("}", "_}") if "{" in form else form for form in german]
            message.string = tuple(german) if isinstance(message.id, tuple) else german[0]
            translated += target == "de.po"
        with (directory / target).open("wb") as file:
            write_po(file, po)
    return translated


def test_a_new_language_passes_the_translators_check(tmp_path: Path) -> None:
    """docs/translating.md, "Adding a language": German as a translator adds it, in a copy of
    the shipped catalogs, is checked, counted and said, with English for what it lacks."""
    copies, translated = [], 0
    for index, directory in enumerate(directories()):
        copy = tmp_path / str(index)
        shutil.copytree(directory, copy)
        translated += _german(copy)
        copies.append(copy)
    report = check(copies)
    assert set(report) == {"de", "fr"}
    assert sum(c.translated for c in report["de"].values()) == translated
    assert sum(c.total for c in report["de"].values()) == sum(
        c.total for c in report["fr"].values()
    )
    run = subprocess.run(
        [sys.executable, "-m", "service.engine.translating", *map(str, copies)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert f"de: {translated}/" in run.stdout
    common = Catalog.load("common", copies[0])
    every = Texts([common])
    assert "de" in every.languages and every.negotiate("de-AT, fr;q=0.5") == "de"
    german = [
        common.render(common.say(id_.split(".", 1)[1], **_values(e.params)), "de")
        for id_, e in common.entries.items()
    ]
    assert any(t.startswith("[de] ") for t in german)
    assert any(not t.startswith("[de] ") for t in german)  # English for what it lacks
    _german(copies[1], broken=True)
    refused = subprocess.run(
        [sys.executable, "-m", "service.engine.translating", *map(str, copies)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode == 1 and "de.po" in refused.stderr, refused.stderr


def _values(params: Any) -> dict[str, Any]:
    return {name: 1 if kind == "INT" else "x" for name, kind in params.items()}


# --- every id the code says, in every shipped catalog ---------------------------------------

SECTIONS = ("label.", "reason.", "score.", "refusal.", "history.", "refused.", "webhook.")


Given = tuple[bool, frozenset[str]]  # (all of them, the parameter names the code gives)


def _said_in_code() -> dict[tuple[str, str], set[Given]]:
    """(namespace, key) -> the parameters the code gives it: all of them at a `say` or an
    `english`, some at a label's (key, values) (a game may add the seat to all of its labels)."""
    said: dict[tuple[str, str], set[Given]] = {}
    for path in sorted((ROOT / "service").rglob("*.py")):
        parts = path.relative_to(ROOT / "service").parts
        namespace = parts[1] if parts[0] == "games" and len(parts) > 2 else "common"
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            key: object = None
            names: Given | None = None
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                if node.func.attr in ("say", "english") and node.args:
                    first = node.args[0]
                    if isinstance(first, ast.Constant) and isinstance(first.value, str):
                        key = first.value
                        names = (True, frozenset(k.arg for k in node.keywords if k.arg))
            elif isinstance(node, ast.Tuple) and len(node.elts) == 2:
                first, second = node.elts
                if isinstance(first, ast.Constant) and isinstance(second, ast.Dict):
                    key = first.value
                    names = (False, frozenset(k.value for k in second.keys if k is not None))
            elif isinstance(node, ast.IfExp):
                for branch in (node.body, node.orelse):
                    value = branch.value if isinstance(branch, ast.Constant) else None
                    if isinstance(value, str) and value.startswith(SECTIONS):
                        said.setdefault((namespace, value), set())
            if isinstance(key, str) and key.startswith(SECTIONS) and names is not None:
                said.setdefault((namespace, key), set()).add(names)
    for game in games().values():  # reasons are named by the games' tables (explain.py)
        for tag, fields in game.reasons:
            key = f"reason.{tag}" + (f".{','.join(fields)}" if fields else "")
            said.setdefault((game.texts.namespace, key), set())
    for code in PROBLEMS:
        said.setdefault(("common", f"refused.{code}"), set()).add((True, frozenset()))
    return said


def test_every_message_id_the_code_says_is_in_every_shipped_catalog_with_its_params() -> None:
    """A catalog ships the languages of its .po files: each says every id, with its params."""
    every = texts()
    assert all("fr" in catalog.forms for catalog in every.catalogs.values())
    said = _said_in_code()
    assert len(said) > 100, "the scan finds the code's messages"
    for (namespace, key), calls in sorted(said.items()):
        catalog = every.catalogs[namespace]
        id_ = f"{namespace}.{key}"
        assert id_ in catalog.entries, f"{id_} is said in code but not in messages.pot"
        declared = set(catalog.entries[id_].params)
        for every_one, names in calls:
            assert names == declared if every_one else names <= declared, (id_, names, declared)
        for language in set(catalog.forms) - {PSEUDO}:
            forms = catalog.forms[language].get(id_)
            assert forms is not None, f"{language} does not translate {id_}"
            entry = catalog.entries[id_]
            for form in forms:
                used = set(placeholders(form))
                assert declared - {entry.plural_by} <= used <= declared, (language, id_, form)
