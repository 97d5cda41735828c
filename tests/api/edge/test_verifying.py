"""Records sent to be verified are decoded, checked and replayed in child processes
(service/api/edge/verifying.py over service/children.py): the verdict is the one
documents.verify gives, a body that is no JSON (or nests too deep) is BadInput, and a verifier
with every child busy refuses UNAVAILABLE at once. The API routes that use it:
tests/core/test_game_records.py (`verified`, on both APIs)."""

from __future__ import annotations

import json

import pytest

from service.api.edge.parsing import BadInput
from service.api.edge.verifying import Verifier
from service.core.records.documents import verify
from service.core.records.signing import NO_KEYS
from service.refusals import Code, Refused
from tests.core.test_game_record_tampering import finished


async def test_a_child_verifies_as_the_engine_does() -> None:
    record = finished("TREETOPIA", 2, "child-verify")
    verifier = Verifier(1, NO_KEYS, 32)
    try:
        verdict = await verifier.verify(json.dumps(record).encode())
        assert verdict == verify(record) and verdict.valid
        record["steps"][3]["digest"] = "0" * 64
        edited = await verifier.verify(json.dumps(record).encode())
        assert edited == verify(record) and not edited.valid
        with pytest.raises(BadInput):
            await verifier.verify(b"{not json")
        with pytest.raises(BadInput, match="deeper"):
            await verifier.verify(("[" * 40 + "]" * 40).encode())
    finally:
        verifier.close()


async def test_a_busy_verifier_refuses_at_once() -> None:
    verifier = Verifier(1, NO_KEYS, 32)
    verifier.pool.busy = verifier.pool.size  # its one child at work on another record
    with pytest.raises(Refused) as refused:
        verifier.check_room()
    assert refused.value.code is Code.UNAVAILABLE
    with pytest.raises(Refused):
        await verifier.verify(b"{}")
    verifier.close()
