"""The static site of some games built and served from this machine as docs/site.md
says to serve it, with Python's own `python3 -m http.server` in its folder, for the
browser tests and `make benchmark`: ``with Local(games) as url``. Nothing of the
console runs here: only files are served."""

import re
import shutil
import subprocess
import sys
import tempfile

from pathlib import Path

from firmware_ref.cli import UserError
from sim import BUILD

from .build import build

__all__ = ["Local"]

# What http.server says once it listens: "Serving HTTP on 127.0.0.1 port 8000 (...".
LISTENING = re.compile(rb"port (\d+)")


class Local:
    """The site of `games` (every game by default), built into a folder of its own
    under build/sites/ (another run's build of the same games never replaces the files
    it serves) and served on a free port of 127.0.0.1; the folder goes at the end."""

    def __init__(self, games=None):
        self.games = games

    def __enter__(self):
        BUILD.mkdir(exist_ok=True)
        (BUILD / "sites").mkdir(exist_ok=True)
        self.folder = Path(tempfile.mkdtemp(prefix="-".join(self.games or ["all"]) + "-",
                                            dir=BUILD / "sites"))
        build(self.games, out=self.folder, log=lambda text: None)
        self._server = subprocess.Popen(
            [sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1"],
            cwd=self.folder, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        said = self._server.stdout.readline()
        port = LISTENING.search(said)
        if port is None:
            self.__exit__()
            raise UserError(f"python3 -m http.server did not start: {said!r}")
        return f"http://127.0.0.1:{int(port[1])}/"

    def __exit__(self, *exc):
        self._server.terminate()
        self._server.wait()
        self._server.stdout.close()
        shutil.rmtree(self.folder, ignore_errors=True)
