"""The terminal a client asks through: `read(prompt)` (EOFError at the end) and
`write(text)`, and the questions every client asks alike. Its own module, beside
link.py, so that a client imports what it shares and never another client."""

import sys

__all__ = ["Prompter", "Quit", "typed", "said"]

YES_NO = {"Y": True, "YES": True, "N": False, "NO": False}
QUIT = ("QUIT", "Q")


class Quit(Exception):
    """The player's input ended, or they typed quit."""


class Prompter:
    """Questions on a terminal, `read(prompt)` (EOFError at the end) and `write(text)`:
    the board's session and Ultimate's client ask through it."""

    def ask(self, prompt):
        try:
            line = self.read(prompt)
        except EOFError:
            self.write("")
            raise Quit from None
        if line.strip().upper() in QUIT:
            raise Quit
        return line

    def yes(self, question):
        while True:
            answer = self.ask(f"{question} (Y/N) ").strip().upper()
            if answer in YES_NO:
                return YES_NO[answer]
            self.write("Please answer Y or N.")


def typed(prompt):
    """`input`, echoing what was read when it does not come from a terminal, so that a
    piped session reads as one typed by hand."""
    line = input(prompt)
    if not sys.stdin.isatty():
        print(line)
    return line


def said(text):
    """`print`, seen at once even in a log or a pipe: a line may precede a long wait."""
    print(text, flush=True)
