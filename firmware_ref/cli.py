"""What every command of the project does at its edges.

The project's one command, ``ttt`` (boards/ttt.py), runs every subcommand through
`run`, so a user never sees a traceback for something they can mend:

- `UserError` (bad arguments, a missing file, tool, board or port) is one line,
  ``error: ...``, and exit status 2;
- Ctrl-C is ``interrupted`` and exit status 130, as a shell reports a SIGINT;
- a closed pipe (``... | head``) ends quietly.

Files that a later run reads are written through `replacing`, so an interrupted run
leaves the old file or none, never half of a new one. Worker processes call
`ignore_interrupts`, so that only the parent reports Ctrl-C.

This lives beside the golden models because they are the one package that the cores'
benches (sim/), the console (boards/) and the models' own commands may all import.
"""

import contextlib
import os
import signal
import sys
import tempfile
from pathlib import Path

__all__ = ["UserError", "INTERRUPTED", "USAGE", "run", "replacing", "ignore_interrupts",
           "positive_int"]

INTERRUPTED = 130           # 128 + SIGINT, what a shell shows for Ctrl-C
USAGE = 2                   # argparse's status for bad arguments; ours too


class UserError(Exception):
    """Something the user can mend; its text is the one line they see."""


def run(main, argv=None):
    """Call ``main(argv)`` and turn its exit into a status, as described above."""
    try:
        return main(argv) or 0
    except UserError as error:
        print(f"error: {error}", file=sys.stderr)
        return USAGE
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        # Python would complain again when it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


@contextlib.contextmanager
def replacing(path, mode="w"):
    """Open a temporary file beside `path`; on success it replaces `path` whole."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    # mkstemp makes the file private (0600); the file it becomes gets the mode that
    # open() would have given it.
    os.chmod(temporary, 0o666 & ~_umask())
    try:
        with os.fdopen(handle, mode) as file:
            yield file
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _umask():
    mask = os.umask(0)          # the only way to read it is to set it
    os.umask(mask)
    return mask


def ignore_interrupts():
    """For worker processes: the parent alone answers Ctrl-C."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def positive_int(text):
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        import argparse
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return value
