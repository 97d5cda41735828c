"""REST's JSON of a game, its history and a dry run: the same fields as GraphQL's `Game`
(tests/api/test_vocabularies.py holds the two, the fast path and the OpenAPI document together)."""

from __future__ import annotations

from typing import Any

from msgspec.structs import astuple

from service.api.edge.localized import (
    detail_raw,
    label_raw,
    message_json,
    refusal_message,
    said_raw,
)
from service.api.edge.problems import from_refusal
from service.core import LoadedGame
from service.core.game.clocks import clock_json
from service.core.takebacks.policy import note_json, request_json
from service.engine import Game
from service.engine.texts import ENGLISH
from service.refusals import Refused
from service.store import HistoryRecord
from service.store.records import END_REASONS, Outcome

# A game's fields, in the order REST writes them; OpenAPI requires every one.
GAME_FIELDS = (
    "id",
    "kind",
    "version",
    "rulesVersion",
    "status",
    "players",
    "toAct",
    "viewer",
    "state",
    "legalMoves",
    "scores",
    "seats",
    "outcome",
    "seedCommitment",
    "seedReveal",
    "clock",
    "spectatorDelay",
    "takebacks",
    "takebackRequest",
)


def game_json(
    loaded: LoadedGame, tenant: str | None, language: str = ENGLISH, messages: bool = True
) -> dict[str, Any]:
    """The game as REST returns it, player ids for the game's own `tenant` only, its texts'
    messages in `language` (none without `messages`: `?messages=false`)."""
    record = loaded.record
    return {
        "id": loaded.id,
        "kind": record.kind,
        "version": record.version,
        "rulesVersion": record.rules,
        "status": loaded.status(),
        "players": record.players,
        "toAct": loaded.to_act,
        "viewer": loaded.viewer,
        "state": loaded.view(),
        "legalMoves": legal_moves_json(loaded, language, messages),
        "scores": scores_json(loaded, language, messages),
        "seats": loaded.seats(tenant),
        "outcome": outcome_json(record.outcome),
        "seedCommitment": loaded.seed_commitment(),
        "seedReveal": loaded.seed_reveal(),
        "clock": clock_json(record),
        "spectatorDelay": record.spectator_delay,
        "takebacks": record.takebacks,
        "takebackRequest": request_json(record),
    }


def legal_moves_json(
    loaded: LoadedGame, language: str = ENGLISH, messages: bool = True
) -> list[dict[str, Any]]:
    """The viewer's legal moves (none for a spectator), each with its label and the label's
    message."""
    if not messages:
        return [{"move": move, "label": label} for move, label in loaded.legal_moves()]
    catalog = loaded.game.texts
    return [
        {"move": move, "label": label, "labelMessage": said_raw(catalog, said, language)}
        for move, label, said in loaded.said_moves()
    ]


def scores_json(loaded: LoadedGame, language: str = ENGLISH, messages: bool = True) -> Any:
    """The scores, each entry with its items' details as messages."""
    scores = loaded.scores()
    if not messages:
        return scores  # the Struct: the encoder writes the same JSON as to_builtins would
    # Each Struct's own fields by their JSON names, values as they are: the encoder writes them
    # as msgspec.to_builtins would have made them, without converting every item first.
    namespace = loaded.game.texts.namespace
    entries = []
    for entry in scores.entries:
        shallow = dict(zip(type(entry).__struct_encode_fields__, astuple(entry), strict=True))
        shallow["detailMessages"] = [
            detail_raw(namespace, item.detail, language) for item in entry.breakdown
        ]
        entries.append(shallow)
    shallow = dict(zip(type(scores).__struct_encode_fields__, astuple(scores), strict=True))
    shallow["entries"] = entries
    return shallow


def outcome_json(outcome: Outcome | None) -> dict[str, Any] | None:
    if outcome is None:
        return None
    return {"reason": outcome.reason, "seat": outcome.seat, "winners": outcome.winners}


def history_json(
    entry: HistoryRecord, game: Game[Any, Any], language: str = ENGLISH, messages: bool = True
) -> dict[str, Any]:
    seat = entry.seat if entry.seat >= 0 else None
    event = entry.event if entry.event in END_REASONS else None
    if not messages:
        return {
            "version": entry.version,
            "seat": seat,
            "move": entry.move,
            "label": entry.label,
            "forced": entry.forced,
            "event": event,
            "actedBy": entry.acted_by or None,
            "takeback": note_json(entry.takeback),
        }
    return {
        "version": entry.version,
        "seat": seat,
        "move": entry.move,
        "label": entry.label,
        "labelMessage": label_raw(game.texts.namespace, entry.label, language),
        "forced": entry.forced,
        "event": event,
        "actedBy": entry.acted_by or None,
        "takeback": note_json(entry.takeback),
    }


def validation_json(rejected: Refused | None, language: str = ENGLISH) -> dict[str, Any]:
    if rejected is None:
        return {
            "valid": True,
            "code": None,
            "message": "legal now",
            "currentVersion": None,
            "localizedMessage": None,
        }
    problem = from_refusal(rejected)
    return {
        "valid": False,
        "code": problem.code,
        "message": rejected.message,
        "currentVersion": rejected.current_version,
        **problem.explained,
        "localizedMessage": message_json(refusal_message(rejected, problem.code), language),
    }
