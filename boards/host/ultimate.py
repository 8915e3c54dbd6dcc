"""Play Ultimate Tic-Tac-Toe (hdl/ultimate) from a terminal: against the engine, or two
people at one keyboard, all 81 cells on the screen.

`EngineGame` plays the golden rules and engine (firmware_ref.ultimate; `make play
GAME=ultimate`). `BoardGame` plays a board (or the board in a box) over the host link:
a move is two `K` frames, the small board's key and then the cell's, as a person at the
panel plays it. Whenever a person is to move (or the game is over) the cartridge says
the position as a `P` line (all 81 cells and the last move), after the engine's move
with an `M` line before it; the lines follow the frame's answer. The client keeps the
golden position beside the board's and checks every `P` line against it.
`Session` is the same on both (docs/ultimate.md).
"""

from collections import namedtuple

from firmware_ref.places import PLACES, rows
from firmware_ref.ultimate import engine
from firmware_ref.ultimate.model import load
from firmware_ref.ultimate.rules import CELLS, Position, parse, show

from . import protocol
from .link import link_errors
from .prompt import Prompter, Quit

__all__ = ["EngineGame", "BoardGame", "Session", "Reply", "board", "indices",
           "parse_move", "HELP", "play_golden", "play_board"]

PERSON_SWITCH, MACHINE_SWITCH = 0, 1            # the cartridge's switches
VALUE_BITS = 24                                 # the M line's value: 6 hex digits


Reply = namedtuple("Reply", "cell value nodes")    # the engine's move; value for it


def engines_turn(position, machine, person_begins):
    """Whether the engine moves now: as the cartridge's TURN decides, the engine plays
    the side the person does not (X unless the person begins)."""
    return (machine and position.winner() == "open"
            and (position.to_move() == "X") != person_begins)


class EngineGame:
    """The golden rules and engine, moving when the cartridge would."""

    def __init__(self):
        self.position = Position()
        self.machine, self.person_begins = True, True

    def new(self, machine, person_begins=True):
        """A new game from the empty board; the engine's opening if it begins."""
        self.machine, self.person_begins = machine, person_begins
        return self.load(Position())

    def load(self, position):
        self.position = position
        return self._answer()

    def play(self, cell):
        """The person's move (legal); the engine's reply, or None."""
        self.position = self.position.play(cell)
        return self._answer()

    def _answer(self):
        if not engines_turn(self.position, self.machine, self.person_begins):
            return None
        reply = Reply(*engine.move(self.position))
        self.position = self.position.play(reply.cell)
        return reply


def said(position):
    """The cartridge's position line for `position`, without the newline."""
    last = "--" if position.last is None else f"{position.last:02d}"
    return f"P{show(position)} {last}"


def parse_reply(line):
    """An `M` line (``M40 FFFF85 000004D2``): the engine's move, value and nodes."""
    fields = line[1:].split(" ")
    try:
        cell, value, nodes = int(fields[0], 10), int(fields[1], 16), int(fields[2], 16)
        if len(fields) != 3 or [len(f) for f in fields] != [2, 6, 8] or cell >= CELLS:
            raise ValueError
    except (ValueError, IndexError):
        raise protocol.ProtocolError(f"the cartridge said {line!r}, not the engine's "
                                     "move") from None
    if value >> VALUE_BITS - 1:                 # two's complement
        value -= 1 << VALUE_BITS
    return Reply(cell, value, nodes)


