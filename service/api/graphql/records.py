"""Portable game records over GraphQL: `exportGame`, `verifyGameRecord` and
`recordSigningKeys`, beside the REST mirror's `GET /v1/games/{id}/record`, `POST
/v1/game-records/verify` and `GET /v1/record-keys`. The document, the replay and the
signatures are service/core/records/'s; here they are only shaped."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias, cast

import msgspec
import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from service.api.edge.parsing import BadInput
from service.api.edge.verifying import Verifier
from service.api.graphql.errors import ApiError, api_error
from service.api.graphql.types import context_caller, context_service, vocabulary
from service.core.records.format import PROBLEMS, SIGNATURE_CHECKS
from service.core.records.format import RecordVerification as Verdict
from service.refusals import Refused

if TYPE_CHECKING:  # made from their sources at import: opaque to mypy
    RecordProblem: TypeAlias = Any
    RecordSignatureCheck: TypeAlias = Any
else:
    RecordProblem = vocabulary(
        "RecordProblem", PROBLEMS, "Why a game record does not verify (docs/api.md)."
    )
    RecordSignatureCheck = vocabulary(
        "RecordSignatureCheck",
        SIGNATURE_CHECKS,
        "What a game record's signature says, apart from whether the game replays: VALID "
        "(a key this server publishes, recordSigningKeys), UNKNOWN_KEY, INVALID (changed "
        "after signing, or no signature of ours), UNSIGNED.",
    )


@strawberry.type(description="The first step of a game record that differs from its replay.")
class RecordDifference:
    version: int = strawberry.field(description="The step's version; 0: the setup, or the whole.")
    reason: RecordProblem
    message: str


@strawberry.type(description="A game record replayed on this server's rules.")
class RecordVerification:
    valid: bool
    kind: str | None = strawberry.field(description="The record's kind, once it could be read.")
    version: int | None = strawberry.field(description="Valid: the last version replayed.")
    scores: JSON | None = strawberry.field(description="Valid: the final scores, replayed.")
    difference: RecordDifference | None = strawberry.field(
        description="Not valid: the first step that differs, and why."
    )
    signature: RecordSignatureCheck = strawberry.field(
        description="The record's signature, checked whether or not the game replays."
    )
    key_id: str | None = strawberry.field(
        name="keyId", description="The key the signature names, when it names one."
    )


@strawberry.type(description="A public key this server's game record signatures may name.")
class RecordSigningKey:
    key_id: str = strawberry.field(
        name="keyId", description="The first 16 hex digits of the SHA-256 of the raw key."
    )
    algorithm: str = strawberry.field(description="Ed25519.")
    public_key: str = strawberry.field(
        name="publicKey", description="The raw 32-byte public key, base64url without padding."
    )


def verification(verdict: Verdict) -> RecordVerification:
    difference = verdict.difference
    return RecordVerification(
        valid=verdict.valid,
        kind=verdict.kind,
        version=verdict.version,
        scores=cast(JSON, verdict.scores),
        difference=None
        if difference is None
        else RecordDifference(
            version=difference.version,
            reason=RecordProblem(difference.reason),
            message=difference.message,
        ),
        signature=RecordSignatureCheck(verdict.signature),
        key_id=verdict.key_id,
    )


@strawberry.type
class RecordQueries:
    @strawberry.field(
        name="exportGame",
        description="The game, once it is over, as one self-contained record that any server "
        "(or `python -m service.replay`) replays and verifies: schema/game-record.json. "
        "GAME_NOT_OVER before: it reveals the seed.",
    )
    async def export_game(self, info: Info[Any, Any], game_id: strawberry.ID) -> JSON:
        try:
            document = await context_service(info).export_record(
                str(game_id), context_caller(info, None)
            )
        except Refused as refused:
            raise api_error(refused) from None
        return cast(JSON, document)

    @strawberry.field(
        name="verifyGameRecord",
        description="Replays a game record (exportGame's) on this server's rules: valid and "
        "the final scores, or the first step that differs. No stored game is read.",
    )
    async def verify_game_record(self, info: Info[Any, Any], record: JSON) -> RecordVerification:
        verifier: Verifier = info.context["verifier"]
        try:  # decoded, checked and replayed in a child process (edge/verifying.py)
            verdict = await verifier.verify(msgspec.json.encode(record))
        except Refused as refused:
            raise api_error(refused) from None
        except BadInput as exc:
            raise ApiError("BAD_USER_INPUT", str(exc)) from None
        return verification(verdict)

    @strawberry.field(
        name="recordSigningKeys",
        description="The Ed25519 public keys a game record signed by this server may name "
        "(its `signature.keyId`): the signing key first, then those still accepted after a "
        "rotation. Empty when the server signs no records (REST: GET /v1/record-keys).",
    )
    def record_signing_keys(self, info: Info[Any, Any]) -> list[RecordSigningKey]:
        return [
            RecordSigningKey(key_id=key.key_id, algorithm=key.algorithm, public_key=key.public_key)
            for key in context_service(info).record_signing_keys().keys
        ]
