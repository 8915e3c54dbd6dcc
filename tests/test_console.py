"""`make play-board`'s console (boards/host/console.py): it asks the board for its games,
then its client sends the frames of what is typed."""

from boards.host import protocol
from boards.host.console import play


def test_the_terminal_client_sends_the_frames_of_what_is_typed():
    class Board:                        # answers every frame with one status line
        def __init__(self):
            self.frames = []

        def write(self, data):
            self.frames.append(data)

        def readline(self):             # and refuses G1, as a board of one game does
            if self.frames[-1] == protocol.game(1):
                return b"error\r\n"
            return b"...|...|... gE l1000 s1000 c0000\r\n"
    board, said = Board(), []
    typed = iter(["b2", "B3", "new xo.|...|...", "new XXX|OO.|...", "chip", "new", "quit"])
    assert play(board, read=lambda prompt: next(typed), write=said.append) == 0
    # The client asks for the board's games (G1, twice: no such game), then plays.
    assert board.frames == [protocol.STATUS, b"G1\r", b"G1\r", protocol.STATUS,
                            b"K4\r", b"K7\r", b"RXO.......\r", b"W00\r", b"R\r"]
    assert any("already won" in line for line in said)
