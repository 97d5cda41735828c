"""The games the service hosts, by their GraphQL GameKind value, and every version of their
rules this release still plays.

Every package under service/games exposes its game object as `GAME` (the engine contract,
service/engine/contract.py); adding a game is adding a package (docs/architecture.md, "Adding a
game"). The engine knows no game: the service asks this registry.

A game is played to its end under the rules it was created with (`Record.rules`). Before a
change to a kind's rules, `make freeze-rules KIND=<package>` (tools/freeze_rules.py) copies the
package as it is into `<package>/earlier/v<N>/`, a frozen module of its own; the package then
bumps its RULES_VERSION and changes. `versions()` finds the frozen ones, so games of version N
go on under N while new games get N+1. A frozen version is retired in two steps
(tools/retire_rules.py): `make deprecate-rules` writes its notice, `retirement.toml` in its
folder (`retirements()`, shown in the catalog), and once the notice's date has passed and no
live game uses it, `make retire-rules` deletes the folder; its games can then be read and
abandoned, not played (RULES_CHANGED; docs/architecture.md, "Rules versions").
"""

from __future__ import annotations

import importlib
import importlib.resources
import pkgutil
from datetime import UTC, date, datetime, time, timedelta
from functools import cache
from pathlib import Path
from typing import Any

import msgspec

from service.engine import Game

NOTICE = "retirement.toml"  # beside a frozen version's modules (tools/retire_rules.py)


class Retirement(msgspec.Struct, forbid_unknown_fields=True):
    """A frozen rules version's notice: announced on a day, removed only once `retire_after`
    has passed (UTC) and no live game uses it."""

    announced: date
    retire_after: date

    def ends(self) -> datetime:
        """The moment the notice has run: the start (UTC) of the day after `retire_after`."""
        return datetime.combine(self.retire_after + timedelta(days=1), time(), UTC)


@cache
def games() -> dict[str, Game[Any, Any]]:
    found: dict[str, Game[Any, Any]] = {}
    for module in pkgutil.iter_modules(__path__):
        game = importlib.import_module(f"{__name__}.{module.name}").GAME
        found[game.kind] = game
    return dict(sorted(found.items()))


@cache
def versions() -> dict[str, dict[int, Game[Any, Any]]]:
    """Every kind's games by rules version: the package's own and its frozen earlier ones."""
    found: dict[str, dict[int, Game[Any, Any]]] = {}
    for module in pkgutil.iter_modules(__path__):
        newest = importlib.import_module(f"{__name__}.{module.name}").GAME
        by_version = found.setdefault(newest.kind, {newest.rules_version: newest})
        earlier = Path(__path__[0]) / module.name / "earlier"
        for frozen in pkgutil.iter_modules([str(earlier)]) if earlier.is_dir() else []:
            game = importlib.import_module(f"{__name__}.{module.name}.earlier.{frozen.name}").GAME
            assert game.kind == newest.kind and game.rules_version < newest.rules_version, frozen
            by_version[game.rules_version] = game
    return {kind: dict(sorted(found[kind].items())) for kind in sorted(found)}


@cache
def retirements() -> dict[str, dict[int, Retirement]]:
    """Every kind's frozen versions under a retirement notice, by version."""
    found: dict[str, dict[int, Retirement]] = {}
    for kind, by_version in versions().items():
        for version, game in by_version.items():
            package = type(game).__module__.rpartition(".")[0]
            notice = importlib.resources.files(package) / NOTICE
            if notice.is_file():
                retirement = msgspec.toml.decode(notice.read_bytes(), type=Retirement)
                found.setdefault(kind, {})[version] = retirement
    return found


def game_for(kind: str, rules: int) -> Game[Any, Any]:
    """The game that plays `kind` games created under `rules`: that version's if this release
    keeps it, else the newest (a newer or retired version: the callers that write check
    `rules_version` and refuse, decisions.playable; reads go on as best they can)."""
    by_version = versions()[kind]
    return by_version.get(rules) or games()[kind]
