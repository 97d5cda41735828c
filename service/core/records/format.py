"""The portable game record's document (docs/api.md "Portable game records"): its
format, the types its JSON Schema (schema/game-record.json) is made from, the reasons a record
fails verification, and the digests it carries. service/core/records/replay.py replays one;
service/core/records/documents.py exports and verifies them."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any, Final, Literal, TypeAlias

import msgspec

from service.bots import Strategy
from service.core.game.clocks import ON_TIMEOUT
from service.core.takebacks import policy as takebacks
from service.engine import (
    Wire,
    encode_state,
)
from service.store.records import (
    ACTED_BY_TENANT,
    END_REASONS,
)
from service.store.records import MAX_STEPS as MAX_STEPS  # a record's bound is the history's

FORMAT_NAME: Final = "tree-games/game-record"
FORMAT_VERSION: Final = 1
# A replay costs some 0.01-0.05 ms per step on one core (a 4-seat Treetopia game of 600 steps,
# the longest of the four, replays in 20-25 ms on a busy machine). Beyond MAX_STEPS a record is
# refused unread, whatever it holds: no game the service plays comes near it (takebacks stop
# in time, takebacks/policy.py's `room_for`).
# What a record of MAX_STEPS steps takes at most, about: the body REST's verify route accepts,
# and GraphQL for a document that asks verifyGameRecord alone (service/api/graphql/app.py).
MAX_RECORD_BYTES = 1024 * 1024

# Why a record does not verify, in the order the checks meet them.
PROBLEMS = (
    "MALFORMED",  # not a game record: a field missing, of the wrong type, or unknown
    "UNSUPPORTED_FORMAT",  # another format, or a version of this one this release cannot read
    "TOO_LONG",  # more than MAX_STEPS steps: not replayed here
    "UNKNOWN_KIND",  # a kind of game this server does not host
    "UNKNOWN_RULES_VERSION",  # rules of its kind this release does not have
    "SEED_MISMATCH",  # the seed and salt do not hash to the commitment
    "BAD_SETUP",  # the players or options are not a game of its kind
    "VERSION_MISMATCH",  # a step's version is not the one after the step before it
    "FORCED_MISMATCH",  # a forced step the rules do not force, or a decision where they do
    "ILLEGAL_MOVE",  # the rules refuse the step (not that seat's turn, not a legal move, over)
    "NOT_CANONICAL",  # a legal move spelt otherwise than the service records it
    "TIMEOUT_MISMATCH",  # a timeout the clock did not call, or not the move its onTimeout plays
    "TAKEBACK_NOT_ALLOWED",  # a takeback step the game's policy refuses (takebacks/policy.py)
    "BAD_TAKEBACK",  # a takeback step the service would have recorded otherwise (its version...)
    "STATE_MISMATCH",  # the state after the step is not the one the record says
    "INCOMPLETE",  # the steps end before the game does
    "OUTCOME_MISMATCH",  # the ending (status, reason, seat, winners) is not the replayed one
    "SCORES_MISMATCH",  # the final scores are not the replayed ones
)
STATUSES = ("FINISHED", "ABANDONED")
# What a record's signature says (service/core/records/signing.py), beside whether it replays.
SIGNATURE_CHECKS = (
    "VALID",  # signed by a key this service publishes, and unchanged since
    "UNKNOWN_KEY",  # signed by a key this service does not publish (or was not given offline)
    "INVALID",  # changed after signing, or a signature that is no signature of ours
    "UNSIGNED",  # no signature member
)
SIGNATURE_ALGORITHM: Final = "Ed25519"

if TYPE_CHECKING:  # Literals made from the tuples at import: JSON Schema lists them as enums
    Event: TypeAlias = str
    StepEvent: TypeAlias = str
    Policy: TypeAlias = str
    TakebackStep: TypeAlias = str
    ActedBy: TypeAlias = str
    Status: TypeAlias = str
    Problem: TypeAlias = str
    OnTimeout: TypeAlias = str
    SignatureCheck: TypeAlias = str
else:
    Event = Literal[END_REASONS]
    StepEvent = Literal[(*END_REASONS, takebacks.EVENT)]
    Policy = Literal[takebacks.POLICIES]
    TakebackStep = Literal[takebacks.STEPS]
    ActedBy = Literal[(ACTED_BY_TENANT,)]
    Status = Literal[STATUSES]
    Problem = Literal[PROBLEMS]
    OnTimeout = Literal[ON_TIMEOUT]
    SignatureCheck = Literal[SIGNATURE_CHECKS]
Digest = Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{64}$", description="SHA-256, hex")]
KeyId = Annotated[
    str,
    msgspec.Meta(
        pattern="^[0-9a-f]{16}$",
        description="the first 16 hex digits of the SHA-256 of the raw 32-byte public key",
    ),
]


class RecordSeed(Wire, kw_only=True):
    seed: str
    salt: str
    commitment: Digest  # sha256 hex of salt + seed: what the game showed while it ran


class RecordBot(Wire, kw_only=True):
    seat: int
    strategy: Strategy


class RecordTakeback(Wire, kw_only=True):
    """A takeback step's note (docs/api.md section 13): ASKED, ACCEPTED and DECLINED keep the
    state; TAKEN restores the state of `to_version`. `agreed_by`: the seats that agreed so far
    (bots at once); empty on a TAKEN step its seat took alone."""

    step: TakebackStep
    to_version: int
    asked_by: int
    agreed_by: list[int] = []


class RecordStep(Wire, kw_only=True, omit_defaults=True):
    """One history entry: a decision, a forced step (RULINGS ALL-3), an ending without a
    move (`event` RESIGNED, ABANDONED or TIMEOUT; seat -1 for the tenant's abandon), or a
    takeback step (`event` TAKEBACK with its `takeback`; the seat that asked or answered). A
    timeout that played a move for the seat is a decision with `event` TIMEOUT."""

    version: int
    seat: int
    move: Any = None
    forced: bool = False
    event: StepEvent | None = None
    acted_by: ActedBy | None = None  # TENANT: the game's tenant decided for the seat (asSeat)
    takeback: RecordTakeback | None = None
    digest: Digest  # the state after this step (`state_digest`)


class RecordClock(Wire, kw_only=True):
    """The turn clock as created: what a TIMEOUT step may be (docs/api.md, "clock")."""

    per_decision_seconds: float | None
    per_seat_total_seconds: float | None
    increment_seconds: float
    on_timeout: OnTimeout


class RecordOutcome(Wire, kw_only=True):
    reason: Event
    seat: int | None
    winners: list[int]


class RecordResult(Wire, kw_only=True):
    status: Status
    version: int
    scores: Any  # the game's Scores as JSON
    outcome: RecordOutcome | None = None  # an ending other than by the rules


class RecordSignature(Wire, kw_only=True):
    """The service's Ed25519 signature of the record's canonical JSON without this member
    (docs/api.md section 14): RFC 8785 JCS, UTF-8."""

    key_id: KeyId
    algorithm: Literal["Ed25519"]  # SIGNATURE_ALGORITHM
    value: Annotated[
        str,
        msgspec.Meta(
            pattern="^[A-Za-z0-9_-]{86}$",
            description="the 64-byte signature, base64url without padding",
        ),
    ]


class GameRecord(Wire, kw_only=True):
    format: Literal["tree-games/game-record"]  # FORMAT_NAME
    format_version: Literal[1]  # FORMAT_VERSION: a new one for any change a reader must know
    game_id: str | None = None
    kind: str
    rules: int  # the RULES_VERSION of its kind the game was played under
    players: int
    options: dict[str, Any]  # as created
    bots: list[RecordBot] = []
    clock: RecordClock | None = None
    # the takebacks create option (absent in records without takebacks: NONE)
    takebacks: Policy = "NONE"
    created: str | None = None  # ISO 8601, informative: no replay reads it
    ended: str | None = None
    seed: RecordSeed
    setup_digest: Digest  # the options read and the state at version 0 (Replay.setup_digest)
    steps: list[RecordStep]
    result: RecordResult
    # the service's signature; absent when the server signs no records (RULES_RECORD_SIGNING_KEY)
    signature: RecordSignature | msgspec.UnsetType = msgspec.UNSET


class RecordDifference(Wire, kw_only=True):
    version: int  # the first step that differs (0: the game's setup, before any step)
    reason: Problem
    message: str


class RecordVerification(Wire, kw_only=True):
    valid: bool
    kind: str | None = None
    version: int | None = None  # the last version replayed
    scores: Any = None  # the replayed final scores, when valid
    difference: RecordDifference | None = None
    signature: SignatureCheck = "UNSIGNED"  # answered whether the game replays or not
    key_id: str | None = None  # the key the signature names, when it names one


class RecordSigningKey(Wire, kw_only=True):
    """A public key the service's record signatures are checked with."""

    key_id: KeyId
    algorithm: Literal["Ed25519"]  # SIGNATURE_ALGORITHM
    public_key: Annotated[
        str,
        msgspec.Meta(
            pattern="^[A-Za-z0-9_-]{43}$",
            description="the raw 32-byte Ed25519 public key, base64url without padding",
        ),
    ]


class RecordSigningKeys(Wire, kw_only=True):
    """The keys a record signed by this service may name: the one it signs with first, then
    those it still accepts after a rotation (RULES_RECORD_VERIFY_KEYS)."""

    keys: list[RecordSigningKey]


class Unverifiable(Exception):
    """What makes a record differ: the first step and why."""

    def __init__(self, version: int, reason: str, message: str) -> None:
        super().__init__(message)
        self.difference = RecordDifference(version=version, reason=reason, message=message)


def json_schema() -> dict[str, Any]:
    """The published JSON Schema of the document (schema/game-record.json)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "A game record: a game that is over, replayable anywhere (docs/api.md)",
        **msgspec.json.schema(GameRecord),
    }


def state_digest(state: msgspec.Struct) -> str:
    return hashlib.sha256(encode_state(state)).hexdigest()


def commitment(salt: str, seed: str) -> str:
    """The seed commitment a game shows from its start (service/core/game/loaded_game.py)."""
    return hashlib.sha256((salt + seed).encode()).hexdigest()


def as_json(value: Any) -> Any:
    """`value` as JSON reads it back (to_builtins keeps a tuple a tuple; JSON has lists), so
    what the server replays compares equal to what a record says."""
    return msgspec.json.decode(msgspec.json.encode(value))


def json_text(value: Any) -> str:
    return msgspec.json.encode(value).decode()


def iso_time(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, UTC).isoformat(timespec="milliseconds")
