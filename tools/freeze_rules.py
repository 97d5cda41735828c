"""Freeze a game's rules before changing them: `make freeze-rules KIND=treelings`
(docs/architecture.md, "Rules versions").

Copies service/games/<package>/ as it is (without its own `earlier/` and caches) into
service/games/<package>/earlier/v<N>/, N its RULES_VERSION, with every import of the package
pointing into the copy, so the copy is a frozen module that plays version N exactly as today.
The package then bumps RULES_VERSION and changes its rules: the service plays the games of
version N with the copy and new games with the package (service.games.versions). Retiring N
later is tools/retire_rules.py's: a notice, then the copy deleted once no live game uses it.
Standard library only.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "service" / "games"
RULES_VERSION = re.compile(r"^RULES_VERSION(?::[^=]*)? = (\d+)", re.M)


def freeze(package: str, games: Path = GAMES) -> Path:
    """The frozen copy of `package`'s rules as they are; refuses if that version is frozen."""
    source = games / package
    game = source / "game.py"
    if not game.is_file():
        raise SystemExit(f"no game package service/games/{package}")
    found = RULES_VERSION.search(game.read_text())
    if found is None:
        raise SystemExit(f"service/games/{package}/game.py has no RULES_VERSION = <n>")
    version = int(found.group(1))
    earlier = source / "earlier"
    target = earlier / f"v{version}"
    if target.exists():
        raise SystemExit(
            f"version {version} of {package} is frozen already: bump RULES_VERSION first"
        )
    shutil.copytree(
        source, target, ignore=shutil.ignore_patterns("earlier", "__pycache__", "*.pyc")
    )
    old, new = f"service.games.{package}", f"service.games.{package}.earlier.v{version}"
    for path in target.rglob("*.py"):
        text = path.read_text()
        path.write_text(re.sub(rf"\b{re.escape(old)}\b", new, text))
    init = earlier / "__init__.py"
    if not init.exists():
        init.write_text(
            f'"""Frozen earlier rules of {package}, one module a version '
            '(tools/freeze_rules.py)."""\n'
        )
    return target


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="make freeze-rules", description=__doc__.split("\n")[0])
    parser.add_argument("package", help="the game's package under service/games (treelings)")
    args = parser.parse_args(argv)
    target = freeze(args.package)
    print(f"froze {target.relative_to(ROOT)}: now bump RULES_VERSION in its game.py")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
