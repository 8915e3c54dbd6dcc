"""``ttt move``: the move the paper's search (alg.c) makes on a board."""

from firmware_ref.cli import UserError

SUMMARY = "the computer's move on a board by the paper's alg.c"
MAKE = ()
ABOUT = """\
Print the move the search of Geiser and Marzetta's report (alg.c, appendix F.2)
makes on a board, with the computer to move: the board, the move as a place and
as a column and row, its value (draw, the computer wins or loses) and the nodes
searched. BOARD is nine places, row by row: . or 0 empty, O or 1 the computer, X
or 2 the human; / may separate the rows, as in .../.X./... for the human in the
centre. Instant."""


def arguments(parser):
    parser.add_argument("board", help="9 places, row-major: 0 or . empty, 1 or O computer, "
                        "2 or X human; '/' may separate rows, e.g. 000/020/000 or .../.X./...")


def run(args):
    from firmware_ref.eth import alg
    try:
        alg.report(args.board)
    except (ValueError, alg.NoMoveFound) as error:
        raise UserError(str(error)) from None
