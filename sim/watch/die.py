"""The die's netlist clocked gate by gate, following the page's chip.

``make die`` leaves the die as the page takes it (sim.verification.die_page): every
placed cell with the net on each of its pins, as the routed DEF joins them, and each
cell type's Liberty function. `Die` turns that netlist into one Python function, each
cell a line in an order where every net is set before it is read, so that a cycle of
its 1,000-odd cells costs a tenth of a millisecond, and nothing here needs numpy or a
compiler: the page's Worker runs it too. Its flip-flops power up 0, as make die's
flow leaves every one of them (a register that powers up 1 is held inverted).

`Following` keeps the die in step with a `Watch` (sim.watch.watch): the die is clocked
with the pins the watch applied at each edge, its flip-flops kept every `KEPT` cycles,
so that any cycle of the session is shown again within a few dozen cycles' work; its
output pins are compared with the HDL chip's at every cycle it shows.
"""

import re
import time
from array import array

from sim.chip.signals import INPUT_PINS, TIED_LOW
from sim.watch.clock import pack

__all__ = ["Die", "Following", "FORMAT", "KEPT", "python_of", "Unreadable"]

FORMAT = 1                  # the description's shape this reader takes (die_page.FORMAT)
CLOCK = "cp"
CONSTANTS = {"vdd": 1, "gnd": 0}       # the die's power nets, which a cell may tie to
KEPT = 64                   # cycles between two kept states of the flip-flops
# The HDL chip's frame's name of each output pin the die's pins are compared with.
COMPARED = {"led": "led", "copyboard": "copyboard", "prompt": "prompt", "fin": "fin",
            "win": "win", "i": "move.i", "sp": "stack.sp"}


class Unreadable(ValueError):
    """A description this reader cannot clock: one line says why."""


_TOKEN = re.compile(r"\s*(?:([A-Za-z_]\w*)|([01])|(.))")


def python_of(function, pins):
    """A Liberty function ("(!((A B)+C))": space or & or * and, + or | or, ^ xor, ! or
    a trailing ' not) as a Python expression over 0/1 ints, its pins named by `pins`
    {pin: expression}."""
    tokens = [(name, bit, sign) for name, bit, sign in _TOKEN.findall(function)
              if name or bit or sign.strip()]
    at = 0

    def peek():
        return tokens[at] if at < len(tokens) else ("", "", "")

    def take(sign):
        nonlocal at
        if peek()[2] != sign:
            raise Unreadable(f"the Liberty function {function!r} wants {sign!r}")
        at += 1

    def either():                               # a + b + ...
        terms = [exclusive()]
        while peek()[2] in ("+", "|"):
            take(peek()[2])
            terms.append(exclusive())
        return terms[0] if len(terms) == 1 else "(" + " | ".join(terms) + ")"

    def exclusive():                            # a ^ b ^ ...
        terms = [both()]
        while peek()[2] == "^":
            take("^")
            terms.append(both())
        return terms[0] if len(terms) == 1 else "(" + " ^ ".join(terms) + ")"

    def both():                                 # a b, a & b, a * b
        terms = [negated()]
        while peek()[0] or peek()[1] or peek()[2] in ("(", "!", "&", "*"):
            if peek()[2] in ("&", "*"):
                take(peek()[2])
            terms.append(negated())
        return terms[0] if len(terms) == 1 else "(" + " & ".join(terms) + ")"

    def negated():
        nonlocal at
        if peek()[2] == "!":
            take("!")
            return f"(1 ^ {negated()})"
        term = atom()
        while peek()[2] == "'":
            take("'")
            term = f"(1 ^ {term})"
        return term

    def atom():
        nonlocal at
        name, bit, sign = peek()
        at += 1
        if name:
            if name not in pins:
                raise Unreadable(f"the Liberty function {function!r} reads {name}, "
                                 f"not a pin of its cell")
            return pins[name]
        if bit:
            return bit
        if sign == "(":
            inside = either()
            take(")")
            return inside
        raise Unreadable(f"the Liberty function {function!r} cannot be read")

    expression = either()
    if at != len(tokens):
        raise Unreadable(f"the Liberty function {function!r} has more than one term")
    return expression


