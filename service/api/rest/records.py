"""A finished game as a self-contained record: exported (signed, when the server has a key),
verified by replaying it, and the public keys its signature is checked with."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from service.api.edge.parsing import BadInput
from service.api.edge.problems import Problem, from_refusal, problem_response
from service.api.rest.http import Rest, json_response, language_of
from service.api.rest.operation import (
    GAME_ID,
    GAME_ROUTE,
    Operation,
    RestRoute,
    body,
    ok,
    problems,
    ref,
)
from service.core.records.format import MAX_RECORD_BYTES
from service.refusals import Refused

VERIFY_PATH = "/v1/game-records/verify"  # its body is a game record: up to MAX_RECORD_BYTES
# the keys change only with a deployment; a verifier that caches them longer than a rotation's
# first step (docs/security.md) would call the new key unknown
KEYS_CACHE = "public, max-age=300"


async def export_game(rest: Rest, request: Request) -> Response:
    game_id = request.path_params["game_id"]
    document = await rest.service.export_record(game_id, rest.caller(request))
    return json_response(document)


async def verify_game_record(rest: Rest, request: Request) -> Response:
    """Decoded, checked and replayed in a child process (edge/verifying.py), not here."""
    try:  # refused before its body of up to a megabyte is read, and the connection closed
        rest.verifier.check_room()  # (else the server would read the body to keep it alive)
    except Refused as busy:
        answer = problem_response(from_refusal(busy), language=language_of(request))
        answer.headers["connection"] = "close"
        return answer
    try:
        verdict = await rest.verifier.verify(await request.body())
    except BadInput as exc:
        raise Problem("BAD_REQUEST", str(exc)) from None
    return json_response(verdict)


async def record_signing_keys(rest: Rest, request: Request) -> Response:
    keys = rest.service.record_signing_keys()
    return json_response(keys, headers={"cache-control": KEYS_CACHE})


EXPORT = RestRoute(
    "/v1/games/{game_id}/record",
    "GET",
    export_game,
    Operation(
        "exportGame",
        "The game, once it is over, as one self-contained record that any server replays and "
        "verifies (GraphQL `exportGame`, schema/game-record.json). 409 GAME_NOT_OVER before: "
        "it reveals the seed.",
        [{}, {"seatToken": []}],
        {
            **ok(ref("GameRecord"), "the game record"),
            **problems(
                *GAME_ROUTE, "UNAUTHORIZED", "GAME_NOT_OVER", "RULES_CHANGED", "UPGRADE_IN_PROGRESS"
            ),
        },
        parameters=[GAME_ID],
        layout="parameters",
    ),
)
VERIFY = RestRoute(
    VERIFY_PATH,
    "POST",
    verify_game_record,
    Operation(
        "verifyGameRecord",
        "Replays a game record (the body, as exported) on this server's rules: valid and the "
        "final scores, or the first step that differs. No stored game is read; the body may "
        f"have up to {MAX_RECORD_BYTES} bytes.",
        [{}],
        {**ok(ref("RecordVerification"), "the verdict"), **problems()},
        request_body=body({"description": "A game record (GameRecord); any JSON gets a verdict."}),
        layout="parameters",
    ),
)
KEYS = RestRoute(
    "/v1/record-keys",
    "GET",
    record_signing_keys,
    Operation(
        "recordSigningKeys",
        "The Ed25519 public keys a game record signed by this service may name (its "
        "`signature.keyId`): the signing key first, then those still accepted after a "
        "rotation. Empty when the server signs no records. Public and cacheable.",
        [{}],
        {**ok(ref("RecordSigningKeys"), "the keys"), **problems()},
        layout="parameters",
    ),
)
