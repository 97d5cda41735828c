"""`make test-stress`: run a command several times in a row while burners keep every core busy.

    python -m tests.stress [--runs 3] [--burners N] -- make test

The burners are plain busy loops at normal priority, one per core unless told otherwise, so
the suite competes for every core the way it does on a shared CI machine. Every run is made
and timed; the exit status is non-zero if any run failed.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import subprocess
import sys
import time


def burn(parent: int) -> None:
    """Spin until told to stop, or until the parent is gone (it may have been killed)."""
    while os.getppid() == parent:
        for _ in range(1_000_000):
            pass


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--burners", type=int, default=os.cpu_count() or 2)
    parser.add_argument("command", nargs="+", help="the command to run, after --")
    args = parser.parse_args()
    burners = [
        multiprocessing.Process(target=burn, args=(os.getpid(),), daemon=True)
        for _ in range(args.burners)
    ]
    for burner in burners:
        burner.start()
    results: list[tuple[int, float]] = []
    try:
        for run in range(1, args.runs + 1):
            started = time.monotonic()
            code = subprocess.call(args.command)
            results.append((code, time.monotonic() - started))
            print(
                f"stress run {run}/{args.runs}: exit {code} in {results[-1][1]:.0f} s", flush=True
            )
    finally:
        for burner in burners:
            burner.terminate()
            burner.join()
    failed = sum(1 for code, _ in results if code != 0)
    times = ", ".join(f"{seconds:.0f} s" for _, seconds in results)
    print(f"stress: {args.runs} runs with {args.burners} burners, {failed} failed ({times})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
