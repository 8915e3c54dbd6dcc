"""The search tree built from the chip's cycles (sim/chip/tree.py): its node count is
alg.move's ``nodes`` (appendix F.2) for every position a user can reach, on the golden
model's cycles; on the HDL chip's frames for the worst move; and its values and cuts
are alpha-beta's."""

import pytest

from firmware_ref.cartridge import board_places
from firmware_ref.eth import alg
from firmware_ref.eth.cycle import NO_KEY, CycleModel, State, key_down
from firmware_ref.places import HUMAN
from sim.chip import games, tree
from sim.watch.watch import WORST, Watch, worst_search


def _values(chip):
    """What the tree reads of a golden model after an edge, under the frames' names."""
    r = chip.registers()
    return {"controller.state": r.state, "move.i": r.i, "stack.sp": r.sp, "board.p": r.p,
            "value.r": r.r, "value.a": r.a,
            "board.wins": chip.probe.wins if r.state is State.FINISHED else 0}


def _positions():
    """Every position the chip answers (the board with the user's key on it), once,
    with the registers of the waiting chip and the key."""
    seen = {}

    def pressed(opening, registers, key):
        board = board_places(registers.board)
        board[key] = HUMAN
        if not alg.full(board):
            seen.setdefault(tuple(board), (registers, key))
    for _ in games.all_games(on_press=pressed):
        pass
    return seen


def _golden_search(registers, key):
    chip = CycleModel.from_registers(registers)
    frames = [_values(chip)]
    chip.set(keyboardN=key_down(key))
    chip.tick()
    frames.append(_values(chip))
    chip.set(keyboardN=NO_KEY)
    while True:
        chip.tick()
        frames.append(_values(chip))
        if chip.state in (State.WAITING, State.FINISHED):
            return tree.searches(frames)


@pytest.mark.slow       # 1,253 searches on the golden model: some seconds
def test_the_node_count_is_alg_moves_for_every_reachable_position():
    positions = _positions()
    assert len(positions) == 1253
    for board, (registers, key) in positions.items():
        (_, nodes, _), = _golden_search(registers, key)
        assert len(nodes) == alg.move(list(board)).nodes, board


def test_the_worst_move_on_the_hdl_chip():
    """B3 first: the chip's slowest answer, 15,007 cycles, as the page shows it."""
    watch = Watch()
    worst_search(watch)
    (begun, nodes, end), = tree.searches([f["values"] for f in watch.frames])
    board = [0] * 9
    board[WORST] = HUMAN
    best = alg.move(board)
    assert end - begun == 15007 == watch.head - begun and len(nodes) == best.nodes
    ground = [n for n in nodes if n.depth == 0]
    assert all(n.parent is None and n.player == 0 for n in ground)
    # The chip plays the first ground move of the best value, as alg.c's loop keeps it.
    value = max(n.value for n in ground)
    assert value == best.value and ground[[n.value for n in ground].index(value)].place \
        == best.place
    # Every child is one deeper than its parent, of the other player, set after it.
    for node in nodes:
        if node.parent is not None:
            parent = nodes[node.parent]
            assert (node.depth, node.player) == (parent.depth + 1, 1 - parent.player)
            assert parent.cycle < node.cycle <= parent.end
    # A cut leaves no later sibling.
    for k, node in enumerate(nodes):
        if node.cut:
            assert not any(m.parent == node.parent and m.cycle > node.cycle
                           for m in nodes[k + 1:])
    assert any(n.cut for n in nodes)
    # The path open half way through is a chain from the ground down.
    path = tree.path_at(nodes, begun + 7000)
    assert nodes[path[0]].depth == 0 and all(
        nodes[b].parent == a for a, b in zip(path, path[1:]))
