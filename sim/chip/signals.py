"""The chip's signals by the names every tool here uses.

A name is a path below the chip: attributes of `hdl.eth.chip.Chip`, instances and wires of
the exported netlist (`hdl.eth.export`, top module ``ttt_chip``), and scopes and variables of
the golden waves (`sim.chip.golden_waves`). The benches read the chip through these names,
and `sim.waves.compare` pairs waves by them.
"""

__all__ = ["PERIOD_NS", "INPUT_PINS", "TIED_LOW", "SCAN_OUT", "PROBE_PATHS", "RANDOM",
           "WAVES", "GROUPS"]

# The clock of every simulation, E.1's: cp low for 100 ns, then high for 100 ns, so that
# the rising edges fall at 200 ns, 400 ns, ... as in the E.2 trace and all waves align.
PERIOD_NS = 200

# The inputs a person drives (scan and scanin stay low outside scan tests).
INPUT_PINS = ("keyboardN", "userbegins", "piN", "resetN")
# The scan path's inputs, held low: the games do not play it.
TIED_LOW = ("scan", "scanin")
# The scan path's output: position 0 of its chain, a flip-flop (hdl.eth.scan).
SCAN_OUT = "scanout"

# What a bench compares after every edge, by firmware_ref.eth.cycle.Probe field.
PROBE_PATHS = {"state": "controller.state", "wins": "board.wins",
               "choose": "controller.choose", "toggleN": "controller.toggleN",
               "usei": "controller.usei", "nexti": "controller.nexti", "sp": "sp", "i": "i",
               "fin": "fin", "win": "win", "prompt": "prompt", "led": "led",
               "copyboard": "copyboard"}

# The random counter: the one register a simulator may start at another value than the
# netlist's, one build serving every lane's power-up (the chip's opening follows it).
RANDOM = "move.random"

# What the golden waves hold, with widths: the pins, the probe and every register.
WAVES = {
    "cp": 1, "keyboardN": 9, "userbegins": 1, "piN": 1, "resetN": 1, "scan": 1,
    "scanin": 1,
    "led": 18, "copyboard": 1, "prompt": 1, "fin": 1, "win": 1, "i": 4, "sp": 3,
    "controller.state": 3, "controller.choose": 2, "controller.toggleN": 1,
    "controller.usei": 1, "controller.nexti": 1,
    "board.board": 18, "board.p": 1, "board.wins": 1,
    "move.m": 4, "move.random": 3,
    "value.r": 2, "value.bestr": 1, "value.a": 1,
    "stack.sp": 3, "stack.stackregs": 48,
    "keyboard.keyboard": 9,
}

# What the wave views show, grouped by the blocks of the paper's figure 2 (names below
# the group's block; "pins" are the chip's own, the clock first).
GROUPS = {
    "pins": ["cp", "resetN", "userbegins", "piN", "keyboardN", "led", "copyboard", "prompt",
             "fin", "win", "i", "sp"],
    "controller": ["state", "choose", "toggleN", "usei", "nexti", "init", "call", "pop",
                   "assignmove", "remember", "retbest", "negr", "sno", "clearr"],
    "board": ["board", "p", "wins", "full", "lasti", "nextfree", "validkey"],
    "move": ["i", "m", "random", "index"],
    "value": ["r", "bestr", "a", "rgea", "rgbestr"],
    "stack": ["sp", "ground", "stackregs"],
    "keyboard": ["keyboard", "keypressed", "key"],
}
