"""The desk of several games that the test modules play in a board in a box, named once
so that it is built once (a desk's first build takes seconds)."""

# The 1990 chip, first free and the bomb module: a board of several games (test_box.py),
# two machines playing each other (the console's and the page's tests), the bomb's
# lines meeting the host's frames (test_link_race.py) and the bomb defused through the
# board (test_ktane.py).
GAMES = ("eth", "firstfree", "ktane")
