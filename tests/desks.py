"""The desks of several games that make test's boards in a box play, named once so
that the modules sharing one build it once (a desk's first build takes seconds)."""

# The bomb beside the 1990 chip and first free: its lines after the G frame that chose
# it meet a quick host's next frame (test_link_race.py); test_ktane.py plays it.
WITH_THE_BOMB = ("eth", "ktane", "firstfree")
# The 1990 chip and first free: a board of two games (test_box.py), two machines
# playing each other (the page's tests).
TWO_GAMES = ("eth", "firstfree")
