"""The console's cartridges: every game folder is found, builds, and plays in lockstep
with its golden model on every bench (Amaranth, compiled, cocotb); a core that breaks a
rule is caught on each; waves of one game compare equal, and a change is reported."""

import itertools

import pytest
from amaranth.hdl import Fragment

from boards.gateware.top import target
from boards.builds.build import plan
from hdl.cartridge import Cartridge, Signature
from sim import Mismatch, catalogue
from sim.backends import PLAIN_VERILATOR, BackendMissing
from sim.cartridges.golden import Golden
from sim.cartridges.lockstep import lockstep
from sim.cartridges import waves as cartridge_waves
from sim.waves import game as game_waves
from user import make

# The simulators that run a cartridge here, the bit-parallel chips being the chip's own.
ON_CARTRIDGES = ("compiled", "verilator", "amaranth", PLAIN_VERILATOR)


def test_the_benches_blink_as_the_12_mhz_boards_do():
    # A core that blinks counts its blink in clocks: the benches give it a 12 MHz
    # board's, the console's clock (each board's desk gives it its own: test_top.py).
    from boards.gateware.top import BOARDS
    from hdl.cartridge import blink_clocks
    from sim import CLOCK_HZ
    assert BOARDS["icebreaker"].clock_hz == CLOCK_HZ
    blink = blink_clocks(CLOCK_HZ)
    assert blink == 1 << 22                 # a 22-bit counter's top bit: 0.35 s
    assert catalogue.game("ultimate").given() == {"blink": blink}


def test_every_game_folder_is_a_cartridge():
    assert catalogue.names() == ["baum_g", "baum_g_forced", "bawer_hawkins", "eth",
                                  "firstfree", "hendrix_purcell",
                                  "hendrix_purcell_defended", "ktane", "table", "tactic",
                                  "turbo", "ultimate"]
    for name in catalogue.names():
        core = catalogue.game(name).cartridge()(**catalogue.game(name).given())
        assert isinstance(core, Cartridge) and core.signature.members == Signature().members
        assert len(core.code) == 1 and core.code.isupper() and core.lamp_names
        Fragment.get(core, None)        # it elaborates without a platform
    codes = [catalogue.game(name).code for name in catalogue.names()]
    assert len(set(codes)) == len(codes)
    with pytest.raises(ValueError, match="unknown game 'nope'"):
        catalogue.game("nope")


# Every game: make test-slow and make verify GAME=firstfree; make test plays a handful of
# them on every backend (below).
@pytest.mark.slow
def test_first_free_agrees_with_its_golden_model_in_every_game():
    played, clocks = lockstep("firstfree")
    assert played == 822 and clocks > 20_000


def test_a_golden_model_that_misses_a_line_is_caught(monkeypatch):
    # Without the rising diagonal the model plays on where the core has ended the game.
    from firmware_ref import cartridge
    monkeypatch.setattr(cartridge, "LINES", cartridge.LINES[:-1])
    with pytest.raises(Mismatch, match=r"game \d+, clock \d+: (lamps|over|busy)"):
        lockstep("firstfree")


@pytest.mark.parametrize("board, games", [("icebreaker", ("firstfree",)),
                                          ("icestick", ("eth", "firstfree"))])
def test_the_console_builds_other_cartridges_and_several_at_once(board, games):
    files = plan(target(board), games).files
    rtlil = files["ttt.il"]
    for n, name in enumerate(games):
        assert f"cartridge{n}" in rtlil
    assert (".cartridge0.chip" in rtlil) == (games[0] == "eth")    # the chip, kept whole


def test_verify_of_a_game_without_a_golden_model_is_one_line(monkeypatch):
    from firmware_ref.cli import UserError
    from sim.verification import verify
    monkeypatch.setattr(catalogue.Game, "golden", lambda game: None)
    with pytest.raises(UserError, match="'firstfree' has no golden model"):
        verify.cartridge("firstfree")


# -- the ETH chip at the cartridge's pins, and every bench ------------------------------

def handful(name):
    """A few games of each kind, quick on every backend."""
    if name == "eth":
        from firmware_ref.eth import cartridge
        return (list(itertools.islice(cartridge.games([0], (), others=False), 2))
                + list(cartridge.games((), others=True)))
    from firmware_ref.firstfree import games
    return list(itertools.islice(games(), 0, None, 100))


def test_the_eth_golden_model_opens_where_the_start_clocks_say():
    from firmware_ref.eth import cartridge
    for opening in range(8):
        game = next(cartridge.games([opening], (), others=False))   # checks the opening
        assert sum(pins.start for pins in game) == cartridge.start_clocks(opening)
    assert sum(1 for _ in cartridge.games([0], (), others=False)) == 101


