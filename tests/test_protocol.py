"""The host's frames and status lines (boards/host/protocol.py)."""

import pytest

from boards.host import protocol
from firmware_ref.places import COMPUTER, EMPTY, HUMAN


def test_protocol_lines():
    status = protocol.parse(b"XO.|...|..* gE l1000 s1000 c3A9F\r\n")
    assert status.board == [HUMAN, COMPUTER, EMPTY] + [EMPTY] * 5 + [protocol.BOTH]
    assert status.cycles == 0x3A9F and status.game == "E"
    assert status.lamps == (True, False, False, False) and status.switches[0]
    with pytest.raises(protocol.Rejected):
        protocol.parse(b"error\r\n")
    for line in (b"", b"XO.|...|... gE l1000 s1000", b"XO.|...|... gE l1200 s1000 c0000",
                 b"XO.|...|... ge l1000 s1000 c0000", b"XO.|...|... p1 f0 w0 u1 n0 c0000"):
        with pytest.raises(protocol.ProtocolError):
            protocol.parse(line)
    with pytest.raises(ValueError):
        protocol.key(9)
