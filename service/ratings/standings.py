"""A finished game as ratings see it: who played (player ids, teammates together), in which
order they finished (ties share a place), how many takebacks it took, and whether it is
rated at all. Pure: the record and its history in, a Standing out."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from service.engine.play import decode_state
from service.games import game_for
from service.store import HistoryRecord, Record

# Why a game is not rated (rated_games.reason), besides the tenant's takeback policy
ABANDONED = "ABANDONED"  # called off by its tenant: nobody won
BOT_SEAT = "BOT_SEAT"  # a bot's result says nothing of a player's skill
NO_PLAYER_ID = "NO_PLAYER_ID"  # a seat nobody can be credited with
SHARED_PLAYER_ID = "SHARED_PLAYER_ID"  # one player in two seats
NO_TENANT = "NO_TENANT"  # a game of an earlier release, in no tenant's listings
TAKEBACKS = "TAKEBACKS"  # more takebacks than the tenant's policy allows
EXCLUSIONS = (ABANDONED, BOT_SEAT, NO_PLAYER_ID, SHARED_PLAYER_ID, NO_TENANT, TAKEBACKS)


class Standing(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    tenant: str
    kind: str
    teams: list[list[str]]  # player ids: one team a seat, or teammates together
    ranks: list[int]  # each team's place, 1 first; a tie shares one
    takebacks: int  # takebacks TAKEN
    excluded: str | None  # why it is not rated, whatever the tenant's policy says

    def excluded_by(self, max_takebacks: int) -> str | None:
        """Why it is not rated under a policy that allows `max_takebacks`; None: rated."""
        if self.excluded is None and self.takebacks > max_takebacks:
            return TAKEBACKS
        return self.excluded


def standing(game_id: str, record: Record, entries: Sequence[HistoryRecord]) -> Standing:
    """The standing of a finished game (`entries`: its whole history, for its takebacks)."""
    takebacks = sum(1 for e in entries if e.takeback is not None and e.takeback.step == "TAKEN")
    ids = [*record.player_ids, *[None] * (record.players - len(record.player_ids))]
    common = {"game_id": game_id, "tenant": record.tenant, "kind": record.kind}
    excluded = _excluded(record, ids)
    if excluded is not None:
        return Standing(**common, teams=[], ranks=[], takebacks=takebacks, excluded=excluded)
    players = [str(p) for p in ids]
    teams, ranks = _places(record, players)
    return Standing(**common, teams=teams, ranks=ranks, takebacks=takebacks, excluded=None)


def _excluded(record: Record, ids: list[str | None]) -> str | None:
    if record.status() == "ABANDONED":
        return ABANDONED
    if not record.tenant:
        return NO_TENANT
    if record.bots:
        return BOT_SEAT
    if any(p is None for p in ids):
        return NO_PLAYER_ID
    if len(set(ids)) != len(ids):
        return SHARED_PLAYER_ID
    return None


def _places(record: Record, players: list[str]) -> tuple[list[list[str]], list[int]]:
    """Teams and their places: the winners first, a seat that resigned or timed out last,
    the others by points, then tiebreaks, as the game scores them."""
    game = game_for(record.kind, record.rules)
    scores = game.scores(decode_state(game, record.state))
    outcome = record.outcome
    winners = set(outcome.winners if outcome is not None else scores.winners)
    loser = outcome.seat if outcome is not None else None
    entries = {entry.seat: entry for entry in scores.entries}
    units: dict[tuple[int, ...], tuple[bool, bool, int, list[int]]] = {}
    for seat in range(record.players):
        entry = entries[seat]
        unit = tuple(sorted(entry.team or [seat]))
        won = any(s in winners for s in unit)
        stayed = all(s != loser for s in unit)
        units.setdefault(unit, (won, stayed, entry.points, list(entry.tiebreak)))
    keys = sorted(set(map(_key, units.values())), reverse=True)
    teams = [[players[seat] for seat in unit] for unit in units]
    ranks = [keys.index(_key(value)) + 1 for value in units.values()]
    return teams, ranks


def _key(value: tuple[bool, bool, int, list[int]]) -> tuple[bool, bool, int, tuple[int, ...]]:
    won, stayed, points, tiebreak = value
    return won, stayed, points, tuple(tiebreak)