# cocotb's Verilator build of a cartridge is half a minute, and plain Verilator's builds
# slower than the compiled core's (docs/performance.md): make test-slow. (Both stay in
# make test on the exported chip: tests/test_netlist.py, tests/test_verilated.py.)
ON_VERILATOR = ("verilator", PLAIN_VERILATOR)


@pytest.mark.parametrize("name, backend", [
    pytest.param(name, backend, marks=[pytest.mark.slow] if backend in ON_VERILATOR else [])
    for name in ("eth", "firstfree")
    for backend in ON_CARTRIDGES])
def test_every_cartridge_agrees_with_its_golden_model_on_every_backend(name, backend):
    games = handful(name)
    played, clocks = lockstep(name, games, backend=backend)
    assert played == len(games) >= 8 and clocks == sum(map(len, games))


class WrongLamp(catalogue.game("eth").cartridge()):
    """The ETH chip with lamp 3 (its own, always dark) lit when the game is over."""

    def elaborate(self, platform):
        m = super().elaborate(platform)
        m.d.comb += self.lamps[3].eq(self.over)
        return m


# A build of its own on each compiled simulator (Verilator's half a minute, CXXRTL's 5 s):
# make test-slow. make test catches a wrong core on the compiled backend too
# (tests/test_adding_a_game.py).
@pytest.mark.parametrize("backend", [pytest.param(backend, marks=[pytest.mark.slow]
                                                  if backend != "amaranth" else [])
                                     for backend in ON_CARTRIDGES])
def test_a_core_that_lights_a_wrong_lamp_is_caught_on_every_backend(backend):
    with pytest.raises(Mismatch, match=r"game 0, clock \d+: lamps is 1[04] in "
                                                  r"the core, [26] in the golden model"):
        lockstep("eth", handful("eth")[:1], backend=backend, core=WrongLamp)


def forgets_the_position(monkeypatch):
    """Break the ETH golden model: its board keeps the last game's while ``start`` is
    held, instead of showing the position being entered. Returns a game that begins
    from a position, where that shows."""
    from firmware_ref.eth import cartridge
    tick = cartridge.Model.tick

    def forgetful(model):
        board = model.board
        tick(model)
        if model.inputs.start:
            model.board = board
    monkeypatch.setattr(cartridge.Model, "tick", forgetful)
    return next(cartridge.games((), others=False))


def test_a_golden_model_that_does_not_show_the_position_entered_is_caught(monkeypatch):
    game = forgets_the_position(monkeypatch)
    with pytest.raises(Mismatch, match=r"game 0, clock 0: board is 288 in the "
                                                  r"core, 0 in the golden model"):
        lockstep("eth", [game], backend="compiled")


def test_a_missing_tool_is_one_line(monkeypatch):
    from firmware_ref.cli import UserError
    monkeypatch.setenv("CXX", "no-such-c++")
    with pytest.raises(UserError, match=r"^the compiled backend cannot run: no C\+\+ "
                                        r"compiler: 'no-such-c\+\+' is not on the PATH"):
        lockstep("firstfree", [], backend="compiled")
    monkeypatch.setenv("PATH", "")
    with pytest.raises(BackendMissing, match=r"^the verilator backend cannot run: "
                                             r"Verilator needs perl"):
        lockstep("firstfree", [], backend="verilator")
    with pytest.raises(ValueError, match="unknown backend 'spice'"):
        lockstep("firstfree", [], backend="spice")


@pytest.mark.parametrize("name", ["eth", "firstfree"])
def test_the_waves_of_a_game_compare_equal_with_the_golden_models(name, tmp_path):
    core, golden = tmp_path / "core.vcd", tmp_path / "golden.vcd"
    game = handful(name)[-1]
    assert cartridge_waves.waves(name, game, core, golden) == (1, len(game))
    report = game_waves.compare(golden, core)
    assert report.equal and report.cycles == len(game), report.summary()
    assert sorted(report.pairs) == sorted(["key", "start", "position", "switches",
                                           "rx__valid", "rx__payload", "tx__ready",
                                           "ready", "busy", "over", "board", "lamps",
                                           "rx__ready", "tx__valid", "tx__payload"])
    for waves in (core, golden):
        view = waves.with_suffix(".gtkw").read_text()
        assert f'[dumpfile] "{waves.resolve()}"' in view and "cartridge.board[17:0]" in view
    assert game_waves.compare(core, golden).equal       # and the other way round


