"""The mutant controllers: hdl/eth/controller.py with one transition altered.

Every ``goto`` sent to the next state's code, and the states that stay (setup in
justreset, waiting without a key, finished) made to leave. tests/test_mutants.py checks
that the lockstep battery catches each; ``make formal`` reports which of them the formal
properties catch (sim.verification.formal.jobs).
"""

import re
from pathlib import Path

import hdl.eth.controller

__all__ = ["SOURCE", "mutants", "controller_from"]

SOURCE = Path(hdl.eth.controller.__file__).read_text()
GOTO = re.compile(r"goto\(State\.(\w+)\)")
CODES = {name: member.value for name, member in hdl.eth.controller.State.__members__.items()}
NAMES = {code: name for name, code in CODES.items()}
STAYS = {   # a transition that keeps the state, and one that leaves it instead
    "justreset setup": ("toggle(Choose.key)\n                with m.Elif(self.userbegins)",
                        "toggle(Choose.key)\n                    goto(State.waiting)\n"
                        "                with m.Elif(self.userbegins)"),
    "waiting idle": ("m.d.comb += self.copyboard.eq(1)\n\n            with m.Case(State.userjustmoved)",
                     "m.d.comb += self.copyboard.eq(1)\n                    "
                     "goto(State.userjustmoved)\n\n            with m.Case(State.userjustmoved)"),
    "finished stays": ("self.win.eq(self.wins),\n                ]",
                       "self.win.eq(self.wins),\n                ]\n"
                       "                goto(State.waiting)"),
}


def mutants():
    """(name, source) of every mutant controller."""
    for found in GOTO.finditer(SOURCE):
        target = NAMES[(CODES[found.group(1)] + 1) % 8]
        line = SOURCE.count("\n", 0, found.start()) + 1
        yield (f"line {line}: goto {found.group(1)} -> {target}",
               SOURCE[:found.start()] + f"goto(State.{target})" + SOURCE[found.end():])
    for name, (old, new) in STAYS.items():
        if SOURCE.count(old) != 1:
            raise AssertionError(f"mutant {name!r}: its code is not in controller.py once")
        yield name, SOURCE.replace(old, new)


def controller_from(source):
    """The Controller class of `source`, with the real State and Choose enums so that
    it plugs into the other blocks."""
    source = re.sub(r"class (State|Choose)\(enum\.Enum.*?\n\n\n", "", source, flags=re.S)
    namespace = {"__name__": "hdl.eth.controller_mutant", "__package__": "hdl.eth",
                 "State": hdl.eth.controller.State, "Choose": hdl.eth.controller.Choose}
    exec(compile(source, "hdl/eth/controller.py (mutant)", "exec"), namespace)
    return namespace["Controller"]
