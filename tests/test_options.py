"""What several verbs take alike (boards/commands/options.py), as a user meets it in
`make bitstream GAME=...`: a game that is not there, or one named twice, is refused
before any work begins, with the games there are."""

from user import make


def test_an_unknown_or_repeated_game_is_named_with_the_games_there_are():
    from sim.catalogue import names
    done = make("bitstream", "GAME=chess")
    assert done.returncode == 2 and "Building" not in done.stdout     # no work began
    refused = done.stderr.splitlines()[-2]          # above make's own line
    assert refused.endswith(f"argument --game: unknown game 'chess'; the games: "
                            f"{', '.join(names())}; or museum (all the museum's machines)")
    done = make("bitstream", "GAME=eth,firstfree,eth")
    assert done.stderr.splitlines()[-2].endswith(
        "argument --game: 'eth' named more than once in 'eth,firstfree,eth': name each "
        "game once")
