"""The project's Python that the page's Worker runs, and nothing else: every module
`boards.site.page` imports, and those each game's view, client and golden model import
when the page first plays it, found by importing them here (numpy blocked: the
browser has none), printed as JSON [[root, path], ...] for build.py's zip.

    python -m boards.site.modules
"""

import importlib
import json
import sys
from pathlib import Path

# What the Worker lacks, so that an import of one fails here rather than in a page.
ABSENT = ("numpy", "ctypes", "aiohttp", "serial", "pywellen")
# Imported inside the functions that need them (the chip's insides: its widths, its
# waves and their view), which importing the console does not reach.
LATER = ("hdl.eth.chip", "hdl.eth.export", "sim.chip.view", "vcd")
# What Pyodide provides, which the Worker's own module imports.
PYODIDE = ("js", "pyodide", "pyodide.ffi")
# What the installer put in site-packages to find the project: not the page's.
HOOKS = ("_distutils_hack", "__editable__")
# A library's files the browser cannot use: its compiled parts.
COMPILED = (".so", ".pyc", ".pyd")
# The files modules read, beside them, by the package that reads them.
DATA = {"sim.chip.e2": "e2_trace.txt"}


def gathered():
    for name in ABSENT:
        sys.modules[name] = None
    for name in PYODIDE:
        sys.modules[name] = type(sys)(name)
    sys.modules["pyodide.ffi"].to_js = None
    sys.modules["js"].ttt = None
    import boards.site.page          # noqa: F401 -- imported for what it imports
    from boards.web import chip, views
    from sim import catalogue
    for name in catalogue.names():
        views.module(name)          # a view imports its client and golden model
        catalogue.game(name).title  # a game's entry imports its package
    chip.words.chip()
    for name in LATER:
        importlib.import_module(name)
    roots = sorted({Path(p).resolve() for p in sys.path if p and Path(p).is_dir()},
                   key=lambda p: -len(p.parts))
    stdlib = Path(json.__file__).resolve().parent.parent
    files = set()
    for name, module in list(sys.modules.items()):
        source = getattr(module, "__file__", None)
        if not source or not source.endswith(".py"):
            continue
        source = Path(source).resolve()
        if source.is_relative_to(stdlib) and "site-packages" not in source.parts or \
                name.startswith(HOOKS):
            continue
        root = next(r for r in roots if source.is_relative_to(r))
        path = source.relative_to(root)
        if "site-packages" in root.parts:
            # A library whole, with its data (jschon's schemas): a pure-Python fallback
            # beside a compiled part is imported only where the compiled one is missing,
            # as in the browser.
            files.update((str(root), str(f.relative_to(root)))
                         for f in (root / path.parts[0]).rglob("*")
                         if f.is_file() and f.suffix not in COMPILED
                         and "__pycache__" not in f.parts)
        files.add((str(root), str(path)))
        if name in DATA:
            files.add((str(root), str(source.parent.relative_to(root) / DATA[name])))
    return sorted(files)


if __name__ == "__main__":
    print(json.dumps(gathered()))
