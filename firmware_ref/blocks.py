"""An exact solver for Peter Baum's generalised tic-tac-toe (MSc thesis, SIU Carbondale,
1975): a game is n points, numbered 1..n as in the thesis, and a list of blocks, each a
set of points. The players take free points in turn; the first to hold every point of
some block wins; a full board with no block held is a draw. Tic-tac-toe is 9 points and
its 8 lines.

A position is two sets of points, the first player's and the second's; the counts say
whose turn it is. Internally a set is a bitmask (bit p-1 for point p) and every solved
position is remembered, so a game is solved once, whichever question is asked first.

    game = Game(9, lines)       # lines: tic-tac-toe's 8 rows, cells 1..9 row by row
    game.value()                                        # DRAW
    game.move_values(first={1, 9}, second={5})          # {2: DRAW, 3: FIRST, ...}
    game.moves_to_win(first={1, 9}, second={5, 3})      # 3: X 7, any O, X's line

Standard library only: this module is independent of the rest of the project.
"""

import functools

__all__ = ["FIRST", "DRAW", "SECOND", "Game"]

FIRST, DRAW, SECOND = "first", "draw", "second"     # the result under perfect play
WIN, TIE, LOSS = 1, 0, -1                           # the same, for the player to move


class Game:
    """A point/block structure with a memoised perfect-play search.

    Every question takes an optional position: `first` and `second`, the points each
    player already holds. The first player moves when both hold as many points, the
    second when the first holds one more. A position in which a block is already held
    is refused (the game would be over)."""

    def __init__(self, points, blocks):
        if points < 1:
            raise ValueError("a game needs at least one point")
        masks = set()
        for block in blocks:
            block = set(block)
            if not block:
                raise ValueError("a block needs at least one point")
            if not block <= set(range(1, points + 1)):
                raise ValueError(f"block {sorted(block)} has a point outside 1..{points}")
            masks.add(_mask(block))
        self.points = points
        self.blocks = tuple(sorted(masks))      # a repeated block changes nothing
        self._full = (1 << points) - 1
        # Every solved position is remembered, per game: its value depends on the blocks.
        self._value = functools.cache(self._value)
        self._score = functools.cache(self._score)

    # -- questions --------------------------------------------------------------------

    def value(self, first=(), second=()):
        """FIRST, DRAW or SECOND: who wins from this position if both play perfectly."""
        me, you, first_moves = self._position(first, second)
        return _absolute(self._value(me, you), first_moves)

    def move_values(self, first=(), second=()):
        """{free point: the result if the player to move takes it and both then play
        perfectly}."""
        me, you, first_moves = self._position(first, second)
        results = {}
        for point in range(1, self.points + 1):
            bit = 1 << (point - 1)
            if (me | you) & bit:
                continue
            if self._completes(me | bit, bit):
                relative = WIN
            else:
                relative = -self._value(you, me | bit)
            results[point] = _absolute(relative, first_moves)
        return results

    def winning_moves(self, first=(), second=()):
        """The free points that keep a forced win for the player to move (sorted; empty
        if he has none)."""
        mover = FIRST if self._position(first, second)[2] else SECOND
        return sorted(p for p, result in self.move_values(first, second).items()
                      if result == mover)

    def moves_to_win(self, first=(), second=()):
        """How many more moves (both players' counted) the game lasts when the winner
        wins as fast as he can and the loser holds out as long as he can; None for a
        draw. From the empty board, the winner's own move count is (result + 1) // 2."""
        me, you, _ = self._position(first, second)
        score = self._score(me, you)
        return None if score == 0 else self.points + 1 - abs(score)

    # -- search -----------------------------------------------------------------------

    def _position(self, first, second):
        first, second = set(first), set(second)
        for point in first | second:
            if not 1 <= point <= self.points:
                raise ValueError(f"point {point} is outside 1..{self.points}")
        if first & second:
            raise ValueError(f"points {sorted(first & second)} are held by both players")
        if len(first) - len(second) not in (0, 1):
            raise ValueError("the first player holds the same number of points as the "
                             "second, or one more")
        a, b = _mask(first), _mask(second)
        if any(block & a == block or block & b == block for block in self.blocks):
            raise ValueError("a block is already held: the game is over")
        first_moves = len(first) == len(second)
        return (a, b, True) if first_moves else (b, a, False)

    def _completes(self, held, bit):
        return any(block & bit and block & held == block for block in self.blocks)

    def _candidates(self, me, you):
        """WIN if the mover can take a block now; else the moves worth searching: only
        the points that stop an opponent's block one short (any other move loses at
        once, as fast as anything can), or every free point when there is none."""
        threats = 0
        for block in self.blocks:
            if not block & you:
                missing = block & ~me
                if missing & (missing - 1) == 0:    # one point short: it is free
                    return WIN
            elif not block & me:
                missing = block & ~you
                if missing & (missing - 1) == 0:
                    threats |= missing
        moves = threats or self._full & ~(me | you)
        return list(_bits(moves))

    def _value(self, me, you):
        """WIN, TIE or LOSS for the player to move, who holds `me`."""
        candidates = self._candidates(me, you)
        if candidates == WIN:
            return WIN
        if not candidates:
            return TIE                              # board full
        result = LOSS
        for bit in candidates:
            result = max(result, -self._value(you, me | bit))
            if result == WIN:
                break
        return result

    def _score(self, me, you):
        """0 for a draw; points+1-d for a win d moves from now, -(points+1-d) for a loss
        d moves from now, so that a faster win and a slower loss score higher."""
        candidates = self._candidates(me, you)
        if candidates == WIN:
            return self.points
        if not candidates:
            return 0
        result = -self.points - 1
        for bit in candidates:
            reply = -self._score(you, me | bit)
            result = max(result, reply - (reply > 0) + (reply < 0))       # one move later
        return result


def _mask(points):
    mask = 0
    for point in points:
        mask |= 1 << (point - 1)
    return mask


def _bits(mask):
    """mask's set bits, one mask each, lowest first."""
    while mask:
        yield mask & -mask
        mask &= mask - 1


def _absolute(relative, first_moves):
    if relative == TIE:
        return DRAW
    return FIRST if (relative == WIN) == first_moves else SECOND
