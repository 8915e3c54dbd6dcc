"""The engine's strength, reported (not asserted): against a uniformly random player
and against a plain MCTS player (UCT, random playouts), whole games from the empty
board, each side in turn (docs/ultimate.md).

    python -m firmware_ref.ultimate.match [--games N] [--depth D] [--playouts P]

This command line stands alone, not a verb of ``ttt``: the golden models sit below sim/
and boards/ and import neither.
"""

import math
import random
from collections import Counter

from . import engine
from .rules import Position

__all__ = ["random_player", "mcts_player", "engine_player", "game", "match", "main"]


def random_player(rng):
    def choose(position):
        return rng.choice(position.legal())
    return choose


def engine_player(depth):
    def choose(position):
        return engine.move(position, depth)[0]
    return choose


def _playout(position, rng):
    while True:
        legal = position.legal()
        if not legal:
            return position.winner()
        position = position.play(rng.choice(legal))


def mcts_player(rng, playouts):
    """Plain UCT: `playouts` random playouts a move, exploration sqrt(2); the move
    most visited."""
    def choose(position):
        # A node: [position, untried moves, children {cell: node}, visits, wins]
        root = [position, list(position.legal()), {}, 0, 0.0]
        for _ in range(playouts):
            path, node = [root], root
            while not node[1] and node[2]:
                parent = node
                node = max(parent[2].values(), key=lambda child: (
                    child[4] / child[3] + math.sqrt(2 * math.log(parent[3]) / child[3])))
                path.append(node)
            if node[1]:
                cell = node[1].pop(rng.randrange(len(node[1])))
                after = node[0].play(cell)
                child = [after, list(after.legal()), {}, 0, 0.0]
                node[2][cell] = child
                path.append(child)
                node = child
            result = _playout(node[0], rng)
            for visited in path:
                visited[3] += 1
                # Wins for the player who moved into this node.
                mover = "O" if visited[0].to_move() == "X" else "X"
                visited[4] += 1.0 if result == mover else 0.5 if result == "draw" else 0.0
        return max(root[2], key=lambda cell: root[2][cell][3])
    return choose


def game(x, o):
    position = Position()
    while position.legal():
        position = position.play((x if position.to_move() == "X" else o)(position))
    return position.winner()


def match(opponent, games, depth):
    """Counter of the engine's "win", "loss", "draw", half the games as X."""
    counts = Counter()
    me = engine_player(depth)
    for n in range(games):
        if n % 2 == 0:
            result, side = game(me, opponent), "X"
        else:
            result, side = game(opponent, me), "O"
        counts["draw" if result == "draw" else "win" if result == side else "loss"] += 1
    return counts


def main(argv=None):
    import argparse
    import time
    parser = argparse.ArgumentParser(
        prog="python -m firmware_ref.ultimate.match",
        description="How strong the Ultimate Tic-Tac-Toe engine is: whole games "
        "against a player that moves at random and against a plain Monte Carlo tree "
        "search player (random playouts), half of them as X. It prints the wins, losses "
        "and draws against each and the time. 20 games, at 1000 playouts a move, took 19 s "
        "against the random player and 234 s against the tree search on 2 cores.")
    parser.add_argument("--games", type=int, default=20,
                        help="games against each player (default 20)")
    parser.add_argument("--depth", type=int, default=engine.DEPTH,
                        help=f"the engine's plies (default {engine.DEPTH})")
    parser.add_argument("--playouts", type=int, default=1000,
                        help="the tree search's playouts a move (default 1000)")
    parser.add_argument("--seed", type=int, default=0,
                        help="the players' seed (default 0)")
    args = parser.parse_args(argv)
    if min(args.games, args.depth, args.playouts) < 1:
        parser.error("--games, --depth and --playouts: at least 1")
    rng = random.Random(args.seed)
    for name, opponent in (("a random player", random_player(rng)),
                           (f"MCTS, {args.playouts} playouts a move",
                            mcts_player(rng, args.playouts))):
        began = time.perf_counter()
        counts = match(opponent, args.games, args.depth)
        print(f"the engine (depth {args.depth}) against {name}, {args.games} games: "
              f"{counts['win']} wins, {counts['loss']} losses, {counts['draw']} draws "
              f"({time.perf_counter() - began:.0f} s)")


if __name__ == "__main__":
    import sys

    from ..cli import run
    sys.exit(run(main))
