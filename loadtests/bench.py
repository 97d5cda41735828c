"""The benchmark: the floor, GraphQL and REST moves and reads, in one run.

    python -m loadtests.bench [--clients 32] [--seconds 8] [--warmup 1.5] [--out loadtests/results]
                              [--no-replica-ack]

It starts a private redis-server, the service and the floor (loadtests/floor.py) as uvicorn
processes (uvloop, httptools), creates real games of every kind, then drives each target with
the same generator (loadtests/runner.py) and the same number of clients: first as fast as the
server answers (peak), then at half the peak rate. It prints requests/s, p50 and p99 and the
ratio to the floor, CPU per request of the server and of Redis, the engine table, the
Redis memory per game of every kind (loadtests/memory.py), the bytes gzip and brotli save and
the CPU they cost per read of each kind (loadtests/compression.py), and the cost of
RULES_REPLICA_ACK: applyMove on a master with one replica without and with it, as ratios; it
writes results.json and latency.png into --out (git-ignored).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

import msgspec
import uvloop

from loadtests import compression, engine, memory
from loadtests.runner import run_phase
from loadtests.servers import ASGI_SERVERS, Stack, stack
from loadtests.targets import (
    BrotliRead,
    Floor,
    GraphQLApply,
    GraphQLApplyLean,
    GraphQLRead,
    GraphQLTypedRead,
    GzipRead,
    Noop,
    Pool,
    RestApply,
    RestApplyMinimal,
    RestRead,
    Target,
)

TARGETS = {
    "noop": "HTTP no-op",
    "floor": "floor",
    "graphql-apply": "GraphQL applyMove",
    "graphql-apply-lean": "GraphQL applyMove (lean)",
    "rest-apply": "REST apply",
    "rest-apply-minimal": "REST apply (minimal)",
    "graphql-read": "GraphQL game read",
    "graphql-read-typed": "GraphQL typed read",
    "graphql-read-gzip": "GraphQL game read (gzip)",
    "graphql-read-br": "GraphQL game read (br)",
    "rest-read": "REST game read",
}
GOALS = {"graphql-apply": 0.5, "rest-apply": 0.8}
# Server CPU per request on this machine class, milliseconds.
CPU_TARGETS_MS = {"graphql-apply": 0.45, "graphql-read": 0.3}
# What runs again under each other ASGI server, for the side-by-side comparison.
COMPARED = ("noop", "floor", "graphql-apply", "graphql-read", "rest-read")


def machine() -> dict[str, Any]:
    model = "unknown"
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    load = os.getloadavg()
    return {
        "nproc": os.cpu_count(),
        "cpu": model,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "loadavg_at_start": [round(x, 2) for x in load],
    }


async def _run(args: argparse.Namespace, servers: Stack, targets: list[str]) -> dict[str, Any]:
    service, floor = servers.service, servers.floor
    host = "127.0.0.1"
    pool = Pool(host, service.port)
    started = time.perf_counter()
    floor_games = (
        [] if floor is None else await Floor.seed(servers.redis.url, max(args.clients * 2, 16))
    )
    await pool.fill(args.initial_moves)
    print(
        f"set-up: {pool.created} games ({pool.moves_left} scripted moves), "
        f"{len(floor_games)} floor records, {time.perf_counter() - started:.1f}s",
        flush=True,
    )
    results: dict[str, Any] = {}
    apply_rps = 0.0
    for key in targets:
        target: Target
        if key in ("floor", "noop"):
            assert floor is not None
            target = Floor(floor_games, args.clients) if key == "floor" else Noop()
            port, pid = floor.port, floor.pid
        else:
            port, pid = service.port, service.pid
            classes: dict[str, Any] = {
                "graphql-apply": GraphQLApply,
                "graphql-apply-lean": GraphQLApplyLean,
                "rest-apply": RestApply,
                "rest-apply-minimal": RestApplyMinimal,
                "graphql-read": GraphQLRead,
                "graphql-read-typed": GraphQLTypedRead,
                "graphql-read-gzip": GzipRead,
                "graphql-read-br": BrotliRead,
                "rest-read": RestRead,
            }
            target = classes[key](pool, args.clients)
        pids = {"server": pid, "redis": servers.redis_pid}
        if servers.replica is not None and servers.replica.process is not None:
            pids["replica"] = servers.replica.process.pid
        passes: dict[str, Any] = {}
        for label in ("peak", "half"):
            # At least 1/s: a peak starved to nothing by a busy machine still gets a paced pass.
            rate = None if label == "peak" else max(passes["peak"]["rps"] / 2, 1.0)
            if target.kind_of_work == "apply" and key != "floor":
                expected = max(apply_rps, 200.0) * (args.seconds + args.warmup)
                await pool.fill(int(expected * (1.5 if rate is None else 0.8)))
            phase = await run_phase(
                target, host, port, args.clients, args.seconds, args.warmup, rate, pids
            )
            passes[label] = phase.summary()
            summary = passes[label]
            print(
                f"{TARGETS[key]:<26} {label:<4} {summary['rps']:8.1f} req/s  "
                f"p50 {summary['p50_ms']:7.2f} ms  p99 {summary['p99_ms']:7.2f} ms  "
                f"server {summary.get('server_cpu_ms', 0):.2f} ms CPU/req  "
                f"errors {summary['errors']}",
                flush=True,
            )
            if summary["errors"]:
                print(f"  first error: {summary['first_error']}", flush=True)
            if target.kind_of_work == "apply" and key != "floor" and rate is None:
                apply_rps = max(apply_rps, summary["rps"])
        results[key] = {"name": TARGETS[key], **passes}
    print(f"games created in all: {pool.created}", flush=True)
    if targets is args.targets:
        results["compression"] = await compression.measure(pool, host, service.port)
    if args.memory_games > 0 and targets is args.targets:
        results["memory"] = await memory.measure(args.memory_games, 4, servers.redis.url)
    return results


def _ratios(results: dict[str, Any]) -> None:
    floor = results.get("floor")
    for row in results.values():
        if floor is None:
            row["ratio_to_floor"] = None
            row["cpu_ratio_to_floor"] = None
            continue
        floor_rps = floor["peak"]["rps"]
        row["ratio_to_floor"] = row["peak"]["rps"] / floor_rps if floor_rps else None
        floor_cpu = floor["peak"].get("server_cpu_ms") or 0
        server_cpu = row["peak"].get("server_cpu_ms") or 0
        row["cpu_ratio_to_floor"] = floor_cpu / server_cpu if server_cpu else None


def report(results: dict[str, Any]) -> str:
    lines = [
        f"{'target':<26} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'x floor':>8} "
        f"{'CPU x floor':>11} {'srv ms':>7} {'redis ms':>8} {'half: req/s':>11} "
        f"{'p50':>7} {'p99':>7} {'p99/p50':>7}"
    ]
    for key, row in results.items():
        peak, half = row["peak"], row["half"]
        ratio = row.get("ratio_to_floor")
        cpu_ratio = row.get("cpu_ratio_to_floor")
        lines.append(
            f"{row['name']:<26} {peak['rps']:>8.1f} {peak['p50_ms']:>8.2f} "
            f"{peak['p99_ms']:>8.2f} {_fmt(ratio):>8} {_fmt(cpu_ratio):>11} "
            f"{peak.get('server_cpu_ms', 0):>7.2f} {peak.get('redis_cpu_ms', 0):>8.3f} "
            f"{half['rps']:>11.1f} {half['p50_ms']:>7.2f} {half['p99_ms']:>7.2f} "
            f"{half['p99_ms'] / half['p50_ms']:>7.2f}"
            + (f"   goal >= {GOALS[key]}x floor" if key in GOALS else "")
        )
    return "\n".join(lines)


def cpu_report(results: dict[str, Any]) -> str:
    """Server CPU per request against the targets, and as a multiple of the floor's and the
    HTTP no-op's (both measured in the same run, so the machine's load cancels out)."""
    floor = results.get("floor", {}).get("peak", {}).get("server_cpu_ms")
    noop = results.get("noop", {}).get("peak", {}).get("server_cpu_ms")
    lines = [f"{'operation':<26} {'CPU ms':>7} {'target':>7} {'x floor':>8} {'x no-op':>8}"]
    for key in ("graphql-apply", "rest-apply", "graphql-read", "rest-read"):
        spent = results.get(key, {}).get("peak", {}).get("server_cpu_ms")
        if not spent:
            continue
        target = CPU_TARGETS_MS.get(key)
        verdict = "" if target is None else ("  ok" if spent <= target else "  over")
        lines.append(
            f"{TARGETS[key]:<26} {spent:>7.3f} {_fmt(target):>7} "
            f"{_fmt(spent / floor if floor else None):>8} "
            f"{_fmt(spent / noop if noop else None):>8}{verdict}"
        )
    return "\n".join(lines)


def servers_report(by_server: dict[str, dict[str, Any]]) -> str:
    """Each compared target under every ASGI server: peak req/s, p50 and server CPU, and the
    ratio of req/s to the first server's."""
    names = list(by_server)
    first = by_server[names[0]]
    lines = [
        f"{'target':<22} {'server':<8} {'req/s':>8} {'p50 ms':>7} {'CPU ms':>7} {'x first':>8}"
    ]
    for key in COMPARED:
        for name in names:
            row = by_server[name].get(key)
            if row is None:
                continue
            peak = row["peak"]
            base = first.get(key, {}).get("peak", {}).get("rps")
            lines.append(
                f"{TARGETS[key]:<22} {name:<8} {peak['rps']:>8.1f} {peak['p50_ms']:>7.2f} "
                f"{peak.get('server_cpu_ms', 0):>7.3f} {_fmt(peak['rps'] / base if base else None):>8}"
            )
    return "\n".join(lines)