def test_a_changed_value_in_the_waves_is_reported(tmp_path, monkeypatch):
    core, golden = tmp_path / "core.vcd", tmp_path / "golden.vcd"
    game = forgets_the_position(monkeypatch)
    with pytest.raises(Mismatch, match="board"):
        cartridge_waves.waves("eth", game, core, golden)
    report = game_waves.compare(golden, core)       # both written all the same
    assert not report.equal
    first = report.differences[0]
    assert first.signal == "board" and first.expected.startswith("0 ")
    assert first.actual.startswith("288 ")
    assert "FIRST DIFFERENCE" in report.summary()


@pytest.mark.parametrize("name", ["eth", "firstfree"])
def test_games_that_begin_alike_share_the_golden_models_clocks_and_nothing_else(name):
    package = catalogue.game(name).golden()
    games = list(itertools.islice(package.games(), 6)) + handful(name)[-3:]
    golden = Golden(package)
    for game in games:
        model, fresh = package.Model(), []
        for pins in game:
            model.set(pins)
            model.tick()
            fresh.append(tuple(getattr(model.probe, f) for f in golden.outputs))
        assert golden.play(game) == fresh


def test_ttt_waves_of_a_game_writes_both_sides_and_they_compare_equal(tmp_path, monkeypatch,
                                                                       capsys):
    import sim
    from boards.ttt import main as ttt
    from sim.waves import show
    monkeypatch.setattr(sim, "BUILD", tmp_path)
    for name in ("DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    # GTKWave's presence is the test's to set, not the machine's: both branches.
    monkeypatch.setattr(show.shutil, "which", lambda tool: None)
    assert ttt(["waves", "--game", "firstfree", "--play", "2"]) == 0
    assert "GTKWave cannot show them: it is not installed here" in capsys.readouterr().out
    monkeypatch.setattr(show.shutil, "which", lambda tool: f"/usr/bin/{tool}")
    assert ttt(["waves", "--game", "firstfree", "--play", "2"]) == 0
    core, model = tmp_path / "firstfree-game2.vcd", tmp_path / "firstfree-game2_golden.vcd"
    assert "there is no display here" in capsys.readouterr().out
    assert core.with_suffix(".gtkw").exists() and model.with_suffix(".gtkw").exists()
    assert ttt(["compare", str(model), str(core)]) == 0
    assert "no difference" in capsys.readouterr().out


def test_make_waves_of_a_game_past_the_last_says_how_many_there_are():
    from firmware_ref import firstfree
    count = sum(1 for _ in firstfree.games())
    done = make("waves", "GAME=firstfree", "PLAY=99999")
    assert done.returncode == 2
    assert done.stderr.splitlines()[0] == (f"error: firstfree has {count} games: "
                                           f"PLAY=0..{count - 1}, not 99999")


# -- the blunder lamp of a game of turns ----------------------------------------------------

def blundering_first_free(monkeypatch, core_blunders):
    """First free with the blunder lamp, its golden model told of every blunder and
    the core of `core_blunders` (a function of that set)."""
    import types

    from firmware_ref import turns
    from firmware_ref.firstfree import model
    from hdl.firstfree.cartridge import FirstFree
    blunders = turns.blunders_of(model.Scan)

    class Model(model.Model):
        blunder_lamp = True

        def __init__(self):
            super().__init__()
            self.blunders = blunders

    class Core(FirstFree):
        blunder_lamp = True

        def __init__(self):
            super().__init__(blunders=core_blunders(blunders))

    package = types.SimpleNamespace(Model=Model, Inputs=model.Inputs, Probe=model.Probe,
                                    games=lambda: turns.games(Model()))
    monkeypatch.setattr(catalogue.Game, "golden", lambda game: package)
    return Core


# Every game in make test-slow; every eighth in make test.
@pytest.mark.parametrize("every", [8, pytest.param(1, marks=pytest.mark.slow)])
def test_the_blunder_lamp_lights_after_each_blunder_in_every_game(monkeypatch, every):
    core = blundering_first_free(monkeypatch, lambda blunders: blunders)
    assert core.lamp_names[3] == "blunder"
    games = list(catalogue.game("firstfree").checked().games())[::every]
    assert lockstep("firstfree", games, core=core) == (len(games), sum(map(len, games)))
    assert len(games) == -(-822 // every)


def test_a_core_that_misses_a_blunder_is_caught(monkeypatch):
    core = blundering_first_free(monkeypatch, lambda blunders: sorted(blunders)[1:])
    with pytest.raises(Mismatch, match=r"lamps is \d+ in the core"):
        lockstep("firstfree", core=core)
