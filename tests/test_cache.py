"""sim/cache.py: an entry is used only when whole and of its own key; a corrupted,
truncated, swapped or half-written one is built again, and two processes asking at once
build it once."""

import json
import multiprocessing
import os
import shutil

import numpy as np
import pytest

from sim import cache
from sim.cartridges import recording as recordings


def counting(folder, parts, text="made\n"):
    """`cached` of a one-file entry whose build appends a line to folder/builds."""
    def build(work):
        with open(folder / "builds", "a") as builds:
            builds.write("built\n")
        (work / "product.txt").write_text(text)
        (work / "notes.txt").write_text("kept beside it\n")
        return [work / "product.txt", work / "notes.txt"]
    return cache.cached(folder / "entries", parts, "product.txt", build, doing="making")


def builds(folder):
    return (folder / "builds").read_text().count("built") if (folder / "builds").exists() \
        else 0


def test_an_entry_is_built_once_then_read(tmp_path):
    path = counting(tmp_path, ["a source", "tool 1.0"])
    assert path.read_text() == "made\n" and builds(tmp_path) == 1
    assert counting(tmp_path, ["a source", "tool 1.0"]) == path and builds(tmp_path) == 1
    # Anything that shapes it is its key: another tool's version is another entry.
    assert counting(tmp_path, ["a source", "tool 1.1"]) != path and builds(tmp_path) == 2
    assert path.parent.name == cache.key(["a source", "tool 1.0"])
    assert sorted(p.name for p in path.parent.iterdir()) == \
        sorted([cache.MANIFEST, cache.LOCK, "product.txt", "notes.txt"])


@pytest.mark.parametrize("damage", ["corrupted", "truncated", "emptied", "no manifest",
                                    "a file gone", "a foreign manifest"])
def test_a_damaged_entry_is_built_again_never_used(tmp_path, damage):
    path = counting(tmp_path, ["a source"])
    entry = path.parent
    if damage == "corrupted":                       # the same size, one byte changed
        path.write_text("mad!\n")
        later(path)
    elif damage == "truncated":
        path.write_text("ma")
    elif damage == "emptied":
        (entry / "notes.txt").write_text("")
    elif damage == "no manifest":                   # a build cut short before its end
        (entry / cache.MANIFEST).unlink()
    elif damage == "a file gone":
        (entry / "notes.txt").unlink()
    else:
        manifest = json.loads((entry / cache.MANIFEST).read_text())
        (entry / cache.MANIFEST).write_text(json.dumps({**manifest, "key": "0" * 16}))
    assert not cache.valid(entry, entry.name)
    said = []

    def build(work):
        for name in ("product.txt", "notes.txt"):
            (work / name).write_text("made\n")
        return [work / "product.txt", work / "notes.txt"]
    again = cache.cached(tmp_path / "entries", ["a source"], "product.txt", build,
                         doing="making", log=said.append)
    assert again == path and path.read_text() == "made\n"
    assert cache.valid(entry, entry.name)
    assert len(said) == 1 and said[0].startswith(
        "making anew, the kept entry incomplete or changed, into "), said


def later(path):
    """`path` changed a second after its build, as damage comes: a file system may stamp
    two writes in the same few milliseconds alike."""
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10 ** 9))


def test_a_file_touched_but_the_same_is_hashed_and_kept(tmp_path):
    path = counting(tmp_path, ["a source"])
    later(path)                                     # a copy, say: the same bytes
    assert cache.valid(path.parent, path.parent.name)
    assert counting(tmp_path, ["a source"]) == path and builds(tmp_path) == 1


def test_an_entry_swapped_in_from_another_key_is_built_again(tmp_path):
    mine = counting(tmp_path, ["mine"], text="mine\n")
    theirs = counting(tmp_path, ["theirs"], text="theirs\n")
    shutil.rmtree(mine.parent)
    shutil.copytree(theirs.parent, mine.parent)     # whole and valid, but not this key's
    assert builds(tmp_path) == 2
    assert counting(tmp_path, ["mine"], text="mine\n").read_text() == "mine\n"
    assert builds(tmp_path) == 3


def test_a_build_that_fails_leaves_no_entry(tmp_path):
    def failing(work):
        (work / "product.txt").write_text("half")
        raise RuntimeError("the tool failed")
    with pytest.raises(RuntimeError, match="the tool failed"):
        cache.cached(tmp_path, ["x"], "product.txt", failing, doing="making")
    entry = tmp_path / cache.key(["x"])
    assert not cache.valid(entry, entry.name)
    assert sorted(p.name for p in entry.iterdir()) == [cache.LOCK]
    with pytest.raises(RuntimeError, match="did not make product.txt"):
        cache.cached(tmp_path, ["x"], "product.txt", lambda work: [], doing="making")


def _ask(folder):
    return str(counting(folder, ["shared"]))


def test_two_processes_asking_at_once_build_the_entry_once(tmp_path):
    with multiprocessing.get_context("fork").Pool(4) as pool:
        paths = pool.map(_ask, [tmp_path] * 8)
    assert len(set(paths)) == 1 and builds(tmp_path) == 1


def test_a_damaged_golden_recording_is_recorded_again(tmp_path, monkeypatch):
    # The real thing: the recording a lockstep reads, truncated, is recorded anew.
    monkeypatch.setattr(recordings, "CACHE", tmp_path)
    first = recordings.recorded("firstfree", cartridge=True)
    (stored,) = tmp_path.glob("*/*/*/recording.npz")
    stored.write_bytes(stored.read_bytes()[:1000])
    again = recordings.recorded("firstfree", cartridge=True)
    assert (again.driven == first.driven).all() and (again.expected == first.expected).all()
    with np.load(stored) as saved:
        assert (saved["lengths"] == first.lengths).all()