class Die:
    """The die's netlist from its description (die_page.describe's dict), clocked by
    the edges of its pin cp."""

    def __init__(self, description):
        if description.get("format") != FORMAT:
            raise Unreadable("the die's description is of another version: make die "
                             "writes it again")
        self.description = description
        self.nets = description["nets"]
        models = description["models"]
        driven, cells, flops = {}, [], []
        for name, kind, _, _, _, _, _, pins in description["cells"]:
            model = models.get(kind)
            if model is None:
                if pins:
                    raise Unreadable(f"the die's cell {name} is a {kind}, whose function "
                                     f"its Liberty does not give")
                continue                        # a spacer: no pins
            if model["flop"]:
                data, clocked, state = model["flop"]
                if clocked not in pins or data not in pins:
                    raise Unreadable(f"the die's flip-flop {name} ({kind}) is clocked on "
                                     f"{clocked!r}, which this reader does not take")
                out = [pin for pin, function in model["out"].items() if function == state]
                flops.append((name, pins[data], pins[clocked], [pins[p] for p in out]))
                for pin in out:
                    driven[pins[pin]] = None
                continue
            reads = [net for pin, net in pins.items() if pin not in model["out"]]
            for pin, function in model["out"].items():
                if pin in pins:
                    cells.append((name, pins[pin], function, pins, reads))
                    driven[pins[pin]] = len(cells) - 1
        self._inputs(driven)
        self.flops = flops
        self._check_clock(cells, flops)
        order = self._order(cells)
        self._settle, self._advance = self._compile(cells, order, flops)
        self.power_up = bytes(len(flops))

    def _inputs(self, driven):
        """The die's input pins by name (keyboardN[3]) and the nets they drive."""
        self.inputs = {}
        self.outputs = {}
        for name, _, _, net in self.description["pins"]:
            if name in CONSTANTS or net < 0:
                continue
            (self.outputs if net in driven else self.inputs)[name] = net
        if CLOCK not in self.inputs:
            raise Unreadable(f"the die has no clock pin {CLOCK}")

    def _check_clock(self, cells, flops):
        """Every flip-flop's clock is the pin cp through buffers only: the die is
        clocked by cp's edges alone."""
        source = {out: (function, pins) for _, out, function, pins, _ in cells}
        for name, _, net, _ in flops:
            seen = 0
            while net != self.inputs.get(CLOCK):
                function, pins = source.get(net, (None, None))
                if function != "A" or seen > 64:
                    raise Unreadable(f"the die's flip-flop {name} is not clocked by {CLOCK}")
                net, seen = pins["A"], seen + 1

    def _order(self, cells):
        """The cells in an order where each reads only nets set before it."""
        outs = {out for _, out, _, _, _ in cells}
        reads = [[net for net in read if net in outs] for *_, read in cells]
        ready, order, waiting = set(), [], list(range(len(cells)))
        while waiting:
            done = [c for c in waiting if all(n in ready for n in reads[c])]
            left = [c for c in waiting if not all(n in ready for n in reads[c])]
            if not done:
                raise Unreadable(f"the die's cell {cells[left[0]][0]} is in a loop "
                                 f"without a flip-flop")
            for c in done:
                ready.add(cells[c][1])
            order += done
            waiting = left
        return order

    def _compile(self, cells, order, flops):
        """settle(state, pins) -> every net's value; advance(state, pins) -> the
        state after a rising edge of cp; `pins` is the input nets' values in the order
        of self.inputs."""
        lines = [f"    v{net} = p[{k}]" for k, net in enumerate(self.inputs.values())]
        lines += [f"    v{n} = {CONSTANTS[name]}" for n, name in enumerate(self.nets)
                  if name in CONSTANTS]
        for k, (_, _, _, outs) in enumerate(flops):
            lines += [f"    v{net} = s[{k}]" for net in outs]
        known = set(self.inputs.values()) | {n for *_, outs in flops for n in outs} | \
            {n for n, name in enumerate(self.nets) if name in CONSTANTS}
        for c in order:
            name, out, function, pins, reads = cells[c]
            self._driven(name, reads, known)
            named = {pin: f"v{net}" for pin, net in pins.items()}
            lines.append(f"    v{out} = {python_of(function, named)}")
            known.add(out)
        for name, data, _, _ in flops:
            self._driven(name, [data], known)
        every = ", ".join(f"v{n}" if n in known else "0" for n in range(len(self.nets)))
        data = ", ".join(f"v{d}" for _, d, _, _ in flops)
        body = "\n".join(lines)
        source = (f"def settle(s, p):\n{body}\n    return ({every},)\n\n"
                  f"def advance(s, p):\n{body}\n    return bytes(({data},))\n")
        space = {}
        exec(compile(source, "<the die's netlist>", "exec"), space)
        return space["settle"], space["advance"]

    def _driven(self, cell, reads, known):
        """Every net `cell` reads is driven: a net driven by nothing is no netlist to
        clock."""
        for net in reads:
            if net not in known:
                raise Unreadable(f"the die's cell {cell} reads {self.nets[net]}, which "
                                 f"nothing drives")

    def pins(self, inputs, cp):
        """The input nets' values, in the order of self.inputs, for firmware_ref's
        Inputs `inputs` with the clock at `cp` (the scan path's pins held low)."""
        values = {CLOCK: cp, **{name: getattr(inputs, name) for name in INPUT_PINS},
                  **{name: 0 for name in TIED_LOW}}
        out = []
        for name in self.inputs:
            base, _, bit = name.partition("[")
            value = values[base]
            out.append(value >> int(bit[:-1]) & 1 if bit else value & 1)
        return out

    def settle(self, state, inputs, cp):
        """Every net's value (a tuple, in self.nets' order) with the flip-flops at
        `state` and the inputs at `inputs`, cp at `cp`."""
        return self._settle(state, self.pins(inputs, cp))

    def advance(self, state, inputs):
        """The flip-flops after a rising edge of cp with `inputs` held over it."""
        return self._advance(state, self.pins(inputs, 0))

    def read(self, values, port):
        """Output port `port`'s value (led: its bits together) from settle's values."""
        total = 0
        for name, net in self.outputs.items():
            base, _, bit = name.partition("[")
            if base == port:
                total |= values[net] << (int(bit[:-1]) if bit else 0)
        return total


