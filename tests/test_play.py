"""`make play GAME=...`: every game in the terminal on its golden model, as a user types
it. A game of turns (first free, the museum's machines) is played by the board's own
client over the golden model (boards/host/golden.py); a name that is no game is one line."""

from firmware_ref.places import RED
from sim import catalogue
from user import make, typed


def begin(model):
    """A game of turns' golden model (firmware_ref/turns.py) from the empty board."""
    for pins in ({"start": 1}, {"start": 0}):
        model.set(**pins)
        model.tick()
    while model.state != "WAIT":
        model.tick()


def reply(model, place):
    """The golden model's answer to the person's stone on `place`: ``B1; its move took
    N clock cycles.``, N the busy clocks after the key, as the client reports them."""
    before = list(model.places)
    model.set(key=1 << place)
    model.tick()
    model.set(key=0)
    busy = 0
    while model.state not in ("WAIT", "OVER"):
        busy += model.probe.busy
        model.tick()
    k = next(k for k in range(9) if model.places[k] == RED and before[k] != RED)
    return "ABC"[k % 3] + "123"[k // 3] + f"; its move took {busy} clock cycles."


def after_each(done, moves):
    """The line printed after each of `moves` was typed (echoed behind the prompt)."""
    lines = done.stdout.splitlines()
    return [lines[lines.index(f"> {move}") + 1] for move in moves]


def test_make_play_plays_first_free_on_its_golden_model():
    # First free takes the first empty place: A1, B1, C1 is its line.
    done = make("play", "GAME=firstfree", input="b2\na2\nc3\nn\n", timeout=120)
    assert (done.returncode, done.stderr) == (0, "")
    assert after_each(done, ["b2", "a2", "c3"]) == [
        "The machine plays A1; its move took 3 clock cycles.",
        "The machine plays B1; its move took 4 clock cycles.",
        "The machine plays C1; its move took 5 clock cycles."]
    assert "The machine won." in done.stdout.splitlines()


def test_make_play_plays_a_museum_machine_on_its_golden_model():
    # Turbo: the person on B2, then on the first place left empty.
    from firmware_ref.turbo import Model
    model = Model()
    begin(model)
    said = [reply(model, 4)]
    second = next(k for k in range(9) if not model.places[k])
    said.append(reply(model, second))
    moves = ["b2", "ABC"[second % 3] + "123"[second // 3]]
    done = make("play", "GAME=turbo", input="\n".join(moves) + "\nquit\n", timeout=120)
    assert (done.returncode, done.stderr) == (0, "")
    assert after_each(done, moves) == [f"Turbo plays {line}" for line in said]


def test_make_play_refuses_a_game_that_is_not_one_in_one_line():
    done = make("play", "GAME=nope")
    ours = [line for line in done.stderr.splitlines() if not line.startswith("make")]
    assert done.returncode == 2 and len(ours) == 1, done.stderr
    assert ours[0].startswith("error: unknown game 'nope'; the games are: ")
    assert all(name in ours[0] for name in catalogue.names())


def test_ttt_play_help_lists_the_games():
    done = typed(["ttt", "play", "-h"])
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    assert all(name in text for name in catalogue.names())
