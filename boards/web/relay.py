"""Two machines play each other: the paper's chip was to play "a human opponent or
another chip". Each machine plays on a board of its own, each thinking the other is
the person: the relay gives each machine's move to the other board as the person's
key, and reads the answer there.

A game begins with the first machine's stone on a place of the relay's choosing (most
of the museum's machines only answer, so every opening is forced): that board begins
from a position holding the stone, the other board gets the stone as a key. Every
opening is the nine places, each machine opening in turn: eighteen games
(`OPENINGS`).

Every method waits for the boards: the session's workers call them (sessions.py), each
board's on a thread of its own, so the two boards are set up side by side.
"""

from firmware_ref.eth.alg import wins
from firmware_ref.places import coordinate
from sim import catalogue

from .messages import Invalid

__all__ = ["Match", "Game", "result", "OPENINGS", "plays_matches", "check", "check_opening",
           "seat"]

OPENINGS = [(opener, place) for opener in (0, 1) for place in range(9)]


class Game:
    """One game between the two machines: its opener (0 or 1), its moves (machine,
    place, clocks; the opening's clocks None) and, once over, its winner (0, 1 or
    None for a draw)."""

    def __init__(self, opener, place):
        self.opener = opener
        self.moves = [(opener, place, None)]
        self.over = False
        self.winner = None

    def places(self):
        """The board as the game has it: per place None, or the machine whose stone."""
        board = [None] * 9
        for machine, place, _ in self.moves:
            board[place] = machine
        return board

    def record(self, names):
        return {"opener": self.opener, "over": self.over, "winner": self.winner,
                "result": result(self, names) if self.over else None,
                "board": self.places(),
                "moves": [{"by": machine, "place": coordinate(place), "cycles": cycles}
                          for machine, place, cycles in self.moves]}


def result(game, names):
    if game.winner is None:
        return "A draw."
    return f"{names[game.winner].capitalize()} won."


def plays_matches(game):
    """Whether `game` (a name or a catalogue entry) is a machine that plays the board
    of nine places, and so one of a match."""
    return catalogue.game(game).face is catalogue.NINE


def check(games, numbers):
    """Invalid unless `numbers` are two of `games` (by number) that play matches."""
    for number in numbers:
        if number not in range(len(games)) or not plays_matches(games[number]):
            raise Invalid(f"match: game {number} is not a machine that plays the "
                          "board of nine places")


def check_opening(opener, place):
    if opener not in (0, 1) or place not in range(9):
        raise Invalid("match: the opener is 0 or 1 and the place 0 to 8")


def seat(board, number):
    """`board` playing game `number`, put in again only if it plays another: a kept
    board's next match begins from a position anyway (`Match.set_up`)."""
    if board.number != number:
        board.play(number)


class Match:
    """The machines `numbers` (two games of the boards', by number) on `boards`, two
    boards holding the same games. `names`: what each machine is called. Each board is
    called only by what names it (`seat`, `set_up`, `step` its mover's), so that each
    may have a thread of its own."""

    def __init__(self, boards, numbers):
        check(boards[0].games, numbers)
        self.boards = boards
        for board, number in zip(boards, numbers):
            seat(board, number)
        self.names = [board.view.state()["machine"] for board in boards]
        titles = [board.describe(number)["title"] for board, number in zip(boards, numbers)]
        if titles[0] == titles[1]:
            self.names = [f"{name} (first)" if m == 0 else f"{name} (second)"
                          for m, name in enumerate(self.names)]
        self.titles = titles
        self.game = None

    def set_up(self, machine, opener, place):
        """Machine `machine`'s board for a game that machine `opener` opens on `place`."""
        check_opening(opener, place)
        board = self.boards[machine]
        position = ["."] * 9
        if machine == opener:
            position[place] = "O"       # its own stone, red on its board
        if not board.view.status.switches[0]:       # the person (the other) begins
            board.act({"do": "switch", "number": 0, "on": True})
        board.act({"do": "new", "position": "".join(position)})

    def began(self, opener, place):
        """The game, once both boards are set up for it."""
        self.game = Game(opener, place)
        return self.game

    @property
    def mover(self):
        """The machine whose board `step` calls next."""
        return 1 - self.game.moves[-1][0]

    def step(self):
        """The next move: the last stone given to the other machine as the person's
        key, and its answer read. The game, or None once it was over before."""
        game = self.game
        if game.over:
            return None
        _, place, _ = game.moves[-1]
        machine = self.mover
        view = self.boards[machine].view
        before = list(view.status.board)
        view.do_key({"place": place})
        after = view.status
        replies = [k for k in range(9) if after.board[k] == 1 and before[k] != 1]
        for k in replies:
            game.moves.append((machine, k, after.cycles))
        board = game.places()
        for m in (0, 1):
            if wins([2 if v == m else 0 for v in board], 2):
                game.over, game.winner = True, m
        if not game.over and (None not in board or after.lamps[1]):
            game.over = True
        if not replies and not game.over:
            raise Invalid(f"match: {self.names[machine]} did not answer "
                          f"{coordinate(place)}")
        return game

    @staticmethod
    def score(games):
        """Each machine's wins, and the draws, over `games`."""
        score = {"wins": [0, 0], "draws": 0, "games": len(games)}
        for game in games:
            if game.winner is None:
                score["draws"] += 1
            else:
                score["wins"][game.winner] += 1
        return score
