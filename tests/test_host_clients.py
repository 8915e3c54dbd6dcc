"""boards/host/: each game's face in the catalogue names its client, the link sends a refused frame
again in one place for every client, and no client imports another (docs/cartridge.md,
"Adding a game")."""

import ast
from pathlib import Path

import pytest

from boards.host import clients, protocol
from sim import catalogue

HOST = Path(clients.__file__).parent


def imports(module):
    """The modules of boards/host/ that boards/host/`module`.py imports, anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse((HOST / f"{module}.py").read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            found |= {node.module} if node.module else {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            parts = node.module.split(".")
            if parts[:2] == ["boards", "host"]:
                found |= {parts[2]} if len(parts) > 2 else {a.name for a in node.names}
    return {name.split(".")[0] for name in found} & {p.stem for p in HOST.glob("*.py")}


FACES = {entry.face for entry in catalogue.games()}


def test_each_face_names_a_client_that_exists():
    for face in FACES:
        module = __import__(f"boards.host.{face.client}", fromlist=["play_board"])
        assert callable(module.play_board) and callable(module.play_golden)
    assert clients.client("firstfree").__name__ == "boards.host.terminal"
    assert clients.client("ktane").__name__ == "boards.host.bomb"


def test_no_client_imports_another_nor_the_table():
    modules = {face.client for face in FACES}
    for module in sorted(modules):
        assert not imports(module) & (modules | {"clients", "console"}), module


def test_the_host_modules_import_each_other_without_a_cycle():
    graph = {p.stem: imports(p.stem) for p in HOST.glob("*.py")}
    done, path = set(), []

    def visit(module):
        assert module not in path, " -> ".join(path[path.index(module):] + [module])
        if module in done:
            return
        path.append(module)
        for other in sorted(graph[module]):
            visit(other)
        path.pop()
        done.add(module)
    for module in sorted(graph):
        visit(module)


class Refusing(protocol.Exchange):
    """A board that refuses its first `refusals` frames, then answers."""

    def __init__(self, refusals):
        self.refusals, self.sent = refusals, []

    def answer(self, frame):
        self.sent.append(frame)
        if len(self.sent) <= self.refusals:
            return protocol.parse("error")
        return protocol.parse("...|...|... gE l1000 s1000 c0000")


@pytest.mark.parametrize("refusals, again, sent", [(0, False, 1), (0, True, 1),
                                                   (1, True, 2), (1, False, 1),
                                                   (2, True, 2)])
def test_a_refused_frame_is_sent_again_once_when_asked(refusals, again, sent):
    board = Refusing(refusals)
    if refusals > again:
        with pytest.raises(protocol.Rejected):
            board.command(protocol.STATUS, again=again)
    else:
        assert board.command(protocol.STATUS, again=again).game == "E"
    assert board.sent == [protocol.STATUS] * sent
