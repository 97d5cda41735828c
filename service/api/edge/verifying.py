"""Game records sent to be verified (REST's verify route, GraphQL's verifyGameRecord) are
decoded, checked and replayed in child processes (service/children.py), never on the event
loop's process: a record of up to MAX_RECORD_BYTES, whatever it nests, is CPU that would hold
the GIL against every other tenant's request. At most RULES_VERIFY_PROCESSES at once per
replica (UNAVAILABLE, retryable, beyond); one that takes over VERIFY_SECONDS is stopped
(UNAVAILABLE). The children check signatures against the keys this service publishes.
"""

from __future__ import annotations

import msgspec

from service.api.edge.parsing import BadInput, decode_json
from service.children import Busy, Pool
from service.core.records.documents import verify
from service.core.records.format import RecordVerification
from service.core.records.signing import Keyring
from service.refusals import Code, Refused

VERIFY_SECONDS = 20.0  # a replay of MAX_STEPS takes well under a second on a busy core
NICENESS = 10  # the children's: they yield the cores to the replica's requests


class _Asked(msgspec.Struct, array_like=True, frozen=True):
    body: bytes  # the record's JSON, as sent
    max_depth: int
    public_keys: list[str]


class _Answered(msgspec.Struct, array_like=True, frozen=True):
    refused: str  # "": verified; else why the body is no JSON to verify (BAD_REQUEST)
    verdict: RecordVerification | None = None


def answer(request: bytes) -> bytes:
    """A child's answer to one record (service/children.py runs it)."""
    asked = msgspec.msgpack.decode(request, type=_Asked)
    try:
        document = decode_json(asked.body, asked.max_depth)
    except BadInput as exc:
        return msgspec.msgpack.encode(_Answered(str(exc)))
    keys = Keyring.of_public_keys(asked.public_keys, "the service's keys")
    return msgspec.msgpack.encode(_Answered("", verify(document, keys)))


class Verifier:
    def __init__(self, size: int, keys: Keyring, max_depth: int) -> None:
        # anonymous work: the machine's cores go to the tenants' requests first
        self.pool = Pool("service.api.edge.verifying:answer", size, "rules-verify", NICENESS)
        self.keys = [key.published().public_key for key in keys.accepted]
        self.max_depth = max_depth

    def check_room(self) -> None:
        """UNAVAILABLE at once when every verifier is busy: a caller need not read a body of
        up to a megabyte to be refused."""
        if self.pool.busy >= self.pool.size:
            raise Refused(Code.UNAVAILABLE, "every record verifier of this replica is busy; retry")

    async def verify(self, body: bytes) -> RecordVerification:
        """The verification of the record `body` holds; BadInput when it is no JSON (or nests
        deeper than allowed); UNAVAILABLE when every verifier is busy or it took too long."""
        request = msgspec.msgpack.encode(_Asked(body, self.max_depth, self.keys))
        try:
            answered = await self.pool.run(request, VERIFY_SECONDS)
        except Busy:
            self.check_room()  # raises: busy
            raise
        if answered is None:
            raise Refused(Code.UNAVAILABLE, "the record took too long to verify and was stopped")
        reply = msgspec.msgpack.decode(answered, type=_Answered)
        if reply.refused:
            raise BadInput(reply.refused)
        assert reply.verdict is not None
        return reply.verdict

    def close(self) -> None:
        self.pool.close()
