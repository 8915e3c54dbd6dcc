"""docs/architecture.md's table of folders is the tree: every package on disk has its
row, every row names a folder that is there. A game's folder is the `<game>` row of
hdl/ and firmware_ref/, found by the name the cartridge bench finds it by."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "architecture.md"
PACKAGES = ("firmware_ref", "hdl", "sim", "boards")


def rows():
    """The folders the page's table names, as written (`hdl/<game>/` included)."""
    return set(re.findall(r"^\| `([\w<>/]+)/` \|", PAGE.read_text(), re.MULTILINE))


def games():
    """The game folders: a core in hdl/<name>/ beside a golden model of the same name."""
    return {path.parent.name for path in ROOT.glob("hdl/*/cartridge.py")
            if (ROOT / "firmware_ref" / path.parent.name).is_dir()}


def folders():
    """The packages on disk, a game's folder written as the table writes it."""
    found = {"tests", "docs"} | set(PACKAGES)
    for package in PACKAGES:
        for init in (ROOT / package).rglob("__init__.py"):
            folder = init.parent.relative_to(ROOT)
            if len(folder.parts) == 2 and folder.parts[1] in games() - {"eth"}:
                found.add(f"{folder.parts[0]}/<game>")
            elif len(folder.parts) > 2 and folder.parts[1] in games():
                continue                        # inside a game: that game's own business
            else:
                found.add(str(folder))
    return found


def differences(named, on_disk):
    """Folders without a row, and rows without a folder."""
    return sorted(on_disk - named), sorted(named - on_disk)


def test_the_page_names_every_folder_and_only_folders_that_are_there():
    named = rows()
    assert len(named) > 10, "the table of folders is not found"
    assert differences(named, folders()) == ([], [])


def test_a_folder_without_a_row_or_a_row_without_a_folder_is_seen():
    on_disk = folders()
    assert differences(on_disk - {"sim/waves"}, on_disk) == (["sim/waves"], [])
    assert differences(on_disk | {"sim/gone"}, on_disk) == ([], ["sim/gone"])