class BoardGame:
    """The cartridge on a board over `link` (boards.host.link.Link). The person's
    move is two keys; the board's `P` lines are read as the position, each checked
    against the golden position kept beside it (`golden`)."""

    def __init__(self, link):
        self.link = link
        self.position = self.golden = Position()
        self.machine, self.person_begins = True, True
        self.lines = []             # the cartridge's lines not yet read

    def _command(self, frame, again=False):
        """The status after `frame` (`again`: protocol.Exchange's); the cartridge's lines
        that came with it are kept to be read in order."""
        status = self.link.command(frame, again=again)
        self.lines += self.link.texts
        self.link.texts.clear()
        return status

    def new(self, machine, person_begins=True):
        self._command(protocol.STATUS, again=True)
        self.lines.clear()          # said before this game: old news
        self._command(protocol.switch(PERSON_SWITCH, person_begins))
        self._command(protocol.switch(MACHINE_SWITCH, machine))
        self.machine, self.person_begins = machine, person_begins
        self._command(protocol.reset())
        return self._heard(Position())

    def load(self, position):
        """Load `position` (checked by the golden rules' parse: the board is not to
        refuse it) in text frames of up to protocol.TEXT_MAX bytes."""
        data = load(position)
        for at in range(0, len(data), protocol.TEXT_MAX):
            self._command(protocol.text(data[at:at + protocol.TEXT_MAX]))
        return self._heard(position)

    def play(self, cell):
        """The person's move (legal): the small board's key, then the cell's."""
        self._command(protocol.key(cell // PLACES))
        self._command(protocol.key(cell % PLACES))
        return self._heard(self.golden.play(cell))

    def _line(self):
        """The cartridge's next line: one that came with an answer, else the next the
        board sends."""
        if self.lines:
            return self.lines.pop(0)
        raw = self.link.stream.readline()
        if not raw.startswith(protocol.TEXT_MARK) or not raw.endswith(b"\n"):
            raise protocol.ProtocolError(f"the cartridge's line did not come (got {raw!r})")
        return raw[1:].rstrip(b"\r\n").decode("ascii", "replace")

    def _heard(self, golden):
        """Read what the board says after an action whose golden result is `golden`:
        the position, or on the engine's turn its move and then the position; the
        engine's Reply, or None."""
        if not engines_turn(golden, self.machine, self.person_begins):
            self._check(self._line(), golden)
            return None
        line = self._line()
        if not line.startswith("M"):
            raise protocol.ProtocolError(f"the cartridge said {line!r} where the engine's "
                                         "move was due")
        reply = parse_reply(line)
        if reply.cell not in golden.legal():
            raise protocol.ProtocolError(f"the engine played {reply.cell}, not a legal move "
                                         f"in {said(golden)!r}")
        self._check(self._line(), golden.play(reply.cell))
        return reply

    def _check(self, line, golden):
        """`line` must be the position line of `golden`; it becomes the position."""
        if line == "?":
            raise protocol.ProtocolError(f"the cartridge refused the position "
                                         f"{said(golden)!r}")
        if line != said(golden):
            raise protocol.ProtocolError(f"the board says {line!r}, the rules "
                                         f"{said(golden)!r}")
        cells, last = line[1:].split(" ")
        self.position = parse(cells, "-" if last == "--" else str(int(last)))
        self.golden = golden


def _rows(cell_text):
    """A 9x9 grid of 2-character cells, the small boards apart; `cell_text(i)`."""
    rule = "-" * 9 + "+" + "-" * 10 + "+" + "-" * 9
    lines = []
    for row in range(9):
        if row in (3, 6):
            lines.append(rule)
        cells = [9 * (3 * (row // 3) + col // 3) + 3 * (row % 3) + col % 3
                 for col in range(9)]
        lines.append(" | ".join(" ".join(f"{cell_text(i):>2}" for i in cells[b:b + 3])
                                for b in (0, 3, 6)))
    return lines


def indices():
    """Every cell's number, as the board is drawn."""
    return "\n".join(_rows(str))


def board(position, names=None):
    """The 81 cells (empty cells the player to move may take show their number), and
    beside them the big board: its places' owners, the open boards' numbers 1-9, in
    brackets those the player to move may move in. `names`: what X and O are called."""
    legal = set(position.legal())
    boards = {cell // PLACES for cell in legal}
    marks = {"X": "X", "O": "O", "-": "-"}
    places = [marks.get(position.owner(b)) or (f"[{b + 1}]" if b in boards else str(b + 1))
              for b in range(PLACES)]
    big = [" ".join(f"{p:^3}" for p in row) for row in rows(places)]
    aside = ["big board:", *big, "", "X, O: won by;  -: full, nobody's",
             "[n]: open, and the player to move may move there"]

    def cell(i):
        if position.xs >> i & 1:
            return "X"
        if position.os >> i & 1:
            return "O"
        return str(i) if i in legal else "."
    lines = [f"{line}      {aside[n] if n < len(aside) else ''}".rstrip()
             for n, line in enumerate(_rows(cell))]
    names = names or {"X": "X", "O": "O"}
    if position.last is not None:
        mover = "O" if position.to_move() == "X" else "X"
        lines.append(f"last move: {position.last}, {names[mover]}")
    if position.winner() == "open":
        sent = (f"sent to board {position.last % PLACES + 1}" if position.last is not None
                and position.owner(position.last % PLACES) is None else "any open board")
        lines.append(f"{names[position.to_move()]} to move, {sent}: the cells that "
                     "show a number")
    return "\n".join(lines)


def parse_move(words):
    """A cell 0-80 from what was typed: one number 0-80, or two numbers 1-9 (small
    board, then its cell); ValueError with the reason otherwise. None: not a move."""
    if not all(w.isdigit() for w in words) or len(words) not in (1, 2):
        return None
    if len(words) == 1:
        cell = int(words[0])
        if cell >= CELLS:
            raise ValueError(f"there is no cell {cell}: the cells are 0-80")
        return cell
    b, k = (int(w) for w in words)
    if not (1 <= b <= PLACES and 1 <= k <= PLACES):
        raise ValueError("a small board and its cell are 1-9 each, e.g. 5 5")
    return PLACES * (b - 1) + k - 1


def refusal(position, cell):
    """Why `cell` is not a legal move in `position`, or None if it is."""
    if position.winner() != "open":
        return "the game is over (new, people or load begins another)"
    if position.xs >> cell & 1 or position.os >> cell & 1:
        return f"cell {cell} is taken"
    if cell in position.legal():
        return None
    owner = position.owner(cell // PLACES)
    if owner is not None:
        whose = "full" if owner == "-" else f"won by {owner}"
        return f"small board {cell // PLACES + 1} is decided ({whose})"
    return f"not legal: sent to board {position.last % PLACES + 1}"


HELP = f"""Ultimate Tic-Tac-Toe: nine small boards in one big one. A move on
cell c of a small board sends the other player to small board c; sent to a decided
board, play in any open one. A small board with a line is its owner's big place; three
big places in a row win; no move left is a draw.
A move: the cell's number 0-80, as the board shows it on the cells you may take, e.g.
40 (the centre); or the small board and its cell, 1-9 each, e.g. 5 5. The numbers:
{indices()}
new: a new game against the engine (you are asked who begins);  people: two people;
load BOARD LAST: go on from a position, the same players (BOARD: 81 of X, O and .,
board 1 first, each row by row; LAST: the last move 0-80, or -);  help;  quit."""
class Session(Prompter):
    """One terminal session on a game (`EngineGame` or `BoardGame`); `read(prompt)`
    (EOFError at the end) and `write(text)` are the terminal."""

    def __init__(self, game, read, write):
        self.game, self.read, self.write = game, read, write

    def run(self):
        self.write(HELP)
        try:
            self.replied(self.game.new(True, True))
            shown = False
            while True:
                position = self.game.position
                if not shown:
                    self.write(board(position, self.names()))
                    if position.winner() != "open":
                        self.write(self.result(position))
                shown = self.act(self.ask(self.prompt(position)).split())
        except Quit:
            return 0

    def names(self):
        if not self.game.machine:
            return {"X": "X", "O": "O"}
        you, it = ("X", "O") if self.game.person_begins else ("O", "X")
        return {you: f"{you} (you)", it: f"{it} (the engine)"}

    def prompt(self, position):
        if position.winner() != "open":
            return "> "
        if self.game.machine:
            return f"your move ({position.to_move()})> "
        return f"{position.to_move()} to move> "

    def result(self, position):
        winner = position.winner()
        if winner == "draw":
            return "A draw: no move is left and nobody has three big places in a row."
        if not self.game.machine:
            return f"{winner} wins."
        you = (winner == "X") == self.game.person_begins
        return f"{winner} wins: {'you won' if you else 'the engine won'}."

    def replied(self, reply):
        if reply is not None:
            cell, value, nodes = reply
            self.write(f"The engine plays {cell} (board {cell // PLACES + 1}, cell "
                       f"{cell % PLACES + 1}); its value {value}, {nodes} nodes searched.")

    def act(self, words):
        """Do what the player typed; True if the board is unchanged (not shown again)."""
        if not words:
            return True
        word = words[0].upper()
        try:
            cell = parse_move(words)
        except ValueError as error:
            self.write(f"That move won't do: {error}.")
            return True
        if cell is not None:
            reason = refusal(self.game.position, cell)
            if reason:
                self.write(f"That move won't do: {reason}.")
                return True
            self.replied(self.game.play(cell))
            return False
        if word == "NEW" and len(words) == 1:
            self.replied(self.game.new(True, self.yes("Do you begin (and play X)?")))
            return False
        if word == "PEOPLE" and len(words) == 1:
            self.replied(self.game.new(False))
            return False
        if word == "LOAD" and len(words) > 1:
            last = words[-1] if len(words) > 2 and (words[-1].isdigit()
                                                    or words[-1] == "-") else "-"
            text = "".join(words[1:-1] if len(words) > 2 and last == words[-1]
                           else words[1:])
            try:
                position = parse(text, last)
            except ValueError as error:
                self.write(f"That position won't do: {error}.")
                return True
            self.replied(self.game.load(position))
            return False
        if word == "HELP":
            self.write(HELP)
        else:
            self.write(f"{' '.join(words)!r} is neither a move nor a command (help "
                       "lists them).")
        return True


def play_golden(read, write, **_):
    """`make play GAME=ultimate`: the golden rules and engine in the terminal (it takes
    none of `ttt play`'s options)."""
    return Session(EngineGame(), read, write).run()


def play_board(link, read, write):
    """The cartridge on a board over `link` (boards.host.link.Link)."""
    with link_errors():
        return Session(BoardGame(link), read, write).run()
