"""A parked socket's fan-out frames text messages itself (service/api/edge/parking.py): byte
for byte the frame wsproto would have written, at every length boundary of RFC 6455."""

from __future__ import annotations

import pytest
from wsproto.connection import Connection, ConnectionType
from wsproto.events import Message

from service.api.edge.parking import _header


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 70000])
def test_a_frame_header_is_the_one_wsproto_writes(size: int) -> None:
    payload = "é" * (size // 2) + "x" * (size % 2)  # UTF-8: size bytes
    encoded = payload.encode()
    assert len(encoded) == size
    expected = Connection(ConnectionType.SERVER).send(Message(data=payload))
    assert _header(size) + encoded == expected
