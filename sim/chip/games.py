"""Every game a user can play against the chip, played through its pins.

The user begins, or the chip opens at each value its random counter can hold (0..7);
then every sequence of the user's keys is tried. The walk saves the chip's registers
whenever it waits for a key and rebuilds the chip from them for each reply, so each
game prefix is simulated once.
"""

from collections import Counter
from dataclasses import dataclass
from statistics import mean

from firmware_ref.cartridge import board_places
from firmware_ref.eth.alg import wins
from firmware_ref.eth.cycle import CycleModel, State
from firmware_ref.eth.pins import press, pressing, start, starting
from firmware_ref.places import COMPUTER, EMPTY, HUMAN, MARKS, coordinate

__all__ = ["ChipMove", "Game", "Survey", "OPENINGS", "PAPER_LIMIT", "opening_chip",
           "walking_games", "all_games", "survey", "format_report"]


@dataclass(frozen=True)
class ChipMove:
    """The chip's answer to the position `board` (alg.py encoding, the user's stone on
    it): the `place` it played, the think time in `cycles` and `nodes`, its setboardi
    cycles (trial stones)."""
    board: tuple
    place: int
    cycles: int
    nodes: int


@dataclass(frozen=True)
class Game:
    opening: int | None         # where the chip opened, None when the user began
    keys: tuple                 # the user's keys, in order
    moves: tuple                # the chip's answers (ChipMove), in order
    final: tuple                # the board at the end
    winner: str                 # "chip", "user" or "draw"


def opening_chip(opening):
    """A chip whose counter makes it open at `opening` after `start`: the counter
    counts the reset edge, then the edge that leaves justreset reads it."""
    return CycleModel(random=(opening - 1) % 8)


OPENINGS = (None, *range(8))     # the user begins, or the chip opens at 0..7


def walking_games(chip, opening, presses):
    """Protocol: play the games of one opening (`presses`, from sim.chip.lanes.presses) on
    `chip`, a golden model or a bench (as `starting` and `pressing` take them, and
    ``registers()``). Returns how often it went back.

    The chip follows the golden model's game tree. To go back to a branch point it is
    reset with that position entered during reset, as E.1 does: a search depends on
    nothing but the position (m would, but no game leaves the chip without a move), and
    the model follows the same pins throughout. A chip opening is chosen by holding
    reset for as many extra edges as its counter needs (it counts every edge; the
    model's counter is the chip's, as they saw the same edges).
    """
    if opening is not None:
        counter = chip.registers().random
        for _ in range((opening_chip(opening).random - counter) % 8):
            chip.set(resetN=0)
            yield
    yield from starting(chip, userbegins=opening is None)
    restored = 0
    for registers, key in presses:
        if chip.state is not State.WAITING or chip.board != registers.board:
            position = board_places(registers.board)
            yield from starting(chip, userbegins=True, position=position)
            restored += 1
        yield from pressing(chip, key)
    return restored


def all_games(openings=OPENINGS, on_press=None):
    """Every game from `openings`, depth first. `on_press(opening, registers, key)` is
    told of each key press, with the registers of the waiting chip it goes to."""
    for opening in openings:
        chip = opening_chip(opening) if opening is not None else CycleModel()
        start(chip, userbegins=opening is None)
        board = board_places(chip.board)
        expected = [EMPTY] * 9
        if opening is not None:
            expected[opening] = COMPUTER
        if board != expected:
            raise AssertionError(f"the chip opened on {board}, not at {opening}")
        yield from _walk(chip.registers(), opening, (), (), on_press)


def _walk(registers, opening, keys, moves, on_press):
    board = board_places(registers.board)
    for key in (k for k in range(9) if board[k] == EMPTY):
        mine = board.copy()
        mine[key] = HUMAN
        if wins(mine, HUMAN):       # the chip never checks for this: the walk must
            yield Game(opening, keys + (key,), moves, tuple(mine), "user")
            continue
        if on_press:
            on_press(opening, registers, key)
        chip = CycleModel.from_registers(registers)
        thought = press(chip, key)
        after = board_places(chip.board)
        played = [k for k in range(9) if after[k] != mine[k]]
        if len(played) > 1 or (played and after[played[0]] != COMPUTER):
            raise AssertionError(f"the chip answered {mine} with {after}")
        if not played:              # the user's stone filled the board: a draw
            if chip.state is not State.FINISHED or EMPTY in mine:
                raise AssertionError(f"the chip did not answer {mine}")
            yield Game(opening, keys + (key,), moves, tuple(mine), "draw")
            continue
        move = ChipMove(tuple(mine), played[0], len(thought),
                        thought.count(State.SETBOARDI))
        if chip.state is State.FINISHED:
            winner = "chip" if wins(after, COMPUTER) else "draw"
            yield Game(opening, keys + (key,), moves + (move,), tuple(after), winner)
        else:
            yield from _walk(chip.registers(), opening, keys + (key,), moves + (move,),
                             on_press)


@dataclass(frozen=True)
class Survey:
    games: int
    user_first: int
    outcomes: Counter
    positions: dict             # board -> ChipMove, each position the chip answered
    cycles_per_move: list       # think time of every chip move of every game


def survey(games=None):
    """Counts and think times over `games` (every game, by default)."""
    games = list(all_games()) if games is None else games
    positions = {m.board: m for g in games for m in g.moves}
    return Survey(games=len(games), user_first=sum(g.opening is None for g in games),
                  outcomes=Counter(g.winner for g in games), positions=positions,
                  cycles_per_move=[m.cycles for g in games for m in g.moves])


PAPER_LIMIT = 6000          # section 6: "at most one millisecond" at 6 MHz


def _picture(board):
    return "/".join("".join(MARKS[v] for v in board[r:r + 3]) for r in (0, 3, 6))


def format_report(report, clock_mhz=6.0):
    def us(cycles):
        return f"{cycles / clock_mhz:.1f} us"
    worst = max(report.positions.values(), key=lambda m: m.cycles)
    picture = _picture(worst.board)
    per_position = [m.cycles for m in report.positions.values()]
    slow = sorted((m for m in report.positions.values() if m.cycles > PAPER_LIMIT),
                  key=lambda m: -m.cycles)
    lines = [
        f"Every game a user can play against the chip (golden model): {report.games}",
        f"  user first: {report.user_first}, chip first (8 openings): "
        f"{report.games - report.user_first}",
        "  outcomes: " + ", ".join(f"{k} {report.outcomes[k]}"
                                   for k in ("chip", "draw", "user")),
        f"Positions the chip answered: {len(report.positions)}",
        f"Think time per chip move, in clock cycles and at {clock_mhz:g} MHz:",
        f"  worst case:              {worst.cycles} cycles = {us(worst.cycles)} "
        f"(position {picture}, answer {coordinate(worst.place)}, "
        f"{worst.nodes} trial stones)",
        f"  mean over positions:     {mean(per_position):.1f} cycles = "
        f"{us(mean(per_position))}",
        f"  mean over all moves of all games: {mean(report.cycles_per_move):.1f} cycles = "
        f"{us(mean(report.cycles_per_move))} ({len(report.cycles_per_move)} moves)",
        f"The paper (section 6) says at most 1 ms at 6 MHz, i.e. {PAPER_LIMIT} cycles; "
        f"{len(slow)} of {len(per_position)} positions take longer:",
        *(f"  {m.cycles} cycles = {us(m.cycles)} on {_picture(m.board)}"
          for m in slow),
    ]
    return "\n".join(lines)
