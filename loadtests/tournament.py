"""Bots against bots, for every game: win rates with Wilson 95% intervals.

    python -m loadtests.tournament                      # default: calibrated iterations
    python -m loadtests.tournament --budget-ms 100      # wall-clock budget per SEARCH decision
    python -m loadtests.tournament --games 40 --iterations 200 --kinds TREELINGS

Every pairing plays `--games` 2-player games per game kind; the first-named strategy sits at
seat 0 in even games and at seat 1 in odd ones. A game's seed names the kind, the pairing and
its number, so a run is reproducible in iterations mode. The rate counts a tie as half a win;
wins, ties and losses are also printed separately. Games run in `--jobs` processes.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from service.bots import Strategy, play_bots
from service.engine import start
from service.games import games

PAIRINGS: tuple[tuple[Strategy, Strategy], ...] = (
    ("SEARCH", "RANDOM"),
    ("SEARCH", "GREEDY"),
    ("GREEDY", "RANDOM"),
)
TARGETS = {("SEARCH", "RANDOM"): 0.80, ("SEARCH", "GREEDY"): 0.50, ("GREEDY", "RANDOM"): 0.65}


@dataclass(frozen=True)
class Match:
    kind: str
    first: Strategy
    second: Strategy
    number: int
    iterations: int | None
    budget_ms: float | None


@dataclass(frozen=True)
class Result:
    match: Match
    score: float  # for `first`: 1 win, 0.5 tie, 0 loss
    decisions: int
    seconds: float


def play_match(match: Match) -> Result:
    game = games()[match.kind]
    seed = f"tournament:{match.kind}:{match.first}-{match.second}:{match.number}"
    first_seat = match.number % 2
    bots: dict[int, Strategy] = {first_seat: match.first, 1 - first_seat: match.second}
    deadline: Callable[[], Callable[[], bool]] | None = None
    if match.budget_ms is not None:
        budget = match.budget_ms / 1000

        def deadline() -> Callable[[], bool]:
            end = time.perf_counter() + budget
            return lambda: time.perf_counter() > end

    began = time.perf_counter()
    state = start(game, 2, None, seed).state
    played = play_bots(
        game,
        state,
        bots,
        seed=match.number * 100_003,
        iterations=match.iterations,
        deadline=deadline,
    )
    assert game.is_over(played.state), "bots stopped before the end"
    winners = game.scores(played.state).winners
    score = (0.5 if len(winners) > 1 else 1.0) if first_seat in winners else 0.0
    decisions = sum(1 for step in played.steps if not step.forced)
    return Result(match, score, decisions, time.perf_counter() - began)


def default_iterations() -> dict[str, int]:
    """Each game's calibrated SEARCH iterations (~100 ms a decision), from its own BotTuning."""
    return {kind: game.bot_tuning.search_iterations for kind, game in games().items()}


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def table(results: list[Result], kinds: list[str]) -> list[str]:
    lines = [
        "| game | pairing | W-T-L | rate | 95% CI (Wilson) | target | met |",
        "|---|---|---|---|---|---|---|",
    ]
    for kind in kinds:
        for first, second in PAIRINGS:
            mine = [
                r
                for r in results
                if (r.match.kind, r.match.first, r.match.second) == (kind, first, second)
            ]
            if not mine:
                continue
            wins = sum(1 for r in mine if r.score == 1.0)
            ties = sum(1 for r in mine if r.score == 0.5)
            losses = len(mine) - wins - ties
            points = wins + ties / 2
            rate = points / len(mine)
            low, high = wilson(points, len(mine))
            target = TARGETS[(first, second)]
            met = rate > target if target == 0.5 else rate >= target
            sign = ">" if target == 0.5 else ">="
            lines.append(
                f"| {kind} | {first} vs {second} | {wins}-{ties}-{losses} | {rate:.2f} "
                f"| {low:.2f}-{high:.2f} | {sign} {target:.2f} | {'yes' if met else 'NO'} |"
            )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m loadtests.tournament", description=__doc__)
    parser.add_argument("--games", type=int, default=20, help="games per pairing and game kind")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--budget-ms", type=float, help="wall-clock budget per SEARCH decision")
    budget.add_argument(
        "--iterations", type=int, help="SEARCH iterations per decision (default: calibrated)"
    )
    parser.add_argument("--kinds", nargs="*", default=None, help="game kinds (default: all)")
    parser.add_argument(
        "--pairings", nargs="*", default=None, help="e.g. SEARCH-RANDOM (default: all three)"
    )
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    args = parser.parse_args(argv)
    kinds = args.kinds or list(games())
    pairings = PAIRINGS
    if args.pairings:
        pairings = tuple(p for p in PAIRINGS if f"{p[0]}-{p[1]}" in args.pairings)
    matches = [
        Match(kind, first, second, number, args.iterations, args.budget_ms)
        for kind in kinds
        for first, second in pairings
        for number in range(args.games)
    ]
    mode = (
        f"{args.budget_ms:g} ms per SEARCH decision"
        if args.budget_ms is not None
        else f"{args.iterations} iterations per SEARCH decision"
        if args.iterations is not None
        else "calibrated iterations per SEARCH decision: "
        + ", ".join(f"{k} {default_iterations()[k]}" for k in kinds if k in default_iterations())
    )
    print(f"{len(matches)} games, 2 players, {mode}, {args.jobs} jobs", flush=True)
    began = time.perf_counter()
    results: list[Result] = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for result in pool.map(play_match, matches):
            results.append(result)
            m = result.match
            print(
                f"  {m.kind} {m.first} vs {m.second} #{m.number}: {result.score:g} "
                f"({result.decisions} decisions, {result.seconds:.1f} s)",
                flush=True,
            )
    print()
    print("\n".join(table(results, kinds)))
    print(f"\nwall time {time.perf_counter() - began:.0f} s; ties count as half a win")
    return 0


if __name__ == "__main__":
    sys.exit(main())
