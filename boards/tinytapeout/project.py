"""`make tinytapeout`: the 1990 chip as a Tiny Tapeout project, in the layout of TT's
Verilog template (`TEMPLATE`): info.yaml, src/ (the top and the chip exported from the
Amaranth HDL), test/ (tb.v, the cocotb test and its Makefile) and docs/info.md.

The test's expected answers are the golden model's, played here through the host
protocol (boards/host/golden.py) and written into test/test.py, so that TT's workflow
runs it with cocotb alone.
"""

import json
import re
from importlib.metadata import version
from pathlib import Path

from firmware_ref.places import EMPTY, MARKS, PLACES
from hdl.cartridge import SETTLE
from sim import catalogue

from ..gateware.rates import BAUD
from ..host import protocol
from ..host.golden import PATIENCE, GoldenLink
from . import top as tt

__all__ = ["TEMPLATE", "TILES", "SOURCES", "CHIP", "FILES", "split", "games", "files",
           "write"]

# The template this project follows: TT's SkyWater 130 nm Verilog template as tagged for
# the TTSKY26a shuttle (yaml_version 6).
TEMPLATE = ("TinyTapeout/ttsky-verilog-template, as tagged for TTSKY26a "
            "(2026-02-27, info.yaml's yaml_version 6)")
YAML_VERSION = 6
TILES = "1x2"           # TT's tile sizes: 1x1 is about 167 x 108 um (docs/tinytapeout.md)
CHIP = "ttt_chip.v"
SOURCES = (f"{tt.TOP}.v", CHIP)
# The written project's files, beside its root.
FILES = ("info.yaml", *(f"src/{name}" for name in SOURCES), "test/Makefile", "test/tb.v",
         "test/test.py", "docs/info.md")
# The chip's modules: everything under the cartridge's chip (its pins' merge included).
_CHIP_MODULE = re.compile(r"^module \\" + re.escape(tt.TOP) + r"\.desk\.cartridge0\.chip\b")
_MODULE = re.compile(r"(?:^\(\*[^\n]*\*\)\n)*^module .*?^endmodule\n", re.M | re.S)


def split(verilog):
    """The top's Verilog as two files' texts: (the top and the desk, the chip), each
    beginning with a header that says where it comes from, and `default_nettype none`."""
    left = _MODULE.sub("", verilog)
    if re.sub(r"/\*.*?\*/", "", left).strip():
        raise AssertionError(f"Verilog outside the modules: {left.strip()[:80]!r}")
    tools = " and ".join(f"{tool} {version(tool)}" for tool in tt.VERILOG_TOOLS)
    # Every net declared, as TT's template asks: a misspelt name is an error, not a wire.
    header = (f"// Written by 'make tinytapeout' from the project's Amaranth HDL (hdl/eth/, "
              f"boards/) with {tools}: change those and write it again.\n"
              "`default_nettype none\n")
    top, chip = [header], [header]
    for module in _MODULE.finditer(verilog):
        text = module.group()
        body = text[text.index("module "):]
        (chip if _CHIP_MODULE.match(body) else top).append(text)
    return "".join(top), "".join(chip)


def _mark(board):
    places = "".join(MARKS[v] for v in board)
    return "|".join(places[r:r + 3] for r in range(0, PLACES, 3))


def _answer(link, frame):
    """The golden model's status as the desk sends it: the desk reads its status some
    clocks after the chip waits (its ready is registered, and the line is formatted a
    character at a time), once the board register has taken the chip's move, a clock
    after the chip's copyboard."""
    link.answer(frame.encode())
    for _ in range(SETTLE):
        link.tick()
    return link.status()


def _game(choose):
    """A game through the host link, the person taking the place `choose(board)`
    picks: [(frame, the golden model's answer line, its status)]."""
    link = GoldenLink(catalogue.CHIP.name)
    frames = [("S", _answer(link, "S"))]
    while not frames[-1][1].lamps[1]:
        board = frames[-1][1].board
        frame = f"K{choose([k for k in range(PLACES) if board[k] == EMPTY])}"
        frames.append((frame, _answer(link, frame)))
    return [(frame, protocol.line(status), status) for frame, status in frames]


