# The README's verbs. The first one run creates .venv in the repo root and installs
# the project into it with pip; later runs reuse it until pyproject.toml changes.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: sim test waves games play clean

sim: $(STAMP)         ## the paper's E.2 session on the chip, against the paper and the golden model
	$(PY) -m sim e2

waves: $(STAMP)       ## open the E.2 waves in GTKWave (or say how to)
	$(PY) -m sim waves

test: $(STAMP)        ## the test suite
	$(PY) -m pytest

games: $(STAMP)       ## every game a user can play, and the chip's think times
	$(PY) -m sim games

play: $(STAMP)        ## play against the chip in the terminal
	$(PY) -m firmware_ref.ttmain

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	@echo "Installing the project and its tools into $(VENV) (log: $(VENV)/install.log)"
	@{ $(PY) -m pip install --upgrade pip && $(PY) -m pip install -e '.[test]'; } \
		> $(VENV)/install.log 2>&1 || { cat $(VENV)/install.log; exit 1; }
	@touch $@

clean:                ## remove build outputs and the environment
	rm -rf build .venv .pytest_cache *.egg-info
