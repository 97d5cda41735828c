"""Where the server's time goes: py-spy samples the uvicorn process while the benchmark's
generator drives one operation at peak load.

    python -m loadtests.profiling [--seconds 8] [--ops graphql-apply graphql-read rest-apply]

For each operation it writes the collapsed stacks (loadtests/results/profile-<op>.txt, which
speedscope or flamegraph.pl can draw) and prints: the share of busy samples by area (which
library or service layer the innermost Python frame is in), the heaviest functions inclusive
of what they call, and the heaviest innermost frames. py-spy sees Python frames only: time
inside a C extension (msgspec, hiredis, httptools, uvloop) counts for the Python line that
called it. Idle samples (the event loop waiting) are left out, so shares are of busy time.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import msgspec
import uvloop

from loadtests.runner import run_phase
from loadtests.servers import stack
from loadtests.targets import (
    GraphQLApply,
    GraphQLApplyLean,
    GraphQLRead,
    Pool,
    RestApply,
    RestRead,
    Target,
)

OPS: dict[str, Any] = {
    "graphql-apply": GraphQLApply,
    "graphql-apply-lean": GraphQLApplyLean,
    "graphql-read": GraphQLRead,
    "rest-apply": RestApply,
    "rest-read": RestRead,
}

# The first pattern that the innermost frame's file matches names its area.
AREAS = [
    ("service/games/", "rules (service/games)"),
    ("service/engine/", "engine (service/engine)"),
    ("service/api/", "service API layer (service/api)"),
    ("service/store/", "store (service/store)"),
    ("service/", "service, other"),
    ("graphql/validation/", "graphql-core validation"),
    ("graphql/language/", "graphql-core parser/lexer"),
    ("graphql/execution/", "graphql-core execution"),
    ("graphql/", "graphql-core, other"),
    ("strawberry/", "strawberry"),
    ("starlette/", "starlette"),
    ("uvicorn/", "uvicorn"),
    ("redis/", "redis-py"),
    ("prometheus_client/", "prometheus-client"),
    ("asyncio/", "asyncio"),
    ("hashlib", "hashlib/hmac"),
    ("hmac", "hashlib/hmac"),
    ("/json/", "stdlib json"),
    ("python3.", "stdlib, other"),
    ("<frozen", "stdlib, other"),
]
# Named costs, each the share of busy samples with any matching frame on the stack.
KEY_COSTS = [
    ("GraphQL request in strawberry's view, all of it", r"^GraphQL\.__call__ \(strawberry/asgi"),
    ("GraphQL operation: parse, validate, execute", r"^Schema\.execute \(strawberry/schema"),
    ("GraphQL parse (graphql-core)", r"^parse \(graphql/language/parser"),
    ("GraphQL validation (graphql-core validate)", r"^validate \(graphql/validation/validate"),
    ("GraphQL execution, resolvers included", r"^Schema\._execute_operation "),
    (
        "GraphQL argument coercion (JSON move input)",
        r"^(coerce_argument|convert_argument|input_is_nested_too_deeply|coerce_input_value) ",
    ),
    (
        "strawberry extension hooks (contextlib stacks)",
        r"^(ExtensionContextManagerBase|AsyncExitStack|_AsyncGeneratorContextManager|contextmanager)",
    ),
    ("game service GameService.apply (store + engine)", r"^GameService\.apply "),
    ("game service GameService.read", r"^GameService\.read "),
    ("engine play (checks, copy, label, apply, forced)", r"^play \(service/engine/play"),
    ("state decode (msgpack -> State)", r"^decode_state "),
    ("state encode (State -> msgpack)", r"^encode_state "),
    ("token check (seat_of, sha256)", r"^seat_of "),
    ("view for the caller (Table.view)", r"^Table\.view "),
    ("legal moves with labels (Table.legal_moves)", r"^Table\.legal_moves "),
    ("scores (Table.scores)", r"^Table\.scores "),
    ("Redis load round trip (RedisStore.load)", r"^RedisStore\.load "),
    ("Redis commit round trip (RedisStore.commit)", r"^RedisStore\.commit "),
    (
        "building and encoding the answer (REST game_json includes view, moves, scores)",
        r"^(GraphQLApp\.encode_json|json_response|game_json) ",
    ),
    (
        "request body read and JSON decode",
        r"^(GraphQLApp\.decode_json|_body|Request\.body|Request\.json) ",
    ),
    ("rate limiter", r"^RateLimiter\."),
    ("prometheus metrics", r"prometheus_client/"),
    ("uvicorn response send", r"^RequestResponseCycle\.send "),
]
FRAME = re.compile(r"^(?P<function>.*) \((?P<file>[^()]*?)(?::(?P<line>\d+))?\)$")


def area(file: str) -> str:
    for pattern, name in AREAS:
        if pattern in file:
            return name
    return "other"


ROOT = str(Path(__file__).resolve().parents[1])  # the checkout: file names shown from it


def short(file: str) -> str:
    for marker in ("site-packages/", f"{ROOT}/", "/lib/python3.11/"):
        if marker in file:
            return file.split(marker, 1)[1]
    return file


def parse(collapsed: str) -> list[tuple[list[tuple[str, str]], int]]:
    stacks = []
    for line in collapsed.splitlines():
        frames_text, _, count = line.rpartition(" ")
        if not frames_text or not count.isdigit():
            continue
        frames = []
        for frame in frames_text.split(";"):
            found = FRAME.match(frame)
            if found is None:
                frames.append((frame, ""))
            else:
                frames.append((found["function"], found["file"]))
        stacks.append((frames, int(count)))
    return stacks


def analyse(collapsed: str, top: int = 25) -> dict[str, Any]:
    stacks = parse(collapsed)
    total = sum(count for _, count in stacks)
    areas: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    innermost: Counter[str] = Counter()
    keyed: Counter[str] = Counter()
    patterns = [(label, re.compile(pattern)) for label, pattern in KEY_COSTS]
    for frames, count in stacks:
        if not frames:
            continue
        function, file = frames[-1]
        areas[area(file)] += count
        innermost[f"{function} ({short(file)})"] += count
        seen = set()
        for function, file in frames:
            name = f"{function} ({short(file)})"
            if name not in seen:
                seen.add(name)
                inclusive[name] += count
        for label, pattern in patterns:
            if any(pattern.search(name) for name in seen):
                keyed[label] += count

    def shares(counter: Counter[str], limit: int) -> list[tuple[str, float]]:
        return [(name, 100 * n / total) for name, n in counter.most_common(limit)]

    return {
        "samples": total,
        "areas": shares(areas, len(areas)),
        "key_costs": [
            (label, 100 * keyed[label] / total) for label, _ in KEY_COSTS if keyed[label]
        ],
        "inclusive": shares(inclusive, top * 3),
        "innermost": shares(innermost, top),
    }


def render(op: str, analysis: dict[str, Any], rps: float, top: int = 25) -> str:
    lines = [f"== {op}: {analysis['samples']} busy samples, {rps:.0f} req/s while sampled"]
    lines.append("-- share of busy time by area (innermost Python frame)")
    lines += [f"{share:6.1f}%  {name}" for name, share in analysis["areas"]]
    lines.append("-- named costs (share of busy samples with the function on the stack)")
    lines += [f"{share:6.1f}%  {name}" for name, share in analysis["key_costs"]]
    lines.append("-- heaviest functions, inclusive (framework entry points filtered out)")
    shown = 0
    for name, share in analysis["inclusive"]:
        if _plumbing(name):
            continue
        lines.append(f"{share:6.1f}%  {name}")
        shown += 1
        if shown >= top:
            break
    lines.append("-- heaviest innermost frames (self time)")
    lines += [f"{share:6.1f}%  {name}" for name, share in analysis["innermost"][:top]]
    return "\n".join(lines)


def _plumbing(name: str) -> bool:
    """Frames that hold nearly every sample and say nothing (the loop, uvicorn's runner)."""
    return any(
        marker in name
        for marker in ("asyncio/", "uvicorn/main.py", "uvicorn/server.py", "click/", "runpy",
                       "<module>", "uvicorn/_compat.py")
    )  # fmt: skip


async def _drive(
    op: str, pool: Pool, host: str, port: int, pid: int, clients: int, seconds: float, out: Path
) -> tuple[str, float]:
    target: Target = OPS[op](pool, clients)
    if target.kind_of_work == "apply":
        await pool.fill(int(400 * (seconds + 2)))
    raw = out / f"profile-{op}.txt"
    spy = shutil.which("py-spy", path=str(Path(sys.executable).parent)) or "py-spy"
    recorder = await asyncio.create_subprocess_exec(
        spy, "record", "--pid", str(pid), "--duration", str(int(seconds)), "--rate", "250",
        "--format", "raw", "--output", str(raw), "--nonblocking",
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    phase = await run_phase(target, host, port, clients, seconds + 1.5, 1.0, None, {})
    _, errors = await recorder.communicate()
    if recorder.returncode != 0:
        raise RuntimeError(f"py-spy failed: {errors.decode()[-500:]}")
    return raw.read_text(), phase.requests / phase.seconds


async def _profile(args: argparse.Namespace, out: Path) -> dict[str, Any]:
    report: dict[str, Any] = {}
    with stack(with_floor=False) as servers:
        service = servers.service
        pool = Pool("127.0.0.1", service.port)
        await pool.fill(2000)
        for op in args.ops:
            collapsed, rps = await _drive(
                op, pool, "127.0.0.1", service.port, service.pid, args.clients, args.seconds, out
            )
            analysis = analyse(collapsed)
            text = render(op, analysis, rps)
            print(text + "\n", flush=True)
            report[op] = {"rps": rps, **analysis}
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ops", nargs="+", choices=list(OPS), default=list(OPS))
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--out", default="loadtests/results")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    report = uvloop.run(_profile(args, out))
    (out / "profile.json").write_bytes(msgspec.json.format(msgspec.json.encode(report)))
    print(f"wrote {out}/profile-<op>.txt (collapsed stacks) and {out}/profile.json")


if __name__ == "__main__":
    main()