def games():
    """The games test/test.py plays: through the UART, each frame and its answer line;
    through the pins, each key with the board and lamps (prompt, fin, win) that follow.
    The first of each kind is the short test's."""
    first, last = _game(min), _game(max)
    middle = _game(lambda empty: empty[len(empty) // 2])
    uart = [[(frame, line) for frame, line, _ in game] for game in (first, middle)]
    pins = [[(int(frame[1:]), _mark(status.board),
              "".join("01"[on] for on in status.lamps[:3]))
             for frame, _, status in game[1:]] for game in (last, middle)]
    return uart, pins


def _project():
    """What test/test.py needs to know of the top: pins, clocks and the games."""
    uart, pins = games()
    return {
        "clock_hz": tt.CLOCK_HZ, "bit_cycles": round(tt.CLOCK_HZ / BAUD),
        "patience": PATIENCE, "rx": tt.RX, "tx": tt.TX, "strobe": tt.STROBE,
        "index": tt.INDEX.start, "lamps": tt.LAMP_PINS, "rows": tt.ROW_PINS,
        "red": tt.RED_PINS, "green": tt.GREEN_PINS,
        "uart_games": uart, "pin_games": pins,
    }


def _info_yaml(author):
    pins = "\n".join(f'  {pin}: "{name}"' for pin, name in tt.PINOUT.items())
    sources = "\n".join(f'    - "{name}"' for name in SOURCES)
    return f"""\
# Tiny Tapeout project information ({TEMPLATE}).
# Written by 'make tinytapeout' from this project's Amaranth HDL: change hdl/ and boards/
# there and write it again, rather than editing src/.
project:
  title:        "ETH tic-tac-toe chip (1990)"
  author:       {json.dumps(author, ensure_ascii=False)}
  discord:      ""      # Your discord username (optional)
  description:  "The 1990 ETH Zurich VLSI chip that searches the game tree of tic-tac-toe, with a UART host link"
  language:     "Amaranth"
  clock_hz:     {tt.CLOCK_HZ}  # the UART's {BAUD} baud are counted in these clocks

  # How many tiles your design occupies? A single tile is about 167x108 uM.
  tiles: "{TILES}"

  top_module:  "{tt.TOP}"

  # Source files in ./src, one per line (test/Makefile's PROJECT_SOURCES has them too).
  source_files:
{sources}

# The pinout of your project (docs/info.md says what each does).
pinout:
{pins}

# Do not change!
yaml_version: {YAML_VERSION}
"""


def _makefile():
    return f"""\
# The cocotb test's Makefile, in the shape of TT's template: make -B runs the RTL test
# on Icarus (SIM=verilator on Verilator); GATES=yes the gate-level test on the netlist
# TT's GDS workflow copies in.

SIM ?= icarus
FST ?= -fst
TOPLEVEL_LANG ?= verilog
SRC_DIR = $(PWD)/../src
PROJECT_SOURCES = {" ".join(SOURCES)}

ifneq ($(GATES),yes)

# RTL simulation:
SIM_BUILD = sim_build/rtl
VERILOG_SOURCES += $(addprefix $(SRC_DIR)/,$(PROJECT_SOURCES))

else

# Gate level simulation:
SIM_BUILD = sim_build/gl
COMPILE_ARGS += -DGL_TEST
COMPILE_ARGS += -DFUNCTIONAL
COMPILE_ARGS += -DUSE_POWER_PINS
COMPILE_ARGS += -DSIM
COMPILE_ARGS += -DUNIT_DELAY=\\#1
VERILOG_SOURCES += $(PDK_ROOT)/sky130A/libs.ref/sky130_fd_sc_hd/verilog/primitives.v
VERILOG_SOURCES += $(PDK_ROOT)/sky130A/libs.ref/sky130_fd_sc_hd/verilog/sky130_fd_sc_hd.v
VERILOG_SOURCES += $(PWD)/gate_level_netlist.v

endif

COMPILE_ARGS += -I$(SRC_DIR)
# Verilator (SIM=verilator): tb.v's one delay is for Icarus, and the generated code's
# width warnings are not errors.
ifeq ($(SIM),verilator)
EXTRA_ARGS += --no-timing -Wno-fatal
endif
VERILOG_SOURCES += $(PWD)/tb.v
TOPLEVEL = tb
COCOTB_TEST_MODULES = test

include $(shell cocotb-config --makefiles)/Makefile.sim
"""


def _tb_v():
    return f"""\
`default_nettype none
`timescale 1ns / 1ps

// The testbench of TT's template: the top and wires for the cocotb test (test.py).
module tb ();

  initial begin
    $dumpfile("tb.fst");
    $dumpvars(0, tb);
    #1;
  end

  reg clk;
  reg rst_n;
  reg ena;
  reg [7:0] ui_in;
  reg [7:0] uio_in;
  wire [7:0] uo_out;
  wire [7:0] uio_out;
  wire [7:0] uio_oe;
  wire uart_tx = uo_out[{tt.TX}];   // the host link's TX, for the test to wait on
`ifdef GL_TEST
  wire VPWR = 1'b1;
  wire VGND = 1'b0;
`endif

  {tt.TOP} user_project (
`ifdef GL_TEST
      .VPWR(VPWR),
      .VGND(VGND),
`endif
      .ui_in  (ui_in),
      .uo_out (uo_out),
      .uio_in (uio_in),
      .uio_out(uio_out),
      .uio_oe (uio_oe),
      .ena    (ena),
      .clk    (clk),
      .rst_n  (rst_n)
  );

endmodule
"""


def _test_py():
    source = Path(__file__).with_name("cocotb_test.py").read_text()
    if "\nPROJECT = {}\n" not in source:
        raise AssertionError("cocotb_test.py has no 'PROJECT = {}' line to fill")
    return source.replace("\nPROJECT = {}\n", f"\nPROJECT = {_project()!r}\n")


def _info_md():
    rows = "\n".join(f"| `{pin}` | {name} |" for pin, name in tt.PINOUT.items())
    return f"""\
## How it works

The tic-tac-toe chip Geiser and Marzetta designed at ETH Zurich in 1990, unchanged: it
searches the whole game tree with alpha-beta pruning on an 8-deep stack and never loses.
Beside it the console's desk: a UART host link ({BAUD} baud, 8N1, at a {tt.CLOCK_HZ} Hz
clock) that takes one-line commands (`S`, `K0`..`K8`, `W01`, `R`) and answers each with
the status line `XO.|.X.|..O gE l1000 s1000 c003A`: the board, the lamps (prompt, fin,
win), the switches (userbegins, piN) and the clocks the chip's last move took. A
display shows the board a row at a time.

The person's pins reach the chip's own pins beside the desk: `ui[7:4]` holds a place
(0 top left, row by row; 9-15 is no key) and `ui[0]` high presses it; `ui[1]` high makes
the chip begin (pulls its userbegins low); `ui[2]` is its piN. `rst_n` resets the chip
and the desk; a game begins when it rises.

| pin | use |
| --- | --- |
{rows}

## How to test

On TT's demo board the RP2040's USB serial is wired to `ui[3]` and `uo[4]`: select the
project, give it a {tt.CLOCK_HZ // 1_000_000} MHz clock, keep the DIP switches off, and
from the project's repository run `make play-board PORT=/dev/ttyACM0` (a game in the
terminal) or `make serve PORT=/dev/ttyACM0` (the console in a browser).

Without a computer: set `ui[1]` for the chip to begin, release `rst_n`, then for each
move set the place on `ui[7:4]` and raise `ui[0]`. `uo[0]` is prompt (your move), `uo[1]`
fin and `uo[2]` win; `uo[3]` is high while the chip thinks.

## External hardware

None needed. A 3x3 two-colour LED matrix can show the board: its rows' common cathodes
on `uo[5:7]` (high = that row is shown, through a driver), the chip's red anodes on
`uio[0:2]` and the person's green ones on `uio[3:5]`.
"""


def files(author, *, log=None):
    """{path in the project: its text}; `author` is info.yaml's, which TT's tools
    refuse empty. `log` hears when YoWASP first compiles Yosys."""
    if not author.strip():
        raise ValueError("Tiny Tapeout's info.yaml needs an author")
    top, chip = split(tt.netlist("verilog", log=log))
    texts = {"info.yaml": _info_yaml(author), f"src/{tt.TOP}.v": top, f"src/{CHIP}": chip,
             "test/Makefile": _makefile(), "test/tb.v": _tb_v(),
             "test/test.py": _test_py(), "docs/info.md": _info_md()}
    assert tuple(texts) == FILES
    return texts


def write(out_dir, author, *, log=None):
    """Write the project by `author` into `out_dir`; return the paths written."""
    out_dir = Path(out_dir)
    paths = []
    for name, text in files(author, log=log).items():
        path = out_dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        paths.append(path)
    return paths
