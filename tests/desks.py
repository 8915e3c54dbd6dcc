"""The desks of several games that more than one test module plays in a board in a
box, named once so that each is built once (a desk's first build takes seconds)."""

# The 1990 chip and first free: a board of two games (test_box.py), two machines
# playing each other (the page's tests).
TWO_GAMES = ("eth", "firstfree")
