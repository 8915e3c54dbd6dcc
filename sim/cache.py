"""The one cache: everything kept between runs under build/ (golden recordings, built
simulators, synthesised netlists, measured costs) is an entry made by `cached`.

An entry is the folder ``<folder>/<key>/``: the key a hash of every text that shapes what
it holds (the sources read, the options, the tools' versions, the shape of the data),
the files its build made, and last a manifest (`MANIFEST`) naming the key and each
file's size, time of change and SHA-256. An entry is used only when its manifest is
whole, names the key it is asked for and every file still holds what it names: a build
cut short, a file truncated or written since, or an entry copied in from another key (a
stale or foreign one) is built again, never used. A file whose time of change moved is
hashed again, and kept if its content is the same; one whose size and time are as
stamped is not read, as a large recording is read at every run.

A build runs in a scratch folder and its files are put in place before the manifest,
under a lock, so that two processes asking for the same entry at once (the test
workers, two commands) build it once.
"""

import fcntl
import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

from sim import shown

__all__ = ["MANIFEST", "key", "cached", "valid"]

MANIFEST = ".manifest.json"
LOCK = ".lock"


def key(parts):
    """The entry's key: a hash of `parts`, every text its content depends on."""
    return hashlib.sha256("\0".join(map(str, parts)).encode()).hexdigest()[:16]


def _digest(path):
    """A file's SHA-256, or for a folder the hash of every file below it by name."""
    digest = hashlib.sha256()
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    for file in files:
        digest.update(str(file.relative_to(path)).encode() if path.is_dir() else b"")
        with open(file, "rb") as data:
            for block in iter(lambda: data.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()


def _stamp(path):
    """A file's size and time of change, or for a folder its files' total and the
    newest: what any write to it changes."""
    stats = [p.stat() for p in path.rglob("*") if p.is_file()] if path.is_dir() else \
        [path.stat()]
    return [sum(s.st_size for s in stats), max((s.st_mtime_ns for s in stats), default=0)]


def _same(path, stamp, digest):
    """Whether `path` holds what the manifest says: as stamped, or, touched since (a
    copy, say), with the same size and content."""
    now = _stamp(path)
    return now == stamp or (now[0] == stamp[0] and _digest(path) == digest)


def valid(entry, wanted):
    """Whether the folder `entry` holds a whole entry of key `wanted`."""
    try:
        manifest = json.loads((entry / MANIFEST).read_text())
        return manifest["key"] == wanted and all(
            _same(entry / name, stamp, digest)
            for name, (stamp, digest) in manifest["files"].items())
    except (OSError, ValueError, KeyError, TypeError):
        return False


def cached(folder, parts, name, build, *, doing, seconds=None, log=None):
    """The path `folder/KEY/name`, KEY the `key` of `parts`, built when the cache holds
    no valid entry by `build(work)`: it builds in the scratch folder `work` and returns
    the paths there to keep (files or folders), `name` among them. `log` hears first what
    the build is `doing`, and about how long it takes, or that a stale entry is rebuilt."""
    wanted = key(parts)
    entry = Path(folder) / wanted
    target = entry / name
    if valid(entry, wanted):
        return target
    entry.mkdir(parents=True, exist_ok=True)
    with open(entry / LOCK, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if valid(entry, wanted):                # built meanwhile by another process
            return target
        stale = [p for p in entry.iterdir() if p.name != LOCK]
        if log:
            took = f", about {seconds:.0f} s" if seconds else ""
            anew = " anew, the kept entry incomplete or changed," if any(
                not p.name.startswith(".tmp") for p in stale) else ""
            log(f"{doing}{anew} into {shown(entry)} (once{took})")
        for path in stale:
            shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
        with tempfile.TemporaryDirectory(dir=entry, prefix=".tmp") as work:
            kept = [Path(path) for path in build(Path(work))]
            if name not in {path.name for path in kept}:
                raise RuntimeError(f"the build of {shown(target)} did not make {name}")
            files = {}
            for path in kept:
                os.replace(path, entry / path.name)
                files[path.name] = (_stamp(entry / path.name), _digest(entry / path.name))
            manifest = Path(work) / MANIFEST
            manifest.write_text(json.dumps({"key": wanted, "files": files}, indent=1))
            os.replace(manifest, entry / MANIFEST)      # last: the entry is whole now
    return target
