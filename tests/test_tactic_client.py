"""Tactic-Toe's terminal client (boards/host/tactic.py): a game against the machine
through the board in a box, two people refereed on the golden model, and `make play
GAME=tactic` as a user types it."""

import pytest
from user import make


@pytest.mark.slow       # compiling its desk; make test plays the machine on the golden model
def test_a_game_against_the_machine_through_the_board_in_a_box():
    from boards.host import tactic as client
    from boards.host.link import Link, open_box
    from boards.box.box import Box
    said = []
    typed = iter(["555", "237", "146", "999", "quit", "quit"])
    with Box(("tactic",)) as box, open_box(box) as port:
        session = client.Session(client.BoardGame(Link(port)),
                                 lambda prompt: next(typed), said.append)
        assert session.run() == 0
    text = "\n".join(said)
    assert "That plan won't do: round 1: not the centre, 5." in text
    assert "The machine planned 1 9 3." in text        # the golden planner's, above
    assert "Round 1, move 1: X 2 placed, O 1 placed." in text


def test_the_terminal_referees_two_people_on_the_golden_model():
    from boards.host import tactic as client
    said, secret = [], []
    typed = iter(["people"])
    # The seed's tie game: both plans typed unseen, each round.
    plans_typed = iter(["389", "748", "651", "129"])

    def hidden(prompt):
        secret.append(prompt)
        return next(plans_typed)
    answers = iter(["again", "quit"])
    session = client.Session(client.RefereeGame(),
                             lambda prompt: next(typed, None) or next(answers),
                             said.append, hidden)
    assert session.run() == 0
    text = "\n".join(said)
    assert "A tie game: both lines." in text and "'again': new, people or quit." in text
    assert secret == ["A (X) plan for round 1: ", "B (O) plan for round 1: ",
                      "A (X) plan for round 2: ", "B (O) plan for round 2: "]


@pytest.fixture(scope="module")
def lost_to_the_machine():
    """`make play GAME=tactic` with plans that lose to the machine in round 3."""
    done = make("play", "GAME=tactic", input="192\n473\n254\nquit\n")
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_against_the_machine_the_result_names_you_and_the_machine(lost_to_the_machine):
    # The player is asked for "your (X) plan" and never told of players A and B.
    assert "The machine wins." in lost_to_the_machine.splitlines()
    assert "(A)" not in lost_to_the_machine and "(B)" not in lost_to_the_machine


def test_the_board_is_drawn_once_between_rounds(lost_to_the_machine):
    # The board after a round is drawn once, under the next round's number.
    lines = lost_to_the_machine.splitlines()
    for n in (2, 3):
        assert lines[lines.index(f"Round {n}.") - 1].startswith(f"Round {n - 1}, move 3:")
    assert lost_to_the_machine.count("     1   2   3") == 4     # rounds 1-3, and the end
