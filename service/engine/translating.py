"""The translator's check (docs/translating.md): `python -m service.engine.translating
[DIRECTORY...]` reads every catalog directory as the service reads it (the shipped ones by
default), says what is wrong and where, and prints each language's coverage."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

from service.engine.catalogs import CatalogError, Coverage, read_directory


def directories() -> list[Path]:
    """The shipped catalogs: the shared one and each game's."""
    engine = Path(__file__).parent
    return [engine / "messages", *sorted(engine.parent.glob("games/*/messages"))]


def check(catalogs: Iterable[Path]) -> dict[str, dict[Path, Coverage]]:
    """The translator's check: every catalog directory read as the service reads it (a
    CatalogError says what is wrong and where), and each language's coverage of each."""
    sources = {directory: read_directory(directory) for directory in catalogs}
    languages = {language for s in sources.values() for language in s.translations}
    return {
        language: {
            directory: Coverage(
                len(s.translations[language].forms) if language in s.translations else 0,
                len(s.entries),
            )
            for directory, s in sources.items()
        }
        for language in sorted(languages)
    }


def main(arguments: list[str]) -> int:
    """`python -m service.engine.catalogs [DIRECTORY...]`: check the catalogs (the shipped ones
    by default) and print each language's coverage."""
    try:
        report = check([Path(a) for a in arguments] or directories())
    except CatalogError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for language, by_directory in report.items():
        translated = sum(c.translated for c in by_directory.values())
        total = sum(c.total for c in by_directory.values())
        print(f"{language}: {translated}/{total} messages")
        for directory, c in by_directory.items():
            print(f"  {directory}: {c.translated}/{c.total}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
