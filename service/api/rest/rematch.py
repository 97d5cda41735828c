"""Rematches and challenges (docs/api.md, "Rematch and challenges"): the same service calls
and refusals as GraphQL's (service/api/graphql/rematch.py)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from service.api.rest.http import Rest, json_response, read_body, wanted
from service.api.rest.operation import (
    ACT_AS,
    ACTING,
    GAME_ID,
    GAME_ROUTE,
    LANGUAGE,
    ONE_GAME,
    READER,
    WITH_MESSAGES,
    Operation,
    RestRoute,
    Security,
    body,
    ok,
    problems,
    ref,
    struct_schema,
)
from service.api.rest.rendering import game_json
from service.core.players import challenges, rematch

PLAYER: Security = [{"seatToken": []}]  # a player token, as a bearer token
CHALLENGER: Security = [{"seatToken": []}, {"apiKey": []}]  # or the key naming challengerId
NO_STORE = {"cache-control": "no-store"}


class ChallengeBody(msgspec.Struct, forbid_unknown_fields=True, rename="camel"):
    kind: str
    opponents: list[str]
    challenger_id: str | None = None
    options: Any = None
    clock: Any = None
    spectator_delay: int = 0
    takebacks: str | None = None
    expires_in_seconds: int = challenges.DEFAULT_EXPIRY


class OfferBody(msgspec.Struct, forbid_unknown_fields=True, rename="camel"):
    expires_in_seconds: int = rematch.DEFAULT_EXPIRY


def _time(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, UTC).isoformat()


async def create_challenge(rest: Rest, request: Request) -> Response:
    asked = await read_body(request, ChallengeBody, rest.max_depth)
    lang, messages = wanted(request)
    challenge = challenges.Challenge(
        kind=asked.kind,
        opponents=asked.opponents,
        options=asked.options,
        clock=asked.clock,
        spectator_delay=asked.spectator_delay,
        expires_in=asked.expires_in_seconds,
    )
    loaded, token = await rest.service.create_challenge(
        rest.caller(request), challenge, asked.takebacks, asked.challenger_id
    )
    expires = loaded.record.deadline or loaded.record.created
    answer = {
        "game": game_json(loaded, None, lang, messages),
        "seatToken": token,
        "expiresAt": _time(expires),
    }
    return json_response(answer, 201, NO_STORE)


async def my_challenges(rest: Rest, request: Request) -> Response:
    lang, messages = wanted(request)
    found = await rest.service.my_challenges(rest.caller(request))
    answer = {
        "challenges": [
            {"seat": seat, "game": game_json(loaded, None, lang, messages)}
            for loaded, seat in found
        ]
    }
    return json_response(answer, headers=NO_STORE)


async def decline_challenge(rest: Rest, request: Request) -> Response:
    lang, messages = wanted(request)
    loaded = await rest.service.decline_challenge(
        rest.caller(request), request.path_params["game_id"]
    )
    return json_response({"game": game_json(loaded, None, lang, messages)}, headers=NO_STORE)


def _seated(loaded: Any, seat: int, token: str | None, request: Request) -> Response:
    lang, messages = wanted(request)
    answer = {"seat": seat, "seatToken": token, "game": game_json(loaded, None, lang, messages)}
    return json_response(answer, headers=NO_STORE)


async def offer_rematch(rest: Rest, request: Request) -> Response:
    raw = await request.body()
    asked = await read_body(request, OfferBody, rest.max_depth) if raw.strip() else OfferBody()
    loaded, seat, token = await rest.service.offer_rematch(
        rest.caller(request), request.path_params["game_id"], asked.expires_in_seconds
    )
    return _seated(loaded, seat, token, request)


async def accept_rematch(rest: Rest, request: Request) -> Response:
    loaded, seat, token = await rest.service.accept_rematch(
        rest.caller(request), request.path_params["game_id"]
    )
    return _seated(loaded, seat, token, request)


async def decline_rematch(rest: Rest, request: Request) -> Response:
    lang, messages = wanted(request)
    loaded = await rest.service.decline_rematch(
        rest.caller(request), request.path_params["game_id"]
    )
    return json_response({"game": game_json(loaded, None, lang, messages)}, headers=NO_STORE)


async def rematch_of(rest: Rest, request: Request) -> Response:
    found = await rest.service.rematch_of(rest.caller(request), request.path_params["game_id"])
    return json_response({"gameId": found}, headers=NO_STORE)


STRING = {"type": "string"}
GAME_ANSWER = {"type": "object", "properties": {"game": ref("Game")}, "required": ["game"]}
SEATED = {
    "type": "object",
    "properties": {
        "seat": {"type": "integer"},
        "seatToken": {"type": ["string", "null"]},
        "game": ref("Game"),
    },
    "required": ["seat", "seatToken", "game"],
}
REMATCH_CODES = ("UNAUTHORIZED", "FORBIDDEN", "GAME_NOT_OVER", "GAME_OVER", "GAME_FULL")

CREATE_CHALLENGE = RestRoute(
    "/v1/challenges",
    "POST",
    create_challenge,
    Operation(
        "createChallenge",
        "A game of the challenger (seat 0: a player token, or the tenant's key naming "
        "challengerId) with a seat reserved for each challenged player; it starts when all "
        "joined, and lapses (ABANDONED) after expiresInSeconds.",
        CHALLENGER,
        {
            **ok(
                {
                    "type": "object",
                    "properties": {
                        "game": ref("Game"),
                        "seatToken": STRING,
                        "expiresAt": {"type": "string", "format": "date-time"},
                    },
                    "required": ["game", "seatToken", "expiresAt"],
                },
                "the challenge's game and the challenger's seat token",
                "201",
            ),
            **problems("UNAUTHORIZED", "BAD_USER_INPUT"),
        },
        parameters=[LANGUAGE, WITH_MESSAGES],
        request_body=body(struct_schema(ChallengeBody)),
    ),
)
MY_CHALLENGES = RestRoute(
    "/v1/player/challenges",
    "GET",
    my_challenges,
    Operation(
        "myChallenges",
        "The challenges waiting for the bearer's player (a player token), newest first, each "
        "with the seat kept for it.",
        PLAYER,
        {
            **ok(
                {
                    "type": "object",
                    "properties": {
                        "challenges": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "properties": {"seat": {"type": "integer"}, "game": ref("Game")},
                                "required": ["seat", "game"],
                            },
                        }
                    },
                    "required": ["challenges"],
                },
                "the challenges",
            ),
            **problems("UNAUTHORIZED"),
        },
        parameters=[LANGUAGE, WITH_MESSAGES],
    ),
)
DECLINE_CHALLENGE = RestRoute(
    f"{ONE_GAME}/decline-challenge",
    "POST",
    decline_challenge,
    Operation(
        "declineChallenge",
        "One of the challenge's players (a player token) ends it for everyone while it waits.",
        PLAYER,
        {
            **ok(GAME_ANSWER, "the challenge, ABANDONED"),
            **problems(*GAME_ROUTE, "UNAUTHORIZED", "FORBIDDEN", "GAME_OVER"),
        },
        parameters=[GAME_ID, LANGUAGE, WITH_MESSAGES],
        layout="parameters",
    ),
)
OFFER = RestRoute(
    f"{ONE_GAME}/rematch",
    "POST",
    offer_rematch,
    Operation(
        "offerRematch",
        "A seat of the game that is over offers it again: the one rematch is created by the "
        "first offer and the offerer's seat taken (with its new seat token, without a player "
        "token). Body optional: {expiresInSeconds}.",
        ACTING,
        {**ok(SEATED, "the seat taken"), **problems(*GAME_ROUTE, *REMATCH_CODES, "BAD_USER_INPUT")},
        parameters=[GAME_ID, ACT_AS, LANGUAGE, WITH_MESSAGES],
        request_body={
            "required": False,
            "content": {"application/json": {"schema": struct_schema(OfferBody)}},
        },
        layout="parameters",
    ),
)
ACCEPT = RestRoute(
    f"{ONE_GAME}/rematch/accept",
    "POST",
    accept_rematch,
    Operation(
        "acceptRematch",
        "A seat of the game that is over takes its seat of the rematch offered (the new seat "
        "token answered, the same on every call, without a player token).",
        ACTING,
        {**ok(SEATED, "the seat taken"), **problems(*GAME_ROUTE, *REMATCH_CODES)},
        parameters=[GAME_ID, ACT_AS, LANGUAGE, WITH_MESSAGES],
        layout="parameters",
    ),
)
DECLINE = RestRoute(
    f"{ONE_GAME}/rematch/decline",
    "POST",
    decline_rematch,
    Operation(
        "declineRematch",
        "A seat of the game that is over ends its rematch for everyone while it waits.",
        ACTING,
        {**ok(GAME_ANSWER, "the rematch, ABANDONED"), **problems(*GAME_ROUTE, *REMATCH_CODES)},
        parameters=[GAME_ID, ACT_AS, LANGUAGE, WITH_MESSAGES],
        layout="parameters",
    ),
)
REMATCH = RestRoute(
    f"{ONE_GAME}/rematch",
    "GET",
    rematch_of,
    Operation(
        "rematch",
        "The id of the game's rematch once a seat offered it (null before), for whoever may "
        "read the game.",
        READER,
        {
            **ok(
                {
                    "type": "object",
                    "properties": {"gameId": {"type": ["string", "null"]}},
                    "required": ["gameId"],
                },
                "the rematch's id",
            ),
            **problems(*GAME_ROUTE, "UNAUTHORIZED", "FORBIDDEN"),
        },
        parameters=[GAME_ID, ACT_AS],
        layout="parameters",
    ),
)
ROUTES = (CREATE_CHALLENGE, MY_CHALLENGES, DECLINE_CHALLENGE, OFFER, REMATCH, ACCEPT, DECLINE)
