"""Scaffold a new game: `make new-game NAME=oak_grove TITLE="Oak Grove"` (docs/architecture.md,
"Adding a game").

Writes, from the templates in tools/new_game/, a complete and playable toy game (two face-down
piles of acorns, some golden; a seat takes one or two from a pile or passes once; the tokens
score, and so does the last one) that the author then turns into the real one:

- service/games/<name>/: the package (`__init__.py`, `game.py`, `rules.py`, `messages/messages.pot`);
- docs/rules/<name>.md: the rules doc, with the "Refusals" and "View fields" tables the tests read;
- tests/games/<name>/: the conformance suite, a test per toy rule, and `twin.py`, the twin the
  hidden-information proofs (tests/security/hidden.py) and the bots' tests compare with;
- its new GameKind value in schema/allowed-dangerous-changes.txt.

Nothing else needs registering: `service.games.games()` finds the package, the schema, the
typed GraphQL and the OpenAPI document are made from it, and the playground draws a game
without a board of its own with its generic board (boards.js). Standard library only.
"""

from __future__ import annotations

import argparse
import keyword
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = Path(__file__).resolve().with_name("new_game")
# template directory -> where its files go, under the root; `{name}` is the package's name
TARGETS = {
    "package": "service/games/{name}",
    "tests": "tests/games/{name}",
}
SINGLE_FILES = {"rules.md.tmpl": "docs/rules/{name}.md"}
# the deliberate additions to the public schema (tests/api/test_contracts.py)
DANGEROUS = Path("schema/allowed-dangerous-changes.txt")
NAME = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)*")


class Refused(ValueError):
    """A name the scaffold will not use."""


def words(name: str, title: str | None) -> dict[str, str]:
    """What the templates' `{{...}}` placeholders stand for."""
    parts = name.split("_")
    initials = "".join(p[0] for p in parts) if len(parts) > 1 else name[:2]
    return {
        "name": name,
        "Class": "".join(p.capitalize() for p in parts),
        "KIND": name.upper(),
        "title": title or " ".join(p.capitalize() for p in parts),
        "R": initials.upper(),  # the prefix of its rulings, e.g. OG-1
    }


def existing_kinds(root: Path) -> set[str]:
    kinds = set()
    for path in (root / "service" / "games").glob("*/game.py"):
        kinds |= set(re.findall(r'kind: ClassVar\[str\] = "([A-Z_0-9]+)"', path.read_text()))
    return kinds


def check(root: Path, name: str) -> None:
    if not name.isidentifier() or keyword.iskeyword(name) or not NAME.fullmatch(name):
        raise Refused(f"{name!r} is not a lower_snake_case Python identifier")
    taken = [
        path
        for path in (
            root / "service" / "games" / name,
            root / "tests" / "games" / name,
            root / "docs" / "rules" / f"{name}.md",
        )
        if path.exists()
    ]
    if taken:
        raise Refused(f"{name!r} exists: {', '.join(str(p.relative_to(root)) for p in taken)}")
    if name.upper() in existing_kinds(root):
        raise Refused(f"a game of kind {name.upper()} exists")


def render(template: Path, values: dict[str, str]) -> str:
    text = template.read_text()
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    left = re.findall(r"\{\{\w+\}\}", text)
    if left:
        raise AssertionError(f"{template}: unknown placeholders {left}")
    return text


def plan(name: str) -> dict[Path, Path]:
    """Each file to write, relative to the root, with its template."""
    files = {}
    for directory, target in TARGETS.items():
        for template in sorted((TEMPLATES / directory).rglob("*.tmpl")):
            inner = template.relative_to(TEMPLATES / directory).with_suffix("")
            files[Path(target.format(name=name)) / inner] = template
    for template, target in SINGLE_FILES.items():
        files[Path(target.format(name=name))] = TEMPLATES / template
    return files


def scaffold(root: Path, name: str, title: str | None = None) -> list[Path]:
    """Write the new game's files under `root`; the paths written, relative to it."""
    check(root, name)
    values = words(name, title)
    written = []
    for relative, template in plan(name).items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(render(template, values))
        written.append(relative)
    allowed = root / DANGEROUS
    if allowed.exists():
        text = allowed.read_text()
        line = f"Enum value GameKind.{values['KIND']} was added."
        allowed.write_text(text + ("" if text.endswith("\n") or not text else "\n") + line + "\n")
        written.append(DANGEROUS)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("name", help="the package's name, lower_snake_case: oak_grove")
    parser.add_argument("--title", help='the game\'s title: "Oak Grove" (default: from the name)')
    parser.add_argument("--root", type=Path, default=ROOT, help="the repository (default: this)")
    args = parser.parse_args(argv)
    try:
        written = scaffold(args.root, args.name, args.title)
    except Refused as exc:
        print(f"new-game: {exc}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path}")
    kind = args.name.upper()
    print(
        f"\nNext: `make schema` (adds {kind} to schema/) and `make sdk`, then replace the toy "
        "rules with the game's (docs/architecture.md, 'Adding a game')."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
