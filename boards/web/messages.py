"""The messages between the page and the console: JSON objects, each with a ``kind``
(docs/web.md, "The messages"), over whatever carries them (the server's WebSocket).

The page sends ``hello`` (first, with the session it had, if any), ``act`` (an action
on the game playing: a key, a new game, a switch, or a game's own), ``game`` (play
another of the board's games), ``match`` (two machines play each other) and ``chip``
(clock the chip's insides by hand: chip.py). The server sends ``welcome``, ``state``
(what the game playing shows), ``match`` (the match's boards and moves), ``chip`` (the
chip's frame shown), ``progress`` (what a job the page waits for is doing) and
``error``. A panel of the page listens to one kind; a new panel is a new kind, and
nothing else changes.

Everything from the page is checked here before anything acts on it: a message too long,
not JSON, not an object, of an unknown kind or with a field of the wrong type is
answered with an ``error`` and changes nothing.
"""

import json

__all__ = ["Invalid", "LIMIT", "FROM_PAGE", "parse", "encode", "error", "progress"]

# Bytes a message from the page may hold (UTF-8): the longest, an Ultimate position to
# load, is some 120.
LIMIT = 2048


class Invalid(ValueError):
    """A message from the page that is not one: its text is the error sent back."""


# What each kind the page sends may hold: {field: (type, required)}. `act` carries the
# action's own fields, which the game playing checks (boards/web/views/).
FROM_PAGE = {
    "hello": {"session": (str, False)},
    "act": {"do": (str, True), "id": (int, False)},
    "game": {"number": (int, True)},
    "match": {"do": (str, True), "machines": (list, False), "opens": (int, False),
              "place": (int, False)},
    # The chip's insides (chip.py): the place may be null (every key let go).
    "chip": {"do": (str, True), "edges": (int, False), "cycle": (int, False),
             "pin": (str, False), "value": (int, False)},
}


def parse(text):
    """The message in `text` (a WebSocket's text frame) as a dict, or Invalid."""
    # Bytes as they travel, in UTF-8, where a letter may take up to four (a lone
    # surrogate, which no WebSocket carries but a transport might hand in, three).
    if len(text.encode("utf-8", "surrogatepass")) > LIMIT:
        raise Invalid(f"a message holds at most {LIMIT} bytes")
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        raise Invalid("a message is a JSON object") from None
    if not isinstance(message, dict):
        raise Invalid("a message is a JSON object")
    kind = message.get("kind")
    if "kind" in message and not isinstance(kind, str):
        raise Invalid(f"a message's kind is a string, one of {', '.join(FROM_PAGE)}")
    if kind not in FROM_PAGE:
        raise Invalid(f"unknown kind of message {str(kind)[:40]!r}: the kinds are "
                      f"{', '.join(FROM_PAGE)}")
    for field, (kind_of, required) in FROM_PAGE[kind].items():
        if field not in message:
            if required:
                raise Invalid(f"a {kind} message needs {field!r}")
            continue
        value = message[field]
        # JSON's true is a Python bool, which is an int: a number is not a bool here.
        if not isinstance(value, kind_of) or (kind_of is int and isinstance(value, bool)):
            raise Invalid(f"{kind}: {field!r} is a {_names[kind_of]}")
    return message


_names = {str: "string", int: "whole number", list: "list", bool: "true or false"}


def encode(kind, **fields):
    """A message for the page."""
    return json.dumps({"kind": kind, **fields}, separators=(",", ":"))


def error(text, **fields):
    return encode("error", text=text, **fields)


def progress(doing, step=None, steps=None):
    """What a job the page waits for is doing (one line), and which of its steps it is
    at when they are counted; the job's next message ends it."""
    counted = {} if step is None else {"step": step, "steps": steps}
    return encode("progress", doing=doing, **counted)
