"""A new game's first record, from createGame's input: every option checked (BadSetup names
what is wrong), the seed drawn or taken, the engine's setup and forced first steps played, the
human seats' tokens made and the turn clock started. Nothing is stored here."""

from __future__ import annotations

import secrets
import time
from typing import Any

from service.bots import STRATEGIES
from service.core.access.keys import check_spectator_delay, new_token
from service.core.game import clocks
from service.core.game.loaded_game import acting
from service.engine import BadSetup, Played, encode_state, start
from service.games import games
from service.store import FORMAT, Record

MAX_SEED = 200
MAX_PLAYER_ID = 128  # characters of an app's own user id (createGame's playerIds)


def new_game(
    tenant: str,
    kind: str,
    players: int,
    seed: str | None,
    options: Any,
    bots: dict[int, str],
    player_ids: list[str | None],
    clock: object,
    spectator_delay: int = 0,
) -> tuple[Record, Played, dict[int, str]]:
    """The record, what setup played, and the tokens of the human seats (a bot seat gets none:
    nobody may see or act as a bot's seat)."""
    game = games().get(kind)
    if game is None:
        raise BadSetup(f"{kind} is not available on this server")
    if seed is not None and len(seed) > MAX_SEED:
        raise BadSetup(f"the seed may have at most {MAX_SEED} characters")
    if any(seat not in range(players) for seat in bots) or len(bots) >= players:
        raise BadSetup("bots must name seats of the game and leave at least one human seat")
    if any(strategy not in STRATEGIES for strategy in bots.values()):
        raise BadSetup(f"a bot's strategy is one of {', '.join(STRATEGIES)}")
    if len(player_ids) > players:
        raise BadSetup("playerIds has one entry per seat, at most `players` of them")
    if any(p is not None and not 0 < len(p) <= MAX_PLAYER_ID for p in player_ids):
        raise BadSetup(f"a playerId has 1 to {MAX_PLAYER_ID} characters")
    turn_clock = clocks.parse_clock(clock)
    check_spectator_delay(spectator_delay)
    # The salt is secret until the end, also for a chosen seed: the commitment of a guessable
    # seed ("hello") would otherwise give it away, and with it every hidden card. It never
    # enters the RNG, so the same seed still deals the same game.
    salt = secrets.token_hex(16)
    seed = seed if seed is not None else secrets.token_hex(16)
    played = start(game, players, options, seed)
    tokens = {seat: new_token(seat) for seat in range(players) if seat not in bots}
    now = time.time()
    record = Record(
        format=FORMAT,
        kind=kind,
        players=players,
        version=len(played.steps),
        finished=game.is_over(played.state),
        seed=seed,
        token_hashes=[tokens[seat][1] if seat in tokens else b"" for seat in range(players)],
        state=encode_state(played.state),
        created=now,
        updated=now,
        bots=bots,
        options=options if options is not None else {},
        tenant=tenant,
        player_ids=[*player_ids, *[None] * (players - len(player_ids))],
        acting=acting(game, played.state),
        salt=salt,
        clock=turn_clock,
        rules=game.rules_version,
        spectator_delay=spectator_delay,
    )
    shown = {seat: token for seat, (token, _) in tokens.items()}
    return clocks.started(record), played, shown