class Following:
    """`die` kept in step with `watch`: the die clocked with the pins the watch
    applied before each edge, its state kept every KEPT cycles."""

    def __init__(self, die, watch):
        missing = [pin for pin in (*INPUT_PINS, *TIED_LOW)
                   if not any(re.fullmatch(rf"{pin}(\[\d+\])?", name) for name in die.inputs)]
        if missing:
            raise Unreadable(f"the die has no input pin {missing[0]}: it is not the chip's")
        extra = [name for name in die.inputs if name.partition("[")[0] not in
                 (*INPUT_PINS, *TIED_LOW, CLOCK)]
        if extra:
            raise Unreadable(f"the die has an input pin {extra[0]} the chip has not")
        self.die, self.watch = die, watch
        self.kept = [die.power_up]              # the state at cycles 0, KEPT, 2 KEPT, ...
        self.codes = array("Q")                 # the pins before each edge clocked here
        self.branches = watch.branches
        self._at = (0, die.power_up)            # the last state reached: (cycle, state)

    @property
    def head(self):
        return len(self.codes)

    def _forget_branch(self):
        """A watch whose history was cut: drop what was clocked here past the cut."""
        watch = self.watch
        if watch.branches == self.branches:
            return
        self.branches = watch.branches
        same = 0
        applied = watch.applied
        while same < min(self.head, watch.head) and pack(applied[same]) == self.codes[same]:
            same += 1
        del self.codes[same:]
        del self.kept[same // KEPT + 1:]
        if self._at[0] > same:
            self._at = (0, self.die.power_up)

    def reach(self, cycle, seconds=None):
        """Clock the die towards `cycle` (at most the watch's head) for at most
        `seconds` (None: until it is there); the cycle it reached and its state."""
        self._forget_branch()
        cycle = min(cycle, self.watch.head)
        at, state = self._at
        start = (min(cycle, self.head) // KEPT) * KEPT
        if not start <= at <= cycle or at > self.head:
            at, state = start, self.kept[start // KEPT]
        began = time.monotonic()
        applied, advance = self.watch.applied, self.die.advance
        while at < cycle:
            if at == self.head:
                self.codes.append(pack(applied[at]))
            state = advance(state, applied[at])
            at += 1
            if at % KEPT == 0 and at // KEPT == len(self.kept):
                self.kept.append(state)
            if seconds is not None and at % 16 == 0 and time.monotonic() - began > seconds:
                break
        self._at = (at, state)
        return at, state

    def values(self, cycle, state):
        """Every net's value at frame `cycle` of state `state`: after its edge, cp
        high and the pins held over the edge (frame 0: power-up, cp low)."""
        watch = self.watch
        if cycle == 0:
            inputs = watch.applied[0] if watch.head else watch.pins
            return self.die.settle(state, inputs, 0)
        return self.die.settle(state, watch.applied[cycle - 1], 1)

    def differences(self, cycle, values):
        """[(pin, the die's value, the HDL chip's)] where the die's output pins differ
        from the watch's frame `cycle`."""
        frame = self.watch.frames[cycle]["values"]
        found = []
        for pin, name in COMPARED.items():
            ours = self.die.read(values, pin)
            if frame.get(name) is not None and ours != frame[name]:
                found.append((pin, ours, frame[name]))
        return found
