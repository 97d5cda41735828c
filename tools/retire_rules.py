"""Retire a frozen rules version in two steps (docs/architecture.md, "Rules versions"):

    make deprecate-rules KIND=treelings VERSION=1 [AFTER=2027-03-06]
    make retire-rules KIND=treelings VERSION=1

`deprecate` writes the version's notice, `retirement.toml` beside its frozen modules
(service/games/<package>/earlier/v<N>/; the catalog shows it as `deprecatedRulesVersions`):
announced today, retired no sooner than the day after AFTER, at least NOTICE_DAYS away (the
default). Release it, so clients see it for the notice period.

`retire` refuses while the notice's date has not passed (UTC) and while any live game of that
kind and version is in the Redis of REDIS_URL (or --redis-url): it pages through every
tenant's listing index of the kind (`ix:{bots-n}:k:<tenant>:<kind>`) and reads each game's
record. Otherwise it deletes the frozen folder: the next release no longer plays that version
and its games answer RULES_CHANGED to a move (they can still be read and abandoned). Games of
releases that kept no tenant are in no index and not counted.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import shutil
import sys
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import msgspec

from service.games import NOTICE, Retirement
from service.settings import Settings
from service.store import Record, RedisStore, connect

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "service" / "games"
NOTICE_DAYS = 90  # the shortest notice `deprecate` gives
PAGE = 500  # index members read at a time
KIND = re.compile(r'^\s+kind: ClassVar\[str\] = "([A-Z_]+)"', re.M)
RULES_VERSION = re.compile(r"^RULES_VERSION(?::[^=]*)? = (\d+)", re.M)


class Refusal(SystemExit):
    """Why the step did nothing (exit status 1, the reason printed)."""


def today() -> date:
    return datetime.now(UTC).date()


def frozen(package: str, version: int, games: Path = GAMES) -> Path:
    """The folder of `package`'s frozen rules `version`; refuses the newest and unknown ones."""
    game = games / package / "game.py"
    if not game.is_file():
        raise Refusal(f"no game package service/games/{package}")
    newest = RULES_VERSION.search(game.read_text())
    if newest is not None and int(newest.group(1)) == version:
        raise Refusal(f"version {version} is {package}'s newest: new games get it")
    folder = games / package / "earlier" / f"v{version}"
    if not (folder / "__init__.py").is_file():
        raise Refusal(f"{package} keeps no frozen version {version} (earlier/v{version})")
    return folder


def kind_of(package: str, games: Path = GAMES) -> str:
    found = KIND.search((games / package / "game.py").read_text())
    if found is None:
        raise Refusal(f"service/games/{package}/game.py declares no kind")
    return found.group(1)


def deprecate(
    package: str, version: int, retire_after: date, on: date, games: Path = GAMES
) -> Path:
    """The notice of `package`'s frozen `version`, announced `on`: retired after `retire_after`."""
    folder = frozen(package, version, games)
    if retire_after < on + timedelta(days=NOTICE_DAYS):
        earliest = on + timedelta(days=NOTICE_DAYS)
        raise Refusal(
            f"a notice runs at least {NOTICE_DAYS} days: retire after {earliest} or later"
        )
    notice = folder / NOTICE
    notice.write_text(
        "# This rules version is retired after this date (UTC), once no live game uses it\n"
        f"# (tools/retire_rules.py).\nannounced = {on.isoformat()}\n"
        f"retire_after = {retire_after.isoformat()}\n"
    )
    return notice


async def live_games(store: RedisStore, kind: str, version: int) -> list[str]:
    """The ids of every ACTIVE game of `kind` created under (or moved to) `version`."""
    found = []
    async for key in store.redis.scan_iter(match=f"ix:{{bots-*}}:k:*:{kind}", count=1000):
        below: str | None = None
        while True:
            (members,) = await store.listed([(key.decode(), below)], None, PAGE)
            ids = [member.partition(":")[2] for member in members]
            for game_id, record in zip(ids, await store.records(ids), strict=True):
                # an unreadable record (another release's) is not counted: a game of a
                # retired version stays readable anyway
                if not isinstance(record, Record) or record.status() != "ACTIVE":
                    continue
                if record.rules == version:
                    found.append(game_id)
            if len(members) < PAGE:
                break
            below = members[-1]
    return found


async def retire(
    package: str, version: int, store: RedisStore, on: date, games: Path = GAMES
) -> Path:
    """Deletes `package`'s frozen `version` once its notice has passed and no live game uses
    it; else refuses, saying why."""
    folder = frozen(package, version, games)
    notice = folder / NOTICE
    if not notice.is_file():
        raise Refusal(f"version {version} of {package} has no notice: make deprecate-rules first")
    retirement = msgspec.toml.decode(notice.read_bytes(), type=Retirement)
    if on <= retirement.retire_after:
        raise Refusal(
            f"version {version} of {package} is under notice until {retirement.retire_after} "
            "(UTC): it can be retired the day after"
        )
    live = await live_games(store, kind_of(package, games), version)
    if live:
        shown = ", ".join(live[:5]) + (", ..." if len(live) > 5 else "")
        raise Refusal(
            f"{len(live)} live game(s) of {package} still play version {version}: {shown}"
        )
    shutil.rmtree(folder)
    return folder


async def _retire(package: str, version: int, url: str) -> Path:
    frozen(package, version)
    settings = Settings.from_env()
    url = url or settings.redis_url or ""
    if not url:
        raise Refusal("which Redis holds the live games? set REDIS_URL or give --redis-url")
    store = RedisStore(connect(settings, url), settings)
    try:
        return await retire(package, version, store, today())
    finally:
        await store.close()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="tools/retire_rules.py", description=__doc__.split("\n")[0]
    )
    steps = parser.add_subparsers(dest="step", required=True)
    for step in ("deprecate", "retire"):
        each = steps.add_parser(step)
        each.add_argument("package", help="the game's package under service/games (treelings)")
        each.add_argument("version", type=int, help="the frozen rules version")
        if step == "deprecate":
            each.add_argument("--after", type=date.fromisoformat, help="YYYY-MM-DD (UTC)")
        else:
            each.add_argument("--redis-url", default="", help="else REDIS_URL's")
    args = parser.parse_args(argv)
    try:
        if args.step == "deprecate":
            after = args.after or today() + timedelta(days=NOTICE_DAYS)
            notice = deprecate(args.package, args.version, after, today())
            print(f"wrote {notice.relative_to(ROOT)}: release it; retire after {after}")
        else:
            folder = asyncio.run(_retire(args.package, args.version, args.redis_url))
            print(f"removed {folder.relative_to(ROOT)}: its games now answer RULES_CHANGED")
    except Refusal as refusal:
        print(f"refused: {refusal}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
