"""A board on its serial port (boards/host/link.py): a port that is not there, and one
that never answers, each named."""

import pytest

from boards.host import protocol
from boards.host.link import Link, open_port
from firmware_ref.cli import UserError


def test_a_serial_port_that_is_not_there():
    with pytest.raises(UserError, match="cannot open the serial port /dev/ttyTTT9: No such"):
        open_port("/dev/ttyTTT9")


def test_a_silent_port_is_named():
    class Silent:
        def write(self, data):
            self.written = data

        def readline(self):
            return b""
    with pytest.raises(protocol.ProtocolError, match="no answer"):
        Link(Silent()).command(protocol.STATUS)
