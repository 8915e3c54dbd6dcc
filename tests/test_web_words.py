"""The words the page and the server share (boards/web/words.py): each as its Python
definition has it, checked against an independent reading (the paper's appendix C, the
golden model), and no copy of them in the page's own files."""

import re

from boards.web import words
from boards.web.server import STATIC
from firmware_ref.eth import alg
from firmware_ref.eth.cycle import Choose, State
from hdl.eth.stack import Entry
from sim.chip.signals import GROUPS, INPUT_PINS
from sim.watch.watch import NAMES

# Appendix C's state diagram, as the paper draws it (a reset, from any state, aside).
APPENDIX_C = {("justreset", "justreset"), ("justreset", "waiting"), ("waiting", "waiting"),
              ("waiting", "userjustmoved"), ("userjustmoved", "setboardi"),
              ("userjustmoved", "finished"), ("setboardi", "rating"),
              ("rating", "setboardi"), ("rating", "returned"), ("rating", "finished"),
              ("returned", "setboardi"), ("returned", "returned"),
              ("returned", "doingbestmove"), ("doingbestmove", "waiting"),
              ("finished", "finished")}
# A string literal of the page's JavaScript.
LITERAL = re.compile(r"\"((?:[^\"\\\n]|\\.)*)\"|'((?:[^'\\\n]|\\.)*)'|`([^`$]*)`")
# What the page draws as pictures of its own, read from the frame by these names.
PICTURED = {"board.board", "stack.stackregs", "stack.sp"}


def literals(path):
    return {next(g for g in found.groups() if g is not None)
            for found in LITERAL.finditer(path.read_text())}


def test_the_chips_words_are_its_definitions():
    chip = words.chip()
    assert {tuple(arrow) for arrow in chip["transitions"]} == APPENDIX_C
    assert len(chip["transitions"]) == len(APPENDIX_C)
    # The golden model's codes, written apart from the HDL's, name the same states.
    assert chip["codes"]["controller.state"] == [State(code).name.lower()
                                                 for code in range(len(State))]
    assert chip["codes"]["controller.choose"] == [Choose(code).name.lower()
                                                  for code in range(len(Choose))]
    places = list(chip["diagram"].values())
    assert sorted(chip["diagram"]) == sorted(chip["codes"]["controller.state"])
    assert len({tuple(place) for place in places}) == len(places)
    assert sum(width for _, _, width, _ in chip["entry"]) == Entry.size
    assert chip["players"] == ["chip", "user"] and chip["stones"][alg.HUMAN] == "user"
    assert {*chip["pins"], "keyboardN"} == set(INPUT_PINS) and chip["pins"][0] == "resetN"


def test_the_blocks_show_every_register_a_frame_holds_once_per_block():
    blocks = dict(words.chip()["blocks"])
    assert list(blocks) == [*(g for g in GROUPS if g != "pins"), "pins"]
    for block, paths in blocks.items():
        assert len(set(paths)) == len(paths) and set(paths) <= set(NAMES), block
    shown = {path for paths in blocks.values() for path in paths}
    held = {name if group == "pins" else f"{group}.{name}"
            for group, names in GROUPS.items() for name in names} & set(NAMES)
    assert held - shown <= PICTURED, held - shown
    assert "controller.choose" in blocks["move"]        # the select, where it steers


def test_the_boards_words_are_the_hosts():
    board = words.board()
    assert board["places"] == [alg.coordinate(k) for k in range(9)]
    assert board["holders"] == {"empty": alg.EMPTY, "machine": alg.COMPUTER,
                                "person": alg.HUMAN, "both": 3}
    assert board["marks"][alg.COMPUTER] == "O" and board["marks"][alg.HUMAN] == "X"


def test_no_file_of_the_page_holds_a_copy_of_the_words():
    chip, board = words.chip(), words.board()
    states = set(chip["codes"]["controller.state"])
    names = {path for _, paths in chip["blocks"] for path in paths} - PICTURED
    # A register's own name, where it is no word the page uses for itself.
    registers = {path.split(".")[-1] for path in names} - {"a", "i", "m", "p", "r", "full",
                                                           "key", "state", "win", "led"}
    files = sorted(STATIC.glob("*.js"))
    assert len(files) > 5
    for path in files:
        found = literals(path)
        copied = found & (states | names | registers | set(board["places"])
                          | set(chip["pins"]) | {"random"}
                          | {f"{a}>{b}" for a, b in APPENDIX_C})
        assert not copied, f"{path.name} retypes {sorted(copied)}"
    for view in ("nine.js", "dom.js"):
        assert not literals(STATIC / view) & set(board["marks"].values()) - {"."}, view
