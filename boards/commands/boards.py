"""``ttt boards``: the boards the project builds for."""

SUMMARY = "list the boards"
MAKE = ()
ABOUT = """\
List the boards the project builds for, with their FPGA and what they offer: the
names that --board and make's BOARD take."""


def arguments(parser):
    """It takes none."""


def run(args):
    from ..gateware.top import BOARDS
    print("\n".join(f"{name:<12} {board.summary}" for name, board in BOARDS.items()))
