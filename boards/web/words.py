"""The words the page and the server share, sent to the page from their Python
definitions so that the page retypes none of them: `board()` with the ``welcome`` (the
places' names and the board's marks), `chip()` with the chip panel's first frame (the
controller's states and choose codes, appendix C's transitions, the blocks of the paper's
figure 2 and what each shows, the input pins it sets, a stack entry's fields and the
stack's depth).

`tests/test_web_words.py` checks them against their definitions, and that no file of
the page holds a copy.
"""

import ast
import functools
import inspect
import textwrap

from amaranth.hdl import Shape

from firmware_ref import places
from firmware_ref.places import BOTH, COMPUTER, EMPTY, HUMAN, MARKS
from hdl.eth.controller import Choose, Controller, State
from hdl.eth.stack import DEPTH, Entry
from sim.chip.signals import GROUPS, WAVES
from sim.watch.watch import NAMES

__all__ = ["board", "chip", "transitions", "PINS"]

# A place of the board as the page words it: who holds it, by its code.
HOLDERS = {EMPTY: "empty", COMPUTER: "machine", HUMAN: "person", BOTH: "both"}
# A place of the chip's board register by its two bits, in the paper's words; the
# player p holds the stone p + 1 (p 0 is the chip: sim.chip.tree).
STONES = {EMPTY: "empty", COMPUTER: "chip", HUMAN: "user", BOTH: "both"}
PLAYERS = (COMPUTER, HUMAN)
# Where the page's diagram of the controller draws each state, by column and row: the
# search's loop below, the way out of it (doingbestmove) on the left, back up to
# waiting, so that no transition crosses a state.
DIAGRAM = {State.justreset: (0, 0), State.waiting: (1, 0), State.userjustmoved: (2, 0),
           State.doingbestmove: (0, 1), State.setboardi: (1, 1), State.finished: (2, 1),
           State.returned: (0, 2), State.rating: (1, 2)}
# A control shown in the block it steers as well: the multiplexer's select in move.
STEERS = {"move": ("controller.choose",)}
# What the page draws in a picture of its own rather than as a value: the board
# register as its 3x3 of stones.
PICTURED = ("board.board",)
# Registers a person reads bit by bit: a bit a key, two an LED's place.
BITS = ("keyboard.keyboard", "led")
# The chip's input pins (sim.chip.signals.INPUT_PINS) the panel sets one at a time,
# reset first (a chip at power-up needs a reset edge); the keyboard's are held as keys.
PINS = ("resetN", "userbegins", "piN")


def board():
    """The words of a board of nine places, for the page's views: each place's name,
    who holds a place by its code, and each code's mark in a position's text."""
    return {"places": list(places.NAMES),
            "holders": {name: code for code, name in HOLDERS.items()},
            "marks": {code: MARKS[code] for code in HOLDERS}}


@functools.cache
def chip():
    """The words of the chip's insides, for the chip's panel."""
    return {
        "codes": {"controller.state": _names(State), "controller.choose": _names(Choose)},
        "transitions": transitions(),
        "diagram": {state.name: place for state, place in DIAGRAM.items()},
        "blocks": _blocks(),
        "bits": {path: WAVES[path] for path in BITS},
        "pins": list(PINS),
        "entry": [[name, field.offset, field.width, Shape.cast(field.shape).signed]
                  for name, field in Entry],
        "depth": DEPTH,
        "stones": [STONES[code] for code in sorted(STONES)],
        "players": [STONES[stone] for stone in PLAYERS],
    }


def _names(codes):
    """An enum's names, by their codes 0, 1, ..."""
    members = sorted(codes, key=lambda member: member.value)
    assert [m.value for m in members] == list(range(len(members))), codes
    return [member.name for member in members]


def _blocks():
    """The blocks (sim.chip.signals.GROUPS, the pins last) and the frame's names each
    shows as a value: those a frame holds (a pin the panel drives is a control, and the
    pins i and sp are shown as move's and stack's registers)."""
    blocks = []
    for group, names in sorted(GROUPS.items(), key=lambda item: item[0] == "pins"):
        paths = [name if group == "pins" else f"{group}.{name}" for name in names]
        shown = [*STEERS.get(group, ()),
                 *(path for path in paths if path in NAMES and path not in PICTURED)]
        blocks.append([group, shown])
    return blocks


def transitions():
    """Appendix C's transitions as the controller's `elaborate` writes them (the one
    definition): each ``m.Case(State.x)``'s ``goto(State.y)``, and x to itself where a
    way through the case leaves the state as it is. A reset, which goes to justreset
    from any state, is not one of them."""
    source = textwrap.dedent(inspect.getsource(Controller.elaborate))
    found = []
    for node in ast.walk(ast.parse(source)):
        state = _case(node)
        if state is not None:
            targets, stays = _gotos(node.body)
            found += [[state, target] for target in targets]
            if stays:
                found.append([state, state])
    unique = []
    for arrow in found:
        if arrow not in unique:
            unique.append(arrow)
    return unique


def _state(node):
    """``State.x`` as x, else None."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
            and node.value.id == State.__name__:
        return node.attr
    return None


def _with(node):
    """A ``with m.<name>(...)`` statement as (name, its call), else (None, None)."""
    if isinstance(node, ast.With) and isinstance(node.items[0].context_expr, ast.Call) \
            and isinstance(node.items[0].context_expr.func, ast.Attribute):
        call = node.items[0].context_expr
        return call.func.attr, call
    return None, None


def _case(node):
    name, call = _with(node)
    return _state(call.args[0]) if name == "Case" and call.args else None


def _goto(node):
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) \
            and isinstance(node.value.func, ast.Name) and node.value.func.id == "goto":
        return _state(node.value.args[0])
    return None


def _gotos(body):
    """The states `body` goes to, and whether a way through it goes to none. An
    ``m.If``/``m.Elif``/``m.Else`` chain leaves the state only if it has an Else and
    every branch leaves it."""
    targets, through, branches = [], True, []
    for statement in body:
        target = _goto(statement)
        kind, _ = _with(statement)
        if target is not None:
            targets.append(target)
            through = False
        elif kind in ("If", "Elif", "Else"):
            inner, inner_through = _gotos(statement.body)
            targets += inner
            branches = [inner_through] if kind == "If" else [*branches, inner_through]
            if kind == "Else" and not any(branches):
                through = False
    return targets, through