def replica_ack(args: argparse.Namespace, floor_rps: float | None) -> dict[str, Any]:
    """GraphQL applyMove on a master with one replica, without and with RULES_REPLICA_ACK=1
    (each move's reply waits for the replica, docs/reliability.md "Replica acknowledgement"):
    each setting its own fresh stack, the same clients and passes as above."""
    rows: dict[str, Any] = {}
    for ack in ("0", "1"):
        print(f"\nmaster + 1 replica, RULES_REPLICA_ACK={ack}:", flush=True)
        # what a confirmed move costs: bounds a busy machine's replica keeps within (with the
        # default 500 ms a stalled replica turns a create into UNAVAILABLE and stops the run)
        settings = {
            "RULES_REPLICA_ACK": ack,
            "RULES_REPLICA_ACK_TIMEOUT_MS": "5000",
            "REDIS_TIMEOUT": "10",
        }
        with stack(with_floor=False, replica=True, settings=settings) as servers:
            rows[ack] = uvloop.run(_run(args, servers, ["graphql-apply"]))["graphql-apply"]
    for row in rows.values():
        row["ratio_to_without"] = _ratio(row["peak"]["rps"], rows["0"]["peak"]["rps"])
        row["ratio_to_floor"] = _ratio(row["peak"]["rps"], floor_rps)
    return rows


