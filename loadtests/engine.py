"""Engine micro-benchmarks: decisions per second and stored record size for every game.

    python -m loadtests.engine [--seconds 1.5] [--json PATH]

A decision is what one applyMove asks of the engine: the seat's legal moves, then
`service.engine.play` (checks, copy, label, apply, forced decisions). Beside it, the per-call
cost of what every API answer adds on top: the view, the legal moves with their labels, the
scores. Record sizes are the msgpack `service.store.Record` of a 4-player game (with four
token hashes and a 32-character seed, as the service stores it) at the start, middle and end;
the largest over the games played. Times are CPU time of this process (time.process_time),
so other load on the machine inflates them less, and they compare with the server's CPU time
per request that the benchmark reports.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import msgspec

from loadtests.scripts import play_random, record_of
from service.engine import play, start
from service.games import games
from service.store.records import record_encoder

PLAYERS = 4
RECORD_LIMIT = 4096


def _time_decisions(kind: str, seconds: float, chooser: random.Random) -> dict[str, Any]:
    game = games()[kind]
    spent = view_spent = moves_spent = scores_spent = 0.0
    decisions = games_played = 0
    started = time.process_time()
    while time.process_time() - started < seconds or games_played == 0:
        state = start(game, PLAYERS, {}, f"engine-{games_played}").state
        games_played += 1
        while not game.is_over(state):
            t0 = time.process_time()
            seat = chooser.choice(game.to_act(state))
            move = msgspec.to_builtins(chooser.choice(game.legal_moves(state, seat)))
            next_state = play(game, state, seat, move).state
            t1 = time.process_time()
            msgspec.to_builtins(game.view(state, seat))
            t2 = time.process_time()
            [
                (msgspec.to_builtins(m), game.label(state, seat, m))
                for m in game.legal_moves(state, seat)
            ]
            t3 = time.process_time()
            msgspec.to_builtins(game.scores(state))
            t4 = time.process_time()
            spent += t1 - t0
            view_spent += t2 - t1
            moves_spent += t3 - t2
            scores_spent += t4 - t3
            decisions += 1
            state = next_state
    return {
        "games": games_played,
        "decisions": decisions,
        "decisions_per_second": decisions / spent,
        "decision_us": 1e6 * spent / decisions,
        "view_us": 1e6 * view_spent / decisions,
        "legal_moves_labels_us": 1e6 * moves_spent / decisions,
        "scores_us": 1e6 * scores_spent / decisions,
    }


def _record_sizes(kind: str, samples: int) -> dict[str, int]:
    largest = {"start": 0, "middle": 0, "end": 0}
    for index in range(samples):
        seed = f"{index:032x}"
        script, state, version = play_random(kind, PLAYERS, seed, random.Random(index))
        length = len(script.decisions)
        stages = {"start": 0, "middle": length // 2, "end": length}
        for stage, stop_at in stages.items():
            if stop_at == length:
                final_state, final_version = state, version
            else:
                chooser = random.Random(index)
                _, final_state, final_version = play_random(
                    kind, PLAYERS, seed, chooser, stop_at=stop_at
                )
            record = record_of(kind, PLAYERS, seed, final_state, final_version)
            largest[stage] = max(largest[stage], len(record_encoder.encode(record)))
    return largest


def measure(seconds: float = 1.5, samples: int = 5) -> dict[str, Any]:
    results: dict[str, Any] = {}
    for kind in games():
        row = _time_decisions(kind, seconds, random.Random(kind))
        row["record_bytes"] = _record_sizes(kind, samples)
        results[kind] = row
    return results


def table(results: dict[str, Any], server_ms: float | None = None) -> str:
    head = (
        f"{'game':<18} {'decisions/s':>11} {'us/decision':>11} {'view us':>8} "
        f"{'moves+labels us':>15} {'scores us':>9} {'record start/middle/end B':>26}"
    )
    if server_ms:
        head += f" {'% of applyMove':>14}"
    lines = [head]
    for kind, row in results.items():
        sizes = row["record_bytes"]
        line = (
            f"{kind:<18} {row['decisions_per_second']:>11.0f} {row['decision_us']:>11.0f} "
            f"{row['view_us']:>8.0f} {row['legal_moves_labels_us']:>15.0f} "
            f"{row['scores_us']:>9.0f} "
            f"{'{start}/{middle}/{end}'.format(**sizes):>26}"
        )
        if server_ms:
            line += f" {100 * row['decision_us'] / 1000 / server_ms:>13.1f}%"
        lines.append(line)
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.5, help="timing per game")
    parser.add_argument("--json", help="also write the results to this JSON file")
    args = parser.parse_args()
    results = measure(args.seconds)
    print(table(results))
    over = [k for k, r in results.items() if max(r["record_bytes"].values()) > RECORD_LIMIT]
    print(f"records over {RECORD_LIMIT} bytes: {', '.join(over) or 'none'}")
    if args.json:
        with open(args.json, "wb") as out:
            out.write(msgspec.json.format(msgspec.json.encode(results)))


if __name__ == "__main__":
    main()
