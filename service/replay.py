"""`python -m service.replay FILE`: verify a game record offline, with the engine alone (no
server, no Redis), as `verifyGameRecord` does on a server (service/core/game_records.py).

Exit status 0: the record is valid (its final scores are printed); 1: it is not (the first
step that differs is printed); 2: the file cannot be read as JSON (missing, too large, not
JSON). `-` reads the record from standard input.
"""

from __future__ import annotations

import sys
from typing import BinaryIO

import msgspec

from service.core.game_records import verify
from service.core.record_format import MAX_RECORD_BYTES

VALID, INVALID, UNREADABLE = 0, 1, 2


def _read(path: str) -> bytes:
    if path == "-":
        return _bounded(sys.stdin.buffer)
    with open(path, "rb") as file:
        return _bounded(file)


def _bounded(file: BinaryIO) -> bytes:
    data = file.read(MAX_RECORD_BYTES + 1)
    if len(data) > MAX_RECORD_BYTES:
        raise ValueError(f"over {MAX_RECORD_BYTES} bytes")
    return data


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m service.replay FILE  (- for standard input)", file=sys.stderr)
        return UNREADABLE
    try:
        document = msgspec.json.decode(_read(argv[0]))
    except (OSError, ValueError, RecursionError) as exc:  # msgspec.DecodeError is a ValueError
        print(f"{argv[0]}: unreadable: {exc}", file=sys.stderr)
        return UNREADABLE
    verdict = verify(document)
    difference = verdict.difference
    if difference is not None:
        print(f"invalid: version {difference.version}: {difference.reason}: {difference.message}")
        return INVALID
    scores = msgspec.json.encode(verdict.scores).decode()
    print(f"valid: {verdict.kind}, {verdict.version} versions, final scores {scores}")
    return VALID


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