def _ratio(value: float, base: float | None) -> float | None:
    return value / base if base else None


def replica_report(rows: dict[str, Any]) -> str:
    """Peak req/s, p50 and p99 with and without the replica's acknowledgement, as ratios."""
    without = rows["0"]
    lines = [
        f"{'setting':<22} {'req/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'x without':>9} "
        f"{'p50 x':>6} {'p99 x':>6} {'x floor':>8} {'srv ms':>7} {'redis ms':>8} "
        f"{'replica ms':>10} {'half: p50':>9} {'p99':>7}"
    ]
    for ack, row in rows.items():
        peak, half = row["peak"], row["half"]
        lines.append(
            f"{'RULES_REPLICA_ACK=' + ack:<22} {peak['rps']:>8.1f} {peak['p50_ms']:>7.2f} "
            f"{peak['p99_ms']:>7.2f} {_fmt(row['ratio_to_without']):>9} "
            f"{_fmt(_ratio(peak['p50_ms'], without['peak']['p50_ms'])):>6} "
            f"{_fmt(_ratio(peak['p99_ms'], without['peak']['p99_ms'])):>6} "
            f"{_fmt(row['ratio_to_floor']):>8} {peak.get('server_cpu_ms', 0):>7.2f} "
            f"{peak.get('redis_cpu_ms', 0):>8.3f} {peak.get('replica_cpu_ms', 0):>10.3f} "
            f"{half['p50_ms']:>9.2f} {half['p99_ms']:>7.2f}"
        )
    return "\n".join(lines)


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def plot(results: dict[str, Any], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from loadtests.runner import CURVE

    figure, (left, right) = plt.subplots(1, 2, figsize=(13, 5))
    for row in results.values():
        left.plot(CURVE, row["peak"]["curve_ms"], label=f"{row['name']} (peak)")
    left.set_yscale("log")
    left.set_xlabel("percentile")
    left.set_ylabel("latency (ms, log)")
    left.set_title("Latency at peak load, by percentile")
    left.grid(True, which="both", alpha=0.3)
    left.legend(fontsize=8)
    names = [
        f"{row['name'].replace(' ', chr(10), 1)}\n{row['peak']['rps']:.0f}/s"
        for row in results.values()
    ]
    x = range(len(names))
    width = 0.2
    for offset, (label, key, pass_) in enumerate(
        [("p50 peak", "p50_ms", "peak"), ("p99 peak", "p99_ms", "peak"),
         ("p50 half", "p50_ms", "half"), ("p99 half", "p99_ms", "half")]
    ):  # fmt: skip
        values = [row[pass_][key] for row in results.values()]
        right.bar([i + (offset - 1.5) * width for i in x], values, width, label=label)
    right.set_xticks(list(x))
    right.set_xticklabels(names, fontsize=7)
    right.set_yscale("log")
    right.set_ylabel("latency (ms, log)")
    right.set_title("p50 and p99 at peak and at half of peak (peak req/s below)")
    right.legend(fontsize=8)
    right.grid(True, axis="y", alpha=0.3)
    figure.suptitle(title, fontsize=10)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=32, help="concurrent clients")
    parser.add_argument("--seconds", type=float, default=8.0, help="measured seconds per pass")
    parser.add_argument("--warmup", type=float, default=1.5, help="unmeasured seconds first")
    parser.add_argument("--initial-moves", type=int, default=2000)
    parser.add_argument("--targets", nargs="+", choices=list(TARGETS), default=list(TARGETS))
    parser.add_argument("--engine-seconds", type=float, default=1.0, help="0 skips it")
    parser.add_argument(
        "--servers", nargs="+", choices=ASGI_SERVERS, default=list(ASGI_SERVERS),
        help="ASGI servers; the first runs every target, the others the compared ones",
    )  # fmt: skip
    parser.add_argument("--memory-games", type=int, default=3, help="per kind; 0 skips it")
    parser.add_argument("--out", default="loadtests/results", help="where to write results")
    parser.add_argument("--no-plot", action="store_true")
    parser.add_argument(
        "--no-replica-ack", action="store_true",
        help="skip applyMove on a master + replica without and with RULES_REPLICA_ACK",
    )  # fmt: skip
    args = parser.parse_args()
    first = [t for t in ("noop", "floor") if t in args.targets]
    args.targets = [*first, *[t for t in args.targets if t not in first]]

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    began = time.time()
    info = machine()
    print(f"machine: {info['nproc']} cores, {info['cpu']}, Python {info['python']}", flush=True)
    with stack(server=args.servers[0]) as servers:
        results = uvloop.run(_run(args, servers, args.targets))
    memory_results = results.pop("memory", {})
    sizes = results.pop("compression", {})
    _ratios(results)
    by_server = {args.servers[0]: results}
    for other in args.servers[1:]:
        print(f"\nthe same under {other}:", flush=True)
        with stack(server=other) as servers:
            compared = [t for t in args.targets if t in COMPARED]
            by_server[other] = uvloop.run(_run(args, servers, compared))
        _ratios(by_server[other])
    floor_rps = results.get("floor", {}).get("peak", {}).get("rps")
    replica_results = {} if args.no_replica_ack else replica_ack(args, floor_rps)
    engine_results = engine.measure(args.engine_seconds) if args.engine_seconds > 0 else {}
    print()
    print(report(results))
    print()
    print(f"server CPU per request ({args.servers[0]}):")
    print(cpu_report(results))
    if len(by_server) > 1:
        print()
        print("ASGI servers side by side (same machine, same run):")
        print(servers_report(by_server))
    server_ms = results.get("graphql-apply", {}).get("peak", {}).get("server_cpu_ms")
    if replica_results:
        print()
        print("replica acknowledgement (GraphQL applyMove, master + 1 replica, same run):")
        print(replica_report(replica_results))
    if engine_results:
        print()
        print("engine (4 players; % of the server CPU of one GraphQL applyMove):")
        print(engine.table(engine_results, server_ms))
    if sizes:
        print()
        print("compression: a seat's view mid-game (GraphQL read), mean bytes on the wire and")
        print("CPU microseconds to compress one (loadtests/compression.py):")
        print(compression.table(sizes))
    if memory_results:
        print()
        print("Redis memory per game, all keys (MEMORY USAGE; an idempotency key on every move):")
        print(memory.loaded(memory_results))
    document = {
        "machine": info,
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(began)),
        "seconds_total": round(time.time() - began, 1),
        "config": {
            "clients": args.clients,
            "seconds": args.seconds,
            "warmup": args.warmup,
            "python": sys.version.split()[0],
        },
        "targets": results,
        "engine": engine_results,
        "memory": memory_results,
        "replica_ack": replica_results,
        "compression": sizes,
        "servers": {name: rows for name, rows in by_server.items() if name != args.servers[0]},
        "graphql_apply_server_cpu_ms": server_ms,
    }
    (out / "results.json").write_bytes(msgspec.json.format(msgspec.json.encode(document)))
    if not args.no_plot:
        title = (
            f"{info['nproc']} cores, {info['cpu']}, Python {info['python']}, "
            f"{args.clients} clients, {document['started']}"
        )
        plot(results, out / "latency.png", title)
    print(f"\nwrote {out / 'results.json'}" + ("" if args.no_plot else f", {out / 'latency.png'}"))
    print(f"total {document['seconds_total']}s")


if __name__ == "__main__":
    main()
