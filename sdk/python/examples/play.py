"""A whole game with the Python SDK (rules_client), every seat human.

Each turn the seat to act reads its legal moves and sends one back as offered, until the game is
over. Then the final scores, the seed reveal checked against the commitment made at create, the
typed history, every version again from `events`, and the exported record verified.

    RULES_API_KEY=<secret> python sdk/python/examples/play.py http://127.0.0.1:8000 TREELINGS 2

prints what it saw as one JSON object. The API key (`--api-key`, else RULES_API_KEY) is the
secret of the tenant's RULES_API_KEYS entry, without the tenant's name; a development server
without keys needs none. tests/clients/test_python_sdk*.py run `play` for every kind, run this
file against a server with keys, and run `mypy --strict` over it.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import random
import sys
from dataclasses import asdict, dataclass

from rules_client import AsyncRules, GameKind, GameStatus, GameSummary, UnauthorizedError

MAX_DECISIONS = 5000  # a game of any kind ends long before: a bound, never reached


@dataclass(frozen=True)
class Played:
    """What a whole game showed the client."""

    game_id: str
    kind: str
    players: int
    version: int  # the last version: every decision and forced step
    decisions: int  # the moves this script sent
    winners: list[int]
    points: list[int]  # by seat
    options: str  # the GraphQL type of seedReveal.typedOptions, e.g. "TreelingsOptions"
    commitment_holds: bool  # sha256(salt + seed) is the seedCommitment shown at create
    history_moves: int  # history entries with a typed move
    events: list[int]  # the versions `events(after_version=0)` replayed
    record_valid: bool  # export_game's record, replayed by verify_game_record


async def play(
    url: str, kind: GameKind, players: int, seed: str | None = None, api_key: str | None = None
) -> Played:
    """Create a game, play it to the end with typed moves only, and read what it ended with."""
    chooser = random.Random(seed)
    async with AsyncRules(url, api_key=api_key) as tenant:
        created = await tenant.create_game(kind, players, seed=seed)
        seats = [tenant.with_token(seat.token) for seat in created.seats]
        game: GameSummary = created.game
        decisions = 0
        while game.status == GameStatus.ACTIVE:
            if decisions == MAX_DECISIONS:
                raise RuntimeError(f"{kind.value}: no end after {decisions} decisions")
            seat = seats[game.to_act[0]]
            legal = await seat.legal_moves(game.id)
            offered = chooser.choice(legal.legal_moves)
            applied = await seat.apply_move(game.id, offered, expected_version=legal.version)
            game, decisions = applied.game, decisions + 1

        scores = await tenant.scores(game.id)
        revealed = await tenant.seed_reveal(game.id)
        history = await tenant.history(game.id)
        reveal = revealed.seed_reveal
        assert reveal is not None and reveal.typed_options is not None, "shown once it is over"
        salted = hashlib.sha256((reveal.salt + reveal.seed).encode()).hexdigest()
        events = [event.version async for event in tenant.events(game.id, after_version=0)]
        record = await tenant.export_game(game.id)
        verdict = await tenant.verify_game_record(record)
        return Played(
            game_id=game.id,
            kind=game.kind.value,
            players=game.players,
            version=game.version,
            decisions=decisions,
            winners=scores.scores.winners,
            points=[entry.points for entry in scores.scores.entries],
            options=reveal.typed_options.typename__,
            commitment_holds=salted == revealed.seed_commitment,
            history_moves=sum(entry.typed_move is not None for entry in history.history),
            events=events,
            record_valid=verdict.valid and verdict.version == game.version,
        )


def refusal(error: UnauthorizedError, api_key: str | None) -> str:
    """What to do about a refused key: a missing one, one written as RULES_API_KEYS writes it
    (`tenant:secret`), or one the server does not know."""
    if not api_key:
        return "this server needs an API key: pass --api-key or set RULES_API_KEY"
    if ":" in api_key:
        return (
            "the API key looks like a RULES_API_KEYS entry (tenant:secret): "
            "pass only the secret, the part after the colon"
        )
    return f"the server refused the API key: {error.message}"


def main(argv: list[str]) -> int:
    """`play.py URL KIND [PLAYERS] [--api-key KEY]`; exit 2 when the key is refused."""
    parser = argparse.ArgumentParser(description="Play a whole game with the Python SDK.")
    parser.add_argument("url", help="the service, e.g. http://127.0.0.1:8000")
    parser.add_argument("kind", type=GameKind, choices=list(GameKind))
    parser.add_argument("players", type=int, nargs="?", default=2)
    parser.add_argument("--api-key", default=os.environ.get("RULES_API_KEY"))
    parser.add_argument("--seed", help="for tests and replays (needs a key in production)")
    args = parser.parse_args(argv[1:])
    try:
        played = asyncio.run(play(args.url, args.kind, args.players, args.seed, args.api_key))
    except UnauthorizedError as error:
        print(refusal(error, args.api_key), file=sys.stderr)
        return 2
    print(json.dumps(asdict(played)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
