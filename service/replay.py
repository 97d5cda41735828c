"""`python -m service.replay FILE`: verify a game record offline, with the engine alone (no
server, no Redis), as `verifyGameRecord` does on a server (service/core/records/documents.py).

Exit status 0: the record is valid (its final scores are printed); 1: it is not (the first
step that differs is printed); 2: the file cannot be read as JSON (missing, too large, not
JSON), or a --public-key is no key. `-` reads the record from standard input.

A signed record's signature is checked too, and printed on a line of its own: VALID under a
public key given with --public-key (base64url, repeatable: GET /v1/record-keys lists a
server's), UNKNOWN_KEY without its key, INVALID when the record changed after signing. It is a
separate answer: the exit status is the game's, unless --require-signature is given, when a
valid game whose signature is not VALID (INVALID, UNKNOWN_KEY, or none) exits 3.

Without the service: the wheel `tree-rules-records` (packages/records, `make records-package`)
holds this module and what it imports (the engine, the games, the bots, a record's format,
replay and signature) and needs msgspec and cryptography alone (docs/api.md, "Verifying a
record offline").
"""

from __future__ import annotations

import argparse
import sys
from typing import BinaryIO

import msgspec

from service.core.records.documents import verify
from service.core.records.format import MAX_RECORD_BYTES, RecordVerification
from service.core.records.signing import Keyring, KeySettingError

VALID, INVALID, UNREADABLE, SIGNATURE_REFUSED = 0, 1, 2, 3


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


def _signature_line(verdict: RecordVerification) -> str:
    named = "" if verdict.key_id is None else f" (key {verdict.key_id})"
    hint = ": give its public key with --public-key" if verdict.signature == "UNKNOWN_KEY" else ""
    return f"signature: {verdict.signature}{named}{hint}"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m service.replay",
        description=__doc__.split("\n\n")[0].split(": ", 1)[1],
        epilog="Exit status 0: valid; 1: invalid; 2: unreadable (or these arguments wrong); "
        "3: valid, but --require-signature and its signature is not VALID.",
    )
    parser.add_argument("file", help="the game record (JSON); - reads standard input")
    parser.add_argument(
        "--public-key",
        action="append",
        default=[],
        metavar="KEY",
        help="an Ed25519 public key (base64url) the record's signature may name; repeatable",
    )
    parser.add_argument(
        "--require-signature",
        action="store_true",
        help="exit 3 when the game is valid but not signed VALIDly by a --public-key",
    )
    arguments = parser.parse_args(argv)  # --help prints the usage and exits 0; a wrong call 2
    path = arguments.file
    try:
        keys = Keyring.of_public_keys(arguments.public_key)
    except KeySettingError as exc:
        print(f"{exc}", file=sys.stderr)
        return UNREADABLE
    try:
        document = msgspec.json.decode(_read(path))
    except (OSError, ValueError, RecursionError) as exc:  # msgspec.DecodeError is a ValueError
        print(f"{path}: unreadable: {exc}", file=sys.stderr)
        return UNREADABLE
    verdict = verify(document, keys)
    difference = verdict.difference
    if difference is not None:
        print(f"invalid: version {difference.version}: {difference.reason}: {difference.message}")
    else:
        scores = msgspec.json.encode(verdict.scores).decode()
        print(f"valid: {verdict.kind}, {verdict.version} versions, final scores {scores}")
    # an unsigned record prints what it always did, unless a signature was asked for
    if verdict.signature != "UNSIGNED" or arguments.require_signature or keys.accepted:
        print(_signature_line(verdict))
    if difference is not None:
        return INVALID
    if arguments.require_signature and verdict.signature != "VALID":
        return SIGNATURE_REFUSED
    return VALID


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
