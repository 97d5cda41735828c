"""`python -m service.replay FILE`: verify a game record offline, with the engine alone (no
server, no Redis), as `verifyGameRecord` does on a server (service/core/records/documents.py).

Exit status 0: the record is valid (its final scores are printed); 1: it is not (the first
step that differs is printed); 2: the file cannot be read as JSON (missing, too large, not
JSON). `-` reads the record from standard input.
"""

from __future__ import annotations

import argparse
import sys
from typing import BinaryIO

import msgspec

from service.core.records.documents import verify
from service.core.records.format import MAX_RECORD_BYTES

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
    parser = argparse.ArgumentParser(
        prog="python -m service.replay",
        description=__doc__.split("\n\n")[0].split(": ", 1)[1],
        epilog="Exit status 0: valid; 1: invalid; 2: unreadable (or these arguments wrong).",
    )
    parser.add_argument("file", help="the game record (JSON); - reads standard input")
    path = parser.parse_args(argv).file  # --help prints the usage and exits 0; a wrong call 2
    try:
        document = msgspec.json.decode(_read(path))
    except (OSError, ValueError, RecursionError) as exc:  # msgspec.DecodeError is a ValueError
        print(f"{path}: unreadable: {exc}", file=sys.stderr)
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
